// libFuzzer target: the trainable model (src/core/model), driven by sequences of calls.
//   A configuration (every field, names included, in and out of its range) and the model it makes; parameters as
//   initialized or set to other values; then a round of calls (forward, loss, gradients, step, attention_weights) on
//   ids and targets (mostly valid, sometimes not, sometimes of the wrong length); then up to 15 more operations, each
//   one of: another round at a new (B, T), with one allocation of each call failing (std::bad_alloc, injected by this
//   tests/native/failing_allocations.hpp's operator new); set_parameters with moderate, huge or non-finite values; a forward at a new length compared
//   with the twin's; dispose and create again; train on 1 to 4 batches, some of them broken, with or without an
//   allocation failing; and a round through the package's path (model_calls.hpp: the model made from createModel's
//   options, its memory room drawn, then forward, step and train on tensors of drawn dtypes and shapes, as a JS
//   caller hands them over), compared with a model made directly. float64 and float32.
// Invariants, after every operation:
//   - a call throws iff its inputs break a rule, with the documented type and order; the constructor throws iff a
//     rule is broken (invalid_argument) or the model's four values per parameter pass 1 GiB (length_error), as
//     computed here independently; a step may be refused (range_error) only when the parameters are not moderate;
//   - a call that throws, std::bad_alloc included, leaves the parameters, Adam's moments and step count exactly as
//     they were; and the model equals a twin that made only the calls that succeeded (its state, and its outputs at
//     every length, bit for bit): no buffer for a length is left half-made;
//   - train succeeds iff lr and every batch are valid, and then equals the twin's steps one by one, bit for bit; else
//     it fails with the first broken rule (lr, then batches[0], batches[1], ..., the message naming the batch) or a
//     refused step, and changes nothing, whichever of its steps failed;
//   - the package's path refuses what its rules refuse (a dtype, a shape, then the model's rules, in that order; a
//     memory room too small, before allocating), changing nothing, and otherwise gives the direct model's bits;
//   - the parameters and Adam's moments are always finite;
//   - on success with moderate parameters: finite logits, a finite loss >= 0 (0 with every target ignored, and then
//     zero gradients), a finite gradient for every parameter, step returning the loss before it, attention weights
//     (L, H, T, T) whose rows sum to 1 with hidden keys exactly 0, and float32's fast kernels giving the reference's
//     bits.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../tests/native/failing_allocations.hpp"
#include "calls/any_model.hpp"
#include "fuzz_input.hpp"
#include "model/model.hpp"
#include "model_calls.hpp"

