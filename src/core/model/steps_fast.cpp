#include "steps_fast.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "attention.hpp"
#include "expf4.hpp"
#include "f32x4.hpp"
#include "steps.hpp"

namespace seqorder::model::fast {
namespace {

using simd::f32x4;
constexpr auto reference_layernorm_forward = &model::layernorm_forward<float>;

// The one kernel: C (M, N) = start + A (M, K) . B (K, N), where
//   A(m, p) = a[m * a_row + p * a_col]   (a_row = K, a_col = 1 for a row-major A; a_row = 1, a_col = M for A^T),
//   B is row-major with rows ldb apart, C row-major with rows ldc apart,
//   start = bias (N) on every row, or 0 when bias is null.
// C[m, n] = start[n] + A(m, 0) B(0, n) + A(m, 1) B(1, n) + ..., added in order of p, one vector lane per element; then
// `then` (steps_fast.hpp) is applied to each finished element as it is stored.
struct Operands {
    float* c;
    std::size_t ldc;
    const float* a;
    std::size_t a_row, a_col;  // one of them is 1
    const float* b;
    std::size_t ldb;
    const float* bias;
    std::size_t K;
    Then then = Then::store;
    const float* other = nullptr;  // (M, N), rows ldc apart: the residual (Then::add) or the ReLU's output (relu_mask)
    bool resume = false;           // start from what C holds (a sum over the earlier values of p), not from `start`
};

// The start of the sums of a product without a bias (a tile reads up to 8).
alignas(16) constexpr float kZeros[8] = {};

// f(i) for i = 0 .. N - 1, i a compile-time constant (so that arrays indexed by it stay in registers).
template <std::size_t... I, class F>
SEQORDER_INLINE void each(std::index_sequence<I...>, F&& f) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
}

// An R x V tile of finished elements of C, its rows ldc apart from c (other: the same elements of o.other), `then`
// applied, stored. Each case is the reference function of that step on each element: relu_forward, add, add (into
// C), relu_backward. The switch is taken once per tile.
template <std::size_t R, std::size_t V>
SEQORDER_INLINE void finish(Then then, float* c, const float* other, std::size_t ldc, const f32x4 (&acc)[R][V]) {
    const f32x4 zero = simd::splat(0.0f);
    const auto all = std::make_index_sequence<R * V>{};
    switch (then) {
        case Then::store:
            each(all, [&](auto i) { simd::store(c + i / V * ldc + 4 * (i % V), acc[i / V][i % V]); });
            break;
        case Then::relu:  // v < 0 ? 0 : v
            each(all, [&](auto i) { simd::store(c + i / V * ldc + 4 * (i % V), simd::pmax(acc[i / V][i % V], zero)); });
            break;
        case Then::add:  // other + v
            each(all, [&](auto i) {
                const std::size_t at = i / V * ldc + 4 * (i % V);
                simd::store(c + at, simd::load(other + at) + acc[i / V][i % V]);
            });
            break;
        case Then::accumulate:  // c + v
            each(all, [&](auto i) {
                const std::size_t at = i / V * ldc + 4 * (i % V);
                simd::store(c + at, simd::load(c + at) + acc[i / V][i % V]);
            });
            break;
        case Then::relu_mask:  // other > 0 ? v : 0
            each(all, [&](auto i) {
                const std::size_t at = i / V * ldc + 4 * (i % V);
                simd::store(c + at, simd::keep(acc[i / V][i % V], simd::greater(simd::load(other + at), zero)));
            });
            break;
    }
}
// The same for one element.
float finish_one(Then then, const float* c, const float* other, float v) {
    switch (then) {
        case Then::store: return v;
        case Then::relu: return v < 0.0f ? 0.0f : v;
        case Then::add: return *other + v;
        case Then::accumulate: return *c + v;
        case Then::relu_mask: return *other > 0.0f ? v : 0.0f;
    }
    return v;
}

// An R x 4V tile of C at row m, column n: R rows (1 or 4) by V four-lane vectors (1 or 2), in 4V registers. The loops
// over r and v are unrolled (GCC would otherwise keep the accumulators in memory; clang unrolls them anyway); A (its
// rows a_row apart, its columns a_col apart: either may be 1) and B are walked by pointers bumped once per p, so the
// loop does no multiplication of indices.
template <std::size_t R, std::size_t V>
SEQORDER_INLINE void tile(const Operands& o, std::size_t m, std::size_t n) {
    const std::size_t K = o.K, ldb = o.ldb, a_step = o.a_col;
    f32x4 acc[R][V];
    // each sum's start: C's element (resume), or the bias (the same on every row), or 0
    const float* start = o.resume ? o.c + m * o.ldc + n : o.bias ? o.bias + n : kZeros;
    const std::size_t start_row = o.resume ? o.ldc : 0;
#pragma GCC unroll 2
    for (std::size_t v = 0; v < V; ++v)
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) acc[r][v] = simd::load(start + r * start_row + 4 * v);
    const float* b = o.b + n;
    const float* a[R];
#pragma GCC unroll 4
    for (std::size_t r = 0; r < R; ++r) a[r] = o.a + (m + r) * o.a_row;
    for (std::size_t p = 0; p < K; ++p) {
        f32x4 bv[V];
#pragma GCC unroll 2
        for (std::size_t v = 0; v < V; ++v) bv[v] = simd::load(b + 4 * v);
        b += ldb;
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) {
            const f32x4 av = simd::load_splat(a[r]);
            a[r] += a_step;
#pragma GCC unroll 2
            for (std::size_t v = 0; v < V; ++v) acc[r][v] = simd::madd(acc[r][v], av, bv[v]);
        }
    }
    // (o's fields read before the stores: a vector store may alias anything, and would make the compiler read them
    // again)
    const std::size_t ldc = o.ldc;
    finish<R, V>(o.then, o.c + m * ldc + n, o.other ? o.other + m * ldc + n : nullptr, ldc, acc);
}

