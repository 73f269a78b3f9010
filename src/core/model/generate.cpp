#include "generate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "attention.hpp"
#include "position_bias.hpp"
#include "positions.hpp"
#include "sizes.hpp"
#include "steps.hpp"
#include "tensor.hpp"

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
    for (std::vector<F>* row : {&x_, &ln_, &q_, &k_, &v_, &heads_, &mid_}) row->resize(D_);
    hidden_.resize(4 * D_);
    stat_.resize(2);
    if (has_score_bias(c_)) bias_.resize(capacity_);
    if (pairs_ > 0) rotated_.resize(2 * H_ * capacity_ * hd_);
    logits_.resize(static_cast<std::size_t>(c_.classes));
    if (c_.positions == Positions::alibi) slopes_ = alibi_slopes(c_.heads);
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
                const F* from = (b < H ? q_.data() + b * hd : k_.data() + (b - H) * hd);
                std::copy(from, from + hd, block + t * hd);
            }
            rotary_forward<F>(rotated_.data(), 2 * H, keys, hd, pairs_, rotary_base(c_));
            for (std::size_t b = 0; b < 2 * H; ++b) {
                const F* rotated = rotated_.data() + (b * keys + t) * hd;
                std::copy(rotated, rotated + hd, b < H ? q_.data() + b * hd : k_.data() + (b - H) * hd);
            }
        }
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t head = (l * H + h) * capacity_ * hd;
            std::copy(k_.data() + h * hd, k_.data() + (h + 1) * hd, keys_.data() + head + t * hd);
            std::copy(v_.data() + h * hd, v_.data() + (h + 1) * hd, values_.data() + head + t * hd);
            if (c_.positions == Positions::alibi)
                for (std::size_t j = 0; j < keys; ++j)  // score_bias's row t
                    bias_.data()[j] = static_cast<F>(-(slopes_[h] * (static_cast<double>(t) - static_cast<double>(j))));
            if (c_.positions == Positions::relative)
                for (std::size_t j = 0; j < keys; ++j)
                    bias_.data()[j] = p_.relative_bias[static_cast<std::size_t>(relative_bucket(
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

std::int64_t decoder_bytes(const Config& c, std::int64_t capacity, std::size_t element_bytes) {
    const std::int64_t D = c.width, cache = saturating_product({2, c.layers, D, capacity});
    std::int64_t n = saturating_add(cache, saturating_add(saturating_mul(capacity, D), saturating_mul(12, D)));
    if (c.positions == Positions::rotary) n = saturating_add(n, saturating_product({2, D, capacity}));
    n = saturating_add(n, saturating_add(capacity, saturating_mul(8, c.classes)));
    return saturating_mul(n, static_cast<std::int64_t>(element_bytes));
}

void check_generate(const Config& c, std::span<const std::int32_t> prefix, std::int64_t steps, const Sampling& s,
                    std::size_t element_bytes) {
    const auto text = [](std::int64_t n) { return std::to_string(n); };
    if (!c.causal || c.readout != Readout::each || c.classes != c.vocab)
        throw std::invalid_argument("generate needs a next-token model: causal: true, readout: 'each' and classes = vocab");
    if (prefix.empty()) throw std::invalid_argument("prefix must hold at least one id");
    if (steps < 0) throw std::invalid_argument("steps must be an integer >= 0");
    if (!(std::isfinite(s.temperature) && s.temperature >= 0))
        throw std::invalid_argument("temperature must be a finite number >= 0 (0: greedy)");
    if (s.top_k && (*s.top_k < 1 || *s.top_k > c.classes))
        throw std::invalid_argument("topK must be an integer in 1 .. classes = 1 .. " + text(c.classes));
    const std::int64_t total = saturating_add(static_cast<std::int64_t>(prefix.size()), steps);
    if ((c.positions == Positions::learned && total > *c.max_length) ||
        decoder_bytes(c, total, element_bytes) > static_cast<std::int64_t>(kMaxTensorBytes))
        throw std::out_of_range("the prefix and steps make " + text(total) +
                                " positions: past the learned table's maxLength rows, or the tensor limit");
    for (std::size_t n = 0; n < prefix.size(); ++n)
        if (prefix[n] < 0 || prefix[n] >= c.vocab)
            throw std::out_of_range("prefix[" + text(static_cast<std::int64_t>(n)) + "] = " + text(prefix[n]) +
                                    " is outside 0 .. vocab - 1 = 0 .. " + text(c.vocab - 1));
}

std::int32_t sample_next(std::span<const double> logits, const Sampling& s, SplitMix64& random) {
    const std::size_t C = logits.size();
    if (s.temperature == 0)  // the first largest: the lowest id among equal ones
        return static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    // the k largest: those above the k-th largest value, then those equal to it, in order of id, until there are k
    const std::size_t k = s.top_k ? static_cast<std::size_t>(*s.top_k) : C;
    // the k-th largest value: the largest x among the logits with at least k of them >= x, by bisection over the
    // doubles in order (their bits as ordered integers: no sort)
    const auto key = [](double z) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &z, sizeof bits);
        return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
    };
    std::uint64_t lo = 0, hi = ~std::uint64_t{0};  // count(>= lo) >= k; count(>= hi + 1) < k
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2 + 1;
        std::size_t at_least = 0;
        for (double z : logits) at_least += key(z) >= mid ? 1 : 0;
        if (at_least >= k) lo = mid;
        else hi = mid - 1;
    }
    double kth = 0, top = logits[0];
    for (double z : logits) {
        if (key(z) == lo) kth = z;
        top = std::max(top, z);
    }
    std::size_t above = 0;
    for (double z : logits) above += z > kth ? 1 : 0;
    std::size_t ties = k - above;
    std::vector<double> weights(C, 0.0);  // 0: not kept
    double total = 0;
    for (std::size_t i = 0; i < C; ++i) {
        const bool kept = logits[i] > kth || (logits[i] == kth && ties > 0 && ties-- > 0);
        if (kept) total += weights[i] = std::exp((logits[i] - top) / s.temperature);
    }
    const double target = random.uniform() * total;
    double running = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < C; ++i) {
        if (weights[i] == 0) continue;
        running += weights[i];
        if (running > target) return static_cast<std::int32_t>(i);
        last = i;
    }
    return static_cast<std::int32_t>(last);
}

template class Decoder<double>;
template class Decoder<float>;

}  // namespace seqorder::model
