// The model against its independent numpy implementation (tests/fixtures/make_model_fixtures.py): the generator, the
// order task, randomized positions' draws, and the logits, loss and every gradient of twenty-six small configurations
// (each kind of positions, rotary's base and partial rotation, positionIds for every scheme that reads positions,
// ropeScaling's three methods, positionRange for every scheme that reads positions, causal and bidirectional, both readouts, one to three heads, one and two layers, ignored targets).
//
// Tolerances, and why:
//   float64: 1e-10 absolute. Both sides compute in float64 in different orders (numpy's einsum and pairwise sums, the
//     core's loops); the values are O(1) and pass through ~30 steps, so they agree to ~1e-14 (measured below).
//   float32: the same inputs (the fixture's parameters are float32 numbers), computed in float32: each value carries a
//     few float32 rounding steps (2^-24 ~ 6e-8) per step it went through, relative to the magnitudes that met on the
//     way. 2e-5 absolute for logits and loss (values O(1), ~30 steps), 1e-4 for gradients (sums over every token).
//   normals: the core's logarithm is its own (basic operations only) and numpy's script uses math.log: within a few ulp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "compare.hpp"
#include "model/random.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::Kernels;
using seqorder::model::SplitMix64;
using seqorder::model::draw_positions;
using seqorder::model::kEvaluationStream;
using seqorder::model::kTrainingStream;

TEST_CASE("model fixture: SplitMix64 outputs match the numpy port bit for bit", "[model][fixtures]") {
    const fixtures::File& f = model_fixture();
    for (std::uint64_t seed : {0ull, 1ull, 20240612ull}) {
        const fixtures::Array& a = f["random/splitmix64/" + std::to_string(seed)];
        SplitMix64 g(seed);
        for (std::size_t i = 0; i < a.dim(0); ++i) {
            const std::uint64_t x = g.next();
            INFO("seed " << seed << ", output " << i);
            CHECK((x >> 32) == static_cast<std::uint64_t>(a.values[2 * i]));
            CHECK((x & 0xFFFFFFFFu) == static_cast<std::uint64_t>(a.values[2 * i + 1]));
        }
    }
}

TEST_CASE("model fixture: normal values match the numpy port within 4 ulp", "[model][fixtures]") {
    const fixtures::File& f = model_fixture();
    for (std::uint64_t seed : {7ull, 2024ull}) {
        const fixtures::Array& a = f["random/normal/" + std::to_string(seed)];
        SplitMix64 g(seed);
        for (std::size_t i = 0; i < a.size(); ++i) {
            INFO("seed " << seed << ", value " << i);
            CHECK_THAT(g.normal(), Catch::Matchers::WithinULP(a.values[i], 4));
        }
    }
}

TEST_CASE("model fixture: order_task draws the numpy port's sentences", "[model][fixtures][task]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("task/order", "args");
    REQUIRE(cases == 3);
    for (std::size_t i = 0; i < cases; ++i) {
        const std::string prefix = "task/order/" + std::to_string(i);
        const fixtures::Array& args = f[prefix + "/args"];
        const auto batch = seqorder::model::order_task(args.integer(0), args.integer(1),
                                                       static_cast<std::uint64_t>(args.integer(2)), args.integer(3) != 0);
        INFO(prefix);
        testing::check_identical<std::int32_t>("ids", batch.ids.data(), int_tensor(f[prefix + "/ids"]).data());
        testing::check_identical<std::int32_t>("targets", batch.targets.data(), int_tensor(f[prefix + "/targets"]).data());
    }
}

TEST_CASE("model fixture: lookback_task draws the numpy port's sentences", "[model][fixtures][task]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("task/lookback", "args");
    REQUIRE(cases == 3);
    for (std::size_t i = 0; i < cases; ++i) {
        const std::string prefix = "task/lookback/" + std::to_string(i);
        const fixtures::Array& args = f[prefix + "/args"];
        const auto batch = seqorder::model::lookback_task(args.integer(0), args.integer(1), args.integer(2),
                                                          static_cast<std::uint64_t>(args.integer(3)));
        INFO(prefix);
        testing::check_identical<std::int32_t>("ids", batch.ids.data(), int_tensor(f[prefix + "/ids"]).data());
        testing::check_identical<std::int32_t>("targets", batch.targets.data(), int_tensor(f[prefix + "/targets"]).data());
    }
}

TEST_CASE("model fixture: induction_task draws the numpy port's sentences", "[model][fixtures][task]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("task/induction", "args");
    REQUIRE(cases == 3);
    for (std::size_t i = 0; i < cases; ++i) {
        const std::string prefix = "task/induction/" + std::to_string(i);
        const fixtures::Array& args = f[prefix + "/args"];
        const auto batch = seqorder::model::induction_task(args.integer(0), args.integer(1),
                                                           static_cast<std::uint64_t>(args.integer(2)));
        INFO(prefix);
        testing::check_identical<std::int32_t>("ids", batch.ids.data(), int_tensor(f[prefix + "/ids"]).data());
        testing::check_identical<std::int32_t>("targets", batch.targets.data(), int_tensor(f[prefix + "/targets"]).data());
    }
}

