#include "call_positions.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace seqorder::model {

const std::int32_t* checked_positions(const Config& c, const CallPositions& positions, std::int64_t batch,
                                      std::int64_t length) {
    if (positions.ids.empty()) return nullptr;
    if (c.positions == Positions::none)
        throw std::invalid_argument("positionIds: a model with positions 'none' reads no positions");
    const auto B = static_cast<std::size_t>(batch), T = static_cast<std::size_t>(length);
    if (positions.ids.size() != B * T)
        throw std::invalid_argument("positionIds must have the shape of ids, (B, T) = (" + std::to_string(batch) +
                                    ", " + std::to_string(length) + "), got " + std::to_string(positions.ids.size()) +
                                    " values");
    const std::int64_t rows = c.positions == Positions::learned ? *c.max_length : std::int64_t{1} << 31;
    bool plain = true;
    for (std::size_t n = 0; n < B * T; ++n) {
        const std::int32_t p = positions.ids[n];
        const std::size_t t = n % T;
        const bool below = t > 0 && p <= positions.ids[n - 1];
        if (p < 0 || p >= rows || below) {
            std::string rule = below ? " is not above the position before it: each row must be strictly increasing"
                                     : " is outside 0 .. " + std::to_string(rows - 1);
            if (!below) rule += c.positions == Positions::learned ? " (maxLength - 1: the learned table's rows)" : " (int32)";
            throw std::out_of_range("positionIds[" + std::to_string(n / T) + ", " + std::to_string(t) +
                                    "] = " + std::to_string(p) + rule);
        }
        plain = plain && static_cast<std::size_t>(p) == t;
    }
    return plain ? nullptr : positions.ids.data();
}

std::vector<double> position_frequencies(const Config& c) {
    const bool rotary = c.positions == Positions::rotary;
    const auto pairs = static_cast<std::size_t>(rotary ? rotary_pairs(c) : c.width / 2);
    const auto d = static_cast<double>(2 * pairs);
    std::vector<double> f(pairs);
    for (std::size_t i = 0; i < pairs; ++i)
        f[i] = std::pow(rotary ? rotary_base(c) : 10000.0, -static_cast<double>(2 * i) / d);
    return f;
}

template <class F>
void positions_backward(F* dtable, const F* dout, const std::int32_t* positions, std::size_t rows, std::size_t N,
                        std::size_t D) {
    // dtable: (rows, D), dout: (N, D)
    std::fill(dtable, dtable + rows * D, F{0});
    for (std::size_t n = 0; n < N; ++n) {
        F* row = dtable + static_cast<std::size_t>(positions[n]) * D;
        for (std::size_t d = 0; d < D; ++d) row[d] += dout[n * D + d];
    }
}

template <class F>
void position_turns(F* out, const std::int32_t* positions, std::size_t rows, const double* frequencies,
                    std::size_t pairs) {
    // out: (rows, pairs, 2)
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < pairs; ++i) {
            const double angle = static_cast<double>(positions[r]) * frequencies[i];
            const double sine = std::sin(angle), cosine = std::cos(angle);
            out[(r * pairs + i) * 2] = static_cast<F>(sine);
            out[(r * pairs + i) * 2 + 1] = static_cast<F>(cosine);
        }
}

template <class F>
void token_rows(F* table, F* turns, const Config& c, const F* learned, const std::int32_t* positions, std::size_t N) {
    const auto D = static_cast<std::size_t>(c.width);
    if (c.positions == Positions::learned) {
        for (std::size_t n = 0; n < N; ++n)
            std::copy_n(learned + static_cast<std::size_t>(positions[n]) * D, D, table + n * D);
        return;
    }
    if (c.positions != Positions::sinusoidal && c.positions != Positions::rotary) return;
    const std::vector<double> frequencies = position_frequencies(c);
    position_turns<F>(c.positions == Positions::rotary ? turns : table, positions, N, frequencies.data(),
                      frequencies.size());
}

template <class F>
void rotary_turn(F* x, const F* turns, std::size_t B, std::size_t H, std::size_t T, std::size_t hd, std::size_t pairs,
                 bool per_row, bool transposed) {
    // x: (B, H, T, hd), turns: (T, pairs, 2), or (B, T, pairs, 2) per_row
    for (std::size_t bh = 0; bh < B * H; ++bh)
        for (std::size_t t = 0; t < T; ++t) {
            F* row = x + (bh * T + t) * hd;
            const F* turn = turns + ((per_row ? (bh / H) * T : 0) + t) * pairs * 2;
            for (std::size_t i = 0; i < pairs; ++i) {
                const double even = static_cast<double>(row[2 * i]), odd = static_cast<double>(row[2 * i + 1]);
                const double s = transposed ? -static_cast<double>(turn[2 * i]) : static_cast<double>(turn[2 * i]);
                const double c = static_cast<double>(turn[2 * i + 1]);
                row[2 * i] = static_cast<F>(even * c - odd * s);
                row[2 * i + 1] = static_cast<F>(even * s + odd * c);
            }
        }
}

// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, and (F)* would not parse
#define SEQORDER_INSTANTIATE(F)                                                                                       \
    template void positions_backward<F>(F*, const F*, const std::int32_t*, std::size_t, std::size_t, std::size_t);    \
    template void position_turns<F>(F*, const std::int32_t*, std::size_t, const double*, std::size_t);                \
    template void token_rows<F>(F*, F*, const Config&, const F*, const std::int32_t*, std::size_t);                   \
    template void rotary_turn<F>(F*, const F*, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, bool, \
                                 bool);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace seqorder::model
