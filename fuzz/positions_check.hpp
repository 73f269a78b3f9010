// Shared by the positions and add-positions targets: drawing positions arguments, deciding their validity
// independently of the core, and checking a table (and rotations by its angles) against long-double sin/cos.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "positions.hpp"

namespace seqorder_fuzz {

// How far positions_fast may drift from sin/cos of its anchor's angle + n f between anchors: positions.hpp states
// 3.5 n u for n < kAnchorRows rows (u = 2^-53); we allow 4 n u.
inline constexpr double kFastDrift = 4.0 * static_cast<double>(seqorder::kAnchorRows) * 0x1p-53;

struct PositionsArgs {
    std::int64_t length = 0, width = 0, start = 0;
    double base = 10000.0;
};

// Offsets: usually small, sometimes near the 2^53 limit, sometimes an edge or any 64-bit pattern.
inline std::int64_t draw_start(Input& in) {
    switch (in.byte() % 5) {
        case 0: return 0;
        case 1: return in.size(1000);
        case 2: return static_cast<std::int64_t>((__int128{1} << 53) - in.size(40));  // wraps like a caller's int64
        case 3: return static_cast<std::int64_t>(in.bits(3));
        default: return in.size(8);
    }
}

// Bases: the lesson's 10000, small integers (including 1), values just above 1, or anything (0, negative, NaN, inf,
// subnormal, huge).
inline double draw_base(Input& in) {
    switch (in.byte() % 5) {
        case 0: return 10000.0;
        case 1: return static_cast<double>(in.byte());
        case 2: return 1.0 + in.byte() / 64.0;
        case 3: return std::ldexp(1.0, static_cast<int>(in.byte()) - 128);
        default: return in.special();
    }
}

inline long double frequency(const PositionsArgs& a, std::int64_t i);

// The documented rule (positions.hpp), restated: length >= 0; width > 0 and even; start >= 0;
// start + length <= 2^53; base finite and > 0; every angle t * f_i of a non-empty table finite in float64.
inline bool positions_args_valid(const PositionsArgs& a) {
    constexpr std::int64_t max_position = std::int64_t{1} << 53;
    const bool sizes_ok = a.length >= 0 && a.width > 0 && a.width % 2 == 0 && a.start >= 0 && a.length <= max_position &&
                          a.start <= max_position - a.length && std::isfinite(a.base) && a.base > 0;
    if (!sizes_ok || a.length == 0) return sizes_ok;
    // the largest frequency and angle, in long double: below 1 the frequencies grow with i
    const long double f = std::fmax(1.0L, frequency(a, a.width / 2 - 1));
    const long double limit = std::numeric_limits<double>::max();
    return f <= limit && static_cast<long double>(a.start + a.length - 1) * f <= limit;
}

// True when the largest angle is so close to float64's overflow threshold that a rounding of pow could put it on
// either side: the target then accepts either outcome (skips the call).
inline bool overflow_ambiguous(const PositionsArgs& a) {
    constexpr std::int64_t max_position = std::int64_t{1} << 53;
    if (a.length <= 0 || a.width <= 0 || a.width % 2 != 0 || a.start < 0 || a.length > max_position ||
        a.start > max_position - a.length || !(a.base > 0) || !(a.base < 1))
        return false;
    const long double f = frequency(a, a.width / 2 - 1);
    const long double angle = static_cast<long double>(a.start + a.length - 1) * f;
    const long double limit = std::numeric_limits<double>::max();
    return std::fabs(f / limit - 1) < 1e-9L || std::fabs(angle / limit - 1) < 1e-9L;
}

// f_i = base^(-2i / width): the exponent rounded to float64 as the definition computes it (for a tiny base its
// rounding is amplified by |ln base|, up to 700 ulps, and is part of what "computed in float64" means), then the power
// in long double (independent of the core's float64 pow).
inline long double frequency(const PositionsArgs& a, std::int64_t i) {
    const double exponent = -static_cast<double>(2 * i) / static_cast<double>(a.width);
    return std::pow(static_cast<long double>(a.base), static_cast<long double>(exponent));
}

// Largest angle (start + length - 1) * f_i of the table; inf when it does not fit a double.
inline long double largest_angle(const PositionsArgs& a) {
    if (a.length == 0) return 0;
    const long double f = std::fmax(frequency(a, 0), frequency(a, a.width / 2 - 1));
    return static_cast<long double>(a.start + a.length - 1) * f;
}

// How far a sine or cosine of the angle t f_i computed in float64 (the lesson's definition) may be from that of the
// angle in long double: the angle's rounding (2 u t f_i, twice for a margin), a few ulps of sin/cos, `rounding` to the
// element type twice, and `extra` (the fast path's recurrence between anchors).
inline double sincos_tolerance(long double angle, double rounding, double extra) {
    constexpr double eps = 0x1p-52;
    return 4 * static_cast<double>(angle) * eps + 8 * eps + 2 * rounding + extra;
}

// table: (length, width) as the core wrote it with `layout`. Checks every entry against sin/cos of the angle computed
// in long double, within the error of computing that angle in float64 (the lesson's definition), plus one rounding to
// T. `extra` widens the bound (the fast path's recurrence between anchors).
template <class T>
void check_table(std::span<const T> table, const PositionsArgs& a, seqorder::Layout layout, double extra,
                 const std::string& what) {
    if (a.length == 0) return;  // an empty table: nothing to check (and width may be huge)
    const auto pairs = a.width / 2;
    const double rounding = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
    std::vector<long double> f(static_cast<std::size_t>(pairs));
    for (std::int64_t i = 0; i < pairs; ++i) f[static_cast<std::size_t>(i)] = frequency(a, i);
    for (std::int64_t row = 0; row < a.length; ++row) {
        const long double t = static_cast<long double>(a.start + row);
        const T* r = table.data() + row * a.width;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const long double angle = t * f[static_cast<std::size_t>(i)];
            const std::int64_t sin_col = layout == seqorder::Layout::interleaved ? 2 * i : i;
            const std::int64_t cos_col = layout == seqorder::Layout::interleaved ? 2 * i + 1 : pairs + i;
            const double s = static_cast<double>(r[sin_col]), c = static_cast<double>(r[cos_col]);
            // Finite angles give finite values in [-1, 1]: exactly for the reference (one sin, one cos), within its
            // drift for the recurrence (cos may come out as -1.0000000000000011, as at length 31, width 34, base 1.03125,
            // row 29, pair 14: within the documented 3.5 n u, outside [-1, 1]).
            FUZZ_CHECK(std::isfinite(s) && std::isfinite(c) && std::fabs(s) <= 1 + extra && std::fabs(c) <= 1 + extra,
                       what + ": row " + std::to_string(row) + " pair " + std::to_string(i) + " = (" + str(s) + ", " +
                           str(c) + ") for angle " + str(static_cast<double>(angle)) + ", base " + str(a.base) +
                           ", width " + std::to_string(a.width));
            const double tolerance = sincos_tolerance(angle, rounding, extra);
            const double expected_s = static_cast<double>(std::sin(angle));
            const double expected_c = static_cast<double>(std::cos(angle));
            FUZZ_CHECK(std::fabs(s - expected_s) <= tolerance && std::fabs(c - expected_c) <= tolerance,
                       what + ": row " + std::to_string(row) + " pair " + std::to_string(i) + " = (" + str(s) + ", " +
                           str(c) + "), expected (" + str(expected_s) + ", " + str(expected_c) + ") within " +
                           str(tolerance) + " (angle " + str(static_cast<double>(angle)) + ")");
        }
    }
}

}  // namespace seqorder_fuzz
