// libFuzzer target: adding the positions table to token vectors, and rotating them by its angles (RoPE).
//   calls::add_positions and calls::rope (the package's path: x as the binding passes it, with 0 to 3 leading batch
//   axes and a shape of JS numbers that may disagree with the data; start as a JS number; an out length),
//   check_positions_args (the rule), the same calls on a well-formed x (tests/native/calling.hpp) and, on checked
//   arguments, add_positions_into<T>, rope_into<T> and rope_reference<T> (out of place and in place), float64 and
//   float32, with arbitrary shapes (empty ones with huge other sizes included), start, base, and x holding NaN,
//   infinities, subnormals and huge values.
// Invariants:
//   - the calls and the rule throw iff x's dtype, shape or rank is wrong, batch < 0, start is not a whole number in range, or the positions
//     arguments (T, D, start, base) break their rule (invalid_argument), or, for the package's calls, an out length is
//     not the result's (invalid_argument); never anything else, and nothing big is allocated before an error; an empty
//     x gives an empty result whatever its other sizes;
//   - out = x + positions: each element within the positions' error plus one rounding of the sum in T of
//     x + positions_reference; a non-finite x stays exactly what x + the position gives (NaN stays NaN, inf stays inf);
//   - rope (fast and reference): each pair of finite values equals its rotation by t f_i computed in long double,
//     within the angle's error times the pair's size plus one rounding to T;
//   - the package's results are add_positions_into's and rope_into's bit for bit; in place (out aliasing x) gives bit
//     for bit the out-of-place result.
#include <cstdint>
#include <string>
#include <vector>

#include "calling.hpp"
#include "fuzz_input.hpp"
#include "positions_check.hpp"
#include "rope.hpp"

namespace {

using namespace seqorder_fuzz;

// out = x + the table of `a`, broadcast over the sequences of x (each of a.length * a.width values).
template <class T>
void check_added(std::span<const T> x, std::span<const T> out, const PositionsArgs& a, const std::string& what) {
    if (x.empty()) return;
    std::vector<T> table(static_cast<std::size_t>(a.length * a.width));
    seqorder::positions_reference<T>(table, a.length, a.width, a.start, a.base);
    const double angle = static_cast<double>(largest_angle(a));
    const double table_error = 8 * angle * 0x1p-52 + 16 * 0x1p-52 + kFastDrift + (sizeof(T) == 4 ? 0x1p-23 : 0);
    const double eps_t = sizeof(T) == 4 ? 0x1p-23 : 0x1p-52;
    for (std::size_t j = 0; j < x.size(); ++j) {
        const T p = table[j % table.size()];
        const T xj = x[j];
        const T got = out[j];
        if (!std::isfinite(xj)) {
            FUZZ_CHECK(same_value(got, static_cast<T>(xj + p)), what + ": element " + std::to_string(j) +
                                                                    " of non-finite x " + str(static_cast<double>(xj)) +
                                                                    " became " + str(static_cast<double>(got)));
        } else {
            const double want = static_cast<double>(xj) + static_cast<double>(p);
            const double tolerance = table_error + 2 * eps_t * (std::fabs(static_cast<double>(xj)) + 1);
            FUZZ_CHECK(std::isfinite(static_cast<double>(got)) && std::fabs(static_cast<double>(got) - want) <= tolerance,
                       what + ": element " + std::to_string(j) + " = " + str(static_cast<double>(got)) + ", expected " +
                           str(want) + " within " + str(tolerance));
        }
    }
}

// out = x with the pair (2i, 2i+1) of row r of every sequence rotated by the angle (start + r) f_i: against the
// rotation computed in long double, within the error of sin and cos of a float64 angle (the fast path's, rope.hpp)
// times the pair's size, plus the float64 products and one rounding to T. Pairs holding a non-finite value, and
// rotations too close to T's overflow, are not checked.
template <class T>
void check_rotated(std::span<const T> x, std::span<const T> out, const PositionsArgs& a, const std::string& what) {
    if (x.empty()) return;
    const auto width = static_cast<std::size_t>(a.width), length = static_cast<std::size_t>(a.length);
    const double eps_t = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
    for (std::size_t j = 0; j < x.size(); j += 2) {
        const double x0 = static_cast<double>(x[j]), x1 = static_cast<double>(x[j + 1]);
        if (!std::isfinite(x0) || !std::isfinite(x1)) continue;
        const std::size_t row = j / width % length, pair = j % width / 2;
        const long double angle = static_cast<long double>(a.start + static_cast<std::int64_t>(row)) *
                                  frequency(a, static_cast<std::int64_t>(pair));
        const long double s = std::sin(angle), c = std::cos(angle);
        const long double want[2] = {x0 * c - x1 * s, x0 * s + x1 * c};
        const double size = std::fabs(x0) + std::fabs(x1);
        for (int k = 0; k < 2; ++k) {
            const double w = static_cast<double>(want[k]);
            const double tolerance = size * (sincos_tolerance(angle, 0x1p-53, kFastDrift) + 4 * 0x1p-53) +
                                     2 * eps_t * std::fabs(w) + std::numeric_limits<T>::denorm_min();
            if (std::fabs(w) + tolerance >= static_cast<double>(std::numeric_limits<T>::max())) continue;
            const double got = static_cast<double>(out[j + static_cast<std::size_t>(k)]);
            FUZZ_CHECK(std::isfinite(got) && std::fabs(got - w) <= tolerance,
                       what + ": element " + std::to_string(j + static_cast<std::size_t>(k)) + " = " + str(got) +
                           ", the rotation of (" + str(x0) + ", " + str(x1) + ") by " + str(static_cast<double>(angle)) +
                           " is " + str(w) + " within " + str(tolerance));
        }
    }
}

// The package's calls: addPositions and rope on x as the binding passes it (the sequences under `lead` axes when x
// has rank 2 or 3), start as a JS caller may pass it (drawn after the rest).
template <class T>
void check_package(Input& in, const seqorder::Tensor<T>& x, std::int64_t batch, const PositionsArgs& meant) {
    std::vector<std::int64_t> dims(x.shape().begin(), x.shape().end());
    const std::vector<std::int64_t> lead = in.lead_axes(batch, x.rank() == 3);
    if (x.rank() == 2 || x.rank() == 3) {
        dims = lead;
        dims.push_back(meant.length);
        dims.push_back(meant.width);
    }
    seqorder::calls::ShiftArgs p;
    p.x = tensor_arg<T>(x.data(), in.dtype(dtype_name<T>()), in.shape(dims));
    p.start = in.number(static_cast<double>(meant.start));
    p.base = meant.base;
    // The rules, restated: dtype, shape, rank (x is (.., T, D)), start a whole number, then the positions rule.
    const auto sizes = sizes_of(p.x);
    const auto start = whole(p.start, 0, kTwoTo53);
    const bool shaped = p.x.dtype == dtype_name<T>() && sizes && sizes->size() >= 2 && start;
    const std::vector<std::int64_t> shape = sizes.value_or(std::vector<std::int64_t>{});
    const PositionsArgs a{shaped ? shape.end()[-2] : 0, shaped ? shape.back() : 0, start.value_or(0), p.base};
    const std::int64_t n = saturating_product(shape);
    p.out_length = in.out_length(n);
    if (overflow_ambiguous(a)) return;
    const bool valid = shaped && positions_args_valid(a);
    const Expected expected = package_outcome({.invalid_argument = !valid}, beyond_tensor_limit(shape, sizeof(T)), n, p.out_length);
    const std::string args = "(x " + text(p.x) + ", start " + str(p.start) + ", base " + str(p.base) + text(p.out_length) + ")";
    const std::int64_t io_bytes = expected.any() ? 0 : static_cast<std::int64_t>(2 * x.size() * sizeof(T));
    const std::int64_t sequences = valid ? saturating_product(std::span(shape).first(shape.size() - 2)) : 0;

    // Each call, its kernel (the result bit for bit) and its oracle.
    auto check_call = [&](const std::string& name, auto call, auto kernel, auto oracle) {
        const std::string what = "calls::" + name + args;
        std::vector<seqorder::calls::Result> results;
        if (!expect_call(expected, [&] { results = call(p); }, what, io_bytes)) return;
        FUZZ_CHECK(results.size() == 1, what + ": " + std::to_string(results.size()) + " results");
        const std::span<const T> got = result_values<T>(results[0], shape, what);
        std::vector<T> want(x.size());
        if (n > 0) kernel(std::span<T>(want), x.data(), sequences, a.length, a.width, a.start, a.base);
        check_same_bits<T>(got, want, what);
        oracle(x.data(), got, a, what);
    };
    check_call("add_positions", seqorder::calls::add_positions, seqorder::add_positions_into<T>, check_added<T>);
    check_call("rope", seqorder::calls::rope, seqorder::rope_into<T>, check_rotated<T>);
}

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
    check_package<T>(in, x, batch, a);
    const std::string call = "(x " + seqorder::shape_to_string(x.shape()) + ", start " + std::to_string(a.start) +
                             ", base " + str(a.base) + (sizeof(T) == 4 ? ", float32)" : ", float64)");

