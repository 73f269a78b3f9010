// The positions a call reads (docs/model.md, "The positions of a sentence"): by default 0 .. T - 1 in every row of a
// batch (B, T), the kernels of today's bits; or positions given per row (positionIds), each row strictly increasing,
// every value >= 0 (and < maxLength for learned positions); or drawn per row from 0 .. L - 1 (positionRange: L,
// "Randomized positions"); and rotary's frequencies, stretched by a ropeScaling ("Stretching rotary positions"): their
// checks, the draw, and the steps that read them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "config.hpp"

namespace seqorder::model {

class SplitMix64;

// A call's ropeScaling: position interpolation ('linear'), NTK-aware ('ntk') or YaRN ('yarn') by `factor`;
// original_length: YaRN's (the longest length trained on). (unknown: a method the caller named wrongly, refused.)
enum class RopeMethod { linear, ntk, yarn, unknown };
struct RopeScaling {
    RopeMethod method = RopeMethod::linear;
    double factor = 1;
    std::optional<double> original_length;
};

// A ropeScaling's rules on a model (std::out_of_range: a model whose positions are not rotary, an unknown method,
// factor not a finite number >= 1, 'ntk' with one pair, originalLength missing with 'yarn', given with another method, or not an integer
// >= 1).
void check_rope_scaling(const Config& config, const RopeScaling& scaling);

// A call's positions: ids (B, T) row-major, or empty for 0 .. T - 1 in every row; a ropeScaling, or none; and a
// positionRange L, or none: each row's positions drawn from 0 .. L - 1 (draw_positions).
struct CallPositions {
    std::span<const std::int32_t> ids;
    std::optional<RopeScaling> rope_scaling = std::nullopt;
    std::optional<double> range = std::nullopt;
};

// What a call runs with: the ids (null: 0 .. T - 1 in every row), the ropeScaling (null: none) and the positionRange
// still to draw from (0: none; the model draws, then runs with the ids drawn). Any one takes the per-token rotary path
// (turns); none, today's kernels and their bits.
struct RunPositions {
    const std::int32_t* ids = nullptr;
    const RopeScaling* scaling = nullptr;
    std::int64_t range = 0;
    bool per_token() const { return ids != nullptr || scaling != nullptr || range != 0; }
};

// Checks the positions of a call on (batch, length) (std::invalid_argument naming positionIds: its size; a model
// with positions 'none', which reads none; std::out_of_range: a value below 0, a row not strictly increasing, or past
// maxLength - 1 for learned positions; positionRange on a model with positions 'none', with positionIds, or not an
// integer in T .. 2^31 (learned: .. maxLength)), then its ropeScaling (check_rope_scaling). Returns what to run
// with: ids null when every row is 0 .. T - 1, scaling pointing into `positions`, range the positionRange (0: none).
RunPositions checked_positions(const Config& config, const CallPositions& positions, std::int64_t batch,
                               std::int64_t length);

// The seeds of a model's two position streams: SplitMix64(seed XOR these), the training stream's (step, train) and
// the evaluation stream's (forward, loss, gradients, attentionWeights).
constexpr std::uint64_t kTrainingStream = std::uint64_t{1} << 63, kEvaluationStream = std::uint64_t{1} << 62;

// Randomized positions: out (B, T), each row T positions of 0 .. range - 1 (T <= range <= 2^31) drawn without
// replacement from `stream`, row after row, by Floyd's algorithm (exactly T calls of uniform_below a row), in
// increasing order. Returns whether every row is 0 .. T - 1 (always so when range == T).
bool draw_positions(std::int32_t* out, SplitMix64& stream, std::size_t B, std::size_t T, std::int64_t range);

// The frequencies f_0 .. f_(p-1) of a model's positions: std::pow(b, -(2i) / d), rotary: b = rotaryBase, d = 2
// rotaryPairs; sinusoidal: b = 10000, d = width. With a ropeScaling (rotary), the stretched frequencies of
// docs/model.md's table, each operation in float64 in its order.
std::vector<double> position_frequencies(const Config& config, const RopeScaling* scaling = nullptr);

// The number a call's attention multiplies its scaled scores by: YaRN's temperature (0.1 ln(factor) + 1)^2 for
// 'yarn', else 1.
double score_temperature(const RopeScaling* scaling);

// What the network computes at positions given (network.cpp), beside today's kernels for 0 .. T - 1 (steps.hpp).
// Linear in the tokens, so compiled for size with the checks.

// The learned table's gradient for positions given: dtable (rows, D) = the sum of dout[n] over the tokens n at each
// position (positions (N)), in order of n.
template <class F>
void positions_backward(F* dtable, const F* dout, const std::int32_t* positions, std::size_t rows, std::size_t N,
                        std::size_t D);

// out (rows, pairs, 2): sin and cos of p_r f_i for the positions (rows) given, each angle one float64 product, its sine
// and cosine rounded once to F: the sinusoid rows of those positions (frequencies: position_frequencies of a
// sinusoidal model), or rotary's turns. frequencies (pairs), float64. positions null: row r at position r.
template <class F>
void position_turns(F* out, const std::int32_t* positions, std::size_t rows, const double* frequencies,
                    std::size_t pairs);

// Each token's row at its position (positions (N), or null: N rows at 0 .. N - 1): sinusoidal: the sinusoid row into
// table (N, width); rotary: the turns into turns (N, rotaryPairs, 2) (position_turns, at the frequencies of the call's
// scaling); else nothing (a learned table's rows are read by position where they are).
template <class F>
void token_rows(F* table, F* turns, const Config& config, const std::int32_t* positions, std::size_t N,
                const RopeScaling* scaling);

// x (B, H, T, hd), in place: in each row t, pair (2i, 2i+1) for i < pairs rotated by the turn (s, c) of row t (turns
// (T, pairs, 2)) or of row (b, t) (per_row: turns (B, T, pairs, 2)): (a, b) -> (a c - b s, a s + b c), the products
// in float64 rounded once to F (as rope.hpp); transposed: by (-s, c), the backward. The other pairs pass through.
template <class F>
void rotary_turn(F* x, const F* turns, std::size_t B, std::size_t H, std::size_t T, std::size_t hd, std::size_t pairs,
                 bool per_row, bool transposed);

}  // namespace seqorder::model