// Columns n .. N - 1 of rows m .. end - 1, one element at a time, in scalar code that adds in the same order (the last
// N % 4 columns: out of line, one copy for every tile height).
[[gnu::noinline]] void columns(const Operands& o, std::size_t m, std::size_t end, std::size_t n, std::size_t N) {
    for (; n < N; ++n)
        for (std::size_t r = m; r < end; ++r) {
            const std::size_t at = r * o.ldc + n;
            float sum = o.resume ? o.c[at] : o.bias ? o.bias[n] : 0.0f;
            for (std::size_t p = 0; p < o.K; ++p) sum += o.a[r * o.a_row + p * o.a_col] * o.b[p * o.ldb + n];
            o.c[at] = finish_one(o.then, o.c + at, o.other ? o.other + at : nullptr, sum);
        }
}

// R rows starting at m, every column: tiles of 8 columns, then one of 4, then single columns.
template <std::size_t R>
void rows(const Operands& o, std::size_t m, std::size_t N) {
    std::size_t n = 0;
    for (; n + 8 <= N; n += 8) tile<R, 2>(o, m, n);
    if (n + 4 <= N) {
        tile<R, 1>(o, m, n);
        n += 4;
    }
    if (n < N) columns(o, m, m + R, n, N);
}

// Rows four at a time, then the last M % 4 one at a time (a row's elements are the same sums whatever the tile: one
// tile height for the rest keeps the module small).
void panels(const Operands& o, std::size_t M, std::size_t N) {
    std::size_t m = 0;
    for (; m + 4 <= M; m += 4) rows<4>(o, m, N);
    for (; m < M; ++m) rows<1>(o, m, N);
}

// A long K (a weight's gradient sums over every token) in blocks of kBlock values of p, whose rows of A and B stay in
// the cache while every tile of C runs over them: each block's sums are stored in C and the next block takes them up
// from there (a float stored and loaded is the same float, so each element is the one sum over p, in order); the last
// block applies `then`. (Not for accumulate, which reads C.)
constexpr std::size_t kBlock = 128;

void gemm(const Operands& o, std::size_t M, std::size_t N) {
    assert(o.a_col == 1 || o.a_row == 1);
    const std::size_t block = o.K > 2 * kBlock && o.then != Then::accumulate ? kBlock : o.K;
    Operands part = o;
    std::size_t p = 0;
    do {
        part.K = std::min(block, o.K - p);
        part.a = o.a + p * o.a_col;
        part.b = o.b + p * o.ldb;
        part.then = p + part.K == o.K ? o.then : Then::store;
        part.resume = p > 0;
        panels(part, M, N);
        p += part.K;
    } while (p < o.K);
}

