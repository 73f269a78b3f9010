// The kernel module of the pool's shared-memory workers (src/js/pool-shared.mjs): attention_fast_rows, the fused
// attention's work alone, as a standalone WebAssembly module with no imports but its memory. Every worker instantiates
// it on one shared WebAssembly.Memory, so q, k and v are written there once and each worker computes its rows in place.
// The module has no allocator, no exceptions and no runtime: the caller has checked the call (the main module's
// planAttention) and lays out the memory (the tensors, each run's scratch, each worker's stack: see __stack_pointer).
//
// Built by CMake (target seqorder_kernel): compiled like the core with atomics and bulk memory added (a shared memory
// needs them) and linked by wasm-ld alone; tests/node/pool.test.mjs checks that it imports nothing else.
#include <cstdint>

#include "attention_fast.hpp"

extern "C" {

// The bytes of scratch memory one call of attention_rows needs (Tk >= 1), for any number of query rows.
[[clang::export_name("scratch_bytes")]] double scratch_bytes(std::uint32_t Tk, std::uint32_t D, std::uint32_t Dv) {
    const seqorder::AttentionShape any_rows{1, seqorder::kFastAttentionGroupRows, Tk, D, Dv};
    return static_cast<double>(seqorder::attention_fast_scratch_size(any_rows)) * sizeof(float);
}

// attention_fast_rows over pointers into the memory: output (B, Tq, Dv) from q (B, Tq, D), k (B, Tk, D), v (B, Tk, Dv);
// query i at position query_start + i when causal; kernel: 0 splat_in_loop, 1 splat_per_block (attention_fast.hpp).
[[clang::export_name("attention_rows")]] void attention_rows(float* output, const float* q, const float* k,
                                                            const float* v, std::uint32_t B, std::uint32_t Tq,
                                                            std::uint32_t Tk, std::uint32_t D, std::uint32_t Dv,
                                                            std::uint32_t causal, double query_start, float* scratch,
                                                            std::uint32_t kernel) {
    const seqorder::AttentionShape shape{B, Tq, Tk, D, Dv};
    seqorder::attention_fast_rows(output, q, k, v, shape, causal != 0, static_cast<std::int64_t>(query_start),
                                  scratch, kernel == 0 ? seqorder::AttentionKernel::splat_in_loop
                                                       : seqorder::AttentionKernel::splat_per_block);
}

}  // extern "C"
