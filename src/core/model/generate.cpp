#include "generate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "attention.hpp"
#include "position_bias.hpp"
#include "positions.hpp"
#include "sizes.hpp"
#include "steps.hpp"

namespace seqorder::model {

template <class F>
Decoder<F>::Decoder(const Config& config, const ParameterView<const F>& p, std::size_t capacity)
    : c_(config), p_(p), capacity_(capacity), D_(static_cast<std::size_t>(config.width)),
      H_(static_cast<std::size_t>(config.heads)), hd_(D_ / H_),
      pairs_(config.positions == Positions::rotary ? static_cast<std::size_t>(rotary_pairs(config)) : 0) {
    const auto L = static_cast<std::size_t>(c_.layers);
    keys_.resize(L * H_ * capacity_ * hd_);
    values_.resize(keys_.size());
    if (c_.positions == Positions::sinusoidal) {
        table_.resize(capacity_ * D_);
        positions_fast<F>(table_, static_cast<std::int64_t>(capacity_), c_.width);  // as network.hpp's prepare
    }
    for (std::vector<F>* row : {&x_, &ln_, &q_, &k_, &v_, &att_, &heads_, &mid_}) row->resize(D_);
    hidden_.resize(4 * D_);
    stat_.resize(2);
    if (has_score_bias(c_)) bias_.resize(capacity_);
    if (pairs_ > 0) rotated_.resize(2 * H_ * capacity_ * hd_);
    logits_.resize(static_cast<std::size_t>(c_.classes));
    if (c_.positions == Positions::alibi) slopes_ = alibi_slopes(c_.heads);
}

template <class F>
std::int64_t Decoder<F>::bytes(const Config& c, std::int64_t capacity) {
    const std::int64_t D = c.width, cache = saturating_product({2, c.layers, D, capacity});
    std::int64_t n = saturating_add(cache, saturating_add(saturating_mul(capacity, D), saturating_mul(12, D)));
    if (c.positions == Positions::rotary) n = saturating_add(n, saturating_product({2, D, capacity}));
    n = saturating_add(n, saturating_add(capacity, saturating_mul(8, c.classes)));
    return saturating_mul(n, static_cast<std::int64_t>(sizeof(F)));
}

template <class F>
void Decoder<F>::push(std::int32_t id) {
    const std::size_t t = length_, D = D_, H = H_, hd = hd_, keys = t + 1;
    const F* row = c_.positions == Positions::sinusoidal ? table_.data() + t * D
                   : c_.positions == Positions::learned  ? p_.positions + t * D
                                                         : nullptr;
    input_forward<F>(x_.data(), &id, p_.embed, row, static_cast<F>(embed_factor(c_)), 1, 1, D);
    for (std::size_t l = 0; l < static_cast<std::size_t>(c_.layers); ++l) {
        const LayerView<const F>& w = p_.layers[l];
        layernorm_forward<F>(ln_.data(), &stat_[0], &stat_[1], x_.data(), w.norm1_gain, w.norm1_bias, 1, D);
        matmul_forward<F>(q_.data(), ln_.data(), w.wq, nullptr, 1, D, D);  // one row: its heads side by side, (H, hd)
        matmul_forward<F>(k_.data(), ln_.data(), w.wk, nullptr, 1, D, D);
        matmul_forward<F>(v_.data(), ln_.data(), w.wv, nullptr, 1, D, D);
        if (pairs_ > 0) {
            // row t of 2H blocks of t + 1 rows (the q heads, then the k heads) rotated as the full forward rotates
            // its rows from position 0: the rows before t are zeros, read by nothing
            for (std::size_t b = 0; b < 2 * H; ++b) {
                F* block = rotated_.data() + b * keys * hd;
                std::fill(block, block + t * hd, F{0});
                const F* from = (b < H ? q_.data() : k_.data()) + (b % H) * hd;
                std::copy(from, from + hd, block + t * hd);
            }
            rotary_forward<F>(rotated_.data(), 2 * H, keys, hd, pairs_, rotary_base(c_));
            for (std::size_t b = 0; b < 2 * H; ++b) {
                const F* rotated = rotated_.data() + (b * keys + t) * hd;
                std::copy(rotated, rotated + hd, (b < H ? q_.data() : k_.data()) + (b % H) * hd);
            }
        }
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t head = (l * H + h) * capacity_ * hd;
            std::copy(k_.data() + h * hd, k_.data() + (h + 1) * hd, keys_.data() + head + t * hd);
            std::copy(v_.data() + h * hd, v_.data() + (h + 1) * hd, values_.data() + head + t * hd);
            if (c_.positions == Positions::alibi)
                for (std::size_t j = 0; j < keys; ++j)  // score_bias's row t
                    bias_[j] = static_cast<F>(-(slopes_[h] * (static_cast<double>(t) - static_cast<double>(j))));
            if (c_.positions == Positions::relative)
                for (std::size_t j = 0; j < keys; ++j)
                    bias_[j] = p_.relative_bias[static_cast<std::size_t>(relative_bucket(
                                                    static_cast<std::int64_t>(j) - static_cast<std::int64_t>(t), true,
                                                    buckets(c_), max_distance(c_))) * H + h];
            // the one query, at queryStart t, over the keys 0 .. t
            const auto width = static_cast<std::int64_t>(hd);
            const AttentionShape shape{1, 1, static_cast<std::int64_t>(keys), width, width};
            attention_reference<F>({{}, {}, {}, std::span<F>(heads_.data() + h * hd, hd)},
                                   std::span<const F>(q_.data() + h * hd, hd),
                                   std::span<const F>(keys_.data() + head, keys * hd),
                                   std::span<const F>(values_.data() + head, keys * hd), shape,
                                   CausalMask{true, static_cast<std::int64_t>(t)},
                                   has_score_bias(c_) ? std::span<const F>(bias_.data(), keys) : std::span<const F>());
        }
        matmul_forward<F>(mid_.data(), heads_.data(), w.wo, nullptr, 1, D, D);
        add<F>(mid_.data(), x_.data(), mid_.data(), D);  // mid = x + att Wo
        layernorm_forward<F>(ln_.data(), &stat_[0], &stat_[1], mid_.data(), w.norm2_gain, w.norm2_bias, 1, D);
        matmul_forward<F>(hidden_.data(), ln_.data(), w.w1, w.b1, 1, D, 4 * D);
        relu_forward<F>(hidden_.data(), hidden_.data(), 4 * D);
        matmul_forward<F>(x_.data(), hidden_.data(), w.w2, w.b2, 1, 4 * D, D);
        add<F>(x_.data(), mid_.data(), x_.data(), D);  // out = mid + MLP
    }
    layernorm_forward<F>(ln_.data(), &stat_[0], &stat_[1], x_.data(), p_.norm_gain, p_.norm_bias, 1, D);
    matmul_forward<F>(logits_.data(), ln_.data(), p_.readout_weight, p_.readout_bias, 1, D,
                      static_cast<std::size_t>(c_.classes));
    length_ = keys;
}