namespace {

using failing_allocations::allocations_until_failure;
using namespace seqorder_fuzz;
using namespace seqorder::model;
namespace calls = seqorder::calls;

const char* const kPositionNames[] = {"none", "sinusoidal", "learned", "rotary", "absolute", "alibi", "relative"};
const char* const kReadoutNames[] = {"mean", "each", "last"};

// The parameters of a valid configuration (parameters.hpp), computed here: 12 D^2 + 9 D per layer; embed V D; learned
// positions P D; relative positions 32 H (the default buckets); final norm 2 D; readout D C + C. (For a width below
// 2^31: no overflow.)
__int128 parameter_count_of(const Config& c) {
    const __int128 D = c.width;
    return c.vocab * D + (c.positions == Positions::learned ? *c.max_length * D : 0) +
           (c.positions == Positions::relative ? 32 * c.heads : 0) + c.layers * (12 * D * D + 9 * D) + 2 * D +
           D * c.classes + c.classes;
}

// What the configuration rules say, computed from the documentation (config.hpp), not from the core's code.
Expected config_outcome(const Config& c, std::size_t element_bytes) {
    const bool learned = c.positions == Positions::learned;
    const bool valid = c.vocab >= 1 && c.vocab < (std::int64_t{1} << 31) && c.width >= 1 && c.heads >= 1 &&
                       c.width % c.heads == 0 && c.layers >= 1 && c.layers <= 4 && c.classes >= 1 &&
                       c.classes < (std::int64_t{1} << 31) && (learned ? c.max_length && *c.max_length >= 1 : !c.max_length) &&
                       (c.positions != Positions::sinusoidal || c.width % 2 == 0) &&
                       (c.positions != Positions::rotary || (c.width / c.heads) % 2 == 0);
    if (!valid) return {.invalid_argument = true};
    if (c.width >= (std::int64_t{1} << 31)) return {.length_error = true};  // 12 D^2 > 2^64 values (no overflow below)
    // four values per parameter
    return {.length_error = 4 * parameter_count_of(c) * static_cast<__int128>(element_bytes) > (__int128{1} << 30)};
}

// The activations kept for (B, T), by network.hpp's formula (for a small shape).
__int128 activations_of(const Config& c, std::int64_t batch, std::int64_t length) {
    const bool each = c.readout == Readout::each;
    const __int128 B = batch, Tn = length, N = B * Tn, D = c.width, L = c.layers, hd = D / c.heads;
    const bool bias = c.positions == Positions::alibi || c.positions == Positions::relative;
    return L * (12 * N * D + 4 * N + B * c.heads * Tn * Tn) + 14 * N * D + 2 * N +
           2 * (B * D + (each ? N : B) * c.classes) + Tn * D + 4 * D * D + D * c.classes + hd * Tn + Tn * Tn +
           (bias ? c.heads * Tn * Tn : 0) + (c.positions == Positions::relative ? B * c.heads * Tn * Tn : 0);
}

// A model's state as the bits of its parameters, moments and step count (Run's State, for a model behind AnyModel).
template <class T>
const Model<T>& model_in(const calls::AnyModel& any) {
    const Model<T>* found = nullptr;
    any.visit([&](const auto& net) {
        if constexpr (std::is_same_v<std::decay_t<decltype(net)>, Model<T>>) found = &net;
    });
    FUZZ_CHECK(found != nullptr, "the package's model has another dtype");
    return *found;
}

std::int32_t draw_value(Input& in, std::int64_t low, std::int64_t high) {  // mostly in [low, high), sometimes not
    const std::uint8_t k = in.byte();
    if (k < 232) return static_cast<std::int32_t>(low + k % (high - low));
    static constexpr std::int32_t bad[] = {INT32_MIN, -2, -1, 0, INT32_MAX};
    if (k % 2 == 0) return bad[k % 5];
    return static_cast<std::int32_t>(std::min<std::int64_t>(high + k % 3, INT32_MAX));
}

template <class T>
bool all_finite(std::span<const T> xs) {
    for (T x : xs)
        if (!std::isfinite(x)) return false;
    return true;
}

template <class T>
void check_finite(std::span<const T> xs, const std::string& what) {
    FUZZ_CHECK(all_finite(xs), what + " holds a value that is not finite");
}

// What no failing call may change: the parameters, Adam's moments and its step count, bit for bit.
template <class T>
struct State {
    std::vector<T> values, m, v;
    std::int64_t steps = 0;
    explicit State(const Model<T>& model)
        : values(model.values().begin(), model.values().end()),
          m(model.optimizer().first_moment().begin(), model.optimizer().first_moment().end()),
          v(model.optimizer().second_moment().begin(), model.optimizer().second_moment().end()),
          steps(model.steps()) {}
    bool same(const State& o) const {
        auto bits = [](const std::vector<T>& a, const std::vector<T>& b) {
            return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
        };
        return steps == o.steps && bits(values, o.values) && bits(m, o.m) && bits(v, o.v);
    }
};

// One run: the configuration, the model and its twin (which makes only the calls that succeed, and never fails).
template <class T>
struct Run {
    Input& in;
    Config c;
    std::string call;              // the configuration, for messages
    std::optional<Model<T>> model, twin;
    bool moderate = true;          // parameters small enough that every output is finite
    std::int64_t fail_at = -1;     // this round's calls each fail at this allocation (-1: none)

    Run(Input& input, const Config& config, std::string text) : in(input), c(config), call(std::move(text)) {}

    // The documented invariants of the model's state, after every operation.
    void check_state(const std::string& what) {
        const State<T> a(*model), b(*twin);
        FUZZ_CHECK(a.same(b), what + ": the model and its twin differ (" + call + ")");
        FUZZ_CHECK(all_finite<T>(a.values) && all_finite<T>(a.m) && all_finite<T>(a.v),
                   what + ": a parameter or moment is not finite (" + call + ")");
    }

    // Runs `work` (a call on *model) as the documentation says it ends: `expected`, or, when `refusable`, a refused
    // step (range_error: a loss or an update that would not be finite). When the round fails an allocation, the call
    // is first made with it failing: a bad_alloc, or any error, must leave the state as it was; a success counts as
    // the call. Returns whether the call succeeded; `error`, when given, receives the message of a failure.
    template <class F>
    bool attempt(const Expected& expected, F&& work, const std::string& what, bool refusable = false,
                 std::string* error = nullptr) {
        const State<T> before(*model);
        if (fail_at >= 0) {
            bool done = false;
            allocations_until_failure = fail_at;
            try {
                work();
                done = true;
            } catch (const std::exception&) {
            }
            allocations_until_failure = -1;
            static const bool verbose = std::getenv("SEQORDER_FUZZ_VERBOSE") != nullptr;
            if (verbose) std::fprintf(stderr, "%s -> %s\n", what.c_str(), done ? "ok" : "failed");
            if (done) {
                FUZZ_CHECK(!expected.any(), what + ": returned normally, expected" + expected.describe());
                return true;
            }
            FUZZ_CHECK(State<T>(*model).same(before), what + " failed (allocation " + std::to_string(fail_at) +
                                                           " or a rule) and changed the model");
        }
        bool refused = false;
        const Outcome outcome = expect_outcome(expected, [&] {
            try {
                work();
            } catch (const std::range_error& e) {
                FUZZ_CHECK(refusable, what + ": refused with moderate parameters and lr: " + e.what());
                refused = true;
                if (error) *error = e.what();
            }
        }, what);
        if (error && !outcome.ok) *error = outcome.error;
        if (outcome && !refused) return true;
        FUZZ_CHECK(State<T>(*model).same(before), what + " failed and changed the model");
        return false;
    }

