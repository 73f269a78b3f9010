// A small trainable transformer: token embedding plus positions (none, sinusoidal, learned, rotary, alibi or
// relative), 1 to 4 pre-norm blocks (multi-head attention, optionally causal, and a ReLU MLP), a final LayerNorm and a
// readout (one prediction per sequence, or one per position), trained with Adam on a mean cross-entropy. network.hpp
// writes the architecture out; parameters.hpp lists the parameters; init.hpp says how they start.
//
//   Model<float> model(Config{.vocab = 16, .width = 32, .heads = 2, .positions = Positions::sinusoidal, .seed = 1});
//   TaskBatch batch = order_task(32, 12, seed, false);
//   // one Adam step on ids (32, 12); the loss before it
//   double loss = model.step(batch.ids.data(), batch.targets.data(), 32, 12, 3e-3);
//   model.forward(logits, batch.ids.data(), 32, 12);  // logits (32, 2)
//   model.train(losses, batches, 3e-3);               // a step on each batch, all or none
//
// The package calls it through model_calls.hpp (calls/model_calls.cpp), which checks the caller's tensors and sizes
// its results, and holds it in an AnyModel (calls/any_model.hpp).
//
// Inputs: ids (B, T) int32, row-major, B >= 1 and T >= 1, each in 0 .. vocab-1; targets (B) for readout 'mean' or
// (B, T) for 'each', each in -1 .. classes-1, where -1 is ignored. The loss is the mean cross-entropy over the targets
// that are not ignored; when every target is ignored the loss is 0 and so is every gradient (an empty mean is taken
// as 0: a step on such a batch moves the parameters only by what Adam's moments carry from earlier steps).
//
// Checks, in this order, before anything is computed (messages name the argument as the JS API spells it):
//   1. std::invalid_argument  lr not finite or negative, or past the largest finite value of the model's dtype;
//                             B < 1 or T < 1; a span whose length is not what the shapes need (ids, targets, and the
//                             logits, gradients or weights written)
//   2. std::out_of_range      T > maxLength with learned positions
//      then the positions given (call_positions.hpp's checked_positions: invalid_argument, out_of_range)
//   3. std::length_error      the activations kept for (B, T) (activation_count, network.hpp) beyond kMaxTensorBytes,
//                             in 64-bit arithmetic, so a huge shape is refused before any value is read
//   4. std::out_of_range      an id outside 0 .. vocab-1, then a target outside -1 .. classes-1 (named by [b] or
//                             [b, t])
// and, for step only, after the forward and backward passes and before anything changes:
//   5. std::range_error       the loss is not finite, or the step would make a parameter, or one of Adam's moments,
//                             not finite (an lr too large for the gradients, say): the step is refused
// train checks lr, then every batch by 1-4 (its messages prefixed "batches[i]: "), before its first step; a step it
// then takes may still be refused (5, prefixed too) or run out of memory: the steps before it are undone.
//
// Every call is transactional: one that throws, for any reason (std::bad_alloc included, wherever it strikes), leaves
// the parameters, Adam's moments and step count, and both position streams, exactly as they were, and the model works
// afterwards as if the call had never been made. The parameters and moments are always finite: set_parameters refuses
// values that are not, and a step that would make them so is refused (5).
//
// Memory: the parameters, their gradients and Adam's two moments (state_bytes), allocated once by the constructor,
// plus the activations of the last call (call_bytes says what a call would add) and the positions a positionRange
// drew (B T int32). Activations of at most kKeptActivationBytes (network.hpp) are kept between calls, so repeated
// calls of one shape allocate nothing; larger ones, and those of a call that failed, are released when the call ends.
//
// Randomized positions (a call's positionRange, call_positions.hpp): step and train draw each row's positions from the
// model's training stream, SplitMix64(seed XOR 2^63), train batch after batch; forward, loss, gradients and
// attention_weights from its evaluation stream, SplitMix64(seed XOR 2^62), so that evaluating never changes how the
// model trains. A call draws from a copy, kept when the call succeeds.
//
// float32 runs the fast kernels (steps_fast.hpp) by default, which give the reference's bits; float64 always runs
// the reference. A Model is not thread-safe: calls reuse its scratch buffers.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "adam.hpp"
#include "call_positions.hpp"
#include "config.hpp"
#include "generate.hpp"
#include "network.hpp"
#include "parameters.hpp"
#include "tensor.hpp"

