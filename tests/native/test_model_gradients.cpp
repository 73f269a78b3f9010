// The model's hand-written backward pass against central finite differences of its forward pass, for every element of
// every parameter, over configurations that cover each kind of positions, causal and bidirectional attention, both
// readouts, one to four heads and one or two layers; float32 against float64; Adam against a hand computation; the
// all-ignored loss.
//
// Finite differences in float64 with h = 1e-5: the central difference's truncation error is ~h^2 |f'''| ~ 1e-10 and
// its rounding error ~1e-16 |loss| / h ~ 1e-11, so the analytic gradient must agree within 1e-7 (absolute, or relative
// to |g| above 1). Parameters are random at scale 0.5 (model_testing.hpp), so every step works in its nonlinear range;
// a ReLU input within h of 0 would make a difference cross a kink, and the fixed seeds below have none.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compare.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using testing::Gradients;
using seqorder::model::kAdamBeta1;
using seqorder::model::kAdamBeta2;
using seqorder::model::kAdamEps;

struct Case {
    Config config;
    std::size_t B, T;
    double ignored;  // fraction of targets set to -1
};

// A configuration whose token vectors are multiplied by `scale` (embedScale) or sqrt(width).
Config scaled(Config c, double scale, bool sqrt_width = false) {
    c.embed_scale = {.factor = scale, .sqrt_width = sqrt_width};
    return c;
}

// A configuration with relative's buckets and maxDistance, or rotary's base and pairs (0: the default).
Config with_options(Config c, std::int64_t buckets, std::int64_t max_distance, double rotary_base = 0,
                    std::int64_t rotary_pairs = 0) {
    if (buckets) c.buckets = buckets;
    if (max_distance) c.max_distance = max_distance;
    if (rotary_base) c.rotary_base = rotary_base;
    if (rotary_pairs) c.rotary_pairs = rotary_pairs;
    return c;
}

std::vector<Case> gradient_cases() {
    return {
        {scaled(make_config(6, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2), 1, true), 3, 5, 0.0},
        {scaled(make_config(5, 4, 1, 2, Positions::learned, true, Readout::each, 3), 2.5), 2, 6, 0.2},
        {make_config(5, 4, 1, 1, Positions::none, false, Readout::mean, 3), 3, 5, 0.0},
        {make_config(6, 8, 2, 2, Positions::sinusoidal, true, Readout::each, 3), 2, 5, 0.3},
        {make_config(7, 8, 2, 1, Positions::learned, false, Readout::each, 2), 2, 6, 0.2},
        {make_config(5, 8, 2, 2, Positions::rotary, true, Readout::mean, 3), 3, 4, 0.0},
        {make_config(4, 8, 4, 1, Positions::rotary, false, Readout::each, 2), 2, 5, 0.0},
        {make_config(6, 4, 2, 2, Positions::learned, true, Readout::mean, 2), 2, 7, 0.0},
        {make_config(5, 6, 3, 1, Positions::none, true, Readout::each, 4), 2, 6, 0.4},
        {make_config(5, 12, 3, 2, Positions::alibi, true, Readout::each, 3), 2, 6, 0.2},
        {make_config(6, 8, 2, 1, Positions::alibi, false, Readout::mean, 2), 3, 5, 0.0},
        {with_options(make_config(6, 8, 2, 2, Positions::relative, false, Readout::each, 3), 8, 3), 2, 7, 0.2},
        {with_options(make_config(5, 8, 2, 1, Positions::relative, true, Readout::mean, 2), 5, 3), 3, 6, 0.0},
        {with_options(make_config(5, 12, 2, 2, Positions::rotary, true, Readout::each, 2), 0, 0, 200, 2), 2, 5, 0.2},
    };
}

