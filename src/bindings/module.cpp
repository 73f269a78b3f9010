// What every WebAssembly module of the package binds beside its calls (embind.cpp's in the main module, model.cpp's in
// the model module): the description of its calls' arguments, its heap's figures and how it was compiled. The JS layer
// reads each module through these alike (src/js/binding.mjs, heap.mjs).
#include <emscripten/bind.h>
#include <malloc.h>

#include <string>

#include "calls.hpp"
#include "values.hpp"

namespace {

// Bytes currently allocated by malloc in this module's heap (for leak checks).
double allocated_bytes() { return static_cast<double>(mallinfo().uordblks); }

double max_tensor_bytes() { return static_cast<double>(seqorder::calls::max_tensor_bytes()); }

// How the fast kernels were compiled: "relaxed" (relaxed SIMD's multiply-add: SEQORDER_RELAXED_FMA) or "simd128".
std::string build() {
#ifdef SEQORDER_RELAXED_FMA
    return "relaxed";
#else
    return "simd128";
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(seqorder_module) {
    emscripten::function("argumentFields", &seqorder::binding::argument_fields);
    emscripten::function("allocatedBytes", &allocated_bytes);
    emscripten::function("maxTensorBytes", &max_tensor_bytes);
    emscripten::function("build", &build);
}
