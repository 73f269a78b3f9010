// The binding of the core's calls (src/core/calls.hpp) to the JS layer (src/js/api.mjs); model.cpp binds the
// trainable model's. These files and values.hpp are the only C++ files of the package that know about Emscripten.
//
// Kept thin on purpose:
// - Each function takes one struct of arguments (an embind value_object: a plain JS object with every field present,
//   `undefined` where the caller gave nothing, so that the core's defaults apply). Tensors cross as heap addresses
//   plus their element count, dtype and shape; the JS layer has copied their data into the heap.
// - Each returns a plain object: { results: [{ address, dtype, shape }] } on success, the results' blocks handed over
//   to the JS layer (it copies them out and frees them), or { error } with the core's message, which the JS layer
//   throws as a RangeError (values.hpp: run). Nothing is thrown across the boundary, so no C++ frame is skipped and
//   nothing leaks. planAttention is attention without the work: { plan } or { error }.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention_fast.hpp"
#include "calls.hpp"
#include "tensor.hpp"
#include "values.hpp"

namespace {

using emscripten::val;
namespace calls = seqorder::calls;
using namespace seqorder::binding;  // the field converters and run() (values.hpp)

// ---- TensorArg's fields that are not plain numbers or strings ----

double get_address(const calls::TensorArg& t) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(t.data)); }
void set_address(calls::TensorArg& t, double address) {
    t.data = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address));
}
double get_count(const calls::TensorArg& t) { return static_cast<double>(t.count); }
void set_count(calls::TensorArg& t, double count) { t.count = static_cast<std::int64_t>(count); }
val get_shape(const calls::TensorArg& t) { return val::array(t.shape); }
void set_shape(calls::TensorArg& t, const val& shape) { t.shape = emscripten::vecFromJSArray<double>(shape); }

// ---- the calls ----

val positions(const calls::PositionsArgs& a) { return run([&] { return calls::positions(a); }); }
val embed(const calls::EmbedArgs& a) { return run([&] { return calls::embed(a); }); }
val add_positions(const calls::ShiftArgs& a) { return run([&] { return calls::add_positions(a); }); }
val learned_positions(const calls::LearnedPositionsArgs& a) { return run([&] { return calls::learned_positions(a); }); }
val rope(const calls::ShiftArgs& a) { return run([&] { return calls::rope(a); }); }
val attention(const calls::AttentionArgs& a) { return run([&] { return calls::attention(a); }); }

// attention's checks and plan, nothing computed: { plan: { dtype, batch, queries, keys, width, valueWidth, causal,
// queryStart, steps, results: [shape, ...], fused, rowGroup } } or { error }. The tensors' addresses are not read.
val plan_attention(const calls::AttentionArgs& a) {
    return guarded([&](val& outcome) {
        const calls::AttentionPlan p = calls::plan_attention(a);
        val plan = val::object();
        plan.set("dtype", p.dtype);
        plan.set("batch", static_cast<double>(p.shape.batch));
        plan.set("queries", static_cast<double>(p.shape.queries));
        plan.set("keys", static_cast<double>(p.shape.keys));
        plan.set("width", static_cast<double>(p.shape.width));
        plan.set("valueWidth", static_cast<double>(p.shape.value_width));
        plan.set("causal", p.causal);
        plan.set("queryStart", static_cast<double>(p.query_start));
        plan.set("steps", p.steps);
        val results = val::array();
        for (const auto& shape : p.results) results.call<void>("push", val::array(std::vector<double>(shape.begin(), shape.end())));
        plan.set("results", results);
        plan.set("fused", p.fused);
        plan.set("rowGroup", static_cast<double>(p.row_group));
        outcome.set("plan", plan);
    });
}

// Bytes currently allocated by malloc in the WebAssembly heap (for leak checks).
double allocated_bytes() { return static_cast<double>(mallinfo().uordblks); }

double max_tensor_bytes() { return static_cast<double>(seqorder::kMaxTensorBytes); }

// The weighted-sum kernel the fused attention runs (attention_fast.hpp), for the tests and the benchmark, which force
// each in turn: results are the same bits whichever runs. Not part of the JS API.
std::string attention_kernel() { return std::string(seqorder::attention_kernel_name(seqorder::attention_kernel())); }
std::string use_attention_kernel(const std::string& name) {  // '' on success, else the error
    if (name == "probe") {
        seqorder::use_attention_kernel(std::nullopt);
        return {};
    }
    const auto kernel = seqorder::attention_kernel_named(name);
    if (!kernel) return "attention kernel: '" + name + "' is none of 'splat_in_loop', 'splat_per_block', 'probe'";
    seqorder::use_attention_kernel(kernel);
    return {};
}

