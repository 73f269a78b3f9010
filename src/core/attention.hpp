// Scaled dot-product attention, written as the lesson's four visible steps.
//
// q: (B, Tq, D), k: (B, Tk, D), v: (B, Tk, Dv)
//   1. scores  = q . k^T                  -> (B, Tq, Tk)
//   2. scaled  = scores / sqrt(D)          -> (B, Tq, Tk), masked entries set to -infinity
//   3. weights = softmax over the keys     -> (B, Tq, Tk), row maximum subtracted first; masked weights are exactly 0
//   4. output  = weights . v               -> (B, Tq, Dv)
//
// Causal mask with an explicit alignment: query i sits at position query_start + i and sees keys 0 .. query_start + i.
// The default query_start is Tk - Tq (the queries are the last Tq positions, as in cached decoding); the valid range is
// 0 <= query_start <= Tk - Tq, so with Tk >= 1 every query row sees at least key 0.
//
// A row with nothing to attend to exists only when Tk = 0: its weights row is empty and its output is all zeros
// (an empty weighted sum), never NaN.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>


namespace seqorder {

struct AttentionShape {
    std::int64_t batch = 1;    // B
    std::int64_t queries = 0;  // Tq
    std::int64_t keys = 0;     // Tk
    std::int64_t width = 0;    // D, the width of q and k
    std::int64_t value_width = 0;  // Dv, the width of v and of the output
};

struct CausalMask {
    bool causal = false;
    std::optional<std::int64_t> query_start;  // unset: Tk - Tq
};

// The rules of the causal mask for Tq queries and Tk keys (sizes >= 0), shared by attention and softmax: throws
// std::invalid_argument naming the rule broken (Tk >= Tq, query_start in 0..Tk - Tq, and only with causal). Returns the
// query_start in force (0 when not causal).
std::int64_t check_causal_mask(std::int64_t queries, std::int64_t keys, const CausalMask& mask);
// The rules of an attention call, checked by the call (calls.hpp) before a kernel runs: throws std::invalid_argument
// naming the rule broken (sizes non-negative, D >= 1, query_start in range, and only with causal). Returns the
// query_start in force (0 when not causal).
std::int64_t check_attention_args(const AttentionShape& shape, const CausalMask& mask);
// The kernels' preconditions: what check_attention_args has checked, for the query_start in force (asserted in debug
// builds).
inline void assert_attention_args([[maybe_unused]] const AttentionShape& s, [[maybe_unused]] bool causal,
                                  [[maybe_unused]] std::int64_t query_start) {
    assert(s.batch >= 0 && s.queries >= 0 && s.keys >= 0 && s.value_width >= 0 && s.width >= 1);
    assert(causal ? query_start >= 0 && query_start <= s.keys - s.queries : query_start == 0);
}

// Where the reference writes its steps. scores, scaled, weights: (B, Tq, Tk) each, or empty to skip keeping that step
// (the reference then uses its own row buffer). output: (B, Tq, Dv), always. Preconditions: check_attention_args holds
// for the shape and mask, and every span holds its shape's values.
template <class T>
struct AttentionStepsOut {
    std::span<T> scores, scaled, weights, output;
};

// What the scores are divided by: sqrt(D); with a temperature t (the model's YaRN, multiplying the scaled scores),
// sqrt(D) / t, one float64 division, rounded once to T (t = 1: sqrt(D) rounded once, as without one).
template <class T>
T score_divisor(std::size_t D, double temperature = 1.0) {
    return static_cast<T>(std::sqrt(static_cast<double>(D)) / temperature);
}

// The readable reference: every step in the order of the lesson, accumulating in T.
// bias, when not empty: (P, Tq, Tk) with P dividing B, added to the scaled scores of batch block b before the mask
// (scaled = scores / sqrt(D) + bias[b mod P]): the model's position schemes that act on the scores
// (model/position_bias.hpp), whose blocks b H + h share head h's bias. temperature: the scores divided by
// score_divisor(D, temperature) instead (the model's ropeScaling 'yarn').
template <class T>
void attention_reference(AttentionStepsOut<T> out, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                         const AttentionShape& shape, const CausalMask& mask = {}, std::span<const T> bias = {},
                         double temperature = 1.0);

}  // namespace seqorder
