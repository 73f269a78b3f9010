// Fast fused scaled dot-product attention in float32: the output of attention_reference (attention.hpp) without ever
// building the (Tq, Tk) matrices, for when the four steps are not asked for.
//
// q: (B, Tq, D), k: (B, Tk, D), v: (B, Tk, Dv) -> output: (B, Tq, Dv)
//
// Same semantics as the reference: query i sits at position query_start + i and sees keys 0 .. query_start + i when
// causal; masked weights are exactly 0; Tk = 0 gives zeros. The arguments are the call's, checked (calls.hpp).
//
// How (4 query rows at a time against all the keys they see, exact softmax; memory O(Tk (D + Dv)) per call):
//   - once per batch item, k is packed into panels of 8 keys ((D, 8) each) and v into panels of 8 value columns
//     ((Tk, 8) each), zero-padded;
//   - the 4 query rows are packed (D, 4, 4): at each d, each row's value splatted over the four lanes;
//   - one microkernel, a 4 x 8 tile held in 8 four-lane accumulators with a plain (not unrolled) loop over the shared
//     axis, computes both q . k^T and the weighted sum weights . v; its 4-row operand comes splatted over the lanes
//     (the queries as packed; each weight splatted as it is loaded);
//   - the scaled scores are stored (Tk, 4), one lane per query row, so the softmax runs on the 4 rows at once and
//     writes the weights already packed for the weighted sum;
//   - stripes of 4 rows go in groups of 4: the scores and weights of each, then the weighted sum of each, so that the
//     key panels, then the value panels, come from memory once per group (the cache serves the other stripes: at
//     T = 4096, D = 64 they are 1 MiB each);
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

#include <cstddef>
#include <cstdint>
#include <span>

#include "attention.hpp"

namespace seqorder {

inline constexpr std::size_t kFastAttentionRows = 4;  // query rows computed together (a row group): attention_fast's kRows
inline constexpr std::size_t kFastAttentionGroupRows = 16;  // query rows whose scores are kept at once: 4 row groups

// The scratch memory attention_fast_rows needs for a call of `shape` (Tk >= 1; the batch does not count: the batch
// items reuse it), in floats: each part rounded up to 16 floats (64 bytes),
//   round_up(Tk, 8) D          the key panels
//   + round_up(Dv, 8) Tk       the value panels (8 columns each: Dv = 1 takes 8 floats a key)
//   + 16 D                     one stripe of queries, splatted
//   + 4 round_up(Tk, 8) S      the scaled scores of a group of S = min(4, ceil(Tq / 4)) stripes of 4 query rows
//   + 4 round_up(Dv, 8)        a tile per value panel.
// The same for every Tq >= kFastAttentionGroupRows, and never less for a larger Tq (a buffer sized for the whole call
// serves any of its rows).
std::size_t attention_fast_scratch_size(const AttentionShape& shape);

// attention_fast's work alone, on arguments it has already checked: output (B, Tq, Dv), q (B, Tq, D), k (B, Tk, D),
// v (B, Tk, Dv) as pointers, query i at position query_start + i when causal (check_attention_args's query_start), and
// `scratch` holding attention_fast_scratch_size(shape) floats (64-byte aligned for speed).
// It allocates nothing and throws nothing. Some rows of a call computed alone (q and output offset to them,
// query_start moved on with them), cut on the fused kernel's row groups (kFastAttentionRows), are the bits of the
// whole call's: what the pool's workers rely on (src/js/pool/split.mjs).
void attention_fast_rows(float* output, const float* q, const float* k, const float* v, const AttentionShape& shape,
                         bool causal, std::int64_t query_start, float* scratch);

// output: (B, Tq, Dv), in a scratch block of its own (std::bad_alloc if there is no room for it). Preconditions
// (checked by the call, calls.hpp; asserted in debug builds): check_attention_args holds for the shape and mask, and
// every span holds its shape's values.
void attention_fast(std::span<float> output, std::span<const float> q, std::span<const float> k,
                    std::span<const float> v, const AttentionShape& shape, const CausalMask& mask = {});

}  // namespace seqorder
