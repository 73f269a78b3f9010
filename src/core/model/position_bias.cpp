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

// The bucket of every distance j - i of a sentence of T: entry T - 1 + (j - i).
std::vector<std::size_t> buckets_of(const Config& c, std::size_t T) {
    std::vector<std::size_t> bucket(2 * T - 1);
    const auto last = static_cast<std::int64_t>(T) - 1;
    for (std::int64_t d = -last; d <= last; ++d)
        bucket[static_cast<std::size_t>(d + last)] =
            static_cast<std::size_t>(relative_bucket(d, c.causal, buckets(c), max_distance(c)));
    return bucket;
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
void score_bias(F* bias, const Config& c, const F* table, std::size_t T) {
    const auto H = static_cast<std::size_t>(c.heads);
    if (c.positions == Positions::alibi) {
        const std::vector<double> slopes = alibi_slopes(c.heads);
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t i = 0; i < T; ++i)
                for (std::size_t j = 0; j < T; ++j) {
                    const double distance = static_cast<double>(i) - static_cast<double>(j);
                    const double d = c.causal ? distance : std::abs(distance);
                    bias[(h * T + i) * T + j] = j > i && c.causal ? F{0} : static_cast<F>(-(slopes[h] * d));
                }
        return;
    }
    const std::vector<std::size_t> bucket = buckets_of(c, T);
    for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j)
            for (std::size_t h = 0; h < H; ++h) bias[(h * T + i) * T + j] = table[bucket[T - 1 + j - i] * H + h];
}

template <class F>
void relative_bias_backward(F* dtable, const F* dscores, const Config& c, std::size_t B, std::size_t T) {
    const auto H = static_cast<std::size_t>(c.heads);
    const std::vector<std::size_t> bucket = buckets_of(c, T);
    for (std::size_t n = 0; n < B * H; ++n) {
        const std::size_t h = n % H;
        const F* ds = dscores + n * T * T;
        for (std::size_t i = 0; i < T; ++i) {
            const std::size_t visible = c.causal ? i + 1 : T;
            for (std::size_t j = 0; j < visible; ++j) dtable[bucket[T - 1 + j - i] * H + h] += ds[i * T + j];
        }
    }
}

// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, and (F)* would not parse
#define SEQORDER_INSTANTIATE(F)                                                                                       \
    template void score_bias<F>(F*, const Config&, const F*, std::size_t);                                           \
    template void relative_bias_backward<F>(F*, const F*, const Config&, std::size_t, std::size_t);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace seqorder::model