// Every element of every parameter: the backward pass against central finite differences, at positions (B, T) given
// (positionIds) or 0 .. T - 1 (null).
void check_finite_differences(const Case& c, std::uint32_t& seed, const Tensor<std::int32_t>* positions = nullptr) {
    INFO(describe(c.config) << ", B " << c.B << ", T " << c.T << (positions ? ", positions given" : ""));
    AnyModel any = testing::make_model<double>(c.config);
    Model<double>& model = testing::net<double>(any);
    randomize(model, ++seed);
    const auto ids = random_ids(c.B, c.T, c.config.vocab, ++seed);
    const auto targets = random_targets(c.config, c.B, c.T, ++seed, c.ignored);
    const Gradients<double> g = testing::model_gradients<double>(any, ids, targets, positions);
    CHECK(g.loss == testing::model_loss(any, ids, targets, positions));

    const double h = 1e-5;
    std::vector<double> values(model.values().begin(), model.values().end());
    double worst = 0;
    for (const auto& p : model.parameters()) {
        for (std::size_t i = 0; i < p.size; ++i) {
            const double saved = values[p.offset + i];
            auto loss_at = [&](double x) {
                values[p.offset + i] = x;
                const ParameterUpdate<double> u{p.name, p.shape,
                                                std::span<const double>(values).subspan(p.offset, p.size)};
                model.set_parameters(std::span(&u, 1));
                return testing::model_loss(any, ids, targets, positions);
            };
            const double numeric = (loss_at(saved + h) - loss_at(saved - h)) / (2 * h);
            loss_at(saved);
            const double analytic = g.values[p.offset + i];
            const double error = std::abs(numeric - analytic) / std::max(1.0, std::abs(analytic));
            worst = std::max(worst, error);
            if (error > 1e-7) {
                INFO(p.name << "[" << i << "]: backward " << analytic << ", finite difference " << numeric);
                CHECK(error <= 1e-7);
            }
        }
    }
    testing::report("model finite differences, " + describe(c.config) + (positions ? ", positions given" : ""), worst,
                    1e-7);
    // Not all zero: the check above compared something.
    double largest = 0;
    for (double x : g.values) largest = std::max(largest, std::abs(x));
    CHECK(largest > 1e-3);
}

TEST_CASE("model gradients: every parameter's gradient matches central finite differences (float64)",
          "[model][gradients]") {
    std::uint32_t seed = 100;
    for (const Case& c : gradient_cases()) check_finite_differences(c, seed);
}

TEST_CASE("model gradients: finite differences at positions given (positionIds), each scheme that reads positions",
          "[model][gradients]") {
    // rows apart and past T, the two rows sharing learned rows, distances past relative's maxDistance
    const std::vector<std::int32_t> rows{0, 2, 3, 7, 8, 1, 2, 5, 6, 7};  // (learned: maxLength 9)
    Tensor<std::int32_t> positions({2, 5});
    std::copy(rows.begin(), rows.end(), positions.data().begin());
    std::uint32_t seed = 500;
    const Case cases[] = {
        {make_config(6, 8, 2, 1, Positions::sinusoidal, true, Readout::mean, 2), 2, 5, 0.0},
        {make_config(5, 4, 1, 2, Positions::learned, false, Readout::each, 3), 2, 5, 0.2},
        {with_options(make_config(5, 12, 2, 2, Positions::rotary, true, Readout::each, 2), 0, 0, 200, 2), 2, 5, 0.2},
        {make_config(5, 12, 3, 1, Positions::alibi, true, Readout::each, 3), 2, 5, 0.0},
        {make_config(6, 8, 2, 1, Positions::alibi, false, Readout::mean, 2), 2, 5, 0.0},
        {with_options(make_config(6, 8, 2, 2, Positions::relative, false, Readout::each, 3), 8, 3), 2, 5, 0.2},
        {with_options(make_config(5, 8, 2, 1, Positions::relative, true, Readout::mean, 2), 5, 3), 2, 5, 0.0},
    };
    for (const Case& c : cases) check_finite_differences(c, seed, &positions);
}

