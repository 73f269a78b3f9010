// Every rule of the model's configuration and inputs: the exception type (std::invalid_argument for a wrong value or
// shape, std::out_of_range for an index outside its table, std::length_error beyond the tensor limit), a message that
// names the argument as the JS API spells it, and a model that is unchanged and keeps working afterwards.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "compare.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::check_config;
using seqorder::model::DType;
using seqorder::model::dtype_from_name;
using seqorder::model::positions_from_name;
using seqorder::model::readout_from_name;
using seqorder::model::seed_from_number;

Config base() { return make_config(16, 8, 2, 1, Positions::none, false, Readout::mean, 2); }

template <class Change>
Config with(Change change) {
    Config c = base();
    change(c);
    return c;
}

TEST_CASE("model errors: every configuration rule names its argument", "[model][errors]") {
    auto invalid = [](const Config& c, const std::string& words) {
        INFO(words);
        REQUIRE_THROWS_MATCHES(Model<float>(c), std::invalid_argument, Says(words));
        REQUIRE_THROWS_MATCHES(Model<double>(c), std::invalid_argument, Says(words));
    };
    invalid(with([](Config& c) { c.vocab = 0; }), "vocab must be an integer in 1 .. 2^31 - 1");
    invalid(with([](Config& c) { c.vocab = -3; }), "vocab must be");
    invalid(with([](Config& c) { c.vocab = std::int64_t{1} << 31; }), "vocab must be");
    invalid(with([](Config& c) { c.width = 0; }), "width must be a positive integer");
    invalid(with([](Config& c) { c.heads = 0; }), "heads must be a positive integer");
    invalid(with([](Config& c) { c.heads = 3; }), "heads must divide width");
    invalid(with([](Config& c) { c.layers = 0; }), "layers must be an integer in 1 .. 4");
    invalid(with([](Config& c) { c.layers = 5; }), "layers must be an integer in 1 .. 4, got 5");
    invalid(with([](Config& c) { c.classes = 0; }), "classes must be an integer in 1 .. 2^31 - 1");
    invalid(with([](Config& c) { c.classes = std::int64_t{1} << 31; }), "classes must be");
    invalid(with([](Config& c) { c.positions = Positions::learned; }), "maxLength is required with positions: 'learned'");
    invalid(with([](Config& c) {
                c.positions = Positions::learned;
                c.max_length = 0;
            }),
            "maxLength must be a positive integer, got 0");
    invalid(with([](Config& c) { c.max_length = 16; }), "maxLength applies only to positions: 'learned'");
    invalid(with([](Config& c) {
                c.positions = Positions::sinusoidal;
                c.width = 7;
                c.heads = 1;
            }),
            "width must be even with positions: 'sinusoidal'");
    invalid(with([](Config& c) {
                c.positions = Positions::rotary;
                c.width = 6;
            }),
            "width / heads must be even with positions: 'rotary'");
    auto rotary = [](Config& c) { c.positions = Positions::rotary; };  // width 8, heads 2: 2 pairs a head
    for (double bad : {1.0, 0.5, -2.0, std::nan(""), HUGE_VAL})
        invalid(with([&](Config& c) {
                    rotary(c);
                    c.rotary_base = bad;
                }),
                "rotaryBase must be a finite number greater than 1 (the frequencies are rotaryBase^(-2i/d)), got " +
                    seqorder::number_text(bad));
    for (std::int64_t bad : {0, 3, -1})
        invalid(with([&](Config& c) {
                    rotary(c);
                    c.rotary_pairs = bad;
                }),
                "rotaryPairs must be an integer in 1 .. 2 (the pairs of a head of width 4), got " + std::to_string(bad));
    invalid(with([](Config& c) { c.rotary_base = 500; }),
            "rotaryBase applies only to positions: 'rotary'; positions is 'none'");
    invalid(with([](Config& c) {
                c.positions = Positions::alibi;
                c.rotary_pairs = 1;
            }),
            "rotaryPairs applies only to positions: 'rotary'; positions is 'alibi'");
    auto relative = [](Config& c) { c.positions = Positions::relative; };
    invalid(with([&](Config& c) {
                relative(c);
                c.buckets = 6;
                c.max_distance = 1;
            }),
            "maxDistance must be an integer greater than 1 (the exact buckets of a direction");
    invalid(with([&](Config& c) {
                relative(c);
                c.buckets = 7;
            }),
            "buckets must be an even integer >= 4 without a causal mask (half the buckets for each direction), got 7");
    invalid(with([&](Config& c) {
                relative(c);
                c.buckets = 2;
            }),
            "buckets must be an even integer >= 4");
    invalid(with([&](Config& c) {
                relative(c);
                c.causal = true;
                c.buckets = 1;
            }),
            "buckets must be an integer >= 2, got 1");
    invalid(with([&](Config& c) {
                relative(c);
                c.max_distance = 8;
            }),
            "maxDistance must be an integer greater than 8");
    invalid(with([](Config& c) { c.buckets = 8; }), "buckets applies only to positions: 'relative'; positions is 'none'");
    invalid(with([](Config& c) {
                c.positions = Positions::rotary;
                c.max_distance = 8;
            }),
            "maxDistance applies only to positions: 'relative'; positions is 'rotary'");
    CHECK_NOTHROW(Model<float>(with([&](Config& c) {
        relative(c);
        c.causal = true;
        c.buckets = 2;
        c.max_distance = 2;
    })));
    CHECK_NOTHROW(Model<float>(with([&](Config& c) {
        relative(c);
        c.buckets = 4;
        c.max_distance = 2;
    })));
    for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL})
        invalid(with([&](Config& c) { c.embed_scale.factor = bad; }),
                "embedScale must be a positive finite number or 'sqrtWidth', got " + seqorder::number_text(bad));
    // finite and > 0 once in the model's type: float32 rounds 3.5e38 to infinity and 1e-46 to 0; float64 holds both
    for (double past_float32 : {3.5e38, 1e-46}) {
        const Config c = with([&](Config& config) { config.embed_scale.factor = past_float32; });
        REQUIRE_THROWS_MATCHES(Model<float>(c), std::invalid_argument,
                               Says("embedScale must be a positive number that float32 (the model's dtype) holds"));
        CHECK_NOTHROW(Model<double>(c));
    }
    CHECK_NOTHROW(Model<float>(with([](Config& c) { c.embed_scale.factor = std::ldexp(1.0, -149); })));
    CHECK_THROWS_MATCHES(seqorder::model::embed_scale_from_name("sqrtD"), std::invalid_argument,
                         Says("embedScale must be a positive finite number or 'sqrtWidth', got 'sqrtD'"));
    CHECK(seqorder::model::embed_scale_from_name("sqrtWidth").sqrt_width);
    // valid edge cases
    CHECK_NOTHROW(Model<float>(with([](Config& c) {
        c.vocab = 1;
        c.width = 1;
        c.heads = 1;
        c.classes = 1;
    })));
    CHECK_NOTHROW(Model<float>(with([](Config& c) {
        c.positions = Positions::learned;
        c.max_length = 1;
        c.layers = 4;
    })));
}

