#include "embed.hpp"

#include <algorithm>
#include <cassert>
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
void embed_into(std::span<T> out, std::span<const T> table, [[maybe_unused]] std::int64_t vocab, std::int64_t width,
                std::span<const std::int32_t> ids) {
    const auto w = static_cast<std::size_t>(width);
    assert(table.size() == static_cast<std::size_t>(vocab) * w && out.size() == ids.size() * w);
    for (std::size_t n = 0; n < ids.size(); ++n) {
        assert(ids[n] >= 0 && ids[n] < vocab);
        const auto row = table.subspan(static_cast<std::size_t>(ids[n]) * w, w);
        std::copy(row.begin(), row.end(), out.begin() + static_cast<std::ptrdiff_t>(n * w));
    }
}

template void embed_into<double>(std::span<double>, std::span<const double>, std::int64_t, std::int64_t,
                                 std::span<const std::int32_t>);
template void embed_into<float>(std::span<float>, std::span<const float>, std::int64_t, std::int64_t,
                                std::span<const std::int32_t>);

}  // namespace seqorder
