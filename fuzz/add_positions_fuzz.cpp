// libFuzzer target: adding the positions table to token vectors.
//   add_positions<T> (Tensor API: x (T, D) or (B, T, D), or a wrong rank) and add_positions_into<T> (span API, as the
//   WebAssembly binding calls it, out of place and in place), float64 and float32, with arbitrary shapes (empty ones
//   with huge other sizes included), start, base, and x holding NaN, infinities, subnormals and huge values.
// Invariants:
//   - throws iff x's rank is wrong, batch < 0 or the positions arguments (T, D, start, base) break their rule
//     (invalid_argument), never anything else; an empty x gives an empty result whatever its other sizes;
//   - out = x + positions: each element within the positions' error plus one rounding of the sum in T of
//     x + positions_reference; a non-finite x stays exactly what x + the position gives (NaN stays NaN, inf stays inf);
//   - in place (out aliasing x) gives bit for bit the out-of-place result.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "positions_check.hpp"

namespace {

using namespace seqorder_fuzz;

template <class T>
void run(Input& in) {
    const int rank = 1 + in.byte() % 4;  // 1 and 4 are wrong ranks
    const std::int64_t batch = rank >= 3 ? in.size(3) : 1;
    PositionsArgs a;
    a.length = in.size(24);
    a.width = in.size(24);
    a.start = draw_start(in);
    a.base = draw_base(in);
    if (batch < 0 || a.length < 0 || a.width < 0) return;  // a Tensor's shape is unsigned: the JS layer checks signs
    std::vector<std::int64_t> dims{a.length, a.width};
    if (rank >= 3) dims.insert(dims.begin(), batch);
    if (rank == 4) dims.push_back(1);
    if (rank == 1) dims.erase(dims.begin());
    const std::int64_t n = saturating_product(dims);
    if (n > kMaxElements) return;  // no caller could back it with data
    seqorder::Shape shape(dims.begin(), dims.end());
    seqorder::Tensor<T> x(shape);
    in.fill<T>(x.data());
    const std::string call = "add_positions(x " + seqorder::shape_to_string(x.shape()) + ", start " +
                             std::to_string(a.start) + ", base " + str(a.base) + (sizeof(T) == 4 ? ", float32)" : ", float64)");

    if (overflow_ambiguous(a)) return;
    const bool valid = (rank == 2 || rank == 3) && positions_args_valid(a);
    seqorder::Tensor<T> out;
    const bool ok = expect_outcome({.invalid_argument = !valid}, [&] { out = seqorder::add_positions<T>(x, a.start, a.base); },
                                   call);
    if (rank != 2 && rank != 3) return;

    // Span API, with a batch that may be negative (the binding passes what the JS layer checked; the core checks too).
    const std::int64_t span_batch = in.byte() % 16 == 0 ? -1 : batch;
    std::vector<T> result(x.size());
    const bool span_ok = expect_outcome({.invalid_argument = !valid || span_batch < 0},
                                        [&] {
                                            seqorder::add_positions_into<T>(result, x.data(), span_batch, a.length, a.width,
                                                                            a.start, a.base);
                                        },
                                        "add_positions_into " + call);
    if (!ok) return;
    FUZZ_CHECK(out.shape() == x.shape(), call + ": shape " + seqorder::shape_to_string(out.shape()));
    if (n == 0) return;

    // x + the reference table, element by element.
    std::vector<T> table(static_cast<std::size_t>(a.length * a.width));
    seqorder::positions_reference<T>(table, a.length, a.width, a.start, a.base);
    const double angle = static_cast<double>(largest_angle(a));
    const double table_error = 8 * angle * 0x1p-52 + 16 * 0x1p-52 + kFastDrift + (sizeof(T) == 4 ? 0x1p-23 : 0);
    const double eps_t = sizeof(T) == 4 ? 0x1p-23 : 0x1p-52;
    const std::size_t per_sequence = table.size();
    for (std::size_t j = 0; j < x.size(); ++j) {
        const T p = table[j % per_sequence];
        const T xj = x.data()[j];
        const T got = out.data()[j];
        if (!std::isfinite(xj)) {
            FUZZ_CHECK(same_value(got, static_cast<T>(xj + p)), call + ": element " + std::to_string(j) + " of non-finite x " +
                                                                    str(static_cast<double>(xj)) + " became " + str(static_cast<double>(got)));
        } else {
            const double want = static_cast<double>(xj) + static_cast<double>(p);
            const double tolerance = table_error + 2 * eps_t * (std::fabs(static_cast<double>(xj)) + 1);
            FUZZ_CHECK(std::isfinite(static_cast<double>(got)) && std::fabs(static_cast<double>(got) - want) <= tolerance,
                       call + ": element " + std::to_string(j) + " = " + str(static_cast<double>(got)) + ", expected " +
                           str(want) + " within " + str(tolerance));
        }
        if (span_ok) FUZZ_CHECK(same_value(got, result[j]), call + ": the Tensor and span APIs differ at " + std::to_string(j));
    }

    // In place: out aliases x.
    std::vector<T> inplace(x.data().begin(), x.data().end());
    seqorder::add_positions_into<T>(inplace, inplace, batch, a.length, a.width, a.start, a.base);
    for (std::size_t j = 0; j < x.size(); ++j)
        FUZZ_CHECK(same_value(inplace[j], out.data()[j]), call + ": in place differs at element " + std::to_string(j));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
