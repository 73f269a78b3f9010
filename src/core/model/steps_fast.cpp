#include "steps_fast.hpp"

#include <cmath>
#include <limits>

#include "f32x4.hpp"

namespace seqorder::model::fast {
namespace {

using simd::f32x4;

// The one kernel: C (M, N) = start + A (M, K) . B (K, N), where
//   A(m, p) = a[m * a_row + p * a_col]   (a_row = K, a_col = 1 for a row-major A; a_row = 1, a_col = M for A^T),
//   B is row-major with rows ldb apart, C row-major with rows ldc apart,
//   start = bias (N) on every row, or 0 when bias is null.
// C[m, n] = start[n] + A(m, 0) B(0, n) + A(m, 1) B(1, n) + ..., added in order of p, one vector lane per element.
struct Operands {
    float* c;
    std::size_t ldc;
    const float* a;
    std::size_t a_row, a_col;
    const float* b;
    std::size_t ldb;
    const float* bias;
    std::size_t K;
};

// An R x 4V tile of C at row m, column n: R rows (1..4) by V four-lane vectors (1 or 2), in 4V registers. The loops
// over r and v are unrolled (GCC would otherwise keep the accumulators in memory; clang unrolls them anyway).
template <std::size_t R, std::size_t V>
SEQORDER_INLINE void tile(const Operands& o, std::size_t m, std::size_t n) {
    f32x4 acc[R][V];
#pragma GCC unroll 2
    for (std::size_t v = 0; v < V; ++v) {
        const f32x4 start = o.bias ? simd::load(o.bias + n + 4 * v) : simd::splat(0.0f);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) acc[r][v] = start;
    }
    const float* a = o.a + m * o.a_row;
    const float* b = o.b + n;
    for (std::size_t p = 0; p < o.K; ++p) {
        f32x4 bv[V];
#pragma GCC unroll 2
        for (std::size_t v = 0; v < V; ++v) bv[v] = simd::load(b + p * o.ldb + 4 * v);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) {
            const f32x4 av = simd::load_splat(a + r * o.a_row + p * o.a_col);
#pragma GCC unroll 2
            for (std::size_t v = 0; v < V; ++v) acc[r][v] = simd::madd(acc[r][v], av, bv[v]);
        }
    }
#pragma GCC unroll 4
    for (std::size_t r = 0; r < R; ++r)
#pragma GCC unroll 2
        for (std::size_t v = 0; v < V; ++v) simd::store(o.c + (m + r) * o.ldc + n + 4 * v, acc[r][v]);
}

// R rows starting at m, every column: tiles of 8 columns, then one of 4, then single columns (in scalar code that
// adds in the same order).
template <std::size_t R>
void rows(const Operands& o, std::size_t m, std::size_t N) {
    std::size_t n = 0;
    for (; n + 8 <= N; n += 8) tile<R, 2>(o, m, n);
    if (n + 4 <= N) {
        tile<R, 1>(o, m, n);
        n += 4;
    }
    for (; n < N; ++n) {
        for (std::size_t r = m; r < m + R; ++r) {
            float sum = o.bias ? o.bias[n] : 0.0f;
            for (std::size_t p = 0; p < o.K; ++p) sum += o.a[r * o.a_row + p * o.a_col] * o.b[p * o.ldb + n];
            o.c[r * o.ldc + n] = sum;
        }
    }
}

void gemm(const Operands& o, std::size_t M, std::size_t N) {
    std::size_t m = 0;
    for (; m + 4 <= M; m += 4) rows<4>(o, m, N);
    switch (M - m) {
        case 3: rows<3>(o, m, N); break;
        case 2: rows<2>(o, m, N); break;
        case 1: rows<1>(o, m, N); break;
        default: break;
    }
}

// out (cols, rows) = inp (rows, cols)^T
void transpose(float* out, const float* inp, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = inp[r * cols + c];
}

float* room(std::vector<float>& workspace, std::size_t n) {
    if (workspace.size() < n) workspace.resize(n);
    return workspace.data();
}

}  // namespace

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t N,
                    std::size_t C, std::size_t OC) {
    // out (N, OC) = inp (N, C) . weight (C, OC) + bias
    gemm({out, OC, inp, C, 1, weight, OC, bias, C}, N, OC);
}

