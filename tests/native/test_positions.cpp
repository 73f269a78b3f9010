// The sinusoidal position table (positions_reference, positions_fast, positions) and x + positions (add_positions)
// against the numpy fixtures, the table's properties, and every error path of their arguments.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "calling.hpp"
#include "calls.hpp"
#include "compare.hpp"
#include "fixtures.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using seqorder::Layout;
using seqorder::Tensor;

namespace {

// --- Tolerances, each with its reason --------------------------------------------------------------------------
// float64 table vs numpy: both round t * f_i in float64 and call a libm sin/cos (< 1 ulp apart); the fast path's
// rotation recurrence adds a few ulps of the angle between anchors (~2e-10 at t = 1e6): the README states 1e-9.
constexpr double kPositionsF64 = 1e-9;
// float32 table vs numpy's float64: the README states 2e-7 (a float32 angle would be off by ~6e-2 at t = 1e6).
constexpr double kPositionsF32 = 2e-7;
// ... and what "computed from float64 angles, rounded once" really gives: half a float32 ulp of a value in [-1, 1]
// (2^-25) on top of the float64 error.
constexpr double kPositionsF32RoundedOnce = 0x1p-25 + kPositionsF64;
// float32 x + positions vs numpy's float64 sum: the table value rounded once (2^-25), then the float32 sum rounded
// once (half an ulp: 2^-22 while |sum| < 8, which the fixture inputs keep).
constexpr double kAddPositionsF32 = 0x1p-25 + 0x1p-22 + kPositionsF64;
// Squared norm of a row vs D/2, relative: libm's pairs keep sin^2 + cos^2 = 1 within a few ulps; the fast path's
// values are within 3.5 n u (< 1e-13, n < 256 rows after an anchor) of exact, which moves sin^2 + cos^2 by at most
// twice that. 1e-12 leaves margin.
constexpr double kNormF64 = 1e-12;
// ... float32: each value rounded once (relative 2^-24), so each square within 2^-23; twice that as margin.
constexpr double kNormF32 = 0x1p-22;
// positions_fast vs positions_reference in float64, at positions up to t: the angles t * f_i are rounded
// differently (a few ulps of t, ulp(t) = t * 2^-52), and the rotation recurrence adds <= 3.5 u per row since its last
// exact anchor (< 1e-13 for the core's kAnchorRows = 256); 64 ulps of t plus 2e-13 as the bound.
double fast_vs_reference_f64(double t) { return 2e-13 + 64.0 * t * std::numeric_limits<double>::epsilon(); }
// ... in float32: each side is that float64 value rounded once (2^-25 each, for values in [-1, 1]). Near zero the
// float64 difference spans many float32 ulps, so this is an absolute bound, not a count of ulps.
double fast_vs_reference_f32(double t) { return fast_vs_reference_f64(t) + 0x1p-24; }
// Sweeps run this many rows: through a whole run of the recurrence and past the next anchor.
constexpr std::int64_t kSweepLength = seqorder::kAnchorRows + 8;

const char* layout_name(Layout layout) { return layout == Layout::interleaved ? "interleaved" : "halves"; }

template <class T>
const char* dtype_name() {
    return sizeof(T) == 8 ? "float64" : "float32";
}

enum class Kernel { reference, fast, tensor };
const char* kernel_name(Kernel kernel) {
    return kernel == Kernel::reference ? "positions_reference" : kernel == Kernel::fast ? "positions_fast" : "positions";
}

// (length, width) table from one of the three entry points.
template <class T>
std::vector<T> table(Kernel kernel, std::int64_t length, std::int64_t width, std::int64_t start, double base = 10000.0,
                     Layout layout = Layout::interleaved) {
    if (kernel == Kernel::tensor) {
        const Tensor<T> t = testing::positions<T>(length, width, start, base, layout);
        REQUIRE(t.shape() == seqorder::Shape{static_cast<std::size_t>(length), static_cast<std::size_t>(width)});
        return {t.data().begin(), t.data().end()};
    }
    std::vector<T> out(static_cast<std::size_t>(length * width));
    if (kernel == Kernel::reference)
        seqorder::positions_reference<T>(out, length, width, start, base, layout);
    else
        seqorder::positions_fast<T>(out, length, width, start, base, layout);
    return out;
}

const std::vector<std::int64_t> kSweepWidths = {2, 4, 6, 8, 10, 16, 32, 64, 128, 256, 512, 1024};
const std::vector<std::int64_t> kSweepStarts = {0, 1, 10, 1000, 10000, 100000, 999983, 1000000};

template <class T>
void check_against_fixtures() {
    const fixtures::File& file = fixtures::cached("positions.txt");
    const std::size_t cases = file.count("positions", "table");
    REQUIRE(cases >= 30);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "positions/" + std::to_string(n);
        const fixtures::Array& params = file[prefix + "/params"];
        const fixtures::Array& want = file[prefix + "/table"];
        const std::int64_t length = params.integer(0), width = params.integer(1), start = params.integer(2);
        const double base = params.scalar(3);
        const Layout layout = params.integer(4) == 0 ? Layout::interleaved : Layout::halves;
        for (Kernel kernel : {Kernel::reference, Kernel::fast, Kernel::tensor}) {
            const std::string what = std::string(kernel_name(kernel)) + "<" + dtype_name<T>() + ">(length " +
                                     std::to_string(length) + ", width " + std::to_string(width) + ", start " +
                                     std::to_string(start) + ", base " + std::to_string(base) + ", " +
                                     layout_name(layout) + ")";
            const std::vector<T> got = table<T>(kernel, length, width, start, base, layout);
            if constexpr (sizeof(T) == 8) {
                testing::check_within_abs<T>(what, got, want, kPositionsF64);
            } else {
                testing::check_within_abs<T>(what, got, want, kPositionsF32);
                testing::check_within_abs<T>(what + " rounded once", got, want, kPositionsF32RoundedOnce);
            }
        }
    }
}

}  // namespace

