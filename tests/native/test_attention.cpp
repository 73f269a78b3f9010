// Scaled dot-product attention in four steps (scores, scaled, weights, output) against the numpy fixtures, its
// properties (weights rows sum to 1, masked weights exactly 0, permutation equivariance, causal prefix invariance,
// cached decoding = full recompute, Tk = 0), and every error path.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "compare.hpp"
#include "fixtures.hpp"
#include "calling.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using seqorder::CausalMask;
using seqorder::Shape;
using seqorder::Tensor;

namespace {

// --- Tolerances, each with its reason --------------------------------------------------------------------------
// float64 steps vs numpy: the same operations on O(1) inputs with D <= 32 and Tk <= 12; only the summation order of
// the dot products differs (numpy's matmul), a few ulps of O(10): the README's exactness table states 1e-12.
constexpr double kAttentionF64 = 1e-12;
// float32 steps (accumulated in float32) vs numpy's float64: float32 rounding of dot products of <= 32 terms and of
// exp: the README's exactness table states 2e-5.
constexpr double kAttentionF32 = 2e-5;

// A row of weights sums to 1 within one rounding per weight and per addition: 2 * Tk ulps of 1.
template <class T>
double row_sum_tolerance(std::size_t keys) {
    return 2.0 * static_cast<double>(std::max<std::size_t>(keys, 1)) * std::numeric_limits<T>::epsilon();
}
// Reordering the keys only reorders sums (the softmax denominator and the weighted sum of values, |terms| <= 1):
// each order is within Tk ulps of the exact sum, so two orders are within 2 * Tk ulps; twice that as margin.
template <class T>
double reordered_sum_tolerance(std::size_t keys) {
    return 4.0 * static_cast<double>(keys) * std::numeric_limits<T>::epsilon();
}

template <class T>
const char* dtype_name() {
    return sizeof(T) == 8 ? "float64" : "float32";
}

template <class T>
void check_against_fixtures() {
    const fixtures::File& file = fixtures::cached("attention.txt");
    const std::size_t cases = file.count("attention", "q");
    REQUIRE(cases >= 10);
    const double tolerance = sizeof(T) == 8 ? kAttentionF64 : kAttentionF32;
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "attention/" + std::to_string(n);
        const fixtures::Array& options = file[prefix + "/options"];
        CausalMask mask;
        mask.causal = options.integer(0) != 0;
        if (options.integer(1) >= 0) mask.query_start = options.integer(1);
        const Tensor<T> q = testing::tensor_of<T>(file[prefix + "/q"]);
        const Tensor<T> k = testing::tensor_of<T>(file[prefix + "/k"]);
        const Tensor<T> v = testing::tensor_of<T>(file[prefix + "/v"]);
        const std::string what = prefix + " " + dtype_name<T>() + " q " + seqorder::shape_to_string(q.shape()) + " k " +
                                 seqorder::shape_to_string(k.shape()) + " v " + seqorder::shape_to_string(v.shape()) +
                                 (mask.causal ? " causal" : "") +
                                 (mask.query_start ? " queryStart " + std::to_string(*mask.query_start) : "");
        const testing::AttentionSteps<T> steps = testing::attention_steps(q, k, v, mask);
        const auto check = [&](const char* step, const Tensor<T>& got) {
            const fixtures::Array& want = file[prefix + "/" + step];
            INFO(what << ": " << step);
            CHECK(got.shape() == Shape(want.shape.begin(), want.shape.end()));
            testing::check_within_abs<T>(what + " " + step, got.data(), want, tolerance);
        };
        check("scores", steps.scores);
        check("scaled", steps.scaled);
        check("weights", steps.weights);
        check("output", steps.output);
        // The output-only call computes the same numbers: the reference's in float64, the fused kernel's in float32
        // (test_attention_fast.cpp holds it to the reference).
        if constexpr (std::is_same_v<T, double>)
            testing::check_identical<T>(what + " attention() vs attention_steps().output",
                                        testing::attention(q, k, v, mask).data(), steps.output.data());
        else
            testing::check_within_abs<T>(what + " attention() (the fused kernel)", testing::attention(q, k, v, mask).data(),
                                         file[prefix + "/output"], tolerance);
    }
}

