// Shared by the libFuzzer targets in fuzz/: turns the fuzzer's bytes into the arguments a caller could pass (sizes,
// offsets, dtypes, values, and for the package's path, calls.hpp, the numbers, shapes and strings a JS caller hands the
// binding), and the checks the targets use to state invariants.
//
// The bytes are read from the front, little-endian, and reading past the end yields zeros, so every input is a valid
// program and a hand-written seed (fuzz/make_seeds.py) reads the way it looks. A zero byte always draws the plain
// case (the number meant, the dtype of the data, no out array), so the targets draw the package's arguments after
// everything else and older seeds still read as they did.
#pragma once

#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "calls.hpp"

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
inline bool beyond_tensor_limit(std::span<const std::int64_t> sizes, std::size_t element_bytes) {
    const std::int64_t n = saturating_product(sizes);
    return static_cast<__int128>(n) * static_cast<__int128>(element_bytes) > (__int128{1} << 30);
}
inline bool beyond_tensor_limit(std::initializer_list<std::int64_t> sizes, std::size_t element_bytes) {
    return beyond_tensor_limit(std::span<const std::int64_t>(sizes.begin(), sizes.size()), element_bytes);
}

// Numbers a JavaScript caller can give exactly: integers up to 2^53 - 1 (Number.MAX_SAFE_INTEGER), and 2^53.
inline constexpr double kMaxSafe = 9007199254740991.0;
inline constexpr double kTwoTo53 = 9007199254740992.0;

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

    // ---- arguments of the package's path (calls.hpp), as a JS caller hands them to the binding ----

    // A number where the caller means the integer `meant`: usually exactly it, sometimes (a byte from 208 up) one of
    // the numbers a caller may pass by mistake.
    double number(double meant) {
        const std::uint8_t k = byte();
        return k < 208 ? meant : misread(meant, k);
    }

    // The `k`-th mistake on the number `meant`: a fraction, NaN, +-Infinity, -0, its negation, off by one, 2^53 - 1,
    // 2^53, 2^53 + 2 (past what a double counts exactly), 2^64, 1e300, or any double (special()).
    double misread(double meant, std::uint8_t k) {
        switch (k % 16) {
            case 0: return meant + 0.5;
            case 1: return meant - 0x1p-20;
            case 2: return std::numeric_limits<double>::quiet_NaN();
            case 3: return std::numeric_limits<double>::infinity();
            case 4: return -std::numeric_limits<double>::infinity();
            case 5: return -0.0;
            case 6: return -meant;
            case 7: return meant + 1;
            case 8: return meant - 1;
            case 9: return kMaxSafe;
            case 10: return kTwoTo53;
            case 11: return kTwoTo53 + 2;
            case 12: return 0x1p64;
            case 13: return 1e300;
            case 14: return 0x1p40;
            default: return special();
        }
    }

    // A name the caller passes (a dtype, a layout): usually `meant`, sometimes (a byte from 224 up) one of `others`.
    std::string name(const char* meant, std::initializer_list<const char*> others) {
        const std::uint8_t k = byte();
        return k < 224 ? meant : others.begin()[k % others.size()];
    }
    // A tensor's dtype: its data's own (`meant`), or rarely `other` (for the other float type: only where the call must
    // refuse it), "int32" (an Int32Array over the same bytes) or a name no typed array has (the core checks anyway).
    std::string dtype(const char* meant, const char* other = "int32") {
        return name(meant, {other, "int32", "", "float16", "Float32", "float64 ", "int64", "bfloat16"});
    }

    // The shape a caller gives for data of shape `dims`: usually dims, sometimes (a byte from 224 up, up to 3 times)
    // changed as a caller might get it wrong: an entry misread (number's mistakes), one more or one less, 2^40, an
    // axis of 1 or 2 inserted, an axis dropped, two neighbours swapped.
    std::vector<double> shape(std::span<const std::int64_t> dims) {
        std::vector<double> s(dims.begin(), dims.end());
        for (int change = 0; change < 3 && byte() >= 224; ++change) {
            const std::uint8_t what = byte();
            const std::size_t at = byte() % (s.size() + 1);  // an axis, or for an insertion the end too
            const auto where = s.begin() + static_cast<std::ptrdiff_t>(at);
            if (what % 8 >= 4 || at == s.size()) {  // changes of the rank
                if (what % 4 == 0) s.insert(where, 1);
                else if (what % 4 == 1) s.insert(where, 2);
                else if (at < s.size()) s.erase(where);
                else s.push_back(0);
            } else if (what % 4 == 0) {
                s[at] = misread(s[at], byte());
            } else if (what % 4 == 1) {
                s[at] += what & 8 ? 1 : -1;
            } else if (what % 4 == 2) {
                s[at] = 0x1p40;
            } else if (at + 1 < s.size()) {
                std::swap(s[at], s[at + 1]);
            }
        }
        return s;
    }

    // Leading batch axes holding `batch` sequences: none when there is no batch axis (`axis` false, batch 1), else
    // [batch]; sometimes axes of 1 around it, none at all for a batch of 1, or for an empty batch huge axes beside the 0
    // (their product overflows 64 bits before the 0 is reached).
    std::vector<std::int64_t> lead_axes(std::int64_t batch, bool axis) {
        std::vector<std::int64_t> lead;
        if (axis) lead.push_back(batch);
        constexpr std::int64_t huge = std::int64_t{1} << 40;
        switch (byte() % 8) {
            case 1: lead.insert(lead.begin(), 1); break;
            case 2: lead.push_back(1); break;
            case 3: lead.insert(lead.begin(), {1, 1}); break;
            case 4: if (batch == 1) lead.clear(); break;
            case 5: if (batch == 0) lead = {0, huge}; break;
            case 6: if (batch == 0) lead = {huge, huge, 0}; break;
            default: break;
        }
        return lead;
    }

    // The length of the caller's `out` array, for a result of `count` elements: mostly none, else usually right,
    // sometimes one more, one less, or a mistaken number.
    std::optional<double> out_length(std::int64_t count) {
        const double n = static_cast<double>(count);
        switch (byte() % 8) {
            case 0: case 1: case 2: return std::nullopt;
            case 3: case 4: return n;
            case 5: return n + 1;
            case 6: return n - 1;
            default: return misread(n, byte());
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

// The largest block allocated since the last reset_largest_block(), seen through the sanitizer's malloc hook (the
// hooks libFuzzer's -malloc_limit_mb uses too); the hook is installed on first use.
inline std::size_t& largest_block() {
    static std::size_t largest = 0;
    return largest;
}
inline void reset_largest_block() {
    static const int installed = __sanitizer_install_malloc_and_free_hooks(
        [](const volatile void*, std::size_t bytes) { largest_block() = std::max(largest_block(), bytes); },
        [](const volatile void*) {});
    FUZZ_CHECK(installed != 0, "cannot install the sanitizer's malloc hook");
    largest_block() = 0;
}

// What a call did: returned (ok), or threw `error`; and the largest block it allocated.
struct Outcome {
    bool ok = false;
    std::string error;
    std::size_t largest_block = 0;
    operator bool() const { return ok; }  // so that `if (expect_outcome(...))` reads as it means
};

// Runs `call` and checks that it threw iff `expected` says an error is due, of an allowed kind, with a message.
// Its Outcome converts to true when the call succeeded (so the target goes on to check the result).
template <class F>
Outcome expect_outcome(const Expected& expected, F&& call, const std::string& what) {
    const char* thrown = nullptr;
    Outcome outcome;
    std::string& message = outcome.error;
    reset_largest_block();
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
    outcome.largest_block = largest_block();
    static const bool verbose = std::getenv("SEQORDER_FUZZ_VERBOSE") != nullptr;  // to read what a seed does
    if (verbose) std::fprintf(stderr, "%s -> %s%s\n", what.c_str(), thrown ? thrown : "ok", thrown ? (": " + message).c_str() : "");
    if (thrown) {
        FUZZ_CHECK(message.size() >= 10, what + ": error message too short to help anyone: '" + message + "'");
        return outcome;
    }
    FUZZ_CHECK(!expected.any(), what + ": returned normally, expected" + expected.describe());
    outcome.ok = true;
    return outcome;
}

// Bitwise equality that treats every NaN as equal to every NaN (payloads may change through a float32 copy).
template <class T>
bool same_value(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
}

inline std::string str(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

// ---- the package's path (calls.hpp): its rules restated, its promises checked ----

// The rule for a number given where an integer is meant, restated: finite, whole, in [min, max]. The integer, or none.
inline std::optional<std::int64_t> whole(double x, double min, double max) {
    if (!(x >= min && x <= max) || std::fmod(x, 1.0) != 0) return std::nullopt;  // NaN fails every comparison
    return static_cast<std::int64_t>(x);
}

template <class T>
inline const char* dtype_name() {
    return sizeof(T) == 8 ? "float64" : "float32";
}

// A tensor as the binding hands it to the core: the caller's elements (exactly those, so AddressSanitizer sees a read
// past them), the dtype of its typed array and the shape it gave. A dtype other than the data's own stands for a typed
// array of that type over the same bytes (an Int32Array over a Float64Array's bytes has twice the elements).
template <class E>
seqorder::calls::TensorArg tensor_arg(std::span<const E> data, std::string dtype, std::vector<double> shape) {
    const std::size_t element = dtype == "float64" ? 8 : dtype == "float32" || dtype == "int32" ? 4 : sizeof(E);
    const auto count = static_cast<std::int64_t>(data.size_bytes() / element);
    return {data.data(), count, std::move(dtype), std::move(shape)};
}

// A tensor's shape as the rule states it: every entry a whole number in 0 .. 2^53 - 1 and their product the number of
// elements given. The sizes, or none.
inline std::optional<std::vector<std::int64_t>> sizes_of(const seqorder::calls::TensorArg& t) {
    std::vector<std::int64_t> sizes;
    for (const double d : t.shape) {
        const auto size = whole(d, 0, kMaxSafe);
        if (!size) return std::nullopt;
        sizes.push_back(*size);
    }
    if (saturating_product(sizes) != t.count) return std::nullopt;
    return sizes;
}

inline std::string shape_text(std::span<const double> shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + str(shape[i]);
    return s + "]";
}
inline std::string shape_text(std::span<const std::int64_t> sizes) {
    std::string s = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + "]";
}
// "'float32' [2, 3] (6 elements)": a tensor argument, for messages
inline std::string text(const seqorder::calls::TensorArg& t) {
    return "'" + t.dtype + "' " + shape_text(t.shape) + " (" + std::to_string(t.count) + " elements)";
}
inline std::string text(const std::optional<double>& out_length) {
    return out_length ? ", out length " + str(*out_length) : "";
}

// What a call of the package's path must do, once the target has decided which of its rules are broken: throw for a
// broken rule; else length_error for a result past 1 GiB (`too_big`); else invalid_argument for an out array whose
// length is not the result's `count`; else succeed.
inline Expected package_outcome(const Expected& broken, bool too_big, std::int64_t count,
                                const std::optional<double>& out_length) {
    if (broken.any()) return broken;
    if (too_big) return {.length_error = true};
    if (out_length && *out_length != static_cast<double>(count)) return {.invalid_argument = true};
    return {};
}

// Blocks a call of the package's path may allocate (calls.hpp, "Memory"): when it throws, nothing bigger than its
// message (its rules are checked before any allocation); when it returns, nothing bigger than 8 times its inputs and
// results plus 64 KiB (the kernels' small blocks: a row of scores, a table of frequencies), or than the scratch of the
// kernel that ran, when it states one (`scratch_bytes`: the fused attention's).
inline constexpr std::size_t kErrorBlock = std::size_t{1} << 16;
inline std::size_t result_block_limit(std::int64_t io_bytes, std::int64_t scratch_bytes) {
    return std::max(8 * static_cast<std::size_t>(io_bytes) + kErrorBlock, static_cast<std::size_t>(scratch_bytes));
}

// expect_outcome for a call of the package's path, holding it to the blocks above; `io_bytes` is the size of its
// inputs and results.
template <class F>
Outcome expect_call(const Expected& expected, F&& call, const std::string& what, std::int64_t io_bytes,
                    std::int64_t scratch_bytes = 0) {
    Outcome outcome = expect_outcome(expected, call, what);
    const std::size_t limit = outcome ? result_block_limit(io_bytes, scratch_bytes) : kErrorBlock;
    FUZZ_CHECK(outcome.largest_block <= limit, what + (outcome ? ": returned" : ": threw '" + outcome.error + "'") +
                                                   " after allocating a block of " + std::to_string(outcome.largest_block) +
                                                   " bytes (at most " + std::to_string(limit) + ")");
    return outcome;
}

// A result as the caller is promised it: dtype and shape as documented, a count that is the shape's product, a block
// of memory. Returns its values.
template <class T>
std::span<const T> result_values(const seqorder::calls::Result& r, std::span<const std::int64_t> shape, const std::string& what) {
    FUZZ_CHECK(r.dtype == dtype_name<T>(), what + ": dtype '" + r.dtype + "', expected '" + dtype_name<T>() + "'");
    FUZZ_CHECK(std::equal(r.shape.begin(), r.shape.end(), shape.begin(), shape.end()),
               what + ": shape " + shape_text(r.shape) + ", expected " + shape_text(shape));
    FUZZ_CHECK(r.count == saturating_product(shape) && r.count == saturating_product(r.shape),
               what + ": count " + std::to_string(r.count) + " for shape " + shape_text(r.shape));
    FUZZ_CHECK(r.data != nullptr, what + ": no block for the result");
    return {static_cast<const T*>(r.data.get()), static_cast<std::size_t>(r.count)};
}

// Results that must be the same bits, being the same code on the same inputs: the package's result and the kernel the
// binding runs, or two APIs over one kernel.
template <class T>
void check_same_bits(std::span<const T> got, std::span<const T> kernel, const std::string& what) {
    FUZZ_CHECK(got.size() == kernel.size(), what + ": " + std::to_string(got.size()) + " values, the kernel gives " +
                                                std::to_string(kernel.size()));
    if (got.empty() || std::memcmp(got.data(), kernel.data(), got.size_bytes()) == 0) return;
    std::size_t j = 0;
    while (std::memcmp(&got[j], &kernel[j], sizeof(T)) == 0) ++j;
    fail(__FILE__, __LINE__, "the package's result is the kernel's", what + ": element " + std::to_string(j) + " is " +
                                                                         str(static_cast<double>(got[j])) + ", the kernel gives " +
                                                                         str(static_cast<double>(kernel[j])));
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
