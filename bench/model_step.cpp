// Adam steps of seqorder's model at the benchmark configuration, for bench/model-speed.mjs: vocab 16, width 32,
// 2 heads, 1 layer, sinusoidal positions, float32, batches of 32 sentences of 12 tokens (order_task, 200 batches
// drawn once). The same settings as bench/model_reference.py --time.
//   natively:        model_step [rounds] [steps]   prints, per round, the CPU milliseconds per step
//                    model_step check [steps]      prints the loss of the last of `steps` steps from the start
//                    model_step train [seeds]      trains each setup of the order task from seeds 1..N and prints
//                                                  bench/model_reference.py --train's table, for seqorder
//   in WebAssembly:  model_steps(steps, reference) from JS (the caller keeps the time; a new instance starts over)
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/task.hpp"
#include "model_harness.hpp"

namespace {

using namespace seqorder::model;
using harness::logits_of;
using harness::step_on;

struct Bench {
    Model<float> model;
    std::vector<TaskBatch> batches;
    std::size_t next = 0;
};

Bench& bench() {
    static Bench b = [] {
        Config c;
        c.vocab = 16;
        c.width = 32;
        c.heads = 2;
        c.layers = 1;
        c.positions = Positions::sinusoidal;
        c.seed = 1;
        Bench made{Model<float>(c), {}, 0};
        for (int k = 0; k < 200; ++k) made.batches.push_back(order_task(32, 12, static_cast<std::uint64_t>(1000 + k), false));
        return made;
    }();
    return b;
}

}  // namespace

// `steps` Adam steps (lr 3e-3) over the pre-drawn batches, with the fast kernels or the reference; returns the loss of
// the last step (so nothing can be optimized away, and native and WebAssembly runs can be compared).
extern "C" double model_steps(int steps, int reference) {
    Bench& b = bench();
    b.model.set_kernels(reference ? Kernels::reference : Kernels::fast);
    double loss = 0;
    for (int s = 0; s < steps; ++s) {
        const TaskBatch& batch = b.batches[b.next];
        b.next = (b.next + 1) % b.batches.size();
        loss = step_on(b.model, batch);
    }
    return loss;
}

#ifndef __EMSCRIPTEN__
namespace {

// The training test's schedule (tests/native/test_model_training.cpp): 800 steps, lr 3e-3, step k on
// order_task(32, 8 + k % 9, 1000 + k); accuracy on order_task(512, T, 500 + T, mirrored).
void train_table(int seeds) {
    struct Setup {
        const char* name;
        Positions positions;
        bool causal;
    };
    const Setup setups[] = {{"none, bidirectional", Positions::none, false},
                            {"sinusoidal", Positions::sinusoidal, false},
                            {"learned (16 rows)", Positions::learned, false},
                            {"rotary", Positions::rotary, false},
                            {"none, causal", Positions::none, true}};
    const std::int64_t lengths[] = {8, 12, 16, 24, 32};
    std::printf("| setup | T = 8 | T = 12 | T = 16 | T = 24 | T = 32 |\n|---|---|---|---|---|---|\n");
    for (const Setup& s : setups) {
        std::vector<std::vector<double>> accuracy(std::size(lengths));
        for (int seed = 1; seed <= seeds; ++seed) {
            Config c;
            c.positions = s.positions;
            c.causal = s.causal;
            if (s.positions == Positions::learned) c.max_length = 16;
            c.seed = static_cast<std::uint64_t>(seed);
            Model<float> model(c);
            for (std::int64_t k = 0; k < 800; ++k) {
                const TaskBatch batch = order_task(32, 8 + k % 9, static_cast<std::uint64_t>(1000 + k), false);
                step_on(model, batch);
            }
            for (std::size_t i = 0; i < std::size(lengths); ++i) {
                if (c.max_length && lengths[i] > *c.max_length) continue;
                const TaskBatch test = order_task(512, lengths[i], static_cast<std::uint64_t>(500 + lengths[i]), true);
                const auto logits = logits_of(model, test.ids);
                accuracy[i].push_back(score<float>(logits, test.targets.data(), 2).fraction());
            }
        }
        std::printf("| %s |", s.name);
        for (const auto& a : accuracy) {
            if (a.empty()) {
                std::printf(" — |");
                continue;
            }
            double sum = 0, low = 1, high = 0;
            for (double x : a) sum += x, low = std::min(low, x), high = std::max(high, x);
            std::printf(" %.1f%% [%.1f, %.1f] |", 100 * sum / static_cast<double>(a.size()), 100 * low, 100 * high);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "train") {
        train_table(argc > 2 ? std::atoi(argv[2]) : 3);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "check") {
        std::printf("%.9g\n", model_steps(argc > 2 ? std::atoi(argv[2]) : 300, 0));
        return 0;
    }
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 7, steps = argc > 2 ? std::atoi(argv[2]) : 200;
    model_steps(20, 0);  // warm-up
    for (int r = 0; r < rounds; ++r) {
        const std::clock_t start = std::clock();
        model_steps(steps, 0);
        std::printf("%.4f\n", 1e3 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / steps);
    }
}
#endif