// --- Against numpy ---------------------------------------------------------------------------------------------

TEST_CASE("positions float64 match numpy within 1e-9 (widths up to 1024, starts up to 1e6, both layouts)",
          "[positions][fixtures]") {
    check_against_fixtures<double>();
}

TEST_CASE("positions float32 match numpy within 2e-7 (widths up to 1024, starts up to 1e6, both layouts)",
          "[positions][fixtures]") {
    check_against_fixtures<float>();
}

TEST_CASE("add_positions matches numpy's x + positions, both dtypes, with and without a batch axis",
          "[positions][add_positions][fixtures]") {
    const fixtures::File& file = fixtures::cached("lookup.txt");
    const std::size_t cases = file.count("add_positions", "x");
    REQUIRE(cases >= 3);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "add_positions/" + std::to_string(n);
        const fixtures::Array& params = file[prefix + "/params"];
        const fixtures::Array& want = file[prefix + "/output"];
        const std::int64_t start = params.integer(0);
        const double base = params.scalar(1);
        for (double v : want.values) REQUIRE(std::abs(v) < 8.0);  // the premise of kAddPositionsF32
        const std::string what = prefix + " (start " + std::to_string(start) + ")";

        const Tensor<double> got64 = testing::add_positions(testing::tensor_of<double>(file[prefix + "/x"]), start, base);
        CHECK(got64.shape() == seqorder::Shape(want.shape.begin(), want.shape.end()));
        testing::check_within_abs<double>(what + " float64", got64.data(), want, kPositionsF64);

        const Tensor<float> got32 = testing::add_positions(testing::tensor_of<float>(file[prefix + "/x"]), start, base);
        CHECK(got32.shape() == seqorder::Shape(want.shape.begin(), want.shape.end()));
        testing::check_within_abs<float>(what + " float32", got32.data(), want, kAddPositionsF32);
    }
}

