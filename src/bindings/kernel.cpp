// The kernel module of the pool's shared-memory workers (src/js/pool/shared.mjs): attention_fast_rows, the fused
// attention's work alone, as a standalone WebAssembly module with no imports but its memory. Every worker instantiates
// it on one shared WebAssembly.Memory, so q, k and v are written there once and each worker computes its rows in place.
// The module has no allocator, no exceptions and no runtime: the caller has checked the call (the main module's
// planAttention) and lays out the memory (the tensors, each run's scratch and calls, each worker's stack: see
// __stack_pointer).
//
// A call's arguments are one KernelCall in the memory (kernel_call.hpp), every member a uint32, which the JS layer
// writes by name: the main module lists the members (kernelCallMembers()). (This module has no data of its own to list
// them with: a shared memory's data would need code to initialize it once.)
//
// Built by CMake (target seqorder_kernel): compiled like the core with atomics and bulk memory added (a shared memory
// needs them) and linked by wasm-ld alone; tests/node/pool.test.mjs checks that it imports nothing else.
#include <cstddef>
#include <cstdint>

#include "attention_fast.hpp"
#include "kernel_call.hpp"

namespace {

template <class T>
T* at(std::uint32_t address) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(address));
}

}  // namespace

extern "C" {

// The bytes of scratch memory one call of attention_rows needs (Tk >= 1), for any number of query rows.
[[clang::export_name("scratch_bytes")]] double scratch_bytes(std::uint32_t Tk, std::uint32_t D, std::uint32_t Dv) {
    const seqorder::AttentionShape any_rows{1, seqorder::kFastAttentionGroupRows, Tk, D, Dv};
    return static_cast<double>(seqorder::attention_fast_scratch_size(any_rows)) * sizeof(float);
}

// attention_fast_rows on the call described at `call`.
[[clang::export_name("attention_rows")]] void attention_rows(const seqorder::binding::KernelCall* call) {
    const seqorder::binding::KernelCall& c = *call;
    const seqorder::AttentionShape shape{static_cast<std::int64_t>(c.batch), static_cast<std::int64_t>(c.queries),
                                         static_cast<std::int64_t>(c.keys), static_cast<std::int64_t>(c.width),
                                         static_cast<std::int64_t>(c.value_width)};
    seqorder::attention_fast_rows(at<float>(c.output), at<const float>(c.q), at<const float>(c.k),
                                  at<const float>(c.v), shape, c.causal != 0, static_cast<std::int64_t>(c.query_start),
                                  at<float>(c.scratch));
}

}  // extern "C"
