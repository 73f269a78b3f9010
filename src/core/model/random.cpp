#include "random.hpp"

#include <cmath>
#include <cstring>

namespace seqorder::model {

double log_basic(double x) {
    // x = m 2^e, m in [1, 2): the biased exponent and the mantissa bits, read from x's representation (memcpy: the
    // libc++ of Emscripten 3.1.6 has no std::bit_cast)
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    auto e = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
    bits = (bits & 0x000FFFFFFFFFFFFFu) | 0x3FF0000000000000u;
    double m = 0;
    std::memcpy(&m, &bits, sizeof m);
    if (m > 1.4142135623730951) {  // bring m into [sqrt(1/2), sqrt(2)): halving is exact
        m *= 0.5;
        e += 1;
    }
    const double f = (m - 1.0) / (m + 1.0);
    const double f2 = f * f;
    // 1 + f2/3 + f2^2/5 + ... + f2^14/29, by Horner's rule from the smallest term
    double series = 1.0 / 29.0;
    for (int k = 13; k >= 0; --k) series = 1.0 / (2.0 * k + 1.0) + f2 * series;
    const double ln_m = 2.0 * f * series;
    // ln 2 = ln2_hi + ln2_lo (fdlibm's split): ln2_hi has 32 significant bits, so e * ln2_hi is exact for |e| < 2^21
    constexpr double ln2_hi = 0x1.62e42feep-1;
    constexpr double ln2_lo = 0x1.a39ef35793c76p-33;
    const auto de = static_cast<double>(e);
    return de * ln2_hi + (ln_m + de * ln2_lo);
}

std::uint32_t SplitMix64::uniform_below(std::uint64_t n) {
    // Lemire, "Fast random integer generation in an interval" (2019), on 32-bit draws: x n / 2^32 is uniform over
    // 0 .. n-1 once the draws whose low product falls below 2^32 mod n are rejected.
    std::uint64_t product = (next() >> 32) * n;
    auto low = static_cast<std::uint32_t>(product);
    if (low < n) {
        const auto threshold = static_cast<std::uint32_t>((std::uint64_t{1} << 32) % n);
        while (low < threshold) {
            product = (next() >> 32) * n;
            low = static_cast<std::uint32_t>(product);
        }
    }
    return static_cast<std::uint32_t>(product >> 32);
}

double SplitMix64::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u = 0, v = 0, s = 0;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    // s >= 2^-106 here (u, v are multiples of 2^-52), so s is a normal double and log_basic applies
    const double scale = std::sqrt(-2.0 * log_basic(s) / s);
    spare_ = v * scale;
    has_spare_ = true;
    return u * scale;
}

}  // namespace seqorder::model
