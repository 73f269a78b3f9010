#include "steps.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "rope.hpp"

namespace seqorder::model {

template <class F>
void input_forward(F* out, const std::int32_t* ids, const F* embed, const F* table, F scale, std::size_t B,
                   std::size_t T, std::size_t D, bool per_token, const std::int32_t* positions) {
    // out: (B, T, D), embed: (V, D), table: (T, D), (B, T, D) when per_token, rows by position, or null
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t t = 0; t < T; ++t) {
            F* o = out + (b * T + t) * D;
            const F* e = embed + static_cast<std::size_t>(ids[b * T + t]) * D;
            const std::size_t at = positions ? static_cast<std::size_t>(positions[b * T + t]) : (per_token ? b * T : 0) + t;
            const F* row = table ? table + at * D : nullptr;
            // (the cases apart, each loop plain enough for the compiler to vectorize at -O2)
            if (scale == F{1} && row)
                for (std::size_t d = 0; d < D; ++d) o[d] = e[d] + row[d];
            else if (row)
                for (std::size_t d = 0; d < D; ++d) o[d] = scale * e[d] + row[d];
            else
                for (std::size_t d = 0; d < D; ++d) o[d] = scale == F{1} ? e[d] : scale * e[d];
        }
    }
}

template <class F>
void input_backward(F* dembed, F* dtable, const F* dout, const std::int32_t* ids, F scale, std::size_t B,
                    std::size_t T, std::size_t D, std::size_t V) {
    // dembed: (V, D), dtable: (T, D) or null, dout: (B, T, D)
    std::fill(dembed, dembed + V * D, F{0});
    for (std::size_t n = 0; n < B * T; ++n) {
        F* de = dembed + static_cast<std::size_t>(ids[n]) * D;
        for (std::size_t d = 0; d < D; ++d) de[d] += scale == F{1} ? dout[n * D + d] : scale * dout[n * D + d];
    }
    if (!dtable) return;
    std::fill(dtable, dtable + T * D, F{0});
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t t = 0; t < T; ++t)
            for (std::size_t d = 0; d < D; ++d) dtable[t * D + d] += dout[(b * T + t) * D + d];
}

template <class F>
void layernorm_forward(F* out, F* mean, F* rstd, const F* inp, const F* gain, const F* bias, std::size_t N,
                       std::size_t D) {
    // out, inp: (N, D); mean, rstd: (N); gain, bias: (D)
    const F eps = static_cast<F>(kLayerNormEps);
    const auto width = static_cast<F>(D);
    for (std::size_t n = 0; n < N; ++n) {
        const F* x = inp + n * D;
        F m = 0;
        for (std::size_t d = 0; d < D; ++d) m += x[d];
        m = m / width;
        F v = 0;
        for (std::size_t d = 0; d < D; ++d) {
            const F shifted = x[d] - m;
            v += shifted * shifted;
        }
        v = v / width;
        const F s = F{1} / std::sqrt(v + eps);
        F* o = out + n * D;
        for (std::size_t d = 0; d < D; ++d) o[d] = (x[d] - m) * s * gain[d] + bias[d];
        mean[n] = m;
        rstd[n] = s;
    }
}

