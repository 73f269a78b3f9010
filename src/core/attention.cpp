#include "attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace seqorder {

std::int64_t check_attention_args(const AttentionShape& s, const CausalMask& mask) {
    if (s.batch < 0 || s.queries < 0 || s.keys < 0 || s.value_width < 0)
        throw std::invalid_argument("attention sizes must be non-negative");
    if (s.width < 1) throw std::invalid_argument("q and k must have a width D of at least 1 (scores are divided by sqrt(D))");
    const std::int64_t default_start = s.keys - s.queries;
    if (!mask.causal) {
        if (mask.query_start)
            throw std::invalid_argument("queryStart applies only with causal: true (it places the queries among the keys for the mask)");
        return 0;
    }
    if (default_start < 0)
        throw std::invalid_argument("causal attention needs at least as many keys as queries (Tk >= Tq), got Tq = " +
                                    std::to_string(s.queries) + " and Tk = " + std::to_string(s.keys));
    const std::int64_t query_start = mask.query_start.value_or(default_start);
    if (query_start < 0 || query_start > default_start)
        throw std::invalid_argument("queryStart must be in 0..Tk - Tq = 0.." + std::to_string(default_start) +
                                    " (query i sits at position queryStart + i and sees keys 0..queryStart + i), got " +
                                    std::to_string(query_start));
    return query_start;
}

template <class T>
void attention_reference(AttentionStepsOut<T> out, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                         const AttentionShape& s, const CausalMask& mask) {
    const std::int64_t query_start = check_attention_args(s, mask);
    const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
               Tk = static_cast<std::size_t>(s.keys), D = static_cast<std::size_t>(s.width),
               Dv = static_cast<std::size_t>(s.value_width);
    if (B == 0 || Tq == 0) return;  // no query rows: nothing to write, no row buffers of Tk (fuzz finding)
    const T sqrt_d = static_cast<T>(std::sqrt(static_cast<double>(D)));
    const T minus_inf = -std::numeric_limits<T>::infinity();
    std::vector<T> scores_row(Tk), scaled_row(Tk), weights_row(Tk);

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

template <class T>
AttentionShape attention_shape(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v) {
    const std::size_t rank = q.rank();
    if (rank != 2 && rank != 3) throw std::invalid_argument("q must have shape (Tq, D) or (B, Tq, D), got " + shape_to_string(q.shape()));
    if (k.rank() != rank || v.rank() != rank)
        throw std::invalid_argument("q, k and v must have the same rank, got q " + shape_to_string(q.shape()) + ", k " +
                                    shape_to_string(k.shape()) + ", v " + shape_to_string(v.shape()));
    const std::size_t o = rank - 2;  // offset of the (T, D) axes
    if (rank == 3 && (k.dim(0) != q.dim(0) || v.dim(0) != q.dim(0)))
        throw std::invalid_argument("q, k and v must have the same batch size B, got " + std::to_string(q.dim(0)) + ", " +
                                    std::to_string(k.dim(0)) + " and " + std::to_string(v.dim(0)));
    if (k.dim(o + 1) != q.dim(o + 1))
        throw std::invalid_argument("q and k must have the same width D, got " + std::to_string(q.dim(o + 1)) + " and " +
                                    std::to_string(k.dim(o + 1)));
    if (v.dim(o) != k.dim(o))
        throw std::invalid_argument("k and v must have the same length Tk, got " + std::to_string(k.dim(o)) + " and " +
                                    std::to_string(v.dim(o)));
    return {rank == 3 ? static_cast<std::int64_t>(q.dim(0)) : 1, static_cast<std::int64_t>(q.dim(o)),
            static_cast<std::int64_t>(k.dim(o)), static_cast<std::int64_t>(q.dim(o + 1)),
            static_cast<std::int64_t>(v.dim(o + 1))};
}

namespace {
template <class T>
Shape with_last_two(const Tensor<T>& q, std::size_t rows, std::size_t cols) {
    Shape shape = q.shape();
    shape[shape.size() - 2] = rows;
    shape[shape.size() - 1] = cols;
    return shape;
}
}  // namespace

template <class T>
AttentionSteps<T> attention_steps(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v, const CausalMask& mask) {
    const AttentionShape s = attention_shape(q, k, v);
    check_attention_args(s, mask);
    const auto Tq = static_cast<std::size_t>(s.queries), Tk = static_cast<std::size_t>(s.keys);
    AttentionSteps<T> r{Tensor<T>(with_last_two(q, Tq, Tk), "scores"), Tensor<T>(with_last_two(q, Tq, Tk), "scaled"),
                        Tensor<T>(with_last_two(q, Tq, Tk), "weights"),
                        Tensor<T>(with_last_two(q, Tq, static_cast<std::size_t>(s.value_width)), "output")};
    attention_reference<T>({r.scores.data(), r.scaled.data(), r.weights.data(), r.output.data()}, q.data(), k.data(),
                           v.data(), s, mask);
    return r;
}

template <class T>
Tensor<T> attention(const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v, const CausalMask& mask) {
    const AttentionShape s = attention_shape(q, k, v);
    check_attention_args(s, mask);
    Tensor<T> output(with_last_two(q, static_cast<std::size_t>(s.queries), static_cast<std::size_t>(s.value_width)), "output");
    attention_reference<T>({{}, {}, {}, output.data()}, q.data(), k.data(), v.data(), s, mask);
    return output;
}

#define SEQORDER_INSTANTIATE(T)                                                                                        \
    template void attention_reference<T>(AttentionStepsOut<T>, std::span<const T>, std::span<const T>,                  \
                                         std::span<const T>, const AttentionShape&, const CausalMask&);                \
    template AttentionShape attention_shape<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&);                   \
    template AttentionSteps<T> attention_steps<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, const CausalMask&); \
    template Tensor<T> attention<T>(const Tensor<T>&, const Tensor<T>&, const Tensor<T>&, const CausalMask&);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE

}  // namespace seqorder