TEST_CASE("model errors: configurations beyond the tensor limit are a length_error, computed without wrapping",
          "[model][errors]") {
    auto too_big = [](const Config& c) {
        REQUIRE_THROWS_MATCHES(Model<float>(c), std::length_error, Says("parameters: at most"));
    };
    too_big(with([](Config& c) { c.vocab = std::int64_t{1} << 30; }));  // 2^33 embedding values
    too_big(with([](Config& c) {
        c.width = std::int64_t{1} << 14;  // 8 D^2 per layer
        c.heads = 1;
    }));
    too_big(with([](Config& c) {
        c.width = std::int64_t{1} << 40;  // D^2 overflows 64 bits: saturated, never wrapped
        c.heads = 1;
    }));
    too_big(with([](Config& c) {
        c.positions = Positions::learned;
        c.max_length = std::numeric_limits<std::int64_t>::max();
    }));
    too_big(with([](Config& c) { c.classes = (std::int64_t{1} << 31) - 1; }));
    // four values per parameter (value, gradient, Adam's two moments) in 1 GiB: 2^25 float64 parameters (a little
    // more, here) are refused, the float32 twin is not; 2^25 float32 parameters of vocab 2^23, width 4, are refused
    // too (2 GiB with their gradients and moments, though the parameters alone are 512 MiB)
    const Config edge = with([](Config& c) {
        c.vocab = (std::int64_t{1} << 25) / 8;
        c.width = 8;
    });
    REQUIRE_THROWS_MATCHES(Model<float>(with([](Config& c) {
                               c.vocab = std::int64_t{1} << 25;
                               c.width = 4;
                           })),
                           std::length_error,
                           Says("make a model of 134217974 parameters: at most 67108864 fit in the 1024 MiB a model "
                                "may hold (four 4-byte values per parameter: its value, its gradient and Adam's two "
                                "moments)"));
    CHECK_THROWS_AS(Model<double>(edge), std::length_error);
    CHECK_NOTHROW(check_config(edge, sizeof(float)));
}

