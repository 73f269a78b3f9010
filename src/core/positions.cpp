#include "positions.hpp"

#include "decimal.hpp"
#include "sin_cos.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace seqorder {
namespace {

// Column of the sine and the cosine of pair i in a row of `width` values.
struct PairColumns {
    std::int64_t sin, cos;
};
PairColumns pair_columns(std::int64_t i, std::int64_t width, Layout layout) {
    if (layout == Layout::interleaved) return {2 * i, 2 * i + 1};
    return {i, width / 2 + i};
}

// ---- positions_fast: the rotation recurrence ----
//
// Between two anchors each pair turns by its own frequency f_i per row (angle addition):
//   sin(a + f) = sin a · cos f + cos a · sin f,   cos(a + f) = cos a · cos f − sin a · sin f.
// A block is an anchor row and the rows turned from it. It is filled kStripRows rows at a time, and within those rows
// one strip of pairs at a time, the strip's sines and cosines kept in registers from row to row (a few rows per strip
// keep the rows being written in the L1 cache; a whole block's column would thrash it, the rows being width apart).
// The scalar and the SIMD loops do exactly the same float64 operations in the same order (no fused multiply-add, one
// round-to-nearest conversion to T), so both give bit-identical tables: the native tests of the scalar loop also
// vouch for the WebAssembly build's SIMD loop, which the node tests check against an independent sin/cos as well.
constexpr std::int64_t kStripRows = 8;

// Writes pair i (sin s, cos c, float64) of a row in T, at its columns for the layout.
template <class T>
inline void write_pair(T* out_row, std::int64_t width, std::int64_t i, double s, double c, Layout layout) {
    const PairColumns column = pair_columns(i, width, layout);
    out_row[column.sin] = static_cast<T>(s);
    out_row[column.cos] = static_cast<T>(c);
}

// The state of one block: s, c: (pairs) the sines and cosines of the last row written; step_sin, step_cos: (pairs)
// sin f_i and cos f_i, the turn by one row.
struct Recurrence {
    double* s;
    double* c;
    const double* step_sin;
    const double* step_cos;
};

// Rows [first_row, last_row) of block: (rows, width), pairs [first_pair, width / 2); advances s and c to last_row - 1.
template <class T>
void turn_rows_scalar(T* block, std::int64_t first_row, std::int64_t last_row, std::int64_t width,
                      std::int64_t first_pair, const Recurrence& r, Layout layout) {
    for (std::int64_t i = first_pair; i < width / 2; ++i) {
        double sin_now = r.s[i], cos_now = r.c[i];
        for (std::int64_t row = first_row; row < last_row; ++row) {
            const double next_s = sin_now * r.step_cos[i] + cos_now * r.step_sin[i];
            const double next_c = cos_now * r.step_cos[i] - sin_now * r.step_sin[i];
            sin_now = next_s;
            cos_now = next_c;
            write_pair(block + row * width, width, i, sin_now, cos_now, layout);
        }
        r.s[i] = sin_now;
        r.c[i] = cos_now;
    }
}

#ifdef __wasm_simd128__
// Pairs per strip of the SIMD loop: kStripPairs / 2 independent f64x2 chains hide the latency of multiply then add.
constexpr std::int64_t kStripPairs = 8;

// Turns two pairs (sin_now = (s0, s1), cos_now = (c0, c1)) by one row and stores them: at sin_at (and the next three
// values: s0 c0 s1 c1) for the interleaved layout, at sin_at and cos_at (two values each: s0 s1, c0 c1) for halves.
template <class T>
inline __attribute__((always_inline)) void turn_and_store(T* sin_at, T* cos_at, v128_t& sin_now, v128_t& cos_now,
                                                          v128_t step_s, v128_t step_c, Layout layout) {
    const v128_t next_s = wasm_f64x2_add(wasm_f64x2_mul(sin_now, step_c), wasm_f64x2_mul(cos_now, step_s));
    const v128_t next_c = wasm_f64x2_sub(wasm_f64x2_mul(cos_now, step_c), wasm_f64x2_mul(sin_now, step_s));
    sin_now = next_s;
    cos_now = next_c;
    if constexpr (std::is_same_v<T, float>) {
        // demote: (x0, x1) -> (x0, x1, 0, 0) in float32, rounded to nearest like static_cast<float>
        const v128_t s01 = wasm_f32x4_demote_f64x2_zero(next_s), c01 = wasm_f32x4_demote_f64x2_zero(next_c);
        if (layout == Layout::interleaved) {
            wasm_v128_store(sin_at, wasm_i32x4_shuffle(s01, c01, 0, 4, 1, 5));  // s0 c0 s1 c1
        } else {
            wasm_v128_store64_lane(sin_at, s01, 0);  // s0 s1
            wasm_v128_store64_lane(cos_at, c01, 0);  // c0 c1
        }
    } else if (layout == Layout::interleaved) {
        wasm_v128_store(sin_at, wasm_i64x2_shuffle(next_s, next_c, 0, 2));      // s0 c0
        wasm_v128_store(sin_at + 2, wasm_i64x2_shuffle(next_s, next_c, 1, 3));  // s1 c1
    } else {
        wasm_v128_store(sin_at, next_s);  // s0 s1
        wasm_v128_store(cos_at, next_c);  // c0 c1
    }
}

// turn_rows_scalar for pairs [0, done), done = the largest multiple of kStripPairs <= width / 2; returns done.
// Each row's stores go at constant offsets from one pointer a strip (its first sine), moved on by a row's width.
template <class T>
std::int64_t turn_rows_simd(T* block, std::int64_t first_row, std::int64_t last_row, std::int64_t width,
                            const Recurrence& r, Layout layout) {
    constexpr std::int64_t kVectors = kStripPairs / 2;
    const std::int64_t done = width / 2 - (width / 2) % kStripPairs;
    // from a pair's sine to the next vector's (two pairs on), and to its cosine (halves)
    const std::int64_t next_vector = layout == Layout::interleaved ? 4 : 2;
    const std::int64_t to_cos = layout == Layout::interleaved ? 1 : width / 2;
    for (std::int64_t i = 0; i < done; i += kStripPairs) {
        v128_t sin_now[kVectors], cos_now[kVectors];
        for (std::int64_t h = 0; h < kVectors; ++h) {
            sin_now[h] = wasm_v128_load(r.s + i + 2 * h);
            cos_now[h] = wasm_v128_load(r.c + i + 2 * h);
        }
        T* sin_at = block + first_row * width + pair_columns(i, width, layout).sin;
        for (std::int64_t row = first_row; row < last_row; ++row, sin_at += width) {
            for (std::int64_t h = 0; h < kVectors; ++h)
                turn_and_store(sin_at + h * next_vector, sin_at + h * next_vector + to_cos, sin_now[h], cos_now[h],
                               wasm_v128_load(r.step_sin + i + 2 * h), wasm_v128_load(r.step_cos + i + 2 * h), layout);
        }
        for (std::int64_t h = 0; h < kVectors; ++h) {
            wasm_v128_store(r.s + i + 2 * h, sin_now[h]);
            wasm_v128_store(r.c + i + 2 * h, cos_now[h]);
        }
    }
    return done;
}
#endif

// block: (rows, width), its row 0 (the anchor) written and r holding that row's sines and cosines: writes the rest.
template <class T>
void turn_block(T* block, std::int64_t rows, std::int64_t width, const Recurrence& r, Layout layout) {
    for (std::int64_t first_row = 1; first_row < rows; first_row += kStripRows) {
        const std::int64_t last_row = std::min(rows, first_row + kStripRows);
        std::int64_t first_pair = 0;
#ifdef __wasm_simd128__
        first_pair = turn_rows_simd(block, first_row, last_row, width, r, layout);
#endif
        turn_rows_scalar(block, first_row, last_row, width, first_pair, r, layout);
    }
}

// The tables' preconditions (the caller has checked them: check_positions_args; out holds length * width values),
// asserted in debug builds.
void assert_positions_args([[maybe_unused]] std::size_t out_size, [[maybe_unused]] std::int64_t length,
                           [[maybe_unused]] std::int64_t width, [[maybe_unused]] std::int64_t start,
                           [[maybe_unused]] double base) {
    assert(length >= 0 && width > 0 && width % 2 == 0 && start >= 0 && start <= kMaxPosition - length);
    assert(std::isfinite(base) && base > 0);
    assert(out_size / static_cast<std::size_t>(width) >= static_cast<std::size_t>(length));
}

}  // namespace