    // The model of c and its twin, afresh.
    void create() {
        model.emplace(c);
        twin.emplace(c);
        moderate = true;
    }

    void set_parameters(int mode);
    void round();
    void compare_forward();
    void train();
    void package_round();
};

// Every parameter to other values: mode 0 moderate (what set_parameters accepts and keeps every output finite), 1
// the fuzzer's values as they come (non-finite ones refused), 2 huge but finite.
template <class T>
void Run<T>::set_parameters(int mode) {
    std::vector<T> values(model->values().size());
    in.fill<T>(values);
    bool finite = true;
    for (T& x : values) {
        if (mode == 0) x = std::isfinite(x) ? std::fmod(x, T{4}) : T{1};
        if (mode == 2) x = std::isfinite(x) ? std::fmod(x, T{4}) * static_cast<T>(1e30) : T{1};
        finite = finite && std::isfinite(x);
    }
    std::vector<ParameterUpdate<T>> updates;
    for (const auto& p : model->parameters())
        updates.push_back({p.name, p.shape, std::span<const T>(values).subspan(p.offset, p.size)});
    if (attempt({.invalid_argument = !finite}, [&] { model->set_parameters(updates); }, "set_parameters " + call)) {
        twin->set_parameters(updates);
        moderate = mode == 0;
    }
}

// A forward at a drawn (small) shape on the model and its twin: the same bits (or the same error).
template <class T>
void Run<T>::compare_forward() {
    const std::int64_t batch = 1 + in.byte() % 3, length = 1 + in.byte() % 24;
    if (c.positions == Positions::learned && length > *c.max_length) return;
    std::vector<std::int32_t> ids(static_cast<std::size_t>(batch * length));
    for (std::int32_t& id : ids) id = static_cast<std::int32_t>(in.byte() % c.vocab);
    const std::size_t rows = static_cast<std::size_t>(c.readout == Readout::each ? batch * length : batch);
    std::vector<T> a(rows * static_cast<std::size_t>(c.classes)), b(a.size());
    if (static_cast<std::int64_t>(a.size()) > kMaxElements) return;
    model->forward(a, ids, batch, length);
    twin->forward(b, ids, batch, length);
    FUZZ_CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0,
               "forward at (" + str(batch) + ", " + str(length) + ") differs from the twin's (" + call + ")");
}