TEST_CASE("model errors: names and seeds from JS values", "[model][errors]") {
    CHECK(positions_from_name("rotary") == Positions::rotary);
    CHECK(readout_from_name("each") == Readout::each);
    CHECK(dtype_from_name("float64") == DType::float64);
    CHECK_THROWS_MATCHES(positions_from_name("absolute"), std::invalid_argument,
                         Says("positions must be 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative', got "
                              "'absolute'"));
    CHECK(positions_from_name("alibi") == Positions::alibi);
    CHECK(positions_from_name("relative") == Positions::relative);
    CHECK_THROWS_MATCHES(readout_from_name("last"), std::invalid_argument, Says("readout must be 'mean'"));
    CHECK_THROWS_MATCHES(dtype_from_name("float16"), std::invalid_argument,
                         Says("dtype must be 'float32' or 'float64', got 'float16'"));
    CHECK(seed_from_number(0) == 0);
    CHECK(seed_from_number(0x1p53) == (std::uint64_t{1} << 53));
    for (double bad : {-1.0, 0.5, 0x1p53 + 2, std::nan(""), HUGE_VAL})
        CHECK_THROWS_MATCHES(seed_from_number(bad), std::invalid_argument, Says("seed must be an integer in 0 .. 2^53"));
}

std::vector<float> forward_of(AnyModel& model, const Tensor<std::int32_t>& ids) {
    const Tensor<float> logits = testing::model_forward<float>(model, ids);
    return {logits.data().begin(), logits.data().end()};
}

