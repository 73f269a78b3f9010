// Rotary positions (RoPE, from RoFormer): instead of adding a position vector to the input, rotate each coordinate
// pair of a query or key by an angle proportional to its position. After rotating q at position m and k at position n
// the same way, q_m · k_n depends on the positions only through the offset m - n, because a rotation by a followed by
// the transpose of a rotation by b is a rotation by a - b.
#pragma once

#include <cstdint>
#include <span>

#include "positions.hpp"

namespace seqorder {

// x, out: (batch, length, width), row-major; out may be x (in place).
// Row r of every sequence is position t = start + r. Its coordinate pair (2i, 2i+1) is rotated by the angle
// t * f_i, with f_i = base^(-2i / width), the same frequencies as positions():
//   out[2i]   = x[2i] * cos(t f_i) - x[2i+1] * sin(t f_i)
//   out[2i+1] = x[2i] * sin(t f_i) + x[2i+1] * cos(t f_i)
// Angles, sines, cosines and the two products are computed in float64 and each result is rounded once to T, so a
// float32 rotation is as exact as float32 can be at every position (a float32 angle is already ~6e-2 off at t = 1e6).
// Preconditions (of rope_into too; checked by the calls, asserted in debug builds): check_positions_args(length,
// width, start, base) holds, batch >= 0, and both spans hold batch * length * width values.
// This is the readable reference: one sin and one cos per pair and row.
template <class T>
void rope_reference(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length,
                    std::int64_t width, std::int64_t start = 0, double base = 10000.0);

// The same rotation, with the sines and cosines of a block of kAnchorRows rows computed once by positions_fast (the
// rotation recurrence, re-anchored at every block) and applied to every sequence of the batch. Differs from the
// reference by a few ulps of the angle (~1e-15 near t = 0, ~2e-10 at t = 1e6, times |x|), as positions_fast does.
template <class T>
void rope_into(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length, std::int64_t width,
               std::int64_t start = 0, double base = 10000.0);

}  // namespace seqorder
