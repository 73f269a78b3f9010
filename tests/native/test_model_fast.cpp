// The fast float32 kernels (steps_fast.hpp) against the reference steps (steps.hpp), bit for bit: each step alone over
// sizes that exercise every edge of the 4 x 8 tiling (and of LayerNorm's four rows at a time) (rows and columns below, at and past multiples of 4 and 8), the step after a product fused into it, and
// whole models (forward, gradients, a few Adam steps) over a sweep of configurations and shapes. Natively the vector
// type is four plain floats, so this runs the same tiling as the WebAssembly module.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compare.hpp"
#include "model/steps.hpp"
#include "model/steps_fast.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::Kernels;
namespace reference = seqorder::model;
namespace fast = seqorder::model::fast;

std::vector<float> random_floats(std::size_t n, std::mt19937& g) {
    std::normal_distribution<float> normal(0, 1);
    std::vector<float> x(n);
    for (float& e : x) e = normal(g);
    return x;
}

const std::size_t kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 33};

TEST_CASE("model fast kernels: matmul forward and backward give the reference's bits", "[model][fast]") {
    std::mt19937 g(1);
    for (std::size_t N : {1, 3, 4, 6, 12, 37})
        for (std::size_t C : kSizes)
            for (std::size_t OC : kSizes) {
                INFO("N " << N << ", C " << C << ", OC " << OC);
                const auto inp = random_floats(N * C, g), weight = random_floats(C * OC, g),
                           bias = random_floats(OC, g), dout = random_floats(N * OC, g);
                std::vector<float> want(N * OC), got(N * OC);
                for (const float* b : {bias.data(), static_cast<const float*>(nullptr)}) {
                    reference::matmul_forward<float>(want.data(), inp.data(), weight.data(), b, N, C, OC);
                    fast::matmul_forward(got.data(), inp.data(), weight.data(), b, N, C, OC);
                    testing::check_identical<float>("matmul forward", got, want);
                }
                std::vector<float> dinp(N * C), dweight(C * OC), dbias(OC), workspace;
                std::vector<float> dinp2(N * C), dweight2(C * OC), dbias2(OC);
                reference::matmul_backward<float>(dinp.data(), dweight.data(), dbias.data(), dout.data(), inp.data(),
                                                  weight.data(), N, C, OC);
                fast::matmul_backward(dinp2.data(), dweight2.data(), dbias2.data(), dout.data(), inp.data(),
                                      weight.data(), N, C, OC, workspace);
                testing::check_identical<float>("matmul dinp", dinp2, dinp);
                testing::check_identical<float>("matmul dweight", dweight2, dweight);
                testing::check_identical<float>("matmul dbias", dbias2, dbias);
            }
}

// The reference's step `then` after a product, on out (n elements): what the fast kernels fuse into the product.
void then_reference(fast::Then then, float* out, const float* other, const float* product, std::size_t n) {
    switch (then) {
        case fast::Then::store: std::copy(product, product + n, out); break;
        case fast::Then::relu: reference::relu_forward<float>(out, product, n); break;
        case fast::Then::add: reference::add<float>(out, other, product, n); break;
        case fast::Then::accumulate: reference::add<float>(out, out, product, n); break;
        case fast::Then::relu_mask: reference::relu_backward<float>(out, product, other, n); break;
    }
}

// Values for `other` and for what an output holds before it is accumulated into: normal, with zeros of both signs,
// NaN and infinities planted (a ReLU's output of 0 or NaN, a residual of infinity: the fused step must treat them as
// the reference does).
std::vector<float> planted(std::size_t n, std::mt19937& g) {
    auto x = random_floats(n, g);
    const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
    for (std::size_t i = 0; i < n; i += 3) x[i] = specials[(i / 3) % 5];
    return x;
}