// The case's ropeScaling, when it gives one ([method 0 linear, 1 ntk, 2 yarn; factor; originalLength, 0: none]), and
// its positionRange.
testing::Stretch rope_scaling_of(const std::string& prefix) {
    const fixtures::File& f = model_fixture();
    testing::Stretch s;
    if (f.has(prefix + "/position_range")) s.position_range = f[prefix + "/position_range"].values[0];
    if (!f.has(prefix + "/rope_scaling")) return s;
    const fixtures::Array& a = f[prefix + "/rope_scaling"];
    s.method = a.values[0];
    s.factor = a.values[1];
    if (a.values[2] != 0) s.original_length = a.values[2];
    return s;
}

// positionIds of the case: its positions, unless they are drawn (positionRange) or not given (null).
const Tensor<std::int32_t>* position_ids_of(const std::string& prefix, const Tensor<std::int32_t>& positions) {
    const fixtures::File& f = model_fixture();
    return f.has(prefix + "/positions") && !f.has(prefix + "/position_range") ? &positions : nullptr;
}

template <class T>
void check_case(const std::string& prefix, Kernels kernels, double value_tolerance, double gradient_tolerance) {
    const fixtures::File& f = model_fixture();
    // a new model for each call: a positionRange's draw is then the evaluation stream's first, the case's positions
    AnyModel any = fixture_model<T>(prefix), any_loss = fixture_model<T>(prefix), any_gradients = fixture_model<T>(prefix);
    Model<T>& model = testing::net<T>(any);
    for (AnyModel* m : {&any, &any_loss, &any_gradients}) testing::net<T>(*m).set_kernels(kernels);
    const auto ids = int_tensor(f[prefix + "/ids"]);
    const auto targets = int_tensor(f[prefix + "/targets"]);
    const auto positions = f.has(prefix + "/positions") ? int_tensor(f[prefix + "/positions"]) : ids;
    const auto* at = position_ids_of(prefix, positions);  // positionIds, when the case gives them
    const auto scaling = rope_scaling_of(prefix);
    const std::string kind = std::string(sizeof(T) == 8 ? "float64" : "float32") +
                             (kernels == Kernels::fast ? "" : " reference") + " " + prefix + " (" +
                             describe(model.config()) + ")";
    INFO(kind);
    const Tensor<T> logits = testing::model_forward<T>(any, ids, at, scaling);
    REQUIRE(logits.shape() == Shape(f[prefix + "/logits"].shape.begin(), f[prefix + "/logits"].shape.end()));
    testing::check_within_abs<T>("model logits, " + kind, logits.data(), f[prefix + "/logits"], value_tolerance);
    const double loss = testing::model_loss(any_loss, ids, targets, at, scaling);
    testing::check_within_abs<double>("model loss, " + kind, std::span<const double>(&loss, 1), f[prefix + "/loss"],
                                      value_tolerance);
    const testing::Gradients<T> g = testing::model_gradients<T>(any_gradients, ids, targets, at, scaling);
    CHECK_THAT(g.loss, Catch::Matchers::WithinAbs(loss, 0.0));
    for (const auto& p : model.parameters())
        testing::check_within_abs<T>("model gradient " + p.name + ", " + kind,
                                     std::span<const T>(g.values).subspan(p.offset, p.size),
                                     f[prefix + "/grad/" + p.name], gradient_tolerance);
}

TEST_CASE("model fixture: float64 logits, loss and every gradient match numpy within 1e-10", "[model][fixtures]") {
    const std::size_t cases = model_fixture().count("model", "config");
    REQUIRE(cases == 26);  // 4 and 5 scale the token vectors (embedScale); 6 .. 11 alibi, relative, rotary's options;
                           // 12 .. 16 positionIds, each scheme that reads positions; 17 .. 20 ropeScaling;
                           // 21 .. 25 positionRange
    for (std::size_t c = 0; c < cases; ++c) check_case<double>("model/" + std::to_string(c), Kernels::fast, 1e-10, 1e-10);
}

TEST_CASE("model fixture: float32 (fast kernels and reference) match numpy within float32 rounding",
          "[model][fixtures]") {
    const std::size_t cases = model_fixture().count("model", "config");
    for (std::size_t c = 0; c < cases; ++c) {
        check_case<float>("model/" + std::to_string(c), Kernels::fast, 2e-5, 1e-4);
        check_case<float>("model/" + std::to_string(c), Kernels::reference, 2e-5, 1e-4);
    }
}