namespace seqorder::model {

// One parameter to replace: its name, the shape the caller believes it has, and its new values (row-major).
template <class T>
struct ParameterUpdate {
    std::string_view name;
    Shape shape;
    std::span<const T> values;
};

// One batch of train: ids (batch, length), targets and positions, as step takes them.
struct TrainBatch {
    std::span<const std::int32_t> ids, targets;
    std::int64_t batch = 0, length = 0;
    CallPositions positions;
};

// Which span a call on a model writes (Model's check_call).
enum class CallOutput { none, logits, gradients, weights };

template <class T>
class Model {
public:
    // Checks the configuration (check_config) and draws the parameters from config.seed (init.hpp).
    explicit Model(const Config& config);

    // The bytes a model of this (checked) configuration holds from its construction: four values per parameter
    // (values, gradients, Adam's two moments).
    static std::int64_t state_bytes(const Config& config);
    // The bytes a call on ids (batch, length) (B, T >= 1) allocates for its activations beyond what the model holds now
    // (prepare_bytes, network.hpp): 0 when the buffers held are large enough; INT64_MAX past the tensor limit.
    // positions: the call's (their values checked), which may need more (a bias per sentence, say; with a
    // positionRange, the B T int32 positions drawn).
    std::int64_t call_bytes(std::int64_t batch, std::int64_t length, const CallPositions& positions = {}) const;
    // The bytes train on `batches` batches holds beside its steps' activations: with two or more, a copy of the
    // parameters and Adam's moments, to restore if a step fails.
    std::int64_t train_bytes(std::size_t batches) const;

    const Config& config() const noexcept { return config_; }

    // The parameters: names, shapes and offsets in the order of parameters.hpp, and their values in one flat buffer.
    const std::vector<ParameterInfo>& parameters() const noexcept { return layout_; }
    std::span<const T> values() const noexcept { return values_; }
    std::span<const T> values(const ParameterInfo& parameter) const {
        return std::span<const T>(values_).subspan(parameter.offset, parameter.size);
    }
    // The parameter named `name`; std::invalid_argument naming it when there is none.
    const ParameterInfo& parameter(std::string_view name) const;

    // step's rule on lr (1. above): std::invalid_argument unless it is >= 0 and finite in T.
    static void check_lr(double lr);

    // Every check forward, loss, gradients and step make on their inputs (targets null for forward; attention_weights
    // is batch 1), in the order above, computing nothing: for callers that allocate their results before the call.
    void check_inputs(std::span<const std::int32_t> ids, const std::span<const std::int32_t>* targets,
                      std::int64_t batch, std::int64_t length, const CallPositions& positions = {}) const {
        check_call(ids, targets, batch, length, Output::none, 0, positions);
    }

    // Replaces any subset of the parameters. Every name must exist and appear once, every shape must be the
    // parameter's, every span hold its size and every value be finite (std::invalid_argument otherwise), all checked
    // before anything is written. Adam's moments and step count are kept.
    void set_parameters(std::span<const ParameterUpdate<T>> updates);

    // The shape of forward's result for ids (batch, length): (batch, classes) or (batch, length, classes).
    Shape logits_shape(std::int64_t batch, std::int64_t length) const;

    // ---- the calls, on ids (batch, length) row-major (model_calls.hpp checks the caller's tensors, then calls these),
    // at the positions given (call_positions.hpp: checked after the shapes, 1. and 2. above; default 0 .. T - 1)

    // logits: (B, classes) for readout 'mean', (B, T, classes) for 'each'.
    void forward(std::span<T> logits, std::span<const std::int32_t> ids, std::int64_t batch, std::int64_t length,
                 const CallPositions& positions = {});
    // targets: (B) for readout 'mean', (B, T) for 'each'.
    double loss(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                std::int64_t length, const CallPositions& positions = {});
    // The loss, and every parameter's gradient written to `gradients` (laid out as values()).
    double gradients(std::span<T> gradients, std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                     std::int64_t batch, std::int64_t length, const CallPositions& positions = {});
    // One Adam step (adam.hpp) with learning rate lr; returns the loss before the step. Refused (std::range_error,
    // nothing changed) when the loss, or any new parameter or moment, would not be finite.
    double step(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                std::int64_t length, double lr, const CallPositions& positions = {});
    // One Adam step on each batch, in order, with learning rate lr; losses[i] (one per batch) is the loss before step
    // i. lr and then every batch are checked (1-4 above; an error names the batch: "batches[2]: ids[1, 2] = 11 is
    // outside ...") before the first step. A step refused (5, "batches[i]: the loss is NaN: ...") or an allocation
    // failing at any point undoes the steps before it: the call fails and the model is exactly as it was.
    void train(std::span<double> losses, std::span<const TrainBatch> batches, double lr);
    // ids (1, T) -> weights (layers, heads, T, T): every layer's attention weights for one sequence.
    void attention_weights(std::span<T> weights, std::span<const std::int32_t> ids, std::int64_t length,
                           const CallPositions& positions = {});

