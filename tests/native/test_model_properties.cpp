// Properties the model must have by construction: its seeded initialization, what attention without positions cannot
// see (permutations), what a causal mask guarantees (later tokens change nothing before them, and pass no gradient
// back), and the shapes and sums of the attention weights it reports.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "model/init.hpp"
#include "model/random.hpp"
#include "model/steps.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::Init;
using seqorder::model::kInitStd;
using seqorder::model::SplitMix64;

constexpr Positions kAllPositions[] = {Positions::none, Positions::sinusoidal, Positions::learned, Positions::rotary};

// ---- initialization

TEST_CASE("model init: the same seed gives the same parameters bit for bit, another seed others",
          "[model][init]") {
    for (Positions positions : kAllPositions) {
        const Config c = make_config(16, 32, 2, 2, positions, false, Readout::mean, 2, 42);
        Model<double> a(c), b(c);
        Model<float> f(c);
        INFO(describe(c));
        REQUIRE(a.values().size() == f.values().size());
        for (std::size_t i = 0; i < a.values().size(); ++i) {
            REQUIRE(a.values()[i] == b.values()[i]);
            REQUIRE(f.values()[i] == static_cast<float>(a.values()[i]));  // float32 = float64 rounded once
        }
        Config other = c;
        other.seed = 43;
        Model<double> d(other);
        std::size_t same = 0;
        for (std::size_t i = 0; i < d.values().size(); ++i) same += d.values()[i] == a.values()[i] ? 1 : 0;
        std::size_t fixed = 0;  // gains and biases, which the seed does not touch
        for (const auto& p : a.parameters()) fixed += p.init == Init::normal ? 0 : p.size;
        CHECK(same == fixed);
    }
}

TEST_CASE("model init: normal parameters are 0.02 times the generator's normals, in layout order, biases 0 and gains 1",
          "[model][init]") {
    const Config c = make_config(16, 8, 2, 2, Positions::learned, true, Readout::each, 3, 2024);
    const Model<double> model(c);
    SplitMix64 g(c.seed);
    std::vector<std::string> names;
    for (const auto& p : model.parameters()) {
        names.push_back(p.name);
        const auto v = model.values(p);
        for (std::size_t i = 0; i < p.size; ++i) {
            const double want = p.init == Init::normal ? kInitStd * g.normal() : (p.init == Init::ones ? 1.0 : 0.0);
            INFO(p.name << "[" << i << "]");
            REQUIRE(v[i] == want);
        }
        if (p.name.ends_with(".gain")) CHECK(p.init == Init::ones);
        if (p.name.ends_with(".bias") || p.name.ends_with(".b1") || p.name.ends_with(".b2")) CHECK(p.init == Init::zeros);
    }
    const std::vector<std::string> expected = {
        "embed", "positions",
        "layers.0.norm1.gain", "layers.0.norm1.bias", "layers.0.attention.wq", "layers.0.attention.wk",
        "layers.0.attention.wv", "layers.0.attention.wo", "layers.0.norm2.gain", "layers.0.norm2.bias",
        "layers.0.mlp.w1", "layers.0.mlp.b1", "layers.0.mlp.w2", "layers.0.mlp.b2",
        "layers.1.norm1.gain", "layers.1.norm1.bias", "layers.1.attention.wq", "layers.1.attention.wk",
        "layers.1.attention.wv", "layers.1.attention.wo", "layers.1.norm2.gain", "layers.1.norm2.bias",
        "layers.1.mlp.w1", "layers.1.mlp.b1", "layers.1.mlp.w2", "layers.1.mlp.b2",
        "norm.gain", "norm.bias", "readout.weight", "readout.bias"};
    CHECK(names == expected);
    CHECK(model.parameter("positions").shape == Shape{9, 8});
    CHECK(model.parameter("layers.1.mlp.w1").shape == Shape{8, 32});
    CHECK(model.parameter("layers.1.mlp.w2").shape == Shape{32, 8});
    CHECK(model.parameter("layers.0.mlp.b1").shape == Shape{32});
    CHECK(model.parameter("readout.weight").shape == Shape{8, 3});
    CHECK(model.parameter("readout.bias").shape == Shape{3});
}

