#include "rope.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

namespace seqorder {
namespace {

// The rotations' preconditions (rope.hpp), asserted in debug builds. Whether there is anything to rotate.
bool any_rows([[maybe_unused]] std::size_t out_size, [[maybe_unused]] std::size_t x_size, std::int64_t batch,
              std::int64_t length, [[maybe_unused]] std::int64_t width, [[maybe_unused]] std::int64_t start,
              [[maybe_unused]] double base) {
    assert(batch >= 0 && length >= 0 && width > 0 && width % 2 == 0 && start >= 0 && start <= kMaxPosition - length);
    assert(std::isfinite(base) && base > 0);
    if (batch == 0 || length == 0) return false;
    assert(x_size == out_size && out_size / static_cast<std::size_t>(batch * length) == static_cast<std::size_t>(width));
    return true;
}

// Rotates the pairs of one row: x_row, out_row: (width); s, c: sin and cos of each pair's angle, (width / 2).
// The products are taken in float64 and rounded once to T. Reading both coordinates before writing keeps it in place.
template <class T, class SinAt, class CosAt>
void rotate_row(T* out_row, const T* x_row, std::int64_t pairs, SinAt sin_at, CosAt cos_at) {
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double even = static_cast<double>(x_row[2 * i]);
        const double odd = static_cast<double>(x_row[2 * i + 1]);
        const double s = sin_at(i), c = cos_at(i);
        out_row[2 * i] = static_cast<T>(even * c - odd * s);
        out_row[2 * i + 1] = static_cast<T>(even * s + odd * c);
    }
}

}  // namespace

template <class T>
void rope_reference(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length,
                    std::int64_t width, std::int64_t start, double base) {
    // x, out: (batch, length, width)
    if (!any_rows(out.size(), x.size(), batch, length, width, start, base)) return;  // no per-pair state, whatever D
    std::vector<double> frequency(static_cast<std::size_t>(width / 2));
    position_frequencies(frequency, width, base);
    for (std::int64_t b = 0; b < batch; ++b) {
        for (std::int64_t row = 0; row < length; ++row) {
            const double t = static_cast<double>(start + row);
            const std::size_t offset = static_cast<std::size_t>((b * length + row) * width);
            auto angle = [&](std::int64_t i) { return t * frequency[static_cast<std::size_t>(i)]; };
            rotate_row<T>(out.data() + offset, x.data() + offset, width / 2,
                          [&](std::int64_t i) { return std::sin(angle(i)); },
                          [&](std::int64_t i) { return std::cos(angle(i)); });
        }
    }
}

template <class T>
void rope_into(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length, std::int64_t width,
               std::int64_t start, double base) {
    // x, out: (batch, length, width); table: (rows, width) in float64, the interleaved sinusoids of one block of rows.
    if (!any_rows(out.size(), x.size(), batch, length, width, start, base)) return;  // no block of sines, whatever D
    std::vector<double> table(static_cast<std::size_t>(std::min(kAnchorRows, length) * width));
    for (std::int64_t first = 0; first < length; first += kAnchorRows) {
        const std::int64_t rows = std::min(kAnchorRows, length - first);
        // One block starts at an anchor, so these rows equal positions_fast's rows of a whole table.
        positions_fast<double>(std::span<double>(table).first(static_cast<std::size_t>(rows * width)), rows, width,
                               start + first, base, Layout::interleaved);
        for (std::int64_t b = 0; b < batch; ++b) {
            for (std::int64_t r = 0; r < rows; ++r) {
                const double* sincos = table.data() + r * width;  // sin at 2i, cos at 2i + 1
                const std::size_t offset = static_cast<std::size_t>((b * length + first + r) * width);
                rotate_row<T>(out.data() + offset, x.data() + offset, width / 2,
                              [&](std::int64_t i) { return sincos[2 * i]; },
                              [&](std::int64_t i) { return sincos[2 * i + 1]; });
            }
        }
    }
}

#define SEQORDER_INSTANTIATE(T)                                                                                      \
    template void rope_reference<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,     \
                                    std::int64_t, double);                                                            \
    template void rope_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,          \
                               std::int64_t, double);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
