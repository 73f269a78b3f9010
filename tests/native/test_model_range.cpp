// Randomized positions (a call's positionRange, docs/model.md "Randomized positions"): with L = T a run gives the bits
// of the same run without the option, for every scheme that reads positions; the training and evaluation streams are
// separate; a saved model continues its streams; every rule refused with its message and nothing changed. (The draws
// themselves, and calls at the positions drawn, against the numpy port: test_model_fixtures.cpp.)
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compare.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::CallPositions;
using seqorder::model::TrainBatch;

template <class T>
bool same_values(Model<T>& a, Model<T>& b) {
    return std::memcmp(a.values().data(), b.values().data(), a.values().size_bytes()) == 0;
}

Config config_of(Positions p) {
    Config c = make_config(16, 8, 2, 1, p, p == Positions::rotary, Readout::mean, 2, 5);
    if (p == Positions::relative) {
        c.buckets = 8;
        c.max_distance = 5;
    }
    return c;
}

constexpr Positions kSchemes[] = {Positions::sinusoidal, Positions::learned, Positions::rotary, Positions::alibi,
                                  Positions::relative};

TEST_CASE("model range: positionRange = T gives the bits of the same run without it, every scheme", "[model][range]") {
    for (Positions p : kSchemes) {
        const Config c = config_of(p);
        INFO(describe(c));
        AnyModel drawn_any = testing::make_model<float>(c), plain_any = testing::make_model<float>(c);
        Model<float>& drawn = testing::net<float>(drawn_any);
        Model<float>& plain = testing::net<float>(plain_any);
        const auto ids = random_ids(4, 6, 16, 1), other = random_ids(3, 6, 16, 2);
        const auto targets = random_targets(c, 4, 6, 3), other_targets = random_targets(c, 3, 6, 4);
        for (int k = 0; k < 2; ++k)
            CHECK(testing::model_step(drawn_any, ids, targets, 1e-2, nullptr, testing::with_range(6.0)) ==
                  testing::model_step(plain_any, ids, targets, 1e-2));
        const CallPositions six{{}, std::nullopt, 6.0};
        const std::vector<TrainBatch> with{{ids.data(), targets.data(), 4, 6, six},
                                           {other.data(), other_targets.data(), 3, 6, six}};
        const std::vector<TrainBatch> without{{ids.data(), targets.data(), 4, 6, {}},
                                              {other.data(), other_targets.data(), 3, 6, {}}};
        std::array<double, 2> a{}, b{};
        drawn.train(a, with, 1e-2);
        plain.train(b, without, 1e-2);
        CHECK(a == b);
        CHECK(same_values(drawn, plain));
        testing::check_identical<float>("logits with positionRange = T",
                                        testing::model_forward<float>(drawn_any, ids, nullptr, testing::with_range(6.0)).data(),
                                        testing::model_forward<float>(plain_any, ids).data());
        // the draws moved the streams (4 + 4 + 3 rows of 6 calls each), and only them
        CHECK(drawn.position_streams() != plain.position_streams());
    }
}

TEST_CASE("model range: evaluation draws leave the training stream; a saved model continues both", "[model][range]") {
    namespace calls = seqorder::calls;
    const Config c = config_of(Positions::rotary);
    calls::ModelTable table;
    const double a = table.create(testing::model_args<float>(c)).model, b = table.create(testing::model_args<float>(c)).model;
    const auto ids = random_ids(4, 6, 16, 1);
    const auto targets = random_targets(c, 4, 6, 3);
    const testing::Stretch range = testing::with_range(40.0);
    testing::model_step(table.at(a), ids, targets, 1e-2, nullptr, range);
    testing::model_step(table.at(b), ids, targets, 1e-2, nullptr, range);
    // forward, loss, gradients and attention weights on a draw from the evaluation stream; b's training is a's
    const auto first = testing::model_forward<float>(table.at(a), ids, nullptr, range);
    testing::model_loss(table.at(a), ids, targets, nullptr, range);
    testing::model_gradients<float>(table.at(a), ids, targets, nullptr, range);
    const Tensor<std::int32_t> one(Shape{1, 6}, std::vector<std::int32_t>(ids.data().begin(), ids.data().begin() + 6));
    testing::model_attention_weights<float>(table.at(a), one, nullptr, range);
    CHECK(testing::net<float>(table.at(a)).position_streams()[0] == testing::net<float>(table.at(b)).position_streams()[0]);
    CHECK(testing::net<float>(table.at(a)).position_streams()[1] != testing::net<float>(table.at(b)).position_streams()[1]);
    // each evaluation call draws anew
    CHECK(testing::model_forward<float>(table.at(a), ids, nullptr, range).data()[0] != first.data()[0]);
    // saved and loaded: the same streams, the same next steps and evaluations, bit for bit
    const std::vector<calls::Result> saved = calls::model_save(table.at(a));
    REQUIRE(saved.size() == 5);
    const auto parameters = testing::tensor<float>(saved[0]), m = testing::tensor<float>(saved[1]),
               v = testing::tensor<float>(saved[2]);
    const auto streams = testing::tensor<std::int32_t>(saved[4]);
    const double loaded = table
                              .load({testing::model_args<float>(c), testing::arg(parameters), testing::arg(m),
                                     testing::arg(v), testing::scalar(saved[3]), testing::arg(streams)})
                              .model;
    CHECK(testing::net<float>(table.at(loaded)).position_streams() == testing::net<float>(table.at(a)).position_streams());
    for (int k = 0; k < 2; ++k) {
        CHECK(testing::model_step(table.at(loaded), ids, targets, 1e-2, nullptr, range) ==
              testing::model_step(table.at(a), ids, targets, 1e-2, nullptr, range));
        testing::check_identical<float>("logits after the load",
                                        testing::model_forward<float>(table.at(loaded), ids, nullptr, range).data(),
                                        testing::model_forward<float>(table.at(a), ids, nullptr, range).data());
    }
    CHECK(same_values(testing::net<float>(table.at(loaded)), testing::net<float>(table.at(a))));
    // a state saved without streams (before they existed): they start where a new model's do
    const double older = table
                             .load({testing::model_args<float>(c), testing::arg(parameters), testing::arg(m),
                                    testing::arg(v), testing::scalar(saved[3]), std::nullopt})
                             .model;
    const double fresh = table.create(testing::model_args<float>(c)).model;
    CHECK(testing::net<float>(table.at(older)).position_streams() ==
          testing::net<float>(table.at(fresh)).position_streams());
    // streams of another shape or dtype: refused, no model kept
    const std::size_t models = table.size();
    const Tensor<std::int32_t> three(Shape{3}, std::vector<std::int32_t>{1, 2, 3});
    CHECK_THROWS_MATCHES(table.load({testing::model_args<float>(c), testing::arg(parameters), testing::arg(m),
                                     testing::arg(v), testing::scalar(saved[3]), testing::arg(three)}),
                         std::invalid_argument, Says("streams must hold the 4 int32 words of the two position streams"));
    CHECK(table.size() == models);
}

