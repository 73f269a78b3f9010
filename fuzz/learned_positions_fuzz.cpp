// libFuzzer target: learned absolute positions (a lookup of rows start .. start+length-1 of a (P, D) table).
//   learned_positions<T> (Tensor API, including a wrong-rank table) and learned_positions_into<T> (span API, as the
//   WebAssembly binding calls it), float64 and float32, with arbitrary length and start (negative, past the table,
//   near INT64_MAX, where start + length overflows).
// Invariants:
//   - throws iff the table's rank is wrong, length < 0 or start < 0 (invalid_argument), the rows reach past the table
//     (out_of_range), or the result is beyond 1 GiB (length_error): never a wrap, a clamp or a silent overrun;
//   - on success the result is (length, D) and equals the table's rows start .. start+length-1 bit for bit.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "positions.hpp"

namespace {

using namespace seqorder_fuzz;

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

    // Independent rule: rows start .. start + length - 1 must lie in 0 .. P-1 (computed without overflow).
    const bool in_table = length >= 0 && start >= 0 && static_cast<__int128>(start) + length <= rows;
    const bool too_big = length >= 0 && beyond_tensor_limit({length, width}, sizeof(T));
    const std::string call = "learned_positions(table " + seqorder::shape_to_string(table.shape()) + ", length " +
                             std::to_string(length) + ", start " + std::to_string(start) +
                             (sizeof(T) == 4 ? ", float32)" : ", float64)");

    // Tensor API order: table rank, length and start signs, the range, then the result's size (allocation).
    Expected expected;
    if (wrong_rank || length < 0 || start < 0) expected.invalid_argument = true;
    else if (!in_table) expected.out_of_range = true;
    else if (too_big) expected.length_error = true;
    // A valid result too big to build quickly is skipped; every error comes before the allocation.
    const bool slow = length >= 0 && !too_big && saturating_product({length, width}) > kMaxWork;
    if (slow && !expected.any()) return;
    seqorder::Tensor<T> out;
    const bool ok = expect_outcome(expected, [&] { out = seqorder::learned_positions<T>(table, length, start); }, call);
    if (wrong_rank) return;

    // Span API: length and start signs (invalid_argument), then the range (out_of_range); the caller sized `out`.
    Expected span_expected;
    if (length < 0 || start < 0) span_expected.invalid_argument = true;
    else if (!in_table) span_expected.out_of_range = true;
    const std::int64_t n = length >= 0 ? saturating_product({length, width}) : 0;
    if (n > kMaxElements) return;
    std::vector<T> result(static_cast<std::size_t>(n));
    const bool span_ok = expect_outcome(
        span_expected, [&] { seqorder::learned_positions_into<T>(result, table.data(), rows, width, length, start); },
        "learned_positions_into " + call);
    FUZZ_CHECK(span_ok == ok, call + ": the Tensor and span APIs disagree on success");
    if (!span_ok) return;
    FUZZ_CHECK(out.shape() == (seqorder::Shape{static_cast<std::size_t>(length), static_cast<std::size_t>(width)}),
               call + ": shape " + seqorder::shape_to_string(out.shape()));
    for (std::int64_t r = 0; r < (width > 0 ? length : 0); ++r)
        for (std::int64_t d = 0; d < width; ++d) {
            const T want = table.data()[static_cast<std::size_t>((start + r) * width + d)];
            const T got = result[static_cast<std::size_t>(r * width + d)];
            const T tensor_got = out.data()[static_cast<std::size_t>(r * width + d)];
            FUZZ_CHECK(std::memcmp(&want, &got, sizeof(T)) == 0 && std::memcmp(&want, &tensor_got, sizeof(T)) == 0,
                       call + ": row " + std::to_string(r) + " is not table row " + std::to_string(start + r));
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
