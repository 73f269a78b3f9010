#include "positions.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace seqorder {
namespace {

// Column of the sine and the cosine of pair i in a row of `width` values.
struct PairColumns {
    std::int64_t sin, cos;
};
PairColumns pair_columns(std::int64_t i, std::int64_t width, Layout layout) {
    if (layout == Layout::interleaved) return {2 * i, 2 * i + 1};
    return {i, width / 2 + i};
}

}  // namespace

void check_positions_args(std::int64_t length, std::int64_t width, std::int64_t start, double base) {
    if (length < 0) throw std::invalid_argument("length must be a non-negative integer, got " + std::to_string(length));
    if (width <= 0 || width % 2 != 0)
        throw std::invalid_argument("width must be a positive even integer (every sine needs its cosine), got " +
                                    std::to_string(width));
    if (start < 0) throw std::invalid_argument("start must be a non-negative integer, got " + std::to_string(start));
    if (start > kMaxPosition - length)
        throw std::invalid_argument("start + length must be at most 2^53 (positions must be exact integers), got start " +
                                    std::to_string(start) + " and length " + std::to_string(length));
    if (!std::isfinite(base) || base <= 0.0)
        throw std::invalid_argument("base must be a finite number greater than 0, got " + std::to_string(base));
}

void position_frequencies(std::span<double> frequencies, std::int64_t width, double base) {
    for (std::size_t i = 0; i < frequencies.size(); ++i)
        frequencies[i] = std::pow(base, -static_cast<double>(2 * static_cast<std::int64_t>(i)) / static_cast<double>(width));
}

template <class T>
void positions_reference(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start, double base,
                         Layout layout) {
    // out: (length, width)
    check_positions_args(length, width, start, base);
    std::vector<double> frequency(static_cast<std::size_t>(width / 2));
    position_frequencies(frequency, width, base);
    for (std::int64_t row = 0; row < length; ++row) {
        const double t = static_cast<double>(start + row);
        T* out_row = out.data() + row * width;
        for (std::int64_t i = 0; i < width / 2; ++i) {
            const double angle = t * frequency[static_cast<std::size_t>(i)];
            const PairColumns c = pair_columns(i, width, layout);
            out_row[c.sin] = static_cast<T>(std::sin(angle));
            out_row[c.cos] = static_cast<T>(std::cos(angle));
        }
    }
}

template <class T>
void positions_fast(std::span<T> out, std::int64_t length, std::int64_t width, std::int64_t start, double base,
                    Layout layout) {
    // out: (length, width)
    check_positions_args(length, width, start, base);
    const auto pairs = static_cast<std::size_t>(width / 2);
    std::vector<double> frequency(pairs), step_sin(pairs), step_cos(pairs), s(pairs), c(pairs);
    position_frequencies(frequency, width, base);
    for (std::size_t i = 0; i < pairs; ++i) {
        step_sin[i] = std::sin(frequency[i]);
        step_cos[i] = std::cos(frequency[i]);
    }
    for (std::int64_t row = 0; row < length; ++row) {
        const double t = static_cast<double>(start + row);
        if (row % kAnchorRows == 0) {
            // Anchor: exact float64 sin/cos of the angle, as in the reference.
            for (std::size_t i = 0; i < pairs; ++i) {
                const double angle = t * frequency[i];
                s[i] = std::sin(angle);
                c[i] = std::cos(angle);
            }
        } else {
            // Rotate each pair by its own frequency: angle addition, 4 multiplies and 2 adds per pair.
            for (std::size_t i = 0; i < pairs; ++i) {
                const double next_s = s[i] * step_cos[i] + c[i] * step_sin[i];
                const double next_c = c[i] * step_cos[i] - s[i] * step_sin[i];
                s[i] = next_s;
                c[i] = next_c;
            }
        }
        T* out_row = out.data() + row * width;
        if (layout == Layout::interleaved) {
            for (std::size_t i = 0; i < pairs; ++i) {
                out_row[2 * i] = static_cast<T>(s[i]);
                out_row[2 * i + 1] = static_cast<T>(c[i]);
            }
        } else {
            for (std::size_t i = 0; i < pairs; ++i) {
                out_row[i] = static_cast<T>(s[i]);
                out_row[pairs + i] = static_cast<T>(c[i]);
            }
        }
    }
}

