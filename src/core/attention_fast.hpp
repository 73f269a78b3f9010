// Fast fused scaled dot-product attention in float32: the output of attention_reference (attention.hpp) without ever
// building the (Tq, Tk) matrices, for when the four steps are not asked for.
//
// q: (B, Tq, D), k: (B, Tk, D), v: (B, Tk, Dv) -> output: (B, Tq, Dv)
//
// Same semantics as the reference: check_attention_args validates the shape and the causal mask (query i sits at
// position query_start + i and sees keys 0 .. query_start + i); masked weights are exactly 0; Tk = 0 gives zeros.
//
// How (one stripe of 4 query rows at a time, exact softmax over the whole row, memory O(Tk (D + Dv)) per call):
//   - once per batch item, k is packed into panels of 8 keys ((D, 8) each) and v into panels of 8 value columns
//     ((Tk, 8) each), zero-padded;
//   - the 4 query rows are packed (D, 4), pre-scaled by 1/sqrt(D), so their 4 values at d sit side by side;
//   - one microkernel, a 4 x 8 tile held in 8 four-lane accumulators with a plain (not unrolled) loop over the shared
//     axis, computes both scaled = (q / sqrt(D)) . k^T and the weighted sum weights . v;
//   - the scaled scores are stored (Tk, 4), one lane per query row, so the softmax runs on the 4 rows at once and
//     writes the weights already packed for the weighted sum; the division by the row sum is applied to the output;
//   - causal: key tiles wholly above the diagonal are never computed; only keys on the diagonal are masked.
// The vector type (f32x4.hpp) is WebAssembly SIMD128 under -msimd128 and four plain floats otherwise, so native builds
// run this same blocked algorithm.
//
// Accuracy against the float32 reference: scores are (q / sqrt(D)) . k rather than (q . k) / sqrt(D), e^x comes from a
// polynomial (~1e-7 relative) and the weights are normalized after the weighted sum; each output differs from the
// reference by a few float32 rounding steps of the output's scale (tested: <= 2e-5 of max |v|).
// Non-finite inputs: a NaN in q or k makes its row NaN, as in the reference; a NaN or infinite v on a masked key is
// skipped, as in the reference (never 0 * inf = NaN).
#pragma once

#include <span>

#include "attention.hpp"
#include "tensor.hpp"

namespace seqorder {

// output: (B, Tq, Dv). Throws std::invalid_argument for a bad shape or mask (check_attention_args) or when a span's
// length is not the shape's element count.
void attention_fast(std::span<float> output, std::span<const float> q, std::span<const float> k,
                    std::span<const float> v, const AttentionShape& shape, const CausalMask& mask = {});

// q (Tq, D) or (B, Tq, D); k (Tk, D) / (B, Tk, D); v (Tk, Dv) / (B, Tk, Dv) -> (.., Tq, Dv), like attention().
Tensor<float> attention_fast(const Tensor<float>& q, const Tensor<float>& k, const Tensor<float>& v,
                             const CausalMask& mask = {});

}  // namespace seqorder
