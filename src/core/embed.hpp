// Token lookup (lesson 1): each id selects one row of a table. The lookup knows "which token", never "where".
#pragma once

#include <cstdint>
#include <span>

#include "tensor.hpp"

namespace seqorder {

// The rule of a lookup, checked by the call (calls.hpp) before embed_into runs: throws std::out_of_range naming the
// first id outside [0, vocab) and its index in ids_shape (the shape the caller sees, e.g. (B, T): the index reads
// [b, t]).
void check_ids(std::span<const std::int32_t> ids, std::int64_t vocab, const Shape& ids_shape);

// table: (vocab, width), ids: (count) -> out: (count, width), out row n = table row ids[n]. Preconditions (asserted in
// debug builds): every id in [0, vocab) (check_ids), table holds vocab * width values, out count * width.
template <class T>
void embed_into(std::span<T> out, std::span<const T> table, std::int64_t vocab, std::int64_t width,
                std::span<const std::int32_t> ids);

}  // namespace seqorder