TEST_CASE("model init: the weights have mean 0 and standard deviation 0.02", "[model][init]") {
    const Model<double> model(make_config(64, 64, 4, 4, Positions::none, false, Readout::mean, 2, 5));
    double sum = 0, squares = 0;
    std::size_t n = 0;
    for (const auto& p : model.parameters()) {
        if (p.init != Init::normal) continue;
        for (double x : model.values(p)) {
            sum += x;
            squares += x * x;
            ++n;
        }
    }
    REQUIRE(n > 200000);
    const double mean = sum / static_cast<double>(n), sd = std::sqrt(squares / static_cast<double>(n) - mean * mean);
    CHECK(std::abs(mean) < 5 * kInitStd / std::sqrt(static_cast<double>(n)));
    CHECK_THAT(sd, Catch::Matchers::WithinRel(kInitStd, 0.01));
}

// ---- what a model without positions cannot see

// A random permutation of 0 .. T-1 that moves something.
std::vector<std::size_t> shuffled(std::size_t T, std::uint32_t seed) {
    std::vector<std::size_t> order(T);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937 g(seed);
    do std::shuffle(order.begin(), order.end(), g);
    while (std::is_sorted(order.begin(), order.end()));
    return order;
}

Tensor<std::int32_t> permuted(const Tensor<std::int32_t>& ids, const std::vector<std::size_t>& order) {
    Tensor<std::int32_t> out(ids.shape());
    for (std::size_t b = 0; b < ids.dim(0); ++b)
        for (std::size_t t = 0; t < ids.dim(1); ++t) out(b, t) = ids(b, order[t]);
    return out;
}

template <class T>
void check_permutations(double tolerance) {
    // Every sum over positions (softmax denominators, weighted sums, the mean) adds the same terms in another order:
    // equal up to rounding, 1e-12 in float64 and 1e-5 in float32 for logits O(1).
    for (const Readout readout : {Readout::mean, Readout::each}) {
        const Config c = make_config(9, 8, 2, 2, Positions::none, false, readout, 3);
        AnyModel model = testing::make_model<T>(c);
        randomize(testing::net<T>(model), 21);
        const auto ids = random_ids(4, 7, c.vocab, 22);
        const auto order = shuffled(7, 23);
        const Tensor<T> base = testing::model_forward<T>(model, ids);
        const Tensor<T> moved = testing::model_forward<T>(model, permuted(ids, order));
        INFO(describe(c));
        for (std::size_t b = 0; b < 4; ++b)
            for (std::size_t k = 0; k < 3; ++k) {
                if (readout == Readout::mean) {  // invariant
                    REQUIRE_THAT(moved(b, k), Catch::Matchers::WithinAbs(base(b, k), tolerance));
                } else {  // equivariant: position t of the permuted sentence is position order[t] of the original
                    for (std::size_t t = 0; t < 7; ++t)
                        REQUIRE_THAT(moved(b, t, k), Catch::Matchers::WithinAbs(base(b, order[t], k), tolerance));
                }
            }
        // with positions, order shows
        Config positioned = c;
        positioned.positions = Positions::sinusoidal;
        AnyModel seeing = testing::make_model<T>(positioned);
        randomize(testing::net<T>(seeing), 21);
        const Tensor<T> a = testing::model_forward<T>(seeing, ids),
                        p = testing::model_forward<T>(seeing, permuted(ids, order));
        double largest = 0;
        for (std::size_t b = 0; b < 4; ++b)
            for (std::size_t k = 0; k < 3; ++k)
                largest = std::max(largest, std::abs(static_cast<double>(readout == Readout::mean ? a(b, k) - p(b, k)
                                                                                                 : a(b, 0, k) - p(b, 0, k))));
        CHECK(largest > 1e-3);
    }
}

TEST_CASE("model without positions, bidirectional: 'mean' logits are invariant under permuting the sentence, 'each' "
          "logits equivariant", "[model][properties]") {
    check_permutations<double>(1e-12);
    check_permutations<float>(1e-5);
}

TEST_CASE("model without positions: a sentence and its mirror get the same logits", "[model][properties]") {
    const Config c = make_config(16, 32, 2, 1, Positions::none, false, Readout::mean, 2);
    AnyModel model = testing::make_model<float>(c);
    randomize(testing::net<float>(model), 31);
    const auto batch = seqorder::model::order_task(64, 12, 7, true);
    const Tensor<float> logits = testing::model_forward<float>(model, batch.ids);
    for (std::size_t s = 0; s < 64; s += 2)
        for (std::size_t k = 0; k < 2; ++k) REQUIRE_THAT(logits(s + 1, k), Catch::Matchers::WithinAbs(logits(s, k), 1e-5));
}

// ---- what a causal mask guarantees

