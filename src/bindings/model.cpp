// The binding of the trainable model's calls (src/core/api/model_calls.hpp) to the JS layer (src/js/model.mjs), in the
// manner of embind.cpp: one struct of arguments per function, read through its field table, { results } or { error }
// back (values.hpp). It is the model module's (seqorder_model.wasm), which the JS layer compiles when a model is first
// made (src/js/model-module.mjs); the main module has none of the model's code.
//
// The models live in this module instance, in one calls::ModelTable: JS holds a model's handle (a number), passes it as
// the `model` field of each call, and disposes of it with modelDispose. A handle the table does not hold (disposed, or
// never made here) is the table's error, like any other. The table's MemoryRoom is the heap's (heap_room): a model or a
// call the heap cannot hold is refused, naming its sizes, before anything is allocated.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "model_calls.hpp"
#include "values.hpp"

namespace {

using emscripten::val;
namespace calls = seqorder::calls;
using namespace seqorder::binding;  // bind_call, guarded() and run() (values.hpp)

// What the heap can still give: the free bytes malloc holds, and what lies between its break and the heap's maximum
// (an upper bound: a large block needs those bytes in one piece).
std::int64_t heap_room() {
    const auto brk = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(sbrk(0)));
    return static_cast<std::int64_t>(emscripten_get_heap_max()) - brk + static_cast<std::int64_t>(mallinfo().fordblks);
}

calls::ModelTable& models() {
    static calls::ModelTable table(heap_room);  // this instance's models
    return table;
}

// ---- arguments ----

// A call on one model: its handle, and the inputs of forward, loss, gradients, step or attentionWeights.
struct ModelCall {
    double model = 0;
    calls::ModelInput input;
};
template <class Field>
void fields(ModelCall& c, Field&& field) {
    field("model", c.model);
    fields(c.input, field);
}
// train: the handle, the batches [{ ids, targets }] and the options ({ lr }), beside them.
struct TrainCall {
    double model = 0;
    std::vector<calls::ModelBatch> batches;
    calls::ModelOptions options;
};
template <class Field>
void fields(TrainCall& c, Field&& field) {
    field("model", c.model);
    field("batches", c.batches);
    fields(c.options, field);
}

// generate: the handle, the prefix and generate's options, side by side.
struct GenerateCall {
    double model = 0;
    calls::GenerateInput input;
};
template <class Field>
void fields(GenerateCall& c, Field&& field) {
    field("model", c.model);
    fields(c.input, field);
}

// setParameters: the handle and the parameters to replace, [{ name, tensor }].
struct SetParametersCall {
    double model = 0;
    std::vector<calls::NamedTensor> parameters;
};
template <class Field>
void fields(SetParametersCall& c, Field&& field) {
    field("model", c.model);
    field("parameters", c.parameters);
}

// parameters and dispose: the handle alone.
struct Handle {
    double model = 0;
};
template <class Field>
void fields(Handle& h, Field&& field) {
    field("model", h.model);
}

// ---- the calls ----

// { model: handle, config: the options resolved, names: the parameters' names } (CreatedModel's field table)
val create(const calls::ModelArgs& a) {
    return guarded([&](val& outcome) {
        calls::CreatedModel made = models().create(a);
        set_fields(outcome, made);
    });
}
val dispose(const Handle& h) {
    return guarded([&](val&) { models().dispose(h.model); });
}
val parameters(const Handle& h) { return run([&] { return calls::model_parameters(models().at(h.model)); }); }
val set_parameters(const SetParametersCall& c) {
    return guarded([&](val&) { calls::model_set_parameters(models().at(c.model), c.parameters); });
}
val forward(const ModelCall& c) { return run([&] { return calls::model_forward(models().at(c.model), c.input); }); }
val loss(const ModelCall& c) { return run([&] { return calls::model_loss(models().at(c.model), c.input); }); }
val gradients(const ModelCall& c) { return run([&] { return calls::model_gradients(models().at(c.model), c.input); }); }
val step(const ModelCall& c) { return run([&] { return calls::model_step(models().at(c.model), c.input); }); }
val train(const TrainCall& c) {
    return run([&] { return calls::model_train(models().at(c.model), c.batches, c.options); });
}
val attention_weights(const ModelCall& c) {
    return run([&] { return calls::model_attention_weights(models().at(c.model), c.input); });
}
val generate(const GenerateCall& c) {
    return run([&] { return calls::model_generate(models().at(c.model), c.input); });
}
val save(const Handle& h) { return run([&] { return calls::model_save(models().at(h.model)); }); }
// { model, config, names } as create's, of the model a saved state makes
val load(const calls::SavedModel& s) {
    return guarded([&](val& outcome) {
        calls::CreatedModel made = models().load(s);
        set_fields(outcome, made);
    });
}
}  // namespace

EMSCRIPTEN_BINDINGS(seqorder_model) {
    bind_call<&create>("modelCreate");
    bind_call<&dispose>("modelDispose");
    bind_call<&parameters>("modelParameters");
    bind_call<&set_parameters>("modelSetParameters");
    bind_call<&forward>("modelForward");
    bind_call<&loss>("modelLoss");
    bind_call<&gradients>("modelGradients");
    bind_call<&step>("modelStep");
    bind_call<&train>("modelTrain");
    bind_call<&attention_weights>("modelAttentionWeights");
    bind_call<&generate>("modelGenerate");
    bind_call<&save>("modelSave");
    bind_call<&load>("modelLoad");
}
