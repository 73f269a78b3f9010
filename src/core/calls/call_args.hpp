// What every entry of the package's API (calls.hpp, model_calls.hpp) does with its arguments and results: numbers
// given as doubles checked to be integers, dtypes named as strings, tensor arguments' shapes checked against their
// data, and results' sizes held to the tensor limit and to the caller's `out` length before any is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "call_types.hpp"

namespace seqorder::calls {

using Sizes = std::vector<std::int64_t>;

// Largest size or integer a caller can give exactly: 2^53 - 1 (JavaScript's Number.MAX_SAFE_INTEGER).
inline constexpr double kMaxSafe = 9007199254740991.0;

// `name` as an integer in [min, max] (max at most 2^53): a finite whole number, no fraction; std::invalid_argument
// naming it otherwise.
std::int64_t integer(double x, const std::string& name, std::int64_t min, std::int64_t max);
// `name` as a size: an integer in 0 .. 2^53 - 1.
std::int64_t size(double x, const std::string& name);

// The element type named `dtype` among `allowed` (float64, float32, int32), else the error for argument `name`.
void check_dtype(const std::string& name, const std::string& dtype, std::initializer_list<const char*> allowed);

// The checked sizes of a tensor argument called `name`: each entry a non-negative integer, their product its count.
Sizes dims(const TensorArg& t, const std::string& name);

// The element count of a result of `shape` and `dtype`, checked against the tensor limit and, if the caller gave an
// `out` array, against its length. A call checks every result this way before it allocates any, so that no rule is
// found broken once memory is taken (attention's three steps may be up to 1 GiB each, and the output's size or out
// length may still be wrong).
std::int64_t result_count(const std::string& what, const std::string& dtype, const Sizes& shape,
                          const std::optional<double>& out_length);
// A result of `shape` and `dtype` whose size result_count has checked, allocated (uninitialized); `what` names it if
// the heap cannot hold it.
Result allocate_result(const std::string& what, const std::string& dtype, Sizes shape, std::int64_t count);
// The one result of a call: checked, then allocated.
Result make_result(const std::string& what, const std::string& dtype, Sizes shape,
                   const std::optional<double>& out_length);

template <class T>
std::span<T> out_span(Result& r) {
    return {static_cast<T*>(r.data.get()), static_cast<std::size_t>(r.count)};
}
template <class T>
std::span<const T> in_span(const TensorArg& t) {
    return {static_cast<const T*>(t.address), static_cast<std::size_t>(t.count)};
}

// Calls work.template operator()<T>() with T = float for "float32", else double.
template <class F>
void for_float(const std::string& dtype, F&& work) {
    if (dtype == "float32")
        work.template operator()<float>();
    else
        work.template operator()<double>();
}

}  // namespace seqorder::calls