TEST_CASE("model errors: every input rule, and the model keeps working afterwards", "[model][errors]") {
    AnyModel any = testing::make_model<float>(with([](Config& c) {
        c.positions = Positions::learned;
        c.max_length = 9;
    }));
    Model<float>& model = testing::net<float>(any);
    const auto ids = random_ids(2, 3, 16, 5);
    const Tensor<std::int32_t> targets(Shape{2}, std::vector<std::int32_t>{1, 0});
    const std::vector<float> expected = forward_of(any, ids);
    const std::vector<float> parameters(model.values().begin(), model.values().end());
    std::vector<float> logits(4), gradients(model.values().size()), weights(1 * 2 * 3 * 3);
    const std::span<const std::int32_t> id_span = ids.data(), target_span = targets.data();

    // 1. shapes and span lengths
    CHECK_THROWS_MATCHES(model.forward(logits, id_span, 0, 6), std::invalid_argument,
                         Says("ids must have shape (B, T) with B >= 1 and T >= 1, got [0, 6]"));
    CHECK_THROWS_MATCHES(model.forward(logits, id_span, 6, 0), std::invalid_argument, Says("got [6, 0]"));
    CHECK_THROWS_MATCHES(model.forward(logits, id_span, 3, 3), std::invalid_argument,
                         Says("ids must hold B * T = 9 values, got 6"));
    CHECK_THROWS_MATCHES(model.forward(std::span<float>(logits).first(3), id_span, 2, 3), std::invalid_argument,
                         Says("logits must hold B * classes = 4 values, got 3"));
    CHECK_THROWS_MATCHES(model.loss(id_span, target_span.first(1), 2, 3), std::invalid_argument,
                         Says("targets must hold B (readout 'mean': one target per sequence) = 2 values, got 1"));
    CHECK_THROWS_MATCHES(model.gradients(std::span<float>(gradients).first(10), id_span, target_span, 2, 3),
                         std::invalid_argument, Says("gradients must hold the parameter count"));
    CHECK_THROWS_MATCHES(model.attention_weights(std::span<float>(weights).first(9), id_span.first(3), 3), std::invalid_argument,
                         Says("weights must hold layers * heads * T * T = 18 values, got 9"));
    for (double lr : {-1.0, std::nan(""), HUGE_VAL})
        CHECK_THROWS_MATCHES(model.step(id_span, target_span, 2, 3, lr), std::invalid_argument,
                             Says("lr must be a finite number >= 0"));
    // 2. the learned table
    const auto long_ids = random_ids(1, 10, 16, 6);
    CHECK_THROWS_MATCHES(testing::model_forward<float>(any, long_ids), std::out_of_range,
                         Says("ids have T = 10 positions, but the learned table has 9 rows (maxLength)"));
    // 4. values
    auto bad_ids = ids;
    bad_ids(1, 2) = 16;
    CHECK_THROWS_MATCHES(testing::model_forward<float>(any, bad_ids), std::out_of_range,
                         Says("ids[1, 2] = 16 is outside 0 .. vocab - 1 = 0 .. 15"));
    bad_ids(1, 2) = -1;
    CHECK_THROWS_MATCHES(testing::model_forward<float>(any, bad_ids), std::out_of_range,
                         Says("ids[1, 2] = -1 is outside"));
    for (std::int32_t bad : {2, -2})
        CHECK_THROWS_MATCHES(
            testing::model_loss(any, ids, Tensor<std::int32_t>(Shape{2}, std::vector<std::int32_t>{0, bad})),
            std::out_of_range,
                             Says("targets[1] = " + std::to_string(bad) +
                                      " is outside -1 .. classes - 1 = -1 .. 1 (-1 ignores a target)"));
    // the package's shapes (model_calls.cpp)
    CHECK_THROWS_MATCHES(testing::model_forward<float>(any, Tensor<std::int32_t>(Shape{3})), std::invalid_argument,
                         Says("ids must have shape (B, T), got [3]"));
    CHECK_THROWS_MATCHES(testing::model_loss(any, ids, Tensor<std::int32_t>(Shape{2, 3})), std::invalid_argument,
                         Says("targets must have shape (B) = [2] for readout 'mean' (one target per sequence), got "
                              "[2, 3]"));
    CHECK_THROWS_MATCHES(testing::model_attention_weights<float>(any, ids), std::invalid_argument,
                         Says("ids must have shape (1, T) or (T): one sequence, got [2, 3]"));

    // positionIds (call_positions.hpp, and the package's shape and dtype)
    const auto rows = [](std::vector<std::int32_t> values, std::size_t B, std::size_t T) {
        return Tensor<std::int32_t>(Shape{B, T}, std::move(values));
    };
    const auto repeated = rows({0, 1, 2, 3, 3, 4}, 2, 3), past = rows({0, 1, 9, 0, 1, 2}, 2, 3),
               negative = rows({-1, 1, 2, 0, 1, 2}, 2, 3), one = rows({1, 2, 3}, 1, 3), column = rows({1, 2, 3}, 3, 1);
    CHECK_THROWS_MATCHES(testing::model_forward<float>(any, ids, &targets), std::invalid_argument,
                         Says("positionIds must have the shape of ids, [2, 3], got [2]"));
    CHECK_THROWS_MATCHES(testing::model_loss(any, ids, targets, &repeated), std::out_of_range,
                         Says("positionIds[1, 1] = 3 is not above the position before it: each row must be "
                              "strictly increasing"));
    CHECK_THROWS_MATCHES(testing::model_step(any, ids, targets, 1e-3, &past), std::out_of_range,
                         Says("positionIds[0, 2] = 9 is outside 0 .. 8 (maxLength - 1: the learned table's rows)"));
    CHECK_THROWS_MATCHES(testing::model_gradients<float>(any, ids, targets, &negative), std::out_of_range,
                         Says("positionIds[0, 0] = -1 is outside"));
    CHECK_THROWS_MATCHES(testing::model_attention_weights<float>(any, one, &column), std::invalid_argument,
                         Says("positionIds must have the shape of ids"));
    const std::vector<std::int32_t> short_rows{0, 1, 2};
    CHECK_THROWS_MATCHES(model.forward(logits, id_span, 2, 3, {short_rows}), std::invalid_argument,
                         Says("positionIds must have the shape of ids, (B, T) = (2, 3), got 3 values"));

    // nothing changed, and it still works
    CHECK(model.steps() == 0);
    for (std::size_t i = 0; i < parameters.size(); ++i) REQUIRE(model.values()[i] == parameters[i]);
    CHECK(forward_of(any, ids) == expected);
}

