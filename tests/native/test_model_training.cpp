// Training on the order task: what each kind of positions lets a model learn. Width 32, 2 heads, 1 layer, float32,
// 800 Adam steps at lr 3e-3 on batches of 32 sentences; step k trains on order_task(32, 8 + k % 9, seed 1000 + k), so
// lengths 8..16 take turns; accuracy at length T is measured on order_task(512, T, seed 500 + T, mirrored): 256
// sentence-mirror pairs. bench/model_reference.py trains the same architecture from the same initial parameters on the
// same sentences in PyTorch; its figures (seeds 1..3, mean [min, max]):
//   none, bidirectional   50.0% at every length
//   sinusoidal            T = 8: 99.8% [99.4, 100], T = 16: 97.4% [96.3, 98.8], T = 32: 61.7% (it does not extrapolate)
//   learned, 16 rows      T = 8: 100%, T = 16: 99.7% [99.4, 100] (T > 16: an error, not a guess)
//   rotary                T = 16: 99.9% [99.8, 100], T = 32: 97.3% [95.9, 98.6]
//   none, causal          100% at every length (the mask itself carries order)
// Training is chaotic: float32 rounding differences (PyTorch's and ours agree to 1e-7 for the first steps, then
// drift) lead to different final models, whose accuracies spread like those of different seeds (here, seed 1:
// sinusoidal 98.8 / 95.1 / 92.6% at T = 8 / 12 / 16, rotary 82.8% at 32). So the assertions keep to what must hold:
// exactly 50% for the model that cannot see order (a sentence and its mirror hold the same words, so its two logits
// agree to rounding and it scores exactly one of each pair), at least 90% at T = 8 and 12 and 90 or 95% at 16 for the
// others, and for the causal model 95% at the untrained lengths 24 and 32 too.
// SEQORDER_REPORT_ERRORS=1 prints the figures.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>

#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::order_task;
using seqorder::model::score;

Config setup_config(Positions positions, bool causal) {
    Config c = make_config(16, 32, 2, 1, positions, causal, Readout::mean, 2, 1);
    c.max_length.reset();
    if (positions == Positions::learned) c.max_length = 16;
    return c;
}

void train(AnyModel& model) {
    for (std::int64_t k = 0; k < 800; ++k) {
        const auto batch = order_task(32, 8 + k % 9, static_cast<std::uint64_t>(1000 + k), false);
        testing::model_step(model, batch.ids, batch.targets, 3e-3);
    }
}

// Accuracy on 256 sentence-mirror pairs of length T, and the largest difference between a sentence's logits and its
// mirror's.
struct Evaluation {
    double accuracy;
    double mirror_difference;
};

Evaluation evaluate(AnyModel& model, std::int64_t T) {
    const auto batch = order_task(512, T, static_cast<std::uint64_t>(500 + T), true);
    const Tensor<float> logits = testing::model_forward<float>(model, batch.ids);
    double difference = 0;
    for (std::size_t s = 0; s < 512; s += 2)
        for (std::size_t k = 0; k < 2; ++k)
            difference = std::max(difference, static_cast<double>(std::abs(logits(s, k) - logits(s + 1, k))));
    return {score<float>(logits.data(), batch.targets.data(), 2).fraction(), difference};
}

void report(const std::string& name, std::int64_t T, const Evaluation& e) {
    static const bool enabled = std::getenv("SEQORDER_REPORT_ERRORS") != nullptr;
    if (enabled)
        std::cout << "training " << std::left << std::setw(22) << name << " T = " << std::setw(3) << T << " accuracy "
                  << std::fixed << std::setprecision(1) << 100 * e.accuracy << "%, mirror logits differ by "
                  << std::scientific << std::setprecision(1) << e.mirror_difference << std::defaultfloat << "\n";
}

TEST_CASE("model training: without positions a bidirectional model scores exactly 50% on mirrored pairs",
          "[model][training]") {
    AnyModel model = testing::make_model<float>(setup_config(Positions::none, false));
    train(model);
    for (std::int64_t T : {8, 12, 16, 24, 32}) {
        const Evaluation e = evaluate(model, T);
        report("none, bidirectional", T, e);
        INFO("T = " << T);
        CHECK(e.accuracy == 0.5);
        CHECK(e.mirror_difference <= 1e-5);
    }
}

// Trains a model with these positions and checks its accuracy: at least `trained` at T = 8 and 12, `at_16` at T = 16,
// `beyond` at T = 24 and 32 (0: no claim); a learned table refuses T past its rows.
void check_learns(const std::string& name, Positions positions, bool causal, double at_16, double beyond) {
    const Config c = setup_config(positions, causal);
    AnyModel model = testing::make_model<float>(c);
    train(model);
    for (std::int64_t T : {8, 12, 16, 24, 32}) {
        INFO(name << ", T = " << T);
        if (c.max_length && T > *c.max_length) {
            CHECK_THROWS_AS(evaluate(model, T), std::out_of_range);
            continue;
        }
        const Evaluation e = evaluate(model, T);
        report(name, T, e);
        CHECK(e.accuracy >= (T < 16 ? 0.9 : T == 16 ? at_16 : beyond));
    }
}

TEST_CASE("model training: sinusoidal positions let the model learn the order", "[model][training]") {
    check_learns("sinusoidal", Positions::sinusoidal, false, 0.9, 0.0);
}

TEST_CASE("model training: learned positions let the model learn the order within their rows", "[model][training]") {
    check_learns("learned (16 rows)", Positions::learned, false, 0.95, 0.0);
}

TEST_CASE("model training: rotary positions let the model learn the order", "[model][training]") {
    check_learns("rotary", Positions::rotary, false, 0.95, 0.0);
}

TEST_CASE("model training: a causal mask alone lets the model learn the order", "[model][training]") {
    check_learns("none, causal", Positions::none, true, 0.95, 0.95);
}

}  // namespace
