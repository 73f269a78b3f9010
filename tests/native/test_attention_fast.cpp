// The fast fused float32 attention (attention_fast.hpp) against the readable reference and numpy, over a sweep of
// shapes that exercises every edge of its blocking: 4-row query stripes, 8-key panels, 8-column value panels, the
// causal diagonal, empty axes. Natively the vector type is four plain floats, so this runs the same blocked algorithm
// as the WebAssembly module (whose SIMD instructions are tested through the JS API in tests/node).
//
// Tolerance, and why. The truth is the float64 reference on the same (float32) inputs. Every output is a convex
// combination of rows of v, so errors are measured relative to the output scale max|v|. The float32 paths err
// mainly through the scores: each scaled score carries an absolute rounding error of a few float32 steps (2^-24) of
// M = max over (i, j) of sum_d |q_id k_jd| / sqrt(D), and the softmax passes that on as a relative error of the
// weights; the exp polynomial (~1e-7), the row sum and the weighted sum add a few steps more. So the bound is
//     max |fast - float64 reference| <= 2e-6 * max|v| * max(1, M)          (~30 float32 steps per unit of M)
// which is inside the 2e-5 held against numpy's fixtures (below) for unit-scale inputs (M is 1..3 there) and grows
// with M only for the deliberately peaky inputs (M up to ~100). Measured: at most ~1.5e-7 * max|v| * max(1, M). It is
// also checked that the fast path is as accurate as the float32 reference itself, up to a small factor:
//     error(fast) <= 2 * error(float32 reference) + 5e-7 * max|v|,
// and, closer still, that it computes what the float32 reference computes: its scaled scores are the reference's bit
// for bit and its weights are normalized and summed in the same order, so only e^x (a polynomial within ~1 ulp of
// std::exp) separates them, whatever the peakiness:
//     max |fast - float32 reference| <= 1e-6 * max|v|                      (measured: <= 1.8e-7 * max|v|)
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "attention_fast.hpp"
#include "compare.hpp"
#include "f32x4.hpp"
#include "fixtures.hpp"
#include "calling.hpp"

namespace {

using seqorder::AttentionShape;
using seqorder::CausalMask;
using seqorder::Shape;
using seqorder::Tensor;

Tensor<double> to_double(const Tensor<float>& x) {
    std::vector<double> data(x.data().begin(), x.data().end());
    return Tensor<double>(x.shape(), std::move(data));
}

double max_abs(std::span<const float> x) {
    double m = 0;
    for (float e : x) m = std::max(m, std::abs(static_cast<double>(e)));
    return m;
}

// M = max over (b, i, j) of sum_d |q_bid k_bjd| / sqrt(D): the largest a scaled score's terms can add up to.
double score_magnitude(const Tensor<float>& q, const Tensor<float>& k, const AttentionShape& s) {
    double m = 0;
    const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
               Tk = static_cast<std::size_t>(s.keys), D = static_cast<std::size_t>(s.width);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < Tq; ++i)
            for (std::size_t j = 0; j < Tk; ++j) {
                double sum = 0;
                for (std::size_t d = 0; d < D; ++d)
                    sum += std::abs(static_cast<double>(q.data()[(b * Tq + i) * D + d]) * k.data()[(b * Tk + j) * D + d]);
                m = std::max(m, sum / std::sqrt(static_cast<double>(D)));
            }
    return m;
}

// Largest |a - b| (NaN counts as infinite).
double max_error(std::span<const float> got, std::span<const double> want) {
    REQUIRE(got.size() == want.size());
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double e = std::abs(static_cast<double>(got[i]) - want[i]);
        worst = std::max(worst, std::isnan(e) ? std::numeric_limits<double>::infinity() : e);
    }
    return worst;
}

struct Case {
    std::size_t B, Tq, Tk, D, Dv;
    bool causal = false;
    std::optional<std::int64_t> query_start = {};
    double scale = 1.0;  // q and k uniform in [-scale, scale]: larger means a peakier softmax

    std::string name() const {
        std::ostringstream s;
        s << "B=" << B << " Tq=" << Tq << " Tk=" << Tk << " D=" << D << " Dv=" << Dv << (causal ? " causal" : "")
          << (query_start ? " queryStart=" + std::to_string(*query_start) : "") << " scale=" << scale;
        return s.str();
    }
};

