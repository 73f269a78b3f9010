// Fast fused scaled dot-product attention in float32: the output of attention_reference (attention.hpp) without ever
// building the (Tq, Tk) matrices, for when the four steps are not asked for.
//
// q: (B, Tq, D), k: (B, Tk, D), v: (B, Tk, Dv) -> output: (B, Tq, Dv)
//
// Same semantics as the reference: check_attention_args validates the shape and the causal mask (query i sits at
// position query_start + i and sees keys 0 .. query_start + i); masked weights are exactly 0; Tk = 0 gives zeros.
//
// How (4 query rows at a time against all the keys they see, exact softmax; memory O(Tk (D + Dv)) per call):
//   - once per batch item, k is packed into panels of 8 keys ((D, 8) each) and v into panels of 8 value columns
//     ((Tk, 8) each), zero-padded;
//   - the 4 query rows are packed (D, 4), so their 4 values at d sit side by side;
//   - one microkernel, a 4 x 8 tile held in 8 four-lane accumulators with a plain (not unrolled) loop over the shared
//     axis, computes both q . k^T and the weighted sum weights . v;
//   - the scaled scores are stored (Tk, 4), one lane per query row, so the softmax runs on the 4 rows at once and
//     writes the weights already packed for the weighted sum;
//   - causal: key tiles wholly above the diagonal are never computed; only keys on the diagonal are masked, and a
//     hidden key is skipped in the weighted sum (never 0 * v, which would let a NaN or infinite later value through).
// The vector type (f32x4.hpp) is WebAssembly SIMD128 under -msimd128 and four plain floats otherwise, so native builds
// run this same blocked algorithm.
//
// Accuracy: it computes what the float32 reference computes, in the same order: the scaled scores are the reference's
// bit for bit (q_d k_d added in order of d, then divided by sqrt(D), or multiplied by 1/sqrt(D) where that is the
// same), the weights are e^(scaled - row max) over the row sum taken in order of the keys, and each output adds w_j v_j
// in order of j. Two steps differ, each by about an ulp of a weight: e^x is a polynomial within 1 float32 ulp of
// std::exp (weights under 2^-126.5 ~ 8e-39 become 0, f32x4.hpp), and the weights are multiplied by the reciprocal of
// the row sum rather than divided by it. So outputs are within a few float32 steps of max|v| of the float32
// reference (tested: <= 1e-6 max|v|), and non-finite inputs give what the reference gives (NaN rows where it has them,
// hidden keys never reach an output).
#pragma once

#include <span>

#include "attention.hpp"
#include "tensor.hpp"

namespace seqorder {

inline constexpr std::size_t kFastAttentionRows = 4;  // query rows computed together (a row group): attention_fast's kRows

// output: (B, Tq, Dv). Throws std::invalid_argument for a bad shape or mask (check_attention_args) or when a span's
// length is not the shape's element count.
void attention_fast(std::span<float> output, std::span<const float> q, std::span<const float> k,
                    std::span<const float> v, const AttentionShape& shape, const CausalMask& mask = {});

// q (Tq, D) or (B, Tq, D); k (Tk, D) / (B, Tk, D); v (Tk, Dv) / (B, Tk, Dv) -> (.., Tq, Dv), like attention().
Tensor<float> attention_fast(const Tensor<float>& q, const Tensor<float>& k, const Tensor<float>& v,
                             const CausalMask& mask = {});

}  // namespace seqorder