// forward, loss, gradients, step and attention_weights on drawn ids and targets.
template <class T>
void Run<T>::round() {
    const std::int64_t batch = in.size(4), length = in.size(12);
    const bool each = c.readout == Readout::each;
    const std::int64_t tokens = seqorder_fuzz::saturating_product({batch, length});
    const bool shape_ok = batch >= 1 && length >= 1 && tokens <= kMaxElements;
    // ids and targets of the right lengths when the shape is small, else short spans (a length mismatch)
    std::vector<std::int32_t> ids(shape_ok ? static_cast<std::size_t>(tokens) : in.byte() % 4);
    for (std::int32_t& id : ids) id = draw_value(in, 0, c.vocab);
    const std::int64_t target_count = each ? tokens : batch;
    const bool short_targets = in.byte() % 16 == 0;
    std::vector<std::int32_t> targets(shape_ok && !short_targets ? static_cast<std::size_t>(target_count) : 1);
    const bool ignore_all = in.byte() % 8 == 0;
    for (std::int32_t& t : targets) t = ignore_all ? -1 : draw_value(in, -1, c.classes);

    bool bad_ids = false, bad_targets = false;
    for (std::int32_t id : ids) bad_ids = bad_ids || id < 0 || id >= c.vocab;
    for (std::int32_t t : targets) bad_targets = bad_targets || t < -1 || t >= c.classes;
    const bool too_long = c.positions == Positions::learned && length > *c.max_length;
    // the activations kept for (B, T), by network.hpp's formula (for a small shape), against 1 GiB; a valid call that
    // would build more than 16 kMaxWork of them is too slow to run here
    auto activations = [&](std::int64_t b) { return activations_of(c, b, length); };
    auto beyond_limit = [&](std::int64_t b) { return activations(b) * static_cast<__int128>(sizeof(T)) > (__int128{1} << 30); };
    const bool too_big = shape_ok && beyond_limit(batch);
    if (shape_ok && !too_big && !too_long && activations(batch) > 16 * kMaxWork) return;
    const bool targets_ok = targets.size() == static_cast<std::size_t>(target_count);
    // the documented order: shapes and lengths, maxLength, memory, ids, targets
    auto outcome = [&](bool with_targets, bool output_ok) -> Expected {
        if (!shape_ok || !output_ok || (with_targets && !targets_ok)) return {.invalid_argument = true};
        if (too_long) return {.out_of_range = true};
        if (too_big) return {.length_error = true};
        if (bad_ids || (with_targets && bad_targets)) return {.out_of_range = true};
        return {};
    };
    const std::string inputs = call + " on ids (" + std::to_string(batch) + ", " + std::to_string(length) + ")" +
                               (fail_at >= 0 ? ", allocation " + std::to_string(fail_at) + " failing" : "");
    const auto C = static_cast<std::size_t>(c.classes);

    std::vector<T> logits(shape_ok ? static_cast<std::size_t>(each ? tokens : batch) * C : 0);
    if (attempt(outcome(false, true), [&] { model->forward(logits, ids, batch, length); }, "forward " + inputs) &&
        moderate) {
        check_finite<T>(logits, "forward " + inputs);
        if constexpr (sizeof(T) == 4) {  // the fast kernels against the reference
            std::vector<T> reference(logits.size());
            model->set_kernels(Kernels::reference);
            model->forward(reference, ids, batch, length);
            model->set_kernels(Kernels::fast);
            for (std::size_t i = 0; i < logits.size(); ++i)
                FUZZ_CHECK(same_value(logits[i], reference[i]), "forward " + inputs + ": fast and reference differ");
        }
    }
    double loss = -1;
    if (attempt(outcome(true, true), [&] { loss = model->loss(ids, targets, batch, length); }, "loss " + inputs) &&
        moderate) {
        FUZZ_CHECK(std::isfinite(loss) && loss >= 0, "loss " + inputs + " = " + str(loss));
        bool counted = false;
        for (std::int32_t t : targets) counted = counted || t != -1;
        if (!counted) FUZZ_CHECK(loss == 0, "loss " + inputs + " with every target ignored = " + str(loss));
    }
    std::vector<T> gradients(model->values().size() + (in.byte() % 32 == 0 ? 1 : 0));
    double gradient_loss = -1;
    if (attempt(outcome(true, gradients.size() == model->values().size()),
                [&] { gradient_loss = model->gradients(gradients, ids, targets, batch, length); },
                "gradients " + inputs) &&
        moderate) {
        FUZZ_CHECK(gradient_loss == loss, "gradients " + inputs + ": loss " + str(gradient_loss) + " vs " + str(loss));
        check_finite<T>(gradients, "gradients " + inputs);
        if (ignore_all)
            for (T g : gradients) FUZZ_CHECK(g == T{0}, "gradients " + inputs + ": nonzero with every target ignored");
    }
    static constexpr double rates[] = {1e-3, 0.0, 0.1, -1.0, NAN, 1e39, 1e308};
    const double lr = rates[in.byte() % 7];
    Expected step_expected = outcome(true, true);
    if (!(lr >= 0) || (sizeof(T) == 4 && lr > 3.4028234663852886e38)) step_expected = {.invalid_argument = true};
    double step_loss = -1;
    // a refused step: only with parameters that are not moderate, or an lr of 1e308 (float64: an update of about 3e308)
    if (attempt(step_expected, [&] { step_loss = model->step(ids, targets, batch, length, lr); }, "step " + inputs,
                !moderate || lr > 1)) {
        FUZZ_CHECK(std::isfinite(step_loss), "step " + inputs + " returned a loss that is not finite");
        if (moderate && fail_at < 0)
            FUZZ_CHECK(step_loss == loss, "step " + inputs + ": returned " + str(step_loss) + ", the loss was " + str(loss));
        const double twin_loss = twin->step(ids, targets, batch, length, lr);
        FUZZ_CHECK(std::memcmp(&twin_loss, &step_loss, sizeof(double)) == 0, "step " + inputs + ": the twin's loss differs");
        if (lr > 0.2) moderate = false;  // lr 1e308 in float64: parameters of about 1e308
    }
    check_state("step " + inputs);
    // attention weights of the first sequence
    if (!shape_ok || seqorder_fuzz::saturating_product({c.layers, c.heads, length, length}) > kMaxWork) return;
    const auto L = static_cast<std::size_t>(c.layers), H = static_cast<std::size_t>(c.heads),
               Tn = static_cast<std::size_t>(length);
    std::vector<T> weights(L * H * Tn * Tn);
    const std::span<const std::int32_t> first = std::span<const std::int32_t>(ids).first(Tn);
    bool first_bad = false;
    for (std::int32_t id : first) first_bad = first_bad || id < 0 || id >= c.vocab;
    const bool one_too_big = beyond_limit(1);
    if (!one_too_big && !too_long && activations(1) > 16 * kMaxWork) return;
    const Expected weights_expected = too_long      ? Expected{.out_of_range = true}
                                      : one_too_big ? Expected{.length_error = true}
                                                    : Expected{.out_of_range = first_bad};
    if (!attempt(weights_expected, [&] { model->attention_weights(weights, first, length); },
                 "attention_weights " + inputs) ||
        !moderate)
        return;
    for (std::size_t row = 0; row < L * H * Tn; ++row) {
        const std::size_t i = row % Tn;
        double sum = 0;
        for (std::size_t j = 0; j < Tn; ++j) {
            const T w = weights[row * Tn + j];
            if (c.causal && j > i) FUZZ_CHECK(w == T{0}, "attention_weights " + inputs + ": a hidden key's weight");
            sum += static_cast<double>(w);
        }
        FUZZ_CHECK(std::abs(sum - 1) < 1e-4, "attention_weights " + inputs + ": a row sums to " + str(sum));
    }
}

