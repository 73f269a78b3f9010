// The next lesson's parts (calls.hpp: matmul, softmax, split_heads, merge_heads) against the numpy fixtures
// (tests/fixtures/parts.txt, checked against PyTorch when written), softmax against attention's own weights, the rule
// for a row with nothing to attend to, heads split and merged back, and every error path.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "calling.hpp"
#include "compare.hpp"
#include "fixtures.hpp"

using Catch::Matchers::Contains;
using seqorder::CausalMask;
using seqorder::Shape;
using seqorder::Tensor;

namespace {

template <class T>
const char* dtype_name() {
    return sizeof(T) == 8 ? "float64" : "float32";
}

template <class T>
std::string what(const std::string& prefix, const Tensor<T>& x) {
    return prefix + " " + dtype_name<T>() + " " + seqorder::shape_to_string(x.shape());
}

// |got - want| <= 2 gamma_K sum_k |a_ik| |b_kj| per element (gamma_K = K u / (1 - K u), u the unit roundoff of T):
// the classic bound of a sum of K products rounded in T, twice for numpy's own float64 rounding. Inputs are exact in
// both dtypes (the fixtures round them to float32).
template <class T>
void check_matmul(const std::string& label, const Tensor<T>& got, const fixtures::Array& want, const fixtures::Array& a,
                  const fixtures::Array& b) {
    INFO(label);
    REQUIRE(got.shape() == Shape(want.shape.begin(), want.shape.end()));
    const std::size_t ra = a.shape.size(), rb = b.shape.size(), r = want.shape.size();
    const std::size_t M = a.shape[ra - 2], K = a.shape[ra - 1], N = b.shape[rb - 1];
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const double gamma = static_cast<double>(K) * u / (1 - static_cast<double>(K) * u);
    // each result matrix's a and b, by the broadcast rule, from its index over the leading axes
    const std::size_t matrices = M * N == 0 ? 0 : want.size() / (M * N);
    for (std::size_t matrix = 0; matrix < matrices; ++matrix) {
        std::size_t rest = matrix, from_a = 0, from_b = 0, stride_a = 1, stride_b = 1;
        for (std::size_t axis = r - 2; axis-- > 0;) {
            const std::size_t i = rest % want.shape[axis];
            rest /= want.shape[axis];
            const std::size_t back = r - 2 - axis;  // 1 for the last leading axis
            const std::size_t da = back <= ra - 2 ? a.shape[ra - 2 - back] : 1, db = back <= rb - 2 ? b.shape[rb - 2 - back] : 1;
            from_a += (da == 1 ? 0 : i) * stride_a;
            from_b += (db == 1 ? 0 : i) * stride_b;
            stride_a *= da;
            stride_b *= db;
        }
        for (std::size_t i = 0; i < M; ++i)
            for (std::size_t j = 0; j < N; ++j) {
                double magnitude = 0;
                for (std::size_t k = 0; k < K; ++k)
                    magnitude += std::abs(a.values[from_a * M * K + i * K + k] * b.values[from_b * K * N + k * N + j]);
                const std::size_t at = (matrix * M + i) * N + j;
                INFO("element " << testing::index_string(at, want.shape));
                CHECK(std::abs(static_cast<double>(got.data()[at]) - want.values[at]) <= 2 * gamma * magnitude);
            }
    }
}

template <class T>
void matmul_against_fixtures() {
    const fixtures::File& file = fixtures::cached("parts.txt");
    const std::size_t cases = file.count("matmul", "a");
    REQUIRE(cases >= 8);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "matmul/" + std::to_string(n);
        const Tensor<T> a = testing::tensor_of<T>(file[prefix + "/a"]), b = testing::tensor_of<T>(file[prefix + "/b"]);
        check_matmul<T>(what(prefix, a) + " @ " + seqorder::shape_to_string(b.shape()), testing::matmul(a, b),
                        file[prefix + "/output"], file[prefix + "/a"], file[prefix + "/b"]);
    }
}

// softmax: exp within an ulp or so of e^x, a sum of Tk <= 7 terms below 1 each, one division: a few ulps of 1.
template <class T>
constexpr double kSoftmaxTolerance = 8 * 7 * std::numeric_limits<T>::epsilon();

CausalMask mask_of(const fixtures::Array& options) {
    CausalMask mask{options.integer(0) != 0, {}};
    if (options.integer(1) >= 0) mask.query_start = options.integer(1);
    return mask;
}

