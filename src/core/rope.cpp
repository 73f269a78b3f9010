#include "rope.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace seqorder {
namespace {

// Checks everything rope_reference and rope_into promise to check; returns batch * length * width.
std::size_t check_rope_args(std::size_t out_size, std::size_t x_size, std::int64_t batch, std::int64_t length,
                            std::int64_t width, std::int64_t start, double base) {
    check_positions_args(length, width, start, base);
    if (batch < 0) throw std::invalid_argument("batch must be a non-negative integer, got " + std::to_string(batch));
    // batch, length, width are non-negative here; the product is checked like any tensor's size.
    const std::size_t count = checked_element_count(
        {static_cast<std::size_t>(batch), static_cast<std::size_t>(length), static_cast<std::size_t>(width)}, 1, "x");
    if (x_size < count)
        throw std::invalid_argument("x must hold batch * length * width = " + std::to_string(count) + " values, got " +
                                    std::to_string(x_size));
    if (out_size < count)
        throw std::invalid_argument("out must hold batch * length * width = " + std::to_string(count) +
                                    " values, got " + std::to_string(out_size));
    return count;
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
    // nothing to rotate: no per-pair state, whatever the width (fuzz finding, as for positions)
    if (check_rope_args(out.size(), x.size(), batch, length, width, start, base) == 0) return;
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
    // nothing to rotate: no block of sines, whatever T and D (fuzz finding: an empty batch allocated 256 * D doubles)
    if (check_rope_args(out.size(), x.size(), batch, length, width, start, base) == 0) return;
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

template <class T>
Tensor<T> rope(const Tensor<T>& x, std::int64_t start, double base) {
    if (x.rank() != 2 && x.rank() != 3)
        throw std::invalid_argument("x must have shape (T, D) or (B, T, D), got " + shape_to_string(x.shape()));
    const std::size_t batch = x.rank() == 3 ? x.dim(0) : 1;
    const std::size_t length = x.dim(x.rank() - 2), width = x.dim(x.rank() - 1);
    if (width == 0 || width % 2 != 0)
        throw std::invalid_argument("x's width D (its last axis) must be a positive even integer (rotary positions "
                                    "rotate coordinate pairs), got " + std::to_string(width));
    Tensor<T> out(x.shape(), "rotated x");
    rope_into<T>(out.data(), x.data(), static_cast<std::int64_t>(batch), static_cast<std::int64_t>(length),
                 static_cast<std::int64_t>(width), start, base);
    return out;
}

#define SEQORDER_INSTANTIATE(T)                                                                                      \
    template void rope_reference<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,     \
                                    std::int64_t, double);                                                            \
    template void rope_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,          \
                               std::int64_t, double);                                                                 \
    template Tensor<T> rope<T>(const Tensor<T>&, std::int64_t, double);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