TEST_CASE("model fast kernels: the step after a product, fused into it, gives the reference's bits", "[model][fast]") {
    std::mt19937 g(4);
    const fast::Then thens[] = {fast::Then::store, fast::Then::relu, fast::Then::add, fast::Then::accumulate,
                                fast::Then::relu_mask};
    for (std::size_t N : {1, 4, 6, 13})
        for (std::size_t C : {1, 3, 8, 12})
            for (std::size_t OC : {1, 4, 5, 8, 9, 16, 17})
                for (const fast::Then then : thens) {
                    INFO("N " << N << ", C " << C << ", OC " << OC << ", then " << static_cast<int>(then));
                    const auto inp = random_floats(N * C, g), weight = random_floats(C * OC, g),
                               bias = random_floats(OC, g), dout = random_floats(N * OC, g);
                    // forward: out (N, OC), other (N, OC)
                    const auto other = planted(N * OC, g), before = planted(N * OC, g);
                    std::vector<float> product(N * OC), want = before, got = before;
                    reference::matmul_forward<float>(product.data(), inp.data(), weight.data(), bias.data(), N, C, OC);
                    then_reference(then, want.data(), other.data(), product.data(), N * OC);
                    fast::matmul_forward(got.data(), inp.data(), weight.data(), bias.data(), N, C, OC, then,
                                         other.data());
                    testing::check_identical<float>("matmul forward, then", got, want);
                    // backward: dinp (N, C), other (N, C)
                    const auto dinp_other = planted(N * C, g), dinp_before = planted(N * C, g);
                    std::vector<float> dproduct(N * C), dweight(C * OC), dbias(OC), dweight2(C * OC), dbias2(OC),
                        workspace;
                    std::vector<float> dwant = dinp_before, dgot = dinp_before;
                    reference::matmul_backward<float>(dproduct.data(), dweight.data(), dbias.data(), dout.data(),
                                                      inp.data(), weight.data(), N, C, OC);
                    then_reference(then, dwant.data(), dinp_other.data(), dproduct.data(), N * C);
                    fast::matmul_backward(dgot.data(), dweight2.data(), dbias2.data(), dout.data(), inp.data(),
                                          weight.data(), N, C, OC, workspace, then, dinp_other.data());
                    testing::check_identical<float>("matmul dinp, then", dgot, dwant);
                    testing::check_identical<float>("matmul dweight", dweight2, dweight);
                    testing::check_identical<float>("matmul dbias", dbias2, dbias);
                }
}

TEST_CASE("model fast kernels: sums past 256 terms, taken in blocks, give the reference's bits", "[model][fast]") {
    // K (C forward, OC for dinp, N for dweight) past 2 x 128, not a multiple of 128: the last block short
    std::mt19937 g(5);
    const fast::Then thens[] = {fast::Then::store, fast::Then::relu, fast::Then::add, fast::Then::accumulate,
                                fast::Then::relu_mask};
    const std::size_t shapes[][3] = {{300, 5, 9}, {385, 12, 1}, {6, 300, 9}, {5, 517, 8}, {7, 8, 260}};
    for (const auto& [N, C, OC] : shapes)
        for (const fast::Then then : thens) {
            INFO("N " << N << ", C " << C << ", OC " << OC << ", then " << static_cast<int>(then));
            const auto inp = random_floats(N * C, g), weight = random_floats(C * OC, g), bias = random_floats(OC, g),
                       dout = random_floats(N * OC, g), other = planted(N * OC, g), dinp_other = planted(N * C, g);
            const auto before = planted(N * OC, g), dinp_before = planted(N * C, g);
            std::vector<float> product(N * OC), want = before, got = before;
            reference::matmul_forward<float>(product.data(), inp.data(), weight.data(), bias.data(), N, C, OC);
            then_reference(then, want.data(), other.data(), product.data(), N * OC);
            fast::matmul_forward(got.data(), inp.data(), weight.data(), bias.data(), N, C, OC, then, other.data());
            testing::check_identical<float>("matmul forward, then", got, want);
            std::vector<float> dproduct(N * C), dwant = dinp_before, dgot = dinp_before, dweight(C * OC), dbias(OC),
                dweight2(C * OC), dbias2(OC), workspace;
            reference::matmul_backward<float>(dproduct.data(), dweight.data(), dbias.data(), dout.data(), inp.data(),
                                              weight.data(), N, C, OC);
            then_reference(then, dwant.data(), dinp_other.data(), dproduct.data(), N * C);
            fast::matmul_backward(dgot.data(), dweight2.data(), dbias2.data(), dout.data(), inp.data(), weight.data(),
                                  N, C, OC, workspace, then, dinp_other.data());
            testing::check_identical<float>("matmul dinp, then", dgot, dwant);
            testing::check_identical<float>("matmul dweight", dweight2, dweight);
            testing::check_identical<float>("matmul dbias", dbias2, dbias);
        }
}