// How the fast kernels were compiled: "relaxed" (relaxed SIMD's multiply-add: SEQORDER_RELAXED_FMA) or "simd128".
std::string build() {
#ifdef SEQORDER_RELAXED_FMA
    return "relaxed";
#else
    return "simd128";
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(seqorder) {
    using calls::AttentionArgs, calls::EmbedArgs, calls::LearnedPositionsArgs, calls::PositionsArgs, calls::ShiftArgs,
        calls::TensorArg;
    emscripten::value_object<TensorArg>("TensorArg")
        .field("address", &get_address, &set_address)
        .field("count", &get_count, &set_count)
        .field("dtype", &TensorArg::dtype)
        .field("shape", &get_shape, &set_shape);
    emscripten::value_object<PositionsArgs>("PositionsArgs")
        .field("length", &PositionsArgs::length)
        .field("width", &PositionsArgs::width)
        .field("start", &get_number<PositionsArgs, &PositionsArgs::start>, &set_number<PositionsArgs, &PositionsArgs::start>)
        .field("base", &get_number<PositionsArgs, &PositionsArgs::base>, &set_number<PositionsArgs, &PositionsArgs::base>)
        .field("dtype", &get_text<PositionsArgs, &PositionsArgs::dtype>, &set_text<PositionsArgs, &PositionsArgs::dtype>)
        .field("layout", &get_text<PositionsArgs, &PositionsArgs::layout>, &set_text<PositionsArgs, &PositionsArgs::layout>)
        .field("outLength", &get_optional<PositionsArgs, &PositionsArgs::out_length>,
               &set_optional<PositionsArgs, &PositionsArgs::out_length>);
    emscripten::value_object<EmbedArgs>("EmbedArgs")
        .field("table", &EmbedArgs::table)
        .field("ids", &EmbedArgs::ids)
        .field("outLength", &get_optional<EmbedArgs, &EmbedArgs::out_length>, &set_optional<EmbedArgs, &EmbedArgs::out_length>);
    emscripten::value_object<ShiftArgs>("ShiftArgs")
        .field("x", &ShiftArgs::x)
        .field("start", &get_number<ShiftArgs, &ShiftArgs::start>, &set_number<ShiftArgs, &ShiftArgs::start>)
        .field("base", &get_number<ShiftArgs, &ShiftArgs::base>, &set_number<ShiftArgs, &ShiftArgs::base>)
        .field("outLength", &get_optional<ShiftArgs, &ShiftArgs::out_length>, &set_optional<ShiftArgs, &ShiftArgs::out_length>);
    emscripten::value_object<LearnedPositionsArgs>("LearnedPositionsArgs")
        .field("table", &LearnedPositionsArgs::table)
        .field("length", &LearnedPositionsArgs::length)
        .field("start", &get_number<LearnedPositionsArgs, &LearnedPositionsArgs::start>,
               &set_number<LearnedPositionsArgs, &LearnedPositionsArgs::start>)
        .field("outLength", &get_optional<LearnedPositionsArgs, &LearnedPositionsArgs::out_length>,
               &set_optional<LearnedPositionsArgs, &LearnedPositionsArgs::out_length>);
    emscripten::value_object<AttentionArgs>("AttentionArgs")
        .field("q", &AttentionArgs::q)
        .field("k", &AttentionArgs::k)
        .field("v", &AttentionArgs::v)
        .field("causal", &get_flag<AttentionArgs, &AttentionArgs::causal>, &set_flag<AttentionArgs, &AttentionArgs::causal>)
        .field("queryStart", &get_optional<AttentionArgs, &AttentionArgs::query_start>,
               &set_optional<AttentionArgs, &AttentionArgs::query_start>)
        .field("steps", &get_flag<AttentionArgs, &AttentionArgs::steps>, &set_flag<AttentionArgs, &AttentionArgs::steps>)
        .field("outLength", &get_optional<AttentionArgs, &AttentionArgs::out_length>,
               &set_optional<AttentionArgs, &AttentionArgs::out_length>);

    emscripten::function("positions", &positions);
    emscripten::function("addPositions", &add_positions);
    emscripten::function("embed", &embed);
    emscripten::function("learnedPositions", &learned_positions);
    emscripten::function("rope", &rope);
    emscripten::function("attention", &attention);
    emscripten::function("planAttention", &plan_attention);
    emscripten::function("allocatedBytes", &allocated_bytes);
    emscripten::function("maxTensorBytes", &max_tensor_bytes);
    emscripten::function("build", &build);
    emscripten::function("attentionKernel", &attention_kernel);
    emscripten::function("useAttentionKernel", &use_attention_kernel);
}