// Runs one case through the fast path, the float32 reference and the float64 reference, and checks the bounds
// above. Rank-3 tensors (B, T, D).
void check_case(const Case& c, std::uint32_t seed) {
    INFO(c.name());
    const Tensor<float> q = testing::random_tensor<float>({c.B, c.Tq, c.D}, seed, c.scale);
    const Tensor<float> k = testing::random_tensor<float>({c.B, c.Tk, c.D}, seed + 1, c.scale);
    const Tensor<float> v = testing::random_tensor<float>({c.B, c.Tk, c.Dv}, seed + 2, 1.0);
    const CausalMask mask{c.causal, c.query_start};

    const Tensor<float> fast = testing::attention(q, k, v, mask);
    const Tensor<float> reference32 = testing::attention_steps(q, k, v, mask).output;
    const Tensor<double> reference64 = testing::attention(to_double(q), to_double(k), to_double(v), mask);
    REQUIRE(fast.shape() == reference64.shape());

    const AttentionShape s{static_cast<std::int64_t>(c.B), static_cast<std::int64_t>(c.Tq), static_cast<std::int64_t>(c.Tk),
                           static_cast<std::int64_t>(c.D), static_cast<std::int64_t>(c.Dv)};
    const double scale = std::max(max_abs(v.data()), 1e-30);
    const double tolerance = 2e-6 * scale * std::max(1.0, score_magnitude(q, k, s));
    const double error = max_error(fast.data(), reference64.data());
    const double error32 = max_error(reference32.data(), reference64.data());
    const double difference32 = max_error(fast.data(), to_double(reference32).data());
    std::ostringstream what;
    what << "attention_fast " << c.name() << " (float32 reference: " << error32 << ", M = " << score_magnitude(q, k, s)
         << ", fast - float32 reference: " << difference32 / scale << " max|v|)";
    testing::report(what.str(), error, tolerance);
    INFO("fast error " << error << ", float32 reference error " << error32 << ", tolerance " << tolerance);
    CHECK(error <= tolerance);
    CHECK(error <= 2 * error32 + 5e-7 * scale);
    CHECK(difference32 <= 1e-6 * scale);
}

}  // namespace

TEST_CASE("fast attention equals the reference on hand-picked shapes (odd sizes, Tq != Tk, batch > 1)", "[attention_fast]") {
    const std::vector<std::size_t> widths = {1, 3, 5, 17, 64, 65};
    std::uint32_t seed = 100;
    for (std::size_t D : widths)
        for (std::size_t Dv : widths) {
            check_case({1, 7, 7, D, Dv}, seed += 3);
            check_case({2, 5, 19, D, Dv}, seed += 3);
            check_case({3, 9, 9, D, Dv, true}, seed += 3);
        }
    for (std::size_t Tq : {1, 2, 3, 4, 5, 8, 9, 31, 33})
        for (std::size_t Tk : {1, 2, 7, 8, 9, 16, 17, 40}) {
            check_case({2, Tq, Tk, 17, 9}, seed += 3);
            if (Tk >= Tq) check_case({2, Tq, Tk, 17, 9, true}, seed += 3);
        }
}

TEST_CASE("fast causal attention equals the reference for every queryStart", "[attention_fast]") {
    std::uint32_t seed = 500;
    for (const auto& [Tq, Tk] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {1, 13}, {4, 12}, {5, 5}, {6, 23}, {13, 40}, {40, 40}})
        for (std::int64_t start = 0; start <= static_cast<std::int64_t>(Tk - Tq); start += std::max<std::int64_t>(1, static_cast<std::int64_t>(Tk - Tq) / 5))
            check_case({2, Tq, Tk, 5, 11, true, start}, seed += 3);
}

TEST_CASE("fast attention equals the reference on peaky softmaxes (large scores)", "[attention_fast]") {
    std::uint32_t seed = 900;
    for (double scale : {3.0, 8.0, 30.0}) {
        check_case({2, 33, 33, 64, 64, false, {}, scale}, seed += 3);
        check_case({2, 33, 33, 64, 64, true, {}, scale}, seed += 3);
        check_case({1, 10, 57, 5, 3, true, 20, scale}, seed += 3);
    }
}

TEST_CASE("fast attention equals the reference on a random sweep of shapes", "[attention_fast]") {
    std::mt19937 generator(20240607);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(generator); };
    for (int n = 0; n < 150; ++n) {
        Case c{pick(1, 3), pick(1, 70), 0, pick(1, 70), pick(1, 70)};
        c.causal = pick(0, 1) == 1;
        c.Tk = c.causal ? c.Tq + pick(0, 60) : pick(1, 130);
        if (c.causal && pick(0, 1) == 1) c.query_start = static_cast<std::int64_t>(pick(0, c.Tk - c.Tq));
        c.scale = pick(0, 3) == 0 ? 6.0 : 1.0;
        check_case(c, static_cast<std::uint32_t>(2000 + 3 * n));
    }
}