template <class T>
void softmax_against_fixtures() {
    const fixtures::File& file = fixtures::cached("parts.txt");
    const std::size_t cases = file.count("softmax", "x");
    REQUIRE(cases >= 8);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "softmax/" + std::to_string(n);
        const Tensor<T> x = testing::tensor_of<T>(file[prefix + "/x"]);
        const Tensor<T> got = testing::softmax(x, mask_of(file[prefix + "/options"]));
        const fixtures::Array& want = file[prefix + "/output"];
        REQUIRE(got.shape() == Shape(want.shape.begin(), want.shape.end()));
        testing::check_within_abs<T>(what(prefix, x), got.data(), want, kSoftmaxTolerance<T>);
        for (std::size_t i = 0; i < want.size(); ++i)  // hidden keys and rows with nothing to attend to: exactly 0
            if (want.values[i] == 0) CHECK(got.data()[i] == T{0});
    }
}

template <class T>
void heads_against_fixtures() {
    const fixtures::File& file = fixtures::cached("parts.txt");
    const std::size_t cases = file.count("heads", "x");
    REQUIRE(cases >= 5);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "heads/" + std::to_string(n);
        const Tensor<T> x = testing::tensor_of<T>(file[prefix + "/x"]);
        const Tensor<T> split = testing::split_heads(x, file[prefix + "/params"].integer(0));
        const Tensor<T> want = testing::tensor_of<T>(file[prefix + "/split"]);
        INFO(what(prefix, x));
        CHECK(split.shape() == want.shape());
        testing::check_identical<T>(what(prefix, x) + " split", split.data(), want.data());
        const Tensor<T> merged = testing::merge_heads(split);
        CHECK(merged.shape() == x.shape());
        testing::check_identical<T>(what(prefix, x) + " merged back", merged.data(), x.data());
    }
}

}  // namespace

TEST_CASE("matmul matches numpy's matmul, leading axes broadcast, within the bound of a sum of K products", "[parts]") {
    matmul_against_fixtures<double>();
    matmul_against_fixtures<float>();
}

TEST_CASE("softmax matches numpy's, with attention's causal mask", "[parts]") {
    softmax_against_fixtures<double>();
    softmax_against_fixtures<float>();
}

TEMPLATE_TEST_CASE("softmax of attention's scaled scores is attention's weights, bit for bit", "[parts]", double, float) {
    const fixtures::File& file = fixtures::cached("attention.txt");
    const std::size_t cases = file.count("attention", "q");
    REQUIRE(cases >= 10);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "attention/" + std::to_string(n);
        const CausalMask mask = mask_of(file[prefix + "/options"]);
        const auto steps = testing::attention_steps(testing::tensor_of<TestType>(file[prefix + "/q"]),
                                                    testing::tensor_of<TestType>(file[prefix + "/k"]),
                                                    testing::tensor_of<TestType>(file[prefix + "/v"]), mask);
        // scaled holds -inf where the mask hides a key: the same weights with or without the mask given again
        testing::check_identical<TestType>(prefix + " softmax(scaled)", testing::softmax(steps.scaled).data(),
                                           steps.weights.data());
        testing::check_identical<TestType>(prefix + " softmax(scaled, mask)", testing::softmax(steps.scaled, mask).data(),
                                           steps.weights.data());
    }
}

TEMPLATE_TEST_CASE("softmax: a row with nothing to attend to is zeros; NaN and +inf give NaN; hidden entries are ignored",
                   "[parts]", double, float) {
    using T = TestType;
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    // rows: all -inf; -inf and a NaN; +inf among finite; one NaN among finite; finite
    const Tensor<T> x(Shape{5, 3}, std::vector<T>{-inf, -inf, -inf, -inf, nan, -inf, 1, inf, 2, 0, nan, 1, 1, 2, 3});
    const Tensor<T> w = testing::softmax(x);
    for (std::size_t j = 0; j < 3; ++j) {
        CHECK(w(0, j) == T{0});
        CHECK(std::isnan(w(1, j)));
        CHECK(std::isnan(w(2, j)));
        CHECK(std::isnan(w(3, j)));
    }
    CHECK(w(4, 0) + w(4, 1) + w(4, 2) == Approx(1.0));
    // causal (queryStart 0): row i sees keys 0..i; what is hidden does not count, NaN included
    const Tensor<T> y(Shape{3, 3}, std::vector<T>{-inf, nan, nan, 1, -inf, inf, 2, 2, 2});
    const Tensor<T> v = testing::softmax(y, CausalMask{true, 0});
    const std::vector<T> want = {0, 0, 0, 1, 0, 0, T{1} / 3, T{1} / 3, T{1} / 3};
    testing::check_identical<T>("causal, hidden NaN and +inf", v.data(), std::span<const T>(want));
    // no keys: empty rows
    CHECK(testing::softmax(Tensor<T>({4, 0})).shape() == Shape{4, 0});
}

