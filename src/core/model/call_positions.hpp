// The positions a call reads (docs/model.md, "The positions of a sentence"): by default 0 .. T - 1 in every row of a
// batch (B, T), the kernels of today's bits; or positions given per row (positionIds), each row strictly increasing,
// every value >= 0 (and < maxLength for learned positions): their checks, and the steps that read them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "config.hpp"

namespace seqorder::model {

// A call's positions: ids (B, T) row-major, or empty for 0 .. T - 1 in every row.
struct CallPositions {
    std::span<const std::int32_t> ids;
};

// Checks the positions of a call on (batch, length) (std::invalid_argument naming positionIds: its size; a model
// with positions 'none', which reads none; std::out_of_range: a value below 0, a row not strictly increasing, or
// past maxLength - 1 for learned positions). Returns the ids to run with: null when every row is 0 .. T - 1 (today's
// kernels, their bits), else the ids given.
const std::int32_t* checked_positions(const Config& config, const CallPositions& positions, std::int64_t batch,
                                      std::int64_t length);

// The frequencies f_0 .. f_(p-1) of a model's positions: std::pow(b, -(2i) / d), rotary: b = rotaryBase, d = 2
// rotaryPairs; sinusoidal: b = 10000, d = width.
std::vector<double> position_frequencies(const Config& config);

// What the network computes at positions given (network.cpp), beside today's kernels for 0 .. T - 1 (steps.hpp).
// Linear in the tokens, so compiled for size with the checks.

// The learned table's gradient for positions given: dtable (rows, D) = the sum of dout[n] over the tokens n at each
// position (positions (N)), in order of n.
template <class F>
void positions_backward(F* dtable, const F* dout, const std::int32_t* positions, std::size_t rows, std::size_t N,
                        std::size_t D);

// out (rows, pairs, 2): sin and cos of p_r f_i for the positions (rows) given, each angle one float64 product, its sine
// and cosine rounded once to F: the sinusoid rows of those positions (frequencies: position_frequencies of a
// sinusoidal model), or rotary's turns. frequencies (pairs), float64.
template <class F>
void position_turns(F* out, const std::int32_t* positions, std::size_t rows, const double* frequencies,
                    std::size_t pairs);

// Each token's row at its position (positions (N)): learned: the table's row into table (N, width); sinusoidal: the
// sinusoid row into table (N, width); rotary: the turns into turns (N, rotaryPairs, 2) (position_turns); else nothing.
template <class F>
void token_rows(F* table, F* turns, const Config& config, const F* learned, const std::int32_t* positions,
                std::size_t N);

// x (B, H, T, hd), in place: in each row t, pair (2i, 2i+1) for i < pairs rotated by the turn (s, c) of row t (turns
// (T, pairs, 2)) or of row (b, t) (per_row: turns (B, T, pairs, 2)): (a, b) -> (a c - b s, a s + b c), the products
// in float64 rounded once to F (as rope.hpp); transposed: by (-s, c), the backward. The other pairs pass through.
template <class F>
void rotary_turn(F* x, const F* turns, std::size_t B, std::size_t H, std::size_t T, std::size_t hd, std::size_t pairs,
                 bool per_row, bool transposed);

}  // namespace seqorder::model