TEST_CASE("model fast kernels: LayerNorm forward and backward give the reference's bits", "[model][fast]") {
    std::mt19937 g(3);
    for (std::size_t N : {1, 3, 4, 5, 8, 13, 37})
        for (std::size_t D : {1, 2, 3, 4, 6, 8, 12, 16, 32, 36}) {
            INFO("N " << N << ", D " << D);
            auto inp = random_floats(N * D, g);
            if (N > 2) for (std::size_t d = 0; d < D; ++d) inp[2 * D + d] = 3.5f;  // a constant row: variance 0
            const auto gain = random_floats(D, g), bias = random_floats(D, g), dout = random_floats(N * D, g);
            std::vector<float> out(N * D), mean(N), rstd(N), out2(N * D), mean2(N), rstd2(N);
            reference::layernorm_forward<float>(out.data(), mean.data(), rstd.data(), inp.data(), gain.data(),
                                                bias.data(), N, D);
            fast::layernorm_forward(out2.data(), mean2.data(), rstd2.data(), inp.data(), gain.data(), bias.data(), N, D);
            testing::check_identical<float>("layernorm out", out2, out);
            testing::check_identical<float>("layernorm mean", mean2, mean);
            testing::check_identical<float>("layernorm rstd", rstd2, rstd);
            std::vector<float> dinp(N * D), dgain(D, 9.0f), dbias(D, 9.0f), dinp2(N * D), dgain2(D, -9.0f),
                dbias2(D, -9.0f);
            reference::layernorm_backward<float>(dinp.data(), dgain.data(), dbias.data(), dout.data(), inp.data(),
                                                 gain.data(), mean.data(), rstd.data(), N, D);
            fast::layernorm_backward(dinp2.data(), dgain2.data(), dbias2.data(), dout.data(), inp.data(), gain.data(),
                                     mean.data(), rstd.data(), N, D);
            testing::check_identical<float>("layernorm dinp", dinp2, dinp);
            testing::check_identical<float>("layernorm dgain", dgain2, dgain);
            testing::check_identical<float>("layernorm dbias", dbias2, dbias);
            // accumulate: dinp added to what dinp holds, as add(dinp, dinp, the reference's dinp)
            const auto held = planted(N * D, g);
            std::vector<float> added = held, accumulated = held;
            reference::add<float>(added.data(), added.data(), dinp.data(), N * D);
            fast::layernorm_backward(accumulated.data(), dgain2.data(), dbias2.data(), dout.data(), inp.data(),
                                     gain.data(), mean.data(), rstd.data(), N, D, true);
            testing::check_identical<float>("layernorm dinp, accumulated", accumulated, added);
            testing::check_identical<float>("layernorm dgain (accumulating)", dgain2, dgain);
        }
}

TEST_CASE("model fast kernels: the readout's mean over t, forward and backward, as the reference", "[model][fast]") {
    std::mt19937 g(6);
    for (std::size_t B : {1, 3})
        for (std::size_t T : {1, 5, 12})
            for (std::size_t D : {1, 3, 4, 8, 12, 32}) {
                INFO("B " << B << ", T " << T << ", D " << D);
                const auto x = random_floats(B * T * D, g), dout = random_floats(B * D, g);
                std::vector<float> want(B * D), got(B * D), dwant(B * T * D), dgot(B * T * D);
                reference::mean_forward<float>(want.data(), x.data(), B, T, D);
                fast::mean_forward(got.data(), x.data(), B, T, D);
                testing::check_identical<float>("mean", got, want);
                reference::mean_backward<float>(dwant.data(), dout.data(), B, T, D);
                fast::mean_backward(dgot.data(), dout.data(), B, T, D);
                testing::check_identical<float>("mean backward", dgot, dwant);
            }
}

TEST_CASE("model fast kernels: heads split and merged as the reference does", "[model][fast]") {
    std::mt19937 g(5);
    for (std::size_t B : {1, 3})
        for (std::size_t T : {1, 5, 12})
            for (std::size_t H : {1, 2, 3})
                for (std::size_t hd : {1, 2, 3, 4, 8, 12, 16}) {
                    INFO("B " << B << ", T " << T << ", H " << H << ", hd " << hd);
                    const auto x = random_floats(B * T * H * hd, g);
                    std::vector<float> want(x.size()), got(x.size(), -1.0f);
                    reference::split_heads<float>(want.data(), x.data(), B, T, H, hd);
                    fast::split_heads(got.data(), x.data(), B, T, H, hd);
                    testing::check_identical<float>("split heads", got, want);
                    std::fill(got.begin(), got.end(), -1.0f);
                    reference::merge_heads<float>(want.data(), x.data(), B, T, H, hd);
                    fast::merge_heads(got.data(), x.data(), B, T, H, hd);
                    testing::check_identical<float>("merge heads", got, want);
                }
}