TEST_CASE("fast attention on longer rows (several key panels and row groups, T = 300)", "[attention_fast]") {
    check_case({1, 300, 300, 64, 64}, 7001);
    check_case({1, 300, 300, 64, 64, true}, 7002);
    check_case({1, 100, 300, 64, 40, true, 150}, 7003);
}

TEST_CASE("fast attention over several hundred keys", "[attention_fast]") {
    // Tk around 256 and 512; causal rows whose seen keys end on either side of them.
    check_case({1, 9, 256, 16, 24}, 7101);
    check_case({2, 6, 257, 16, 9}, 7102);
    check_case({1, 5, 700, 33, 70}, 7103);
    check_case({1, 12, 520, 8, 17, true, 500}, 7104);
    check_case({1, 16, 600, 8, 8, true, 246}, 7105);
}

TEST_CASE("fast attention with NaN, infinite and zero values: hidden NaNs stay hidden", "[attention_fast]") {
    const std::size_t T = 530, D = 12, Dv = 11;
    const Tensor<float> q = testing::random_tensor<float>({T, D}, 81, 4.0), k = testing::random_tensor<float>({T, D}, 82, 4.0);
    Tensor<float> v = testing::random_tensor<float>({T, Dv}, 83);
    const float inf = std::numeric_limits<float>::infinity();
    for (std::size_t e = 0; e < Dv; ++e) {
        v(300, e) = e % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : e % 3 == 1 ? inf : -0.0f;
        v(7, e) = -0.0f;
    }
    for (const bool causal : {false, true}) {
        const Tensor<float> out = testing::attention(q, k, v, {causal, {}});
        if (causal) {  // rows before 300 never see key 300
            for (std::size_t i = 0; i < 300; ++i)
                for (std::size_t e = 0; e < Dv; ++e) REQUIRE(std::isfinite(out(i, e)));
        }
    }
}

TEST_CASE("attention_fast_rows: rows computed in parts, each with its own scratch, give the whole call's bits", "[attention_fast]") {
    // What the pool's workers do (src/js/pool/split.mjs's cuts): each part is some rows of one batch item
    // (cut on the row group), causal from its own query_start, in a scratch buffer of exactly the size asked for (so a
    // sanitizer build catches any write past it).
    const std::size_t rows = seqorder::kFastAttentionRows;
    // (B, Tq, Tk, D, Dv, causal, query_start)
    const std::vector<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, bool, std::int64_t>> cases = {
        {1, 37, 37, 16, 16, true, 0}, {2, 29, 41, 8, 5, true, 12}, {3, 13, 13, 7, 9, false, 0},
        {1, 64, 300, 64, 64, true, 236}, {1, 70, 520, 12, 17, false, 0}, {2, 9, 12, 5, 2, true, 3},
    };
    for (const auto& [B, Tq, Tk, D, Dv, causal, query_start] : cases) {
        const Tensor<float> q = testing::random_tensor<float>({B, Tq, D}, 91), k = testing::random_tensor<float>({B, Tk, D}, 92),
                            v = testing::random_tensor<float>({B, Tk, Dv}, 93);
        const Tensor<float> whole = testing::attention(q, k, v, {causal, causal ? std::optional(query_start) : std::nullopt});
        std::vector<float> parts(B * Tq * Dv, std::numeric_limits<float>::quiet_NaN());
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t first = 0; first < Tq;) {  // parts of 1, 2, 3, ... row groups
                const std::size_t end = std::min(Tq, first + rows * (1 + first / rows % 3));
                const AttentionShape part{1, static_cast<std::int64_t>(end - first), static_cast<std::int64_t>(Tk),
                                          static_cast<std::int64_t>(D), static_cast<std::int64_t>(Dv)};
                std::vector<float> scratch(seqorder::attention_fast_scratch_size(part));
                seqorder::attention_fast_rows(parts.data() + (b * Tq + first) * Dv, q.data().data() + (b * Tq + first) * D,
                                              k.data().data() + b * Tk * D, v.data().data() + b * Tk * Dv, part, causal,
                                              causal ? query_start + static_cast<std::int64_t>(first) : 0, scratch.data());
                first = end;
            }
        for (std::size_t i = 0; i < parts.size(); ++i)
            REQUIRE(std::bit_cast<std::uint32_t>(parts[i]) == std::bit_cast<std::uint32_t>(whole.data()[i]));
    }
}

