// libFuzzer target: the sinusoidal positions table.
//   check_positions_args, positions<T> (Tensor API), positions_reference and positions_fast (span API), float64 and
//   float32, both layouts, with arbitrary length, width, start and base.
// Invariants:
//   - every call throws iff the arguments break the documented rule (restated independently here), or the result
//     is beyond the 1 GiB tensor limit (std::length_error), and never anything else;
//   - a valid table has the documented shape, finite values in [-1, 1], and equals sin/cos of the angle computed in
//     long double within the error of a float64 angle (reference), plus the recurrence's drift between anchors (fast, positions.hpp);
//   - positions_fast agrees with positions_reference within that bound, and positions<T> is positions_fast.
#include <cstdint>
#include <vector>

#include "fuzz_input.hpp"
#include "positions_check.hpp"

namespace {

using namespace seqorder_fuzz;

template <class T>
void run(Input& in) {
    const seqorder::Layout layout = in.flag() ? seqorder::Layout::halves : seqorder::Layout::interleaved;
    PositionsArgs a;
    a.length = in.size(40);
    a.width = in.size(64);
    a.start = draw_start(in);
    a.base = draw_base(in);
    const std::string call = "positions(length " + std::to_string(a.length) + ", width " + std::to_string(a.width) +
                             ", start " + std::to_string(a.start) + ", base " + str(a.base) +
                             (sizeof(T) == 4 ? ", float32)" : ", float64)");

    if (overflow_ambiguous(a)) return;
    const bool valid = positions_args_valid(a);
    expect_outcome({.invalid_argument = !valid},
                   [&] { seqorder::check_positions_args(a.length, a.width, a.start, a.base); }, "check_positions_args " + call);

    // The Tensor API: checked arguments, then the 1 GiB limit, then the table.
    const std::int64_t n = valid ? saturating_product({a.length, a.width}) : 0;
    const bool too_big = valid && beyond_tensor_limit({a.length, a.width}, sizeof(T));
    if (!valid || too_big || n <= kMaxElements) {
        seqorder::Tensor<T> table;
        if (expect_outcome({.invalid_argument = !valid, .length_error = too_big},
                           [&] { table = seqorder::positions<T>(a.length, a.width, a.start, a.base, layout); }, call)) {
            FUZZ_CHECK(table.shape() == (seqorder::Shape{static_cast<std::size_t>(a.length), static_cast<std::size_t>(a.width)}),
                       call + ": shape " + seqorder::shape_to_string(table.shape()));
            check_table<T>(table.data(), a, layout, kFastDrift, call);
        }
    }
    if (!valid || n > kMaxElements) return;

    // The span API, as the WebAssembly binding calls it: exact-size buffers, so AddressSanitizer sees any overrun.
    std::vector<T> reference(static_cast<std::size_t>(n)), fast(static_cast<std::size_t>(n));
    expect_outcome({}, [&] { seqorder::positions_reference<T>(reference, a.length, a.width, a.start, a.base, layout); },
                   "positions_reference " + call);
    expect_outcome({}, [&] { seqorder::positions_fast<T>(fast, a.length, a.width, a.start, a.base, layout); },
                   "positions_fast " + call);
    check_table<T>(reference, a, layout, 0, "positions_reference " + call);
    check_table<T>(fast, a, layout, kFastDrift, "positions_fast " + call);
    // And directly against each other, within the bound both are held to.
    const double agree = 8 * static_cast<double>(largest_angle(a)) * 0x1p-52 + 16 * 0x1p-52 + kFastDrift + (sizeof(T) == 4 ? 0x1p-23 : 0);
    for (std::size_t j = 0; j < reference.size(); ++j)
        FUZZ_CHECK(std::fabs(static_cast<double>(fast[j]) - static_cast<double>(reference[j])) <= agree,
                   call + ": element " + std::to_string(j) + ": fast " + str(static_cast<double>(fast[j])) + " vs reference " +
                       str(static_cast<double>(reference[j])));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
