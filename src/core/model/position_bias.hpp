// The position schemes that act on the attention scores instead of the token vectors (docs/model.md, "Position
// schemes"): a bias (H, T, T) added to every head's scaled scores, s_hij = (q_i . k_j) / sqrt(D / H) + bias[h, i, j],
// the same in every layer; for positions 0 .. T - 1 the same in every sequence of a batch, for positions given (B, T)
// one bias per sequence.
//
//   ALiBi (Press, Smith and Lewis 2022): bias[h, i, j] = -(m_h (i - j)) causal, -(m_h |i - j|) bidirectional; no
//     parameters. The slopes m_h are the authors' get_slopes.
//   T5's relative bias (Raffel et al. 2020): bias[h, i, j] = table[bucket(j - i), h], the learned table 'relativeBias'
//     (buckets, H) shared by every layer; bucket is T5's _relative_position_bucket with bidirectional = !causal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "config.hpp"

namespace seqorder::model {

// The slopes m_1 .. m_H (float64), bit for bit as the ALiBi authors' get_slopes: for H a power of two,
// start = 2^(-2^(-(log2 H - 3))) and m_h = start * start^(h-1); otherwise the slopes of the largest power of two P < H,
// then the 1st, 3rd, 5th, ... slopes of 2P until there are H.
std::vector<double> alibi_slopes(std::int64_t heads);

// T5's bucket of a key at distance d = p_j - p_i from its query, with `buckets` buckets and the last beginning at
// max_distance (computed in float32 as T5 computes it; docs/model.md gives the formula). The configuration's rules
// (check_config) hold.
std::int64_t relative_bucket(std::int64_t distance, bool causal, std::int64_t buckets, std::int64_t max_distance);

// Whether the configuration's positions add a bias to the scores (alibi, relative).
inline bool has_score_bias(const Config& c) {
    return c.positions == Positions::alibi || c.positions == Positions::relative;
}

// bias (rows, H, T, T) for the positions of `rows` sentences (positions: (rows, T), each row increasing; null: one
// bias (H, T, T) for 0 .. T - 1, whatever rows is): ALiBi's (each value one float64 product of the slope and the
// distance, rounded once to F), or the relative table's entries (table: (buckets, H), the relativeBias parameter). The
// entries of hidden keys (causal, j > i) are written too (0 for ALiBi; the table's entry for relative) and never read.
template <class F>
void score_bias(F* bias, const Config& config, const F* table, std::size_t rows, std::size_t T,
                const std::int32_t* positions);

// The relative table's gradient: dtable (buckets, H) += dscores[b, h, i, j] at [bucket(p_j - p_i), h] for every b, h,
// i and j but hidden keys (causal, j > i), each entry's sum in order of b, i, j; positions (B, T) as given, or null:
// 0 .. T - 1. dscores (B, H, T, T): the gradient with respect to the scaled scores (attention_backward's dbias).
template <class F>
void relative_bias_backward(F* dtable, const F* dscores, const Config& config, std::size_t B, std::size_t T,
                            const std::int32_t* positions);

}  // namespace seqorder::model
