// The trainable model's entries of the package's API, in the style of calls.hpp: each takes its arguments as the caller
// gave them (numbers as doubles, choices and dtypes as strings, tensors as TensorArg), checks every rule here with the
// message the caller sees (naming the argument as the JS API spells it), and returns freshly allocated results. The
// WebAssembly binding (src/bindings/model.cpp), the native-vs-WebAssembly test (tests/native-vs-wasm/) and the native
// tests (tests/native/calling.hpp) all call these, so the path they test is the package's path. The model itself
// (src/core/model/model.hpp) is the core's own: a caller holds an AnyModel by reference, through its ModelTable.
//
//   ModelTable models;                                      // the models of one caller (one WebAssembly instance)
//   const CreatedModel made = models.create({.vocab = 16, .width = 32, .classes = 2});
//   std::vector<Result> loss = model_step(models.at(made.model), {.batch = {ids, targets}, .options = {.lr = 3e-3}});
//   models.dispose(made.model);
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "call_types.hpp"

namespace seqorder::calls {

// createModel's options, as given; and a model's configuration, as resolved (model.config in JS: every option, the
// defaults filled in; maxLength only with learned positions). vocab, width and classes have no default: the JS layer
// requires them, and passes each option's value as the caller gave it (an absent one leaves the default below).
struct ModelArgs {
    double vocab = 0, width = 0, classes = 0;
    double heads = 1, layers = 1;
    std::string positions = "sinusoidal";   // 'none' | 'sinusoidal' | 'learned' | 'rotary' | 'alibi' | 'relative'
    std::optional<double> max_length;       // rows of the learned table: with positions 'learned' only, and required
    bool causal = false;
    std::string readout = "mean";           // 'mean' | 'each'
    std::string dtype = "float32";          // 'float32' | 'float64'
    double seed = 0;                        // an integer in 0 .. 2^53: the initial parameters
    NumberOrName embed_scale = 1.0;         // what the token vectors are multiplied by: a number, or 'sqrtWidth'
    // with positions 'rotary' only (a model's configuration: always, its defaults filled in): the frequencies' base
    // (10000) and the pairs rotated in each head (every pair)
    std::optional<double> rotary_base, rotary_pairs;
    // with positions 'relative' only (a model's configuration: always, defaults filled in): T5's buckets (32) and the
    // distance where the last bucket begins (128)
    std::optional<double> buckets, max_distance;
};
template <class Field>
void fields(ModelArgs& a, Field&& field) {  // in the order of model.config's keys
    field("vocab", a.vocab);
    field("width", a.width);
    field("heads", a.heads);
    field("layers", a.layers);
    field("positions", a.positions);
    field("maxLength", a.max_length);
    field("causal", a.causal);
    field("readout", a.readout);
    field("classes", a.classes);
    field("dtype", a.dtype);
    field("seed", a.seed);
    field("embedScale", a.embed_scale);
    field("rotaryBase", a.rotary_base);
    field("rotaryPairs", a.rotary_pairs);
    field("buckets", a.buckets);
    field("maxDistance", a.max_distance);
}

// How many more bytes the caller's memory can give now (the binding asks the WebAssembly heap's allocator). A model
// or a call that would need more is refused before it allocates: std::length_error naming the arguments and both
// sizes. Empty: no limit but the core's own.
using MemoryRoom = std::function<std::int64_t()>;

// A model of either dtype, with its configuration (calls/any_model.hpp: the core's own).
class AnyModel;

// A model made: its handle, its configuration resolved and its parameters' names, in the order of model_parameters'
// results.
struct CreatedModel {
    double model = 0;
    ModelArgs config;
    std::vector<std::string> names;
};
template <class Field>
void fields(CreatedModel& m, Field&& field) {
    field("model", m.model);
    field("config", m.config);
    field("names", m.names);
}

// A batch of sequences: ids, and targets for the calls that take them (loss, gradients, step, train), and the
// positions of every token when given (docs/model.md, "The positions of a sentence"). An input given per token or per
// sequence goes here.
struct ModelBatch {
    TensorArg ids;                       // int32 (B, T); for attention_weights (1, T) or (T)
    std::optional<TensorArg> targets;    // int32 (B) for readout 'mean', (B, T) for 'each'
    std::optional<TensorArg> position_ids;  // int32, the shape of ids: each row strictly increasing (default 0 .. T - 1)
};
template <class Field>
void fields(ModelBatch& b, Field&& field) {
    field("ids", b.ids);
    field("targets", b.targets);
    field("positionIds", b.position_ids);
}

// The options of the model's methods ({ lr }: step's and train's; { ropeScaling, positionRange }: every call but
// generate's, train's for every batch). Each method reads those it takes (the JS layer: src/js/model.mjs's table of methods); an option
// not given keeps its default. An option given per call goes here.
struct ModelOptions {
    std::optional<double> lr;            // Adam's learning rate, default 1e-3
    // ropeScaling: the rotary frequencies of the call stretched (docs/model.md, "Stretching rotary positions"), its
    // members side by side (the JS layer writes { method, factor, originalLength } as these); no method: none
    std::optional<double> rope_method;           // 0 'linear', 1 'ntk', 2 'yarn' (the JS layer names them)
    std::optional<double> rope_factor;           // a finite number >= 1
    std::optional<double> rope_original_length;  // 'yarn' only: an integer >= 1
    // positionRange: each row's positions drawn from 0 .. L - 1 (docs/model.md, "Randomized positions"), an integer in
    // T .. 2^31 (learned: .. maxLength); not with positionIds
    std::optional<double> position_range;
};
template <class Field>
void fields(ModelOptions& o, Field&& field) {
    field("lr", o.lr);
    field("ropeMethod", o.rope_method);
    field("ropeFactor", o.rope_factor);
    field("ropeOriginalLength", o.rope_original_length);
    field("positionRange", o.position_range);
}

// The inputs of forward, loss, gradients, step and attentionWeights: a batch and the options, their members side by
// side ({ ids, targets, lr }).
struct ModelInput {
    ModelBatch batch;
    ModelOptions options;
};
template <class Field>
void fields(ModelInput& in, Field&& field) {
    fields(in.batch, field);
    fields(in.options, field);
}

// One parameter to replace: its name and new values (a tensor of the parameter's shape and the model's dtype).
struct NamedTensor {
    std::string name;
    TensorArg tensor;
};
template <class Field>
void fields(NamedTensor& t, Field&& field) {
    field("name", t.name);
    field("tensor", t.tensor);
}

// Each returns its results, or throws std::invalid_argument, std::out_of_range, std::length_error, std::range_error
// (with the message for the caller) or std::bad_alloc; nothing is allocated before every argument has been checked
// and the memory the call needs (its activations and results) found within the model's MemoryRoom, and a call that
// throws leaves the model exactly as it was (model.hpp). A scalar (a loss) is a float64 result of shape [].

// Every parameter, in the order of model.parameters() (parameters.hpp), each of its shape and the model's dtype.
std::vector<Result> model_parameters(const AnyModel& model);
// Replaces the named parameters (any subset; Adam's moments are kept).
void model_set_parameters(AnyModel& model, std::span<const NamedTensor> updates);
// ids (B, T) -> logits (B, classes) for readout 'mean', (B, T, classes) for 'each'.
std::vector<Result> model_forward(AnyModel& model, const ModelInput& input);
// -> [loss]: the mean cross-entropy over the targets that are not -1.
std::vector<Result> model_loss(AnyModel& model, const ModelInput& input);
// -> [loss, then every parameter's gradient, in the order and shapes of model_parameters].
std::vector<Result> model_gradients(AnyModel& model, const ModelInput& input);
// One Adam step -> [the loss before it]; refused when the loss or the step's results would not be finite (model.hpp).
std::vector<Result> model_step(AnyModel& model, const ModelInput& input);
// One Adam step on each batch, in order -> [losses float64 (batches)]: the loss before each step. All or nothing: the
// options (step's rules; lr absent: the default), every batch (step's rules, each message prefixed "batches[i]: ") and
// the memory of the steps are checked before the first step; a step then refused, or an allocation failing, undoes the
// steps before it (model::Model::train).
std::vector<Result> model_train(AnyModel& model, std::span<const ModelBatch> batches, const ModelOptions& options);
// ids (1, T) or (T) -> every layer's attention weights (layers, heads, T, T).
std::vector<Result> model_attention_weights(AnyModel& model, const ModelInput& input);
// generate's arguments: the prefix, int32 (T) or (1, T), and the options: the ids to draw (required), the temperature
// (1; 0: greedy), the k largest logits kept (all) and the seed of the draws (0, an integer in 0 .. 2^53).
struct GenerateInput {
    TensorArg prefix;
    std::optional<double> steps, temperature, top_k, seed;
};
template <class Field>
void fields(GenerateInput& in, Field&& field) {
    field("prefix", in.prefix);
    field("steps", in.steps);
    field("temperature", in.temperature);
    field("topK", in.top_k);
    field("seed", in.seed);
}
// A next-token model's generation -> [ids int32 (T + steps)]: the prefix, then the ids drawn (model::Model::generate's
// rules). Changes nothing.
std::vector<Result> model_generate(const AnyModel& model, const GenerateInput& input);
// The state a saved model holds beside its configuration -> [parameters (P), m (P), v (P), steps float64 [],
// streams int32 (4)]: every parameter's values one after another in the order of model_parameters, Adam's two moments
// laid out the same, Adam's step count, and the two position streams' 64-bit states (the training stream's, then the
// evaluation stream's), each as its low and high 32 bits.
std::vector<Result> model_save(const AnyModel& model);

// A saved model: its configuration (createModel's options) and model_save's state, each of the model's dtype and
// shape (P), the step count, and the position streams (int32 (4), as model_save's; absent in a state saved before
// they existed: the streams then start where a new model's do).
struct SavedModel {
    ModelArgs config;
    TensorArg parameters, m, v;
    double steps = 0;
    std::optional<TensorArg> streams;
};
template <class Field>
void fields(SavedModel& s, Field&& field) {
    fields(s.config, field);
    field("parameters", s.parameters);
    field("m", s.m);
    field("v", s.v);
    field("steps", s.steps);
    field("streams", s.streams);
}

// The models one caller owns, by handle: positive integers, never reused, so a handle kept after dispose finds
// nothing rather than another model.
class ModelTable {
public:
    // Models whose memory `room` bounds: a model or a call that needs more than it can give is refused.
    explicit ModelTable(MemoryRoom room = {});
    ModelTable(const ModelTable&) = delete;
    ModelTable& operator=(const ModelTable&) = delete;
    ~ModelTable();