// Ids and targets a batch of train holds (or the package's path is given): (batch, length) drawn small, mostly valid;
// sometimes one rule broken (`broken` says which exception it is due, in check_call's order).
struct DrawnBatch {
    std::int64_t batch = 0, length = 0;
    std::vector<std::int32_t> ids, targets;
    Expected broken;
};

DrawnBatch draw_batch(Input& in, const Config& c) {
    DrawnBatch d;
    d.batch = 1 + in.byte() % 3;
    d.length = 1 + in.byte() % 10;
    if (c.positions == Positions::learned) d.length = std::min(d.length, *c.max_length);
    const std::uint8_t defect = in.byte();
    if (defect >= 248) d.batch = 0;                                                   // B < 1
    if (defect >= 240 && defect < 248 && c.positions == Positions::learned) d.length = *c.max_length + 1;
    const bool each = c.readout == Readout::each;
    d.ids.resize(static_cast<std::size_t>(d.batch * d.length));
    for (std::int32_t& id : d.ids) id = static_cast<std::int32_t>(in.byte() % c.vocab);
    d.targets.resize(static_cast<std::size_t>(each ? d.batch * d.length : d.batch));
    for (std::int32_t& t : d.targets) t = static_cast<std::int32_t>(in.byte() % (c.classes + 1)) - 1;
    if (defect >= 200 && defect < 216 && !d.ids.empty())
        d.ids[in.byte() % d.ids.size()] = draw_value(in, c.vocab, c.vocab + 1);
    if (defect >= 216 && defect < 224 && !d.ids.empty()) d.ids[in.byte() % d.ids.size()] = -1;
    if (defect >= 224 && defect < 232 && !d.targets.empty())
        d.targets[in.byte() % d.targets.size()] = in.flag() ? -2 : static_cast<std::int32_t>(c.classes);
    const bool short_span = defect >= 232 && defect < 240 && !d.ids.empty();
    if (short_span) d.ids.pop_back();
    // the documented order: B, T and the spans' lengths; maxLength; ids; targets
    bool bad_ids = false, bad_targets = false;
    for (std::int32_t id : d.ids) bad_ids = bad_ids || id < 0 || id >= c.vocab;
    for (std::int32_t t : d.targets) bad_targets = bad_targets || t < -1 || t >= c.classes;
    if (d.batch < 1 || short_span) d.broken = {.invalid_argument = true};
    else if (c.positions == Positions::learned && d.length > *c.max_length) d.broken = {.out_of_range = true};
    else if (bad_ids || bad_targets) d.broken = {.out_of_range = true};
    return d;
}

// train on 1 to 4 drawn batches, lr drawn, with an allocation failing when the round says so.
template <class T>
void Run<T>::train() {
    const std::size_t n = 1 + in.byte() % 4;
    std::vector<DrawnBatch> drawn;
    for (std::size_t i = 0; i < n; ++i) drawn.push_back(draw_batch(in, c));
    static constexpr double rates[] = {1e-3, 0.1, 0.0, -1.0, NAN, 1e38, 1e307};
    const double lr = rates[in.byte() % 7];
    const bool lr_ok = lr >= 0 && !(sizeof(T) == 4 && lr > 3.4028234663852886e38);
    for (const DrawnBatch& d : drawn)  // a call too large to run here is out of scope
        if (activations_of(c, 3, d.length + 1) > 16 * kMaxWork) return;
    std::vector<TrainBatch> batches;
    for (const DrawnBatch& d : drawn) batches.push_back({d.ids, d.targets, d.batch, d.length, {}});
    Expected expected;
    std::optional<std::size_t> first_broken;
    if (!lr_ok) {
        expected = {.invalid_argument = true};
    } else {
        for (std::size_t i = 0; i < n && !first_broken; ++i)
            if (drawn[i].broken.any()) first_broken = i;
        if (first_broken) expected = drawn[*first_broken].broken;
    }
    const std::string what = "train on " + std::to_string(n) + " batches, lr " + str(lr) + " " + call +
                             (fail_at >= 0 ? ", allocation " + std::to_string(fail_at) + " failing" : "");
    std::vector<double> losses(n);
    std::string error;
    if (attempt(expected, [&] { model->train(losses, batches, lr); }, what, !moderate || lr > 1, &error)) {
        for (std::size_t i = 0; i < n; ++i) {
            const double twin_loss = twin->step(drawn[i].ids, drawn[i].targets, drawn[i].batch, drawn[i].length, lr);
            FUZZ_CHECK(std::memcmp(&twin_loss, &losses[i], sizeof(double)) == 0,
                       what + ": loss " + std::to_string(i) + " " + str(losses[i]) + ", the twin's step gave " +
                           str(twin_loss));
            FUZZ_CHECK(std::isfinite(losses[i]), what + ": a loss that is not finite");
        }
        if (lr > 0.2) moderate = false;
    } else if (!error.empty()) {
        // the message names what broke: lr, or the batch (first_broken, or for a refused step any batch)
        if (!lr_ok) FUZZ_CHECK(error.rfind("lr must be", 0) == 0, what + ": '" + error + "'");
        else if (first_broken)
            FUZZ_CHECK(error.rfind("batches[" + std::to_string(*first_broken) + "]: ", 0) == 0,
                       what + ": '" + error + "'");
        else FUZZ_CHECK(error.rfind("batches[", 0) == 0, what + ": '" + error + "'");
    }
    check_state(what);
}

