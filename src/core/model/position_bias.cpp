#include "position_bias.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace seqorder::model {
namespace {

// n a power of two: start * start^i for i = 0 .. n - 1, as get_slopes_power_of_2 computes them.
void geometric_slopes(std::vector<double>& out, std::int64_t n) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3)));
    for (std::int64_t i = 0; i < n; ++i) out.push_back(start * std::pow(start, static_cast<double>(i)));
}

// position t of a row: positions[t], or t
std::int64_t position_at(const std::int32_t* positions, std::size_t t) {
    return positions ? positions[t] : static_cast<std::int64_t>(t);
}

// T5's bucket of every distance d = p_j - p_i a call meets: looked up for |d| < span (the distances of a sentence of
// T, or of the positions given), computed for the others.
class Buckets {
public:
    Buckets(const Config& c, std::int64_t span) : c_(c), span_(span), table_(static_cast<std::size_t>(2 * span - 1)) {
        for (std::int64_t d = 1 - span; d < span; ++d) table_[static_cast<std::size_t>(d + span - 1)] = compute(d);
    }
    // at[j] = bucket(p_j - p_i) H for the keys j < count of query i in a row of T (positions: the row's, or null:
    // 0 .. T - 1): from the table alone when the row's distances are all in it
    void row(std::size_t* at, const std::int32_t* positions, std::size_t i, std::size_t count, std::size_t T,
             std::size_t H) const {
        const std::int64_t p = position_at(positions, i);
        if (position_at(positions, T - 1) - position_at(positions, 0) < span_) {
            const std::size_t* centre = table_.data() + (span_ - 1);
            if (positions) {
                for (std::size_t j = 0; j < count; ++j) at[j] = centre[positions[j] - p] * H;
            } else {
                for (std::size_t j = 0; j < count; ++j) at[j] = centre[static_cast<std::int64_t>(j) - p] * H;
            }
            return;
        }
        for (std::size_t j = 0; j < count; ++j) {
            const std::int64_t d = position_at(positions, j) - p;
            at[j] = (d > -span_ && d < span_ ? table_[static_cast<std::size_t>(d + span_ - 1)] : compute(d)) * H;
        }
    }

private:
    std::size_t compute(std::int64_t d) const {
        return static_cast<std::size_t>(relative_bucket(d, c_.causal, buckets(c_), max_distance(c_)));
    }
    const Config& c_;
    std::int64_t span_;
    std::vector<std::size_t> table_;
};

// The distances looked up: those of 0 .. T - 1, or with positions given (rows, T) those of the widest row (each row
// increasing: |p_j - p_i| <= its last minus its first), at most 2 maxDistance + 2 and 4096 either way (T5's buckets
// end at maxDistance; past the table each bucket is computed).
std::int64_t bucket_span(const Config& c, std::size_t rows, std::size_t T, const std::int32_t* positions) {
    auto span = static_cast<std::int64_t>(T);
    if (!positions) return span;
    std::int64_t widest = 0;
    for (std::size_t r = 0; r < rows; ++r)
        widest = std::max<std::int64_t>(widest, std::int64_t{positions[r * T + T - 1]} - positions[r * T] + 1);
    return std::max(span, std::min({widest, 2 * max_distance(c) + 2, std::int64_t{4096}}));
}

}  // namespace

std::vector<double> alibi_slopes(std::int64_t heads) {
    std::vector<double> slopes;
    const auto h = static_cast<std::uint64_t>(heads);
    if (std::has_single_bit(h)) {
        geometric_slopes(slopes, heads);
        return slopes;
    }
    const auto power = static_cast<std::int64_t>(std::bit_floor(h));
    geometric_slopes(slopes, power);
    const std::vector<double> doubled = alibi_slopes(2 * power);
    for (std::size_t i = 0; static_cast<std::int64_t>(slopes.size()) < heads; i += 2) slopes.push_back(doubled[i]);
    return slopes;
}

