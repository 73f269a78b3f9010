// libFuzzer target: token lookup.
//   calls::embed (the package's path: table and ids as the binding passes them, shapes as JS numbers that may disagree
//   with the data, dtypes as strings, an out length; tables and ids of a wrong rank too), check_ids (the rule) and, on
//   checked arguments, embed_into<T>, float64 and float32, ids in and out of range, table values of every kind.
// Invariants:
//   - the call throws iff a dtype, a shape (entries whole numbers whose product is the data's count) or a rank is wrong
//     (invalid_argument), an id is outside 0..V-1 (out_of_range), the result is beyond 1 GiB (length_error) or, for
//     the package's call, an out length is not the result's (invalid_argument); the out_of_range message names the
//     first bad id by its [b, t] index; the package's call allocates nothing big before an error;
//   - on success, row n of the result is table row ids[n], bit for bit (NaN, -0.0 and subnormals included), and the
//     result has shape ids.shape + (D,); the package's result is embed_into's bit for bit.
#include <cstdint>
#include <string>
#include <vector>

#include "embed.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace seqorder_fuzz;

// The first id outside 0..vocab-1, or -1.
std::int64_t first_bad_id(std::span<const std::int32_t> ids, std::int64_t vocab) {
    for (std::size_t n = 0; n < ids.size(); ++n)
        if (ids[n] < 0 || ids[n] >= vocab) return static_cast<std::int64_t>(n);
    return -1;
}

// The out_of_range message names the first bad id by its index in the caller's shape: "ids[n]" or "ids[b, t]".
void check_names_bad_id(const std::string& message, std::span<const std::int32_t> ids, std::int64_t first_bad,
                        std::span<const std::int64_t> ids_sizes, const std::string& what) {
    const std::string index = ids_sizes.size() == 1 ? std::to_string(first_bad)
                                                    : std::to_string(first_bad / ids_sizes[1]) + ", " +
                                                          std::to_string(first_bad % ids_sizes[1]);
    const std::string named = "ids[" + index + "] = " + std::to_string(ids[static_cast<std::size_t>(first_bad)]);
    FUZZ_CHECK(message.find(named) != std::string::npos, what + ": message '" + message + "' does not name " + named);
}

// out: (ids.size(), width); row n must be table row ids[n], bit for bit.
template <class T>
void check_rows(std::span<const T> out, std::span<const T> table, std::int64_t width, std::span<const std::int32_t> ids,
                const std::string& what) {
    const auto w = static_cast<std::size_t>(width);
    for (std::size_t n = 0; n < ids.size(); ++n) {
        const auto row = static_cast<std::size_t>(ids[n]);
        FUZZ_CHECK(w == 0 || std::memcmp(&out[n * w], &table[row * w], w * sizeof(T)) == 0,
                   what + ": row " + std::to_string(n) + " is not table row " + std::to_string(row));
    }
}

// The package's call: table and ids as the binding passes them (drawn after the rest, from the tensors' data).
template <class T>
void check_package(Input& in, const seqorder::Tensor<T>& table, const seqorder::Tensor<std::int32_t>& ids) {
    const std::vector<std::int64_t> table_dims(table.shape().begin(), table.shape().end()),
        ids_dims(ids.shape().begin(), ids.shape().end());
    seqorder::calls::EmbedArgs p;
    p.table = tensor_arg<T>(table.data(), in.dtype(dtype_name<T>()), in.shape(table_dims));
    p.ids = tensor_arg<std::int32_t>(ids.data(), in.dtype("int32", "float32"), in.shape(ids_dims));
    // The rules, restated: dtypes, shapes, ranks (invalid_argument), then the ids (out_of_range).
    const auto table_sizes = sizes_of(p.table), ids_sizes = sizes_of(p.ids);
    const bool args_ok = p.table.dtype == dtype_name<T>() && p.ids.dtype == "int32" && table_sizes && ids_sizes &&
                         table_sizes->size() == 2 && (ids_sizes->size() == 1 || ids_sizes->size() == 2);
    const std::int64_t vocab = args_ok ? (*table_sizes)[0] : 0, width = args_ok ? (*table_sizes)[1] : 0;
    const std::int64_t first_bad = args_ok ? first_bad_id(ids.data(), vocab) : -1;
    std::vector<std::int64_t> shape = args_ok ? *ids_sizes : std::vector<std::int64_t>{};
    shape.push_back(width);  // (.., D)
    const std::int64_t n = saturating_product(shape);
    p.out_length = in.out_length(n);
    const Expected expected = package_outcome({.invalid_argument = !args_ok, .out_of_range = args_ok && first_bad >= 0},
                                              beyond_tensor_limit(shape, sizeof(T)), n, p.out_length);
    if (!expected.any() && n > kMaxWork) return;  // a valid lookup too big to check here
    const std::string call = "calls::embed(table " + text(p.table) + ", ids " + text(p.ids) + text(p.out_length) + ")";
    const std::int64_t io_bytes = expected.any() ? 0 : static_cast<std::int64_t>((table.size() + n) * sizeof(T) + ids.size() * 4);
    std::vector<seqorder::calls::Result> results;
    const Outcome outcome = expect_call(expected, [&] { results = seqorder::calls::embed(p); }, call, io_bytes);
    if (expected.out_of_range) check_names_bad_id(outcome.error, ids.data(), first_bad, *ids_sizes, call);
    if (!outcome) return;
    FUZZ_CHECK(results.size() == 1, call + ": " + std::to_string(results.size()) + " results");
    const std::span<const T> rows = result_values<T>(results[0], shape, call);
    std::vector<T> kernel(static_cast<std::size_t>(n));
    seqorder::embed_into<T>(kernel, table.data(), vocab, width, ids.data());
    check_same_bits<T>(rows, kernel, call);
    check_rows<T>(rows, table.data(), width, ids.data(), call);
}