    // Makes the model `args` describe and gives it the next handle. Every rule checked (integers where numbers are
    // given, the names of the choices, then the configuration's rules: model/config.hpp): std::invalid_argument naming
    // the option, std::length_error for a model past the tensor limit or past what the room can give; then its
    // parameters drawn from args.seed (model/init.hpp).
    CreatedModel create(const ModelArgs& args);
    // Makes the model saved.config describes (create's rules), then puts back its state (model::Model::restore's
    // rules, with the dtypes and shapes): a model that continues as the saved one would have. When anything is
    // refused, no model is kept.
    CreatedModel load(const SavedModel& saved);
    // The model of `handle`; std::invalid_argument when there is none (disposed, or never made here).
    AnyModel& at(double handle) const;
    // Frees the model of `handle` (the error of at() when there is none).
    void dispose(double handle);
    std::size_t size() const noexcept { return models_.size(); }

private:
    MemoryRoom room_;
    std::map<double, std::unique_ptr<AnyModel>> models_;
    double next_ = 1;
};

// orderTask's options (src/core/model/task.hpp).
struct OrderTaskArgs {
    double count = 0, length = 0;        // required: the JS layer passes what the caller gave
    double seed = 0;                     // an integer in 0 .. 2^53
    bool mirrored = false;               // sentences in pairs, the second the first with robot and person swapped
};
template <class Field>
void fields(OrderTaskArgs& a, Field&& field) {
    field("count", a.count);
    field("length", a.length);
    field("seed", a.seed);
    field("mirrored", a.mirrored);
}
// -> [ids int32 (count, length), targets int32 (count)].
std::vector<Result> order_task(const OrderTaskArgs& args);

// lookbackTask's options (src/core/model/task.hpp).
struct LookbackTaskArgs {
    double count = 0, length = 0;        // required: the JS layer passes what the caller gave
    double back = 2;                     // the answer at position t is the word at t - back
    double seed = 0;                     // an integer in 0 .. 2^53
};
template <class Field>
void fields(LookbackTaskArgs& a, Field&& field) {
    field("count", a.count);
    field("length", a.length);
    field("back", a.back);
    field("seed", a.seed);
}
// -> [ids int32 (count, length), targets int32 (count, length): -1 for the first `back` positions].
std::vector<Result> lookback_task(const LookbackTaskArgs& args);

// inductionTask's options (src/core/model/task.hpp).
struct InductionTaskArgs {
    double count = 0, length = 0;        // required: the JS layer passes what the caller gave
    double seed = 0;                     // an integer in 0 .. 2^53
};
template <class Field>
void fields(InductionTaskArgs& a, Field&& field) {
    field("count", a.count);
    field("length", a.length);
    field("seed", a.seed);
}
// -> [ids int32 (count, length), targets int32 (count, length): -1 where the word has not occurred before].
std::vector<Result> induction_task(const InductionTaskArgs& args);

// The task's vocabulary: a token's id is its index.
std::span<const std::string_view> task_words();

}  // namespace seqorder::calls
