// Token lookup (lesson 1): each id selects one row of a table. The lookup knows "which token", never "where".
#pragma once

#include <cstdint>
#include <span>

#include "tensor.hpp"

namespace seqorder {

// Throws std::out_of_range naming the first id outside [0, vocab) and its index in ids_shape.
void check_ids(std::span<const std::int32_t> ids, std::int64_t vocab, const Shape& ids_shape);

// table: (vocab, width), ids: (count) -> out: (count, width), out row n = table row ids[n].
// An id outside [0, vocab) is an error (std::out_of_range) naming the id and its index; `ids_shape` (the shape the
// caller sees, e.g. (B, T)) is used only to write that index as [b, t].
template <class T>
void embed_into(std::span<T> out, std::span<const T> table, std::int64_t vocab, std::int64_t width,
                std::span<const std::int32_t> ids, const Shape& ids_shape);

// table (V, D), ids (T) or (B, T) -> (T, D) or (B, T, D)
template <class T>
Tensor<T> embed(const Tensor<T>& table, const Tensor<std::int32_t>& ids);

}  // namespace seqorder