// --- Properties ------------------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("position 0 is (0, 1, 0, 1, ...) exactly, in both layouts", "[positions][properties]", double,
                   float) {
    for (Kernel kernel : {Kernel::reference, Kernel::fast, Kernel::tensor}) {
        for (std::int64_t width : kSweepWidths) {
            INFO(kernel_name(kernel) << ", width " << width);
            const std::vector<TestType> interleaved = table<TestType>(kernel, 3, width, 0);
            const std::vector<TestType> halves = table<TestType>(kernel, 3, width, 0, 10000.0, Layout::halves);
            for (std::int64_t i = 0; i < width / 2; ++i) {
                REQUIRE(interleaved[static_cast<std::size_t>(2 * i)] == TestType{0});
                REQUIRE(interleaved[static_cast<std::size_t>(2 * i + 1)] == TestType{1});
                REQUIRE(halves[static_cast<std::size_t>(i)] == TestType{0});
                REQUIRE(halves[static_cast<std::size_t>(width / 2 + i)] == TestType{1});
            }
        }
    }
}

TEMPLATE_TEST_CASE("every row has squared norm D/2 (one sin^2 + cos^2 = 1 per pair)", "[positions][properties]", double,
                   float) {
    const double tolerance = sizeof(TestType) == 8 ? kNormF64 : kNormF32;
    for (Kernel kernel : {Kernel::reference, Kernel::fast}) {
        for (std::int64_t width : kSweepWidths) {
            for (std::int64_t start : kSweepStarts) {
                const std::int64_t length = kSweepLength;
                const std::vector<TestType> pe = table<TestType>(kernel, length, width, start);
                double worst = 0.0, worst_norm = 0.0;
                for (std::int64_t row = 0; row < length; ++row) {
                    double norm = 0.0;
                    for (std::int64_t j = 0; j < width; ++j) {
                        const double x = pe[static_cast<std::size_t>(row * width + j)];
                        norm += x * x;
                    }
                    const double error = std::abs(norm - static_cast<double>(width) / 2);
                    if (error >= worst) {
                        worst = error;
                        worst_norm = norm;
                    }
                }
                INFO(kernel_name(kernel) << ", width " << width << ", start " << start << ", worst row's squared norm");
                testing::report(std::string("norm ") + kernel_name(kernel) + " " + dtype_name<TestType>(),
                                worst / (static_cast<double>(width) / 2), tolerance);
                CHECK_THAT(worst_norm, WithinRel(static_cast<double>(width) / 2, tolerance));
            }
        }
    }
}

TEMPLATE_TEST_CASE("the rows for start = 10 equal rows 10.. of a table from 0", "[positions][properties]", double,
                   float) {
    for (std::int64_t width : {2, 8, 64, 1024}) {
        INFO("width " << width);
        const auto w = static_cast<std::size_t>(width);
        const std::int64_t length = kSweepLength;
        // The reference computes each row from t alone: the same bits whatever the start.
        const std::vector<TestType> from_zero = table<TestType>(Kernel::reference, length + 10, width, 0);
        const std::vector<TestType> from_ten = table<TestType>(Kernel::reference, length, width, 10);
        testing::check_identical<TestType>("positions_reference", from_ten,
                                           std::span<const TestType>(from_zero).subspan(10 * w));
        // The fast path anchors at other rows, so it may differ in its last bits only.
        const std::vector<TestType> fast_from_zero = table<TestType>(Kernel::tensor, length + 10, width, 0);
        const std::vector<TestType> fast_from_ten = table<TestType>(Kernel::tensor, length, width, 10);
        const double t = static_cast<double>(length + 10);
        const double tolerance = sizeof(TestType) == 8 ? 2 * fast_vs_reference_f64(t) : 2 * fast_vs_reference_f32(t);
        testing::check_within_abs<TestType>("positions", fast_from_ten,
                                            std::span<const TestType>(fast_from_zero).subspan(10 * w), tolerance);
    }
}

TEMPLATE_TEST_CASE("the 'halves' layout is a column permutation of the interleaved one", "[positions][properties]",
                   double, float) {
    for (Kernel kernel : {Kernel::reference, Kernel::fast, Kernel::tensor}) {
        for (std::int64_t width : {2, 6, 64, 1024}) {
            for (std::int64_t start : {0, 12345, 1000000}) {
                INFO(kernel_name(kernel) << ", width " << width << ", start " << start);
                const std::int64_t length = 20;
                const std::vector<TestType> a = table<TestType>(kernel, length, width, start);
                const std::vector<TestType> b = table<TestType>(kernel, length, width, start, 10000.0, Layout::halves);
                const std::int64_t half = width / 2;
                bool permuted = true;
                for (std::int64_t row = 0; row < length; ++row) {
                    const auto at = [&](std::int64_t column) { return static_cast<std::size_t>(row * width + column); };
                    for (std::int64_t i = 0; i < half; ++i)
                        permuted = permuted && b[at(i)] == a[at(2 * i)] && b[at(half + i)] == a[at(2 * i + 1)];
                }
                CHECK(permuted);
            }
        }
    }
}

