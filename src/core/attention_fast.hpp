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
//     (the queries as packed; the weights as the AttentionKernel below says);
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

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "attention.hpp"

namespace seqorder {

inline constexpr std::size_t kFastAttentionRows = 4;  // query rows computed together (a row group): attention_fast's kRows
inline constexpr std::size_t kFastAttentionGroupRows = 16;  // query rows whose scores are kept at once: 4 row groups

// The variants of the fused kernel: how the microkernel gets its 4-row operand splatted over a vector's four lanes (the
// queries in the scores, the weights in the weighted sum). They run the same multiplies and adds in the same order, so
// they give the same results, bit for bit; only their speed differs, by the core (docs/performance.md: what bounds
// each on Intel and AMD Zen 4 cores):
//   splat_in_loop: queries splatted once per stripe into memory (the scores' loop reads them with plain loads),
//     weights splatted by a load_splat in the loop (x64: vbroadcastss from memory: on Intel cores a load only);
//   splat_per_block: the weights too splatted into memory, once per block of 256 keys (plain loads in both loops, and
//     a pass of stores per block);
//   splat_all_in_loop: nothing splatted into memory: load_splat in both loops (the fewest stores; on AMD Zen a
//     load_splat may also take one of the four vector pipes).
enum class AttentionKernel { splat_in_loop, splat_per_block, splat_all_in_loop };
// Every kernel, in the enum's order, and their names (attention_kernel_name).
inline constexpr AttentionKernel kAttentionKernels[] = {AttentionKernel::splat_in_loop, AttentionKernel::splat_per_block,
                                                        AttentionKernel::splat_all_in_loop};
inline constexpr std::string_view kAttentionKernelNames[] = {"splat_in_loop", "splat_per_block", "splat_all_in_loop"};
// The three lists agree: a name for every kernel, and every kernel at its enum number (its name's index, the pool's
// kernel number; a variant added to the enum goes into both lists, in order).
static_assert(std::size(kAttentionKernelNames) == std::size(kAttentionKernels));
static_assert([] {
    for (std::size_t i = 0; i < std::size(kAttentionKernels); ++i)
        if (static_cast<std::size_t>(kAttentionKernels[i]) != i) return false;
    return true;
}());

// The kernel attention_fast runs: the one given to use_attention_kernel, else the probe's choice (probed once, on first
// use).
AttentionKernel attention_kernel();

// Makes attention_fast run `kernel` (tests and benchmarks); std::nullopt returns to the probe's choice.
void use_attention_kernel(std::optional<AttentionKernel> kernel);

// Times every kernel on this machine, small calls of attention_fast_rows in turn for about 40 ms, and returns
// probe_choice's pick of them with a 25% margin. splat_in_loop without timing anything when the clock is too coarse (a
// browser's may step by 1 ms).
AttentionKernel probe_attention_kernel();

// The probe's measurements of each kernel k (in kAttentionKernels's order): its rate over the first kernel's in each
// round, and its best round's rate.
struct KernelTimes {
    std::array<std::vector<double>, std::size(kAttentionKernels)> ratios;
    std::array<double, std::size(kAttentionKernels)> best_rate{};
};
// The probe's choice from them: the first kernel unless another is faster by more than `margin` (1.25: 25%) both by the
// median of its ratios and by its best round over the first's; then, of those, the one with the highest median.
AttentionKernel probe_choice(KernelTimes times, double margin);

// A kernel's name (kAttentionKernelNames), and back (std::nullopt for any other name).
std::string_view attention_kernel_name(AttentionKernel kernel);
std::optional<AttentionKernel> attention_kernel_named(std::string_view name);

// The scratch memory attention_fast_rows needs for a call of `shape` (Tk >= 1; the batch does not count: the batch
// items reuse it), in floats: each part rounded up to 16 floats (64 bytes),
//   round_up(Tk, 8) D          the key panels
//   + round_up(Dv, 8) Tk       the value panels (8 columns each: Dv = 1 takes 8 floats a key)
//   + 16 D                     one stripe of queries, splatted (or, for splat_all_in_loop, 4 D of them, not)
//   + 4 round_up(Tk, 8) S      the scaled scores of a group of S = min(4, ceil(Tq / 4)) stripes of 4 query rows
//   + 4096                     a block of 256 keys' weights, splatted
//   + 4 round_up(Dv, 8)        a tile per value panel.
// The same for every Tq >= kFastAttentionGroupRows, and never less for a larger Tq (a buffer sized for the whole call serves any of its
// rows).
std::size_t attention_fast_scratch_size(const AttentionShape& shape);

// attention_fast's work alone, on arguments it has already checked: output (B, Tq, Dv), q (B, Tq, D), k (B, Tk, D),
// v (B, Tk, Dv) as pointers, query i at position query_start + i when causal (check_attention_args's query_start),
// `scratch` holding attention_fast_scratch_size(shape) floats (64-byte aligned for speed) and the kernel given.
// It allocates nothing and throws nothing, so it also runs where there is no allocator or exception support: the
// standalone kernel module of the pool's shared-memory workers (src/bindings/kernel.cpp), where each worker computes
// some rows of a call (q and output offset to them, query_start moved on with them), on the fused kernel's row groups
// (kFastAttentionRows): the results are then the bits of the whole call.
void attention_fast_rows(float* output, const float* q, const float* k, const float* v, const AttentionShape& shape,
                         bool causal, std::int64_t query_start, float* scratch, AttentionKernel kernel);

// output: (B, Tq, Dv), in a scratch block of its own (std::bad_alloc if there is no room for it). Preconditions
// (checked by the call, calls.hpp; asserted in debug builds): check_attention_args holds for the shape and mask, and
// every span holds its shape's values.
void attention_fast(std::span<float> output, std::span<const float> q, std::span<const float> k,
                    std::span<const float> v, const AttentionShape& shape, const CausalMask& mask = {});

}  // namespace seqorder