TEST_CASE("model gradients: float32 agrees with float64 on the same parameters", "[model][gradients]") {
    // float32 carries a few rounding steps (6e-8) of the magnitudes met per step: logits within 1e-5 of float64,
    // gradients within 1e-4 (they sum over every token), relative to max(1, |value|).
    std::uint32_t seed = 300;
    for (const Case& c : gradient_cases()) {
        INFO(describe(c.config));
        AnyModel reference = testing::make_model<double>(c.config);
        randomize(testing::net<double>(reference), ++seed);
        AnyModel model = testing::make_model<float>(c.config);
        copy_parameters(testing::net<float>(model), testing::net<double>(reference));
        const auto ids = random_ids(c.B, c.T, c.config.vocab, ++seed);
        const auto targets = random_targets(c.config, c.B, c.T, ++seed, c.ignored);
        const Tensor<double> want = testing::model_forward<double>(reference, ids);
        const Tensor<float> got = testing::model_forward<float>(model, ids);
        for (std::size_t i = 0; i < want.size(); ++i)
            CHECK_THAT(got.data()[i], Catch::Matchers::WithinAbs(want.data()[i], 1e-5 * std::max(1.0, std::abs(want.data()[i]))));
        const Gradients<double> g64 = testing::model_gradients<double>(reference, ids, targets);
        const Gradients<float> g32 = testing::model_gradients<float>(model, ids, targets);
        CHECK_THAT(g32.loss, Catch::Matchers::WithinAbs(g64.loss, 1e-5 * std::max(1.0, g64.loss)));
        double worst = 0;
        for (std::size_t i = 0; i < g64.values.size(); ++i)
            worst = std::max(worst, std::abs(g32.values[i] - g64.values[i]) / std::max(1.0, std::abs(g64.values[i])));
        testing::report("model float32 vs float64 gradients, " + describe(c.config), worst, 1e-4);
        CHECK(worst <= 1e-4);
    }
}

TEST_CASE("model gradients: all targets ignored gives loss 0 and zero gradients", "[model][gradients]") {
    const Config c = make_config(6, 8, 2, 1, Positions::learned, true, Readout::each, 3);
    AnyModel any = testing::make_model<double>(c);
    Model<double>& model = testing::net<double>(any);
    randomize(model, 7);
    const auto ids = random_ids(2, 5, c.vocab, 8);
    Tensor<std::int32_t> targets({2, 5});
    for (std::int32_t& t : targets.data()) t = -1;
    CHECK(testing::model_loss(any, ids, targets) == 0.0);
    const Gradients<double> g = testing::model_gradients<double>(any, ids, targets);
    CHECK(g.loss == 0.0);
    for (double x : g.values) REQUIRE(x == 0.0);
    // a step then moves nothing
    const std::vector<double> before(model.values().begin(), model.values().end());
    CHECK(testing::model_step(any, ids, targets, 0.1) == 0.0);
    for (std::size_t i = 0; i < before.size(); ++i) REQUIRE(model.values()[i] == before[i]);
    CHECK(model.steps() == 1);
}

TEST_CASE("model gradients: ignored targets count for nothing, the mean is over the others", "[model][gradients]") {
    // loss over rows {0, 2} of three = mean of the two single-row losses
    const Config c = make_config(6, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 3);
    AnyModel model = testing::make_model<double>(c);
    randomize(testing::net<double>(model), 9);
    const auto ids = random_ids(3, 4, c.vocab, 10);
    const Tensor<std::int32_t> both(Shape{3}, std::vector<std::int32_t>{2, -1, 0});
    auto single = [&](std::size_t row, std::int32_t target) {
        Tensor<std::int32_t> one({1, 4});
        for (std::size_t t = 0; t < 4; ++t) one(0, t) = ids(row, t);
        return testing::model_loss(model, one, Tensor<std::int32_t>(Shape{1}, std::vector<std::int32_t>{target}));
    };
    CHECK_THAT(testing::model_loss(model, ids, both), Catch::Matchers::WithinAbs((single(0, 2) + single(2, 0)) / 2, 1e-14));
}