std::int32_t draw_id(Input& in, std::int64_t vocab) {
    const std::uint8_t k = in.byte();
    if (k < 224) return vocab > 0 ? static_cast<std::int32_t>(k % vocab) : 0;  // mostly valid (0 is bad when V = 0)
    static constexpr std::int32_t bad[] = {-1, INT32_MIN, INT32_MAX, 0, 1};
    if (k % 8 < 5) return bad[k % 8];
    // V, V + 1, V + 2 (where an int32 can say it)
    const std::int64_t past = vocab > INT32_MAX - 2 ? INT32_MAX : vocab + (k % 8) - 5;
    return static_cast<std::int32_t>(past);
}

template <class T>
void run(Input& in) {
    const std::int64_t vocab = in.size(12), width = in.size(12);
    const int ids_rank = 1 + in.byte() % 3;  // 3 is a wrong rank
    std::vector<std::int64_t> ids_dims;
    for (int a = 0; a < ids_rank; ++a) ids_dims.push_back(in.size(6));
    const int table_rank = in.byte() % 8 == 0 ? 3 : 2;  // sometimes a wrong rank

    // Shapes the fuzzer could ask for but no caller could back with data are out of scope: a table or ids with
    // more than kMaxElements elements (any shape with a zero dimension is in scope, whatever its other sizes).
    for (std::int64_t d : ids_dims)
        if (d < 0) return;  // a Tensor's shape is unsigned: negative sizes are the JS layer's business
    if (vocab < 0 || width < 0) return;
    const std::int64_t n_ids = saturating_product(ids_dims);
    const std::int64_t n_table = saturating_product({vocab, width});
    if (n_ids > kMaxElements || n_table > kMaxElements) return;
    const bool big_result = saturating_product({n_ids, width}) > kMaxWork;  // too slow to build and check here

    seqorder::Shape table_shape{static_cast<std::size_t>(vocab), static_cast<std::size_t>(width)};
    if (table_rank == 3) table_shape.insert(table_shape.begin(), 1);
    seqorder::Tensor<T> table(table_shape);
    in.fill<T>(table.data());
    seqorder::Shape ids_shape;
    for (std::int64_t d : ids_dims) ids_shape.push_back(static_cast<std::size_t>(d));
    seqorder::Tensor<std::int32_t> ids(ids_shape);
    for (std::int32_t& id : ids.data()) id = draw_id(in, vocab);

    check_package<T>(in, table, ids);

    const std::int64_t first_bad = first_bad_id(ids.data(), vocab);
    const std::string call = "embed(table " + seqorder::shape_to_string(table.shape()) + ", ids " +
                             seqorder::shape_to_string(ids.shape()) + (sizeof(T) == 4 ? ", float32)" : ", float64)");

    if (table_rank != 2 || ids_rank > 2) return;  // the call's rank rules: check_package's
    // The rule for the ids: out_of_range naming the first bad one by its index.
    const Outcome outcome = expect_outcome({.out_of_range = first_bad >= 0},
                                           [&] { seqorder::check_ids(ids.data(), vocab, ids.shape()); }, "check_ids " + call);
    if (first_bad >= 0) check_names_bad_id(outcome.error, ids.data(), first_bad, ids_dims, call);

    // The kernel on checked arguments (every id valid), with an exact-size result.
    if (first_bad >= 0 || big_result) return;
    std::vector<T> result(static_cast<std::size_t>(n_ids * width));
    seqorder::embed_into<T>(result, table.data(), vocab, width, ids.data());
    check_rows<T>(result, table.data(), width, ids.data(), "embed_into " + call);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
