// A model's state is transactional: a call that fails, for any reason (a rule broken, a step refused, an allocation
// failing at any point of the call), leaves the parameters, Adam's moments and step count, and both position streams,
// exactly as they were, and
// the model then behaves bit for bit like a twin that never saw the failing call. Also: what a model keeps between
// calls, and the rules that keep its parameters and moments finite.
//
// Allocation failures are injected by failing_allocations.hpp's operator new: armed with k, it lets k allocations
// succeed and makes the next one throw std::bad_alloc (once). Every call is tried with k = 0, 1, 2, ... until it
// succeeds, so each of its allocations fails once.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "failing_allocations.hpp"
#include "model/adam.hpp"
#include "model/network.hpp"
#include "model_testing.hpp"

namespace {

using failing_allocations::allocations_until_failure;
using namespace model_testing;
using seqorder::model::Adam;
using seqorder::model::kKeptActivationBytes;
using seqorder::model::TrainBatch;

// The same values, bit for bit (a value compare would take -0 for +0 and never find a NaN equal).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Everything a call may not change: the parameters, Adam's moments, its step count and the position streams, compared
// bit for bit.
template <class T>
struct State {
    std::vector<T> values, m, v;
    std::int64_t steps = 0;
    std::array<std::uint64_t, 2> streams{};
    explicit State(AnyModel& any) : State(testing::net<T>(any)) {}
    explicit State(const Model<T>& model)
        : values(model.values().begin(), model.values().end()),
          m(model.optimizer().first_moment().begin(), model.optimizer().first_moment().end()),
          v(model.optimizer().second_moment().begin(), model.optimizer().second_moment().end()),
          steps(model.steps()),
          streams(model.position_streams()) {}
    bool operator==(const State& o) const {
        return steps == o.steps && streams == o.streams && same_bits(values, o.values) && same_bits(m, o.m) &&
               same_bits(v, o.v);
    }
};

// What a call returns, as doubles (logits, a loss, gradients or weights) written to `out`, whose capacity the caller
// has reserved: the harness allocates nothing once the model's call has returned (a step has then changed the model,
// and a failure there would be the harness's, not the call's). forward, loss, gradients and step are the package's
// calls (calling.hpp); attention_weights, train and set_parameters the model's own.
using Call = void (*)(AnyModel&, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets,
                      std::vector<double>& out);

template <class T>
void forward(AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>&, std::vector<double>& out) {
    const Tensor<T> logits = testing::model_forward<T>(m, ids);
    out.assign(logits.data().begin(), logits.data().end());
}
template <class T>
void loss(AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets, std::vector<double>& out) {
    out.assign(1, testing::model_loss(m, ids, targets));
}
template <class T>
void gradients(AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets,
               std::vector<double>& out) {
    const auto g = testing::model_gradients<T>(m, ids, targets);
    out.assign(g.values.begin(), g.values.end());
    out.push_back(g.loss);
}
template <class T>
void step(AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets, std::vector<double>& out) {
    out.assign(1, testing::model_step(m, ids, targets, 3e-3));
}
template <class T>
void weights(AnyModel& any, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>&, std::vector<double>& out) {
    Model<T>& m = testing::net<T>(any);
    const std::span<const std::int32_t> first = ids.data().first(ids.dim(1));
    std::vector<T> w(static_cast<std::size_t>(m.config().layers * m.config().heads) * ids.dim(1) * ids.dim(1));
    m.attention_weights(w, first, static_cast<std::int64_t>(ids.dim(1)));
    out.assign(w.begin(), w.end());
}
// train on three batches: the call's, its first sentence alone (another shape: the second step sizes the activations
// anew), the call's again.
template <class T>
void train(AnyModel& any, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets,
           std::vector<double>& out) {
    Model<T>& m = testing::net<T>(any);
    const auto B = static_cast<std::int64_t>(ids.dim(0)), L = static_cast<std::int64_t>(ids.dim(1));
    const std::size_t per_row = m.config().readout == Readout::each ? ids.dim(1) : 1;
    const std::vector<TrainBatch> batches{{ids.data(), targets.data(), B, L, {}},
                                          {ids.data().first(ids.dim(1)), targets.data().first(per_row), 1, L, {}},
                                          {ids.data(), targets.data(), B, L, {}}};
    double losses[3];
    m.train(losses, batches, 3e-3);
    out.assign(losses, losses + 3);
}
// forward, step and train with positionRange 9: rows drawn from the evaluation and the training stream (forward: the
// model's own, its logits allocated before the call, since the call changes the evaluation stream)
const testing::Stretch kRange = testing::with_range(9.0);
template <class T>
void forward_range(AnyModel& any, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>&,
                   std::vector<double>& out) {
    Model<T>& m = testing::net<T>(any);
    const auto B = static_cast<std::int64_t>(ids.dim(0)), L = static_cast<std::int64_t>(ids.dim(1));
    std::size_t count = 1;
    for (const std::size_t d : m.logits_shape(B, L)) count *= d;
    std::vector<T> logits(count);
    m.forward(logits, ids.data(), B, L, {{}, std::nullopt, kRange.position_range});
    out.assign(logits.begin(), logits.end());
}
template <class T>
void step_range(AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets,
                std::vector<double>& out) {
    out.assign(1, testing::model_step(m, ids, targets, 3e-3, nullptr, kRange));
}
template <class T>
void train_range(AnyModel& any, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets,
                 std::vector<double>& out) {
    Model<T>& m = testing::net<T>(any);
    const auto B = static_cast<std::int64_t>(ids.dim(0)), L = static_cast<std::int64_t>(ids.dim(1));
    const seqorder::model::CallPositions drawn{{}, std::nullopt, kRange.position_range};
    const std::vector<TrainBatch> batches{{ids.data(), targets.data(), B, L, drawn},
                                          {ids.data(), targets.data(), B, L, drawn}};
    double losses[2];
    m.train(losses, batches, 3e-3);
    out.assign(losses, losses + 2);
}
template <class T>
void set_embed(AnyModel& any, const Tensor<std::int32_t>&, const Tensor<std::int32_t>&, std::vector<double>& out) {
    Model<T>& m = testing::net<T>(any);
    const auto& p = m.parameter("embed");
    std::vector<T> values(m.values(p).begin(), m.values(p).end());
    for (T& x : values) x = x * T(0.5) + T(0.25);
    const std::vector<ParameterUpdate<T>> updates{{"embed", p.shape, values}};
    m.set_parameters(updates);
    out.clear();
}

std::vector<double> run(Call call, AnyModel& m, const Tensor<std::int32_t>& ids, const Tensor<std::int32_t>& targets) {
    std::vector<double> out;
    out.reserve(1 << 16);
    call(m, ids, targets, out);
    return out;
}

// Runs `call` on `model` with allocation k failing, for k = 0, 1, ... until it succeeds: after each failure the state
// is unchanged and the model gives what its twin gives at that shape. Then the twin makes the call too.
template <class T>
void fail_at_every_allocation(AnyModel& model, AnyModel& twin, Call call, const Tensor<std::int32_t>& ids,
                              const Tensor<std::int32_t>& targets, const std::string& what) {
    INFO(what << " on ids (" << ids.dim(0) << ", " << ids.dim(1) << ")");
    std::int64_t failures = 0;
    for (std::int64_t k = 0;; ++k) {
        const State<T> before(model);
        std::vector<double> result;
        result.reserve(1 << 16);
        bool failed = false;
        allocations_until_failure = k;
        try {
            call(model, ids, targets, result);
        } catch (const std::bad_alloc&) {
            failed = true;
        }
        allocations_until_failure = -1;
        if (!failed) {
            REQUIRE(same_bits(result, run(call, twin, ids, targets)));
            REQUIRE(State<T>(model) == State<T>(twin));
            break;
        }
        ++failures;
        INFO("allocation " << k << " failed");
        REQUIRE(State<T>(model) == before);
        REQUIRE(same_bits(run(forward<T>, model, ids, targets), run(forward<T>, twin, ids, targets)));
    }
    CHECK(failures > 0);
}

template <class T>
void every_call_fails_cleanly(const Config& c) {
    INFO(describe(c) << (sizeof(T) == 4 ? ", float32" : ", float64"));
    AnyModel model = testing::make_model<T>(c), twin = testing::make_model<T>(c);
    // Adam's state not trivial, the activations (and any sinusoid table) sized for T = 4
    for (std::uint32_t k = 0; k < 3; ++k) {
        const auto ids = random_ids(2, 4, c.vocab, k);
        const auto targets = random_targets(c, 2, 4, k + 10);
        testing::model_step(model, ids, targets, 1e-2);
        testing::model_step(twin, ids, targets, 1e-2);
    }
    REQUIRE(State<T>(model) == State<T>(twin));
    std::vector<std::pair<Call, const char*>> calls = {
        {forward<T>, "forward"},     {loss<T>, "loss"},           {gradients<T>, "gradients"},
        {step<T>, "step"},           {weights<T>, "attention_weights"}, {set_embed<T>, "set_parameters"},
        {train<T>, "train"}};
    if (c.positions != Positions::none)
        calls.insert(calls.end(), {{forward_range<T>, "forward with positionRange 9"},
                                   {step_range<T>, "step with positionRange 9"},
                                   {train_range<T>, "train with positionRange 9"}});
    std::uint32_t seed = 100;
    for (const auto& [call, name] : calls)
        for (std::size_t length : {std::size_t{9}, std::size_t{3}, std::size_t{7}}) {  // new lengths, longer and shorter
            const auto ids = random_ids(3, length, c.vocab, seed++);
            const auto targets = random_targets(c, 3, length, seed++);
            fail_at_every_allocation<T>(model, twin, call, ids, targets, name);
        }
    // and afterwards the two train alike
    for (std::uint32_t k = 0; k < 3; ++k) {
        const auto ids = random_ids(2, 5 + k, c.vocab, 200 + k);
        const auto targets = random_targets(c, 2, 5 + k, 210 + k);
        REQUIRE(testing::model_step(model, ids, targets, 1e-2) == testing::model_step(twin, ids, targets, 1e-2));
    }
    REQUIRE(State<T>(model) == State<T>(twin));
}

TEST_CASE("model state: a call that runs out of memory at any allocation changes nothing", "[model][state]") {
    every_call_fails_cleanly<float>(make_config(11, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2));
    every_call_fails_cleanly<double>(make_config(11, 8, 2, 2, Positions::learned, true, Readout::each, 3));
    every_call_fails_cleanly<float>(make_config(11, 8, 2, 1, Positions::rotary, true, Readout::each, 3));
    every_call_fails_cleanly<float>(make_config(11, 4, 1, 1, Positions::none, false, Readout::mean, 5));
}

TEST_CASE("model state: the sinusoid table is right at a length whose preparation failed", "[model][state]") {
    // a model that has run at T = 4 fails (each allocation in turn) at T = 64, then runs at T = 64 as a fresh one does
    const Config c = make_config(16, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2);
    for (std::int64_t k = 0;; ++k) {
        AnyModel model = testing::make_model<float>(c);
        testing::model_forward<float>(model, random_ids(1, 4, 16, 1));
        const auto long_ids = random_ids(8, 64, 16, 2);
        allocations_until_failure = k;
        bool failed = false;
        try {
            testing::model_forward<float>(model, long_ids);
        } catch (const std::bad_alloc&) {
            failed = true;
        }
        allocations_until_failure = -1;
        AnyModel copy = testing::make_model<float>(c);
        const auto ids = random_ids(1, 64, 16, 3);
        REQUIRE(same_bits(run(forward<float>, model, ids, ids), run(forward<float>, copy, ids, ids)));
        if (!failed) break;
    }
}

TEST_CASE("model state: refused calls of every kind change nothing", "[model][state]") {
    const Config c = make_config(16, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2);
    AnyModel model_any = testing::make_model<float>(c), twin_any = testing::make_model<float>(c);
    Model<float>& model = testing::net<float>(model_any);
    Model<float>& twin = testing::net<float>(twin_any);
    const auto ids = random_ids(2, 6, 16, 1);
    const Tensor<std::int32_t> targets(Shape{2}, std::vector<std::int32_t>{0, 0});
    testing::model_step(model_any, ids, targets, 1e-2);
    testing::model_step(twin_any, ids, targets, 1e-2);
    const State<float> before(model);
    auto unchanged = [&] {
        REQUIRE(State<float>(model) == before);
        REQUIRE(same_bits(run(forward<float>, model_any, ids, targets), run(forward<float>, twin_any, ids, targets)));
    };
    auto bad_ids = ids;
    bad_ids(1, 5) = 16;
    CHECK_THROWS_AS(testing::model_step(model_any, bad_ids, targets, 1e-2), std::out_of_range);
    unchanged();
    CHECK_THROWS_AS(
        testing::model_step(model_any, ids, Tensor<std::int32_t>(Shape{2}, std::vector<std::int32_t>{0, 7}), 1e-2),
        std::out_of_range);
    unchanged();
    CHECK_THROWS_AS(testing::model_step(model_any, ids, targets, -1), std::invalid_argument);
    unchanged();
    // lr past float32's range: refused before anything runs
    CHECK_THROWS_MATCHES(testing::model_step(model_any, ids, targets, 1e308), std::invalid_argument,
                         Says("lr must be at most 3.4028234663852886e+38 (the largest finite float32, the model's "
                              "dtype), got 1e+308"));
    unchanged();
    // a step whose new values would not be finite: readout.bias near float32's largest value, and an lr that pushes
    // the target class's bias past it (its gradient is negative)
    const auto& bias = model.parameter("readout.bias");
    const std::vector<float> huge(2, 1e38f);
    const std::vector<ParameterUpdate<float>> to_huge{{"readout.bias", bias.shape, huge}};
    model.set_parameters(to_huge);
    twin.set_parameters(to_huge);
    const State<float> huge_bias(model);
    CHECK_THROWS_MATCHES(testing::model_step(model_any, ids, targets, 3e38), std::range_error,
                         Says("lr 3e+38 is refused here: the step would make parameter 'readout.bias' [0] or its Adam "
                              "moments not finite (the model is unchanged)"));
    REQUIRE(State<float>(model) == huge_bias);
    // a loss that is not finite: a final LayerNorm gain that overflows the logits
    const auto& gain = model.parameter("norm.gain");
    const std::vector<float> overflowing(gain.size, 3e38f);
    const std::vector<ParameterUpdate<float>> to_overflowing{{"norm.gain", gain.shape, overflowing}};
    model.set_parameters(to_overflowing);
    twin.set_parameters(to_overflowing);
    const State<float> overflowed(model);
    CHECK_THROWS_MATCHES(testing::model_step(model_any, ids, targets, 1e-3), std::range_error,
                         Says(": a step on a loss that is not finite is refused (the model is unchanged)"));
    REQUIRE(State<float>(model) == overflowed);
    REQUIRE(same_bits(run(forward<float>, model_any, ids, targets), run(forward<float>, twin_any, ids, targets)));
}

// The allocations a call makes: it is run with a budget that no call reaches, and what is left is subtracted.
template <class F>
std::int64_t allocations_of(F&& call) {
    constexpr std::int64_t kBudget = std::int64_t{1} << 40;
    allocations_until_failure = kBudget;
    call();
    const std::int64_t made = kBudget - allocations_until_failure;
    allocations_until_failure = -1;
    return made;
}

TEST_CASE("model state: train fails as a whole, its earlier steps undone", "[model][state]") {
    const Config c = make_config(16, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2);
    AnyModel model_any = testing::make_model<float>(c), twin_any = testing::make_model<float>(c);
    Model<float>& model = testing::net<float>(model_any);
    Model<float>& twin = testing::net<float>(twin_any);
    const auto ids = random_ids(2, 6, 16, 1), wide = random_ids(4, 11, 16, 2);
    const auto targets = random_targets(c, 2, 6, 3), wide_targets = random_targets(c, 4, 11, 4);
    testing::model_step(model_any, ids, targets, 1e-2);
    testing::model_step(twin_any, ids, targets, 1e-2);
    const State<float> before(model);
    const TrainBatch good{ids.data(), targets.data(), 2, 6, {}}, other{wide.data(), wide_targets.data(), 4, 11, {}};
    std::vector<double> losses;  // one per batch
    auto unchanged = [&] {
        REQUIRE(State<float>(model) == before);
        REQUIRE(same_bits(run(forward<float>, model_any, ids, targets), run(forward<float>, twin_any, ids, targets)));
    };

    SECTION("a bad id in the third batch: refused before the first step, the batch named") {
        auto bad = ids;
        bad(1, 4) = 16;
        const std::vector<TrainBatch> batches{good, other, {bad.data(), targets.data(), 2, 6, {}}, good};
        losses.resize(batches.size());
        REQUIRE_THROWS_MATCHES(model.train(losses, batches, 1e-2), std::out_of_range,
                               Says("batches[2]: ids[1, 4] = 16 is outside 0 .. vocab - 1 = 0 .. 15"));
        unchanged();
    }
    SECTION("losses of the wrong length: refused before anything") {
        const std::vector<TrainBatch> batches{good, other, good};
        losses.resize(4);
        REQUIRE_THROWS_MATCHES(model.train(losses, batches, 1e-2), std::invalid_argument,
                               Says("losses must hold one value per batch = 3 values, got 4"));
        unchanged();
    }
    SECTION("lr is checked first, and named as step names it") {
        const std::vector<TrainBatch> batches{good, good};
        losses.resize(batches.size());
        REQUIRE_THROWS_MATCHES(model.train(losses, batches, -1), std::invalid_argument,
                               Says("lr must be a finite number >= 0, got -1"));
        try {
            model.train(losses, batches, -1);
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).rfind("lr must be", 0) == 0);
        }
        unchanged();
    }
    SECTION("a step refused after two were taken: all three undone") {
        // lr 1e38 moves every parameter by about 1e38, still finite; at the next step the logits overflow
        const std::vector<TrainBatch> batches{good, other, good, other};
        losses.resize(batches.size());
        try {
            model.train(losses, batches, 1e38);
            FAIL("train took every step");
        } catch (const std::range_error& e) {
            const std::string message = e.what();
            INFO(message);
            CHECK((message.rfind("batches[1]: the loss is ", 0) == 0 ||
                   message.rfind("batches[1]: lr 1e+38 is refused here: the step would make parameter", 0) == 0));
        }
        unchanged();
        // the first step alone was fine: the refusal came after it
        double one[1];
        const std::vector<TrainBatch> first{good};
        twin.train(one, first, 1e38);
        REQUIRE_FALSE(State<float>(twin) == before);
    }
    SECTION("out of memory at any allocation, the first step's or a later one's") {
        const std::vector<TrainBatch> batches{good, other, good};
        const std::vector<TrainBatch> repeated{good, good, good};
        losses.resize(batches.size());
        // each allocation of train fails in turn: the model is unchanged after every failure
        std::int64_t failures = 0;
        for (std::int64_t k = 0;; ++k) {
            allocations_until_failure = k;
            try {
                model.train(losses, batches, 1e-2);
                allocations_until_failure = -1;
                break;
            } catch (const std::bad_alloc&) {
                allocations_until_failure = -1;
                ++failures;
                INFO("allocation " << k << " failed");
                unchanged();
            }
        }
        std::vector<double> twin_losses(batches.size());
        twin.train(twin_losses, batches, 1e-2);
        REQUIRE(same_bits(losses, twin_losses));
        REQUIRE(State<float>(model) == State<float>(twin));
        // the second batch's new shape allocates after the first step: more allocations than train on one shape
        AnyModel fresh_any = testing::make_model<float>(c), fresh_twin_any = testing::make_model<float>(c);
        Model<float>& fresh = testing::net<float>(fresh_any);
        Model<float>& fresh_twin = testing::net<float>(fresh_twin_any);
        testing::model_forward<float>(fresh_any, ids);
        testing::model_forward<float>(fresh_twin_any, ids);
        const std::int64_t mixed = allocations_of([&] { fresh.train(losses, batches, 1e-2); });
        const std::int64_t same = allocations_of([&] { fresh_twin.train(losses, repeated, 1e-2); });
        CHECK(mixed > same);
        CHECK(failures == mixed);  // each allocation failed once (k = mixed, past them all, succeeded)
    }
}