template <class F>
void layernorm_backward(F* dinp, F* dgain, F* dbias, const F* dout, const F* inp, const F* gain, const F* mean,
                        const F* rstd, std::size_t N, std::size_t D) {
    // dinp, dout, inp: (N, D); dgain, dbias, gain: (D); mean, rstd: (N)
    std::fill(dgain, dgain + D, F{0});
    std::fill(dbias, dbias + D, F{0});
    const auto width = static_cast<F>(D);
    for (std::size_t n = 0; n < N; ++n) {
        const F* x = inp + n * D;
        const F* g = dout + n * D;
        const F m = mean[n], s = rstd[n];
        // the means of dnorm and of dnorm * norm over the row, where norm = (x - m) s and dnorm = gain * dout
        F dnorm_mean = 0, dnorm_norm_mean = 0;
        for (std::size_t d = 0; d < D; ++d) {
            const F norm = (x[d] - m) * s;
            const F dnorm = gain[d] * g[d];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean = dnorm_mean / width;
        dnorm_norm_mean = dnorm_norm_mean / width;
        F* dx = dinp + n * D;
        for (std::size_t d = 0; d < D; ++d) {
            const F norm = (x[d] - m) * s;
            const F dnorm = gain[d] * g[d];
            dbias[d] += g[d];
            dgain[d] += norm * g[d];
            dx[d] = (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
        }
    }
}

template <class F>
void matmul_forward(F* out, const F* inp, const F* weight, const F* bias, std::size_t N, std::size_t C,
                    std::size_t OC) {
    // out: (N, OC), inp: (N, C), weight: (C, OC), bias: (OC) or null
    for (std::size_t n = 0; n < N; ++n) {
        for (std::size_t o = 0; o < OC; ++o) {
            F sum = bias ? bias[o] : F{0};
            for (std::size_t c = 0; c < C; ++c) sum += inp[n * C + c] * weight[c * OC + o];
            out[n * OC + o] = sum;
        }
    }
}

template <class F>
void matmul_backward(F* dinp, F* dweight, F* dbias, const F* dout, const F* inp, const F* weight, std::size_t N,
                     std::size_t C, std::size_t OC) {
    // dinp: (N, C) or null, dweight: (C, OC), dbias: (OC) or null, dout: (N, OC), inp: (N, C), weight: (C, OC)
    if (dinp) {
        for (std::size_t n = 0; n < N; ++n) {
            for (std::size_t c = 0; c < C; ++c) {
                F sum = 0;
                for (std::size_t o = 0; o < OC; ++o) sum += dout[n * OC + o] * weight[c * OC + o];
                dinp[n * C + c] = sum;
            }
        }
    }
    for (std::size_t c = 0; c < C; ++c) {
        for (std::size_t o = 0; o < OC; ++o) {
            F sum = 0;
            for (std::size_t n = 0; n < N; ++n) sum += inp[n * C + c] * dout[n * OC + o];
            dweight[c * OC + o] = sum;
        }
    }
    if (dbias) {
        for (std::size_t o = 0; o < OC; ++o) {
            F sum = 0;
            for (std::size_t n = 0; n < N; ++n) sum += dout[n * OC + o];
            dbias[o] = sum;
        }
    }
}

template <class F>
void split_heads(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd) {
    // out: (B, H, T, hd), inp: (B, T, H * hd)
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t t = 0; t < T; ++t)
                std::copy_n(inp + (b * T + t) * H * hd + h * hd, hd, out + ((b * H + h) * T + t) * hd);
}

template <class F>
void merge_heads(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd) {
    // out: (B, T, H * hd), inp: (B, H, T, hd)
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t t = 0; t < T; ++t)
                std::copy_n(inp + ((b * H + h) * T + t) * hd, hd, out + (b * T + t) * H * hd + h * hd);
}

template <class F>
void rotary_forward(F* x, std::size_t BH, std::size_t T, std::size_t hd, std::size_t pairs, double base) {
    // x: (BH, T, hd), every block from position 0
    const auto blocks = static_cast<std::int64_t>(BH), length = static_cast<std::int64_t>(T);
    const std::size_t d = 2 * pairs;
    if (d == hd) {
        const std::span<F> all(x, BH * T * hd);
        rope_into<F>(all, all, blocks, length, static_cast<std::int64_t>(hd), 0, base);
        return;
    }
    // the first d coordinates of every row, rotated as rows of width d, then put back
    std::vector<F> rotated(BH * T * d);
    for (std::size_t r = 0; r < BH * T; ++r) std::copy(x + r * hd, x + r * hd + d, rotated.data() + r * d);
    rope_into<F>(rotated, rotated, blocks, length, static_cast<std::int64_t>(d), 0, base);
    for (std::size_t r = 0; r < BH * T; ++r)
        std::copy(rotated.data() + r * d, rotated.data() + (r + 1) * d, x + r * hd);
}

template <class F>
void rotary_backward(F* dx, std::size_t BH, std::size_t T, std::size_t hd, std::size_t pairs, double base) {
    // dx: (BH, T, hd). The backward of a rotation R is its transpose, the rotation by the opposite angle, and
    // R^T = S R S where S swaps the two coordinates of every pair (a reflection): (a, b) -> S -> (b, a) -> R ->
    // (b c - a s, b s + a c) -> S -> (a c + b s, -a s + b c) = R^T (a, b). rope_into computes R exactly as the
    // forward pass did, so the backward uses the very same sines and cosines. (The pairs passed through are swapped
    // twice: unchanged.)
    const std::size_t n = BH * T * hd;
    for (std::size_t i = 0; i < n; i += 2) std::swap(dx[i], dx[i + 1]);
    rotary_forward(dx, BH, T, hd, pairs, base);
    for (std::size_t i = 0; i < n; i += 2) std::swap(dx[i], dx[i + 1]);
}