TEST_CASE("model fixture: three Adam steps of the position schemes' cases match numpy within 1e-10 (float64)",
          "[model][fixtures]") {
    const fixtures::File& f = model_fixture();
    int checked = 0;
    for (std::size_t c = 0; c < f.count("model", "config"); ++c) {
        const std::string prefix = "model/" + std::to_string(c);
        if (!f.has(prefix + "/adam/losses")) continue;
        ++checked;
        AnyModel any = fixture_model<double>(prefix);
        const Model<double>& model = testing::net<double>(any);
        const auto ids = int_tensor(f[prefix + "/ids"]);
        const auto targets = int_tensor(f[prefix + "/targets"]);
        const auto positions = f.has(prefix + "/positions") ? int_tensor(f[prefix + "/positions"]) : ids;
        const auto* at = position_ids_of(prefix, positions);
        INFO(prefix << " (" << describe(model.config()) << ")");
        const auto& losses = f[prefix + "/adam/losses"].values;
        for (double want : losses)
            CHECK_THAT(testing::model_step(any, ids, targets, 1e-2, at, rope_scaling_of(prefix)),
                       Catch::Matchers::WithinAbs(want, 1e-10));
        for (const auto& p : model.parameters())
            testing::check_within_abs<double>("parameter " + p.name + " after the steps", model.values(p),
                                              f[prefix + "/adam/param/" + p.name], 1e-10);
    }
    CHECK(checked == 18);
}

TEST_CASE("model fixture: randomized positions are the numpy port's draws from both streams", "[model][fixtures]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("draw", "args");
    REQUIRE(cases == 6);
    for (std::size_t i = 0; i < cases; ++i) {
        const fixtures::Array& args = f["draw/" + std::to_string(i) + "/args"];
        const fixtures::Array& want = f["draw/" + std::to_string(i) + "/positions"];
        const auto seed = static_cast<std::uint64_t>(args.integer(0));
        SplitMix64 stream(seed ^ (args.integer(1) != 0 ? kEvaluationStream : kTrainingStream));
        const auto B = static_cast<std::size_t>(args.integer(2)), T = static_cast<std::size_t>(args.integer(3));
        const std::int64_t L = args.integer(4);
        std::vector<std::int32_t> got(B * T);
        for (std::int64_t call = 0; call < args.integer(5); ++call) {
            INFO("draw " << i << " (seed " << seed << ", B " << B << ", T " << T << ", L " << L << "), call " << call);
            const bool plain = draw_positions(got.data(), stream, B, T, L);
            const auto from = want.values.begin() + call * static_cast<std::int64_t>(B * T);
            CHECK(std::equal(got.begin(), got.end(), from));
            CHECK(plain == (L == static_cast<std::int64_t>(T)));
        }
    }
}

// A step on case `prefix` with its positionRange, and the same step with positionIds = the numpy port's draw of the
// training stream (a new model of seed 0 draws it first): the loss and every parameter after it, bit for bit.
template <class T>
void check_range_is_positions(const std::string& prefix, Kernels range_kernels, Kernels ids_kernels) {
    const fixtures::File& f = model_fixture();
    const auto ids = int_tensor(f[prefix + "/ids"]);
    const auto targets = int_tensor(f[prefix + "/targets"]);
    testing::Stretch drawn = rope_scaling_of(prefix), given = drawn;
    given.position_range = std::nullopt;
    const auto B = static_cast<std::size_t>(ids.shape()[0]), Tn = static_cast<std::size_t>(ids.shape()[1]);
    std::vector<std::int32_t> rows(B * Tn);
    SplitMix64 stream(kTrainingStream);
    draw_positions(rows.data(), stream, B, Tn, static_cast<std::int64_t>(*drawn.position_range));
    const Tensor<std::int32_t> positions(ids.shape(), std::move(rows));
    AnyModel a = fixture_model<T>(prefix), b = fixture_model<T>(prefix);
    testing::net<T>(a).set_kernels(range_kernels);
    testing::net<T>(b).set_kernels(ids_kernels);
    const double with_range = testing::model_step(a, ids, targets, 1e-2, nullptr, drawn);
    const double with_ids = testing::model_step(b, ids, targets, 1e-2, &positions, given);
    CHECK(std::memcmp(&with_range, &with_ids, sizeof(double)) == 0);
    const auto va = testing::net<T>(a).values(), vb = testing::net<T>(b).values();
    CHECK(std::memcmp(va.data(), vb.data(), va.size_bytes()) == 0);
    CHECK(testing::net<T>(a).position_streams()[0] == stream.state());
}

TEST_CASE("model fixture: a step with positionRange is the step at the positions drawn (float64; float32 fast = reference)",
          "[model][fixtures]") {
    const fixtures::File& f = model_fixture();
    int checked = 0;
    for (std::size_t c = 0; c < f.count("model", "config"); ++c) {
        const std::string prefix = "model/" + std::to_string(c);
        if (!f.has(prefix + "/position_range")) continue;
        ++checked;
        INFO(prefix);
        check_range_is_positions<double>(prefix, Kernels::fast, Kernels::fast);
        check_range_is_positions<float>(prefix, Kernels::fast, Kernels::reference);
    }
    CHECK(checked == 5);
}

}  // namespace