// Adam by hand, from the definition (Kingma and Ba, Algorithm 1), in float64: the model's steps must agree.
TEST_CASE("model Adam: two steps match a hand computation", "[model][adam]") {
    const Config c = make_config(5, 4, 2, 1, Positions::rotary, true, Readout::mean, 2);
    AnyModel any = testing::make_model<double>(c);
    Model<double>& model = testing::net<double>(any);
    randomize(model, 11);
    const auto ids = random_ids(3, 5, c.vocab, 12);
    const auto targets = random_targets(c, 3, 5, 13);
    const double lr = 0.01;
    const std::size_t n = model.values().size();
    std::vector<double> p(model.values().begin(), model.values().end()), m(n, 0.0), v(n, 0.0);
    for (int t = 1; t <= 2; ++t) {
        const Gradients<double> g = testing::model_gradients<double>(any, ids, targets);
        for (std::size_t i = 0; i < n; ++i) {
            m[i] = kAdamBeta1 * m[i] + (1 - kAdamBeta1) * g.values[i];
            v[i] = kAdamBeta2 * v[i] + (1 - kAdamBeta2) * g.values[i] * g.values[i];
            const double m_hat = m[i] / (1 - std::pow(kAdamBeta1, t));
            const double v_hat = v[i] / (1 - std::pow(kAdamBeta2, t));
            p[i] -= lr * m_hat / (std::sqrt(v_hat) + kAdamEps);
        }
        CHECK(testing::model_step(any, ids, targets, lr) == g.loss);  // the loss before the step
        CHECK(model.steps() == t);
        for (std::size_t i = 0; i < n; ++i) REQUIRE_THAT(model.values()[i], Catch::Matchers::WithinULP(p[i], 4));
    }
}

// float32's update runs four lanes at a time: each lane must give the scalar formula's bits, written out here in the
// order adam.hpp states (constants rounded to float once, each correction 1 - beta^t rounded to float), for a count
// that leaves a tail; and first_not_finite must find a bad parameter wherever it is, in a chunk or in the tail.
TEST_CASE("model Adam: float32's four-lane update gives the scalar formula's bits", "[model][adam]") {
    using seqorder::model::Adam;
    const std::size_t n = 1037;
    std::mt19937 generator(5);
    std::normal_distribution<float> normal(0, 1);
    std::vector<float> p(n), g(n), pe(n), me(n, 0.0f), ve(n, 0.0f);
    for (std::size_t i = 0; i < n; ++i) pe[i] = p[i] = normal(generator);
    Adam<float> adam(n);
    double beta1_power = 1, beta2_power = 1;
    for (int t = 1; t <= 3; ++t) {
        for (std::size_t i = 0; i < n; ++i) g[i] = normal(generator) * (i % 7 == 0 ? 1e-6f : 1.0f);
        const double lr = t == 2 ? 0.5 : 1e-3;
        REQUIRE_FALSE(adam.first_not_finite(p, g, lr).has_value());
        adam.step(p, g, lr);
        beta1_power *= kAdamBeta1;
        beta2_power *= kAdamBeta2;
        const auto b1 = static_cast<float>(kAdamBeta1), b2 = static_cast<float>(kAdamBeta2);
        const auto r1 = static_cast<float>(1 - kAdamBeta1), r2 = static_cast<float>(1 - kAdamBeta2);
        const auto c1 = static_cast<float>(1 - beta1_power), c2 = static_cast<float>(1 - beta2_power);
        const auto eps = static_cast<float>(kAdamEps), rate = static_cast<float>(lr);
        for (std::size_t i = 0; i < n; ++i) {
            me[i] = b1 * me[i] + r1 * g[i];
            ve[i] = b2 * ve[i] + r2 * g[i] * g[i];
            const float m_hat = me[i] / c1, v_hat = ve[i] / c2;
            pe[i] = pe[i] - rate * m_hat / (std::sqrt(v_hat) + eps);
        }
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(std::bit_cast<std::uint32_t>(p[i]) == std::bit_cast<std::uint32_t>(pe[i]));
            REQUIRE(std::bit_cast<std::uint32_t>(adam.first_moment()[i]) == std::bit_cast<std::uint32_t>(me[i]));
            REQUIRE(std::bit_cast<std::uint32_t>(adam.second_moment()[i]) == std::bit_cast<std::uint32_t>(ve[i]));
        }
    }
    for (std::size_t bad : {std::size_t{0}, std::size_t{517}, std::size_t{1023}, std::size_t{1035}}) {
        std::vector<float> huge = g;
        huge[bad] = 1e21f;  // 0.001 g g overflows v
        huge[(bad + 300) % n] = 1e21f;  // a later one too: the first is reported
        INFO("bad parameter " << bad);
        CHECK(adam.first_not_finite(p, huge, 1e-3) == std::optional<std::size_t>{std::min(bad, (bad + 300) % n)});
    }
}

