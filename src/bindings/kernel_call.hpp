// The arguments of one call of the kernel module's attention_rows (kernel.cpp), as the pool's shared-memory path
// writes them into the memory (src/js/pool/shared.mjs): every member a uint32 (the memory is at most 2 GiB, so every
// address, size and position fits), in the order of the field table, which the main module names for it (embind.cpp:
// kernelCallMembers()).
#pragma once

#include <cstdint>

namespace seqorder::binding {

// attention_fast_rows's arguments: output (B, Tq, Dv) from q (B, Tq, D), k (B, Tk, D), v (B, Tk, Dv), as byte
// addresses in the memory; query i at position query_start + i when causal (1, else 0); the scratch (scratch_bytes(Tk,
// D, Dv) bytes) and the kernel's number (its place in attentionKernels(): the enum's order, attention_fast.hpp).
struct KernelCall {
    std::uint32_t output, q, k, v;
    std::uint32_t batch, queries, keys, width, value_width;
    std::uint32_t causal, query_start;
    std::uint32_t scratch, kernel;
};
template <class Field>
void fields(KernelCall& c, Field&& field) {
    field("output", c.output);
    field("q", c.q);
    field("k", c.k);
    field("v", c.v);
    field("batch", c.batch);
    field("queries", c.queries);
    field("keys", c.keys);
    field("width", c.width);
    field("valueWidth", c.value_width);
    field("causal", c.causal);
    field("queryStart", c.query_start);
    field("scratch", c.scratch);
    field("kernel", c.kernel);
}

}  // namespace seqorder::binding