TEST_CASE("model errors: positionIds on a model without positions, and positions 0 .. T - 1 given", "[model][errors]") {
    AnyModel none = testing::make_model<float>(with([](Config& c) { c.positions = Positions::none; }));
    const auto ids = random_ids(2, 3, 16, 9);
    const Tensor<std::int32_t> plain(Shape{2, 3}, std::vector<std::int32_t>{0, 1, 2, 0, 1, 2});
    CHECK_THROWS_MATCHES(testing::model_forward<float>(none, ids, &plain), std::invalid_argument,
                         Says("positionIds: a model with positions 'none' reads no positions"));
    // positions 0 .. T - 1 given are the default's: the same bits (the same kernels)
    for (Positions p : {Positions::sinusoidal, Positions::learned, Positions::rotary, Positions::alibi,
                        Positions::relative}) {
        AnyModel any = testing::make_model<float>(with([&](Config& c) {
            c.positions = p;
            if (p == Positions::learned) c.max_length = 4;
        }));
        INFO(describe(testing::net<float>(any).config()));
        testing::check_identical<float>("logits at positions 0 .. T - 1 given",
                                        testing::model_forward<float>(any, ids, &plain).data(),
                                        testing::model_forward<float>(any, ids).data());
    }
}

TEST_CASE("model errors: ropeScaling's rules; a refused call changes nothing", "[model][errors]") {
    using seqorder::model::CallPositions;
    using seqorder::model::RopeMethod;
    using seqorder::model::RopeScaling;
    AnyModel any = testing::make_model<float>(with([](Config& c) { c.positions = Positions::rotary; }));
    Model<float>& model = testing::net<float>(any);
    const auto ids = random_ids(2, 3, 16, 9);
    const auto targets = random_targets(model.config(), 2, 3, 8);
    const std::vector<float> parameters(model.values().begin(), model.values().end());
    const auto refused = [&](Model<float>& net, const RopeScaling& s, const std::string& rule) {
        INFO(rule);
        CHECK_THROWS_MATCHES(net.step(ids.data(), targets.data(), 2, 3, 1e-2, CallPositions{{}, s, std::nullopt}), std::out_of_range,
                             Says(rule));
    };
    refused(model, {RopeMethod::unknown, 2, std::nullopt}, "ropeScaling.method must be 'linear', 'ntk' or 'yarn'");
    for (double factor : {0.5, 0.0, -2.0, std::nan(""), HUGE_VAL})
        refused(model, {RopeMethod::linear, factor, std::nullopt}, "ropeScaling.factor must be a finite number >= 1");
    refused(model, {RopeMethod::yarn, 4, std::nullopt}, "ropeScaling.originalLength must be given with method 'yarn'");
    refused(model, {RopeMethod::ntk, 4, 16.0}, "ropeScaling.originalLength is only for method 'yarn'");
    for (double length : {0.0, 2.5, -1.0, HUGE_VAL})
        refused(model, {RopeMethod::yarn, 4, length}, "ropeScaling.originalLength must be an integer >= 1");
    CHECK(model.steps() == 0);
    for (std::size_t i = 0; i < parameters.size(); ++i) REQUIRE(model.values()[i] == parameters[i]);
    AnyModel one_pair = testing::make_model<float>(with([](Config& c) {
        c.positions = Positions::rotary;
        c.rotary_pairs = 1;
    }));
    refused(testing::net<float>(one_pair), {RopeMethod::ntk, 2, std::nullopt}, "ropeScaling.method 'ntk' needs rotaryPairs >= 2");
    AnyModel learned = testing::make_model<float>(with([](Config& c) {
        c.positions = Positions::learned;
        c.max_length = 4;
    }));
    refused(testing::net<float>(learned), {RopeMethod::linear, 2, std::nullopt}, "ropeScaling: the model's positions are not rotary");
    // factor 1 with 'ntk': the base unchanged, the turns per token: the frequencies of the model (b^(-x) against
    // 1 / b^x: within an ulp of the angle), so logits within float32 rounding of the unscaled ones
    const Tensor<float> plain = testing::model_forward<float>(any, ids);
    const Tensor<float> same = testing::model_forward<float>(any, ids, nullptr, testing::Stretch{1, 1, std::nullopt, std::nullopt});
    for (std::size_t i = 0; i < plain.data().size(); ++i) CHECK(std::abs(plain.data()[i] - same.data()[i]) < 1e-5f);
}