// A TensorArg of drawn ids or targets, as a JS caller may hand them over: its dtype and shape sometimes wrong.
calls::TensorArg drawn_tensor(Input& in, const std::vector<std::int32_t>& values, std::vector<std::int64_t> dims) {
    return tensor_arg<std::int32_t>(values, in.dtype("int32", "float32"), in.shape(dims));
}

// The int32 values of a tensor argument the package hands over (its dtype read as int32).
std::span<const std::int32_t> values_of(const calls::TensorArg& t) {
    return {static_cast<const std::int32_t*>(t.address), static_cast<std::size_t>(t.count)};
}

// What the package's path must do with ids and targets (null for forward), its rules restated (calls.hpp,
// model_calls.hpp) in their order: the ids' dtype and shape (whole entries whose product is the count, rank 2); the
// targets' dtype and shape (the readout's); then the model's: B, T >= 1, maxLength, every id, every target.
Expected package_outcome(const Config& c, const calls::TensorArg& ids, const calls::TensorArg* targets) {
    const auto id_sizes = sizes_of(ids);
    if (ids.dtype != "int32" || !id_sizes || id_sizes->size() != 2) return {.invalid_argument = true};
    if (targets) {
        const auto target_sizes = sizes_of(*targets);
        const bool each = c.readout == Readout::each;
        const std::vector<std::int64_t> want = each ? *id_sizes : std::vector<std::int64_t>{(*id_sizes)[0]};
        if (targets->dtype != "int32" || !target_sizes || *target_sizes != want) return {.invalid_argument = true};
    }
    const std::int64_t batch = (*id_sizes)[0], length = (*id_sizes)[1];
    if (batch < 1 || length < 1) return {.invalid_argument = true};
    if (c.positions == Positions::learned && length > *c.max_length) return {.out_of_range = true};
    for (std::int32_t id : values_of(ids))
        if (id < 0 || id >= c.vocab) return {.out_of_range = true};
    if (targets)
        for (std::int32_t t : values_of(*targets))
            if (t < -1 || t >= c.classes) return {.out_of_range = true};
    return {};
}

