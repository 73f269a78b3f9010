#include "tensor.hpp"

#include "decimal.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace seqorder {

std::int64_t checked_count(std::span<const std::int64_t> sizes, std::size_t element_bytes, const std::string& what) {
    for (const std::int64_t d : sizes) {
        if (d < 0) throw std::invalid_argument(what + ": sizes must be non-negative, got " + shape_to_string(sizes));
        if (d == 0) return 0;  // empty, whatever the other sizes
    }
    const auto max_elements = static_cast<std::int64_t>(kMaxTensorBytes / element_bytes);
    std::int64_t count = 1;
    for (const std::int64_t d : sizes) {
        if (count > max_elements / d)  // the product would pass the limit (or overflow): the same to a user
            throw std::length_error(what + " of shape " + shape_to_string(sizes) +
                                    " is too large: a tensor may hold at most " +
                                    std::to_string(kMaxTensorBytes >> 20) + " MiB");
        count *= d;
    }
    return count;
}

std::size_t checked_element_count(const Shape& shape, std::size_t element_bytes, const std::string& what) {
    std::vector<std::int64_t> sizes;
    sizes.reserve(shape.size());
    for (const std::size_t d : shape) {
        // a size_t past 2^63 - 1 (only natively): beyond any limit, unless the tensor is empty
        sizes.push_back(d > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())
                            ? std::numeric_limits<std::int64_t>::max()
                            : static_cast<std::int64_t>(d));
    }
    return static_cast<std::size_t>(checked_count(sizes, element_bytes, what));
}

namespace {
template <class Sizes>
std::string sizes_text(const Sizes& sizes) {
    std::string s = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + "]";
}
}  // namespace

std::string shape_to_string(const Shape& shape) { return sizes_text(shape); }
std::string shape_to_string(std::span<const std::int64_t> sizes) { return sizes_text(sizes); }

std::string joined(std::initializer_list<std::string_view> pieces) {
    std::string message;
    for (const std::string_view piece : pieces) message += piece;
    return message;
}

std::string number_text(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (x == 0) return "0";  // also -0, as JavaScript's String(-0)
    if (std::trunc(x) == x && std::fabs(x) < 1e21) return f_text(x, 0);
    // the shortest %g that reads back as x
    int digits = 1;
    while (digits < 17 && !g_reads_back(x, digits)) ++digits;
    std::string s = g_text(x, digits);
    // %g writes e+05 / e-07; JavaScript writes e+5 / e-7
    if (const auto e = s.find('e'); e != std::string::npos && e + 2 < s.size() && s[e + 2] == '0') s.erase(e + 2, 1);
    return s;
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (const char c : s) {
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
            q += c;
            continue;
        }
        const auto code = static_cast<unsigned char>(c);
        q += "\\u00";
        q += "0123456789abcdef"[code >> 4];
        q += "0123456789abcdef"[code & 15];
    }
    return q + "'";
}

template <class T>
Tensor<T>::Tensor(Shape shape, std::vector<T> data) : shape_(std::move(shape)), data_(std::move(data)) {
    const std::size_t expected = checked_element_count(shape_, sizeof(T), "tensor");
    if (expected != data_.size())
        throw std::invalid_argument("tensor data has " + std::to_string(data_.size()) + " elements but shape " +
                                    shape_to_string(shape_) + " needs " + std::to_string(expected));
}

template class Tensor<double>;
template class Tensor<float>;
template class Tensor<std::int32_t>;

}  // namespace seqorder