void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t N, std::size_t C, std::size_t OC,
                     std::vector<float>& workspace) {
    if (dinp) {
        // dinp (N, C) = dout (N, OC) . weight^T (OC, C)
        float* weight_t = room(workspace, C * OC);
        transpose(weight_t, weight, C, OC);
        gemm({dinp, C, dout, OC, 1, weight_t, C, nullptr, OC}, N, C);
    }
    // dweight (C, OC) = inp^T (C, N) . dout (N, OC): A(c, n) = inp[n * C + c]
    gemm({dweight, OC, inp, 1, C, dout, OC, nullptr, N}, C, OC);
    if (dbias) {
        // dbias (OC): column sums of dout, in order of n
        std::size_t o = 0;
        for (; o + 4 <= OC; o += 4) {
            f32x4 sum = simd::splat(0.0f);
            for (std::size_t n = 0; n < N; ++n) sum = sum + simd::load(dout + n * OC + o);
            simd::store(dbias + o, sum);
        }
        for (; o < OC; ++o) {
            float sum = 0;
            for (std::size_t n = 0; n < N; ++n) sum += dout[n * OC + o];
            dbias[o] = sum;
        }
    }
}

void attention_forward(float* out, float* weights, const float* q, const float* k, const float* v, std::size_t BH,
                       std::size_t T, std::size_t hd, bool causal, std::vector<float>& workspace) {
    // out, q, k, v: (BH, T, hd), weights: (BH, T, T)
    const auto sqrt_d = static_cast<float>(std::sqrt(static_cast<double>(hd)));
    constexpr float minus_inf = -std::numeric_limits<float>::infinity();
    float* k_t = room(workspace, hd * T);
    for (std::size_t bh = 0; bh < BH; ++bh) {
        const std::size_t block = bh * T * hd;
        float* w = weights + bh * T * T;
        // scores (T, T) = q (T, hd) . k^T (hd, T), into the weights
        transpose(k_t, k + block, T, hd);
        gemm({w, T, q + block, hd, 1, k_t, T, nullptr, hd}, T, T);
        // scaled, masked, softmax: attention_reference's row code, operation for operation
        for (std::size_t i = 0; i < T; ++i) {
            float* row = w + i * T;
            const std::size_t visible = causal ? i + 1 : T;
            float max = minus_inf;
            for (std::size_t j = 0; j < visible; ++j) {
                row[j] = row[j] / sqrt_d;
                max = row[j] > max ? row[j] : max;
            }
            float sum = 0;
            for (std::size_t j = 0; j < T; ++j) {
                row[j] = j < visible ? std::exp(row[j] - max) : 0.0f;
                sum += row[j];
            }
            for (std::size_t j = 0; j < visible; ++j) row[j] /= sum;
        }
        // out (T, hd) = weights (T, T) . v (T, hd); hidden keys add exact zeros
        gemm({out + block, hd, w, T, 1, v + block, hd, nullptr, T}, T, hd);
    }
}

void attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q, const float* k,
                        const float* v, const float* weights, std::size_t BH, std::size_t T, std::size_t hd,
                        bool causal, std::vector<float>& workspace) {
    // dq, dk, dv, dout, q, k, v: (BH, T, hd), weights: (BH, T, T)
    const auto sqrt_d = static_cast<float>(std::sqrt(static_cast<double>(hd)));
    float* v_t = room(workspace, hd * T + T * T);
    float* ds = v_t + hd * T;  // (T, T): dweights, then dscores in place
    for (std::size_t bh = 0; bh < BH; ++bh) {
        const std::size_t block = bh * T * hd;
        const float* w = weights + bh * T * T;
        // dweights (T, T) = dout (T, hd) . v^T (hd, T)
        transpose(v_t, v + block, T, hd);
        gemm({ds, T, dout + block, hd, 1, v_t, T, nullptr, hd}, T, T);
        for (std::size_t i = 0; i < T; ++i) {
            float* row = ds + i * T;
            const float* wi = w + i * T;
            const std::size_t visible = causal ? i + 1 : T;
            float weighted = 0;
            for (std::size_t j = 0; j < visible; ++j) weighted += wi[j] * row[j];
            for (std::size_t j = 0; j < T; ++j) row[j] = j < visible ? wi[j] * (row[j] - weighted) / sqrt_d : 0.0f;
        }
        // dq (T, hd) = dscores (T, T) . k (T, hd); dk = dscores^T . q; dv = weights^T . dout
        gemm({dq + block, hd, ds, T, 1, k + block, hd, nullptr, T}, T, hd);
        gemm({dk + block, hd, ds, 1, T, q + block, hd, nullptr, T}, T, hd);
        gemm({dv + block, hd, w, 1, T, dout + block, hd, nullptr, T}, T, hd);
    }
}

}  // namespace seqorder::model::fast