TEST_CASE("splitHeads matches numpy's reshape and transpose; mergeHeads gives x back, bit for bit", "[parts]") {
    heads_against_fixtures<double>();
    heads_against_fixtures<float>();
    const Tensor<float> y = testing::random_tensor<float>({2, 3, 4, 5}, 7);
    testing::check_identical<float>("split(merge(y))", testing::split_heads(testing::merge_heads(y), 3).data(), y.data());
}

TEST_CASE("matmul, softmax, splitHeads and mergeHeads: every rule, with its message", "[parts]") {
    using T = Tensor<double>;
    const auto matmul_throws = [](const seqorder::calls::MatmulArgs& a, const std::string& message) {
        REQUIRE_THROWS_WITH(seqorder::calls::matmul(a), Contains(message));
    };
    const T a({2, 3}), b({3, 4});
    matmul_throws({testing::arg(a), testing::arg(Tensor<float>({3, 4})), {}}, "a and b must have one dtype, got 'float64' and 'float32'");
    matmul_throws({testing::arg(Tensor<std::int32_t>({2, 3})), testing::arg(b), {}}, "a.dtype must be 'float64' or 'float32', got 'int32'");
    matmul_throws({testing::arg(T({3})), testing::arg(b), {}}, "a must have shape (M, K) or (.., M, K), got [3]");
    matmul_throws({testing::arg(a), testing::arg(T({3})), {}}, "b must have shape (K, N) or (.., K, N), got [3]");
    matmul_throws({testing::arg(a), testing::arg(T({4, 3})), {}}, "a's last axis and b's second-to-last must have one length K, got shapes [2, 3] and [4, 3]");
    matmul_throws({testing::arg(T({2, 2, 3})), testing::arg(T({3, 3, 4})), {}},
                  "a's and b's leading axes must broadcast (aligned from the right, each pair equal or one of them 1), got shapes [2, 2, 3] and [3, 3, 4]");
    matmul_throws({testing::arg(a), testing::arg(b), 7.0}, "out must have exactly 8 elements for this result, got 7");

    REQUIRE_THROWS_WITH(testing::softmax(T(Shape{})), Contains("x must have at least one axis (softmax runs over the last), got []"));
    REQUIRE_THROWS_WITH(testing::softmax(T({4}), CausalMask{true, {}}), Contains("x must have shape (Tq, Tk) or (.., Tq, Tk) with causal: true, got [4]"));
    REQUIRE_THROWS_WITH(testing::softmax(T({5, 3}), CausalMask{true, {}}), Contains("causal attention needs at least as many keys as queries (Tk >= Tq), got Tq = 5 and Tk = 3"));
    REQUIRE_THROWS_WITH(testing::softmax(T({2, 3, 5}), CausalMask{true, 3}), Contains("queryStart must be in 0..Tk - Tq = 0..2"));
    REQUIRE_THROWS_WITH(testing::softmax(T({3, 5}), CausalMask{false, 1}), Contains("queryStart applies only with causal: true"));
    REQUIRE_THROWS_WITH(seqorder::calls::softmax({testing::arg(T({3, 5})), true, 0.5, {}}), Contains("queryStart must be an integer, got 0.5"));

    REQUIRE_THROWS_WITH(testing::split_heads(T({6}), 2), Contains("x must have shape (T, D) or (.., T, D), got [6]"));
    REQUIRE_THROWS_WITH(testing::split_heads(T({2, 6}), 4), Contains("heads must divide x's width D (its last axis), got D = 6 and heads = 4"));
    REQUIRE_THROWS_WITH(testing::split_heads(T({2, 6}), 0), Contains("heads must be an integer at least 1, got 0"));
    REQUIRE_THROWS_WITH(seqorder::calls::split_heads({testing::arg(T({2, 6})), 1.5, {}}), Contains("heads must be an integer, got 1.5"));
    REQUIRE_THROWS_WITH(testing::merge_heads(T({2, 6})), Contains("x must have shape (H, T, Dh) or (.., H, T, Dh), got [2, 6]"));
    REQUIRE_THROWS_WITH(seqorder::calls::merge_heads({{nullptr, 0, "float32", {1e15, 0, 1e15}}, {}}),
                        Contains("x's heads H times their width Dh must be at most 2^53 - 1"));
}