// out (cols, rows) = inp (rows, cols)^T, inp's rows ld apart: blocks of 4 x 4 by simd::transpose where both sizes are
// multiples of 4
void transpose(float* out, const float* inp, std::size_t rows, std::size_t cols, std::size_t ld) {
    if (rows % 4 == 0 && cols % 4 == 0) {
        for (std::size_t r = 0; r < rows; r += 4)
            for (std::size_t c = 0; c < cols; c += 4) {
                f32x4 a = simd::load(inp + r * ld + c), b = simd::load(inp + (r + 1) * ld + c),
                      x = simd::load(inp + (r + 2) * ld + c), y = simd::load(inp + (r + 3) * ld + c);
                simd::transpose(a, b, x, y);
                simd::store(out + c * rows + r, a);
                simd::store(out + (c + 1) * rows + r, b);
                simd::store(out + (c + 2) * rows + r, x);
                simd::store(out + (c + 3) * rows + r, y);
            }
        return;
    }
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = inp[r * ld + c];
}

float* room(std::vector<float>& workspace, std::size_t n) {
    if (workspace.size() < n) workspace.resize(n);
    return workspace.data();
}

// Rows n .. n + 3 of a (N, D) array, four columns d .. d + 3 at a time, turned so that vector j holds column d + j of
// the four rows: lane r is row n + r. Adding the columns in order gives each row's sum in the reference's order.
struct Columns {
    f32x4 c[4];
    Columns(const float* rows, std::size_t D, std::size_t d) {
        for (std::size_t r = 0; r < 4; ++r) c[r] = simd::load(rows + r * D + d);
        simd::transpose(c[0], c[1], c[2], c[3]);
    }
};

// Lane r of a, for r = 0 .. 3, into out[0 .. 3].
void store_lanes(float* out, f32x4 a) { simd::store(out, a); }

}  // namespace

// Rows n .. n + 7 of layernorm_forward: two groups of four rows side by side (each group's sums, one row per lane, a
// chain of dependent adds: the two groups' chains overlap).
SEQORDER_INLINE void layernorm_rows8(float* out, float* mean, float* rstd, const float* inp, const float* gain,
                                     const float* bias, std::size_t n, std::size_t D) {
    constexpr std::size_t G = 2;
    const f32x4 eps = simd::splat(static_cast<float>(kLayerNormEps)), width = simd::splat(static_cast<float>(D));
    f32x4 m[G], v[G];
    for (std::size_t k = 0; k < G; ++k) m[k] = v[k] = simd::splat(0.0f);
    for (std::size_t d = 0; d < D; d += 4)
        for (std::size_t k = 0; k < G; ++k) {
            const Columns c(inp + (n + 4 * k) * D, D, d);
            for (const f32x4& column : c.c) m[k] = m[k] + column;
        }
    for (std::size_t k = 0; k < G; ++k) m[k] = m[k] / width;
    for (std::size_t d = 0; d < D; d += 4)
        for (std::size_t k = 0; k < G; ++k) {
            const Columns c(inp + (n + 4 * k) * D, D, d);
            for (const f32x4& column : c.c) {
                const f32x4 shifted = column - m[k];
                v[k] = v[k] + shifted * shifted;
            }
        }
    for (std::size_t k = 0; k < G; ++k) {
        v[k] = v[k] / width;
        store_lanes(mean + n + 4 * k, m[k]);
        store_lanes(rstd + n + 4 * k, simd::splat(1.0f) / simd::sqrt(v[k] + eps));
    }
    for (std::size_t r = 0; r < 4 * G; ++r) {
        const f32x4 mr = simd::splat(mean[n + r]), sr = simd::splat(rstd[n + r]);
        const float* xr = inp + (n + r) * D;
        float* o = out + (n + r) * D;
        for (std::size_t d = 0; d < D; d += 4)
            simd::store(o + d, (simd::load(xr + d) - mr) * sr * simd::load(gain + d) + simd::load(bias + d));
    }
}

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* gain, const float* bias,
                       std::size_t N, std::size_t D) {
    // out, inp: (N, D); mean, rstd: (N); gain, bias: (D). Eight rows at a time, one per lane in two groups of four
    // (their sums over d in the reference's order); then each row's outputs four columns at a time. Other widths, and
    // the last N % 8 rows: the reference.
    if (D % 4 != 0) return reference_layernorm_forward(out, mean, rstd, inp, gain, bias, N, D);
    std::size_t n = 0;
    for (; n + 8 <= N; n += 8) layernorm_rows8(out, mean, rstd, inp, gain, bias, n, D);
    reference_layernorm_forward(out + n * D, mean + n, rstd + n, inp + n * D, gain, bias, N - n, D);
}

