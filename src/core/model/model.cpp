#include "model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "init.hpp"
#include "prefixed.hpp"
#include "random.hpp"
#include "sizes.hpp"
#include "steps.hpp"

namespace seqorder::model {
namespace {

std::string str(std::int64_t n) { return std::to_string(n); }

Config checked(const Config& config, std::size_t element_bytes) {
    check_config(config, element_bytes);
    return config;
}

std::size_t total_size(const std::vector<ParameterInfo>& layout) { return layout.back().offset + layout.back().size; }

// "[1, 3]" (rank 2) or "[1]" (rank 1) for flat index n of a (rows, length) array
std::string index_of(std::size_t n, std::size_t length, bool rank2) {
    return rank2 ? joined({"[", std::to_string(n / length), ", ", std::to_string(n % length), "]"})
                 : joined({"[", std::to_string(n), "]"});
}

// "[2, 5]" (a matrix) or "[3]" (a vector): the index of element n of parameter p
std::string element_of(const ParameterInfo& p, std::size_t n) {
    return index_of(n, p.shape.back(), p.shape.size() == 2);
}

void check_size(const char* what, std::size_t size, std::int64_t expected, const char* meaning) {
    if (static_cast<std::uint64_t>(size) != static_cast<std::uint64_t>(expected))
        throw std::invalid_argument(
            joined({what, " must hold ", meaning, " = ", str(expected), " values, got ", std::to_string(size)}));
}

// Model<T>::check_call's checks, one copy for both dtypes: the model's config, its element size and parameter count.
RunPositions check_call_of(const Config& config, std::size_t element_bytes, std::size_t parameter_count,
                                  std::span<const std::int32_t> ids, const std::span<const std::int32_t>* targets,
                                  std::int64_t batch, std::int64_t length, CallOutput output, std::size_t output_size,
                                  const CallPositions& positions) {
    // 1. shapes and span lengths
    if (batch < 1 || length < 1)
        throw std::invalid_argument("ids must have shape (B, T) with B >= 1 and T >= 1, got " +
                                    shape_to_string(std::array{batch, length}));
    const std::int64_t tokens = saturating_mul(batch, length);
    const bool each = config.readout == Readout::each;
    check_size("ids", ids.size(), tokens, "B * T");
    if (targets)
        check_size("targets", targets->size(), each ? tokens : batch,
                   each ? "B * T (readout 'each': one target per position)"
                        : "B (readout 'mean': one target per sequence)");
    switch (output) {
        case CallOutput::none: break;
        case CallOutput::logits:
            check_size("logits", output_size, saturating_mul(each ? tokens : batch, config.classes),
                       each ? "B * T * classes" : "B * classes");
            break;
        case CallOutput::gradients:
            check_size("gradients", output_size, static_cast<std::int64_t>(parameter_count), "the parameter count");
            break;
        case CallOutput::weights:
            check_size("weights", output_size, saturating_product({config.layers, config.heads, length, length}),
                       "layers * heads * T * T");
            break;
    }
    // 2. the learned table's rows
    if (config.positions == Positions::learned && length > *config.max_length)
        throw std::out_of_range(joined({"ids have T = ", str(length), " positions, but the learned table has ",
                                        str(*config.max_length), " rows (maxLength)"}));
    // the positions (their checks: call_positions.hpp)
    const RunPositions at = checked_positions(config, positions, batch, length);
    // 3. memory
    if (activation_count(config, batch, length, at.per_token()) > max_elements(element_bytes))
        throw std::length_error(joined({"ids of shape (B, T) = ", shape_to_string(std::array{batch, length}),
                                         " need more activations than the ",
                                         str(static_cast<std::int64_t>(kMaxTensorBytes >> 20)), " MiB a tensor may hold"}));
    // 4. values
    const auto columns = static_cast<std::size_t>(length);
    for (std::size_t n = 0; n < ids.size(); ++n)
        if (ids[n] < 0 || ids[n] >= config.vocab)
            throw std::out_of_range(joined({"ids", index_of(n, columns, true), " = ", str(ids[n]),
                                            " is outside 0 .. vocab - 1 = 0 .. ", str(config.vocab - 1)}));
    if (targets)
        for (std::size_t n = 0; n < targets->size(); ++n)
            if ((*targets)[n] < -1 || (*targets)[n] >= config.classes)
                throw std::out_of_range(joined({"targets", index_of(n, columns, each), " = ", str((*targets)[n]),
                                                " is outside -1 .. classes - 1 = -1 .. ", str(config.classes - 1),
                                                " (-1 ignores a target)"}));
    return at;
}

// Model<T>::check_lr's messages, one copy for both dtypes.
void check_lr_number(double lr) {
    if (!(std::isfinite(lr) && lr >= 0))
        throw std::invalid_argument("lr must be a finite number >= 0, got " + number_text(lr));
}
[[noreturn]] void throw_lr_too_large(double lr, double largest, const char* dtype) {
    throw std::invalid_argument(joined({"lr must be at most ", number_text(largest), " (the largest finite ", dtype,
                                        ", the model's dtype), got ", number_text(lr)}));
}

}  // namespace

template <class T>
Model<T>::Model(const Config& config)
    : config_(checked(config, sizeof(T))),
      layout_(parameter_layout(config_)),
      values_(total_size(layout_)),
      gradients_(values_.size()),
      adam_(values_.size()),
      training_stream_(config_.seed ^ kTrainingStream),
      evaluation_stream_(config_.seed ^ kEvaluationStream) {
    init_parameters<T>(values_, layout_, config_.seed);
}

template <class T>
std::int64_t Model<T>::state_bytes(const Config& config) {
    return saturating_mul(saturating_mul(4, parameter_count(config)), static_cast<std::int64_t>(sizeof(T)));
}

template <class T>
std::int64_t Model<T>::call_bytes(std::int64_t batch, std::int64_t length, const CallPositions& positions) const {
    const RunPositions at = checked_positions(config_, positions, batch, length);
    if (activation_count(config_, batch, length, at.per_token()) > max_elements(sizeof(T))) return kSaturated;
    const std::int64_t drawn = at.range != 0 ? 4 * batch * length : 0;  // the rows drawn (at most)
    return prepare_bytes<T>(activations_, config_, static_cast<std::size_t>(batch), static_cast<std::size_t>(length),
                            at.per_token()) +
           drawn;
}

template <class T>
std::int64_t Model<T>::train_bytes(std::size_t batches) const {
    if (batches < 2) return 0;
    return saturating_mul(3 * static_cast<std::int64_t>(values_.size()), static_cast<std::int64_t>(sizeof(T)));
}

template <class T>
void Model<T>::check_lr(double lr) {
    check_lr_number(lr);
    if (!std::isfinite(static_cast<T>(lr)))
        throw_lr_too_large(lr, static_cast<double>(std::numeric_limits<T>::max()), sizeof(T) == 4 ? "float32" : "float64");
}

template <class T>
Model<T>::ScratchGuard::~ScratchGuard() {
    if (std::uncaught_exceptions() > exceptions_ || held_bytes(a_) > kKeptActivationBytes) a_ = Activations<T>{};
}

template <class T>
const ParameterInfo& Model<T>::parameter(std::string_view name) const {
    const auto it = std::find_if(layout_.begin(), layout_.end(), [&](const ParameterInfo& p) { return p.name == name; });
    if (it == layout_.end())
        throw std::invalid_argument(joined({"the model has no parameter named ", quoted(std::string(name)),
                                            " (parameters() lists them: 'embed', 'layers.0.attention.wq', ...)"}));
    return *it;
}

template <class T>
void Model<T>::set_parameters(std::span<const ParameterUpdate<T>> updates) {
    std::vector<const ParameterInfo*> targets;
    for (const ParameterUpdate<T>& u : updates) {
        const ParameterInfo& p = parameter(u.name);
        if (std::find(targets.begin(), targets.end(), &p) != targets.end())
            throw std::invalid_argument(joined({"parameter '", p.name, "' is given twice"}));
        if (u.shape != p.shape)
            throw std::invalid_argument(
                joined({"parameter '", p.name, "' has shape ", shape_to_string(p.shape), ", got ", shape_to_string(u.shape)}));
        check_size(p.name.c_str(), u.values.size(), static_cast<std::int64_t>(p.size), "its shape's element count");
        const auto bad = std::find_if(u.values.begin(), u.values.end(), [](T x) { return !std::isfinite(x); });
        if (bad != u.values.end())
            throw std::invalid_argument(joined({"parameter '", p.name, "' holds ", number_text(static_cast<double>(*bad)),
                                                " at ", element_of(p, static_cast<std::size_t>(bad - u.values.begin())),
                                                ": every parameter must be finite"}));
        targets.push_back(&p);
    }
    for (std::size_t i = 0; i < updates.size(); ++i)
        std::copy(updates[i].values.begin(), updates[i].values.end(),
                  values_.begin() + static_cast<std::ptrdiff_t>(targets[i]->offset));
}

template <class T>
Shape Model<T>::logits_shape(std::int64_t batch, std::int64_t length) const {
    if (batch < 1 || length < 1)
        throw std::invalid_argument("ids must have shape (B, T) with B >= 1 and T >= 1, got " +
                                    shape_to_string(std::array{batch, length}));
    const bool each = config_.readout == Readout::each;
    checked_count({batch, each ? length : 1, config_.classes}, sizeof(T), "logits");
    const auto B = static_cast<std::size_t>(batch), C = static_cast<std::size_t>(config_.classes);
    return each ? Shape{B, static_cast<std::size_t>(length), C} : Shape{B, C};
}

template <class T>
RunPositions Model<T>::check_call(std::span<const std::int32_t> ids,
                                         const std::span<const std::int32_t>* targets, std::int64_t batch,
                                         std::int64_t length, Output output, std::size_t output_size,
                                         const CallPositions& positions) const {
    return check_call_of(config_, sizeof(T), values_.size(), ids, targets, batch, length, output, output_size,
                         positions);
}

template <class T>
ParameterView<const T> Model<T>::parameter_view() const {
    return view_of<const T>(std::span<const T>(values_), layout_, config_);
}

template <class T>
void Model<T>::run_forward(std::span<const std::int32_t> ids, std::int64_t batch, std::int64_t length,
                           RunPositions& positions, std::uint64_t& stream) {
    if (positions.range != 0) {  // the rows drawn, then run as positions given (0 .. T - 1 in every row: as none)
        const auto B = static_cast<std::size_t>(batch), columns = static_cast<std::size_t>(length);
        drawn_.resize(B * columns);
        SplitMix64 draws(stream);
        positions.ids = draw_positions(drawn_.data(), draws, B, columns, positions.range) ? nullptr : drawn_.data();
        positions.range = 0;
        stream = draws.state();
    }
    prepare<T>(activations_, config_, static_cast<std::size_t>(batch), static_cast<std::size_t>(length),
               positions.per_token());
    network_forward<T>(activations_, config_, parameter_view(), ids.data(), kernels_, positions);
}

template <class T>
double Model<T>::run_gradients(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                               std::int64_t batch, std::int64_t length, RunPositions positions, std::uint64_t& stream) {
    run_forward(ids, batch, length, positions, stream);
    Activations<T>& a = activations_;
    const std::size_t rows = targets.size(), classes = static_cast<std::size_t>(config_.classes);
    const double loss = crossentropy<T>(a.d_logits.data(), a.logits.data(), targets.data(), rows, classes);
    network_backward<T>(a, config_, parameter_view(), view_of<T>(std::span<T>(gradients_), layout_, config_),
                        ids.data(), kernels_, positions);
    return loss;
}

template <class T>
void Model<T>::forward(std::span<T> logits, std::span<const std::int32_t> ids, std::int64_t batch,
                       std::int64_t length, const CallPositions& positions) {
    RunPositions at = check_call(ids, nullptr, batch, length, Output::logits, logits.size(), positions);
    const ScratchGuard guard(activations_);
    std::uint64_t stream = evaluation_stream_;
    run_forward(ids, batch, length, at, stream);
    std::copy(activations_.logits.begin(), activations_.logits.end(), logits.begin());
    evaluation_stream_ = stream;
}

template <class T>
double Model<T>::loss(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                      std::int64_t length, const CallPositions& positions) {
    RunPositions at = check_call(ids, &targets, batch, length, Output::none, 0, positions);
    const ScratchGuard guard(activations_);
    std::uint64_t stream = evaluation_stream_;
    run_forward(ids, batch, length, at, stream);
    const double loss = crossentropy<T>(nullptr, activations_.logits.data(), targets.data(), targets.size(),
                                        static_cast<std::size_t>(config_.classes));
    evaluation_stream_ = stream;
    return loss;
}

template <class T>
double Model<T>::gradients(std::span<T> gradients, std::span<const std::int32_t> ids,
                           std::span<const std::int32_t> targets, std::int64_t batch, std::int64_t length,
                           const CallPositions& positions) {
    const RunPositions at = check_call(ids, &targets, batch, length, Output::gradients, gradients.size(), positions);
    const ScratchGuard guard(activations_);
    std::uint64_t stream = evaluation_stream_;
    const double loss = run_gradients(ids, targets, batch, length, at, stream);
    std::copy(gradients_.begin(), gradients_.end(), gradients.begin());
    evaluation_stream_ = stream;
    return loss;
}

template <class T>
double Model<T>::run_step(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets,
                          std::int64_t batch, std::int64_t length, double lr, RunPositions positions,
                          std::uint64_t& stream) {
    const double loss = run_gradients(ids, targets, batch, length, positions, stream);
    if (!std::isfinite(loss))
        throw std::range_error("the loss is " + number_text(loss) +
                               ": a step on a loss that is not finite is refused (the model is unchanged)");
    if (const auto i = adam_.first_not_finite(values_, gradients_, lr)) {
        const auto p = std::find_if(layout_.begin(), layout_.end(),
                                    [&](const ParameterInfo& q) { return *i < q.offset + q.size; });
        throw std::range_error(joined({"lr ", number_text(lr), " is refused here: the step would make parameter '",
                                       p->name, "' ", element_of(*p, *i - p->offset),
                                       " or its Adam moments not finite (the model is unchanged)"}));
    }
    adam_.step(values_, gradients_, lr);
    return loss;
}

template <class T>
double Model<T>::step(std::span<const std::int32_t> ids, std::span<const std::int32_t> targets, std::int64_t batch,
                      std::int64_t length, double lr, const CallPositions& positions) {
    check_lr(lr);
    const RunPositions at = check_call(ids, &targets, batch, length, Output::none, 0, positions);
    const ScratchGuard guard(activations_);
    std::uint64_t stream = training_stream_;
    const double loss = run_step(ids, targets, batch, length, lr, at, stream);
    training_stream_ = stream;
    return loss;
}

template <class T>
void Model<T>::train(std::span<double> losses, std::span<const TrainBatch> batches, double lr) {
    check_lr(lr);
    check_size("losses", losses.size(), static_cast<std::int64_t>(batches.size()), "one value per batch");
    for (std::size_t i = 0; i < batches.size(); ++i) {
        const TrainBatch& b = batches[i];
        try {
            check_call(b.ids, &b.targets, b.batch, b.length, Output::none, 0, b.positions);
        } catch (...) {
            rethrow_prefixed(batch_prefix(i));
        }
    }
    const ScratchGuard guard(activations_);
    // A step is transactional by itself; after the first, a failing one must also undo those before it. The
    // parameters and Adam's state are copied before the first step and put back (allocating nothing) on failure.
    std::vector<T> saved_values;
    std::optional<Adam<T>> saved_adam;
    std::uint64_t stream = training_stream_;  // each batch's rows drawn in turn, kept when every step is taken
    if (batches.size() > 1) {
        saved_values = values_;
        saved_adam.emplace(adam_);
    }
    try {
        for (std::size_t i = 0; i < batches.size(); ++i) {
            const TrainBatch& b = batches[i];
            try {
                // (the positions checked above, found again: a pass over the ids, no allocation)
                losses[i] = run_step(b.ids, b.targets, b.batch, b.length, lr,
                                     checked_positions(config_, b.positions, b.batch, b.length), stream);
            } catch (...) {
                rethrow_prefixed(batch_prefix(i));
            }
        }
    } catch (...) {
        if (saved_adam) {
            std::copy(saved_values.begin(), saved_values.end(), values_.begin());
            adam_ = std::move(*saved_adam);
        }
        throw;
    }
    training_stream_ = stream;
}

template <class T>
void Model<T>::attention_weights(std::span<T> weights, std::span<const std::int32_t> ids, std::int64_t length,
                                 const CallPositions& positions) {
    RunPositions at = check_call(ids, nullptr, 1, length, Output::weights, weights.size(), positions);
    const ScratchGuard guard(activations_);
    std::uint64_t stream = evaluation_stream_;
    run_forward(ids, 1, length, at, stream);
    std::copy_n(activations_.weights.begin(), weights.size(), weights.begin());  // (L, 1 * H, T, T)
    evaluation_stream_ = stream;
}

template <class T>
void Model<T>::restore(std::span<const T> values, std::span<const T> m, std::span<const T> v, std::int64_t steps,
                       std::optional<std::array<std::uint64_t, 2>> streams) {
    const std::size_t n = values_.size();
    if (values.size() != n || m.size() != n || v.size() != n || steps < 0 || steps > (std::int64_t{1} << 53))
        throw std::invalid_argument("restore takes the parameter count of values, m and v, and steps in 0 .. 2^53");
    const auto finite = [](T x) { return std::isfinite(x); };
    if (!std::all_of(values.begin(), values.end(), finite) || !std::all_of(m.begin(), m.end(), finite) ||
        !std::all_of(v.begin(), v.end(), [&](T x) { return finite(x) && x >= T{0}; }))
        throw std::invalid_argument("every parameter and Adam's moments must be finite, and the second moment >= 0");
    std::copy(values.begin(), values.end(), values_.begin());
    adam_.restore(m, v, steps);
    if (streams) {
        training_stream_ = (*streams)[0];
        evaluation_stream_ = (*streams)[1];
    }
}

template <class T>
void Model<T>::generate(std::span<std::int32_t> out, std::span<const std::int32_t> prefix, std::int64_t steps,
                        const Sampling& sampling, std::uint64_t seed) const {
    check_generate(config_, prefix, steps, sampling, sizeof(T));
    const std::size_t total = prefix.size() + static_cast<std::size_t>(steps);
    if (out.size() != total) throw std::invalid_argument("out must hold the prefix's ids and steps");
    Decoder<T> decoder(config_, parameter_view(), total);
    SplitMix64 random(seed);
    std::vector<double> logits(static_cast<std::size_t>(config_.classes));
    std::copy(prefix.begin(), prefix.end(), out.begin());
    for (std::size_t n = 0; n + 1 < total; ++n) {
        decoder.push(out[n]);
        if (n + 1 < prefix.size()) continue;
        std::copy(decoder.logits().begin(), decoder.logits().end(), logits.begin());
        out[n + 1] = sample_next(logits, sampling, random);
    }
}

template class Model<double>;
template class Model<float>;

}  // namespace seqorder::model