TEST_CASE("the fused kernel's scratch is what calls.hpp states, and grows with the query rows up to a group", "[attention_fast]") {
    // calls.hpp's "Memory": 8 ceil(Tk / 8) (D + 4 S) + 8 ceil(Dv / 8) (Tk + 4) + 16 D floats, S = min(4, ceil(Tq / 4)),
    // each of the five parts rounded up to 16 floats (64 bytes); restated here.
    const auto stated = [](std::int64_t Tq, std::int64_t Tk, std::int64_t D, std::int64_t Dv) {
        const auto eights = [](std::int64_t n) { return (n + 7) / 8 * 8; };
        const auto line = [](std::int64_t n) { return (n + 15) / 16 * 16; };
        const std::int64_t S = std::clamp<std::int64_t>((Tq + 3) / 4, 1, 4);
        return line(eights(Tk) * D) + line(eights(Dv) * Tk) + line(16 * D) + line(4 * eights(Tk) * S) + line(4 * eights(Dv));
    };
    for (const std::int64_t Tq : {1, 3, 4, 5, 12, 16, 17, 1000})
        for (const std::int64_t Tk : {1, 7, 8, 9, 255, 4626})
            for (const std::int64_t D : {1, 3, 8, 64})
                for (const std::int64_t Dv : {1, 5, 8, 17}) {
                    const AttentionShape s{3, Tq, Tk, D, Dv};
                    CHECK(static_cast<std::int64_t>(seqorder::attention_fast_scratch_size(s)) == stated(Tq, Tk, D, Dv));
                }
    // The call of fuzz/corpus/attention/regression-width-1-4626-keys: one query, 4626 keys, D = Dv = 1 (inputs and
    // output 37,016 bytes). Its scratch held the scores of four stripes of four rows for one row; now one stripe's,
    // 235 KiB in all.
    CHECK(seqorder::attention_fast_scratch_size({1, 1, 4626, 1, 1}) * sizeof(float) == 240896);
    CHECK(seqorder::attention_fast_scratch_size({1, 16, 4626, 1, 1}) * sizeof(float) == 463232);
    CHECK(seqorder::attention_fast_scratch_size({1, 1000, 4626, 1, 1}) == seqorder::attention_fast_scratch_size({1, 16, 4626, 1, 1}));
}

TEST_CASE("fast attention matches numpy's float64 attention fixtures within 2e-5", "[attention_fast]") {
    // Independent of the C++ reference: tests/fixtures/make_fixtures.py (numpy). Inputs are float32-exact.
    const fixtures::File& f = fixtures::cached("attention.txt");
    int cases = 0;
    for (int i = 0; f.has("attention/" + std::to_string(i) + "/q"); ++i, ++cases) {
        const std::string prefix = "attention/" + std::to_string(i) + "/";
        INFO(prefix);
        const auto q = testing::tensor_of<float>(f[prefix + "q"]);
        const auto k = testing::tensor_of<float>(f[prefix + "k"]);
        const auto v = testing::tensor_of<float>(f[prefix + "v"]);
        const fixtures::Array& options = f[prefix + "options"];
        CausalMask mask{options.scalar(0) != 0, {}};
        if (options.integer(1) >= 0) mask.query_start = options.integer(1);
        const Tensor<float> output = testing::attention(q, k, v, mask);
        testing::check_within_abs<float>(prefix + "output (fast)", output.data(), f[prefix + "output"], 2e-5);
    }
    CHECK(cases >= 10);
}