// The shapes and masks the property tests sweep: (B, Tq, Tk, D, Dv, causal, query_start).
struct Case {
    std::size_t batch, queries, keys, width, value_width;
    bool causal;
    std::optional<std::int64_t> query_start;
};
const std::vector<Case> kCases = {
    {1, 1, 1, 1, 1, false, {}},  {1, 4, 4, 8, 8, false, {}},   {2, 3, 7, 4, 6, false, {}}, {1, 9, 2, 3, 5, false, {}},
    {1, 4, 4, 8, 8, true, {}},   {2, 3, 7, 4, 6, true, {}},    {2, 3, 7, 4, 6, true, 0},   {2, 3, 7, 4, 6, true, 2},
    {3, 1, 16, 16, 4, true, {}}, {1, 16, 16, 64, 32, true, {}}, {1, 5, 64, 8, 8, true, 30}, {4, 8, 8, 2, 1, false, {}},
};

template <class T>
testing::AttentionSteps<T> run(const Case& c, std::uint32_t seed, double scale = 1.0) {
    const Tensor<T> q = testing::random_tensor<T>({c.batch, c.queries, c.width}, seed, scale);
    const Tensor<T> k = testing::random_tensor<T>({c.batch, c.keys, c.width}, seed + 1, scale);
    const Tensor<T> v = testing::random_tensor<T>({c.batch, c.keys, c.value_width}, seed + 2);
    return testing::attention_steps(q, k, v, CausalMask{c.causal, c.query_start});
}

std::string describe(const Case& c) {
    return "B " + std::to_string(c.batch) + ", Tq " + std::to_string(c.queries) + ", Tk " + std::to_string(c.keys) +
           ", D " + std::to_string(c.width) + ", Dv " + std::to_string(c.value_width) + (c.causal ? ", causal" : "") +
           (c.query_start ? ", queryStart " + std::to_string(*c.query_start) : "");
}

// Rows `order` of x (B, T, D) along T: result row i = x row order[i].
template <class T>
Tensor<T> permute_rows(const Tensor<T>& x, const std::vector<std::size_t>& order) {
    Tensor<T> out(Shape{x.dim(0), order.size(), x.dim(2)});
    for (std::size_t b = 0; b < x.dim(0); ++b)
        for (std::size_t i = 0; i < order.size(); ++i)
            for (std::size_t d = 0; d < x.dim(2); ++d) out(b, i, d) = x(b, order[i], d);
    return out;
}

// The first `rows` rows of x (B, T, D) along T.
template <class T>
Tensor<T> first_rows(const Tensor<T>& x, std::size_t rows) {
    std::vector<std::size_t> order(rows);
    std::iota(order.begin(), order.end(), 0);
    return permute_rows(x, order);
}

template <class T>
Tensor<T> last_rows(const Tensor<T>& x, std::size_t rows) {
    std::vector<std::size_t> order(rows);
    std::iota(order.begin(), order.end(), x.dim(1) - rows);
    return permute_rows(x, order);
}

}  // namespace

// --- Against numpy ---------------------------------------------------------------------------------------------

TEST_CASE("attention float64: every step matches numpy within 1e-12 (causal, queryStart, Tq != Tk, batch > 1)",
          "[attention][fixtures]") {
    check_against_fixtures<double>();
}

TEST_CASE("attention float32: every step matches numpy within 2e-5 (causal, queryStart, Tq != Tk, batch > 1)",
          "[attention][fixtures]") {
    check_against_fixtures<float>();
}