TEST_CASE("model, causal: changing a token changes no output before it, bit for bit", "[model][properties]") {
    for (Positions positions : kAllPositions) {
        const Config c = make_config(9, 8, 2, 2, positions, true, Readout::each, 3);
        AnyModel model = testing::make_model<float>(c);
        randomize(testing::net<float>(model), 41);
        const auto ids = random_ids(2, 8, c.vocab, 42);
        const Tensor<float> base = testing::model_forward<float>(model, ids);
        INFO(describe(c));
        for (std::size_t s = 0; s < 8; ++s) {
            auto changed = ids;
            changed(1, s) = (changed(1, s) + 1) % static_cast<std::int32_t>(c.vocab);
            const Tensor<float> out = testing::model_forward<float>(model, changed);
            for (std::size_t t = 0; t < 8; ++t)
                for (std::size_t k = 0; k < 3; ++k) {
                    REQUIRE(out(0, t, k) == base(0, t, k));           // the other sentence
                    if (t < s) REQUIRE(out(1, t, k) == base(1, t, k));  // before the change
                }
            CHECK(out(1, s, 0) != base(1, s, 0));  // at the change
        }
    }
}

TEST_CASE("model, causal: tokens after the last counted target get exactly zero gradient", "[model][properties]") {
    // Targets only at positions 0..3 of 8: tokens 4..7 are hidden from every counted output, so the loss does not
    // depend on them. Ids 0..3 fill positions 0..3 and ids 4..7 positions 4..7, so the embedding rows of 4..7 get
    // their gradient from the hidden positions only: exactly 0, because masked weights pass no gradient.
    for (Positions positions : kAllPositions) {
        const Config c = make_config(8, 8, 2, 2, positions, true, Readout::each, 3);
        AnyModel any = testing::make_model<double>(c);
        Model<double>& model = testing::net<double>(any);
        randomize(model, 51);
        Tensor<std::int32_t> ids({1, 8}), targets({1, 8});
        for (std::int32_t t = 0; t < 8; ++t) {
            ids(0, static_cast<std::size_t>(t)) = t;
            targets(0, static_cast<std::size_t>(t)) = t < 4 ? t % 3 : -1;
        }
        const testing::Gradients<double> g = testing::model_gradients<double>(any, ids, targets);
        const auto& embed = model.parameter("embed");
        INFO(describe(c));
        for (std::size_t id = 0; id < 8; ++id) {
            double largest = 0;
            for (std::size_t d = 0; d < 8; ++d) largest = std::max(largest, std::abs(g.values[embed.offset + id * 8 + d]));
            if (id < 4)
                CHECK(largest > 0);
            else
                CHECK(largest == 0.0);
        }
    }
}

TEST_CASE("model steps: attention backward passes no gradient through masked weights", "[model][properties]") {
    // One block of 6 queries and keys, dout nonzero only on query row 2: with the mask, only keys 0..2 can receive
    // gradient (dk, dv rows 3..5 exactly 0) and no other query row moves.
    const std::size_t T = 6, hd = 4;
    std::mt19937 g(61);
    std::normal_distribution<double> normal(0, 1);
    std::vector<double> q(T * hd), k(T * hd), v(T * hd), out(T * hd), weights(T * T), dout(T * hd, 0.0);
    for (auto* x : {&q, &k, &v})
        for (double& e : *x) e = normal(g);
    for (std::size_t e = 0; e < hd; ++e) dout[2 * hd + e] = normal(g);
    seqorder::model::attention_forward<double>(out.data(), weights.data(), q.data(), k.data(), v.data(), 1, T, hd, true);
    std::vector<double> dq(T * hd), dk(T * hd), dv(T * hd);
    seqorder::model::attention_backward<double>(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(),
                                                v.data(), weights.data(), 1, T, hd, true);
    for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = i + 1; j < T; ++j) REQUIRE(weights[i * T + j] == 0.0);
    for (std::size_t j = 0; j < T; ++j)
        for (std::size_t e = 0; e < hd; ++e) {
            INFO("row " << j << ", column " << e);
            if (j > 2) {
                REQUIRE(dk[j * hd + e] == 0.0);
                REQUIRE(dv[j * hd + e] == 0.0);
            } else {
                REQUIRE(dv[j * hd + e] != 0.0);
            }
            if (j != 2) REQUIRE(dq[j * hd + e] == 0.0);
        }
}

// ---- the attention weights the model reports