// The package's path (model_calls.hpp): the model made from createModel's options with a drawn memory room, then
// forward, step and train on tensors of drawn dtypes and shapes, each compared with a model made directly (`mirror`),
// which makes the calls that succeed.
template <class T>
void Run<T>::package_round() {
    Config mc = c;
    mc.seed = c.seed & ((std::uint64_t{1} << 53) - 1);  // what a JS caller can give exactly
    calls::ModelArgs args;
    args.vocab = static_cast<double>(c.vocab);
    args.width = static_cast<double>(c.width);
    args.classes = static_cast<double>(c.classes);
    args.heads = static_cast<double>(c.heads);
    args.layers = static_cast<double>(c.layers);
    args.positions = std::string(name_of(c.positions));
    if (c.max_length) args.max_length = static_cast<double>(*c.max_length);
    args.causal = c.causal;
    args.readout = std::string(name_of(c.readout));
    args.dtype = dtype_name<T>();
    args.seed = static_cast<double>(mc.seed);
    // the room: none (no limit), plenty, or a drawn few bytes (then any call may be refused for memory)
    const std::uint8_t room_kind = in.byte() % 4;
    const std::int64_t room_bytes = room_kind == 3 ? static_cast<std::int64_t>(in.bits(3)) : std::int64_t{1} << 40;
    calls::MemoryRoom room;
    if (room_kind >= 2) room = [room_bytes] { return room_bytes; };
    const bool tight = room_kind == 3;
    const auto state_bytes = static_cast<std::int64_t>(4 * parameter_count_of(c) * static_cast<__int128>(sizeof(T)));
    std::optional<calls::AnyModel> any;
    const std::string what = "the package's " + call + (tight ? ", room " + std::to_string(room_bytes) : "");
    if (!expect_outcome({.length_error = tight && state_bytes > room_bytes}, [&] { any.emplace(args, room); }, what))
        return;
    Model<T> mirror(mc);
    auto same_state = [&](const std::string& after) {
        FUZZ_CHECK(State<T>(model_in<T>(*any)).same(State<T>(mirror)),
                   what + ": differs from the direct model after " + after);
    };
    same_state("creation");
    // a call that may be refused only for memory when the room is tight: either outcome, nothing changed by a refusal
    auto run_call = [&](const Expected& expected, auto&& work, const std::string& name) -> bool {
        if (!tight || expected.any()) return static_cast<bool>(expect_outcome(expected, work, what + ": " + name));
        static const bool verbose = std::getenv("SEQORDER_FUZZ_VERBOSE") != nullptr;
        try {
            work();
            if (verbose) std::fprintf(stderr, "%s: %s -> ok\n", what.c_str(), name.c_str());
            return true;
        } catch (const std::length_error& e) {
            if (verbose) std::fprintf(stderr, "%s: %s -> length_error: %s\n", what.c_str(), name.c_str(), e.what());
            FUZZ_CHECK(std::string(e.what()).find("more memory") != std::string::npos,
                       what + ": " + name + ": '" + e.what() + "'");
            same_state(name + " refused for memory");
            return false;
        }
    };
    const int calls_made = 1 + in.byte() % 4;
    for (int k = 0; k < calls_made; ++k) {
        const std::uint8_t kind = in.byte() % 3;
        if (kind == 2) {  // train
            const std::size_t n = in.byte() % 4;
            std::vector<DrawnBatch> drawn;
            std::vector<calls::ModelBatch> batches;
            for (std::size_t i = 0; i < n; ++i) {
                drawn.push_back(draw_batch(in, c));
                const DrawnBatch& d = drawn.back();
                const bool each = c.readout == Readout::each;
                batches.push_back({drawn_tensor(in, d.ids, {d.batch, d.length}),
                                   drawn_tensor(in, d.targets, each ? std::vector<std::int64_t>{d.batch, d.length}
                                                                     : std::vector<std::int64_t>{d.batch}),
                                   std::nullopt});
            }
            static constexpr double rates[] = {1e-3, 0.05, -1.0, NAN};
            const std::uint8_t r = in.byte() % 5;
            const std::optional<double> lr = r == 4 ? std::nullopt : std::optional<double>(rates[r]);
            Expected expected;
            std::optional<std::size_t> first_broken;
            if (lr && !(*lr >= 0)) expected = {.invalid_argument = true};
            for (std::size_t i = 0; i < n && !expected.any(); ++i)
                if ((expected = package_outcome(c, batches[i].ids, &*batches[i].targets)).any()) first_broken = i;
            std::vector<calls::Result> results;
            std::string error;
            const bool ok = run_call(expected, [&] {
                try {
                    results = calls::model_train(*any, batches, {.lr = lr});
                } catch (const std::exception& e) {
                    error = e.what();
                    throw;
                }
            }, "train");
            if (first_broken)
                FUZZ_CHECK(error.rfind("batches[" + std::to_string(*first_broken) + "]: ", 0) == 0,
                           what + ": train: '" + error + "'");
            if (!ok) {
                same_state("a failed train");
                continue;
            }
            const std::int64_t count = static_cast<std::int64_t>(n);
            const auto losses =
                result_values<double>(results[0], std::span<const std::int64_t>(&count, 1), what + ": train");
            for (std::size_t i = 0; i < n; ++i) {
                const auto sizes = *sizes_of(batches[i].ids);
                const double loss = mirror.step(values_of(batches[i].ids), values_of(*batches[i].targets), sizes[0],
                                                sizes[1], lr.value_or(1e-3));
                FUZZ_CHECK(std::memcmp(&loss, &losses[i], sizeof loss) == 0,
                           what + ": train's loss " + std::to_string(i) + " differs from the direct model's step");
            }
            same_state("train");
            continue;
        }
        const DrawnBatch d = draw_batch(in, c);
        const bool each = c.readout == Readout::each;
        const calls::TensorArg ids = drawn_tensor(in, d.ids, {d.batch, d.length});
        const calls::TensorArg targets = drawn_tensor(in, d.targets, each ? std::vector<std::int64_t>{d.batch, d.length}
                                                                           : std::vector<std::int64_t>{d.batch});
        calls::ModelInput input{{ids, targets, std::nullopt}, {}};
        if (kind == 0) {  // forward: the targets play no part
            input.batch.targets.reset();
            std::vector<calls::Result> results;
            const auto forward = [&] { results = calls::model_forward(*any, input); };
            if (!run_call(package_outcome(c, ids, nullptr), forward, "forward")) {
                same_state("a failed forward");
                continue;
            }
            const auto sizes = *sizes_of(ids);
            const seqorder::Shape shape = mirror.logits_shape(sizes[0], sizes[1]);
            const std::vector<std::int64_t> dims(shape.begin(), shape.end());
            std::vector<T> logits(static_cast<std::size_t>(saturating_product(dims)));
            mirror.forward(logits, values_of(ids), sizes[0], sizes[1]);
            check_same_bits<T>(result_values<T>(results[0], dims, what + ": forward"), logits, what + ": forward");
            continue;
        }
        // step
        static constexpr double rates[] = {1e-3, 0.05, -1.0, NAN};
        const std::uint8_t r = in.byte() % 5;
        input.options.lr = r == 4 ? std::nullopt : std::optional<double>(rates[r]);
        const Expected broken = package_outcome(c, ids, &targets);
        // lr is checked after the tensors' dtypes and shapes, before the model's rules
        Expected expected = broken;
        if (input.options.lr && !(*input.options.lr >= 0) && !broken.invalid_argument) expected = {.invalid_argument = true};
        std::vector<calls::Result> results;
        if (!run_call(expected, [&] { results = calls::model_step(*any, input); }, "step")) {
            same_state("a failed step");
            continue;
        }
        const auto sizes = *sizes_of(ids);
        const double loss =
            mirror.step(values_of(ids), values_of(targets), sizes[0], sizes[1], input.options.lr.value_or(1e-3));
        const auto got = result_values<double>(results[0], {}, what + ": step");
        FUZZ_CHECK(std::memcmp(&loss, got.data(), sizeof loss) == 0,
                   what + ": step's loss differs from the direct model's");
        same_state("step");
    }
}