// --- Properties ------------------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("attention: weights rows sum to 1, masked scores are -inf and their weights exactly 0",
                   "[attention][properties]", double, float) {
    for (const Case& c : kCases) {
        for (double scale : {1.0, 30.0}) {  // 30: scaled scores in the hundreds, exp would overflow unshifted
            INFO(describe(c) << ", inputs in [-" << scale << ", " << scale << "]");
            const testing::AttentionSteps<TestType> s = run<TestType>(c, 100, scale);
            const std::int64_t query_start = c.causal ? c.query_start.value_or(static_cast<std::int64_t>(c.keys - c.queries)) : 0;
            double worst_sum = 1.0;
            bool masked_ok = true, visible_ok = true;
            for (std::size_t b = 0; b < c.batch; ++b) {
                for (std::size_t i = 0; i < c.queries; ++i) {
                    const std::size_t visible = c.causal ? static_cast<std::size_t>(query_start) + i + 1 : c.keys;
                    double sum = 0.0;
                    for (std::size_t j = 0; j < c.keys; ++j) {
                        const TestType w = s.weights(b, i, j), x = s.scaled(b, i, j);
                        sum += static_cast<double>(w);
                        if (j < visible)
                            visible_ok = visible_ok && std::isfinite(x) && w >= 0 && w <= 1;
                        else
                            masked_ok = masked_ok && x == -std::numeric_limits<TestType>::infinity() && w == TestType{0};
                    }
                    if (std::abs(sum - 1.0) > std::abs(worst_sum - 1.0) || std::isnan(sum)) worst_sum = sum;
                }
            }
            CHECK(masked_ok);
            CHECK(visible_ok);
            CHECK_THAT(worst_sum, WithinAbs(1.0, row_sum_tolerance<TestType>(c.keys)));
            for (TestType x : s.output.data()) REQUIRE(std::isfinite(x));
        }
    }
}

TEMPLATE_TEST_CASE("attention without a mask is permutation-equivariant, not invariant", "[attention][properties]",
                   double, float) {
    const std::size_t T = 7, D = 6;
    const Tensor<TestType> x = testing::random_tensor<TestType>({2, T, D}, 42);
    const std::vector<std::size_t> order = {3, 0, 6, 1, 5, 2, 4};
    const Tensor<TestType> y = testing::attention(x, x, x);
    const Tensor<TestType> px = permute_rows(x, order);

    SECTION("self-attention: permuting the tokens permutes the outputs the same way") {
        const Tensor<TestType> py = testing::attention(px, px, px);
        testing::check_within_abs<TestType>("self-attention of permuted tokens", py.data(), permute_rows(y, order).data(),
                                            reordered_sum_tolerance<TestType>(T));
    }
    SECTION("permuting only the queries permutes the outputs bit for bit (each row is computed on its own)") {
        testing::check_identical<TestType>("queries permuted", testing::attention(px, x, x).data(),
                                           permute_rows(y, order).data());
    }
    SECTION("permuting keys and values together leaves every output unchanged up to summation order") {
        testing::check_within_abs<TestType>("keys and values permuted", testing::attention(x, px, px).data(), y.data(),
                                            reordered_sum_tolerance<TestType>(T));
    }
    SECTION("not invariant: the outputs do move with the tokens") {
        const Tensor<TestType> py = testing::attention(px, px, px);
        double largest_change = 0.0;
        for (std::size_t j = 0; j < py.size(); ++j)
            largest_change = std::max(largest_change, std::abs(static_cast<double>(py.data()[j] - y.data()[j])));
        CHECK(largest_change > 1e-3);
    }
    SECTION("with a causal mask, a permutation no longer commutes with attention") {
        const Tensor<TestType> py = testing::attention(px, px, px, CausalMask{true, {}});
        const Tensor<TestType> expected = permute_rows(testing::attention(x, x, x, CausalMask{true, {}}), order);
        double largest_change = 0.0;
        for (std::size_t j = 0; j < py.size(); ++j)
            largest_change = std::max(largest_change, std::abs(static_cast<double>(py.data()[j] - expected.data()[j])));
        CHECK(largest_change > 1e-3);
    }
}

