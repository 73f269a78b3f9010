// Rotary positions (rope_reference, rope_into, rope) against numpy fixtures and their defining properties, plus the
// two properties of the sinusoid table the comparisons page shows: the 'halves' layout is a column permutation of
// the lesson's, and p_{t+k} is a fixed rotation of p_t.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "calling.hpp"
#include "fixtures.hpp"
#include "rope.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinULP;
using seqorder::Layout;
using seqorder::Shape;
using seqorder::Tensor;

namespace {

template <class T>
Tensor<T> to_tensor(const fixtures::Array& a) {
    return Tensor<T>(a.shape, std::vector<T>(a.values.begin(), a.values.end()));
}

template <class T>
Tensor<T> random_tensor(Shape shape, std::uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::size_t count = 1;
    for (auto n : shape) count *= n;
    std::vector<T> data(count);
    for (auto& v : data) v = static_cast<T>(uniform(gen));
    return Tensor<T>(std::move(shape), std::move(data));
}

// Rotates x (batch, length, width) with whichever kernel is asked for.
enum class Kernel { reference, fast };
template <class T>
Tensor<T> rotate(Kernel kernel, const Tensor<T>& x, std::int64_t batch, std::int64_t start, double base) {
    const auto length = static_cast<std::int64_t>(x.dim(x.rank() - 2)), width = static_cast<std::int64_t>(x.dim(x.rank() - 1));
    Tensor<T> out(x.shape());
    if (kernel == Kernel::reference)
        seqorder::rope_reference<T>(out.data(), x.data(), batch, length, width, start, base);
    else
        seqorder::rope_into<T>(out.data(), x.data(), batch, length, width, start, base);
    return out;
}

// Tolerance for a rotation at positions up to t_max of values |x| <= 1, in float64: the core and numpy may compute
// the angle t * f_i a few ulps apart (pow, and the fast kernel's recurrence), which moves the result by about as much.
double angle_tolerance(double t_max) { return 1e-15 + 8.0 * t_max * std::numeric_limits<double>::epsilon(); }

}  // namespace

TEST_CASE("rope matches numpy (complex multiplication by exp(j t f_i))", "[rope]") {
    // Regenerate: /usr/bin/python3 tests/fixtures/make_rope_fixtures.py
    const fixtures::File& file = fixtures::cached("rope.txt");
    for (const std::string name : {"small", "batched", "far"}) {
        const fixtures::Array& x = file["rope/" + name + "/x"];
        const fixtures::Array& params = file["rope/" + name + "/params"];
        const fixtures::Array& expected = file["rope/" + name + "/out"];
        const auto start = static_cast<std::int64_t>(params.values[0]);
        const double base = params.values[1];
        const auto batch = static_cast<std::int64_t>(x.shape.size() == 3 ? x.shape[0] : 1);
        const double tolerance = angle_tolerance(static_cast<double>(start) + static_cast<double>(x.shape[x.shape.size() - 2]));
        const Tensor<double> input = to_tensor<double>(x);
        for (const Kernel kernel : {Kernel::reference, Kernel::fast}) {
            const Tensor<double> out = rotate(kernel, input, batch, start, base);
            INFO("case " << name << ", kernel " << (kernel == Kernel::reference ? "reference" : "fast") << ", tolerance "
                         << tolerance);
            for (std::size_t j = 0; j < out.size(); ++j) REQUIRE_THAT(out.data()[j], WithinAbs(expected.values[j], tolerance));
        }
        const Tensor<double> wrapped = testing::rope(input, start, base);
        REQUIRE(wrapped.shape() == x.shape);
        for (std::size_t j = 0; j < wrapped.size(); ++j) REQUIRE_THAT(wrapped.data()[j], WithinAbs(expected.values[j], tolerance));
    }
}

TEST_CASE("rope in float32 is the float64 rotation rounded once (within 1 ulp of numpy's)", "[rope]") {
    // Both sides rotate in float64 and round once; they can differ only when their float64 results straddle a float32
    // rounding boundary, by one float32 ulp.
    const fixtures::File& file = fixtures::cached("rope.txt");
    const fixtures::Array& x = file["rope/single32/x"];  // float32 values, stored exactly as float64
    const fixtures::Array& expected = file["rope/single32/out"];
    const auto start = file["rope/single32/params"].integer(0);
    const Tensor<float> out = testing::rope(to_tensor<float>(x), start);
    for (std::size_t j = 0; j < out.size(); ++j)
        REQUIRE_THAT(out.data()[j], WithinULP(static_cast<float>(expected.values[j]), 1));
}