    // Adam steps taken so far.
    std::int64_t steps() const noexcept { return adam_.steps(); }
    const Adam<T>& optimizer() const noexcept { return adam_; }

    // The states of the two position streams: the training stream's, then the evaluation stream's.
    std::array<std::uint64_t, 2> position_streams() const noexcept {
        return {training_stream_, evaluation_stream_};
    }

    // Puts back a saved state: every parameter (values, laid out as values()), Adam's moments m and v (laid out the
    // same), its step count and the position streams (position_streams(); none: the model's own are kept), so that the
    // model continues as the saved one would have, bit for bit. Each span must hold the parameter count, steps be in
    // 0 .. 2^53, every value, m and v finite and v >= 0: std::invalid_argument, before anything is written.
    void restore(std::span<const T> values, std::span<const T> m, std::span<const T> v, std::int64_t steps,
                 std::optional<std::array<std::uint64_t, 2>> streams = std::nullopt);

    // A next-token model's generation: out (prefix + steps) = the prefix, then `steps` ids drawn one at a time by
    // sample_next (generate.hpp) from the logits after the sequence so far, computed by a Decoder (a key/value cache:
    // the last row of forward, bit for bit), with one SplitMix64(seed) for the whole call; check_generate's rules
    // (generate.hpp) first. Changes nothing in the model.
    void generate(std::span<std::int32_t> out, std::span<const std::int32_t> prefix, std::int64_t steps,
                  const Sampling& sampling, std::uint64_t seed) const;

    // Which implementation runs the hot steps (float32 only; tests and benchmarks compare the two).
    void set_kernels(Kernels kernels) noexcept { kernels_ = kernels; }
    Kernels kernels() const noexcept { return kernels_; }

private:
    using Output = CallOutput;
    // Every check of a call on ids (batch, length), in the order documented above; targets may be null, output says
    // which span the call writes and output_size its length.
    // Returns the positions to run with (checked_positions).
    RunPositions check_call(std::span<const std::int32_t> ids, const std::span<const std::int32_t>* targets,
                                   std::int64_t batch, std::int64_t length, Output output, std::size_t output_size,
                                   const CallPositions& positions) const;
    // The forward pass on checked ids and positions, into activations_; with a positionRange, at rows drawn into
    // drawn_ from SplitMix64(stream) (draw_positions), `stream` the call's copy of a position stream's state, advanced,
    // and `positions` then the positions drawn (for the backward pass).
    void run_forward(std::span<const std::int32_t> ids, std::int64_t batch, std::int64_t length,
                     RunPositions& positions, std::uint64_t& stream);
    // The forward and backward passes on checked inputs: the loss, and gradients_.
    double run_gradients(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                         std::int64_t batch, std::int64_t length, RunPositions positions, std::uint64_t& stream);
    // One Adam step on checked inputs (5. above, then the update): the loss before it.
    double run_step(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                    std::int64_t length, double lr, RunPositions positions, std::uint64_t& stream);
    ParameterView<const T> parameter_view() const;

    // Ends a call's use of the activations: releases them when the call is failing (an exception is propagating
    // through the guard's destructor: they may be half-sized) or when they hold more than kKeptActivationBytes.
    class ScratchGuard {
    public:
        explicit ScratchGuard(Activations<T>& a) : a_(a) {}
        ScratchGuard(const ScratchGuard&) = delete;
        ScratchGuard& operator=(const ScratchGuard&) = delete;
        ~ScratchGuard();

    private:
        Activations<T>& a_;
        int exceptions_ = std::uncaught_exceptions();
    };

    Config config_;
    std::vector<ParameterInfo> layout_;
    std::vector<T> values_, gradients_;
    Adam<T> adam_;
    std::uint64_t training_stream_, evaluation_stream_;  // the position streams' states (SplitMix64's)
    Activations<T> activations_;
    std::vector<std::int32_t> drawn_;  // the positions of the last call with a positionRange, (B, T)
    Kernels kernels_ = Kernels::fast;
};

extern template class Model<double>;
extern template class Model<float>;

}  // namespace seqorder::model
