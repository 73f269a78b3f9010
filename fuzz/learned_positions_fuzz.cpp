// libFuzzer target: learned absolute positions (a lookup of rows start .. start+length-1 of a (P, D) table).
//   calls::learned_positions (the package's path: the table as the binding passes it, its shape as JS numbers that may
//   disagree with the data; length and start as JS numbers: fractions, NaN, infinities, past 2^53; an out length),
//   including a wrong-rank table), check_learned_positions_args (the rule) and, on checked arguments,
//   learned_positions_into<T>, float64 and float32, with arbitrary length and start (negative, past the table, near
//   INT64_MAX, where start + length overflows).
// Invariants:
//   - the call and the rule throw iff the table's dtype, shape or rank is wrong, length or start is not a whole number in range
//     (invalid_argument), the rows reach past the table (out_of_range), the result is beyond 1 GiB (length_error) or,
//     for the package's call, an out length is not the result's (invalid_argument): never a wrap, a clamp or a silent
//     overrun, and the package's call allocates nothing big before an error;
//   - on success the result is (length, D) and equals the table's rows start .. start+length-1 bit for bit; the
//     package's result is learned_positions_into's bit for bit.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "positions.hpp"

namespace {

using namespace seqorder_fuzz;

// out: (length, width) must be the table's rows start .. start+length-1, bit for bit.
template <class T>
void check_rows(std::span<const T> out, std::span<const T> table, std::int64_t width, std::int64_t start,
                std::int64_t length, const std::string& what) {
    if (width == 0 || length == 0) return;
    const auto first = static_cast<std::size_t>(start * width), count = static_cast<std::size_t>(length * width);
    for (std::size_t j = 0; j < count; ++j)
        FUZZ_CHECK(std::memcmp(&out[j], &table[first + j], sizeof(T)) == 0,
                   what + ": row " + std::to_string(j / static_cast<std::size_t>(width)) + " is not table row " +
                       std::to_string(start + static_cast<std::int64_t>(j) / width));
}

// The package's call: the table as the binding passes it, length and start as a JS caller may (drawn after the rest).
template <class T>
void check_package(Input& in, const seqorder::Tensor<T>& table, std::int64_t meant_length, std::int64_t meant_start) {
    const std::vector<std::int64_t> dims(table.shape().begin(), table.shape().end());
    seqorder::calls::LearnedPositionsArgs p;
    p.table = tensor_arg<T>(table.data(), in.dtype(dtype_name<T>()), in.shape(dims));
    p.length = in.number(static_cast<double>(meant_length));
    p.start = in.number(static_cast<double>(meant_start));
    // The rules, restated: dtype, shape, rank, whole numbers (invalid_argument), then rows inside the table.
    const auto sizes = sizes_of(p.table);
    const auto length = whole(p.length, 0, kMaxSafe), start = whole(p.start, 0, kTwoTo53);
    const bool args_ok = p.table.dtype == dtype_name<T>() && sizes && sizes->size() == 2 && length && start;
    const std::int64_t rows = args_ok ? (*sizes)[0] : 0, width = args_ok ? (*sizes)[1] : 0;
    const bool in_table = args_ok && *start + *length <= rows;  // each at most 2^53: no overflow
    const std::vector<std::int64_t> shape{length.value_or(0), width};
    const std::int64_t n = saturating_product(shape);
    p.out_length = in.out_length(n);
    const Expected expected = package_outcome({.invalid_argument = !args_ok, .out_of_range = args_ok && !in_table},
                                              beyond_tensor_limit(shape, sizeof(T)), n, p.out_length);
    if (!expected.any() && n > kMaxWork) return;  // a valid result too big to check here
    const std::string call = "calls::learned_positions(table " + text(p.table) + ", length " + str(p.length) +
                             ", start " + str(p.start) + text(p.out_length) + ")";
    const std::int64_t io_bytes = expected.any() ? 0 : static_cast<std::int64_t>((table.size() + n) * sizeof(T));
    std::vector<seqorder::calls::Result> results;
    if (!expect_call(expected, [&] { results = seqorder::calls::learned_positions(p); }, call, io_bytes)) return;
    FUZZ_CHECK(results.size() == 1, call + ": " + std::to_string(results.size()) + " results");
    const std::span<const T> got = result_values<T>(results[0], shape, call);
    std::vector<T> kernel(static_cast<std::size_t>(n));
    seqorder::learned_positions_into<T>(kernel, table.data(), rows, width, *length, *start);
    check_same_bits<T>(got, kernel, call);
    check_rows<T>(got, table.data(), width, *start, *length, call);
}

template <class T>
void run(Input& in) {
    const std::int64_t rows = in.size(24), width = in.size(12);
    const std::int64_t length = in.size(24);
    // Half the time at the table's edge: P - length - 1, P - length (the last valid start) or P - length + 1
    // (computed wide, then wrapped to 64 bits as a caller's arithmetic would).
    const std::int64_t start = in.byte() % 2 ? static_cast<std::int64_t>(static_cast<__int128>(rows) - length +
                                                                         static_cast<std::int64_t>(in.byte() % 3) - 1)
                                             : in.size(24);
    const bool wrong_rank = in.byte() % 8 == 0;
    if (rows < 0 || width < 0 || saturating_product({rows, width}) > kMaxElements) return;  // no table to back it

    seqorder::Shape shape{static_cast<std::size_t>(rows), static_cast<std::size_t>(width)};
    if (wrong_rank) shape.push_back(1);
    seqorder::Tensor<T> table(shape);
    in.fill<T>(table.data());
    check_package<T>(in, table, length, start);

    // Independent rule: rows start .. start + length - 1 must lie in 0 .. P-1 (computed without overflow).
    const bool in_table = length >= 0 && start >= 0 && static_cast<__int128>(start) + length <= rows;
    const std::string call = "learned_positions(table " + seqorder::shape_to_string(table.shape()) + ", length " +
                             std::to_string(length) + ", start " + std::to_string(start) +
                             (sizeof(T) == 4 ? ", float32)" : ", float64)");

    // The rule: length and start signs (invalid_argument), then the range (out_of_range).
    Expected expected;
    if (length < 0 || start < 0) expected.invalid_argument = true;
    else if (!in_table) expected.out_of_range = true;
    const bool ok = expect_outcome(expected, [&] { seqorder::check_learned_positions_args(rows, length, start); },
                                   "check_learned_positions_args " + call);
    if (!ok || wrong_rank) return;

    // The kernel on checked arguments, into a result of exactly its size (AddressSanitizer sees any overrun).
    const std::int64_t n = saturating_product({length, width});
    if (n > kMaxElements) return;
    std::vector<T> result(static_cast<std::size_t>(n));
    seqorder::learned_positions_into<T>(result, table.data(), rows, width, length, start);
    check_rows<T>(result, table.data(), width, start, length, "learned_positions_into " + call);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