TEST_CASE("the fused kernel gives the bits of numpy's float32 replica of its operations", "[attention_fast]") {
    // tests/fixtures/make_attention_bits.py: the same float32 operations in the same order, one numpy operation each
    // (its exponential the core's polynomial), so any change to the arithmetic or its order shows here, in every build
    // that keeps the default bits (not the relaxed one, whose multiply-adds may fuse).
    const fixtures::File& f = fixtures::cached("attention_bits.txt");
    int cases = 0;
    for (int i = 0; f.has("attention_bits/" + std::to_string(i) + "/q"); ++i, ++cases) {
        const std::string prefix = "attention_bits/" + std::to_string(i) + "/";
        const auto q = testing::tensor_of<float>(f[prefix + "q"]);
        const auto k = testing::tensor_of<float>(f[prefix + "k"]);
        const auto v = testing::tensor_of<float>(f[prefix + "v"]);
        const CausalMask mask{f[prefix + "options"].scalar(0) != 0, {}};
        const std::vector<double>& want = f[prefix + "output"].values;
        INFO(prefix);
        const Tensor<float> out = testing::attention(q, k, v, mask);
        REQUIRE(out.data().size() == want.size());
        std::size_t differ = 0, first = 0;
        for (std::size_t e = 0; e < want.size(); ++e)
            if (std::bit_cast<std::uint32_t>(out.data()[e]) != std::bit_cast<std::uint32_t>(static_cast<float>(want[e])) &&
                differ++ == 0)
                first = e;
        INFO("first differing element " << first << ": " << std::setprecision(9) << out.data()[first] << " against " << want[first]);
        CHECK(differ == 0);
    }
    CHECK(cases >= 6);
}

TEST_CASE("fast attention: empty axes", "[attention_fast]") {
    SECTION("Tk = 0: nothing to attend to, the output is all zeros (as the reference)") {
        const Tensor<float> q = testing::random_tensor<float>({2, 3, 5}, 1);
        const Tensor<float> k({2, 0, 5}), v({2, 0, 4});
        const Tensor<float> out = testing::attention(q, k, v);
        CHECK(out.shape() == Shape{2, 3, 4});
        for (float x : out.data()) CHECK(x == 0.0f);
        // causal with Tq = Tk = 0 is allowed too
        const Tensor<float> none = testing::attention(Tensor<float>({0, 5}), Tensor<float>({0, 5}), Tensor<float>({0, 4}), {true, {}});
        CHECK(none.shape() == Shape{0, 4});
    }
    SECTION("Tq = 0, B = 0 and Dv = 0 give empty outputs of the right shape") {
        CHECK(testing::attention(Tensor<float>({0, 5}), testing::random_tensor<float>({3, 5}, 2), testing::random_tensor<float>({3, 2}, 3)).shape() == Shape{0, 2});
        CHECK(testing::attention(Tensor<float>({0, 2, 5}), Tensor<float>({0, 3, 5}), Tensor<float>({0, 3, 2})).shape() == Shape{0, 2, 2});
        CHECK(testing::attention(testing::random_tensor<float>({2, 5}, 4), testing::random_tensor<float>({3, 5}, 5), Tensor<float>({3, 0})).shape() == Shape{2, 0});
    }
}

TEST_CASE("fast causal attention: hidden weights are exactly 0, so later tokens never change earlier outputs", "[attention_fast]") {
    // Bit for bit: a masked key contributes 0 * v = 0 to the sums, whatever its k and v.
    const std::size_t T = 37, D = 9, Dv = 13;
    const Tensor<float> q = testing::random_tensor<float>({T, D}, 11, 3.0);
    Tensor<float> k = testing::random_tensor<float>({T, D}, 12, 3.0);
    Tensor<float> v = testing::random_tensor<float>({T, Dv}, 13);
    const Tensor<float> before = testing::attention(q, k, v, {true, {}});
    const std::size_t changed_from = 21;  // change keys and values 21 .. 36
    for (std::size_t j = changed_from; j < T; ++j) {
        for (std::size_t d = 0; d < D; ++d) k(j, d) = 1000.0f;
        for (std::size_t e = 0; e < Dv; ++e) v(j, e) = -1e6f;
    }
    const Tensor<float> after = testing::attention(q, k, v, {true, {}});
    testing::check_identical<float>("rows 0..20 (they never see keys 21..36)",
                                    after.data().subspan(0, changed_from * Dv), before.data().subspan(0, changed_from * Dv));
    // and the changed keys do reach the later rows
    CHECK(after(T - 1, 0) != before(T - 1, 0));
}