TEST_CASE("rope: fast kernel matches the reference across widths, lengths, starts and batches", "[rope]") {
    for (const std::int64_t width : {2, 4, 6, 8, 64}) {
        for (const std::int64_t length : {0, 1, 15, 16, 17, 40}) {
            for (const std::int64_t start : {std::int64_t{0}, std::int64_t{5}, std::int64_t{123456}, std::int64_t{1000000000}}) {
                const std::int64_t batch = 3;
                const auto x = random_tensor<double>({3, static_cast<std::size_t>(length), static_cast<std::size_t>(width)},
                                                     static_cast<std::uint32_t>(width * 1000 + length));
                const auto reference = rotate(Kernel::reference, x, batch, start, 10000.0);
                const auto fast = rotate(Kernel::fast, x, batch, start, 10000.0);
                const double tolerance = angle_tolerance(static_cast<double>(start + length));
                INFO("width " << width << ", length " << length << ", start " << start);
                for (std::size_t j = 0; j < x.size(); ++j)
                    REQUIRE_THAT(fast.data()[j], WithinAbs(reference.data()[j], tolerance));
            }
        }
    }
}

TEST_CASE("rope: position 0 leaves x unchanged, and the rotation can be done in place", "[rope]") {
    const auto x = random_tensor<double>({2, 1, 8}, 7);
    for (const Kernel kernel : {Kernel::reference, Kernel::fast}) {
        const auto out = rotate(kernel, x, 2, 0, 10000.0);
        for (std::size_t j = 0; j < x.size(); ++j) REQUIRE(out.data()[j] == x.data()[j]);  // cos 0 = 1, sin 0 = 0 exactly
    }
    const auto y = random_tensor<double>({2, 20, 8}, 8);
    const auto expected = testing::rope(y, 3);
    Tensor<double> in_place = y;
    seqorder::rope_into<double>(in_place.data(), in_place.data(), 2, 20, 8, 3);
    for (std::size_t j = 0; j < y.size(); ++j) REQUIRE(in_place.data()[j] == expected.data()[j]);
}

TEST_CASE("rope preserves the norm of every coordinate pair (a rotation)", "[rope]") {
    const auto x = random_tensor<double>({4, 33, 16}, 11);
    for (const std::int64_t start : {std::int64_t{0}, std::int64_t{999999}}) {
        const auto out = testing::rope(x, start);
        for (std::size_t j = 0; j < x.size(); j += 2) {
            const double before = std::hypot(x.data()[j], x.data()[j + 1]);
            const double after = std::hypot(out.data()[j], out.data()[j + 1]);
            // |x| <= sqrt(2): a few roundings of the products and of hypot, a few ulps of 1; and the fast path's sin
            // and cos come from up to kAnchorRows - 1 rotations of an exact anchor, which keep sin^2 + cos^2 within
            // 3.5 u per rotation of 1 (positions.hpp), so the pair's length within that relative error.
            const double rotations = 3.5 * static_cast<double>(seqorder::kAnchorRows) * 0x1p-53;
            REQUIRE_THAT(after, WithinAbs(before, 8 * std::numeric_limits<double>::epsilon() + before * rotations));
        }
    }
}