TEST_CASE("model attention weights: (layers, heads, T, T), rows summing to 1, hidden keys exactly 0",
          "[model][properties]") {
    for (const bool causal : {false, true}) {
        const Config c = make_config(9, 12, 3, 2, Positions::rotary, causal, Readout::mean, 2);
        AnyModel model = testing::make_model<float>(c);
        randomize(testing::net<float>(model), 71);
        const auto ids = random_ids(1, 7, c.vocab, 72);
        const Tensor<float> w = testing::model_attention_weights<float>(model, ids);
        REQUIRE(w.shape() == Shape{2, 3, 7, 7});
        for (std::size_t lh = 0; lh < 6; ++lh)
            for (std::size_t i = 0; i < 7; ++i) {
                double sum = 0;
                for (std::size_t j = 0; j < 7; ++j) {
                    const float x = w.data()[(lh * 7 + i) * 7 + j];
                    sum += x;
                    if (causal && j > i) REQUIRE(x == 0.0f);
                    else REQUIRE(x > 0.0f);
                }
                REQUIRE_THAT(sum, Catch::Matchers::WithinAbs(1.0, 1e-6));
            }
        // rank-1 ids give the same
        Tensor<std::int32_t> flat({7});
        std::copy(ids.data().begin(), ids.data().end(), flat.data().begin());
        const Tensor<float> again = testing::model_attention_weights<float>(model, flat);
        for (std::size_t i = 0; i < w.size(); ++i) REQUIRE(again.data()[i] == w.data()[i]);
    }
}

TEST_CASE("model: repeated calls of different shapes reuse scratch without changing results", "[model][properties]") {
    const Config c = make_config(9, 8, 2, 1, Positions::sinusoidal, false, Readout::each, 3);
    AnyModel model = testing::make_model<float>(c);
    randomize(testing::net<float>(model), 81);
    const auto small = random_ids(2, 3, c.vocab, 82), large = random_ids(5, 11, c.vocab, 83);
    const Tensor<float> a = testing::model_forward<float>(model, small), b = testing::model_forward<float>(model, large);
    const Tensor<float> a2 = testing::model_forward<float>(model, small), b2 = testing::model_forward<float>(model, large);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a.data()[i] == a2.data()[i]);
    for (std::size_t i = 0; i < b.size(); ++i) REQUIRE(b.data()[i] == b2.data()[i]);
}

// ---- embedScale

template <class T>
void embed_scale_is_a_scaled_lookup(Positions positions) {
    // a model whose token vectors are multiplied by s gives, bit for bit, the logits of a model with embedScale 1 whose
    // embedding holds the products s e (rounded to T once, as the network rounds them)
    for (const bool sqrt_width : {false, true}) {
        Config c = make_config(9, 8, 2, 1, positions, false, Readout::each, 3);
        c.embed_scale = {.factor = 2.75, .sqrt_width = sqrt_width};
        INFO(describe(c) << (sqrt_width ? ", embedScale sqrtWidth" : ", embedScale 2.75"));
        AnyModel scaled = testing::make_model<T>(c);
        Config plain_config = c;
        plain_config.embed_scale = {};
        AnyModel plain = testing::make_model<T>(plain_config);
        const auto s = static_cast<T>(sqrt_width ? std::sqrt(8.0) : 2.75);
        const Model<T>& scaled_net = testing::net<T>(scaled);
        const auto& embed = scaled_net.parameter("embed");
        std::vector<T> products(scaled_net.values(embed).begin(), scaled_net.values(embed).end());
        for (T& x : products) x = s * x;
        const std::vector<ParameterUpdate<T>> updates{{"embed", embed.shape, products}};
        testing::net<T>(plain).set_parameters(updates);
        const auto ids = random_ids(3, 7, 9, 11);
        const Tensor<T> a = testing::model_forward<T>(scaled, ids), b = testing::model_forward<T>(plain, ids);
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a.data()[i] == b.data()[i]);
    }
}

TEST_CASE("model embedScale: the token vectors are scaled before the positions are added", "[model][properties]") {
    for (Positions positions : kAllPositions) {
        embed_scale_is_a_scaled_lookup<float>(positions);
        embed_scale_is_a_scaled_lookup<double>(positions);
    }
    // 'sqrtWidth' is sqrt(width); the default, 1, leaves the token vectors as they are
    Config c = make_config(9, 8, 2, 1, Positions::sinusoidal, false, Readout::mean, 2);
    CHECK(seqorder::model::embed_factor(c) == 1.0);
    c.embed_scale.sqrt_width = true;
    CHECK(seqorder::model::embed_factor(c) == std::sqrt(8.0));
}

}  // namespace
