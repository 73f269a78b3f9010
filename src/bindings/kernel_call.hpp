// The arguments of one call of the kernel module's attention_rows (kernel.cpp), as the pool's shared-memory path
// writes them into the memory (src/js/pool/shared.mjs): every member a uint32 (the memory is at most 2 GiB, so every
// address, size and position fits), member i at byte 4 i, named by kKernelCallMembers, which the main module hands the
// JS layer (embind.cpp: kernelCallMembers()).
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

namespace seqorder::binding {

// attention_fast_rows's arguments: output (B, Tq, Dv) from q (B, Tq, D), k (B, Tk, D), v (B, Tk, Dv), as byte
// addresses in the memory; query i at position query_start + i when causal (1, else 0); and the scratch
// (scratch_bytes(Tk, D, Dv) bytes).
struct KernelCall {
    std::uint32_t output, q, k, v;
    std::uint32_t batch, queries, keys, width, value_width;
    std::uint32_t causal, query_start;
    std::uint32_t scratch;
};
// KernelCall's members, in order, as the JS layer names them.
inline constexpr std::string_view kKernelCallMembers[] = {"output", "q", "k", "v",
                                                          "batch", "queries", "keys", "width", "valueWidth",
                                                          "causal", "queryStart",
                                                          "scratch"};
static_assert(sizeof(KernelCall) == sizeof(std::uint32_t) * std::size(kKernelCallMembers));

}  // namespace seqorder::binding