TEMPLATE_TEST_CASE("positions_fast agrees with positions_reference across widths and starts",
                   "[positions][properties]", double, float) {
    for (std::int64_t width : kSweepWidths) {
        for (std::int64_t start : kSweepStarts) {
            const std::int64_t length = kSweepLength;
            const std::vector<TestType> fast = table<TestType>(Kernel::fast, length, width, start);
            const std::vector<TestType> reference = table<TestType>(Kernel::reference, length, width, start);
            INFO("width " << width << ", start " << start);
            std::size_t worst = 0;
            double worst_error = 0.0;
            for (std::size_t j = 0; j < fast.size(); ++j) {
                const double error = std::abs(static_cast<double>(fast[j]) - static_cast<double>(reference[j]));
                if (error > worst_error) {
                    worst_error = error;
                    worst = j;
                }
            }
            INFO("worst element " << worst << " (row " << worst / static_cast<std::size_t>(width) << ")");
            const auto t = static_cast<double>(start + length);
            const double tolerance = sizeof(TestType) == 8 ? fast_vs_reference_f64(t) : fast_vs_reference_f32(t);
            testing::report(std::string("fast-vs-reference ") + dtype_name<TestType>() + " start " + std::to_string(start),
                            worst_error, tolerance);
            CHECK_THAT(static_cast<double>(fast[worst]), WithinAbs(static_cast<double>(reference[worst]), tolerance));
        }
    }
}

TEST_CASE("positions: edge sizes", "[positions][properties]") {
    SECTION("length 0 is an empty (0, width) table") {
        const Tensor<double> empty = testing::positions<double>(0, 8);
        CHECK(empty.shape() == seqorder::Shape{0, 8});
        CHECK(empty.size() == 0);
    }
    SECTION("the last exact position, 2^53 - 1, is accepted and gives values in [-1, 1]") {
        const std::int64_t last = seqorder::kMaxPosition - 1;
        for (Kernel kernel : {Kernel::reference, Kernel::fast, Kernel::tensor}) {
            const std::vector<double> row = table<double>(kernel, 1, 16, last);
            for (double x : row) CHECK((std::isfinite(x) && std::abs(x) <= 1.0));
        }
    }
    SECTION("add_positions on an empty batch or length keeps the shape") {
        CHECK(testing::add_positions(Tensor<float>({0, 4, 8})).shape() == seqorder::Shape{0, 4, 8});
        CHECK(testing::add_positions(Tensor<double>({2, 0, 8})).shape() == seqorder::Shape{2, 0, 8});
    }
    SECTION("add_positions on a zero x is the table itself, for every sequence of the batch") {
        const Tensor<double> sum = testing::add_positions(Tensor<double>({3, 5, 6}), 7);
        const Tensor<double> pe = testing::positions<double>(5, 6, 7);
        for (std::size_t b = 0; b < 3; ++b)
            testing::check_identical<double>("sequence " + std::to_string(b), sum.data().subspan(b * 30, 30), pe.data());
    }
    SECTION("add_positions_into works in place") {
        Tensor<double> x = testing::random_tensor<double>({2, 4, 8}, 7);
        const Tensor<double> expected = testing::add_positions(x, 3);
        seqorder::add_positions_into<double>(x.data(), x.data(), 2, 4, 8, 3);
        testing::check_identical<double>("in place", x.data(), expected.data());
    }
}

// --- Errors ----------------------------------------------------------------------------------------------------