void check_positions_args(std::int64_t length, std::int64_t width, std::int64_t start, double base) {
    if (length < 0) throw std::invalid_argument("length must be a non-negative integer, got " + std::to_string(length));
    if (width <= 0 || width % 2 != 0)
        throw std::invalid_argument("width must be a positive even integer (every sine needs its cosine), got " +
                                    std::to_string(width));
    if (start < 0) throw std::invalid_argument("start must be a non-negative integer, got " + std::to_string(start));
    if (start > kMaxPosition - length)
        throw std::invalid_argument("start + length must be at most 2^53 (positions must be exact integers), got start " +
                                    std::to_string(start) + " and length " + std::to_string(length));
    if (!std::isfinite(base) || base <= 0.0)
        throw std::invalid_argument("base must be a finite number greater than 0, got " + number_text(base));
    // Every angle t * f_i must be a finite float64, else sin and cos give NaN (base 7e-322 would make a NaN table).
    // Below 1 the frequencies grow with i, so the largest angle is the last row's with the last pair's
    // frequency, computed exactly as position_frequencies does; from base 1 up every f_i <= 1 and t <= 2^53.
    if (length > 0 && base < 1.0) {
        const double f_last = std::pow(base, -static_cast<double>(width - 2) / static_cast<double>(width));
        const double t_last = static_cast<double>(start + length - 1);
        if (!std::isfinite(f_last) || !std::isfinite(t_last * f_last)) {
            throw std::invalid_argument("base " + g_text(base, 17) + " is too small for width " + std::to_string(width) +
                                        " and position " + std::to_string(start + length - 1) +
                                        ": the angle t * base^(-(width-2)/width) overflows float64 (use a base >= 1)");
        }
    }
}