TEST_CASE("model state: set_parameters refuses values that are not finite, writing nothing", "[model][state]") {
    Model<double> model(make_config(16, 8, 2, 1, Positions::none, false, Readout::mean, 2));
    const State<double> before(model);
    const auto& wq = model.parameter("layers.0.attention.wq");
    for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
        std::vector<double> values(wq.size, 0.5), bias(2, 1.0);
        values[2 * 8 + 5] = bad;
        const std::vector<ParameterUpdate<double>> updates{{"readout.bias", {2}, bias},
                                                           {"layers.0.attention.wq", wq.shape, values}};
        REQUIRE_THROWS_MATCHES(model.set_parameters(updates), std::invalid_argument,
                               Says("parameter 'layers.0.attention.wq' holds " + seqorder::number_text(bad) +
                                    " at [2, 5]: every parameter must be finite"));
        REQUIRE(State<double>(model) == before);
    }
}

TEST_CASE("model state: float64 takes any finite lr; Adam refuses results that are not finite", "[model][state]") {
    CHECK_NOTHROW(Model<double>::check_lr(1e308));
    CHECK_THROWS_AS(Model<float>::check_lr(1e39), std::invalid_argument);
    CHECK_NOTHROW(Model<float>::check_lr(3.4e38));
    // g g overflows v in float32
    Adam<float> adam(3);
    const std::vector<float> p{1, 2, 3}, g{1e-3f, 1e21f, -1};  // 0.001 g g = 1e39
    REQUIRE(adam.first_not_finite(p, g, 1e-3) == std::optional<std::size_t>{1});
    const std::vector<float> fine{1e-3f, 1e19f, -1};  // 1e35
    REQUIRE_FALSE(adam.first_not_finite(p, fine, 1e-3).has_value());
    CHECK(adam.steps() == 0);
    // the check runs step's arithmetic: what it accepts, step writes
    std::vector<float> q = p;
    adam.step(q, fine, 1e-3);
    CHECK(adam.steps() == 1);
    for (float x : q) CHECK(std::isfinite(x));
}