void layernorm_backward(float* dinp, float* dgain, float* dbias, const float* dout, const float* inp,
                        const float* gain, const float* mean, const float* rstd, std::size_t N, std::size_t D,
                        bool accumulate) {
    // dinp, dout, inp: (N, D); dgain, dbias, gain: (D); mean, rstd: (N). As layernorm_forward: four rows at a time,
    // one per lane, for the two means over each row; then dinp, and dgain and dbias (sums over the rows, in order of
    // n), four columns at a time. Widths that are not a multiple of 4 run the reference's loop below for every row.
    std::fill(dgain, dgain + D, 0.0f);
    std::fill(dbias, dbias + D, 0.0f);
    const f32x4 width = simd::splat(static_cast<float>(D));
    std::size_t n = 0;
    for (; D % 4 == 0 && n + 4 <= N; n += 4) {
        const float* x = inp + n * D;
        const float* g = dout + n * D;
        const f32x4 m = simd::load(mean + n), s = simd::load(rstd + n);
        f32x4 dnorm_mean = simd::splat(0.0f), dnorm_norm_mean = simd::splat(0.0f);
        for (std::size_t d = 0; d < D; d += 4) {
            const Columns xc(x, D, d), gc(g, D, d);
            for (std::size_t j = 0; j < 4; ++j) {
                const f32x4 norm = (xc.c[j] - m) * s;
                const f32x4 dnorm = simd::splat(gain[d + j]) * gc.c[j];
                dnorm_mean = dnorm_mean + dnorm;
                dnorm_norm_mean = dnorm_norm_mean + dnorm * norm;
            }
        }
        alignas(16) float means[4], norm_means[4];
        store_lanes(means, dnorm_mean / width);
        store_lanes(norm_means, dnorm_norm_mean / width);
        // four columns at a time, the four rows in turn: dgain's and dbias's terms added in order of n in registers
        // (loaded and stored once for the four rows)
        for (std::size_t d = 0; d < D; d += 4) {
            const f32x4 gain_d = simd::load(gain + d);
            f32x4 db = simd::load(dbias + d), dg = simd::load(dgain + d);
            for (std::size_t r = 0; r < 4; ++r) {
                const f32x4 sr = simd::splat(rstd[n + r]);
                const f32x4 gd = simd::load(g + r * D + d);
                const f32x4 norm = (simd::load(x + r * D + d) - simd::splat(mean[n + r])) * sr;
                db = db + gd;
                dg = dg + norm * gd;
                const f32x4 value = (gain_d * gd - simd::splat(means[r]) - norm * simd::splat(norm_means[r])) * sr;
                float* dx = dinp + (n + r) * D + d;
                simd::store(dx, accumulate ? simd::load(dx) + value : value);
            }
            simd::store(dbias + d, db);
            simd::store(dgain + d, dg);
        }
    }
    // the last rows (every row, for other widths): the reference's loop, added to the sums so far
    for (; n < N; ++n) {
        const float* x = inp + n * D;
        const float* g = dout + n * D;
        const float m = mean[n], s = rstd[n];
        float dnorm_mean = 0, dnorm_norm_mean = 0;
        for (std::size_t d = 0; d < D; ++d) {
            const float norm = (x[d] - m) * s;
            const float dnorm = gain[d] * g[d];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean = dnorm_mean / static_cast<float>(D);
        dnorm_norm_mean = dnorm_norm_mean / static_cast<float>(D);
        float* dx = dinp + n * D;
        for (std::size_t d = 0; d < D; ++d) {
            const float norm = (x[d] - m) * s;
            const float dnorm = gain[d] * g[d];
            dbias[d] += g[d];
            dgain[d] += norm * g[d];
            const float value = (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
            dx[d] = accumulate ? dx[d] + value : value;
        }
    }
}

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, std::size_t N,
                    std::size_t C, std::size_t OC, Then then, const float* other) {
    // out (N, OC) = inp (N, C) . weight (C, OC) + bias, then `then`
    gemm({out, OC, inp, C, 1, weight, OC, bias, C, then, other}, N, OC);
}

void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, std::size_t N, std::size_t C, std::size_t OC,
                     std::vector<float>& workspace, Then then, const float* other) {
    if (dinp) {
        // dinp (N, C) = dout (N, OC) . weight^T (OC, C), then `then`
        float* weight_t = room(workspace, C * OC);
        transpose(weight_t, weight, C, OC, OC);
        gemm({dinp, C, dout, OC, 1, weight_t, C, nullptr, OC, then, other}, N, C);
    }
    // dweight (C, OC) = inp^T (C, N) . dout (N, OC): A(c, n) = inp[n * C + c]
    gemm({dweight, OC, inp, 1, C, dout, OC, nullptr, N}, C, OC);
    if (dbias) {
        // dbias (OC): column sums of dout, in order of n; sixteen columns at a time (four vector sums in flight: one
        // alone waits on its previous add at every n), then four, then one
        std::size_t o = 0;
        for (; o + 16 <= OC; o += 16) {
            f32x4 sum[4] = {simd::splat(0.0f), simd::splat(0.0f), simd::splat(0.0f), simd::splat(0.0f)};
            for (std::size_t n = 0; n < N; ++n)
                for (std::size_t v = 0; v < 4; ++v) sum[v] = sum[v] + simd::load(dout + n * OC + o + 4 * v);
            for (std::size_t v = 0; v < 4; ++v) simd::store(dbias + o + 4 * v, sum[v]);
        }
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

namespace {

// hd floats from `from` to `to` (hd a multiple of 4).
SEQORDER_INLINE void copy_row(float* to, const float* from, std::size_t hd) {
    for (std::size_t e = 0; e < hd; e += 4) simd::store(to + e, simd::load(from + e));
}

// Rows i .. i + 3 of a block's scores w (T, T), T a multiple of 4, scaled, masked and turned into attention weights
// as attention_forward's row loop turns each row (the same operation on each element, the sum in order of j), one row
// per lane: each 4 x 4 block of the rows is turned (Columns) and kept so in place between the passes, and turned back
// by the last. The rows' chains of dependent steps (the max, e^x, the sum, the division) run side by side.
void softmax_rows4(float* w, const float* bias, std::size_t i, std::size_t T, bool causal, float sqrt_d) {
    float* rows = w + i * T;
    const float* bias_rows = bias ? bias + i * T : nullptr;
    const f32x4 divisor = simd::splat(sqrt_d), hidden = simd::splat(-std::numeric_limits<float>::infinity());
    // the causal mask, where key j is visible: lane r is row i + r, which sees keys 0 .. i + r
    const simd::i32x4 last_seen = simd::iota_i(static_cast<std::int32_t>(i));
    const auto visible = [&](std::size_t j) {
        return simd::less_equal(simd::splat_i(static_cast<std::int32_t>(j)), last_seen);
    };
    const std::size_t end = causal ? i + 4 : T;  // keys from here on are hidden from all four rows
    // scaled (and the bias added); the max over the visible keys
    f32x4 max = hidden;
    for (std::size_t jb = 0; jb < end; jb += 4) {
        Columns scaled(rows, T, jb);
        if (bias_rows) {
            const Columns add(bias_rows, T, jb);
            for (std::size_t j = 0; j < 4; ++j) scaled.c[j] = scaled.c[j] / divisor + add.c[j];
        } else {
            for (f32x4& column : scaled.c) column = column / divisor;
        }
        for (std::size_t j = 0; j < 4; ++j) {
            max = simd::pmax(max, causal ? simd::select(visible(jb + j), scaled.c[j], hidden) : scaled.c[j]);
            simd::store(rows + j * T + jb, scaled.c[j]);
        }
    }
    // e^(scaled - max), 0 where hidden, and their sum in order of j (the hidden keys past `end` add zeros)
    f32x4 sum = simd::splat(0.0f);
    for (std::size_t jb = 0; jb < end; jb += 4)
        for (std::size_t j = 0; j < 4; ++j) {
            f32x4 e = expf4(simd::load(rows + j * T + jb) - max);
            if (causal) e = simd::keep(e, visible(jb + j));
            sum = sum + e;
            simd::store(rows + j * T + jb, e);
        }
    // the weights: each divided by its row's sum; 0 where hidden
    for (std::size_t jb = 0; jb < T; jb += 4) {
        f32x4 c[4];
        for (std::size_t j = 0; j < 4; ++j) {
            c[j] = jb < end ? simd::load(rows + j * T + jb) / sum : simd::splat(0.0f);
            if (causal) c[j] = simd::keep(c[j], visible(jb + j));
        }
        simd::transpose(c[0], c[1], c[2], c[3]);
        for (std::size_t r = 0; r < 4; ++r) simd::store(rows + r * T + jb, c[r]);
    }
}

}  // namespace

void mean_forward(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t D) {
    // out: (B, D), inp: (B, T, D)
    if (D % 4 != 0) return model::mean_forward<float>(out, inp, B, T, D);
    const f32x4 length = simd::splat(static_cast<float>(T));
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t d = 0; d < D; d += 4) {
            f32x4 sum = simd::splat(0.0f);
            for (std::size_t t = 0; t < T; ++t) sum = sum + simd::load(inp + (b * T + t) * D + d);
            simd::store(out + b * D + d, sum / length);
        }
}

void mean_backward(float* dinp, const float* dout, std::size_t B, std::size_t T, std::size_t D) {
    // dinp: (B, T, D), dout: (B, D)
    if (D % 4 != 0) return model::mean_backward<float>(dinp, dout, B, T, D);
    const f32x4 length = simd::splat(static_cast<float>(T));
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t d = 0; d < D; d += 4) {
            const f32x4 share = simd::load(dout + b * D + d) / length;
            for (std::size_t t = 0; t < T; ++t) simd::store(dinp + (b * T + t) * D + d, share);
        }
}

