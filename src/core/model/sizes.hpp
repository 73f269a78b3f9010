// Size arithmetic in 64 bits. std::size_t is 32 bits in WebAssembly, so a product of sizes taken there could wrap;
// these take int64 sizes, saturate instead of overflowing, and are checked against the core's tensor limit before any
// size becomes a std::size_t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>

#include "tensor.hpp"

namespace seqorder::model {

inline constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

// a * b and a + b for non-negative a, b, saturated at INT64_MAX.
constexpr std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
    return a != 0 && b > kSaturated / a ? kSaturated : a * b;
}
constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) { return a > kSaturated - b ? kSaturated : a + b; }

constexpr std::int64_t saturating_product(std::initializer_list<std::int64_t> sizes) {
    std::int64_t p = 1;
    for (std::int64_t s : sizes) p = s == 0 ? 0 : saturating_mul(p, s);
    return p;
}

// The largest element count of element_bytes-byte values within kMaxTensorBytes.
constexpr std::int64_t max_elements(std::size_t element_bytes) {
    return static_cast<std::int64_t>(kMaxTensorBytes / element_bytes);
}

// The product of non-negative sizes as a std::size_t, or std::length_error naming `what` when it would need more
// than kMaxTensorBytes with element_bytes-byte values.
inline std::size_t checked_count(std::initializer_list<std::int64_t> sizes, std::size_t element_bytes,
                                 const std::string& what) {
    std::int64_t n = 1;
    for (std::int64_t s : sizes) n = saturating_mul(n, s);
    for (std::int64_t s : sizes) n = s == 0 ? 0 : n;
    if (n > max_elements(element_bytes))
        throw std::length_error(what + " would need more than the " +
                                std::to_string(static_cast<std::int64_t>(kMaxTensorBytes >> 20)) +
                                " MiB a tensor may hold");
    return static_cast<std::size_t>(n);
}

}  // namespace seqorder::model