std::int64_t relative_bucket(std::int64_t distance, bool causal, std::int64_t buckets, std::int64_t max_distance) {
    std::int64_t per = buckets, offset = 0, n = 0;
    if (causal) {
        n = std::max<std::int64_t>(-distance, 0);
    } else {
        per = buckets / 2;
        offset = distance > 0 ? per : 0;
        n = distance < 0 ? -distance : distance;
    }
    const std::int64_t exact = per / 2;
    if (n < exact) return offset + n;
    // float32 throughout, as T5 computes it: the quotient, its logarithm correctly rounded, the ratio's logarithm
    // rounded once, the product rounded, then truncated toward zero
    const float quotient = static_cast<float>(n) / static_cast<float>(exact);
    const auto scaled = static_cast<float>(std::log(static_cast<double>(quotient)));
    const auto ratio =
        static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(exact)));
    const float large = (scaled / ratio) * static_cast<float>(per - exact);
    return offset + std::min<std::int64_t>(exact + static_cast<std::int64_t>(std::trunc(large)), per - 1);
}

template <class F>
void score_bias(F* bias, const Config& c, const F* table, std::size_t rows, std::size_t T,
                const std::int32_t* positions) {
    // (Every loop here reads plain pointers: this file is compiled for size, where std::vector's operator[] or
    // position_at stays a call, which for each entry cost ~5% of a training step with positions given.)
    const auto H = static_cast<std::size_t>(c.heads);
    if (!positions) rows = 1;
    if (c.positions == Positions::alibi) {
        // each bias one float64 product of the slope and the distance (exact: positions are below 2^31); a hidden
        // key's distance is -0, its bias +0
        const std::vector<double> slopes = alibi_slopes(c.heads);
        for (std::size_t r = 0; r < rows; ++r) {
            const std::int32_t* row = positions ? positions + r * T : nullptr;
            for (std::size_t h = 0; h < H; ++h) {
                const double m = slopes.data()[h];
                for (std::size_t i = 0; i < T; ++i) {
                    const double p = row ? row[i] : static_cast<double>(i);
                    F* o = bias + ((r * H + h) * T + i) * T;
                    for (std::size_t j = 0; j < T; ++j) {
                        const double distance = p - (row ? row[j] : static_cast<double>(j));
                        o[j] = static_cast<F>(-(m * (!c.causal ? std::abs(distance) : j > i ? -0.0 : distance)));
                    }
                }
            }
        }
        return;
    }
    const Buckets bucket(c, bucket_span(c, rows, T, positions));
    std::vector<std::size_t> buckets_of_row(T);
    std::size_t* at = buckets_of_row.data();
    for (std::size_t r = 0; r < rows; ++r) {
        const std::int32_t* row = positions ? positions + r * T : nullptr;
        for (std::size_t i = 0; i < T; ++i) {
            bucket.row(at, row, i, T, T, H);
            for (std::size_t h = 0; h < H; ++h) {
                F* o = bias + ((r * H + h) * T + i) * T;
                for (std::size_t j = 0; j < T; ++j) o[j] = table[at[j] + h];
            }
        }
    }
}

template <class F>
void relative_bias_backward(F* dtable, const F* dscores, const Config& c, std::size_t B, std::size_t T,
                            const std::int32_t* positions) {
    // In order of b, i, h, j: each entry of dtable is one (bucket, h), so its sum still runs in order of b, i, j, as
    // in order of b, h, i, j; the buckets of row i (times H), found once for every head.
    const auto H = static_cast<std::size_t>(c.heads);
    const Buckets bucket(c, bucket_span(c, B, T, positions));
    std::vector<std::size_t> buckets_of_row(T);
    std::size_t* at = buckets_of_row.data();
    for (std::size_t b = 0; b < B; ++b) {
        const std::int32_t* row = positions ? positions + b * T : nullptr;
        for (std::size_t i = 0; i < T; ++i) {
            const std::size_t visible = c.causal ? i + 1 : T;
            bucket.row(at, row, i, visible, T, H);
            for (std::size_t h = 0; h < H; ++h) {
                const F* ds = dscores + ((b * H + h) * T + i) * T;
                for (std::size_t j = 0; j < visible; ++j) dtable[at[j] + h] += ds[j];
            }
        }
    }
}

// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, and (F)* would not parse
#define SEQORDER_INSTANTIATE(F)                                                                                       \
    template void score_bias<F>(F*, const Config&, const F*, std::size_t, std::size_t, const std::int32_t*);         \
    template void relative_bias_backward<F>(F*, const F*, const Config&, std::size_t, std::size_t,                   \
                                            const std::int32_t*);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace seqorder::model
