// The whole network, forward and backward, for ids of shape (B, T) whose values and sizes have been checked: the
// steps of steps.hpp (or, in float32, the fast kernels of steps_fast.hpp) in the order of the architecture.
//
//   x = s embed[ids] + p                        s: embedScale (1, or sqrt(D)); p: the sinusoidal table's rows, or the
//                                               learned table's, or nothing
//   bias = position_bias.hpp's (H, T, T)        alibi and relative positions: added to every layer's scaled scores
//   each layer:  x = x + attention(rotary?(LN1(x) Wq), rotary?(LN1(x) Wk), LN1(x) Wv, bias?) Wo    per head,
//                                               causal?; the heads side by side again before Wo
//                x = x + relu(LN2(x) W1 + b1) W2 + b2
//   logits = (mean over t of LN(x)) Wr + br   (B, C)     readout 'mean'
//          = LN(x) Wr + br                    (B, T, C)  readout 'each'
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "call_positions.hpp"
#include "config.hpp"
#include "parameters.hpp"

namespace seqorder::model {

// Which implementation runs the hot steps: fast applies to float32 only (float64 always runs the reference).
enum class Kernels { reference, fast };

// Everything the backward pass needs from the forward pass, and the backward pass's own buffers, for one (B, T).
// N = B T rows of width D; per layer l: its input x[l] (x[L] is the last layer's output), LayerNorm outputs and
// statistics, the heads' q, k, v (after rotation) and weights, the merged attention output, the middle residual and
// the MLP's hidden (post-ReLU) activations.
template <class F>
struct Activations {
    std::size_t B = 0, T = 0;
    std::vector<F> x;                       // (L + 1, N, D)
    std::vector<F> ln1, ln2;                // (L, N, D)
    std::vector<F> ln1_mean, ln1_rstd, ln2_mean, ln2_rstd;  // (L, N)
    std::vector<F> q, k, v;                 // (L, B, H, T, hd), or (L, N, D): the heads side by side (network.cpp's
                                            // heads_side_by_side)
    std::vector<F> weights;                 // (L, B, H, T, T)
    std::vector<F> att;                     // (L, N, D): heads merged, before Wo
    std::vector<F> mid;                     // (L, N, D): x + attention
    std::vector<F> hidden;                  // (L, N, 4D)
    std::vector<F> lnf, lnf_mean, lnf_rstd;  // (N, D), (N), (N)
    std::vector<F> pooled;                  // (B, D), readout 'mean'
    std::vector<F> logits;                  // (B, C) or (N, C)
    std::vector<F> table;                   // (table_length, D): the sinusoidal rows; positions given: (N, D), the
                                            // exact rows of positions 0 .. exact_rows - 1, or each token's row
    std::size_t table_length = 0;           // rows 0 .. T - 1 the table holds (0 until it is filled, or per token)
    std::size_t exact_rows = 0;             // positions given: the exact sinusoid rows the table holds (position_turns',
                                            // kept from call to call; 0: none)
    std::vector<F> turns;                   // (N, pairs, 2): rotary's cos and sin of each token, positions given
    std::vector<F> bias;                    // (H, T, T): the scores' position bias (alibi, relative), every layer's;
                                            // positions given: (B, H, T, T), each sentence's
    std::vector<F> d_bias;                  // (B, H, T, T): a layer's gradient with respect to it (relative)
    // backward and scratch
    std::vector<F> d_x, d_ln, d_tmp, d_proj, d_heads;  // (N, D) each
    std::vector<F> d_q, d_k, d_v;           // (B, H, T, hd), or (N, D), as q, k, v
    std::vector<F> d_hidden;                // (N, 4D)
    std::vector<F> d_pooled, d_logits;      // (B, D), like logits
    std::vector<float> workspace;           // the fast kernels' packed operands (float32 only)
};

// The bytes an Activations holds (its buffers' capacities).
template <class F>
std::int64_t held_bytes(const Activations<F>& a) noexcept;

// Above this, a model releases its activations when a call ends (smaller ones are kept, so repeated calls of one
// shape allocate nothing): 64 MiB, e.g. the lab model evaluating 512 sentences of 32 tokens keeps its buffers, 512
// sentences of 64 tokens (about 125 MiB) or the attention weights of one sentence of 8192 (256 MiB) do not.
inline constexpr std::int64_t kKeptActivationBytes = std::int64_t{64} << 20;

// What Activations may hold for (B, T), in elements of F, saturated at INT64_MAX (never wrapped), checked against the
// tensor limit before anything is allocated. With N = B T, hd = D / H and R = B ('mean') or N ('each'):
//     L (12 N D + 4 N + B H T^2)      each layer: x, LayerNorms, q, k, v, att, mid (8 N D), hidden (4 N D),
//                                     LayerNorm statistics (4 N), attention weights (B H T^2)
//   + 14 N D + 2 N                    the last x, the final LayerNorm, the backward pass's buffers (12 N D)
//   + 2 (B D + R C) + T D             pooled rows, logits and their gradients, the sinusoid table
//   + 4 D^2 + D C + hd T + T^2        the fast kernels' packed operands
//   + H T^2                           the scores' bias, alibi and relative positions only
//   + B H T^2                         its gradient, relative positions only
//   + 2 N D + B H T^2                 positions given (per_row): each token's table row and rotary turns, and a
//                                     bias per sentence
// (an upper bound: the readout 'each' has no pooled rows, only sinusoidal positions a table, only float32 packed
// operands, and those need the largest of 4 D^2, D C and hd T + T^2).
std::int64_t activation_count(const Config& config, std::int64_t B, std::int64_t T, bool per_row = false);

// Sizes every buffer for (B, T) (per_row: for positions given, call_positions.hpp) and, for sinusoidal positions, fills the table. Buffers that are large enough are
// resized in place (repeated calls of one shape allocate nothing); when any must grow, every buffer is released first
// and each allocated once at its size, so the peak is what (B, T) needs. a.B and a.T are 0 until every buffer is
// sized and the table filled: after an exception (std::bad_alloc) a may hold some buffers, but none is trusted until
// a prepare() succeeds.
template <class F>
void prepare(Activations<F>& a, const Config& config, std::size_t B, std::size_t T, bool per_row = false);

// The bytes prepare(a, config, B, T) would take beyond what a holds: 0 when every buffer is large enough, else what
// (B, T) needs less what a holds now (released first). (B, T) must be within activation_count's limit.
template <class F>
std::int64_t prepare_bytes(const Activations<F>& a, const Config& config, std::size_t B, std::size_t T,
                           bool per_row = false);

// ids (B, T) -> a.logits, keeping what the backward pass needs. positions: as checked_positions returns them
// (call_positions.hpp), the activations prepared per_row = positions.per_token(); by default 0 .. T - 1 in every row
// and no ropeScaling.
template <class F>
void network_forward(Activations<F>& a, const Config& config, const ParameterView<const F>& p,
                     const std::int32_t* ids, Kernels kernels, RunPositions positions = {});

// From a.d_logits (the loss's gradient with respect to a.logits) to the gradient of every parameter, written
// (overwritten) through g. Needs the activations of the network_forward call just before, and its positions.
template <class F>
void network_backward(Activations<F>& a, const Config& config, const ParameterView<const F>& p,
                      const ParameterView<F>& g, const std::int32_t* ids, Kernels kernels,
                      RunPositions positions = {});

}  // namespace seqorder::model
