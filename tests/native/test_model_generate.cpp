// Generation with a key/value cache (model/generate.hpp): each token's logits, computed one row at a time from the
// cache, are bit for bit the last row of the forward pass on the whole sequence so far, for every position scheme, in
// float32 (fast kernels) and float64; sampling's rules; and a model restored from a saved state continues training
// as the saved one would have.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "model/generate.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::Decoder;
using seqorder::model::Sampling;
using seqorder::model::SplitMix64;

// A causal next-token model of `positions`, its parameters moved off their initial values by two Adam steps (so the
// relative table and every bias is not 0).
template <class T>
Model<T> trained(Positions positions, std::int64_t max_length, std::int64_t rotary_pairs = 0) {
    Config c = make_config(11, 8, 2, 2, positions, true, Readout::each, 11, 5);
    if (positions == Positions::learned) c.max_length = max_length;
    if (rotary_pairs > 0) c.rotary_pairs = rotary_pairs;
    Model<T> model(c);
    const auto ids = random_ids(3, 10, c.vocab, 7), targets = random_targets(c, 3, 10, 8);
    for (int s = 0; s < 2; ++s) model.step(ids.data(), targets.data(), 3, 10, 3e-2);
    return model;
}

template <class T>
void check_cache_equals_forward(Positions positions, std::size_t length, std::int64_t rotary_pairs = 0) {
    Model<T> model = trained<T>(positions, static_cast<std::int64_t>(length), rotary_pairs);
    const Config& c = model.config();
    INFO(describe(c) << ", dtype " << (sizeof(T) == 4 ? "float32" : "float64") << ", rotaryPairs " << rotary_pairs);
    const auto ids = random_ids(1, length, c.vocab, 11);
    Decoder<T> decoder(c, seqorder::model::view_of<const T>(model.values(), model.parameters(), c), length);
    std::vector<T> logits;
    for (std::size_t t = 0; t < length; ++t) {
        decoder.push(ids.data()[t]);
        const auto T1 = static_cast<std::int64_t>(t + 1);
        logits.resize((t + 1) * static_cast<std::size_t>(c.classes));
        model.forward(logits, ids.data().subspan(0, t + 1), 1, T1);
        const auto last = std::span<const T>(logits).subspan(t * static_cast<std::size_t>(c.classes));
        INFO("position " << t);
        REQUIRE(std::memcmp(decoder.logits().data(), last.data(), last.size() * sizeof(T)) == 0);
    }
}

}  // namespace

TEST_CASE("generate: each token's logits from the cache are the last row of forward, bit for bit", "[model][generate]") {
    for (Positions p : {Positions::none, Positions::sinusoidal, Positions::learned, Positions::rotary,
                        Positions::alibi, Positions::relative}) {
        check_cache_equals_forward<float>(p, 12);
        check_cache_equals_forward<double>(p, 12);
    }
    check_cache_equals_forward<float>(Positions::rotary, 9, 1);  // some pairs pass through
    check_cache_equals_forward<double>(Positions::rotary, 9, 1);
}

TEST_CASE("generate: past the tables' 256-row anchors", "[model][generate]") {
    for (Positions p : {Positions::sinusoidal, Positions::rotary, Positions::relative})
        check_cache_equals_forward<float>(p, 260);
}

TEST_CASE("generate: sampling's rules", "[model][generate]") {
    SplitMix64 random(1);
    const std::vector<double> logits{1, 3, 3, -2};
    CHECK(seqorder::model::sample_next(logits, {.temperature = 0, .top_k = std::nullopt}, random) == 1);  // ties to the lowest id
    // topK 1 always takes the largest, whatever the draw
    for (int i = 0; i < 20; ++i) CHECK(seqorder::model::sample_next(logits, {.temperature = 5, .top_k = 1}, random) == 1);
    // topK 2 never takes ids 0 or 3
    for (int i = 0; i < 50; ++i) {
        const std::int32_t id = seqorder::model::sample_next(logits, {.temperature = 1, .top_k = 2}, random);
        CHECK((id == 1 || id == 2));
    }
    // the frequencies of temperature 1 come near the softmax of the logits
    std::vector<int> counts(4);
    SplitMix64 draws(3);
    for (int i = 0; i < 20000; ++i) counts[static_cast<std::size_t>(seqorder::model::sample_next(logits, {.temperature = 1, .top_k = std::nullopt}, draws))] += 1;
    const double z = std::exp(1.0) + 2 * std::exp(3.0) + std::exp(-2.0);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(std::abs(counts[i] / 20000.0 - std::exp(logits[i]) / z) < 0.015);
}

TEST_CASE("generate: a model restored from its state continues as the saved one", "[model][generate]") {
    for (Positions p : {Positions::learned, Positions::relative}) {
        Model<float> a = trained<float>(p, 10), b(a.config());
        const Config& c = a.config();
        b.restore(a.values(), a.optimizer().first_moment(), a.optimizer().second_moment(), a.steps());
        const auto ids = random_ids(2, 6, c.vocab, 21), targets = random_targets(c, 2, 6, 22);
        for (int s = 0; s < 3; ++s) {
            a.step(ids.data(), targets.data(), 2, 6, 1e-2);
            b.step(ids.data(), targets.data(), 2, 6, 1e-2);
        }
        REQUIRE(std::memcmp(a.values().data(), b.values().data(), a.values().size() * sizeof(float)) == 0);
        REQUIRE(a.steps() == b.steps());
    }
}