void position_frequencies(std::span<double> frequencies, std::int64_t width, double base) {
    for (std::size_t i = 0; i < frequencies.size(); ++i)
        frequencies[i] = std::pow(base, -static_cast<double>(2 * static_cast<std::int64_t>(i)) / static_cast<double>(width));
}

template <class T>
void positions_reference(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start, double base,
                         Layout layout) {
    // out: (length, width)
    assert_positions_args(out.size(), length, width, start, base);
    if (length == 0) return;  // an empty table: no per-pair state to allocate, whatever the width
    std::vector<double> frequency(static_cast<std::size_t>(width / 2));
    position_frequencies(frequency, width, base);
    for (std::int64_t row = 0; row < length; ++row) {
        const double t = static_cast<double>(start + row);
        T* out_row = out.data() + row * width;
        for (std::int64_t i = 0; i < width / 2; ++i) {
            const double angle = t * frequency[static_cast<std::size_t>(i)];
            const PairColumns c = pair_columns(i, width, layout);
            out_row[c.sin] = static_cast<T>(std::sin(angle));
            out_row[c.cos] = static_cast<T>(std::cos(angle));
        }
    }
}

template <class T>
void positions_fast(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start, double base,
                    Layout layout) {
    // out: (length, width), filled in blocks of kAnchorRows rows: an exact anchor row, then rows turned from it.
    assert_positions_args(out.size(), length, width, start, base);
    if (length == 0) return;  // an empty table: no per-pair state to allocate, whatever the width
    const auto pairs = static_cast<std::size_t>(width / 2);
    // One allocation for the per-pair state, each (pairs): frequency, step_sin, step_cos, and s, c of the last row.
    std::vector<double> state(5 * pairs);
    double* const frequency = state.data();
    double* const step_sin = frequency + pairs;
    double* const step_cos = step_sin + pairs;
    double* const s = step_cos + pairs;
    double* const c = s + pairs;
    const Recurrence recurrence{s, c, step_sin, step_cos};
    position_frequencies(std::span<double>(frequency, pairs), width, base);
    for (std::size_t i = 0; i < pairs; ++i) sin_cos(frequency[i], step_sin[i], step_cos[i]);
    for (std::int64_t first_row = 0; first_row < length; first_row += kAnchorRows) {
        T* const block = out.data() + first_row * width;
        // Anchor: exact float64 sin/cos of the angle t * f_i, as in the reference.
        const double t = static_cast<double>(start + first_row);
        for (std::size_t i = 0; i < pairs; ++i) {
            sin_cos(t * frequency[i], s[i], c[i]);
            write_pair(block, width, static_cast<std::int64_t>(i), s[i], c[i], layout);
        }
        turn_block(block, std::min(kAnchorRows, length - first_row), width, recurrence, layout);
    }
}

