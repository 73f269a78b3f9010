#include "tensor.hpp"

#include <limits>
#include <stdexcept>

namespace seqorder {

std::size_t checked_element_count(const Shape& shape, std::size_t element_bytes, const std::string& what) {
    const std::size_t max_elements = kMaxTensorBytes / element_bytes;
    std::size_t count = 1;
    for (std::size_t d : shape) {
        if (d != 0 && count > max_elements / d) {
            // Either the product overflows or it is beyond the limit: the message is the same to a user.
            bool any_zero = false;
            for (std::size_t e : shape) any_zero = any_zero || e == 0;
            if (any_zero) return 0;
            throw std::length_error(what + " of shape " + shape_to_string(shape) + " is too large: a tensor may hold at most " +
                                    std::to_string(kMaxTensorBytes >> 20) + " MiB");
        }
        count *= d;
    }
    return count;
}

std::string shape_to_string(const Shape& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
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
