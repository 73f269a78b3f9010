#include "embed.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace seqorder {
namespace {

// "[1, 3]" for flat index 7 of shape (2, 4).
std::string index_to_string(std::size_t flat, const Shape& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        index[axis] = shape[axis] ? flat % shape[axis] : 0;
        flat = shape[axis] ? flat / shape[axis] : 0;
    }
    std::string s = "[";
    for (std::size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
    return s + "]";
}

}  // namespace

void check_ids(std::span<const std::int32_t> ids, std::int64_t vocab, const Shape& ids_shape) {
    for (std::size_t n = 0; n < ids.size(); ++n) {
        if (ids[n] < 0 || ids[n] >= vocab)
            throw std::out_of_range("ids" + index_to_string(n, ids_shape) + " = " + std::to_string(ids[n]) +
                                    " is outside the table's rows " +
                                    (vocab > 0 ? "0.." + std::to_string(vocab - 1) : std::string("(the table has none)")));
    }
}

template <class T>
void embed_into(std::span<T> out, std::span<const T> table, std::int64_t vocab, std::int64_t width,
                std::span<const std::int32_t> ids, const Shape& ids_shape) {
    check_ids(ids, vocab, ids_shape);  // every id, before anything is written
    const auto w = static_cast<std::size_t>(width);
    for (std::size_t n = 0; n < ids.size(); ++n) {
        const auto row = table.subspan(static_cast<std::size_t>(ids[n]) * w, w);
        std::copy(row.begin(), row.end(), out.begin() + static_cast<std::ptrdiff_t>(n * w));
    }
}

template <class T>
Tensor<T> embed(const Tensor<T>& table, const Tensor<std::int32_t>& ids) {
    if (table.rank() != 2) throw std::invalid_argument("table must have shape (V, D), got " + shape_to_string(table.shape()));
    if (ids.rank() != 1 && ids.rank() != 2)
        throw std::invalid_argument("ids must have shape (T) or (B, T), got " + shape_to_string(ids.shape()));
    check_ids(ids.data(), static_cast<std::int64_t>(table.dim(0)), ids.shape());  // before allocating the result
    Shape out_shape = ids.shape();
    out_shape.push_back(table.dim(1));
    Tensor<T> out(out_shape, "embeddings");
    embed_into<T>(out.data(), table.data(), static_cast<std::int64_t>(table.dim(0)), static_cast<std::int64_t>(table.dim(1)),
                  ids.data(), ids.shape());
    return out;
}

template void embed_into<double>(std::span<double>, std::span<const double>, std::int64_t, std::int64_t,
                                 std::span<const std::int32_t>, const Shape&);
template void embed_into<float>(std::span<float>, std::span<const float>, std::int64_t, std::int64_t,
                                std::span<const std::int32_t>, const Shape&);
template Tensor<double> embed<double>(const Tensor<double>&, const Tensor<std::int32_t>&);
template Tensor<float> embed<float>(const Tensor<float>&, const Tensor<std::int32_t>&);

}  // namespace seqorder
