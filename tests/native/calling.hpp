// The package's calls (src/core/api/calls.hpp, model_calls.hpp) on Tensors, for the native tests and the fuzz targets:
// each builds the call's arguments as the binding does (a TensorArg per tensor: its data, count, dtype and shape;
// numbers as doubles; choices as strings), so what runs is the package's path, its checks, messages and choice of
// kernel, and returns the results as Tensors of the caller's element type.
//
//   const Tensor<double> pe = testing::positions<double>(4, 8);             // calls::positions
//   const Tensor<float> out = testing::attention(q, k, v, {true, {}});      // calls::attention: the fused kernel
//   const testing::AttentionSteps<double> s = testing::attention_steps(q, k, v);  // the reference's four steps
//   calls::AnyModel model = testing::make_model<float>(config);            // as createModel makes one
//   const Tensor<float> logits = testing::model_forward<float>(model, ids); // calls::model_forward
//   testing::net<float>(model).values();                                    // the model::Model<float> inside
//
// It includes the core's private headers on purpose (the kernels' types, the model inside an AnyModel): the tests
// build their Tensors and look at the model's state with them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <optional>
#include <vector>

#include "attention.hpp"
#include "calls.hpp"
#include "calls/any_model.hpp"
#include "model/model.hpp"
#include "model_calls.hpp"
#include "positions.hpp"
#include "tensor.hpp"