TEMPLATE_TEST_CASE("causal attention: a later token never changes an earlier output", "[attention][properties]",
                   double, float) {
    const std::size_t T = 12, D = 8;
    const Tensor<TestType> x = testing::random_tensor<TestType>({2, T, D}, 7);
    const Tensor<TestType> full = testing::attention(x, x, x, CausalMask{true, {}});
    SECTION("the outputs for every prefix are the first rows of the full outputs, bit for bit") {
        for (std::size_t t = 1; t <= T; ++t) {
            const Tensor<TestType> prefix = first_rows(x, t);
            const Tensor<TestType> y = testing::attention(prefix, prefix, prefix, CausalMask{true, {}});
            testing::check_identical<TestType>("prefix of " + std::to_string(t) + " tokens", y.data(),
                                               first_rows(full, t).data());
        }
    }
    SECTION("changing the last token changes only the last output") {
        Tensor<TestType> changed = x;
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t d = 0; d < D; ++d) changed(b, T - 1, d) = static_cast<TestType>(3.0 - changed(b, T - 1, d));
        const Tensor<TestType> y = testing::attention(changed, changed, changed, CausalMask{true, {}});
        testing::check_identical<TestType>("earlier outputs", first_rows(y, T - 1).data(), first_rows(full, T - 1).data());
        CHECK(y(0, T - 1, 0) != full(0, T - 1, 0));
    }
}

TEMPLATE_TEST_CASE("cached decoding equals full recompute: the last rows as queries, with the default queryStart",
                   "[attention][properties]", double, float) {
    const std::size_t T = 10, D = 8, Dv = 5;
    const Tensor<TestType> q = testing::random_tensor<TestType>({3, T, D}, 1);
    const Tensor<TestType> k = testing::random_tensor<TestType>({3, T, D}, 2);
    const Tensor<TestType> v = testing::random_tensor<TestType>({3, T, Dv}, 3);
    const Tensor<TestType> full = testing::attention(q, k, v, CausalMask{true, {}});
    for (std::size_t m = 1; m <= T; ++m) {
        INFO(m << " new tokens against a cache of " << T - m);
        const Tensor<TestType> q_new = last_rows(q, m);
        const Tensor<TestType> expected = last_rows(full, m);
        // Default alignment: the queries are the last m positions.
        testing::check_identical<TestType>("default queryStart", testing::attention(q_new, k, v, CausalMask{true, {}}).data(),
                                           expected.data());
        // The same alignment, spelled out.
        testing::check_identical<TestType>(
            "explicit queryStart = Tk - Tq",
            testing::attention(q_new, k, v, CausalMask{true, static_cast<std::int64_t>(T - m)}).data(), expected.data());
        // Top-left alignment (PyTorch's is_causal) is the silent bug: the new queries would not see their own keys.
        if (m < T) {
            const Tensor<TestType> wrong = testing::attention(q_new, k, v, CausalMask{true, 0});
            bool differs = false;
            for (std::size_t j = 0; j < wrong.size(); ++j) differs = differs || wrong.data()[j] != expected.data()[j];
            CHECK(differs);
        }
    }
}