TEST_CASE("model range: positionRange's rules; a refused call changes nothing", "[model][range][errors]") {
    AnyModel any = testing::make_model<float>(config_of(Positions::learned));  // maxLength 9
    AnyModel twin = testing::make_model<float>(config_of(Positions::learned));
    Model<float>& model = testing::net<float>(any);
    const auto ids = random_ids(2, 6, 16, 1);
    const auto targets = random_targets(model.config(), 2, 6, 2);
    testing::model_step(any, ids, targets, 1e-2, nullptr, testing::with_range(9.0));
    testing::model_step(twin, ids, targets, 1e-2, nullptr, testing::with_range(9.0));
    const std::vector<float> values(model.values().begin(), model.values().end());
    const auto streams = model.position_streams();
    const auto refused = [&](double range, const std::string& rule) {
        INFO(rule);
        CHECK_THROWS_MATCHES(testing::model_step(any, ids, targets, 1e-2, nullptr, testing::with_range(range)),
                             std::out_of_range, Says(rule));
        CHECK_THROWS_MATCHES(testing::model_forward<float>(any, ids, nullptr, testing::with_range(range)),
                             std::out_of_range, Says(rule));
    };
    for (double range : {5.0, 6.5, 10.0, -1.0, std::nan(""), HUGE_VAL})
        refused(range, "positionRange must be an integer from T (the sentences' length) to maxLength");
    const Tensor<std::int32_t> given(Shape{2, 6}, std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6});
    CHECK_THROWS_MATCHES(testing::model_step(any, ids, targets, 1e-2, &given, testing::with_range(9.0)),
                         std::out_of_range, Says("positionRange and positionIds cannot be given together"));
    // train: every batch's length, the batch named
    const auto longer = random_ids(1, 8, 16, 3);
    const auto longer_targets = random_targets(model.config(), 1, 8, 4);
    const CallPositions seven{{}, std::nullopt, 7.0};
    const std::vector<TrainBatch> batches{{ids.data(), targets.data(), 2, 6, seven},
                                          {longer.data(), longer_targets.data(), 1, 8, seven}};
    std::array<double, 2> losses{};
    CHECK_THROWS_MATCHES(model.train(losses, batches, 1e-2), std::out_of_range,
                         Says("batches[1]: positionRange must be an integer from T (the sentences' length) to maxLength"));
    CHECK(model.steps() == 1);
    CHECK(model.position_streams() == streams);
    REQUIRE(std::memcmp(model.values().data(), values.data(), values.size() * sizeof(float)) == 0);
    // and it draws on as its twin, which saw none of these calls
    CHECK(testing::model_step(any, ids, targets, 1e-2, nullptr, testing::with_range(9.0)) ==
          testing::model_step(twin, ids, targets, 1e-2, nullptr, testing::with_range(9.0)));
    CHECK(same_values(model, testing::net<float>(twin)));
    // other models: none reads no positions; the largest range is 2^31
    AnyModel none = testing::make_model<float>(config_of(Positions::none));
    CHECK_THROWS_MATCHES(testing::model_forward<float>(none, ids, nullptr, testing::with_range(9.0)),
                         std::out_of_range, Says("positionRange: a model with positions 'none' reads no positions"));
    AnyModel rotary = testing::make_model<float>(config_of(Positions::rotary));
    CHECK_THROWS_MATCHES(testing::model_forward<float>(rotary, ids, nullptr, testing::with_range(0x1p31 + 1)),
                         std::out_of_range,
                         Says("positionRange must be an integer from T (the sentences' length) to 2^31"));
    testing::model_forward<float>(rotary, ids, nullptr, testing::with_range(0x1p31));
}

}  // namespace