TEST_CASE("model fast kernels: attention forward and backward give the reference's bits, heads split or side by side",
          "[model][fast]") {
    std::mt19937 g(2);
    for (const bool causal : {false, true})
        for (std::size_t BH : {1, 3, 6})
            for (std::size_t H : {std::size_t{0}, std::size_t{1}, BH == 6 ? std::size_t{2} : BH})  // 0: no bias
                for (std::size_t T : kSizes)
                    for (std::size_t hd : {1, 2, 3, 4, 5, 8, 9, 16}) {
                        if (BH == 6 && hd % 4 != 0) continue;
                        // half the shapes with a temperature on the scaled scores (ropeScaling 'yarn''s)
                        const double temperature = (T + hd) % 2 ? 1.0 : 1.3 + 0.1 * static_cast<double>(hd % 3);
                        INFO("BH " << BH << ", T " << T << ", hd " << hd << (causal ? ", causal" : "")
                                   << (H ? ", a bias of heads " + std::to_string(H) : std::string())
                                   << ", temperature " << temperature);
                        const std::size_t n = BH * T * hd;
                        const auto q = random_floats(n, g), k = random_floats(n, g), v = random_floats(n, g),
                                   dout = random_floats(n, g), bias_values = random_floats(std::max<std::size_t>(H, 1) * T * T, g);
                        const float* bias = H ? bias_values.data() : nullptr;
                        std::vector<float> out(n), weights(BH * T * T), out2(n), weights2(BH * T * T), workspace;
                        reference::attention_forward<float>(out.data(), weights.data(), q.data(), k.data(), v.data(),
                                                            BH, T, hd, causal, bias, std::max<std::size_t>(H, 1),
                                                            temperature);
                        fast::attention_forward(out2.data(), weights2.data(), q.data(), k.data(), v.data(), BH, T, hd,
                                                causal, workspace, bias, std::max<std::size_t>(H, 1), temperature);
                        testing::check_identical<float>("attention weights", weights2, weights);
                        testing::check_identical<float>("attention output", out2, out);
                        std::vector<float> dq(n), dk(n), dv(n), dq2(n), dk2(n), dv2(n), db(BH * T * T, -1.0f),
                            db2(BH * T * T, -2.0f);
                        reference::attention_backward<float>(dq.data(), dk.data(), dv.data(), dout.data(), q.data(),
                                                             k.data(), v.data(), weights.data(), BH, T, hd, causal,
                                                             H ? db.data() : nullptr, temperature);
                        fast::attention_backward(dq2.data(), dk2.data(), dv2.data(), dout.data(), q.data(), k.data(),
                                                 v.data(), weights.data(), BH, T, hd, causal, workspace,
                                                 H ? db2.data() : nullptr, temperature);
                        testing::check_identical<float>("attention dq", dq2, dq);
                        testing::check_identical<float>("attention dk", dk2, dk);
                        testing::check_identical<float>("attention dv", dv2, dv);
                        if (H) testing::check_identical<float>("attention dbias", db2, db);
                        // the same heads side by side, (B, T, heads hd) as the projections write them: the same bits
                        const std::size_t heads = BH == 6 ? 2 : BH, B = BH / heads;
                        const auto side_by_side = [&](const std::vector<float>& x) {
                            std::vector<float> merged(n);
                            reference::merge_heads<float>(merged.data(), x.data(), B, T, heads, hd);
                            return merged;
                        };
                        const auto q3 = side_by_side(q), k3 = side_by_side(k), v3 = side_by_side(v),
                                   dout3 = side_by_side(dout);
                        std::vector<float> out3(n, -3.0f), weights3(BH * T * T), dq3(n, -3.0f), dk3(n, -3.0f),
                            dv3(n, -3.0f), db3(BH * T * T, -3.0f);
                        fast::attention_forward(out3.data(), weights3.data(), q3.data(), k3.data(), v3.data(), BH, T,
                                                hd, causal, workspace, bias, std::max<std::size_t>(H, 1), temperature,
                                                {heads});
                        testing::check_identical<float>("attention weights, heads side by side", weights3, weights);
                        testing::check_identical<float>("attention output, heads side by side", out3,
                                                        side_by_side(out));
                        fast::attention_backward(dq3.data(), dk3.data(), dv3.data(), dout3.data(), q3.data(),
                                                 k3.data(), v3.data(), weights.data(), BH, T, hd, causal, workspace,
                                                 H ? db3.data() : nullptr, temperature, {heads});
                        testing::check_identical<float>("attention dq, heads side by side", dq3, side_by_side(dq));
                        testing::check_identical<float>("attention dk, heads side by side", dk3, side_by_side(dk));
                        testing::check_identical<float>("attention dv, heads side by side", dv3, side_by_side(dv));
                        if (H) testing::check_identical<float>("attention dbias, heads side by side", db3, db);
                    }
}

