#include "attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace seqorder {

std::int64_t check_causal_mask(std::int64_t queries, std::int64_t keys, const CausalMask& mask) {
    const std::int64_t default_start = keys - queries;
    if (!mask.causal) {
        if (mask.query_start)
            throw std::invalid_argument("queryStart applies only with causal: true (it places the queries among the keys for the mask)");
        return 0;
    }
    if (default_start < 0)
        throw std::invalid_argument("causal attention needs at least as many keys as queries (Tk >= Tq), got Tq = " +
                                    std::to_string(queries) + " and Tk = " + std::to_string(keys));
    const std::int64_t query_start = mask.query_start.value_or(default_start);
    if (query_start < 0 || query_start > default_start)
        throw std::invalid_argument("queryStart must be in 0..Tk - Tq = 0.." + std::to_string(default_start) +
                                    " (query i sits at position queryStart + i and sees keys 0..queryStart + i), got " +
                                    std::to_string(query_start));
    return query_start;
}

std::int64_t check_attention_args(const AttentionShape& s, const CausalMask& mask) {
    if (s.batch < 0 || s.queries < 0 || s.keys < 0 || s.value_width < 0)
        throw std::invalid_argument("attention sizes must be non-negative");
    if (s.width < 1) throw std::invalid_argument("q and k must have a width D of at least 1 (scores are divided by sqrt(D))");
    return check_causal_mask(s.queries, s.keys, mask);
}

template <class T>
void attention_reference(AttentionStepsOut<T> out, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                         const AttentionShape& s, const CausalMask& mask, std::span<const T> bias,
                         double temperature) {
    const std::int64_t query_start = mask.causal ? mask.query_start.value_or(s.keys - s.queries) : 0;
    assert_attention_args(s, mask.causal, query_start);
    const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
               Tk = static_cast<std::size_t>(s.keys), D = static_cast<std::size_t>(s.width),
               Dv = static_cast<std::size_t>(s.value_width);
    if (B == 0 || Tq == 0) return;  // no query rows: nothing to write, no row buffers of Tk
    const T sqrt_d = score_divisor<T>(D, temperature);
    const T minus_inf = -std::numeric_limits<T>::infinity();
    std::vector<T> scores_row(Tk), scaled_row(Tk), weights_row(Tk);
    const std::size_t bias_blocks = Tk == 0 ? 0 : bias.size() / (Tq * Tk);  // 0: no bias

    for (std::size_t b = 0; b < B; ++b) {
        const T* qb = q.data() + b * Tq * D;
        const T* kb = k.data() + b * Tk * D;
        const T* vb = v.data() + b * Tk * Dv;
        for (std::size_t i = 0; i < Tq; ++i) {
            const std::size_t row = (b * Tq + i) * Tk;
            T* scores = out.scores.empty() ? scores_row.data() : out.scores.data() + row;
            T* scaled = out.scaled.empty() ? scaled_row.data() : out.scaled.data() + row;
            T* weights = out.weights.empty() ? weights_row.data() : out.weights.data() + row;
            // Keys 0 .. last_key are visible to this query.
            const std::size_t visible = mask.causal ? static_cast<std::size_t>(query_start) + i + 1 : Tk;

            // 1. compatibility scores: one dot product per key
            for (std::size_t j = 0; j < Tk; ++j) {
                T dot = 0;
                for (std::size_t d = 0; d < D; ++d) dot += qb[i * D + d] * kb[j * D + d];
                scores[j] = dot;
            }
            // 2. scaling, then the mask: a hidden key gets -infinity
            for (std::size_t j = 0; j < Tk; ++j) scaled[j] = j < visible ? scores[j] / sqrt_d : minus_inf;
            if (bias_blocks > 0) {
                const T* add = bias.data() + ((b % bias_blocks) * Tq + i) * Tk;
                for (std::size_t j = 0; j < visible; ++j) scaled[j] = scaled[j] + add[j];
            }
            // 3. normalized weights: softmax with the row maximum subtracted, so exp never overflows
            T max = minus_inf;
            for (std::size_t j = 0; j < visible; ++j) max = scaled[j] > max ? scaled[j] : max;
            T sum = 0;
            for (std::size_t j = 0; j < Tk; ++j) {
                weights[j] = j < visible ? std::exp(scaled[j] - max) : T{0};
                sum += weights[j];
            }
            for (std::size_t j = 0; j < visible; ++j) weights[j] /= sum;
            // 4. weighted sum of the values (an empty sum, zeros, when Tk = 0)
            T* o = out.output.data() + (b * Tq + i) * Dv;
            for (std::size_t e = 0; e < Dv; ++e) o[e] = 0;
            for (std::size_t j = 0; j < visible; ++j)
                for (std::size_t e = 0; e < Dv; ++e) o[e] += weights[j] * vb[j * Dv + e];
        }
    }
}

#define SEQORDER_INSTANTIATE(T)                                                                                        \
    template void attention_reference<T>(AttentionStepsOut<T>, std::span<const T>, std::span<const T>,                  \
                                         std::span<const T>, const AttentionShape&, const CausalMask&,                 \
                                         std::span<const T>, double);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