template <class T>
void add_positions_into(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length,
                        std::int64_t width, std::int64_t start, double base) {
    // x, out: (batch, length, width); positions: (length, width), the same for every sequence of the batch.
    assert(batch >= 0 && x.size() == out.size());
    assert(batch == 0 || length == 0 || out.size() / static_cast<std::size_t>(batch * length) == static_cast<std::size_t>(width));
    if (batch == 0 || length == 0) return;  // nothing to add: no table, whatever T and D
    std::vector<T> table(static_cast<std::size_t>(length * width));
    positions_fast<T>(table, length, width, start, base, Layout::interleaved);
    const auto per_sequence = static_cast<std::size_t>(length * width);
    for (std::int64_t b = 0; b < batch; ++b) {
        const std::size_t offset = static_cast<std::size_t>(b) * per_sequence;
        for (std::size_t j = 0; j < per_sequence; ++j) out[offset + j] = x[offset + j] + table[j];
    }
}

void check_learned_positions_args(std::int64_t table_rows, std::int64_t length, std::int64_t start) {
    if (length < 0) throw std::invalid_argument("length must be a non-negative integer, got " + std::to_string(length));
    if (start < 0) throw std::invalid_argument("start must be a non-negative integer, got " + std::to_string(start));
    if (start > table_rows - length)
        throw std::out_of_range(
            "start + length must be at most the table's rows P = " + std::to_string(table_rows) + ", got rows " +
            std::to_string(start) + ".." +
            // start, length >= 0: their sum fits in 64 unsigned bits (not always in 63)
            std::to_string(static_cast<std::uint64_t>(start) + static_cast<std::uint64_t>(length) - 1) +
            " (a finite table has a supported range: extending it needs a deliberate adaptation)");
}

template <class T>
void learned_positions_into(std::span<T> out, std::span<const T> table, [[maybe_unused]] std::int64_t table_rows,
                            std::int64_t width, std::int64_t length, std::int64_t start) {
    // table: (table_rows, width) -> out: (length, width)
    assert(length >= 0 && start >= 0 && start <= table_rows - length && width >= 0);
    assert(table.size() == static_cast<std::size_t>(table_rows * width));
    assert(out.size() == static_cast<std::size_t>(length * width));
    const auto first = static_cast<std::size_t>(start * width);
    const auto count = static_cast<std::size_t>(length * width);
    for (std::size_t j = 0; j < count; ++j) out[j] = table[first + j];
}

#define SEQORDER_INSTANTIATE(T)                                                                                        \
    template void positions_reference<T>(std::span<T>, std::int64_t, std::int64_t, std::int64_t, double, Layout);     \
    template void positions_fast<T>(std::span<T>, std::int64_t, std::int64_t, std::int64_t, double, Layout);          \
    template void add_positions_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,    \
                                        std::int64_t, double);                                                          \
    template void learned_positions_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t,              \
                                            std::int64_t, std::int64_t);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
