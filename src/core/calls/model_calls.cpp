#include "model_calls.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "any_model.hpp"
#include "call_args.hpp"
#include "model/prefixed.hpp"
#include "model/sizes.hpp"
#include "model/task.hpp"
#include "tensor.hpp"

namespace seqorder::calls {
namespace {

using model::DType;

// An option given as a number that must be whole: its range is check_config's rule, stated there once.
std::int64_t whole(double x, const std::string& name) {
    return integer(x, name, -static_cast<std::int64_t>(kMaxSafe), static_cast<std::int64_t>(kMaxSafe));
}

model::Config config_of(const ModelArgs& a, DType dtype) {
    model::Config c;
    c.vocab = whole(a.vocab, "vocab");
    c.width = whole(a.width, "width");
    c.heads = whole(a.heads, "heads");
    c.layers = whole(a.layers, "layers");
    c.positions = model::positions_from_name(a.positions);
    if (a.max_length) c.max_length = whole(*a.max_length, "maxLength");
    c.causal = a.causal;
    c.readout = model::readout_from_name(a.readout);
    c.classes = whole(a.classes, "classes");
    c.seed = model::seed_from_number(a.seed);
    if (const auto* name = std::get_if<std::string>(&a.embed_scale)) c.embed_scale = model::embed_scale_from_name(*name);
    else c.embed_scale.factor = std::get<double>(a.embed_scale);
    c.rotary_base = a.rotary_base;
    if (a.rotary_pairs) c.rotary_pairs = whole(*a.rotary_pairs, "rotaryPairs");
    if (a.buckets) c.buckets = whole(*a.buckets, "buckets");
    if (a.max_distance) c.max_distance = whole(*a.max_distance, "maxDistance");
    model::check_config(c, dtype == DType::float32 ? sizeof(float) : sizeof(double));
    return c;
}

// "512.0 MiB"
std::string mib(std::int64_t bytes) {
    const std::int64_t tenths = std::llround(static_cast<double>(bytes) / (1 << 20) * 10);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

// "<what> need(s) <bytes> more memory (<why>), but the heap can give <room> more"
void check_room(const MemoryRoom& room, std::int64_t bytes, const std::string& what, const std::string& why) {
    if (!room) return;
    const std::int64_t left = room();
    if (bytes > left)
        throw std::length_error(joined({what, " ", mib(bytes), " more memory (", why, "), but the heap can give ",
                                        mib(std::max<std::int64_t>(left, 0)), " more"}));
}

AnyModel::Either make_model(const model::Config& config, DType dtype, const MemoryRoom& room) {
    const bool f32 = dtype == DType::float32;
    const std::int64_t bytes = f32 ? model::Model<float>::state_bytes(config) : model::Model<double>::state_bytes(config);
    check_room(room, bytes,
               joined({"a model of ", std::to_string(model::parameter_count(config)), " parameters (vocab ",
                       std::to_string(config.vocab), ", width ", std::to_string(config.width), ", layers ",
                       std::to_string(config.layers), config.max_length ? ", maxLength " : "",
                       config.max_length ? std::to_string(*config.max_length) : std::string(), ", classes ",
                       std::to_string(config.classes), ") needs"}),
               joined({"four ", f32 ? "4" : "8",
                       "-byte values per parameter: its value, its gradient and Adam's two moments"}));
    if (f32) return AnyModel::Either(std::in_place_type<model::Model<float>>, config);
    return AnyModel::Either(std::in_place_type<model::Model<double>>, config);
}

// The check_room of a call on ids (batch, length) that needs `bytes`.
void check_call_room(const AnyModel& m, std::int64_t bytes, std::int64_t batch, std::int64_t length) {
    m.check_room(bytes,
                 "ids of shape (B, T) = " + shape_to_string(std::array{batch, length}) + " need",
                 "the model's activations and the call's results");
}

std::string dtype_name(const AnyModel& m) { return std::string(model::name_of(m.dtype())); }

// ids (B, T), int32, as the caller gave them (the model checks B, T >= 1 and every id).
struct Batch {
    std::int64_t batch, length;
    std::span<const std::int32_t> ids;
    std::span<const std::int32_t> targets;  // empty when the call takes none
    model::CallPositions positions;         // positionIds, or none given
};

// ropeScaling, when given (the model checks it with the positions, call_positions.hpp: a method outside the three,
// or no factor, is refused there).
std::optional<model::RopeScaling> rope_scaling_of(const ModelOptions& options) {
    if (!options.rope_method) return std::nullopt;
    const double method = *options.rope_method;
    return model::RopeScaling{method == 0 || method == 1 || method == 2 ? static_cast<model::RopeMethod>(method)
                                                                        : model::RopeMethod::unknown,
                              options.rope_factor.value_or(NAN), options.rope_original_length};
}

// What every batch of a call takes from its options: ropeScaling and positionRange.
model::CallPositions shared_positions(const ModelOptions& options) {
    return {{}, rope_scaling_of(options), options.position_range};
}

// positionIds, when given: int32, of the shape of ids (the model checks the values); and the options every batch
// shares.
model::CallPositions positions_of(const ModelBatch& given, const Sizes& ids, model::CallPositions shared) {
    if (!given.position_ids) return shared;
    check_dtype("positionIds.dtype", given.position_ids->dtype, {"int32"});
    const Sizes shape = dims(*given.position_ids, "positionIds");
    if (shape != ids)
        throw std::invalid_argument("positionIds must have the shape of ids, " + shape_to_string(ids) + ", got " +
                                    shape_to_string(shape));
    shared.ids = in_span<std::int32_t>(*given.position_ids);
    return shared;
}

// ids, and targets when the call takes them; the positions at which they run.
Batch batch_of(const AnyModel& m, const ModelBatch& given, bool with_targets, const model::CallPositions& shared) {
    check_dtype("ids.dtype", given.ids.dtype, {"int32"});
    const Sizes ids = dims(given.ids, "ids");
    if (ids.size() != 2) throw std::invalid_argument("ids must have shape (B, T), got " + shape_to_string(ids));
    Batch b{ids[0], ids[1], in_span<std::int32_t>(given.ids), {}, positions_of(given, ids, shared)};
    if (!with_targets) return b;
    if (!given.targets) throw std::invalid_argument("targets must be given");
    check_dtype("targets.dtype", given.targets->dtype, {"int32"});
    const Sizes targets = dims(*given.targets, "targets");
    const bool each = m.config().readout == model::Readout::each;
    const Sizes want = each ? Sizes{b.batch, b.length} : Sizes{b.batch};
    if (targets != want)
        throw std::invalid_argument(joined({"targets must have shape ", each ? "(B, T) = " : "(B) = ",
                                            shape_to_string(want), " for readout '", model::name_of(m.config().readout),
                                            "' (one target per ", each ? "position" : "sequence", "), got ",
                                            shape_to_string(targets)}));
    b.targets = in_span<std::int32_t>(*given.targets);
    return b;
}

// A float64 result of shape []: a loss.
Result scalar(double value) {
    Result r = make_result("loss", "float64", {}, std::nullopt);
    out_span<double>(r)[0] = value;
    return r;
}

// A result of each parameter's shape, in order, copied from `values` (laid out as the model's flat buffer).
template <class T>
void append_parameters(std::vector<Result>& results, const AnyModel& m, std::span<const T> values) {
    for (const model::ParameterInfo& p : m.parameters()) {
        Result& r = results.emplace_back(
            make_result(p.name, dtype_name(m), Sizes(p.shape.begin(), p.shape.end()), std::nullopt));
        const auto from = values.subspan(p.offset, p.size);
        std::copy(from.begin(), from.end(), out_span<T>(r).begin());
    }
}

}  // namespace

AnyModel::AnyModel(const ModelArgs& args, MemoryRoom room)
    : dtype_(model::dtype_from_name(args.dtype)),
      room_(std::move(room)),
      options_(args),
      model_(make_model(config_of(args, dtype_), dtype_, room_)) {
    const model::Config& c = config();
    options_.seed = static_cast<double>(c.seed);  // (a seed given as -0 is 0)
    if (c.positions == model::Positions::rotary) {
        options_.rotary_base = model::rotary_base(c);
        options_.rotary_pairs = static_cast<double>(model::rotary_pairs(c));
    }
    if (c.positions == model::Positions::relative) {
        options_.buckets = static_cast<double>(model::buckets(c));
        options_.max_distance = static_cast<double>(model::max_distance(c));
    }
}

void AnyModel::check_room(std::int64_t bytes, const std::string& what, const std::string& why) const {
    calls::check_room(room_, bytes, what, why);
}

const model::Config& AnyModel::config() const {
    return visit([](const auto& net) -> const model::Config& { return net.config(); });
}

const std::vector<model::ParameterInfo>& AnyModel::parameters() const {
    return visit([](const auto& net) -> const std::vector<model::ParameterInfo>& { return net.parameters(); });
}

std::vector<Result> model_parameters(const AnyModel& m) {
    std::vector<Result> results;
    m.visit([&](const auto& net) { append_parameters(results, m, net.values()); });
    return results;
}

void model_set_parameters(AnyModel& m, std::span<const NamedTensor> updates) {
    const std::string dtype = dtype_name(m);
    m.visit([&]<class T>(model::Model<T>& net) {
        std::vector<model::ParameterUpdate<T>> checked;
        for (const NamedTensor& u : updates) {
            const std::string name = "parameters[" + quoted(u.name) + "]";
            const model::ParameterInfo& p = net.parameter(u.name);  // names first: "no parameter named ..."
            if (u.tensor.dtype != dtype)
                throw std::invalid_argument(name + ".dtype must be " + quoted(dtype) + " (the model's dtype), got " +
                                            quoted(u.tensor.dtype));
            const Sizes shape = dims(u.tensor, name);
            checked.push_back({p.name, Shape(shape.begin(), shape.end()), in_span<T>(u.tensor)});
        }
        net.set_parameters(checked);  // each name once, each shape the parameter's: checked before anything changes
    });
}

std::vector<Result> model_forward(AnyModel& m, const ModelInput& in) {
    const Batch b = batch_of(m, in.batch, false, shared_positions(in.options));
    std::vector<Result> results;
    m.visit([&]<class T>(model::Model<T>& net) {
        net.check_inputs(b.ids, nullptr, b.batch, b.length, b.positions);
        const Shape shape = net.logits_shape(b.batch, b.length);
        auto logits = static_cast<std::int64_t>(sizeof(T));
        for (std::size_t n : shape) logits = model::saturating_mul(logits, static_cast<std::int64_t>(n));
        check_call_room(m, model::saturating_add(net.call_bytes(b.batch, b.length, b.positions), logits), b.batch,
                        b.length);
        results.push_back(make_result("logits", dtype_name(m), Sizes(shape.begin(), shape.end()), std::nullopt));
        net.forward(out_span<T>(results[0]), b.ids, b.batch, b.length, b.positions);
    });
    return results;
}

std::vector<Result> model_loss(AnyModel& m, const ModelInput& in) {
    const Batch b = batch_of(m, in.batch, true, shared_positions(in.options));
    std::vector<Result> results;
    m.visit([&](auto& net) {
        net.check_inputs(b.ids, &b.targets, b.batch, b.length, b.positions);
        check_call_room(m, net.call_bytes(b.batch, b.length, b.positions), b.batch, b.length);
        results.push_back(scalar(net.loss(b.ids, b.targets, b.batch, b.length, b.positions)));
    });
    return results;
}

std::vector<Result> model_gradients(AnyModel& m, const ModelInput& in) {
    const Batch b = batch_of(m, in.batch, true, shared_positions(in.options));
    std::vector<Result> results;
    m.visit([&]<class T>(model::Model<T>& net) {
        net.check_inputs(b.ids, &b.targets, b.batch, b.length, b.positions);
        const auto parameter_bytes = static_cast<std::int64_t>(net.values().size() * sizeof(T));
        check_call_room(m, model::saturating_add(net.call_bytes(b.batch, b.length, b.positions), 2 * parameter_bytes),
                        b.batch, b.length);
        std::vector<T> gradients(net.values().size());
        const double loss = net.gradients(gradients, b.ids, b.targets, b.batch, b.length, b.positions);
        results.push_back(scalar(loss));
        append_parameters(results, m, std::span<const T>(gradients));
    });
    return results;
}

std::vector<Result> model_step(AnyModel& m, const ModelInput& in) {
    const Batch b = batch_of(m, in.batch, true, shared_positions(in.options));
    const double lr = in.options.lr.value_or(1e-3);
    std::vector<Result> results;
    m.visit([&](auto& net) {
        net.check_lr(lr);
        net.check_inputs(b.ids, &b.targets, b.batch, b.length, b.positions);
        check_call_room(m, net.call_bytes(b.batch, b.length, b.positions), b.batch, b.length);
        results.push_back(scalar(0));  // allocated before the step: once it has changed the model, nothing may fail
        out_span<double>(results[0])[0] = net.step(b.ids, b.targets, b.batch, b.length, lr, b.positions);
    });
    return results;
}

std::vector<Result> model_train(AnyModel& m, std::span<const ModelBatch> batches, const ModelOptions& options) {
    const double lr = options.lr.value_or(1e-3);
    const model::CallPositions shared = shared_positions(options);  // every batch's
    std::vector<Result> results;
    m.visit([&]<class T>(model::Model<T>& net) {
        net.check_lr(lr);
        std::vector<model::TrainBatch> checked;
        checked.reserve(batches.size());
        std::int64_t activations = 0;                   // the most any one step adds to what the model holds now
        std::array<std::int64_t, 2> largest{0, 0};      // the (B, T) that needs it
        for (std::size_t i = 0; i < batches.size(); ++i) {
            try {
                const Batch b = batch_of(m, batches[i], true, shared);
                net.check_inputs(b.ids, &b.targets, b.batch, b.length, b.positions);
                checked.push_back({b.ids, b.targets, b.batch, b.length, b.positions});
                if (const std::int64_t bytes = net.call_bytes(b.batch, b.length, b.positions); bytes >= activations) {
                    activations = bytes;
                    largest = {b.batch, b.length};
                }
            } catch (...) {
                model::rethrow_prefixed(model::batch_prefix(i));
            }
        }
        const auto n = static_cast<std::int64_t>(batches.size());
        const std::int64_t bytes = model::saturating_add(
            model::saturating_add(activations, net.train_bytes(batches.size())), model::saturating_mul(n, 8));
        m.check_room(bytes,
                     n == 1 ? "train's batch, ids of shape (B, T) = " + shape_to_string(largest) + ", needs"
                            : "train's " + std::to_string(n) + " batches (the largest, ids of shape (B, T) = " +
                                  shape_to_string(largest) + ") need",
                     n < 2 ? std::string("the model's activations and the loss")
                           : std::string("the model's activations, the losses and a copy of the parameters and Adam's "
                                         "moments, kept until every step is taken"));
        results.push_back(make_result("losses", "float64", {n}, std::nullopt));
        net.train(out_span<double>(results[0]), checked, lr);
    });
    return results;
}

std::vector<Result> model_attention_weights(AnyModel& m, const ModelInput& in) {
    check_dtype("ids.dtype", in.batch.ids.dtype, {"int32"});
    const Sizes ids = dims(in.batch.ids, "ids");
    if (!(ids.size() == 1 || (ids.size() == 2 && ids[0] == 1)))
        throw std::invalid_argument("ids must have shape (1, T) or (T): one sequence, got " + shape_to_string(ids));
    const std::int64_t length = ids.back();
    const auto values = in_span<std::int32_t>(in.batch.ids);
    const model::CallPositions positions = positions_of(in.batch, ids, shared_positions(in.options));
    std::vector<Result> results;
    m.visit([&]<class T>(model::Model<T>& net) {
        net.check_inputs(values, nullptr, 1, length, positions);
        const model::Config& c = net.config();
        const std::int64_t weights =
            model::saturating_product({c.layers, c.heads, length, length, static_cast<std::int64_t>(sizeof(T))});
        check_call_room(m, model::saturating_add(net.call_bytes(1, length, positions), weights), 1, length);
        results.push_back(make_result("weights", dtype_name(m), {c.layers, c.heads, length, length}, std::nullopt));
        net.attention_weights(out_span<T>(results[0]), values, length, positions);
    });
    return results;
}

std::vector<Result> model_generate(const AnyModel& m, const GenerateInput& o) {
    check_dtype("prefix.dtype", o.prefix.dtype, {"int32"});
    const Sizes ids = dims(o.prefix, "prefix");
    if (!(ids.size() == 1 || (ids.size() == 2 && ids[0] == 1)))
        throw std::invalid_argument("prefix must have shape (T) or (1, T): one sequence, got " + shape_to_string(ids));
    if (!o.steps) throw std::invalid_argument("options.steps must be given: the number of ids to draw");
    const std::int64_t steps = integer(*o.steps, "steps", 0, static_cast<std::int64_t>(kMaxSafe));
    model::Sampling sampling{.temperature = o.temperature.value_or(1.0), .top_k = std::nullopt};
    if (o.top_k) sampling.top_k = integer(*o.top_k, "topK", 1, static_cast<std::int64_t>(kMaxSafe));
    const std::uint64_t seed = model::seed_from_number(o.seed.value_or(0));
    const auto prefix = in_span<std::int32_t>(o.prefix);
    const std::size_t element_bytes = m.dtype() == DType::float32 ? sizeof(float) : sizeof(double);
    model::check_generate(m.config(), prefix, steps, sampling, element_bytes);
    const std::int64_t total = static_cast<std::int64_t>(prefix.size()) + steps;
    m.check_room(model::saturating_add(model::decoder_bytes(m.config(), total, element_bytes), total * 4),
                 "generate needs", "the key/value cache and the ids");
    std::vector<Result> results;
    results.push_back(make_result("ids", "int32", {total}, std::nullopt));
    m.visit([&](const auto& net) { net.generate(out_span<std::int32_t>(results[0]), prefix, steps, sampling, seed); });
    return results;
}

std::vector<Result> model_save(const AnyModel& m) {
    const model::ParameterInfo& last = m.parameters().back();
    const auto count = static_cast<std::int64_t>(last.offset + last.size);
    std::vector<Result> results;
    for (const char* name : {"parameters", "m", "v"}) results.push_back(make_result(name, dtype_name(m), {count}, std::nullopt));
    std::int64_t steps = 0;
    std::array<std::uint64_t, 2> streams{};
    m.visit([&]<class T>(const model::Model<T>& net) {
        std::copy(net.values().begin(), net.values().end(), out_span<T>(results[0]).begin());
        std::copy(net.optimizer().first_moment().begin(), net.optimizer().first_moment().end(), out_span<T>(results[1]).begin());
        std::copy(net.optimizer().second_moment().begin(), net.optimizer().second_moment().end(), out_span<T>(results[2]).begin());
        steps = net.steps();
        streams = net.position_streams();
    });
    results.push_back(scalar(static_cast<double>(steps)));
    results.push_back(make_result("streams", "int32", {4}, std::nullopt));
    std::memcpy(out_span<std::int32_t>(results[4]).data(), streams.data(), 16);  // (little-endian: low, then high words)
    return results;
}

ModelTable::ModelTable(MemoryRoom room) : room_(std::move(room)) {}
ModelTable::~ModelTable() = default;

CreatedModel ModelTable::create(const ModelArgs& args) {
    auto created = std::make_unique<AnyModel>(args, room_);
    CreatedModel made{next_, created->options(), {}};
    for (const model::ParameterInfo& p : created->parameters()) made.names.push_back(p.name);
    models_.emplace(next_, std::move(created));
    next_ += 1;
    return made;
}

CreatedModel ModelTable::load(const SavedModel& saved) {
    CreatedModel made = create(saved.config);
    try {
        AnyModel& m = at(made.model);
        const std::string dtype = dtype_name(m);
        const model::ParameterInfo& last = m.parameters().back();
        const Sizes count{static_cast<std::int64_t>(last.offset + last.size)};
        for (const TensorArg* t : {&saved.parameters, &saved.m, &saved.v})
            if (t->dtype != dtype || dims(*t, "parameters") != count)
                throw std::invalid_argument("parameters, m and v must each hold the " + std::to_string(count[0]) + " " +
                                            dtype + " values of the saved configuration (bytes cut short or damaged?)");
        const std::int64_t steps = integer(saved.steps, "Adam's saved step count", 0, std::int64_t{1} << 53);
        std::optional<std::array<std::uint64_t, 2>> streams;
        if (saved.streams) {
            if (saved.streams->dtype != "int32" || dims(*saved.streams, "streams") != Sizes{4})
                throw std::invalid_argument("streams must hold the 4 int32 words of the two position streams");
            streams.emplace();
            std::memcpy(streams->data(), in_span<std::int32_t>(*saved.streams).data(), 16);
        }
        m.visit([&]<class T>(model::Model<T>& net) {
            net.restore(in_span<T>(saved.parameters), in_span<T>(saved.m), in_span<T>(saved.v), steps, streams);
        });
        return made;
    } catch (...) {
        models_.erase(made.model);
        throw;
    }
}

AnyModel& ModelTable::at(double handle) const {
    const auto it = models_.find(handle);
    if (it == models_.end())
        throw std::invalid_argument("model " + number_text(handle) +
                                    " does not exist: it was disposed, or made by another instance of the module");
    return *it->second;
}

void ModelTable::dispose(double handle) {
    at(handle);
    models_.erase(handle);
}

std::vector<Result> order_task(const OrderTaskArgs& a) {
    const std::int64_t count = size(a.count, "count");
    const std::int64_t length = size(a.length, "length");
    const std::uint64_t seed = model::seed_from_number(a.seed);
    model::check_order_task(count, length, a.mirrored);
    std::vector<Result> results;
    results.push_back(make_result("ids", "int32", {count, length}, std::nullopt));
    results.push_back(make_result("targets", "int32", {count}, std::nullopt));
    model::order_task_into(out_span<std::int32_t>(results[0]), out_span<std::int32_t>(results[1]), count, length, seed,
                           a.mirrored);
    return results;
}

std::vector<Result> lookback_task(const LookbackTaskArgs& a) {
    const std::int64_t count = size(a.count, "count");
    const std::int64_t length = size(a.length, "length");
    const std::int64_t back = size(a.back, "back");
    const std::uint64_t seed = model::seed_from_number(a.seed);
    model::check_lookback_task(count, length, back);
    std::vector<Result> results;
    results.push_back(make_result("ids", "int32", {count, length}, std::nullopt));
    results.push_back(make_result("targets", "int32", {count, length}, std::nullopt));
    model::lookback_task_into(out_span<std::int32_t>(results[0]), out_span<std::int32_t>(results[1]), count, length,
                              back, seed);
    return results;
}

std::vector<Result> induction_task(const InductionTaskArgs& a) {
    const std::int64_t count = size(a.count, "count");
    const std::int64_t length = size(a.length, "length");
    const std::uint64_t seed = model::seed_from_number(a.seed);
    model::check_induction_task(count, length);
    std::vector<Result> results;
    results.push_back(make_result("ids", "int32", {count, length}, std::nullopt));
    results.push_back(make_result("targets", "int32", {count, length}, std::nullopt));
    model::induction_task_into(out_span<std::int32_t>(results[0]), out_span<std::int32_t>(results[1]), count, length,
                               seed);
    return results;
}

std::span<const std::string_view> task_words() { return model::kTaskWords; }

}  // namespace seqorder::calls