template <class T>
void run(Input& in) {
    Config c;
    c.vocab = in.size(24);
    c.width = in.size(16);
    c.heads = in.size(5);
    c.layers = in.size(5);
    const char* positions = kPositionNames[in.byte() % 7];
    if (in.flag()) c.max_length = in.size(20);
    c.causal = in.flag();
    const char* readout = kReadoutNames[in.byte() % 3];
    c.classes = in.size(5);
    c.seed = in.bits(8);
    const std::string call = std::string("Model<") + (sizeof(T) == 4 ? "float" : "double") + ">(vocab " +
                             std::to_string(c.vocab) + ", width " + std::to_string(c.width) + ", heads " +
                             std::to_string(c.heads) + ", layers " + std::to_string(c.layers) + ", positions " +
                             positions + ", maxLength " + (c.max_length ? std::to_string(*c.max_length) : "unset") +
                             (c.causal ? ", causal" : "") + ", readout " + readout + ", classes " +
                             std::to_string(c.classes) + ")";
    const bool names_ok = std::string(positions) != "absolute" && std::string(readout) != "last";
    if (!expect_outcome({.invalid_argument = !names_ok},
                        [&] {
                            c.positions = positions_from_name(positions);
                            c.readout = readout_from_name(readout);
                        },
                        call + " names"))
        return;
    const Expected config_expected = config_outcome(c, sizeof(T));
    // A valid model too big to build quickly is out of scope (its checks run through the invalid ones).
    if (!config_expected.any() && c.vocab * c.width + c.layers * 12 * c.width * c.width +
                                          c.max_length.value_or(0) * c.width + c.width * c.classes >
                                      kMaxElements)
        return;
    Run<T> r(in, c, call);
    if (!expect_outcome(config_expected, [&] { r.create(); }, call)) return;

    if (in.flag()) r.set_parameters(0);
    r.round();
    // then a sequence of operations, each followed by the state's invariants
    const int operations = in.byte() % 16;
    for (int op = 0; op < operations; ++op) {
        const std::uint8_t kind = in.byte();
        std::string what;
        switch (kind % 7) {
            case 0:  // another round, each call first made with one allocation failing
                r.fail_at = in.byte() % 48;
                r.round();
                r.fail_at = -1;
                what = "a round with allocation failures";
                break;
            case 1:
                r.set_parameters(in.byte() % 3);
                what = "set_parameters";
                break;
            case 2:
                r.compare_forward();
                what = "forward at a new length";
                break;
            case 3:  // dispose, and create again
                r.model.reset();
                r.twin.reset();
                r.create();
                what = "dispose and create";
                break;
            case 5:  // train, sometimes with one allocation failing
                r.fail_at = in.flag() ? in.byte() % 64 : -1;
                r.train();
                r.fail_at = -1;
                what = "train";
                break;
            case 6:
                r.package_round();
                what = "the package's path";
                break;
            default:
                r.round();
                what = "a round";
        }
        r.check_state(what + " (operation " + std::to_string(op) + ")");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