TEST_CASE("model fast kernels: whole models (forward, gradients, Adam steps) give the reference's bits",
          "[model][fast]") {
    std::mt19937 g(3);
    const Positions positions[] = {Positions::none,   Positions::sinusoidal, Positions::learned,
                                   Positions::rotary, Positions::alibi,      Positions::relative};
    // (width 6: LayerNorm and the products on widths that are not a multiple of 4)
    const std::pair<std::int64_t, std::int64_t> widths[] = {{4, 1}, {6, 3}, {8, 2}, {12, 3}, {16, 4}, {20, 2}, {32, 2}};
    int cases = 0;
    for (const auto& [width, heads] : widths)
        for (Positions p : positions)
            for (const bool causal : {false, true}) {
                const Readout readout = (cases % 2) ? Readout::each : Readout::mean;
                const std::int64_t layers = 1 + cases % 2;
                Config c = make_config(11, width, heads, layers, p, causal, readout, 2 + cases % 3, 1 + cases);
                if (p == Positions::relative) {  // a few buckets, so that the logarithmic ones are reached
                    c.buckets = 8;
                    c.max_distance = 5;
                }
                if (p == Positions::rotary && cases % 4 == 3 && width / heads >= 4) {  // a partial rotation
                    c.rotary_pairs = 1;
                    c.rotary_base = 1000;
                }
                ++cases;
                const std::size_t B = 1 + g() % 5, T = 1 + g() % 9;
                AnyModel fast_any = testing::make_model<float>(c), reference_any = testing::make_model<float>(c);
                Model<float>& fast_model = testing::net<float>(fast_any);
                Model<float>& reference_model = testing::net<float>(reference_any);
                reference_model.set_kernels(Kernels::reference);
                randomize(fast_model, g());
                copy_parameters(reference_model, fast_model);
                const auto ids = random_ids(B, T, c.vocab, g());
                const auto targets = random_targets(c, B, T, g(), 0.2);
                // every other model at positions given (positionIds): T of 0 .. 8 (the learned table's rows) or of
                // 0 .. 3 T in each row, increasing
                Tensor<std::int32_t> rows({B, T});
                for (std::size_t b = 0; b < B; ++b) {
                    std::vector<std::int32_t> all(p == Positions::learned ? 9 : 3 * T + 1);
                    std::iota(all.begin(), all.end(), 0);
                    std::shuffle(all.begin(), all.end(), g);
                    std::sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(T));
                    std::copy_n(all.begin(), T, rows.data().begin() + static_cast<std::ptrdiff_t>(b * T));
                }
                const auto* at = p != Positions::none && cases % 2 == 0 ? &rows : nullptr;
                // rotary models cycle through no ropeScaling and its three methods ('ntk' needs two pairs)
                testing::Stretch scaling;
                const std::int64_t pairs = c.rotary_pairs.value_or(width / heads / 2);
                if (p == Positions::rotary && cases % 4 == 1) scaling = {0, 2.5, std::nullopt, std::nullopt};  // linear
                if (p == Positions::rotary && cases % 4 == 2 && pairs >= 2) scaling = {1, 4, std::nullopt, std::nullopt};  // ntk
                if (p == Positions::rotary && cases % 4 == 3) scaling = {2, 8, 6.0, std::nullopt};  // yarn
                INFO(describe(c) << ", B " << B << ", T " << T << (at ? ", positions given" : "")
                                 << (scaling.method ? ", ropeScaling method " + std::to_string(*scaling.method) : std::string()));
                testing::check_identical<float>("logits",
                                                testing::model_forward<float>(fast_any, ids, at, scaling).data(),
                                                testing::model_forward<float>(reference_any, ids, at, scaling).data());
                const testing::Gradients<float> a = testing::model_gradients<float>(fast_any, ids, targets, at, scaling),
                                                b = testing::model_gradients<float>(reference_any, ids, targets, at,
                                                                                    scaling);
                CHECK(a.loss == b.loss);
                testing::check_identical<float>("gradients", a.values, b.values);
                for (int s = 0; s < 3; ++s)
                    CHECK(testing::model_step(fast_any, ids, targets, 1e-2, at, scaling) ==
                          testing::model_step(reference_any, ids, targets, 1e-2, at, scaling));
                testing::check_identical<float>("parameters after 3 steps", fast_model.values(), reference_model.values());
            }
}

}  // namespace
