// The model's seeded generator: the same seed gives the same numbers, bit for bit, in native code and in WebAssembly.
//
// That rules out libm: log, exp and cos are not correctly rounded, and glibc (native) and musl (Emscripten) return
// different last bits for some arguments. Everything here uses integer arithmetic and IEEE basic operations only
// (+ - * / and sqrt, which every conforming platform rounds the same way), in a fixed order.
//
//   SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): a 64-bit
//     state advanced by a constant, each output a bijective mix of the state. Passes BigCrush; plenty for
//     initializing small models and drawing sentences.
//   uniform_below(n): Lemire's nearly divisionless method on the output's high 32 bits, exactly uniform over 0..n-1.
//   uniform(): 53 random bits scaled to [0, 1).
//   normal(): Marsaglia's polar method (1964). Draw (u, v) uniform in the square (-1, 1)^2 until 0 < s = u^2 + v^2 < 1,
//     then u * sqrt(-2 ln(s) / s) and v * sqrt(-2 ln(s) / s) are two independent standard normal values. Its only
//     transcendental function is ln, written below with basic operations (log_basic).
#pragma once

#include <cstdint>

namespace seqorder::model {

// Natural logarithm of a positive, finite, normal double, with basic operations only: x = m 2^e with m in
// [sqrt(1/2), sqrt(2)) (the exponent read from the bits), then ln m = 2 atanh(f), f = (m - 1) / (m + 1),
// |f| <= 0.1716, by its series 2 (f + f^3/3 + f^5/5 + ...) to f^29, where the next term is below 2^-60 of the sum;
// ln x = e ln2 + ln m with ln2 split in two parts so that e ln2_hi is exact. Within 2 ulp of the correctly rounded
// logarithm (tested against libm). Not for zero, subnormals, infinities or NaN (the polar method never asks).
double log_basic(double x);

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    // The 64-bit state: SplitMix64(state()) continues with the same outputs (the draws of uniform_below and uniform;
    // normal's spare value is not in it).
    std::uint64_t state() const noexcept { return state_; }

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    }

    // Exactly uniform over 0 .. n - 1, for 1 <= n <= 2^32.
    std::uint32_t uniform_below(std::uint64_t n);

    // Uniform over the 2^53 doubles k 2^-53, k = 0 .. 2^53 - 1.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }

    // A standard normal value (mean 0, variance 1), two per accepted pair of the polar method.
    double normal();

private:
    std::uint64_t state_;
    double spare_ = 0;
    bool has_spare_ = false;
};

}  // namespace seqorder::model
