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

#include <cstdint>
#include <optional>
#include <span>

#include "tensor.hpp"

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

// Throws std::invalid_argument naming the rule broken (sizes non-negative, D >= 1, query_start in range).
// Returns the query_start in force (0 when not causal).
std::int64_t check_attention_args(const AttentionShape& shape, const CausalMask& mask);

// Where the reference writes its steps. scores, scaled, weights: (B, Tq, Tk) each, or empty to skip keeping that step
// (the reference then uses its own row buffer). output: (B, Tq, Dv), always.
template <class T>
struct AttentionStepsOut {
    std::span<T> scores, scaled, weights, output;
};

// The readable reference: every step in the order of the lesson, accumulating in T.
template <class T>
void attention_reference(AttentionStepsOut<T> out, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                         const AttentionShape& shape, const CausalMask& mask = {});

template <class T>
struct AttentionSteps {
    Tensor<T> scores, scaled, weights, output;
};

// q (Tq, D) or (B, Tq, D); k (Tk, D) / (B, Tk, D); v (Tk, Dv) / (B, Tk, Dv), all of one rank.
// Returns every step, shaped (.., Tq, Tk) and (.., Tq, Dv) with the rank of q.
template <class T>
AttentionSteps<T> attention_steps(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v, const CausalMask& mask = {});

// Same, output only.
template <class T>
Tensor<T> attention(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v, const CausalMask& mask = {});

// Checks that q, k, v have compatible shapes and returns them as an AttentionShape.
template <class T>
AttentionShape attention_shape(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v);

}  // namespace seqorder