template <class F>
void attention_forward(F* out, F* weights, const F* q, const F* k, const F* v, std::size_t BH, std::size_t T,
                       std::size_t hd, bool causal, const F* bias, std::size_t H, double temperature) {
    // out, q, k, v: (BH, T, hd), weights: (BH, T, T), bias: (H, T, T) or null
    const auto tokens = static_cast<std::int64_t>(T), width = static_cast<std::int64_t>(hd);
    const AttentionShape shape{static_cast<std::int64_t>(BH), tokens, tokens, width, width};
    const std::size_t n = BH * T * hd;
    attention_reference<F>({{}, {}, std::span<F>(weights, BH * T * T), std::span<F>(out, n)},
                           std::span<const F>(q, n), std::span<const F>(k, n), std::span<const F>(v, n), shape,
                           CausalMask{causal, {}}, bias ? std::span<const F>(bias, H * T * T) : std::span<const F>(),
                           temperature);
}

template <class F>
void attention_backward(F* dq, F* dk, F* dv, const F* dout, const F* q, const F* k, const F* v, const F* weights,
                        std::size_t BH, std::size_t T, std::size_t hd, bool causal, F* dbias, double temperature) {
    // dq, dk, dv, dout, q, k, v: (BH, T, hd), weights: (BH, T, T), dbias: (BH, T, T) or null
    const F sqrt_d = score_divisor<F>(hd, temperature);  // as attention_reference scales
    std::fill(dq, dq + BH * T * hd, F{0});
    std::fill(dk, dk + BH * T * hd, F{0});
    std::fill(dv, dv + BH * T * hd, F{0});
    if (dbias) std::fill(dbias, dbias + BH * T * T, F{0});
    std::vector<F> dweights(T), dscores(T);
    for (std::size_t bh = 0; bh < BH; ++bh) {
        const std::size_t block = bh * T * hd;
        for (std::size_t i = 0; i < T; ++i) {
            const F* w = weights + (bh * T + i) * T;
            const F* g = dout + block + i * hd;
            const std::size_t visible = causal ? i + 1 : T;
            for (std::size_t j = 0; j < visible; ++j) {
                F dot = 0;
                for (std::size_t e = 0; e < hd; ++e) dot += g[e] * v[block + j * hd + e];
                dweights[j] = dot;
            }
            // softmax backward: the weights' gradient minus its weighted mean, times the weight; then the scaling
            F weighted = 0;
            for (std::size_t j = 0; j < visible; ++j) weighted += w[j] * dweights[j];
            for (std::size_t j = 0; j < visible; ++j) {
                const F dscaled = w[j] * (dweights[j] - weighted);
                if (dbias) dbias[(bh * T + i) * T + j] = dscaled;
                dscores[j] = dscaled / sqrt_d;
            }
            // hidden keys (j >= visible) take no part: their scores get no gradient
            for (std::size_t j = 0; j < visible; ++j) {
                for (std::size_t d = 0; d < hd; ++d) {
                    dq[block + i * hd + d] += dscores[j] * k[block + j * hd + d];
                    dk[block + j * hd + d] += dscores[j] * q[block + i * hd + d];
                    dv[block + j * hd + d] += w[j] * g[d];
                }
            }
        }
    }
}

template <class F>
void relu_forward(F* out, const F* inp, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = inp[i] < F{0} ? F{0} : inp[i];  // NaN stays NaN
}

template <class F>
void relu_backward(F* dinp, const F* dout, const F* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const F d = dout[i];  // read whatever the condition (so the loop vectorizes to a select)
        dinp[i] = out[i] > F{0} ? d : F{0};
    }
}

template <class F>
void add(F* out, const F* a, const F* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

template <class F>
void mean_forward(F* out, const F* inp, std::size_t B, std::size_t T, std::size_t D) {
    // out: (B, D), inp: (B, T, D)
    const auto length = static_cast<F>(T);
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t d = 0; d < D; ++d) {
            F sum = 0;
            for (std::size_t t = 0; t < T; ++t) sum += inp[(b * T + t) * D + d];
            out[b * D + d] = sum / length;
        }
    }
}

