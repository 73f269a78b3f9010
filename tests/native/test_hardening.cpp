// Regressions for what the fuzz targets (fuzz/) found in the core, one test per finding. Each ran into a sanitizer
// report, an allocation of terabytes or a NaN table before its fix; the sanitize layer of npm test runs them under
// ASan + UBSan, so a signed overflow or an overrun here fails even when the result looks right.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "seqorder.hpp"

using Catch::Matchers::Contains;
using seqorder::Shape;
using seqorder::Tensor;

namespace {
constexpr std::int64_t kHuge = std::int64_t{1} << 40;  // a width or length no table of this size could hold
}

TEST_CASE("an empty positions table allocates nothing, whatever its width", "[positions][fuzz]") {
    // Was: positions_fast allocated its per-pair state (5 * width / 2 doubles) before looking at the length.
    const Tensor<double> table = seqorder::positions<double>(0, kHuge);
    CHECK(table.shape() == Shape{0, static_cast<std::size_t>(kHuge)});
    CHECK(table.size() == 0);
    std::vector<float> none;
    CHECK_NOTHROW(seqorder::positions_reference<float>(none, 0, kHuge, 0, 10000.0, seqorder::Layout::interleaved));
    CHECK_NOTHROW(seqorder::positions_fast<float>(none, 0, kHuge, 0, 10000.0, seqorder::Layout::halves));
}

TEST_CASE("positions_fast refuses an out span too small even when length * width does not fit 64 bits", "[positions][fuzz]") {
    // 2^33 * 2^31 = 2^64 wraps to 0 in size_t: the old check (out.size() < length * width) let an empty span through.
    std::vector<double> small(4);
    CHECK_THROWS_AS(seqorder::positions_fast<double>(small, std::int64_t{1} << 33, std::int64_t{1} << 31), std::invalid_argument);
    CHECK_THROWS_WITH(seqorder::positions_fast<double>(small, 3, 2), Contains("out must hold"));
}

TEST_CASE("adding positions to an empty batch makes no table", "[positions][fuzz]") {
    // Was: a (length * width) table was allocated, and length * width overflowed int64 (UB) for huge empty shapes.
    const Tensor<double> x(Shape{0, static_cast<std::size_t>(kHuge), 2});
    const Tensor<double> out = seqorder::add_positions(x);
    CHECK(out.shape() == x.shape());
    std::vector<float> none;
    CHECK_NOTHROW(seqorder::add_positions_into<float>(none, none, 0, std::int64_t{1} << 40, std::int64_t{1} << 40));
}

TEST_CASE("learned positions past the table near INT64_MAX: out_of_range, no overflow in the message", "[positions][fuzz]") {
    // Was: the message computed start + length - 1 in int64 (signed overflow, caught by UBSan).
    const std::vector<double> table(3 * 2, 1.0);
    std::vector<double> out(5 * 2);
    const std::int64_t start = std::numeric_limits<std::int64_t>::max();
    CHECK_THROWS_AS(seqorder::learned_positions_into<double>(out, table, 3, 2, 5, start), std::out_of_range);
    CHECK_THROWS_WITH(seqorder::learned_positions_into<double>(out, table, 3, 2, 5, start),
                      Contains("9223372036854775811"));  // start + length - 1, printed exactly
}

TEST_CASE("attention with no query rows allocates no key-length buffers", "[attention][fuzz]") {
    // Was: the reference allocated three (Tk) row buffers before looking at B and Tq; B = 0 lets Tk be anything.
    const std::size_t keys = static_cast<std::size_t>(kHuge);
    const Tensor<double> q(Shape{0, 3, 2}), k(Shape{0, keys, 2}), v(Shape{0, keys, 1});
    CHECK(seqorder::attention(q, k, v).shape() == Shape{0, 3, 1});
    const auto steps = seqorder::attention_steps(q, k, v, {true, {}});
    CHECK(steps.weights.shape() == Shape{0, 3, keys});
}

TEST_CASE("a base so small that an angle overflows float64 is an error naming base, not a NaN table", "[positions][fuzz]") {
    // Was: base 7e-322 passed the check (finite, > 0) and gave frequencies of inf: sin(0 * inf) = NaN everywhere.
    const double subnormal = std::numeric_limits<double>::denorm_min();
    CHECK_THROWS_AS(seqorder::positions<double>(1, 48, 0, subnormal), std::invalid_argument);
    CHECK_THROWS_WITH(seqorder::positions<float>(1, 48, 0, subnormal), Contains("base"));
    CHECK_THROWS_AS(seqorder::add_positions(Tensor<double>(Shape{2, 48}), 0, subnormal), std::invalid_argument);
    // Below 1 but with finite angles it is a valid (if odd) table: finite values in [-1, 1].
    for (const double base : {0.5, 1e-300}) {
        const Tensor<double> table = seqorder::positions<double>(10, 4, 0, base);
        for (const double x : table.data()) CHECK((std::isfinite(x) && std::fabs(x) <= 1.0));
    }
    // An empty table has no angles: any base > 0 will do.
    CHECK_NOTHROW(seqorder::positions<double>(0, 48, 0, subnormal));
}
