// libFuzzer target: the sinusoidal positions table.
//   calls::positions (the package's path: length, width and start as a JS caller passes them, numbers that may be
//   fractions, NaN, infinite or past 2^53; dtype and layout as strings; an out length), check_positions_args (the
//   rule), and on checked arguments the kernels positions_reference and positions_fast, float64 and float32, both
//   layouts, with arbitrary length, width, start and base.
// Invariants:
//   - the package's call and the rule throw iff the arguments break the documented rule (restated independently here), or the result
//     is beyond the 1 GiB tensor limit (std::length_error), and never anything else; the package's call also refuses
//     a number that is not a whole one in range, a dtype or layout it does not know, and an out length other than the
//     result's, before allocating anything big (and allocates no more than the table needs when it succeeds);
//   - a valid table has the documented shape, finite values in [-1, 1], and equals sin/cos of the angle computed in
//     long double within the error of a float64 angle (reference), plus the recurrence's drift between anchors (fast, positions.hpp);
//   - the package's table is positions_fast's bit for bit;
//   - positions_fast agrees with positions_reference within that bound.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "positions_check.hpp"

namespace {

using namespace seqorder_fuzz;

// The package's call, its arguments drawn from `meant` as a JS caller may pass them.
template <class T>
void check_package(Input& in, const PositionsArgs& meant, seqorder::Layout meant_layout) {
    seqorder::calls::PositionsArgs p;
    p.length = in.number(static_cast<double>(meant.length));
    p.width = in.number(static_cast<double>(meant.width));
    p.start = in.number(static_cast<double>(meant.start));
    p.base = meant.base;
    p.dtype = in.dtype(dtype_name<T>());
    p.layout = in.name(meant_layout == seqorder::Layout::halves ? "halves" : "interleaved",
                       {"interleaved", "halves", "Halves", "", "interleaved ", "sequential"});
    // The rule, restated: whole numbers in range, names it knows, then the positions rule on the integers.
    const auto length = whole(p.length, 0, kMaxSafe), width = whole(p.width, 0, kMaxSafe),
               start = whole(p.start, 0, kTwoTo53);
    const PositionsArgs a{length.value_or(0), width.value_or(0), start.value_or(0), p.base};
    const std::vector<std::int64_t> shape{a.length, a.width};
    const std::int64_t n = saturating_product(shape);
    p.out_length = in.out_length(n);
    if (overflow_ambiguous(a)) return;
    const bool valid = length && width && start && p.dtype == dtype_name<T>() &&
                       (p.layout == "interleaved" || p.layout == "halves") && positions_args_valid(a);
    const Expected expected = package_outcome({.invalid_argument = !valid}, beyond_tensor_limit(shape, sizeof(T)), n, p.out_length);
    if (!expected.any() && n > kMaxElements) return;  // a valid table too big to check here
    const std::string call = "calls::positions(length " + str(p.length) + ", width " + str(p.width) + ", start " +
                             str(p.start) + ", base " + str(p.base) + ", '" + p.dtype + "', '" + p.layout + "'" +
                             text(p.out_length) + ")";
    std::vector<seqorder::calls::Result> results;
    if (!expect_call(expected, [&] { results = seqorder::calls::positions(p); }, call, expected.any() ? 0 : n * sizeof(T)))
        return;
    FUZZ_CHECK(results.size() == 1, call + ": " + std::to_string(results.size()) + " results");
    const std::span<const T> table = result_values<T>(results[0], shape, call);
    const seqorder::Layout layout = p.layout == "halves" ? seqorder::Layout::halves : seqorder::Layout::interleaved;
    std::vector<T> fast(static_cast<std::size_t>(n));
    seqorder::positions_fast<T>(fast, a.length, a.width, a.start, a.base, layout);
    check_same_bits<T>(table, fast, call);
    check_table<T>(table, a, layout, kFastDrift, call);
}

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
    check_package<T>(in, a, layout);

    if (overflow_ambiguous(a)) return;
    const bool valid = positions_args_valid(a);
    expect_outcome({.invalid_argument = !valid},
                   [&] { seqorder::check_positions_args(a.length, a.width, a.start, a.base); }, "check_positions_args " + call);

    const std::int64_t n = valid ? saturating_product({a.length, a.width}) : 0;
    if (!valid || n > kMaxElements) return;

    // The kernels on checked arguments: exact-size buffers, so AddressSanitizer sees any overrun.
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