TEST_CASE("positions: every bad argument is an error naming the argument and the rule", "[positions][errors]") {
    // The rule (check_positions_args) and the package's call (calls::positions, both dtypes) reject the same arguments;
    // the call first reads each number as a caller gives it, so a negative or inexact one gets that number's message.
    const auto all_throw_with = [&](std::int64_t length, std::int64_t width, std::int64_t start, double base,
                                    const std::string& text, const std::string& call_text = "") {
        INFO("length " << length << ", width " << width << ", start " << start << ", base " << base);
        REQUIRE_THROWS_AS(seqorder::check_positions_args(length, width, start, base), std::invalid_argument);
        REQUIRE_THROWS_WITH(seqorder::check_positions_args(length, width, start, base), Contains(text));
        const std::string from_call = call_text.empty() ? text : call_text;
        REQUIRE_THROWS_AS(testing::positions<double>(length, width, start, base), std::invalid_argument);
        REQUIRE_THROWS_WITH(testing::positions<double>(length, width, start, base), Contains(from_call));
        REQUIRE_THROWS_WITH(testing::positions<float>(length, width, start, base), Contains(from_call));
    };
    SECTION("width: odd, zero, negative") {
        for (std::int64_t width : {3, 1, 0, 1025})
            all_throw_with(2, width, 0, 10000.0, "width must be a positive even integer");
        all_throw_with(2, -2, 0, 10000.0, "width must be a positive even integer", "width must be an integer at least 0");
        REQUIRE_THROWS_WITH(testing::positions<double>(2, 7), Contains("got 7"));
    }
    SECTION("length: negative") {
        all_throw_with(-1, 8, 0, 10000.0, "length must be a non-negative integer", "length must be an integer at least 0");
        REQUIRE_THROWS_WITH(testing::positions<double>(-5, 8), Contains("got -5"));
    }
    SECTION("start: negative") {
        all_throw_with(2, 8, -1, 10000.0, "start must be a non-negative integer", "start must be an integer at least 0");
        all_throw_with(2, 8, std::numeric_limits<std::int64_t>::min(), 10000.0, "start must be a non-negative integer",
                       "start must be an integer at least 0");
    }
    SECTION("start + length beyond 2^53 (positions must stay exact integers)") {
        const std::int64_t max = seqorder::kMaxPosition;
        all_throw_with(1, 8, max, 10000.0, "start + length must be at most 2^53");
        all_throw_with(2, 8, max - 1, 10000.0, "start + length must be at most 2^53");
        all_throw_with(std::numeric_limits<std::int64_t>::max(), 8, 0, 10000.0, "start + length must be at most 2^53",
                       "length must be an integer at most 2^53 - 1");
        all_throw_with(1, 8, std::numeric_limits<std::int64_t>::max(), 10000.0, "start + length must be at most 2^53",
                       "start must be an integer at most 2^53");
        CHECK_NOTHROW(seqorder::check_positions_args(1, 8, max - 1, 10000.0));
        CHECK_NOTHROW(seqorder::check_positions_args(0, 8, max, 10000.0));
    }
    SECTION("base: zero, negative, NaN, infinite") {
        for (double base : {0.0, -0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()})
            all_throw_with(2, 8, 0, base, "base must be a finite number greater than 0");
    }
    SECTION("add_positions checks the same arguments, and x's rank") {
        REQUIRE_THROWS_WITH(testing::add_positions(Tensor<double>({3, 5})), Contains("must be a positive even integer"));
        REQUIRE_THROWS_WITH(testing::add_positions(Tensor<double>({2, 3, 4}), -1), Contains("start must be"));
        REQUIRE_THROWS_WITH(testing::add_positions(Tensor<double>({2, 4}), 0, 0.0), Contains("base must be"));
        REQUIRE_THROWS_WITH(testing::add_positions(Tensor<double>({1, 2, 8}), seqorder::kMaxPosition),
                            Contains("start + length must be at most 2^53"));
        REQUIRE_THROWS_AS(testing::add_positions(Tensor<double>({8})), std::invalid_argument);
        REQUIRE_THROWS_WITH(testing::add_positions(Tensor<double>({8})), Contains("x must have shape (T, D) or (.., T, D)"));
    }
}

