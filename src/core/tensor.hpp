// seqorder core: a small owning tensor, row-major with the last axis contiguous.
// Plain C++20: nothing here knows about Emscripten or JavaScript.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace seqorder {

using Shape = std::vector<std::size_t>;

// The largest tensor the core will allocate: 1 GiB. A 32-bit WebAssembly heap holds at most 4 GiB (2 GiB in
// Emscripten 3.1.6 by default), and a call needs room for its inputs as well as its result, so anything larger is
// refused up front with a clear error instead of failing inside the allocator.
inline constexpr std::size_t kMaxTensorBytes = std::size_t{1} << 30;

// Number of elements of `shape`, checked: throws std::length_error naming `what` when the product overflows or the
// tensor would need more than kMaxTensorBytes with elements of `element_bytes` bytes.
std::size_t checked_element_count(const Shape& shape, std::size_t element_bytes, const std::string& what);

// The same for sizes as a caller gives them (non-negative, any up to 2^63 - 1: a 32-bit size_t cannot hold them, so
// this is the check to use before anything is converted to size_t). An empty tensor (a 0 among the sizes) is never
// too large, whatever its other sizes.
std::int64_t checked_count(std::span<const std::int64_t> sizes, std::size_t element_bytes, const std::string& what);

// "[2, 3, 4]": a shape as a caller writes it (a JS array)
std::string shape_to_string(const Shape& shape);
std::string shape_to_string(std::span<const std::int64_t> sizes);

// "'float32'": a string a caller gave, quoted, its control characters written as JavaScript writes them in a string
// literal (a NUL as \u0000), so that a message shows them and is never cut short by one.
std::string quoted(const std::string& s);

// A number as JavaScript writes it (the shortest text that reads back the same): 4.5, 1e+21, 1e-7, NaN, -Infinity.
std::string number_text(double x);

// A message of pieces appended one after another: one string built, where a chain of + makes a temporary per piece
// (each with its cleanup on the exception's path: the model module's size).
std::string joined(std::initializer_list<std::string_view> pieces);

// An owning, row-major tensor of T (double, float or std::int32_t).
template <class T>
class Tensor {
public:
    Tensor() = default;
    explicit Tensor(Shape shape, const std::string& what = "tensor")
        : shape_(std::move(shape)), data_(checked_element_count(shape_, sizeof(T), what)) {}
    Tensor(Shape shape, std::vector<T> data);

    const Shape& shape() const noexcept { return shape_; }
    std::size_t rank() const noexcept { return shape_.size(); }
    std::size_t dim(std::size_t axis) const { return shape_.at(axis); }
    std::size_t size() const noexcept { return data_.size(); }

    std::span<T> data() noexcept { return data_; }
    std::span<const T> data() const noexcept { return data_; }

    // Element access for rank-2 and rank-3 tensors (tests and readable reference code).
    T& operator()(std::size_t i, std::size_t j) { return data_[i * shape_[1] + j]; }
    const T& operator()(std::size_t i, std::size_t j) const { return data_[i * shape_[1] + j]; }
    T& operator()(std::size_t b, std::size_t i, std::size_t j) { return data_[(b * shape_[1] + i) * shape_[2] + j]; }
    const T& operator()(std::size_t b, std::size_t i, std::size_t j) const {
        return data_[(b * shape_[1] + i) * shape_[2] + j];
    }

private:
    Shape shape_;
    std::vector<T> data_;
};

extern template class Tensor<double>;
extern template class Tensor<float>;
extern template class Tensor<std::int32_t>;

}  // namespace seqorder