TEST_CASE("rope: rows for start = s equal rows s... of a rotation from 0", "[rope]") {
    const std::int64_t offset = 10, length = 7, width = 8;
    const auto tail = random_tensor<double>({static_cast<std::size_t>(length), static_cast<std::size_t>(width)}, 21);
    // whole: (offset + length, width); its last `length` rows are `tail`, the first rows arbitrary.
    auto whole = random_tensor<double>({static_cast<std::size_t>(offset + length), static_cast<std::size_t>(width)}, 22);
    for (std::size_t j = 0; j < tail.size(); ++j) whole.data()[static_cast<std::size_t>(offset * width) + j] = tail.data()[j];
    for (const Kernel kernel : {Kernel::reference, Kernel::fast}) {
        const auto shifted = rotate(kernel, tail, 1, offset, 10000.0);
        const auto from_zero = rotate(kernel, whole, 1, 0, 10000.0);
        for (std::size_t j = 0; j < tail.size(); ++j) {
            const double expected = from_zero.data()[static_cast<std::size_t>(offset * width) + j];
            if (kernel == Kernel::reference)
                REQUIRE(shifted.data()[j] == expected);  // the same angles t * f_i, computed the same way
            else
                REQUIRE_THAT(shifted.data()[j], WithinAbs(expected, angle_tolerance(offset + length)));  // other anchors
        }
    }
}

TEST_CASE("rope: q_m . k_n after rotation depends only on the offset m - n", "[rope]") {
    // The same content vector q at every position m and k at every position n: any change of q_m . k_n along a
    // diagonal m - n = const could only come from the positions.
    const std::size_t length = 48, width = 16;
    const auto q0 = random_tensor<double>({1, width}, 31), k0 = random_tensor<double>({1, width}, 32);
    Tensor<double> q({length, width}), k({length, width});
    for (std::size_t t = 0; t < length; ++t)
        for (std::size_t d = 0; d < width; ++d) {
            q(t, d) = q0(0, d);
            k(t, d) = k0(0, d);
        }
    auto scores = [&](const Tensor<double>& a, const Tensor<double>& b) {
        Tensor<double> s({length, length});
        for (std::size_t m = 0; m < length; ++m)
            for (std::size_t n = 0; n < length; ++n) {
                double dot = 0;
                for (std::size_t d = 0; d < width; ++d) dot += a(m, d) * b(n, d);
                s(m, n) = dot;
            }
        return s;
    };
    for (const std::int64_t start : {std::int64_t{0}, std::int64_t{5000}}) {
        const auto rotated = scores(testing::rope(q, start), testing::rope(k, start));
        double worst = 0;
        for (std::size_t m = 1; m < length; ++m)
            for (std::size_t n = 1; n < length; ++n) worst = std::max(worst, std::abs(rotated(m, n) - rotated(m - 1, n - 1)));
        INFO("start " << start << ": max change along a diagonal " << worst);
        REQUIRE(worst < 1e-12);
        // And the offset is all that matters across starts too: the scores from start 0 and 5000 agree.
        if (start != 0) {
            const auto from_zero = scores(testing::rope(q, 0), testing::rope(k, 0));
            for (std::size_t j = 0; j < rotated.size(); ++j) REQUIRE_THAT(rotated.data()[j], WithinAbs(from_zero.data()[j], 1e-11));
        }
    }
    // Adding sinusoids instead does not have this property: the diagonals change by far more than rounding.
    const auto added = scores(testing::add_positions(q), testing::add_positions(k));
    double worst = 0;
    for (std::size_t m = 1; m < length; ++m)
        for (std::size_t n = 1; n < length; ++n) worst = std::max(worst, std::abs(added(m, n) - added(m - 1, n - 1)));
    INFO("added sinusoids: max change along a diagonal " << worst);
    REQUIRE(worst > 0.1);
}

TEST_CASE("positions: the 'halves' layout holds the interleaved table's numbers, columns permuted", "[rope][layout]") {
    for (const std::int64_t width : {2, 8, 10, 64}) {
        for (const std::int64_t start : {std::int64_t{0}, std::int64_t{77}, std::int64_t{1000000}}) {
            const auto w = static_cast<std::size_t>(width), pairs = w / 2;
            const auto interleaved = testing::positions<double>(20, width, start, 10000.0, Layout::interleaved);
            const auto halves = testing::positions<double>(20, width, start, 10000.0, Layout::halves);
            std::vector<double> reference(20 * w);
            seqorder::positions_reference<double>(reference, 20, width, start, 10000.0, Layout::halves);
            for (std::size_t t = 0; t < 20; ++t)
                for (std::size_t i = 0; i < pairs; ++i) {
                    REQUIRE(halves(t, i) == interleaved(t, 2 * i));              // sines first
                    REQUIRE(halves(t, pairs + i) == interleaved(t, 2 * i + 1));  // then the cosines, same frequencies
                    REQUIRE(reference[t * w + i] == std::sin(static_cast<double>(start + static_cast<std::int64_t>(t)) *
                                                             std::pow(10000.0, -static_cast<double>(2 * i) / static_cast<double>(width))));
                }
        }
    }
}

