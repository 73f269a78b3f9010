// positions_fast's rotation recurrence over whole anchor blocks (kAnchorRows rows): the error bound documented in
// positions.hpp, checked row by row against an independent extended-precision sin/cos, and its exact properties
// (anchor rows equal the reference bit for bit; the float32 table is the float64 one rounded once).
// test_positions.cpp checks both kernels against numpy; these tests cover what short tables cannot: rows far from an
// anchor, several blocks, and widths whose pair count is not a multiple of the SIMD strip.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "compare.hpp"
#include "calling.hpp"

using seqorder::kAnchorRows;
using seqorder::Layout;

namespace {

// u = 2^-53, the unit roundoff of float64.
constexpr double kUnitRoundoff = 0x1p-53;
// positions.hpp: n rows after an anchor the recurrence is within 3.5 n u of the exact sin/cos of the anchor's (rounded)
// angle plus n f_i; the long double check itself rounds once more to double (0.5 u), and libm's sin/cos of the anchor
// are within 1 u of exact.
double recurrence_bound(std::int64_t rows_after_anchor) {
    return (3.5 * static_cast<double>(rows_after_anchor) + 1.5) * kUnitRoundoff;
}

// Tables long enough for three full blocks and a partial one; widths with pair counts that are and are not multiples
// of the SIMD strip (8 pairs), including a single pair.
const std::int64_t kLength = 3 * kAnchorRows + 17;
const std::vector<std::int64_t> kWidths = {2, 6, 16, 18, 34, 512};
const std::vector<std::int64_t> kStarts = {0, 5, 999983, 1000000, std::int64_t{1} << 40};

template <class T>
std::vector<T> fast_table(std::int64_t length, std::int64_t width, std::int64_t start, Layout layout) {
    std::vector<T> out(static_cast<std::size_t>(length * width));
    seqorder::positions_fast<T>(out, length, width, start, 10000.0, layout);
    return out;
}

std::string describe(std::int64_t width, std::int64_t start, Layout layout) {
    return "width " + std::to_string(width) + ", start " + std::to_string(start) +
           (layout == Layout::interleaved ? ", interleaved" : ", halves");
}

}  // namespace

TEST_CASE("positions_fast: anchor rows are bit-identical to positions_reference", "[positions][fast]") {
    for (Layout layout : {Layout::interleaved, Layout::halves}) {
        for (std::int64_t width : kWidths) {
            for (std::int64_t start : kStarts) {
                const std::vector<double> fast = fast_table<double>(kLength, width, start, layout);
                std::vector<double> reference(fast.size());
                seqorder::positions_reference<double>(reference, kLength, width, start, 10000.0, layout);
                for (std::int64_t row = 0; row < kLength; row += kAnchorRows) {
                    const auto offset = static_cast<std::size_t>(row * width), count = static_cast<std::size_t>(width);
                    testing::check_identical<double>(describe(width, start, layout) + ", anchor row " + std::to_string(row),
                                                     std::span<const double>(fast).subspan(offset, count),
                                                     std::span<const double>(reference).subspan(offset, count));
                }
            }
        }
    }
}

TEST_CASE("positions_fast: n rows after an anchor, within 3.5 n u of the anchor's angle turned by n f_i",
          "[positions][fast]") {
    // Independent of the code under test: sin/cos of (a + n f_i), a = the anchor's float64 angle t * f_i, by the angle
    // sum formula in long double from sinl/cosl of a (exact input, however large) and of n f_i (< 256): each term within
    // ~2^-63 relative, where a long double sum a + n f_i would lose ~a * 2^-64 (1e-7 at a = 2^40).
    // This isolates the recurrence's own error from the rounding of t * f_i, which the reference shares.
    for (std::int64_t width : {std::int64_t{18}, std::int64_t{512}}) {
        for (std::int64_t start : kStarts) {
            const std::vector<double> fast = fast_table<double>(kLength, width, start, Layout::interleaved);
            std::vector<double> frequency(static_cast<std::size_t>(width / 2));
            seqorder::position_frequencies(frequency, width, 10000.0);
            double worst_ratio = 0.0;  // worst error / bound
            std::int64_t worst_row = 0, worst_pair = 0;
            for (std::int64_t row = 0; row < kLength; ++row) {
                const std::int64_t anchor = row - row % kAnchorRows, n = row - anchor;
                const double anchor_t = static_cast<double>(start + anchor);
                for (std::int64_t i = 0; i < width / 2; ++i) {
                    const double f = frequency[static_cast<std::size_t>(i)];
                    const long double a = static_cast<long double>(anchor_t * f);
                    const long double turn = static_cast<long double>(n) * static_cast<long double>(f);
                    const double exact_sin = static_cast<double>(std::sin(a) * std::cos(turn) + std::cos(a) * std::sin(turn));
                    const double exact_cos = static_cast<double>(std::cos(a) * std::cos(turn) - std::sin(a) * std::sin(turn));
                    const double* pair = fast.data() + row * width + 2 * i;
                    const double error = std::max(std::abs(pair[0] - exact_sin), std::abs(pair[1] - exact_cos));
                    const double ratio = error / recurrence_bound(n);
                    if (ratio > worst_ratio) {
                        worst_ratio = ratio;
                        worst_row = row;
                        worst_pair = i;
                    }
                }
            }
            INFO(describe(width, start, Layout::interleaved) << ": worst at row " << worst_row << " (" << worst_row % kAnchorRows
                                                             << " rows after its anchor), pair " << worst_pair
                                                             << ", error / bound = " << worst_ratio);
            testing::report("recurrence error / bound, " + describe(width, start, Layout::interleaved), worst_ratio, 1.0);
            CHECK(worst_ratio <= 1.0);
        }
    }
}

TEST_CASE("positions_fast: the float32 table is the float64 table rounded once, in both layouts", "[positions][fast]") {
    for (Layout layout : {Layout::interleaved, Layout::halves}) {
        for (std::int64_t width : kWidths) {
            for (std::int64_t start : {std::int64_t{0}, std::int64_t{1000000}}) {
                const std::vector<double> f64 = fast_table<double>(kLength, width, start, layout);
                const std::vector<float> f32 = fast_table<float>(kLength, width, start, layout);
                std::vector<float> rounded(f64.size());
                for (std::size_t j = 0; j < f64.size(); ++j) rounded[j] = static_cast<float>(f64[j]);
                testing::check_identical<float>(describe(width, start, layout), f32, rounded);
            }
        }
    }
}