template <class T>
Tensor<T> positions(std::int64_t length, std::int64_t width, std::int64_t start, double base, Layout layout) {
    check_positions_args(length, width, start, base);
    Tensor<T> out({static_cast<std::size_t>(length), static_cast<std::size_t>(width)}, "positions");
    positions_fast<T>(out.data(), length, width, start, base, layout);
    return out;
}

template <class T>
void add_positions_into(std::span<T> out, std::span<const T> x, std::int64_t batch, std::int64_t length,
                        std::int64_t width, std::int64_t start, double base) {
    // x, out: (batch, length, width); positions: (length, width), the same for every sequence of the batch.
    check_positions_args(length, width, start, base);
    if (batch < 0) throw std::invalid_argument("batch must be a non-negative integer, got " + std::to_string(batch));
    std::vector<T> table(static_cast<std::size_t>(length * width));
    positions_fast<T>(table, length, width, start, base, Layout::interleaved);
    const auto per_sequence = static_cast<std::size_t>(length * width);
    for (std::int64_t b = 0; b < batch; ++b) {
        const std::size_t offset = static_cast<std::size_t>(b) * per_sequence;
        for (std::size_t j = 0; j < per_sequence; ++j) out[offset + j] = x[offset + j] + table[j];
    }
}

template <class T>
Tensor<T> add_positions(const Tensor<T>& x, std::int64_t start, double base) {
    if (x.rank() != 2 && x.rank() != 3)
        throw std::invalid_argument("x must have shape (T, D) or (B, T, D), got " + shape_to_string(x.shape()));
    const std::size_t batch = x.rank() == 3 ? x.dim(0) : 1;
    const std::size_t length = x.dim(x.rank() - 2), width = x.dim(x.rank() - 1);
    Tensor<T> out(x.shape(), "x + positions");
    add_positions_into<T>(out.data(), x.data(), static_cast<std::int64_t>(batch), static_cast<std::int64_t>(length),
                          static_cast<std::int64_t>(width), start, base);
    return out;
}

template <class T>
void learned_positions_into(std::span<T> out, std::span<const T> table, std::int64_t table_rows, std::int64_t width,
                            std::int64_t length, std::int64_t start) {
    // table: (table_rows, width) -> out: (length, width)
    if (length < 0) throw std::invalid_argument("length must be a non-negative integer, got " + std::to_string(length));
    if (start < 0) throw std::invalid_argument("start must be a non-negative integer, got " + std::to_string(start));
    if (start > table_rows - length)
        throw std::out_of_range("learned positions: rows " + std::to_string(start) + ".." +
                                std::to_string(start + length - 1) + " reach past the table, which has rows 0.." +
                                std::to_string(table_rows - 1) +
                                " (a finite table has a supported range: extending it needs a deliberate adaptation)");
    const auto first = static_cast<std::size_t>(start * width);
    const auto count = static_cast<std::size_t>(length * width);
    for (std::size_t j = 0; j < count; ++j) out[j] = table[first + j];
}

template <class T>
Tensor<T> learned_positions(const Tensor<T>& table, std::int64_t length, std::int64_t start) {
    if (table.rank() != 2) throw std::invalid_argument("table must have shape (P, D), got " + shape_to_string(table.shape()));
    if (length < 0) throw std::invalid_argument("length must be a non-negative integer, got " + std::to_string(length));
    Tensor<T> out({static_cast<std::size_t>(length), table.dim(1)}, "learned positions");
    learned_positions_into<T>(out.data(), table.data(), static_cast<std::int64_t>(table.dim(0)),
                              static_cast<std::int64_t>(table.dim(1)), length, start);
    return out;
}

#define SEQORDER_INSTANTIATE(T)                                                                                        \
    template void positions_reference<T>(std::span<T>, std::int64_t, std::int64_t, std::int64_t, double, Layout);     \
    template void positions_fast<T>(std::span<T>, std::int64_t, std::int64_t, std::int64_t, double, Layout);          \
    template Tensor<T> positions<T>(std::int64_t, std::int64_t, std::int64_t, double, Layout);                        \
    template void add_positions_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t, std::int64_t,    \
                                        std::int64_t, double);                                                          \
    template Tensor<T> add_positions<T>(const Tensor<T>&, std::int64_t, double);                                       \
    template void learned_positions_into<T>(std::span<T>, std::span<const T>, std::int64_t, std::int64_t,              \
                                            std::int64_t, std::int64_t);                                               \
    template Tensor<T> learned_positions<T>(const Tensor<T>&, std::int64_t, std::int64_t);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
