// Shared by the libFuzzer targets in fuzz/: turns the fuzzer's bytes into the arguments a caller could pass (sizes,
// offsets, dtypes, values), and the checks the targets use to state invariants.
//
// The bytes are read from the front, little-endian, and reading past the end yields zeros, so every input is a valid
// program and a hand-written seed (fuzz/make_seeds.py) reads the way it looks.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace seqorder_fuzz {

// A broken invariant: print what and where, then abort so libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const char* file, int line, const char* condition, const std::string& detail) {
    std::fprintf(stderr, "\nINVARIANT BROKEN at %s:%d: %s\n  %s\n", file, line, condition, detail.c_str());
    std::abort();
}
#define FUZZ_CHECK(condition, detail)                                                   \
    do {                                                                                \
        if (!(condition)) ::seqorder_fuzz::fail(__FILE__, __LINE__, #condition, detail); \
    } while (0)

// Elements a target may allocate for one tensor, and multiply-adds for one attention call: big enough for real
// shapes, small enough that a run does thousands of executions per second. Larger valid calls are skipped (their
// argument checking is still exercised through the calls that only check).
inline constexpr std::int64_t kMaxElements = std::int64_t{1} << 15;
inline constexpr std::int64_t kMaxWork = std::int64_t{1} << 18;

// The product of non-negative sizes, saturated at 2^62 (no overflow, no UB).
inline std::int64_t saturating_product(std::span<const std::int64_t> sizes) {
    constexpr std::int64_t cap = std::int64_t{1} << 62;
    __int128 p = 1;
    for (std::int64_t s : sizes) {
        if (s == 0) return 0;
        p *= s;
        if (p > cap) p = cap;
    }
    return static_cast<std::int64_t>(p);
}
inline std::int64_t saturating_product(std::initializer_list<std::int64_t> sizes) {
    return saturating_product(std::span<const std::int64_t>(sizes.begin(), sizes.size()));
}

// True when a tensor of these non-negative sizes and element size is beyond the core's 1 GiB limit
// (kMaxTensorBytes), computed here independently of the core.
inline bool beyond_tensor_limit(std::initializer_list<std::int64_t> sizes, std::size_t element_bytes) {
    const std::int64_t n = saturating_product(sizes);
    return static_cast<__int128>(n) * static_cast<__int128>(element_bytes) > (__int128{1} << 30);
}

class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
    bool flag() { return (byte() & 1) != 0; }
    std::uint64_t bits(int bytes) {
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
        return v;
    }

    // A size or offset as a caller might pass it: usually 0..small_max, sometimes a 2-byte value, sometimes an edge
    // (negative, 2^31, 2^53, near INT64_MAX ...), sometimes any 64-bit pattern.
    std::int64_t size(std::int64_t small_max) {
        const std::uint8_t selector = byte();
        if (selector < 200) return static_cast<std::int64_t>(byte()) % (small_max + 1);
        if (selector < 216) return static_cast<std::int64_t>(bits(2));
        if (selector < 252) {
            static constexpr std::int64_t edges[] = {
                -1, -2, 0, 1, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                std::int64_t{1} << 31, std::int64_t{1} << 32, (std::int64_t{1} << 53) - 1, std::int64_t{1} << 53,
                (std::int64_t{1} << 53) + 1, std::int64_t{1} << 62, std::int64_t{1} << 40, 1000000, 3, 65537,
                std::numeric_limits<std::int64_t>::max() - 1, -(std::int64_t{1} << 53)};
            return edges[byte() % std::size(edges)];
        }
        return static_cast<std::int64_t>(bits(8));
    }

    // A double chosen among the values that break naive code, or given bit for bit.
    double special() {
        static constexpr double table[] = {
            std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
            -std::numeric_limits<double>::infinity(), 0.0, -0.0, std::numeric_limits<double>::min(),
            std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
            std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 1e300, -1e300, 1e-300,
            static_cast<double>(std::numeric_limits<float>::max()), static_cast<double>(std::numeric_limits<float>::min()),
            static_cast<double>(std::numeric_limits<float>::denorm_min()), 1e39, -1e39, 1.0, -1.0, 0.5, 10000.0, 1e6,
            -std::numeric_limits<double>::signaling_NaN()};
        const std::uint8_t k = byte();
        if (k < 2 * std::size(table)) return table[k % std::size(table)];
        double d;
        const std::uint64_t b = bits(8);
        std::memcpy(&d, &b, sizeof d);
        return d;
    }

    // Fills `out` with values of one of several kinds, then plants up to 3 special values at chosen places.
    template <class T>
    void fill(std::span<T> out) {
        const std::uint8_t kind = byte() % 4;
        std::uint64_t state = bits(4) | 1;  // xorshift64: a cheap, reproducible stream for big tensors
        auto next = [&state] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return state;
        };
        for (T& x : out) {
            const std::uint64_t r = next();
            switch (kind) {
                case 0:  // moderate: uniform in [-8, 8)
                    x = static_cast<T>(static_cast<double>(r >> 11) * 0x1p-53 * 16.0 - 8.0);
                    break;
                case 1:  // wide: any sign, exponent in [-80, 80]
                    x = static_cast<T>(std::ldexp((r & 1) ? -1.0 : 1.0, static_cast<int>((r >> 1) % 161) - 80) *
                                       (1.0 + static_cast<double>(r >> 12) * 0x1p-52));
                    break;
                case 2: {  // any bit pattern of T: NaN payloads, infinities, subnormals included
                    if constexpr (sizeof(T) == 8) {
                        std::memcpy(&x, &r, sizeof x);
                    } else {
                        const auto b = static_cast<std::uint32_t>(r);
                        std::memcpy(&x, &b, sizeof x);
                    }
                    break;
                }
                default:  // small integers, many ties: equal scores, equal rows
                    x = static_cast<T>(static_cast<int>(r % 7) - 3);
            }
        }
        const int plants = byte() % 4;
        for (int p = 0; p < plants && !out.empty(); ++p) {
            const std::size_t at = bits(2) % out.size();
            out[at] = static_cast<T>(special());
        }
    }

    std::size_t consumed() const { return pos_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// Which exceptions a call may throw, decided by the target from the arguments alone, before the call.
struct Expected {
    bool invalid_argument = false;  // a broken rule about the arguments' values or shapes
    bool out_of_range = false;      // an index (id, position) outside its table
    bool length_error = false;      // a result beyond the core's 1 GiB tensor limit
    bool any() const { return invalid_argument || out_of_range || length_error; }
    std::string describe() const {
        std::string s;
        if (invalid_argument) s += " invalid_argument";
        if (out_of_range) s += " out_of_range";
        if (length_error) s += " length_error";
        return s.empty() ? " success" : s;
    }
};

// Runs `call` and checks that it threw iff `expected` says an error is due, of an allowed kind, with a message.
// Returns true when the call succeeded (so the target goes on to check the result).
template <class F>
bool expect_outcome(const Expected& expected, F&& call, const std::string& what) {
    const char* thrown = nullptr;
    std::string message;
    try {
        call();
    } catch (const std::invalid_argument& e) {
        thrown = "invalid_argument";
        message = e.what();
        FUZZ_CHECK(expected.invalid_argument, what + ": threw invalid_argument '" + message + "', expected" + expected.describe());
    } catch (const std::out_of_range& e) {
        thrown = "out_of_range";
        message = e.what();
        FUZZ_CHECK(expected.out_of_range, what + ": threw out_of_range '" + message + "', expected" + expected.describe());
    } catch (const std::length_error& e) {
        thrown = "length_error";
        message = e.what();
        FUZZ_CHECK(expected.length_error, what + ": threw length_error '" + message + "', expected" + expected.describe());
    } catch (const std::exception& e) {
        fail(__FILE__, __LINE__, "unexpected exception type", what + ": " + e.what() + ", expected" + expected.describe());
    }
    static const bool verbose = std::getenv("SEQORDER_FUZZ_VERBOSE") != nullptr;  // to read what a seed does
    if (verbose) std::fprintf(stderr, "%s -> %s%s\n", what.c_str(), thrown ? thrown : "ok", thrown ? (": " + message).c_str() : "");
    if (thrown) {
        FUZZ_CHECK(message.size() >= 10, what + ": error message too short to help anyone: '" + message + "'");
        return false;
    }
    FUZZ_CHECK(!expected.any(), what + ": returned normally, expected" + expected.describe());
    return true;
}

// Bitwise equality that treats every NaN as equal to every NaN (payloads may change through a float32 copy).
template <class T>
bool same_value(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Largest |x| over finite x, and whether all are finite.
template <class T>
struct Range {
    bool all_finite = true;
    double max_abs = 0;
};
template <class T>
Range<T> range_of(std::span<const T> xs) {
    Range<T> r;
    for (T x : xs) {
        if (!std::isfinite(x)) r.all_finite = false;
        else r.max_abs = std::fmax(r.max_abs, std::fabs(static_cast<double>(x)));
    }
    return r;
}

inline std::string str(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

// The body of every target's LLVMFuzzerTestOneInput: the first byte picks the dtype (low bit set: float, else
// double), then `run` gets the Input and a zero of that type, e.g.
//   return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
template <class Run>
int run_float_or_double(const std::uint8_t* data, std::size_t size, Run&& run) {
    Input in(data, size);
    if (in.flag())
        run(in, float{});
    else
        run(in, double{});
    return 0;
}

}  // namespace seqorder_fuzz