namespace testing {

// "float64", "float32", "int32": the dtype of a Tensor<T>.
template <class T>
const char* dtype_of() {
    if constexpr (std::is_same_v<T, double>) return "float64";
    if constexpr (std::is_same_v<T, float>) return "float32";
    return "int32";
}

// A Tensor as the binding hands it to the core.
template <class T>
seqorder::calls::TensorArg arg(const seqorder::Tensor<T>& t) {
    return {t.data().data(), static_cast<std::int64_t>(t.size()), dtype_of<T>(),
            std::vector<double>(t.shape().begin(), t.shape().end())};
}

// A call's result as a Tensor<T> (copied out of its block).
template <class T>
seqorder::Tensor<T> tensor(const seqorder::calls::Result& r) {
    if (r.dtype != dtype_of<T>()) throw std::logic_error("a result of dtype " + r.dtype + ", not " + dtype_of<T>());
    const T* values = static_cast<const T*>(r.data.get());
    return seqorder::Tensor<T>(seqorder::Shape(r.shape.begin(), r.shape.end()),
                               std::vector<T>(values, values + r.count));
}

// (length, width) of T: calls::positions.
template <class T>
seqorder::Tensor<T> positions(std::int64_t length, std::int64_t width, std::int64_t start = 0, double base = 10000.0,
                              seqorder::Layout layout = seqorder::Layout::interleaved) {
    seqorder::calls::PositionsArgs a;
    a.length = static_cast<double>(length);
    a.width = static_cast<double>(width);
    a.start = static_cast<double>(start);
    a.base = base;
    a.dtype = dtype_of<T>();
    a.layout = layout == seqorder::Layout::halves ? "halves" : "interleaved";
    return tensor<T>(seqorder::calls::positions(a).at(0));
}

// x (.., T, D) -> x + positions: calls::add_positions.
template <class T>
seqorder::Tensor<T> add_positions(const seqorder::Tensor<T>& x, std::int64_t start = 0, double base = 10000.0) {
    return tensor<T>(seqorder::calls::add_positions({arg(x), static_cast<double>(start), base, {}}).at(0));
}

// x (.., T, D) -> x rotated: calls::rope.
template <class T>
seqorder::Tensor<T> rope(const seqorder::Tensor<T>& x, std::int64_t start = 0, double base = 10000.0) {
    return tensor<T>(seqorder::calls::rope({arg(x), static_cast<double>(start), base, {}}).at(0));
}

// table (P, D) -> rows start .. start + length - 1: calls::learned_positions.
template <class T>
seqorder::Tensor<T> learned_positions(const seqorder::Tensor<T>& table, std::int64_t length, std::int64_t start = 0) {
    return tensor<T>(seqorder::calls::learned_positions(
                         {arg(table), static_cast<double>(length), static_cast<double>(start), {}})
                         .at(0));
}

// table (V, D), ids (T) or (B, T) -> (.., D): calls::embed.
template <class T>
seqorder::Tensor<T> embed(const seqorder::Tensor<T>& table, const seqorder::Tensor<std::int32_t>& ids) {
    return tensor<T>(seqorder::calls::embed({arg(table), arg(ids), {}}).at(0));
}

// a (.., M, K) . b (.., K, N): calls::matmul.
template <class T>
seqorder::Tensor<T> matmul(const seqorder::Tensor<T>& a, const seqorder::Tensor<T>& b) {
    return tensor<T>(seqorder::calls::matmul({arg(a), arg(b), {}}).at(0));
}

// Softmax over x's last axis, with attention's mask: calls::softmax.
template <class T>
seqorder::Tensor<T> softmax(const seqorder::Tensor<T>& x, const seqorder::CausalMask& mask = {}) {
    seqorder::calls::SoftmaxArgs a{arg(x), mask.causal, {}, {}};
    if (mask.query_start) a.query_start = static_cast<double>(*mask.query_start);
    return tensor<T>(seqorder::calls::softmax(a).at(0));
}

// x (.., T, D) -> (.., heads, T, D / heads): calls::split_heads; and back: calls::merge_heads.
template <class T>
seqorder::Tensor<T> split_heads(const seqorder::Tensor<T>& x, std::int64_t heads) {
    return tensor<T>(seqorder::calls::split_heads({arg(x), static_cast<double>(heads), {}}).at(0));
}
template <class T>
seqorder::Tensor<T> merge_heads(const seqorder::Tensor<T>& x) {
    return tensor<T>(seqorder::calls::merge_heads({arg(x), {}}).at(0));
}

// attention's arguments: q, k, v and the mask, with or without the steps.
template <class T>
seqorder::calls::AttentionArgs attention_args(const seqorder::Tensor<T>& q, const seqorder::Tensor<T>& k,
                                              const seqorder::Tensor<T>& v, const seqorder::CausalMask& mask,
                                              bool steps) {
    seqorder::calls::AttentionArgs a{arg(q), arg(k), arg(v), mask.causal, {}, steps, {}};
    if (mask.query_start) a.query_start = static_cast<double>(*mask.query_start);
    return a;
}

// The output (.., Tq, Dv), as the package computes it: the fused kernel for float32, else the reference.
template <class T>
seqorder::Tensor<T> attention(const seqorder::Tensor<T>& q, const seqorder::Tensor<T>& k, const seqorder::Tensor<T>& v,
                              const seqorder::CausalMask& mask = {}) {
    return tensor<T>(seqorder::calls::attention(attention_args(q, k, v, mask, false)).at(0));
}

// The reference's four steps: scores, scaled, weights (.., Tq, Tk) and the output (.., Tq, Dv).
template <class T>
struct AttentionSteps {
    seqorder::Tensor<T> scores, scaled, weights, output;
};
template <class T>
AttentionSteps<T> attention_steps(const seqorder::Tensor<T>& q, const seqorder::Tensor<T>& k,
                                  const seqorder::Tensor<T>& v, const seqorder::CausalMask& mask = {}) {
    const std::vector<seqorder::calls::Result> r = seqorder::calls::attention(attention_args(q, k, v, mask, true));
    return {tensor<T>(r.at(0)), tensor<T>(r.at(1)), tensor<T>(r.at(2)), tensor<T>(r.at(3))};
}

// ---- the trainable model (model_calls.hpp)

// createModel's options for `config`, in dtype T, as the JS layer passes them.
template <class T>
seqorder::calls::ModelArgs model_args(const seqorder::model::Config& config) {
    seqorder::calls::ModelArgs a;
    a.vocab = static_cast<double>(config.vocab);
    a.width = static_cast<double>(config.width);
    a.classes = static_cast<double>(config.classes);
    a.heads = static_cast<double>(config.heads);
    a.layers = static_cast<double>(config.layers);
    a.positions = std::string(seqorder::model::name_of(config.positions));
    if (config.max_length) a.max_length = static_cast<double>(*config.max_length);
    a.causal = config.causal;
    a.readout = std::string(seqorder::model::name_of(config.readout));
    a.dtype = dtype_of<T>();
    a.seed = static_cast<double>(config.seed);
    if (config.embed_scale.sqrt_width) a.embed_scale = "sqrtWidth";
    else a.embed_scale = config.embed_scale.factor;
    a.rotary_base = config.rotary_base;
    if (config.rotary_pairs) a.rotary_pairs = static_cast<double>(*config.rotary_pairs);
    if (config.buckets) a.buckets = static_cast<double>(*config.buckets);
    if (config.max_distance) a.max_distance = static_cast<double>(*config.max_distance);
    return a;
}

// A model of `config` in dtype T, made as createModel makes one (its options checked by the package).
template <class T>
seqorder::calls::AnyModel make_model(const seqorder::model::Config& config) {
    return seqorder::calls::AnyModel(model_args<T>(config));
}

// The model::Model<T> inside a package's model, for the tests that look at its state or call it directly.
template <class T>
seqorder::model::Model<T>& net(seqorder::calls::AnyModel& model) {
    seqorder::model::Model<T>* found = nullptr;
    model.visit([&](auto& inside) {
        if constexpr (std::is_same_v<std::decay_t<decltype(inside)>, seqorder::model::Model<T>>) found = &inside;
    });
    if (found == nullptr) throw std::logic_error(std::string("the model's dtype is not ") + dtype_of<T>());
    return *found;
}

// A scalar result (a loss: float64, shape []) as a number, read from its block (nothing allocated).
inline double scalar(const seqorder::calls::Result& r) {
    if (r.dtype != "float64" || r.count != 1) throw std::logic_error("not a scalar result: " + r.dtype);
    return *static_cast<const double*>(r.data.get());
}

// ids (B, T) -> logits (B, classes) or (B, T, classes): calls::model_forward.
// positionIds, when given (a null pointer: none).
inline std::optional<seqorder::calls::TensorArg> position_arg(const seqorder::Tensor<std::int32_t>* positions) {
    if (!positions) return std::nullopt;
    return arg(*positions);
}

// A call's ropeScaling (no method: none) and positionRange (none: no draw), and the options of a call with them and
// lr.
struct Stretch {
    std::optional<double> method;  // 0 'linear', 1 'ntk', 2 'yarn'
    double factor = 1;
    std::optional<double> original_length;
    std::optional<double> position_range;
};
// A call's positionRange alone.
inline Stretch with_range(double range) {
    Stretch s;
    s.position_range = range;
    return s;
}
inline seqorder::calls::ModelOptions options_of(std::optional<double> lr, const Stretch& s) {
    seqorder::calls::ModelOptions o;
    o.lr = lr;
    o.rope_method = s.method;
    if (s.method) o.rope_factor = s.factor;
    o.rope_original_length = s.original_length;
    o.position_range = s.position_range;
    return o;
}

template <class T>
seqorder::Tensor<T> model_forward(seqorder::calls::AnyModel& model, const seqorder::Tensor<std::int32_t>& ids,
                                  const seqorder::Tensor<std::int32_t>* positions = nullptr,
                         const Stretch& rope_scaling = {}) {
    return tensor<T>(seqorder::calls::model_forward(model, {{arg(ids), {}, position_arg(positions)}, options_of(std::nullopt, rope_scaling)}).at(0));
}

// The loss of ids (B, T) and targets (B) or (B, T): calls::model_loss.
inline double model_loss(seqorder::calls::AnyModel& model, const seqorder::Tensor<std::int32_t>& ids,
                         const seqorder::Tensor<std::int32_t>& targets,
                         const seqorder::Tensor<std::int32_t>* positions = nullptr,
                         const Stretch& rope_scaling = {}) {
    return scalar(seqorder::calls::model_loss(model, {{arg(ids), arg(targets), position_arg(positions)}, options_of(std::nullopt, rope_scaling)}).at(0));
}

// The loss and every parameter's gradient, laid out as the model's values(): calls::model_gradients.
template <class T>
struct Gradients {
    double loss = 0;
    std::vector<T> values;
};
template <class T>
Gradients<T> model_gradients(seqorder::calls::AnyModel& model, const seqorder::Tensor<std::int32_t>& ids,
                             const seqorder::Tensor<std::int32_t>& targets,
                             const seqorder::Tensor<std::int32_t>* positions = nullptr,
                         const Stretch& rope_scaling = {}) {
    const std::vector<seqorder::calls::Result> results =
        seqorder::calls::model_gradients(model, {{arg(ids), arg(targets), position_arg(positions)}, options_of(std::nullopt, rope_scaling)});
    Gradients<T> g{scalar(results.at(0)), {}};
    for (std::size_t i = 1; i < results.size(); ++i) {
        const seqorder::Tensor<T> gradient = tensor<T>(results[i]);
        g.values.insert(g.values.end(), gradient.data().begin(), gradient.data().end());
    }
    return g;
}

// One Adam step with learning rate lr; the loss before it: calls::model_step. (Nothing is allocated once the step has
// been taken.)
inline double model_step(seqorder::calls::AnyModel& model, const seqorder::Tensor<std::int32_t>& ids,
                         const seqorder::Tensor<std::int32_t>& targets, double lr,
                         const seqorder::Tensor<std::int32_t>* positions = nullptr,
                         const Stretch& rope_scaling = {}) {
    return scalar(
        seqorder::calls::model_step(model, {{arg(ids), arg(targets), position_arg(positions)}, options_of(lr, rope_scaling)}).at(0));
}

// ids (1, T) or (T) -> every layer's attention weights (layers, heads, T, T): calls::model_attention_weights.
template <class T>
seqorder::Tensor<T> model_attention_weights(seqorder::calls::AnyModel& model,
                                            const seqorder::Tensor<std::int32_t>& ids,
                                            const seqorder::Tensor<std::int32_t>* positions = nullptr,
                         const Stretch& rope_scaling = {}) {
    return tensor<T>(
        seqorder::calls::model_attention_weights(model, {{arg(ids), {}, position_arg(positions)}, options_of(std::nullopt, rope_scaling)}).at(0));
}

}  // namespace testing