TEST_CASE("attention: edge shapes", "[attention][properties]") {
    SECTION("Tk = 0: nothing to attend to, the output is zeros (an empty weighted sum), never NaN") {
        const Tensor<double> q = testing::random_tensor<double>({2, 3, 4}, 5);
        const testing::AttentionSteps<double> s = testing::attention_steps(q, Tensor<double>({2, 0, 4}), Tensor<double>({2, 0, 6}));
        CHECK(s.scores.shape() == Shape{2, 3, 0});
        CHECK(s.weights.shape() == Shape{2, 3, 0});
        REQUIRE(s.output.shape() == Shape{2, 3, 6});
        for (double x : s.output.data()) CHECK(x == 0.0);
        const Tensor<float> out = testing::attention(Tensor<float>({3, 4}), Tensor<float>({0, 4}), Tensor<float>({0, 2}));
        REQUIRE(out.shape() == Shape{3, 2});
        for (float x : out.data()) CHECK(x == 0.0f);
    }
    SECTION("Tq = 0 (and causal with Tq = Tk = 0) gives empty results") {
        CHECK(testing::attention(Tensor<double>({0, 4}), Tensor<double>({5, 4}), Tensor<double>({5, 3})).shape() == Shape{0, 3});
        CHECK(testing::attention(Tensor<double>({1, 0, 4}), Tensor<double>({1, 0, 4}), Tensor<double>({1, 0, 3}),
                                  CausalMask{true, {}})
                  .shape() == Shape{1, 0, 3});
    }
    SECTION("Dv = 0 and B = 0 give empty outputs of the right shape") {
        CHECK(testing::attention(Tensor<double>({2, 4}), Tensor<double>({3, 4}), Tensor<double>({3, 0})).shape() == Shape{2, 0});
        CHECK(testing::attention(Tensor<double>({0, 2, 4}), Tensor<double>({0, 3, 4}), Tensor<double>({0, 3, 1})).shape() ==
              Shape{0, 2, 1});
    }
    SECTION("without the batch axis: the same numbers as B = 1") {
        const Tensor<double> q = testing::random_tensor<double>({1, 4, 3}, 8), k = testing::random_tensor<double>({1, 6, 3}, 9),
                             v = testing::random_tensor<double>({1, 6, 2}, 10);
        const auto flat = [](const Tensor<double>& t) { return Tensor<double>(Shape{t.dim(1), t.dim(2)}, std::vector<double>(t.data().begin(), t.data().end())); };
        const CausalMask mask{true, 1};
        const Tensor<double> batched = testing::attention(q, k, v, mask);
        const Tensor<double> single = testing::attention(flat(q), flat(k), flat(v), mask);
        CHECK(single.shape() == Shape{4, 2});
        testing::check_identical<double>("rank 2 vs rank 3", single.data(), batched.data());
    }
    SECTION("one key: every query takes its value") {
        const Tensor<double> v({1, 3}, std::vector<double>{0.5, -2.0, 7.0});
        const Tensor<double> out = testing::attention(testing::random_tensor<double>({4, 2}, 1), testing::random_tensor<double>({1, 2}, 2), v);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t e = 0; e < 3; ++e) CHECK(out(i, e) == v(0, e));
    }
}

// --- Errors ----------------------------------------------------------------------------------------------------