TEST_CASE("positions: a table too large for the heap is a std::length_error, before any allocation",
          "[positions][errors]") {
    SECTION("beyond the 1 GiB tensor limit") {
        // 2^20 rows x 1024 float64 = 8 GiB; float32 2^19 x 1024 = 2 GiB.
        REQUIRE_THROWS_AS(testing::positions<double>(std::int64_t{1} << 20, 1024), std::length_error);
        REQUIRE_THROWS_WITH(testing::positions<double>(std::int64_t{1} << 20, 1024),
                            Contains("positions of shape [1048576, 1024] is too large") && Contains("1024 MiB"));
        REQUIRE_THROWS_AS(testing::positions<float>(std::int64_t{1} << 19, 1024), std::length_error);
    }
    SECTION("a length x width product that overflows 64 bits") {
        REQUIRE_THROWS_AS(testing::positions<double>(std::int64_t{1} << 52, std::int64_t{1} << 40), std::length_error);
        REQUIRE_THROWS_WITH(testing::positions<float>(std::int64_t{1} << 52, std::int64_t{1} << 40),
                            Contains("too large"));
    }
    SECTION("the limit itself, computed without allocating") {
        using seqorder::checked_element_count;
        CHECK(checked_element_count({std::size_t{1} << 18, 1024}, sizeof(float), "t") == std::size_t{1} << 28);  // 1 GiB
        REQUIRE_THROWS_AS(checked_element_count({(std::size_t{1} << 18) + 1, 1024}, sizeof(float), "t"), std::length_error);
        REQUIRE_THROWS_WITH(checked_element_count({std::size_t{1} << 32, std::size_t{1} << 32, 2}, 8, "big thing"),
                            Contains("big thing of shape [4294967296, 4294967296, 2] is too large"));
        // An empty tensor is fine whatever its other dimensions.
        CHECK(checked_element_count({0, std::size_t{1} << 62}, 8, "t") == 0);
        CHECK(checked_element_count({std::size_t{1} << 62, 0}, 8, "t") == 0);
    }
    SECTION("Tensor's own checks: size limit and data length") {
        REQUIRE_THROWS_AS(Tensor<double>({std::size_t{1} << 28}, "q"), std::length_error);
        REQUIRE_THROWS_WITH(Tensor<double>({std::size_t{1} << 28}, "q"), Contains("q of shape [268435456] is too large"));
        REQUIRE_THROWS_AS(Tensor<double>({2, 3}, std::vector<double>(5)), std::invalid_argument);
        REQUIRE_THROWS_WITH(Tensor<double>({2, 3}, std::vector<double>(5)),
                            Contains("5 elements") && Contains("[2, 3] needs 6"));
    }
}

TEST_CASE("plan_positions: positions' checks, and pieces of whole anchor intervals within 1 MiB", "[positions]") {
    using seqorder::calls::PositionsArgs;
    const auto plan = [](double length, double width, const char* dtype) {
        PositionsArgs a;
        a.length = length;
        a.width = width;
        a.dtype = dtype;
        return seqorder::calls::plan_positions(a);
    };
    CHECK(plan(2048, 512, "float32").count == 2048 * 512);
    CHECK(plan(2048, 512, "float32").piece_rows == 512);        // 512 rows of 2 KiB
    CHECK(plan(2048, 512, "float64").piece_rows == 256);        // 256 rows of 4 KiB
    CHECK(plan(2048, 1024, "float64").piece_rows == 256);       // 128 rows would fit: one anchor interval at least
    CHECK(plan(1 << 20, 2, "float64").piece_rows == 65536);     // 65536 rows of 16 bytes
    CHECK(plan(0, 8, "float32").piece_rows == 32768);            // an empty table: the pieces of its width
    for (const auto& [length, width, text] : {std::tuple{2.0, 3.0, "width must be a positive even integer"},
                                                std::tuple{-1.0, 8.0, "length must be an integer at least 0"},
                                                std::tuple{double(1 << 20), 1024.0, "positions of shape [1048576, 1024] is too large"}})
        CHECK_THROWS_WITH(plan(length, width, "float64"), Contains(text));
    PositionsArgs wrong_out;
    wrong_out.length = 4;
    wrong_out.width = 8;
    wrong_out.out_length = 31;
    CHECK_THROWS_WITH(seqorder::calls::plan_positions(wrong_out), Contains("out must have exactly 32 elements"));
}
