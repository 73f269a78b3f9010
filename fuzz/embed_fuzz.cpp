// libFuzzer target: token lookup.
//   embed<T> (Tensor API: table (V, D), ids (T) or (B, T), or a wrong rank) and embed_into<T> (span API, as the
//   WebAssembly binding calls it), float64 and float32, ids in and out of range, table values of every kind.
// Invariants:
//   - throws iff a rank is wrong (invalid_argument), an id is outside 0..V-1 (out_of_range) or the result is beyond
//     1 GiB (length_error), and the out_of_range message names the first bad id by its [b, t] index;
//   - on success, row n of the result is table row ids[n], bit for bit (NaN, -0.0 and subnormals included), and the
//     result has shape ids.shape + (D,).
#include <cstdint>
#include <string>
#include <vector>

#include "embed.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace seqorder_fuzz;

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

    // The first id outside 0..V-1, if any.
    std::int64_t first_bad = -1;
    for (std::size_t n = 0; n < ids.size() && first_bad < 0; ++n)
        if (ids.data()[n] < 0 || ids.data()[n] >= vocab) first_bad = static_cast<std::int64_t>(n);
    const bool ranks_ok = table_rank == 2 && ids_rank <= 2;
    const bool too_big = beyond_tensor_limit({n_ids, width}, sizeof(T));
    const std::string call = "embed(table " + seqorder::shape_to_string(table.shape()) + ", ids " +
                             seqorder::shape_to_string(ids.shape()) + (sizeof(T) == 4 ? ", float32)" : ", float64)");

    // The Tensor API checks the ranks, then the ids, then allocates the result.
    seqorder::Tensor<T> out;
    Expected expected{.invalid_argument = !ranks_ok, .out_of_range = ranks_ok && first_bad >= 0,
                      .length_error = ranks_ok && first_bad < 0 && too_big};
    // A valid result too big to build quickly is skipped; every error comes before the allocation.
    if (big_result && !expected.any()) return;
    const bool ok = expect_outcome(expected, [&] { out = seqorder::embed<T>(table, ids); }, call);
    if (expected.out_of_range) {
        std::string message;
        // Name the first bad id by its index in the caller's shape: "ids[n]" or "ids[b, t]".
        std::string index = ids_rank == 1 ? std::to_string(first_bad)
                                          : std::to_string(first_bad / ids_dims[1]) + ", " + std::to_string(first_bad % ids_dims[1]);
        try {
            seqorder::embed<T>(table, ids);
        } catch (const std::out_of_range& e) {
            message = e.what();
        }
        FUZZ_CHECK(message.find("ids[" + index + "] = " + std::to_string(ids.data()[first_bad])) != std::string::npos,
                   call + ": message '" + message + "' does not name ids[" + index + "]");
    }
    if (ok) {
        seqorder::Shape want = ids.shape();
        want.push_back(static_cast<std::size_t>(width));
        FUZZ_CHECK(out.shape() == want, call + ": shape " + seqorder::shape_to_string(out.shape()));
    }

    // The span API, as the binding calls it (rank-2 table, ids of rank 1 or 2), with exact-size buffers.
    if (ids_rank > 2 || too_big || big_result) return;
    std::vector<T> result(static_cast<std::size_t>(n_ids * width));
    const bool span_ok = expect_outcome({.out_of_range = first_bad >= 0},
                                        [&] {
                                            seqorder::embed_into<T>(result, table.data(), vocab, width, ids.data(), ids.shape());
                                        },
                                        "embed_into " + call);
    if (!span_ok) return;
    for (std::size_t n = 0; n < ids.size(); ++n) {
        const auto row = static_cast<std::size_t>(ids.data()[n]);
        for (std::size_t d = 0; d < static_cast<std::size_t>(width); ++d) {
            const T want = table.data()[row * static_cast<std::size_t>(width) + d];
            const T got = result[n * static_cast<std::size_t>(width) + d];
            FUZZ_CHECK(std::memcmp(&want, &got, sizeof(T)) == 0,
                       call + ": embed_into row " + std::to_string(n) + " column " + std::to_string(d) + " is not table row " +
                           std::to_string(row));
            if (ok) {
                const T tensor_got = out.data()[n * static_cast<std::size_t>(width) + d];
                FUZZ_CHECK(std::memcmp(&want, &tensor_got, sizeof(T)) == 0,
                           call + ": embed row " + std::to_string(n) + " column " + std::to_string(d) + " is not table row " +
                               std::to_string(row));
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