std::int32_t sample_next(std::span<const double> logits, const Sampling& s, SplitMix64& random) {
    const std::size_t C = logits.size();
    std::vector<std::size_t> order(C);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // the largest first, the lower id first among equal ones (a total order: the ranking is unique)
    const auto before = [&](std::size_t a, std::size_t b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
    if (s.temperature == 0) return static_cast<std::int32_t>(*std::min_element(order.begin(), order.end(), before));
    std::vector<bool> kept(C, true);
    if (s.top_k && static_cast<std::size_t>(*s.top_k) < C) {
        std::sort(order.begin(), order.end(), before);
        for (std::size_t r = static_cast<std::size_t>(*s.top_k); r < C; ++r) kept[order[r]] = false;
    }
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < C; ++i)
        if (kept[i]) top = std::max(top, logits[i]);
    std::vector<double> weights(C, 0.0);
    double total = 0;
    for (std::size_t i = 0; i < C; ++i)
        if (kept[i]) total += weights[i] = std::exp((logits[i] - top) / s.temperature);
    const double target = random.uniform() * total;
    double running = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < C; ++i) {
        if (!kept[i]) continue;
        running += weights[i];
        if (running > target) return static_cast<std::int32_t>(i);
        last = i;
    }
    return static_cast<std::int32_t>(last);
}

template class Decoder<double>;
template class Decoder<float>;

}  // namespace seqorder::model
