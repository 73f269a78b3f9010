// Positions: the lesson's sinusoidal table, adding it to token vectors, and a learned (lookup) table of positions.
#pragma once

#include <cstdint>
#include <span>

#include "tensor.hpp"

namespace seqorder {

// Largest position the core accepts: every integer up to 2^53 is exact in float64, so t = start + row is exact.
inline constexpr std::int64_t kMaxPosition = std::int64_t{1} << 53;

// Where the sine and cosine of frequency pair i go in a row of the table.
//
// 'halves' is a column permutation of 'interleaved', nothing more: same frequencies f_i = base^(-2i/width), same
// values. It is NOT tensor2tensor's get_timing_signal_1d, although that one also writes all sines then all cosines:
// tensor2tensor spaces its D/2 frequencies evenly in log scale from 1 down to exactly 1/base
// (log-timescale increment ln(base) / (D/2 - 1)), i.e. f_i = base^(-i / (D/2 - 1)), while ours stop at
// base^(-(D-2)/D) (for D = 8, base 10000: t2t's slowest is 1e-4, ours 1e-3). So a t2t table differs from a
// 'halves' table (for D >= 4) in every column but the first sine and the first cosine; code ported from it needs both the layout
// and the frequencies changed to match the lesson's table.
enum class Layout {
    interleaved,  // the lesson's: column 2i = sin(t * f_i), column 2i+1 = cos(t * f_i)
    halves,       // column i = sin(t * f_i), column width/2 + i = cos(t * f_i): the same numbers, columns permuted
};

// The rules of a table of positions, checked by the calls (calls.hpp) before any kernel below runs; the kernels
// assume them (asserted in debug builds). Throws std::invalid_argument naming the argument and the rule:
//   length >= 0; width > 0 and even; start >= 0; start + length <= 2^53; base finite and > 0; and, for a base below 1
//   (frequencies growing with i), every angle t * f_i of a non-empty table finite in float64.
void check_positions_args(std::int64_t length, std::int64_t width, std::int64_t start, double base);

// f_i = base^(-2i / width) for i = 0 .. width/2 - 1, in float64. frequencies.size() must be width / 2.
void position_frequencies(std::span<double> frequencies, std::int64_t width, double base);

// out: (length, width). Row r is position t = start + r; pair i holds sin(t * f_i) and cos(t * f_i).
// Angles are computed in float64 and each value is rounded once to T, so a float32 table is as exact as float32 can
// be at every position (a float32 angle would already be off by ~6e-2 at t = 1e6).
// This is the readable reference: one sin and one cos per element. Preconditions (of positions_fast too):
// check_positions_args holds and out holds length * width values.
template <class T>
void positions_reference(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start = 0,
                         double base = 10000.0, Layout layout = Layout::interleaved);

// Same table, computed fast: the rotation recurrence sin(a + f) = sin a cos f + cos a sin f carries each pair from one
// row to the next, re-anchored with exact float64 sin/cos every kAnchorRows rows so rounding cannot accumulate.
// Anchor rows (row % kAnchorRows == 0) are bit-identical to the reference. Error bound n rows after an anchor, with
// u = 2^-53: one step rounds two products and a sum (<= (|s| + |c| + 1) u <= 2.5 u) and rotates by fl(sin f), fl(cos f)
// (<= 0.5 u (|s| + |c|) <= 0.75 u); the exact rotation keeps earlier errors' size, so |recurrence - exact sin/cos of
// the anchor's angle + n f| <= 3.5 n u < 1e-13 for n < 256 (measured: 0.6 n u, 1.7e-14 at n = 256). Against the
// reference add the rounding of the angles t * f_i, which the reference has too (<= 2 u t f_i: ~2e-10 at t = 1e6).
// Both are far inside the 1e-9 promised against numpy in float64, and below float32's rounding step (tested).
inline constexpr std::int64_t kAnchorRows = 256;
template <class T>
void positions_fast(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start = 0,
                    double base = 10000.0, Layout layout = Layout::interleaved);

// out, x: (batch, length, width), row-major; out may be x (in place). out = x + positions(length, width, start, base)
// broadcast over the batch. The sum is taken in T (as numpy adds two float32 arrays). Preconditions: check_positions_args
// holds, batch >= 0, and out and x hold batch * length * width values.
template <class T>
void add_positions_into(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length,
                        std::int64_t width, std::int64_t start = 0, double base = 10000.0);

// The rule of a learned table's rows, checked by the calls before learned_positions_into runs: throws unless 0 <= start,
// 0 <= length and start + length <= table_rows (std::out_of_range past the table).
void check_learned_positions_args(std::int64_t table_rows, std::int64_t length, std::int64_t start);

// Learned absolute positions: table (P, D) -> out (length, D) = rows start .. start+length-1 of the table.
// A finite table has a supported range: rows past P - 1 are an error (check_learned_positions_args), never a wrap or
// a clamp. Preconditions: that check holds, table holds table_rows * width values and out length * width.
template <class T>
void learned_positions_into(std::span<T> out, std::span<const T> table, std::int64_t table_rows, std::int64_t width,
                            std::int64_t length, std::int64_t start = 0);

}  // namespace seqorder