TEST_CASE("fast attention: permuting the queries permutes the outputs, bit for bit", "[attention_fast]") {
    // Each query row is computed in its own lane with the same operations, whichever stripe and lane it lands in.
    const std::size_t Tq = 11, Tk = 19, D = 7, Dv = 5;
    const Tensor<float> q = testing::random_tensor<float>({Tq, D}, 21, 2.0);
    const Tensor<float> k = testing::random_tensor<float>({Tk, D}, 22, 2.0);
    const Tensor<float> v = testing::random_tensor<float>({Tk, Dv}, 23);
    std::vector<std::size_t> order(Tq);
    for (std::size_t i = 0; i < Tq; ++i) order[i] = (i * 4 + 3) % Tq;  // a permutation: gcd(4, 11) = 1
    Tensor<float> permuted({Tq, D});
    for (std::size_t i = 0; i < Tq; ++i)
        for (std::size_t d = 0; d < D; ++d) permuted(i, d) = q(order[i], d);
    const Tensor<float> out = testing::attention(q, k, v), out_permuted = testing::attention(permuted, k, v);
    std::vector<float> expected;
    for (std::size_t i = 0; i < Tq; ++i)
        for (std::size_t e = 0; e < Dv; ++e) expected.push_back(out(order[i], e));
    testing::check_identical<float>("outputs of the permuted queries", out_permuted.data(), std::span<const float>(expected));
}

TEST_CASE("fast attention's arguments are checked as the reference's", "[attention_fast]") {
    const Tensor<float> q = testing::random_tensor<float>({4, 8}, 31), k = testing::random_tensor<float>({6, 8}, 32),
                        v = testing::random_tensor<float>({6, 3}, 33);
    CHECK_THROWS_AS(testing::attention(q, testing::random_tensor<float>({6, 7}, 34), v), std::invalid_argument);
    CHECK_THROWS_AS(testing::attention(q, k, testing::random_tensor<float>({5, 3}, 35)), std::invalid_argument);
    CHECK_THROWS_AS(testing::attention(q, k, v, {true, 3}), std::invalid_argument);  // queryStart > Tk - Tq = 2
    CHECK_THROWS_AS(testing::attention(k, q, testing::random_tensor<float>({4, 3}, 36), {true, {}}), std::invalid_argument);  // Tq > Tk
    CHECK_THROWS_WITH(testing::attention(q, k, v, {true, -1}), Catch::Contains("queryStart"));
}

TEST_CASE("the vectorized exp: within 1 float32 ulp of exp (measured 0.94) over the normal range, 0 below 2^-126.5", "[attention_fast]") {
    namespace simd = seqorder::simd;
    double worst = 0;
    float worst_x = 0;
    constexpr float lowest_normal = std::numeric_limits<float>::min();  // e^x is normal for x >= ln(FLT_MIN) ~ -87.34
    for (int i = 0; i <= 400000; ++i) {
        const float x = -104.0f + static_cast<float>(i) * (192.0f / 400000);  // -104 .. 88
        const float got = simd::lane(simd::exp(simd::splat(x)), 0);
        const double want = std::exp(static_cast<double>(x));
        if (want < lowest_normal) {  // subnormal results: 2^-126 e^r rounded, or 0 once 2^n < 2^-126
            REQUIRE(std::abs(static_cast<double>(got) - want) <= 0.75 * lowest_normal);  // 0 where e^x < 2^-126.5
            if (x <= -87.7f) REQUIRE(got == 0.0f);
            continue;
        }
        const float rounded = static_cast<float>(want);
        const double ulp = static_cast<double>(std::nextafter(rounded, std::numeric_limits<float>::infinity())) - rounded;
        const double error = std::abs(static_cast<double>(got) - want) / ulp;
        if (error > worst) worst = error, worst_x = x;
    }
    testing::report("simd::exp in float32 ulp", worst, 1.0);
    INFO("worst at x = " << worst_x);
    CHECK(worst <= 1.0);
    const float inf = std::numeric_limits<float>::infinity();
    alignas(16) const float special[4] = {-inf, -1e30f, -88.0f, 0.0f};
    alignas(16) float out[4];
    simd::store(out, simd::exp(simd::load(special)));
    CHECK(out[0] == 0.0f);
    CHECK(out[1] == 0.0f);
    CHECK(out[2] == 0.0f);  // std::exp: 6.05e-39, a subnormal
    CHECK(out[3] == 1.0f);  // exactly: softmax's largest weight before normalizing
    CHECK(simd::lane(simd::exp(simd::splat(-87.5f)), 0) > 0.0f);  // a subnormal, as std::exp gives
    CHECK(std::isnan(simd::lane(simd::exp(simd::splat(std::numeric_limits<float>::quiet_NaN())), 0)));
    CHECK_THAT(simd::lane(simd::exp(simd::splat(88.0f)), 0), Catch::Matchers::WithinRel(static_cast<float>(std::exp(88.0)), 2e-7f));
}
