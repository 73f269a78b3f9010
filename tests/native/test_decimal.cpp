// decimal.hpp's text of float64 numbers against the C library's printf and strtod (glibc's, natively: an independent
// implementation), on the numbers of every kind of exponent: random bit patterns, powers of two and their neighbours,
// subnormals, the extremes, integers and ties.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "decimal.hpp"
#include "tensor.hpp"

namespace {

std::string printf_g(double x, int digits) {
    char text[1200];
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    return text;
}

std::string printf_f(double x, int decimals) {
    char text[1200];
    std::snprintf(text, sizeof text, "%.*f", decimals, x);
    return text;
}

std::vector<double> numbers() {
    std::vector<double> xs = {0.5, 1.5, 2.5, 0.125, 0.05, 1e21, 1e22, 123456789012345678.0, 9.5, 0.95, 99.5, 999.95,
                              std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                              std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::epsilon(),
                              static_cast<double>(std::numeric_limits<float>::max()),
                              static_cast<double>(std::numeric_limits<float>::denorm_min()), 0.1, 0.2, 0.3, 1e-7, 3e-4,
                              1e-5, 123456.0, 1e15, 1e16, 1e17, 5e-324, 2.2250738585072009e-308};
    for (int e = -1074; e <= 1023; e += 7) {
        const double p = std::ldexp(1.0, e);
        xs.insert(xs.end(), {p, std::nextafter(p, 0.0), std::nextafter(p, 2 * p + 1)});
    }
    std::uint64_t state = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 1000; ++i) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        const double x = std::bit_cast<double>(state ^ (state >> 29));
        if (std::isfinite(x)) xs.push_back(x);
        xs.push_back(static_cast<double>(static_cast<std::int64_t>(state >> 20)) / 1048576.0);  // bytes / 2^20
        xs.push_back(std::ldexp(static_cast<double>(state >> 11), -60 + static_cast<int>(state % 90)));
    }
    const std::size_t n = xs.size();
    for (std::size_t i = 0; i < n; ++i) xs.push_back(-xs[i]);
    return xs;
}

}  // namespace

TEST_CASE("decimal: %g and %f text and reading back as the C library's", "[decimal]") {
    for (const double x : numbers()) {
        INFO(printf_g(x, 17));
        for (const int digits : {1, 2, 6, 15, 16, 17}) {
            REQUIRE(seqorder::g_text(x, digits) == printf_g(x, digits));
            REQUIRE(seqorder::g_reads_back(x, digits) == (std::strtod(printf_g(x, digits).c_str(), nullptr) == x));
        }
        for (const int decimals : {0, 1, 3}) REQUIRE(seqorder::f_text(x, decimals) == printf_f(x, decimals));
    }
}

TEST_CASE("decimal: number_text is the shortest text that reads back, as JavaScript's exponents", "[decimal]") {
    CHECK(seqorder::number_text(0.1) == "0.1");
    CHECK(seqorder::number_text(1e-7) == "1e-7");
    CHECK(seqorder::number_text(1.5e300) == "1.5e+300");
    CHECK(seqorder::number_text(123456.0) == "123456");
    CHECK(seqorder::number_text(-2.5) == "-2.5");
    CHECK(seqorder::number_text(5e-324) == "5e-324");
    CHECK(seqorder::number_text(static_cast<double>(std::numeric_limits<float>::max())) == "3.4028234663852886e+38");
    for (const double x : numbers()) REQUIRE(std::strtod(seqorder::number_text(x).c_str(), nullptr) == x);
}