TEST_CASE("model state: activations are kept up to 64 MiB, released above it and after a failed call",
          "[model][state]") {
    AnyModel any = testing::make_model<float>(make_config(16, 8, 1, 1, Positions::sinusoidal, false, Readout::mean, 2));
    Model<float>& model = testing::net<float>(any);
    const auto small = random_ids(4, 12, 16, 1);
    testing::model_forward<float>(any, small);
    CHECK(model.call_bytes(4, 12) == 0);  // kept: the same call allocates nothing
    CHECK(model.call_bytes(4, 13) > 0);
    // the attention weights of one sentence of 4096 tokens: 4096^2 float32 = 64 MiB, more with the rest
    const auto big = random_ids(1, 4096, 16, 2);
    REQUIRE(static_cast<std::int64_t>(seqorder::model::activation_count(model.config(), 1, 4096) * sizeof(float)) >
            kKeptActivationBytes);
    testing::model_attention_weights<float>(any, big);
    CHECK(model.call_bytes(4, 12) > 0);  // released
    testing::model_forward<float>(any, small);
    CHECK(model.call_bytes(4, 12) == 0);
    // the model's own forward (its logits allocated beforehand), so that the failing allocation is one of the call's
    const auto other = random_ids(4, 20, 16, 3);
    std::vector<float> logits(4 * 2);
    allocations_until_failure = 3;
    CHECK_THROWS_AS(model.forward(logits, other.data(), 4, 20), std::bad_alloc);
    allocations_until_failure = -1;
    CHECK(model.call_bytes(1, 1) > 0);  // released after the failure
}

TEST_CASE("model state: a model's state is four values per parameter", "[model][state]") {
    const Config c = make_config(16, 8, 2, 1, Positions::learned, false, Readout::mean, 2);
    const Model<double> model(c);
    CHECK(Model<double>::state_bytes(c) == static_cast<std::int64_t>(4 * 8 * model.values().size()));
    CHECK(Model<float>::state_bytes(c) == static_cast<std::int64_t>(4 * 4 * model.values().size()));
}

}  // namespace