// float32's first_not_finite says "none" without the update when every value is within bounds (adam.cpp's
// surely_finite: |g|, |m|, |p| <= 1e16, 0 <= v <= 1e33, |lr| 1e16 <= 1e26): at those bounds, in the first step (the
// smallest corrections) and later, the update must indeed leave everything finite; a step past them is judged by the
// update itself.
TEST_CASE("model Adam: float32 values at the bounds of the check without the update step to finite values",
          "[model][adam]") {
    using seqorder::model::Adam;
    const std::size_t n = 11;
    for (const double lr : {1e10, -1e10, 1e-3})
        for (const float sign : {1.0f, -1.0f}) {
            Adam<float> adam(n);
            std::vector<float> p(n, sign * 1e16f), g(n, sign * 1e16f);
            for (int t = 1; t <= 3; ++t) {
                INFO("lr " << lr << ", sign " << sign << ", step " << t);
                REQUIRE_FALSE(adam.first_not_finite(p, g, lr).has_value());
                adam.step(p, g, lr);
                for (std::size_t i = 0; i < n; ++i) {
                    REQUIRE(std::isfinite(p[i]));
                    REQUIRE(std::isfinite(adam.first_moment()[i]));
                    REQUIRE(std::isfinite(adam.second_moment()[i]));
                }
                std::fill(p.begin(), p.end(), sign * 1e16f);  // back to the bound (m and v move on with the steps)
                g[t % n] = -g[t % n];
            }
        }
    // past the bounds: the exact check finds the parameter that overflows
    Adam<float> adam(5);
    std::vector<float> p(5, 1.0f), g(5, 1.0f);
    g[3] = 3e38f;  // 0.1 g is finite, 0.001 g g is not
    CHECK(adam.first_not_finite(p, g, 1e-3) == std::optional<std::size_t>{3});
    g[3] = 1e17f;  // past the bound, yet finite after the update
    CHECK_FALSE(adam.first_not_finite(p, g, 1e-3).has_value());
}

TEST_CASE("model Adam: the first step moves each parameter by lr against its gradient's sign", "[model][adam]") {
    // After one step m_hat = g and v_hat = g^2 (up to float32 rounding), so p moves by -lr g / (|g| + eps).
    const Config c = make_config(5, 4, 2, 1, Positions::none, false, Readout::each, 2);
    AnyModel any = testing::make_model<float>(c);
    Model<float>& model = testing::net<float>(any);
    randomize(model, 14);
    const auto ids = random_ids(2, 5, c.vocab, 15);
    const auto targets = random_targets(c, 2, 5, 16);
    const Gradients<float> g = testing::model_gradients<float>(any, ids, targets);
    const std::vector<float> before(model.values().begin(), model.values().end());
    const double lr = 1e-2;
    testing::model_step(any, ids, targets, lr);
    for (std::size_t i = 0; i < before.size(); ++i) {
        const double moved = static_cast<double>(model.values()[i]) - before[i];
        const double gi = g.values[i];
        // float32: p (|p| < 4) is rounded once after the move (<= 2.4e-7), the move itself to a few ulp
        REQUIRE_THAT(moved, Catch::Matchers::WithinAbs(-lr * gi / (std::abs(gi) + kAdamEps), 5e-7));
    }
}

}  // namespace