void split_heads(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd) {
    // out: (B, H, T, hd), inp: (B, T, H * hd)
    if (hd % 4 != 0) return model::split_heads<float>(out, inp, B, T, H, hd);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t t = 0; t < T; ++t)
                copy_row(out + ((b * H + h) * T + t) * hd, inp + (b * T + t) * H * hd + h * hd, hd);
}

void merge_heads(float* out, const float* inp, std::size_t B, std::size_t T, std::size_t H, std::size_t hd) {
    // out: (B, T, H * hd), inp: (B, H, T, hd)
    if (hd % 4 != 0) return model::merge_heads<float>(out, inp, B, T, H, hd);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t t = 0; t < T; ++t)
                copy_row(out + (b * T + t) * H * hd + h * hd, inp + ((b * H + h) * T + t) * hd, hd);
}

void attention_forward(float* out, float* weights, const float* q, const float* k, const float* v, std::size_t BH,
                       std::size_t T, std::size_t hd, bool causal, std::vector<float>& workspace,
                       const float* bias, std::size_t H, double temperature, HeadsLayout heads) {
    // out, q, k, v: BH heads of (T, hd), as `heads` lays them out; weights: (BH, T, T), bias: (H, T, T) or null
    const auto sqrt_d = score_divisor<float>(hd, temperature);
    constexpr float minus_inf = -std::numeric_limits<float>::infinity();
    const std::size_t ld = heads.row(hd);
    float* k_t = room(workspace, hd * T);
    for (std::size_t bh = 0; bh < BH; ++bh) {
        const std::size_t block = heads.start(bh, T, hd);
        float* w = weights + bh * T * T;
        // scores (T, T) = q (T, hd) . k^T (hd, T), into the weights
        transpose(k_t, k + block, T, hd, ld);
        gemm({w, T, q + block, ld, 1, k_t, T, nullptr, hd}, T, T);
        // scaled, masked, softmax: attention_reference's row code, operation for operation; its elementwise steps four
        // keys at a time (the exponentials by expf4, std::exp's bits), its sum in order of j; four rows at a time, one
        // per lane, where T is a multiple of 4 (softmax_rows4)
        const float* head_bias = bias ? bias + (bh % H) * T * T : nullptr;
        for (std::size_t i = 0; T % 4 == 0 && i < T; i += 4) softmax_rows4(w, head_bias, i, T, causal, sqrt_d);
        for (std::size_t i = 0; T % 4 != 0 && i < T; ++i) {
            float* row = w + i * T;
            const std::size_t visible = causal ? i + 1 : T;
            // the max over the visible scores, NaN ignored (as row[j] > max ? row[j] : max): per lane, then over the
            // lanes; which zero it holds when the max is 0 does not matter, e^(x - 0) being the same for either
            f32x4 max4 = simd::splat(minus_inf);
            std::size_t j = 0;
            if (head_bias) {
                const float* add = head_bias + i * T;
                for (; j + 4 <= visible; j += 4) {
                    const f32x4 scaled = simd::load(row + j) / simd::splat(sqrt_d) + simd::load(add + j);
                    simd::store(row + j, scaled);
                    max4 = simd::pmax(max4, scaled);
                }
            } else {
                for (; j + 4 <= visible; j += 4) {
                    const f32x4 scaled = simd::load(row + j) / simd::splat(sqrt_d);
                    simd::store(row + j, scaled);
                    max4 = simd::pmax(max4, scaled);
                }
            }
            float max = minus_inf;
            for (int lane = 0; lane < 4; ++lane) max = simd::lane(max4, lane) > max ? simd::lane(max4, lane) : max;
            for (; j < visible; ++j) {
                row[j] = head_bias ? row[j] / sqrt_d + head_bias[i * T + j] : row[j] / sqrt_d;
                max = row[j] > max ? row[j] : max;
            }
            j = 0;
            for (; j + 4 <= visible; j += 4) simd::store(row + j, expf4(simd::load(row + j) - simd::splat(max)));
            for (; j < visible; ++j) row[j] = std::exp(row[j] - max);
            for (; j < T; ++j) row[j] = 0.0f;
            float sum = 0;
            for (j = 0; j < T; ++j) sum += row[j];
            j = 0;
            for (; j + 4 <= visible; j += 4) simd::store(row + j, simd::load(row + j) / simd::splat(sum));
            for (; j < visible; ++j) row[j] /= sum;
        }
        // out (T, hd) = weights (T, T) . v (T, hd); hidden keys add exact zeros
        gemm({out + block, ld, w, T, 1, v + block, ld, nullptr, T}, T, hd);
    }
}

void attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q, const float* k,
                        const float* v, const float* weights, std::size_t BH, std::size_t T, std::size_t hd,
                        bool causal, std::vector<float>& workspace, float* dbias, double temperature,
                        HeadsLayout heads) {
    // dq, dk, dv, dout, q, k, v: BH heads of (T, hd), as `heads` lays them out; weights: (BH, T, T), dbias: (BH, T, T)
    // or null
    const auto sqrt_d = score_divisor<float>(hd, temperature);
    const std::size_t ld = heads.row(hd);
    float* v_t = room(workspace, hd * T + T * T);
    float* ds = v_t + hd * T;  // (T, T): dweights, then dscores in place
    for (std::size_t bh = 0; bh < BH; ++bh) {
        const std::size_t block = heads.start(bh, T, hd);
        const float* w = weights + bh * T * T;
        // dweights (T, T) = dout (T, hd) . v^T (hd, T)
        transpose(v_t, v + block, T, hd, ld);
        gemm({ds, T, dout + block, ld, 1, v_t, T, nullptr, hd}, T, T);
        for (std::size_t i = 0; i < T; ++i) {
            float* row = ds + i * T;
            const float* wi = w + i * T;
            const std::size_t visible = causal ? i + 1 : T;
            float weighted = 0;
            for (std::size_t j = 0; j < visible; ++j) weighted += wi[j] * row[j];
            // dscores, four keys at a time where they are all visible
            std::size_t j = 0;
            if (dbias) {
                // and dscaled (before the division by sqrt(hd)) into dbias
                float* db = dbias + (bh * T + i) * T;
                for (; j + 4 <= visible; j += 4) {
                    const f32x4 dscaled = simd::load(wi + j) * (simd::load(row + j) - simd::splat(weighted));
                    simd::store(db + j, dscaled);
                    simd::store(row + j, dscaled / simd::splat(sqrt_d));
                }
                for (; j < T; ++j) {
                    db[j] = j < visible ? wi[j] * (row[j] - weighted) : 0.0f;
                    row[j] = db[j] / sqrt_d;
                }
                continue;
            }
            for (; j + 4 <= visible; j += 4)
                simd::store(row + j, simd::load(wi + j) * (simd::load(row + j) - simd::splat(weighted)) /
                                         simd::splat(sqrt_d));
            for (; j < T; ++j) row[j] = j < visible ? wi[j] * (row[j] - weighted) / sqrt_d : 0.0f;
        }
        // dq (T, hd) = dscores (T, T) . k (T, hd); dk = dscores^T . q; dv = weights^T . dout
        gemm({dq + block, ld, ds, T, 1, k + block, ld, nullptr, T}, T, hd);
        gemm({dk + block, ld, ds, 1, T, q + block, ld, nullptr, T}, T, hd);
        gemm({dv + block, ld, w, 1, T, dout + block, ld, nullptr, T}, T, hd);
    }
}

}  // namespace seqorder::model::fast
