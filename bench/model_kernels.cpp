// The float32 fast kernels of a training step, each timed alone at the shapes a model's step calls it with, for
// bench/model-kernels.mjs: the lab model (batch 32, T = 12, width 32, 2 heads) and 2 layers of width 64 at T = 32.
// Prints one line per kernel: its name, the model, microseconds per call (the fastest of 7 rounds) and, for the
// products, GFLOP/s (2 multiply-adds' flops each; attention's four products, forward, and four, backward).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "model/steps_fast.hpp"

namespace {

using namespace seqorder::model;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Microseconds per call of f: the fastest of 7 rounds of `calls` calls.
template <class F>
double micros(F f, int calls) {
    double best = 1e30;
    for (int round = 0; round < 7; ++round) {
        const double start = now();
        for (int i = 0; i < calls; ++i) f();
        best = std::min(best, (now() - start) / calls);
    }
    return best * 1e6;
}

std::mt19937 generator(1);

std::vector<float> values(std::size_t n) {
    std::normal_distribution<float> normal(0, 1);
    std::vector<float> v(n);
    for (float& x : v) x = normal(generator);
    return v;
}

// Set while the kernels are called once before the rounds that count: a wasm engine runs a new function in its
// baseline tier until its optimizing compile is done (in node, the first kernel timed read half its speed without it).
bool warming_up = false;

void report(const char* kernel, const char* model, double us, double flops) {
    if (warming_up) return;
    if (flops > 0) std::printf("%s\t%s\t%.2f\t%.1f\n", kernel, model, us, flops / us / 1e3);
    else std::printf("%s\t%s\t%.2f\t\n", kernel, model, us);
}

void time_model(const char* model, std::size_t B, std::size_t T, std::size_t D, std::size_t H) {
    const std::size_t N = B * T, hd = D / H;
    std::vector<float> workspace;
    const int calls = static_cast<int>(std::max<std::size_t>(20, 4'000'000 / (N * D)));
    // the products of a block: q, k, v and the output (D -> D), the MLP (D -> 4D, 4D -> D)
    struct Product {
        const char* name;
        std::size_t C, OC;
    };
    for (const Product& product : {Product{"product D -> D", D, D}, Product{"product D -> 4D", D, 4 * D},
                                   Product{"product 4D -> D", 4 * D, D}}) {
        const std::size_t C = product.C, OC = product.OC;
        const std::string name = product.name;
        auto x = values(N * C), w = values(C * OC), b = values(OC), y = values(N * OC), dx = values(N * C),
             dw = values(C * OC), db = values(OC), dy = values(N * OC);
        const double flops = 2.0 * N * C * OC;
        report((name + ", forward").c_str(), model,
               micros([&] { fast::matmul_forward(y.data(), x.data(), w.data(), b.data(), N, C, OC); }, calls), flops);
        report((name + ", backward (dinp, dweight, dbias)").c_str(), model,
               micros([&] { fast::matmul_backward(dx.data(), dw.data(), db.data(), dy.data(), x.data(), w.data(), N, C,
                                                  OC, workspace); }, calls), 2 * flops);
    }
    {
        auto x = values(N * D), out = values(N * D), mean = values(N), rstd = values(N), gain = values(D),
             bias = values(D), dx = values(N * D), dgain = values(D), dbias = values(D), dout = values(N * D);
        report("LayerNorm, forward", model, micros([&] {
            fast::layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), N, D);
        }, calls), 0);
        report("LayerNorm, backward", model, micros([&] {
            fast::layernorm_backward(dx.data(), dgain.data(), dbias.data(), dout.data(), x.data(), gain.data(),
                                     mean.data(), rstd.data(), N, D);
        }, calls), 0);
        // (a model with rotary positions only: the others keep the heads side by side)
        report("heads split (rotary)", model,
               micros([&] { fast::split_heads(out.data(), x.data(), B, T, H, hd); }, calls), 0);
        report("heads merged (rotary)", model,
               micros([&] { fast::merge_heads(out.data(), x.data(), B, T, H, hd); }, calls), 0);
    }
    {
        const std::size_t BH = B * H;
        auto q = values(N * D), k = values(N * D), v = values(N * D), out = values(N * D), w = values(BH * T * T),
             dq = values(N * D), dk = values(N * D), dv = values(N * D), dout = values(N * D);
        const double flops = 4.0 * BH * T * T * hd;
        report("attention, forward", model, micros([&] {
            fast::attention_forward(out.data(), w.data(), q.data(), k.data(), v.data(), BH, T, hd, false, workspace,
                                    nullptr, 1, 1.0, {H});
        }, calls), flops);
        report("attention, backward", model, micros([&] {
            fast::attention_backward(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(), v.data(),
                                     w.data(), BH, T, hd, false, workspace, nullptr, 1.0, {H});
        }, calls), 2 * flops);
    }
}

}  // namespace

int main() {
    warming_up = true;
    time_model("the lab model", 32, 12, 32, 2);
    warming_up = false;
    time_model("the lab model", 32, 12, 32, 2);
    time_model("2 layers, width 64, T = 32", 32, 32, 64, 2);
}
