// Each step of the model, forward and backward, as plain loops: the readable reference. Every function puts its
// outputs first and its sizes last, and says the shapes it works on; N = B * T rows, row-major, last axis contiguous.
//
// F is float or double. Backward functions overwrite their gradient outputs (nothing is accumulated across calls); the model adds the
// residual paths itself. Sums run in a fixed order, written in each function: the fast float32 kernels
// (steps_fast.hpp) add the same terms in the same order, so they give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace seqorder::model {

inline constexpr double kLayerNormEps = 1e-5;

// out (B, T, D) = scale embed[ids[b, t]] + table[t]; table (T, D), the first T rows of a positions table, or null;
// per_token: table (B, T, D), one row per token, added as table[b, t]; positions (B, T), when not null: the row of
// each token's position, table[positions[b, t]]. (scale 1: embed[ids[b, t]] as it is.)
template <class F>
void input_forward(F* out, const std::int32_t* ids, const F* embed, const F* table, F scale, std::size_t B,
                   std::size_t T, std::size_t D, bool per_token = false, const std::int32_t* positions = nullptr);

// dembed (V, D) = sum of scale dout's rows over the tokens with each id, in order of the tokens (scale 1: dout's).
// dtable (T, D), when not null: sum over b of dout[b, t], in order of b.
template <class F>
void input_backward(F* dembed, F* dtable, const F* dout, const std::int32_t* ids, F scale, std::size_t B,
                    std::size_t T, std::size_t D, std::size_t V);

// out (N, D) = (inp - mean) * rstd * gain + bias for each row, with mean and rstd = 1 / sqrt(variance + 1e-5) of
// the row (the variance divided by D), kept in mean (N) and rstd (N) for the backward pass.
template <class F>
void layernorm_forward(F* out, F* mean, F* rstd, const F* inp, const F* gain, const F* bias, std::size_t N,
                       std::size_t D);

// dinp (N, D); dgain, dbias (D): sums over the rows in order.
template <class F>
void layernorm_backward(F* dinp, F* dgain, F* dbias, const F* dout, const F* inp, const F* gain, const F* mean,
                        const F* rstd, std::size_t N, std::size_t D);

// out (N, OC) = inp (N, C) . weight (C, OC) + bias (OC); bias may be null. Each sum starts from the bias (or 0) and
// adds inp[n, c] weight[c, o] in order of c.
template <class F>
void matmul_forward(F* out, const F* inp, const F* weight, const F* bias, std::size_t N, std::size_t C,
                    std::size_t OC);

// dinp (N, C) = dout . weight^T (sums in order of o); dweight (C, OC) = inp^T . dout and dbias (OC) = dout's column
// sums (sums in order of n). dinp and dbias may be null (not wanted).
template <class F>
void matmul_backward(F* dinp, F* dweight, F* dbias, const F* dout, const F* inp, const F* weight, std::size_t N,
                     std::size_t C, std::size_t OC);

// out (B, H, T, hd) <- inp (B, T, H * hd): head h's columns of every row, heads made contiguous.
template <class F>
void split_heads(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd);

// out (B, T, H * hd) <- inp (B, H, T, hd): the inverse of split_heads (also its backward, and vice versa).
template <class F>
void merge_heads(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd);

// x (BH, T, hd), in place: in each row t, pair (2i, 2i+1) for i < pairs rotated by t f_i, f_i = base^(-2i / d) with
// d = 2 pairs the rotated width (rope.hpp's rope_into over the first d coordinates); the other pairs pass through.
template <class F>
void rotary_forward(F* x, std::size_t BH, std::size_t T, std::size_t hd, std::size_t pairs, double base);

// dx (BH, T, hd), in place: the transposed rotation (by -t f_i), the backward of rotary_forward.
template <class F>
void rotary_backward(F* dx, std::size_t BH, std::size_t T, std::size_t hd, std::size_t pairs, double base);

// Scaled dot-product attention of each of BH blocks (attention.hpp's reference, the lesson's four steps):
// q, k, v (BH, T, hd) -> out (BH, T, hd), weights (BH, T, T) kept for the backward pass. Causal: query i sees keys
// 0 .. i, and the weights of hidden keys are exactly 0. bias, when not null: (H, T, T), added to the scaled scores of
// block bh = b H + h (position_bias.hpp). temperature: the scores divided by score_divisor(hd, temperature)
// (attention.hpp) instead of sqrt(hd): the scaled scores times the temperature (ropeScaling 'yarn').
template <class F>
void attention_forward(F* out, F* weights, const F* q, const F* k, const F* v, std::size_t BH, std::size_t T,
                       std::size_t hd, bool causal, const F* bias = nullptr, std::size_t H = 1,
                       double temperature = 1.0);

// dq, dk, dv (BH, T, hd) from dout (BH, T, hd). Per query row i, over its visible keys j (in order):
//   dweights[j] = dout[i] . v[j]                                      (a sum in order of e)
//   dscaled[j]  = weights[i, j] (dweights[j] - sum_j' weights[i, j'] dweights[j'])
//   dscores[j]  = dscaled[j] / sqrt(hd)                               (score_divisor(hd, temperature))
// and a hidden key's dscores is exactly 0: the mask passes no gradient. Then dq[i] = sum_j dscores[j] k[j] (in order
// of j), dk[j] = sum_i dscores[i, j] q[i] and dv[j] = sum_i weights[i, j] dout[i] (in order of i). dbias, when not
// null (BH, T, T): dscaled, the gradient with respect to a bias added to the scaled scores (0 for hidden keys).
template <class F>
void attention_backward(F* dq, F* dk, F* dv, const F* dout, const F* q, const F* k, const F* v, const F* weights,
                        std::size_t BH, std::size_t T, std::size_t hd, bool causal, F* dbias = nullptr,
                        double temperature = 1.0);

// out (n) = max(inp, 0).
template <class F>
void relu_forward(F* out, const F* inp, std::size_t n);

// dinp (n) = dout where out > 0, else 0 (out is the forward's output).
template <class F>
void relu_backward(F* dinp, const F* dout, const F* out, std::size_t n);

// out (n) = a + b. out may be a or b.
template <class F>
void add(F* out, const F* a, const F* b, std::size_t n);

// out (B, D) = the mean over t of inp (B, T, D): a sum in order of t, divided by T.
template <class F>
void mean_forward(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t D);

// dinp (B, T, D) = dout[b] / T at every t.
template <class F>
void mean_backward(F* dinp, const F* dout, std::size_t B, std::size_t T, std::size_t D);

// Mean cross-entropy of logits (R, C) against targets (R): target -1 is ignored, the mean is over the others, and
// with none left the loss is 0 (and so is every gradient). -log softmax(logits)[y] is computed as
// log(sum_c e^(logit_c - max)) - (logit_y - max). dlogits (R, C), when not null, = (softmax - one_hot(y)) / count
// for the counted rows, 0 for ignored ones. Returns the loss, summed in float64.
template <class F>
double crossentropy(F* dlogits, const F* logits, const std::int32_t* targets, std::size_t R, std::size_t C);

}  // namespace seqorder::model
