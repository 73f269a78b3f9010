#include "call_args.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "decimal.hpp"
#include "positions.hpp"
#include "tensor.hpp"

namespace seqorder::calls {

std::int64_t integer(double x, const std::string& name, std::int64_t min, std::int64_t max) {
    if (!std::isfinite(x) || std::trunc(x) != x)
        throw std::invalid_argument(name + " must be an integer, got " + number_text(x));
    if (x < static_cast<double>(min) || x > static_cast<double>(max)) {
        std::string rule = "between " + std::to_string(min) + " and " + std::to_string(max);
        if (max >= kMaxPosition - 1)  // an open range: say which end was passed, with the limit as a power of two
            rule = x < static_cast<double>(min) ? "at least " + std::to_string(min)
                                                : max == kMaxPosition ? "at most 2^53" : "at most 2^53 - 1";
        throw std::invalid_argument(name + " must be an integer " + rule + ", got " + number_text(x));
    }
    return static_cast<std::int64_t>(x);
}

std::int64_t size(double x, const std::string& name) { return integer(x, name, 0, static_cast<std::int64_t>(kMaxSafe)); }

void check_dtype(const std::string& name, const std::string& dtype, std::initializer_list<const char*> allowed) {
    std::string list;
    std::size_t i = 0;
    for (const char* a : allowed) {
        if (dtype == a) return;
        list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + quoted(a);
        ++i;
    }
    throw std::invalid_argument(name + " must be " + list + ", got " + quoted(dtype));
}

Sizes dims(const TensorArg& t, const std::string& name) {
    Sizes sizes;
    sizes.reserve(t.shape.size());
    for (std::size_t axis = 0; axis < t.shape.size(); ++axis) {
        const double d = t.shape[axis];
        if (!std::isfinite(d) || std::trunc(d) != d || d < 0 || d > kMaxSafe)
            throw std::invalid_argument(name + ".shape[" + std::to_string(axis) +
                                        "] must be a non-negative integer at most 2^53 - 1, got " + number_text(d));
        sizes.push_back(static_cast<std::int64_t>(d));
    }
    // The product, saturated: an overflowing product cannot equal a count of elements in memory.
    bool empty = false;
    std::int64_t product = 1;
    for (const std::int64_t d : sizes) {
        empty = empty || d == 0;
        if (!empty && __builtin_mul_overflow(product, d, &product)) product = std::numeric_limits<std::int64_t>::max();
    }
    if (empty) product = 0;
    if (product != t.count)
        throw std::invalid_argument(name + ".data has " + std::to_string(t.count) + " elements but shape " + shape_to_string(sizes) +
                                    " needs " + (product == std::numeric_limits<std::int64_t>::max() ? "more than 2^63" : std::to_string(product)));
    return sizes;
}

std::size_t element_bytes(const std::string& dtype) { return dtype == "float64" ? 8 : 4; }

std::int64_t result_count(const std::string& what, const std::string& dtype, const Sizes& shape,
                          const std::optional<double>& out_length) {
    const std::int64_t count = checked_count(shape, element_bytes(dtype), what);
    if (out_length && *out_length != static_cast<double>(count))
        throw std::invalid_argument("out must have exactly " + std::to_string(count) + " elements for this result, got " +
                                    number_text(*out_length));
    return count;
}

Result allocate_result(const std::string& what, const std::string& dtype, Sizes shape, std::int64_t count) {
    Result r;
    r.count = count;
    r.dtype = dtype;
    r.shape = std::move(shape);
    const std::size_t bytes = static_cast<std::size_t>(r.count) * element_bytes(dtype);
    r.data.reset(std::malloc(std::max<std::size_t>(bytes, 8)));
    if (!r.data) {
        throw std::runtime_error(what + ": out of memory, the heap cannot hold " +
                                 f_text(static_cast<double>(bytes) / (1 << 20), 1) + " MiB more");
    }
    return r;
}

Result make_result(const std::string& what, const std::string& dtype, Sizes shape, const std::optional<double>& out_length) {
    const std::int64_t count = result_count(what, dtype, shape, out_length);
    return allocate_result(what, dtype, std::move(shape), count);
}

}  // namespace seqorder::calls
