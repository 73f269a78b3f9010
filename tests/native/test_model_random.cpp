// The model's generator (random.hpp): its logarithm against libm, uniform integers and doubles, and the distribution
// of its normal values. The generator uses basic operations only, so these values are also what WebAssembly computes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "model/random.hpp"

namespace {

using seqorder::model::log_basic;
using seqorder::model::SplitMix64;

TEST_CASE("model random: log_basic is within 2 ulp of libm's log", "[model][random]") {
    std::mt19937_64 g(1);
    std::uniform_real_distribution<double> exponent(-1000, 1000), unit(0, 1);
    auto check = [](double x) {
        INFO("x = " << x);
        REQUIRE_THAT(log_basic(x), Catch::Matchers::WithinULP(std::log(x), 2));
    };
    for (int i = 0; i < 100000; ++i) check(std::pow(2.0, exponent(g)));  // across the whole range
    for (int i = 0; i < 100000; ++i) check(unit(g));                      // where the polar method asks: (0, 1)
    for (double x : {1.0, 2.0, 0.5, std::sqrt(2.0), std::nextafter(std::sqrt(2.0), 2.0), std::sqrt(0.5),
                     std::numeric_limits<double>::min(), std::numeric_limits<double>::max(), 0x1p-106,
                     std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)})
        check(x);
    CHECK(log_basic(1.0) == 0.0);
}

TEST_CASE("model random: SplitMix64's first outputs from seed 0 are the published ones", "[model][random]") {
    // The reference implementation's outputs for seed 0 (Vigna's splitmix64.c)
    SplitMix64 g(0);
    CHECK(g.next() == 0xE220A8397B1DCDAFu);
    CHECK(g.next() == 0x6E789E6AA1B965F4u);
    CHECK(g.next() == 0x06C45D188009454Fu);
}

TEST_CASE("model random: uniform_below is uniform over 0 .. n-1", "[model][random]") {
    for (std::uint64_t n : {1u, 2u, 3u, 7u, 14u, 100u}) {
        SplitMix64 g(n);
        std::vector<double> counts(n, 0);
        const int draws = 70000;
        for (int i = 0; i < draws; ++i) {
            const std::uint32_t x = g.uniform_below(n);
            REQUIRE(x < n);
            counts[x] += 1;
        }
        // chi-square with n - 1 degrees of freedom, far below its 0.1% critical value (n - 1 + 5 sqrt(2 (n - 1)))
        double chi2 = 0;
        const double expected = static_cast<double>(draws) / static_cast<double>(n);
        for (double c : counts) chi2 += (c - expected) * (c - expected) / expected;
        INFO("n " << n << ", chi-square " << chi2);
        CHECK(chi2 <= static_cast<double>(n - 1) + 5 * std::sqrt(2.0 * static_cast<double>(n - 1)) + 1);
    }
    SplitMix64 g(3);
    const std::uint64_t big = 4000000000u;  // near 2^32, where rejection matters most
    std::uint32_t largest = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint32_t x = g.uniform_below(big);
        REQUIRE(x < big);
        largest = std::max(largest, x);
    }
    CHECK(largest > 3900000000u);
}

TEST_CASE("model random: uniform() lies in 0 .. 1 (1 excluded) with mean 1/2", "[model][random]") {
    SplitMix64 g(4);
    double sum = 0;
    for (int i = 0; i < 100000; ++i) {
        const double u = g.uniform();
        REQUIRE(u >= 0.0);
        REQUIRE(u < 1.0);
        sum += u;
    }
    CHECK(std::abs(sum / 100000 - 0.5) < 5 * std::sqrt(1.0 / 12 / 100000));
}

TEST_CASE("model random: normal() has the standard normal distribution", "[model][random]") {
    // 200000 values: mean, variance, skewness and excess kurtosis within 5 standard errors of 0, 1, 0, 0, and the
    // Kolmogorov-Smirnov distance to the normal CDF below its 0.1% critical value 1.95 / sqrt(n).
    SplitMix64 g(5);
    const std::size_t n = 200000;
    std::vector<double> x(n);
    for (double& e : x) e = g.normal();
    double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    for (double e : x) m1 += e;
    m1 /= static_cast<double>(n);
    for (double e : x) {
        const double d = e - m1;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= static_cast<double>(n);
    m3 /= static_cast<double>(n);
    m4 /= static_cast<double>(n);
    const double sn = std::sqrt(static_cast<double>(n));
    CHECK(std::abs(m1) < 5 / sn);
    CHECK(std::abs(m2 - 1) < 5 * std::sqrt(2.0) / sn);
    CHECK(std::abs(m3 / std::pow(m2, 1.5)) < 5 * std::sqrt(6.0) / sn);
    CHECK(std::abs(m4 / (m2 * m2) - 3) < 5 * std::sqrt(24.0) / sn);
    std::sort(x.begin(), x.end());
    double ks = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double cdf = 0.5 * std::erfc(-x[i] / std::sqrt(2.0));
        ks = std::max({ks, std::abs(cdf - static_cast<double>(i) / static_cast<double>(n)),
                       std::abs(cdf - static_cast<double>(i + 1) / static_cast<double>(n))});
    }
    INFO("Kolmogorov-Smirnov distance " << ks);
    CHECK(ks < 1.95 / sn);
    // tails: the polar method reaches beyond 4 standard deviations (about 13 of 200000 values)
    CHECK(x.front() < -4.0);
    CHECK(x.back() > 4.0);
}

}  // namespace
