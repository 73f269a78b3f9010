// Helpers shared by the native tests: fixture arrays as core tensors, random tensors from a fixed seed, and
// element-wise comparisons that report the worst element through one Catch2 matcher check.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "calling.hpp"

namespace testing {

// A fixture array as a core tensor of T. Fixture inputs are float32 values stored exactly, so both dtypes read them
// without rounding.
template <class T>
seqorder::Tensor<T> tensor_of(const fixtures::Array& a) {
    std::vector<T> data(a.values.size());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<T>(a.values[i]);
    return seqorder::Tensor<T>(seqorder::Shape(a.shape.begin(), a.shape.end()), std::move(data));
}

// Uniform values in [-scale, scale], reproducible from `seed`.
template <class T>
seqorder::Tensor<T> random_tensor(seqorder::Shape shape, std::uint32_t seed, double scale = 1.0) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> uniform(-scale, scale);
    std::size_t count = 1;
    for (std::size_t n : shape) count *= n;
    std::vector<T> data(count);
    for (T& x : data) x = static_cast<T>(uniform(generator));
    return seqorder::Tensor<T>(std::move(shape), std::move(data));
}

// "[1, 2, 3]" for flat index `flat` of `shape`.
inline std::string index_string(std::size_t flat, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        index[axis] = shape[axis] ? flat % shape[axis] : 0;
        flat = shape[axis] ? flat / shape[axis] : 0;
    }
    std::ostringstream s;
    s << "[";
    for (std::size_t i = 0; i < index.size(); ++i) s << (i ? ", " : "") << index[i];
    s << "]";
    return s.str();
}

// With SEQORDER_REPORT_ERRORS=1 in the environment, every comparison prints its worst error (for the README's
// measured figures); otherwise silent.
inline void report(const std::string& what, double worst_error, double tolerance) {
    static const bool enabled = std::getenv("SEQORDER_REPORT_ERRORS") != nullptr;
    if (enabled) std::cout << "max-error " << what << " " << worst_error << " (tolerance " << tolerance << ")\n";
}

// Every element of `got` within `tolerance` (absolute) of the reference; non-finite reference values (the mask's
// -inf) must be matched exactly. One Catch2 check on the worst element, with its index and the quantity's name.
template <class T>
void check_within_abs(const std::string& what, std::span<const T> got, const fixtures::Array& want, double tolerance) {
    INFO(what << ": shape " << seqorder::shape_to_string(seqorder::Shape(want.shape.begin(), want.shape.end())));
    REQUIRE(got.size() == want.size());
    std::size_t worst = 0;
    double worst_error = -1.0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double expected = want.values[i], actual = static_cast<double>(got[i]);
        if (!std::isfinite(expected)) {
            INFO("element " << index_string(i, want.shape) << " must be exactly " << expected);
            if (std::isnan(expected))
                CHECK(std::isnan(actual));
            else
                CHECK(actual == expected);
            continue;
        }
        const double error = std::isnan(actual) ? std::numeric_limits<double>::infinity() : std::abs(actual - expected);
        if (error > worst_error) {
            worst_error = error;
            worst = i;
        }
    }
    if (worst_error < 0) return;  // empty, or every reference value non-finite
    report(what, worst_error, tolerance);
    INFO("worst element " << index_string(worst, want.shape) << " of " << got.size() << ", error " << worst_error);
    CHECK_THAT(static_cast<double>(got[worst]), Catch::Matchers::WithinAbs(want.values[worst], tolerance));
}

// Every element of `got` within `tolerance` (absolute) of the same element of `want` (both computed here, finite).
template <class T>
void check_within_abs(const std::string& what, std::span<const T> got, std::span<const T> want, double tolerance) {
    INFO(what);
    REQUIRE(got.size() == want.size());
    std::size_t worst = 0;
    double worst_error = -1.0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double actual = static_cast<double>(got[i]), expected = static_cast<double>(want[i]);
        const double error = std::isnan(actual) || std::isnan(expected) ? std::numeric_limits<double>::infinity()
                                                                         : std::abs(actual - expected);
        if (error > worst_error) {
            worst_error = error;
            worst = i;
        }
    }
    if (worst_error < 0) return;
    report(what, worst_error, tolerance);
    INFO("worst flat index " << worst << " of " << got.size() << ", error " << worst_error);
    CHECK_THAT(static_cast<double>(got[worst]), Catch::Matchers::WithinAbs(static_cast<double>(want[worst]), tolerance));
}

// Bit-for-bit equal tensors (the same computation, or a copy): one check on the first difference.
template <class T>
void check_identical(const std::string& what, std::span<const T> got, std::span<const T> want) {
    INFO(what);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const bool same = got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]));
        if (!same) {
            INFO("first difference at flat index " << i << ": " << got[i] << " vs " << want[i]);
            CHECK(got[i] == want[i]);
            return;
        }
    }
    SUCCEED();
}

}  // namespace testing