TEST_CASE("model errors: a 'each' model wants (B, T) targets", "[model][errors]") {
    AnyModel any = testing::make_model<double>(with([](Config& c) { c.readout = Readout::each; }));
    Model<double>& model = testing::net<double>(any);
    const auto ids = random_ids(2, 3, 16, 7);
    CHECK_THROWS_MATCHES(testing::model_loss(any, ids, Tensor<std::int32_t>(Shape{2})), std::invalid_argument,
                         Says("targets must have shape (B, T) = [2, 3] for readout 'each' (one target per position), "
                              "got [2]"));
    const std::vector<std::int32_t> four(4, 0);
    CHECK_THROWS_MATCHES(model.loss(ids.data(), four, 2, 3), std::invalid_argument,
                         Says("targets must hold B * T (readout 'each': one target per position) = 6 values"));
    auto targets = random_targets(model.config(), 2, 3, 8);
    targets(1, 0) = 5;
    CHECK_THROWS_MATCHES(testing::model_loss(any, ids, targets), std::out_of_range, Says("targets[1, 0] = 5"));
    CHECK(model.logits_shape(2, 3) == Shape{2, 3, 2});
}

TEST_CASE("model errors: a shape whose activations pass the limit is a length_error before any value is read",
          "[model][errors]") {
    Model<float> model(base());
    // (B, T) = [4096, 512]: 2M ids, but attention weights of B H T^2 = 2^31 values
    std::vector<std::int32_t> ids(std::size_t{4096} * 512, 99);  // every id invalid: the size is checked first
    std::vector<float> logits(4096 * 2);
    CHECK_THROWS_MATCHES(model.forward(logits, ids, 4096, 512), std::length_error,
                         Says("ids of shape (B, T) = [4096, 512] need more activations than the 1024 MiB"));
    CHECK_THROWS_MATCHES(model.logits_shape(std::int64_t{1} << 40, 1), std::length_error,
                         Says("logits would need more than the 1024 MiB"));
    Model<float> each(with([](Config& c) { c.readout = Readout::each; }));
    CHECK_THROWS_MATCHES(each.logits_shape(std::int64_t{1} << 40, std::int64_t{1} << 40), std::length_error,
                         Says("logits would need more than the 1024 MiB"));
    CHECK_THROWS_MATCHES(model.logits_shape(0, 3), std::invalid_argument, Says("got [0, 3]"));
}

TEST_CASE("model errors: set_parameters checks every name, shape and size before writing anything",
          "[model][errors]") {
    Model<float> model(base());
    const std::vector<float> before(model.values().begin(), model.values().end());
    const std::vector<float> bias(2, 5.0f), wrong(3, 1.0f), square(64, 1.0f);
    using U = ParameterUpdate<float>;
    auto rejects = [&](std::vector<U> updates, const std::string& words) {
        INFO(words);
        REQUIRE_THROWS_MATCHES(model.set_parameters(updates), std::invalid_argument, Says(words));
        for (std::size_t i = 0; i < before.size(); ++i) REQUIRE(model.values()[i] == before[i]);
    };
    // the first update is valid each time: nothing may be written when a later one is not
    rejects({{"readout.bias", {2}, bias}, {"readout.scale", {2}, bias}},
            "the model has no parameter named 'readout.scale'");
    rejects({{"readout.bias", {2}, bias}, {"readout.bias", {2}, bias}}, "parameter 'readout.bias' is given twice");
    rejects({{"readout.bias", {2}, bias}, {"layers.0.attention.wq", {4, 16}, square}},
            "parameter 'layers.0.attention.wq' has shape [8, 8], got [4, 16]");
    rejects({{"readout.bias", {2}, bias}, {"norm.gain", {8}, wrong}},
            "norm.gain must hold its shape's element count = 8 values, got 3");
    rejects({{"readout.bias", {2}, bias}, {"positions", {9, 8}, square}}, "no parameter named 'positions'");
    CHECK_THROWS_MATCHES(model.parameter("layers.1.mlp.w1"), std::invalid_argument,
                         Says("no parameter named 'layers.1.mlp.w1'"));
    // and a valid call writes exactly what it names
    model.set_parameters(std::vector<U>{{"readout.bias", {2}, bias}});
    const auto& p = model.parameter("readout.bias");
    for (std::size_t i = 0; i < before.size(); ++i)
        REQUIRE(model.values()[i] == (i >= p.offset && i < p.offset + p.size ? 5.0f : before[i]));
}