TEST_CASE("attention: shape mismatches are errors naming the mismatch", "[attention][errors]") {
    const auto T = [](Shape shape) { return Tensor<double>(std::move(shape)); };
    // Every entry point checks the same way.
    const auto all_throw_with = [](const Tensor<double>& q, const Tensor<double>& k, const Tensor<double>& v,
                                   const std::string& text, CausalMask mask = {}) {
        REQUIRE_THROWS_AS(testing::attention_steps(q, k, v, mask), std::invalid_argument);
        REQUIRE_THROWS_WITH(testing::attention_steps(q, k, v, mask), Contains(text));
        REQUIRE_THROWS_WITH(testing::attention(q, k, v, mask), Contains(text));
        const Tensor<float> q32(q.shape()), k32(k.shape()), v32(v.shape());
        REQUIRE_THROWS_WITH(testing::attention(q32, k32, v32, mask), Contains(text));
    };
    SECTION("rank of q") {
        all_throw_with(T({4}), T({4}), T({4}), "q must have shape (Tq, D) or (.., Tq, D), got [4]");
    }
    SECTION("ranks of k and v") {
        all_throw_with(T({2, 4}), T({1, 3, 4}), T({3, 4}), "q, k and v must have the same rank");
        all_throw_with(T({1, 2, 4}), T({1, 3, 4}), T({3, 4}), "q, k and v must have the same rank");
    }
    SECTION("batch size") {
        all_throw_with(T({2, 2, 4}), T({3, 3, 4}), T({2, 3, 4}), "same batch axes (all but the last two), got shapes [2, 2, 4], [3, 3, 4] and [2, 3, 4]");
        all_throw_with(T({2, 2, 4}), T({2, 3, 4}), T({1, 3, 4}), "same batch axes (all but the last two), got shapes [2, 2, 4], [2, 3, 4] and [1, 3, 4]");
    }
    SECTION("width D of q and k") {
        all_throw_with(T({2, 4}), T({3, 5}), T({3, 4}), "q and k must have the same width D, got 4 and 5");
        all_throw_with(T({2, 0}), T({3, 0}), T({3, 4}), "q and k must have a width D of at least 1");
    }
    SECTION("length Tk of k and v") {
        all_throw_with(T({2, 4}), T({6, 4}), T({5, 4}), "k and v must have the same length Tk, got 6 and 5");
    }
    SECTION("causal needs Tk >= Tq") {
        all_throw_with(T({5, 4}), T({3, 4}), T({3, 4}), "causal attention needs at least as many keys as queries (Tk >= Tq), got Tq = 5 and Tk = 3",
                       CausalMask{true, {}});
        all_throw_with(T({1, 4}), T({0, 4}), T({0, 4}), "Tk >= Tq", CausalMask{true, {}});
    }
    SECTION("queryStart outside 0..Tk - Tq") {
        for (std::int64_t query_start : {std::int64_t{-1}, std::int64_t{5}, std::int64_t{1000}, -(std::int64_t{1} << 53) + 1,
                                         (std::int64_t{1} << 53) - 1}) {
            INFO("queryStart " << query_start);
            all_throw_with(T({2, 3, 4}), T({2, 7, 4}), T({2, 7, 2}), "queryStart must be in 0..Tk - Tq = 0..4",
                           CausalMask{true, query_start});
            REQUIRE_THROWS_WITH(testing::attention(T({3, 4}), T({7, 4}), T({7, 2}), CausalMask{true, query_start}),
                                Contains("got " + std::to_string(query_start)));
        }
        for (std::int64_t query_start : {0, 2, 4}) CHECK_NOTHROW(testing::attention(T({3, 4}), T({7, 4}), T({7, 2}), CausalMask{true, query_start}));
        // a queryStart no caller can give exactly is refused as a number first
        for (std::int64_t query_start : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()})
            REQUIRE_THROWS_WITH(testing::attention(T({3, 4}), T({7, 4}), T({7, 2}), CausalMask{true, query_start}),
                                Contains("queryStart must be an integer"));
    }
    SECTION("check_attention_args rejects negative sizes and a bad queryStart") {
        REQUIRE_THROWS_WITH(seqorder::check_attention_args({-1, 2, 2, 4, 4}, {}), Contains("attention sizes must be non-negative"));
        REQUIRE_THROWS_WITH(seqorder::check_attention_args({1, 2, 2, 4, -4}, {}), Contains("non-negative"));
        REQUIRE_THROWS_WITH(seqorder::check_attention_args({1, 2, 2, 0, 4}, {}), Contains("q and k must have a width D of at least 1"));
        CHECK(seqorder::check_attention_args({1, 2, 5, 4, 4}, {true, {}}) == 3);
        CHECK(seqorder::check_attention_args({1, 2, 5, 4, 4}, {true, 1}) == 1);
        REQUIRE_THROWS_WITH(seqorder::check_attention_args({1, 2, 2, 4, 4}, {true, 1}), Contains("queryStart must be in 0..Tk - Tq = 0..0"));
    }
}

TEST_CASE("attention: steps too large for the heap are a std::length_error before any work", "[attention][errors]") {
    // q and k of 32768 rows are small; their (Tq, Tk) steps are 8 GiB in float64.
    const Tensor<double> q({32768, 1}), k({32768, 1}), v({32768, 1});
    REQUIRE_THROWS_AS(testing::attention_steps(q, k, v), std::length_error);
    REQUIRE_THROWS_WITH(testing::attention_steps(q, k, v), Contains("scores of shape [32768, 32768] is too large"));
    // The output alone is small: attention() needs no (Tq, Tk) tensor.
    CHECK(testing::attention(Tensor<double>({4, 1}), k, v).shape() == Shape{4, 1});
}