template <class F>
void mean_backward(F* dinp, const F* dout, std::size_t B, std::size_t T, std::size_t D) {
    // dinp: (B, T, D), dout: (B, D)
    const auto length = static_cast<F>(T);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t t = 0; t < T; ++t)
            for (std::size_t d = 0; d < D; ++d) dinp[(b * T + t) * D + d] = dout[b * D + d] / length;
}

template <class F>
double crossentropy(F* dlogits, const F* logits, const std::int32_t* targets, std::size_t R, std::size_t C) {
    // dlogits, logits: (R, C), targets: (R)
    std::size_t count = 0;
    for (std::size_t r = 0; r < R; ++r) count += targets[r] != -1 ? 1 : 0;
    if (dlogits) std::fill(dlogits, dlogits + R * C, F{0});
    if (count == 0) return 0.0;
    const auto counted = static_cast<F>(count);
    double loss = 0;
    for (std::size_t r = 0; r < R; ++r) {
        if (targets[r] == -1) continue;
        const F* l = logits + r * C;
        const auto y = static_cast<std::size_t>(targets[r]);
        F max = l[0];
        for (std::size_t c = 1; c < C; ++c) max = l[c] > max ? l[c] : max;
        F sum = 0;
        for (std::size_t c = 0; c < C; ++c) sum += std::exp(l[c] - max);
        loss += static_cast<double>(std::log(sum) - (l[y] - max));
        if (!dlogits) continue;
        for (std::size_t c = 0; c < C; ++c) {
            const F p = std::exp(l[c] - max) / sum;
            dlogits[r * C + c] = (p - (c == y ? F{1} : F{0})) / counted;
        }
    }
    return loss / static_cast<double>(count);
}

// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, and (F)* would not parse
#define SEQORDER_INSTANTIATE(F)                                                                                       \
    template void input_forward<F>(F*, const std::int32_t*, const F*, const F*, F, std::size_t, std::size_t,         \
                                   std::size_t, bool, const std::int32_t*);                                          \
    template void input_backward<F>(F*, F*, const F*, const std::int32_t*, F, std::size_t, std::size_t, std::size_t,   \
                                    std::size_t);                                                                    \
    template void layernorm_forward<F>(F*, F*, F*, const F*, const F*, const F*, std::size_t, std::size_t);           \
    template void layernorm_backward<F>(F*, F*, F*, const F*, const F*, const F*, const F*, const F*, std::size_t,    \
                                        std::size_t);                                                                \
    template void matmul_forward<F>(F*, const F*, const F*, const F*, std::size_t, std::size_t, std::size_t);         \
    template void matmul_backward<F>(F*, F*, F*, const F*, const F*, const F*, std::size_t, std::size_t, std::size_t); \
    template void split_heads<F>(F*, const F*, std::size_t, std::size_t, std::size_t, std::size_t);                  \
    template void merge_heads<F>(F*, const F*, std::size_t, std::size_t, std::size_t, std::size_t);                  \
    template void rotary_forward<F>(F*, std::size_t, std::size_t, std::size_t, std::size_t, double);                 \
    template void rotary_backward<F>(F*, std::size_t, std::size_t, std::size_t, std::size_t, double);                \
    template void attention_forward<F>(F*, F*, const F*, const F*, const F*, std::size_t, std::size_t, std::size_t,   \
                                       bool, const F*, std::size_t, double);                                          \
    template void attention_backward<F>(F*, F*, F*, const F*, const F*, const F*, const F*, const F*, std::size_t,    \
                                        std::size_t, std::size_t, bool, F*, double);                                 \
    template void relu_forward<F>(F*, const F*, std::size_t);                                                         \
    template void relu_backward<F>(F*, const F*, const F*, std::size_t);                                              \
    template void add<F>(F*, const F*, const F*, std::size_t);                                                        \
    template void mean_forward<F>(F*, const F*, std::size_t, std::size_t, std::size_t);                               \
    template void mean_backward<F>(F*, const F*, std::size_t, std::size_t, std::size_t);                              \
    template double crossentropy<F>(F*, const F*, const std::int32_t*, std::size_t, std::size_t);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace seqorder::model