    if (overflow_ambiguous(a)) return;
    const bool valid = positions_args_valid(a);
    expect_outcome({.invalid_argument = !valid}, [&] { seqorder::check_positions_args(a.length, a.width, a.start, a.base); },
                   "check_positions_args" + call);
    if (!valid || (rank != 2 && rank != 3) || x.size() == 0) return;

    // The package's calls on a well-formed x (calling.hpp), then the kernels on the checked arguments, out of place and
    // in place (out aliasing x). (An empty x, whose other sizes may be past what a caller can give, is check_package's.)
    const seqorder::Tensor<T> rotated = testing::rope<T>(x, a.start, a.base);
    FUZZ_CHECK(rotated.shape() == x.shape(), "rope" + call + ": shape " + seqorder::shape_to_string(rotated.shape()));
    check_rotated<T>(x.data(), rotated.data(), a, "rope" + call);
    std::vector<T> reference(x.size());
    seqorder::rope_reference<T>(reference, x.data(), batch, a.length, a.width, a.start, a.base);
    check_rotated<T>(x.data(), reference, a, "rope_reference" + call);
    std::vector<T> rotated_in_place(x.data().begin(), x.data().end());
    seqorder::rope_into<T>(rotated_in_place, rotated_in_place, batch, a.length, a.width, a.start, a.base);
    check_same_bits<T>(rotated_in_place, rotated.data(), "rope in place" + call);

    const seqorder::Tensor<T> out = testing::add_positions<T>(x, a.start, a.base);
    FUZZ_CHECK(out.shape() == x.shape(), "add_positions" + call + ": shape " + seqorder::shape_to_string(out.shape()));
    check_added<T>(x.data(), out.data(), a, "add_positions" + call);
    std::vector<T> result(x.size());
    seqorder::add_positions_into<T>(result, x.data(), batch, a.length, a.width, a.start, a.base);
    check_same_bits<T>(result, out.data(), "add_positions_into vs the package's add_positions" + call);
    std::vector<T> added_in_place(x.data().begin(), x.data().end());
    seqorder::add_positions_into<T>(added_in_place, added_in_place, batch, a.length, a.width, a.start, a.base);
    check_same_bits<T>(added_in_place, out.data(), "add_positions in place" + call);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
