// The binding of the core's calls (src/core/api/calls.hpp) and the tasks to the JS layer (src/js/api.mjs,
// tasks.mjs), in the main module; model.cpp binds the trainable model's, in the model module; module.cpp what both
// bind alike. These files and values.hpp are the only C++ files of the package that know about Emscripten, and they
// include the core's public headers alone (src/core/api/).
//
// Kept thin on purpose:
// - Each function takes one struct of arguments, written into the heap by the JS layer from the struct's field table
//   (values.hpp: bind_call; an absent member keeps the core's default). Tensors cross as heap addresses plus their
//   element count, dtype and shape; the JS layer has copied their data into the heap.
// - Each returns a plain object: { results: [{ address, dtype, shape }] } on success, the results' blocks handed over
//   to the JS layer (it copies them out and frees them), or { error } with the core's message, which the JS layer
//   throws as a RangeError (values.hpp: run). Nothing is thrown across the boundary, so no C++ frame is skipped and
//   nothing leaks. planAttention is attention without the work: { plan } or { error }, the plan written through its
//   field table (values.hpp: value_of), as arguments are read through theirs.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "calls.hpp"
#include "model_calls.hpp"
#include "values.hpp"

namespace {

using emscripten::val;
namespace calls = seqorder::calls;
using namespace seqorder::binding;  // bind_call, guarded() and run() (values.hpp)

// ---- the calls ----

val positions(const calls::PositionsArgs& a) { return run([&] { return calls::positions(a); }); }
val embed(const calls::EmbedArgs& a) { return run([&] { return calls::embed(a); }); }
val add_positions(const calls::ShiftArgs& a) { return run([&] { return calls::add_positions(a); }); }
val learned_positions(const calls::LearnedPositionsArgs& a) { return run([&] { return calls::learned_positions(a); }); }
val rope(const calls::ShiftArgs& a) { return run([&] { return calls::rope(a); }); }
val attention(const calls::AttentionArgs& a) { return run([&] { return calls::attention(a); }); }
val matmul(const calls::MatmulArgs& a) { return run([&] { return calls::matmul(a); }); }
val softmax(const calls::SoftmaxArgs& a) { return run([&] { return calls::softmax(a); }); }
val split_heads(const calls::SplitHeadsArgs& a) { return run([&] { return calls::split_heads(a); }); }
val merge_heads(const calls::MergeHeadsArgs& a) { return run([&] { return calls::merge_heads(a); }); }

// The lesson's tasks (src/core/model/task.hpp): data for the trainable model, made here so that it needs no model.
val order_task(const calls::OrderTaskArgs& a) { return run([&] { return calls::order_task(a); }); }
val lookback_task(const calls::LookbackTaskArgs& a) { return run([&] { return calls::lookback_task(a); }); }
val induction_task(const calls::InductionTaskArgs& a) { return run([&] { return calls::induction_task(a); }); }
val task_words() {
    val words = val::array();
    for (const std::string_view word : calls::task_words()) words.call<void>("push", std::string(word));
    return words;
}

// attention's checks and plan, nothing computed: { plan: { dtype, batch, queries, keys, width, valueWidth, causal,
// queryStart, steps, results: [shape, ...], fused, rowGroup } } (AttentionPlan's field table) or { error }. The
// tensors' addresses are not read.
val plan_attention(const calls::AttentionArgs& a) {
    return guarded([&](val& outcome) {
        calls::AttentionPlan plan = calls::plan_attention(a);
        outcome.set("plan", value_of(plan));
    });
}

// positions' checks and the pieces it may be computed in, nothing computed: { plan: { count, pieceRows } } or { error }.
val plan_positions(const calls::PositionsArgs& a) {
    return guarded([&](val& outcome) {
        calls::PositionsPlan plan = calls::plan_positions(a);
        outcome.set("plan", value_of(plan));
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(seqorder) {
    bind_call<&positions>("positions");
    bind_call<&add_positions>("addPositions");
    bind_call<&embed>("embed");
    bind_call<&learned_positions>("learnedPositions");
    bind_call<&rope>("rope");
    bind_call<&attention>("attention");
    bind_call<&matmul>("matmul");
    bind_call<&softmax>("softmax");
    bind_call<&split_heads>("splitHeads");
    bind_call<&merge_heads>("mergeHeads");
    bind_call<&plan_attention>("planAttention");
    bind_call<&plan_positions>("planPositions");
    bind_call<&order_task>("orderTask");
    bind_call<&lookback_task>("lookbackTask");
    bind_call<&induction_task>("inductionTask");
    emscripten::function("taskWords", &task_words);
}