TEST_CASE("model errors: the order task's arguments", "[model][errors][task]") {
    using seqorder::model::order_task;
    using seqorder::model::order_task_into;
    CHECK_THROWS_MATCHES(order_task(-1, 5, 0, false), std::invalid_argument, Says("count must be a non-negative"));
    CHECK_THROWS_MATCHES(order_task(3, 5, 0, true), std::invalid_argument,
                         Says("count must be even with mirrored: true"));
    CHECK_THROWS_MATCHES(order_task(2, 1, 0, false), std::invalid_argument, Says("length must be at least 2"));
    CHECK_THROWS_MATCHES(order_task(std::int64_t{1} << 20, std::int64_t{1} << 20, 0, false), std::length_error,
                         Says("ids of count * length = 1099511627776 tokens"));
    // a length no sentence can have, even for no sentences
    for (std::int64_t count : {std::int64_t{0}, std::int64_t{2}})
        CHECK_THROWS_MATCHES(order_task(count, (std::int64_t{1} << 53) - 1, 0, false), std::length_error,
                             Says("one sentence of length = 9007199254740991 tokens would need more than the 1024 MiB"));
    std::vector<std::int32_t> ids(10), targets(2);
    CHECK_THROWS_MATCHES(order_task_into(ids, targets, 2, 6, 0, false), std::invalid_argument,
                         Says("ids must hold count * length = 12 values and targets 2, got 10 and 2"));
    CHECK(order_task(0, 5, 0, true).ids.shape() == Shape{0, 5});
}

TEST_CASE("model errors: the lookback task's arguments", "[model][errors][task]") {
    using seqorder::model::lookback_task;
    using seqorder::model::lookback_task_into;
    CHECK_THROWS_MATCHES(lookback_task(-1, 5, 2, 0), std::invalid_argument, Says("count must be a non-negative"));
    CHECK_THROWS_MATCHES(lookback_task(3, 5, 0, 0), std::invalid_argument,
                         Says("back must be at least 1 (the word 1 place back, or more), got 0"));
    CHECK_THROWS_MATCHES(lookback_task(3, 2, 2, 0), std::invalid_argument,
                         Says("length must be greater than back = 2 (a sentence needs a word back places before its "
                              "last), got 2"));
    CHECK_THROWS_MATCHES(lookback_task(std::int64_t{1} << 20, std::int64_t{1} << 20, 2, 0), std::length_error,
                         Says("ids of count * length = 1099511627776 tokens"));
    CHECK_THROWS_MATCHES(lookback_task(0, (std::int64_t{1} << 53) - 1, 2, 0), std::length_error,
                         Says("one sentence of length = 9007199254740991 tokens"));
    std::vector<std::int32_t> ids(12), targets(10);
    CHECK_THROWS_MATCHES(lookback_task_into(ids, targets, 2, 6, 1, 0), std::invalid_argument,
                         Says("ids must hold count * length = 12 values and targets 12, got 12 and 10"));
}

TEST_CASE("model errors: the induction task's arguments", "[model][errors][task]") {
    using seqorder::model::induction_task;
    using seqorder::model::induction_task_into;
    CHECK_THROWS_MATCHES(induction_task(-1, 5, 0), std::invalid_argument, Says("count must be a non-negative"));
    CHECK_THROWS_MATCHES(induction_task(3, 1, 0), std::invalid_argument,
                         Says("length must be at least 2 (a word needs an earlier one to repeat), got 1"));
    CHECK_THROWS_MATCHES(induction_task(std::int64_t{1} << 20, std::int64_t{1} << 20, 0), std::length_error,
                         Says("ids of count * length = 1099511627776 tokens"));
    CHECK_THROWS_MATCHES(induction_task(0, (std::int64_t{1} << 53) - 1, 0), std::length_error,
                         Says("one sentence of length = 9007199254740991 tokens"));
    std::vector<std::int32_t> ids(12), targets(10);
    CHECK_THROWS_MATCHES(induction_task_into(ids, targets, 2, 6, 0), std::invalid_argument,
                         Says("ids must hold count * length = 12 values and targets 12, got 12 and 10"));
}

}  // namespace
