// A small trainable transformer: token embedding plus positions (none, sinusoidal, learned or rotary), 1 to 4 pre-norm
// blocks (multi-head attention, optionally causal, and a ReLU MLP), a final LayerNorm and a readout (one prediction
// per sequence, or one per position), trained with Adam on a mean cross-entropy. network.hpp writes the architecture
// out; parameters.hpp lists the parameters; init.hpp says how they start.
//
//   Model<float> model(Config{.vocab = 16, .width = 32, .heads = 2, .positions = Positions::sinusoidal, .seed = 1});
//   TaskBatch batch = order_task(32, 12, seed, false);
//   double loss = model.step(batch.ids, batch.targets, 3e-3);       // one Adam step; the loss before it
//   Tensor<float> logits = model.forward(batch.ids);                 // (32, 2)
//
// Inputs: ids (B, T) int32, row-major, B >= 1 and T >= 1, each in 0 .. vocab-1; targets (B) for readout 'mean' or
// (B, T) for 'each', each in -1 .. classes-1, where -1 is ignored. The loss is the mean cross-entropy over the targets
// that are not ignored; when every target is ignored the loss is 0 and so is every gradient (an empty mean is taken
// as 0: a step on such a batch moves the parameters only by what Adam's moments carry from earlier steps).
//
// Checks, in this order, before anything is computed (messages name the argument as the JS API spells it):
//   1. std::invalid_argument  lr not finite or negative; B < 1 or T < 1; a span whose length is not what the shapes
//                             need (ids, targets, and the logits, gradients or weights written)
//   2. std::out_of_range      T > maxLength with learned positions
//   3. std::length_error      the activations kept for (B, T) (activation_count, network.hpp) beyond kMaxTensorBytes,
//                             in 64-bit arithmetic, so a huge shape is refused before any value is read
//   4. std::out_of_range      an id outside 0 .. vocab-1, then a target outside -1 .. classes-1 (named by [b] or
//                             [b, t])
// After an error the model is unchanged and keeps working.
//
// float32 runs the fast kernels (steps_fast.hpp) by default, which give the reference's bits; float64 always runs
// the reference. A Model is not thread-safe: calls reuse its scratch buffers (kept between calls, so repeated calls
// of one shape allocate nothing).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "adam.hpp"
#include "config.hpp"
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

template <class T>
struct Gradients {
    double loss = 0;
    std::vector<T> values;  // every parameter's gradient, laid out as Model::values()
};

template <class T>
class Model {
public:
    // Checks the configuration (check_config) and draws the parameters from config.seed (init.hpp).
    explicit Model(const Config& config);

    const Config& config() const noexcept { return config_; }

    // The parameters: names, shapes and offsets in the order of parameters.hpp, and their values in one flat buffer.
    const std::vector<ParameterInfo>& parameters() const noexcept { return layout_; }
    std::span<const T> values() const noexcept { return values_; }
    std::span<const T> values(const ParameterInfo& parameter) const {
        return std::span<const T>(values_).subspan(parameter.offset, parameter.size);
    }
    // The parameter named `name`; std::invalid_argument naming it when there is none.
    const ParameterInfo& parameter(std::string_view name) const;

    // Every check forward, loss, gradients and step make on their inputs (targets null for forward; attention_weights
    // is batch 1), in the order above, computing nothing: for callers that allocate their results before the call.
    void check_inputs(std::span<const std::int32_t> ids, const std::span<const std::int32_t>* targets,
                      std::int64_t batch, std::int64_t length) const {
        check_call(ids, targets, batch, length, Output::none, 0);
    }

    // Replaces any subset of the parameters. Every name must exist and appear once, every shape must be the
    // parameter's and every span hold its size (std::invalid_argument otherwise), all checked before anything is
    // written. Adam's moments and step count are kept.
    void set_parameters(std::span<const ParameterUpdate<T>> updates);

    // The shape of forward's result for ids (batch, length): (batch, classes) or (batch, length, classes).
    Shape logits_shape(std::int64_t batch, std::int64_t length) const;

    // ---- the span API (as the binding calls it): ids (batch, length) row-major

    // logits: (B, classes) for readout 'mean', (B, T, classes) for 'each'.
    void forward(std::span<T> logits, std::span<const std::int32_t> ids, std::int64_t batch, std::int64_t length);
    // targets: (B) for readout 'mean', (B, T) for 'each'.
    double loss(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                std::int64_t length);
    // The loss, and every parameter's gradient written to `gradients` (laid out as values()).
    double gradients(std::span<T> gradients, std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                     std::int64_t batch, std::int64_t length);
    // One Adam step (adam.hpp) with learning rate lr; returns the loss before the step.
    double step(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                std::int64_t length, double lr);
    // ids (1, T) -> weights (layers, heads, T, T): every layer's attention weights for one sequence.
    void attention_weights(std::span<T> weights, std::span<const std::int32_t> ids, std::int64_t length);

    // ---- the same on tensors: ids (B, T); targets (B) or (B, T) as the readout says; for attention_weights, ids (T)
    // or (1, T)

    Tensor<T> forward(const Tensor<std::int32_t>& ids);
    double loss(const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets);
    Gradients<T> gradients(const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets);
    double step(const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets, double lr);
    Tensor<T> attention_weights(const Tensor<std::int32_t>& ids);

    // Adam steps taken so far.
    std::int64_t steps() const noexcept { return adam_.steps(); }
    const Adam<T>& optimizer() const noexcept { return adam_; }

    // Which implementation runs the hot steps (float32 only; tests and benchmarks compare the two).
    void set_kernels(Kernels kernels) noexcept { kernels_ = kernels; }
    Kernels kernels() const noexcept { return kernels_; }

private:
    enum class Output { none, logits, gradients, weights };
    // Every check of a call on ids (batch, length), in the order documented above; targets may be null, output says
    // which span the call writes and output_size its length.
    void check_call(std::span<const std::int32_t> ids, const std::span<const std::int32_t>* targets,
                    std::int64_t batch, std::int64_t length, Output output, std::size_t output_size) const;
    // ids (B, T), and targets (B) or (B, T) as the readout says.
    void check_tensors(const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets) const;
    // The forward pass on checked ids, into activations_.
    void run_forward(std::span<const std::int32_t> ids, std::int64_t batch, std::int64_t length);
    // The forward and backward passes on checked inputs: the loss, and gradients_.
    double run_gradients(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                         std::int64_t batch, std::int64_t length);
    ParameterView<const T> parameter_view() const;

    Config config_;
    std::vector<ParameterInfo> layout_;
    std::vector<T> values_, gradients_;
    Adam<T> adam_;
    Activations<T> activations_;
    Kernels kernels_ = Kernels::fast;
};

extern template class Model<double>;
extern template class Model<float>;

}  // namespace seqorder::model