TEST_CASE("positions: p_{t+k} is the same rotation of p_t for every t", "[rope][layout]") {
    // Pair i of p_t is (sin(t f_i), cos(t f_i)); angle addition gives
    //   sin((t+k) f) = sin(t f) cos(k f) + cos(t f) sin(k f),  cos((t+k) f) = cos(t f) cos(k f) - sin(t f) sin(k f),
    // a rotation that depends on k and f_i only, never on t.
    const std::int64_t width = 12, length = 200;
    const auto p = testing::positions<double>(length, width);
    const std::vector<double> f = [&] {
        std::vector<double> frequency(static_cast<std::size_t>(width / 2));
        seqorder::position_frequencies(frequency, width, 10000.0);
        return frequency;
    }();
    for (const std::int64_t k : {1, 3, 50}) {
        double worst = 0;
        for (std::int64_t t = 0; t + k < length; ++t)
            for (std::size_t i = 0; i < f.size(); ++i) {
                const double c = std::cos(static_cast<double>(k) * f[i]), s = std::sin(static_cast<double>(k) * f[i]);
                const auto row = static_cast<std::size_t>(t), later = static_cast<std::size_t>(t + k);
                const double sin_t = p(row, 2 * i), cos_t = p(row, 2 * i + 1);
                worst = std::max(worst, std::abs(p(later, 2 * i) - (sin_t * c + cos_t * s)));
                worst = std::max(worst, std::abs(p(later, 2 * i + 1) - (cos_t * c - sin_t * s)));
            }
        INFO("k = " << k << ": max deviation " << worst);
        REQUIRE(worst < 1e-13);
    }
}

TEST_CASE("rope: bad arguments are errors naming the argument", "[rope][errors]") {
    // The package's call (calls::rope): x (.., T, D) and start, base as a caller gives them.
    const Tensor<double> x = random_tensor<double>({2, 4, 8}, 3);
    REQUIRE_THROWS_WITH(testing::rope(Tensor<double>({2, 3})), Contains("x's width D (its last axis) must be a positive even integer"));
    REQUIRE_THROWS_WITH(testing::rope(Tensor<double>({2, 0})), Contains("x's width D (its last axis) must be a positive even integer"));
    REQUIRE_THROWS_WITH(testing::rope(x, -1), Contains("start must be an integer at least 0"));
    REQUIRE_THROWS_WITH(testing::rope(x, seqorder::kMaxPosition - 1), Contains("start + length must be at most 2^53"));
    REQUIRE_THROWS_WITH(testing::rope(x, 0, 0.0), Contains("base must be a finite number greater than 0"));
    REQUIRE_THROWS_WITH(testing::rope(x, 0, std::nan("")), Contains("base must be a finite number greater than 0"));
    REQUIRE_THROWS_WITH(testing::rope(x, 0, INFINITY), Contains("base must be a finite number greater than 0"));
    REQUIRE_THROWS_AS(testing::rope(Tensor<double>({2, 3})), std::invalid_argument);
    REQUIRE_NOTHROW(testing::rope(x));
    REQUIRE_NOTHROW(testing::rope(Tensor<double>({0, 4, 8})));  // an empty batch is nothing to do
    seqorder::calls::ShiftArgs short_data{testing::arg(x), 0, 10000, {}};
    short_data.x.shape = {3, 4, 8};
    REQUIRE_THROWS_WITH(seqorder::calls::rope(short_data), Contains("x.data has 64 elements but shape [3, 4, 8] needs 96"));
    REQUIRE_THROWS_WITH(testing::rope(Tensor<double>({8})), Contains("x must have shape (T, D) or (.., T, D), got [8]"));
    REQUIRE_THROWS_WITH(testing::rope(Tensor<float>({2, 3, 0})), Contains("x's width D (its last axis) must be a positive even integer"));
}
