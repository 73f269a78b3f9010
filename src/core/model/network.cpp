#include "network.hpp"

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "call_positions.hpp"
#include "position_bias.hpp"
#include "positions.hpp"
#include "sizes.hpp"
#include "steps.hpp"
#include "steps_fast.hpp"

namespace seqorder::model {
namespace {

// The sizes of one call, as std::size_t (activation_count has bounded them).
struct Dims {
    std::size_t B, T, N, D, H, hd, L, C, V, R;  // R: rows of logits (B for 'mean', N for 'each')
    Dims(const Config& c, std::size_t batch, std::size_t length)
        : B(batch), T(length), N(batch * length), D(static_cast<std::size_t>(c.width)),
          H(static_cast<std::size_t>(c.heads)), hd(D / H), L(static_cast<std::size_t>(c.layers)),
          C(static_cast<std::size_t>(c.classes)), V(static_cast<std::size_t>(c.vocab)),
          R(c.readout == Readout::mean ? batch : batch * length) {}
};

// The steps whose fast float32 kernels exist: the dispatch between them and the reference.

using fast::Then;

// The reference's step `then` on out (n elements) after a product: the fast kernels fuse it into the product
// (steps_fast.hpp). For accumulate, `product` holds the product, added to out.
template <class F>
void then_reference(Then then, F* out, const F* other, const F* product, std::size_t n) {
    switch (then) {
        case Then::store: break;
        case Then::relu: relu_forward<F>(out, out, n); break;
        case Then::add: add<F>(out, other, out, n); break;
        case Then::accumulate: add<F>(out, out, product, n); break;
        case Then::relu_mask: relu_backward<F>(out, out, other, n); break;
    }
}

// out (N, OC) = inp . weight + bias, then `then` (other: the residual for add, the ReLU's output for relu_mask;
// scratch (N, OC): the product, for accumulate in the reference).
template <class F>
void linear_forward(Kernels kernels, F* out, const F* inp, const F* weight, const F* bias, std::size_t N,
                    std::size_t C, std::size_t OC, Then then = Then::store, const F* other = nullptr) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::matmul_forward(out, inp, weight, bias, N, C, OC, then, other);
    matmul_forward<F>(out, inp, weight, bias, N, C, OC);
    then_reference<F>(then, out, other, nullptr, N * OC);
}

// matmul_backward, then `then` on dinp (as linear_forward; for accumulate the reference computes dinp into scratch).
template <class F>
void linear_backward(Activations<F>& a, Kernels kernels, F* dinp, F* dweight, F* dbias, const F* dout, const F* inp,
                     const F* weight, std::size_t N, std::size_t C, std::size_t OC, Then then = Then::store,
                     const F* other = nullptr, F* scratch = nullptr) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast)
            return fast::matmul_backward(dinp, dweight, dbias, dout, inp, weight, N, C, OC, a.workspace, then, other);
    F* product = then == Then::accumulate ? scratch : dinp;
    matmul_backward<F>(product, dweight, dbias, dout, inp, weight, N, C, OC);
    then_reference<F>(then, dinp, other, product, N * C);
}

template <class F>
void norm_forward(Kernels kernels, F* out, F* mean, F* rstd, const F* inp, const F* gain, const F* bias,
                  std::size_t N, std::size_t D) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::layernorm_forward(out, mean, rstd, inp, gain, bias, N, D);
    layernorm_forward<F>(out, mean, rstd, inp, gain, bias, N, D);
}

// layernorm_backward, its dinp added to what dinp holds (add(dinp, dinp, the gradient)); the reference computes the
// gradient into scratch (N, D) first.
template <class F>
void norm_backward_add(Kernels kernels, F* dinp, F* dgain, F* dbias, const F* dout, const F* inp, const F* gain,
                       const F* mean, const F* rstd, std::size_t N, std::size_t D, F* scratch) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast)
            return fast::layernorm_backward(dinp, dgain, dbias, dout, inp, gain, mean, rstd, N, D, true);
    layernorm_backward<F>(scratch, dgain, dbias, dout, inp, gain, mean, rstd, N, D);
    add<F>(dinp, dinp, scratch, N * D);
}

template <class F>
void norm_backward(Kernels kernels, F* dinp, F* dgain, F* dbias, const F* dout, const F* inp, const F* gain,
                   const F* mean, const F* rstd, std::size_t N, std::size_t D) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast)
            return fast::layernorm_backward(dinp, dgain, dbias, dout, inp, gain, mean, rstd, N, D);
    layernorm_backward<F>(dinp, dgain, dbias, dout, inp, gain, mean, rstd, N, D);
}

template <class F>
void split(Kernels kernels, F* out, const F* inp, const Dims& d) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::split_heads(out, inp, d.B, d.T, d.H, d.hd);
    split_heads<F>(out, inp, d.B, d.T, d.H, d.hd);
}

template <class F>
void merge(Kernels kernels, F* out, const F* inp, const Dims& d) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::merge_heads(out, inp, d.B, d.T, d.H, d.hd);
    merge_heads<F>(out, inp, d.B, d.T, d.H, d.hd);
}

// The readout's mean over t: (B, T, D) -> (B, D), and its backward.
template <class F>
void pool(Kernels kernels, F* out, const F* inp, const Dims& d) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::mean_forward(out, inp, d.B, d.T, d.D);
    mean_forward<F>(out, inp, d.B, d.T, d.D);
}

template <class F>
void pool_backward(Kernels kernels, F* dinp, const F* dout, const Dims& d) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast) return fast::mean_backward(dinp, dout, d.B, d.T, d.D);
    mean_backward<F>(dinp, dout, d.B, d.T, d.D);
}

// Whether q, k, v, attention's output and their gradients stay side by side, (B, T, H hd), as the projections write
// them (fast::HeadsLayout): in the fast float32 kernels, but with rotary positions, whose turns run on split heads;
// else they are split into (B, H, T, hd) and merged back (split, merge).
template <class F>
bool heads_side_by_side(Kernels kernels, const Config& c) {
    return std::is_same_v<F, float> && kernels == Kernels::fast && c.positions != Positions::rotary;
}

// q, k, v, out: split (B, H, T, hd), or side by side (B, T, H hd) (heads_side_by_side's answer). bias: (bias_blocks,
// T, T) added to the scaled scores (block bh takes bias block bh % bias_blocks), or null. bias_blocks: H (one bias for
// every sentence), or B H (one per sentence: positions given). temperature: the scaled scores' (score_temperature: 1
// but with ropeScaling 'yarn').
template <class F>
void heads_forward(Activations<F>& a, Kernels kernels, F* out, F* weights, const F* q, const F* k, const F* v,
                   const Dims& d, bool side_by_side, bool causal, const F* bias, std::size_t bias_blocks,
                   double temperature) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast)
            return fast::attention_forward(out, weights, q, k, v, d.B * d.H, d.T, d.hd, causal, a.workspace, bias,
                                           bias_blocks, temperature, {side_by_side ? d.H : 0});
    attention_forward<F>(out, weights, q, k, v, d.B * d.H, d.T, d.hd, causal, bias, bias_blocks, temperature);
}

// As heads_forward; dbias: (B H, T, T), the gradient with respect to the bias, or null.
template <class F>
void heads_backward(Activations<F>& a, Kernels kernels, F* dq, F* dk, F* dv, const F* dout, const F* q, const F* k,
                    const F* v, const F* weights, const Dims& d, bool side_by_side, bool causal, F* dbias,
                    double temperature) {
    if constexpr (std::is_same_v<F, float>)
        if (kernels == Kernels::fast)
            return fast::attention_backward(dq, dk, dv, dout, q, k, v, weights, d.B * d.H, d.T, d.hd, causal,
                                            a.workspace, dbias, temperature, {side_by_side ? d.H : 0});
    attention_backward<F>(dq, dk, dv, dout, q, k, v, weights, d.B * d.H, d.T, d.hd, causal, dbias, temperature);
}

// Pointers to layer l's slice of each per-layer activation.
template <class F>
struct LayerActivations {
    F *x, *out, *ln1, *ln2, *ln1_mean, *ln1_rstd, *ln2_mean, *ln2_rstd, *q, *k, *v, *weights, *att, *mid, *hidden;
};

template <class F>
LayerActivations<F> layer_of(Activations<F>& a, const Dims& d, std::size_t l) {
    const std::size_t nd = d.N * d.D;
    return {a.x.data() + l * nd,          a.x.data() + (l + 1) * nd,    a.ln1.data() + l * nd,
            a.ln2.data() + l * nd,        a.ln1_mean.data() + l * d.N,  a.ln1_rstd.data() + l * d.N,
            a.ln2_mean.data() + l * d.N,  a.ln2_rstd.data() + l * d.N,  a.q.data() + l * nd,
            a.k.data() + l * nd,          a.v.data() + l * nd,          a.weights.data() + l * d.B * d.H * d.T * d.T,
            a.att.data() + l * nd,        a.mid.data() + l * nd,        a.hidden.data() + l * 4 * nd};
}

// Rotates q or k (B, H, T, hd) in place (transposed: the backward): today's rotary kernels for positions 0 .. T - 1
// without a ropeScaling, else the turns of the call (a.turns: per token for positions given, else per t).
template <class F>
void rotate(Activations<F>& a, const Config& c, F* x, const Dims& d, RunPositions positions, bool transposed) {
    const auto pairs = static_cast<std::size_t>(rotary_pairs(c));
    if (positions.per_token())
        return rotary_turn<F>(x, a.turns.data(), d.B, d.H, d.T, d.hd, pairs, positions.ids != nullptr, transposed);
    if (transposed) return rotary_backward<F>(x, d.B * d.H, d.T, d.hd, pairs, rotary_base(c));
    rotary_forward<F>(x, d.B * d.H, d.T, d.hd, pairs, rotary_base(c));
}

template <class F>
void block_forward(Activations<F>& a, const Config& c, const LayerView<const F>& w, const Dims& d, std::size_t l,
                   Kernels kernels, RunPositions positions) {
    const LayerActivations<F> s = layer_of(a, d, l);
    const bool per_row = positions.ids != nullptr;
    const std::size_t N = d.N, D = d.D;
    const bool side_by_side = heads_side_by_side<F>(kernels, c);
    F* proj = a.d_proj.data();  // (N, D) scratch: each projection before its heads are split
    // attention: x (N, D) -> LN1 -> q, k, v (B, H, T, hd) -> weights (B, H, T, T), heads (B, H, T, hd) -> att (N, D)
    // (q, k, v and the heads side by side, (N, D), where heads_side_by_side says: none of the splits and merges)
    norm_forward<F>(kernels, s.ln1, s.ln1_mean, s.ln1_rstd, s.x, w.norm1_gain, w.norm1_bias, N, D);
    const std::pair<const F*, F*> projections[] = {{w.wq, s.q}, {w.wk, s.k}, {w.wv, s.v}};
    for (const auto& [weight, heads] : projections) {
        linear_forward<F>(kernels, side_by_side ? heads : proj, s.ln1, weight, nullptr, N, D, D);
        if (!side_by_side) split<F>(kernels, heads, proj, d);
    }
    if (c.positions == Positions::rotary) {
        rotate<F>(a, c, s.q, d, positions, false);
        rotate<F>(a, c, s.k, d, positions, false);
    }
    F* heads_out = side_by_side ? s.att : a.d_heads.data();  // (B, H, T, hd) scratch, or att itself
    heads_forward<F>(a, kernels, heads_out, s.weights, s.q, s.k, s.v, d, side_by_side, c.causal,
                     has_score_bias(c) ? a.bias.data() : nullptr, per_row ? d.B * d.H : d.H,
                     score_temperature(positions.scaling));
    if (!side_by_side) merge<F>(kernels, s.att, heads_out, d);
    linear_forward<F>(kernels, s.mid, s.att, w.wo, nullptr, N, D, D, Then::add, s.x);  // mid = x + att Wo
    // MLP: mid (N, D) -> LN2 -> hidden (N, 4D) -> (N, D), added to mid
    norm_forward<F>(kernels, s.ln2, s.ln2_mean, s.ln2_rstd, s.mid, w.norm2_gain, w.norm2_bias, N, D);
    linear_forward<F>(kernels, s.hidden, s.ln2, w.w1, w.b1, N, D, 4 * D, Then::relu);
    linear_forward<F>(kernels, s.out, s.hidden, w.w2, w.b2, N, 4 * D, D, Then::add, s.mid);  // out = mid + ...
}

// a.d_x holds the gradient with respect to the block's output; leaves the gradient with respect to its input there.
// relative_table: the relativeBias gradient, added to (relative positions), else null.
template <class F>
void block_backward(Activations<F>& a, const Config& c, const LayerView<const F>& w, const LayerView<F>& g,
                    F* relative_table, const Dims& d, std::size_t l, Kernels kernels, RunPositions positions) {
    const LayerActivations<F> s = layer_of(a, d, l);
    const std::size_t N = d.N, D = d.D;
    F *dx = a.d_x.data(), *dln = a.d_ln.data(), *dtmp = a.d_tmp.data(), *dproj = a.d_proj.data();
    F* dhidden = a.d_hidden.data();
    // out = mid + relu(LN2(mid) W1 + b1) W2 + b2
    linear_backward<F>(a, kernels, dhidden, g.w2, g.b2, dx, s.hidden, w.w2, N, 4 * D, D, Then::relu_mask, s.hidden);
    linear_backward<F>(a, kernels, dln, g.w1, g.b1, dhidden, s.ln2, w.w1, N, D, 4 * D);
    norm_backward_add<F>(kernels, dx, g.norm2_gain, g.norm2_bias, dln, s.mid, w.norm2_gain, s.ln2_mean, s.ln2_rstd, N,
                         D, dtmp);  // dx: now the gradient with respect to mid
    // mid = x + merge(attention(q, k, v)) Wo
    const bool side_by_side = heads_side_by_side<F>(kernels, c);
    linear_backward<F>(a, kernels, dproj, g.wo, nullptr, dx, s.att, w.wo, N, D, D);
    if (!side_by_side) split<F>(kernels, a.d_heads.data(), dproj, d);
    const bool relative = c.positions == Positions::relative;
    F* dout_heads = side_by_side ? dproj : a.d_heads.data();
    heads_backward<F>(a, kernels, a.d_q.data(), a.d_k.data(), a.d_v.data(), dout_heads, s.q, s.k, s.v, s.weights, d,
                      side_by_side, c.causal, relative ? a.d_bias.data() : nullptr,
                      score_temperature(positions.scaling));
    if (relative) relative_bias_backward<F>(relative_table, a.d_bias.data(), c, d.B, d.T, positions.ids);
    if (c.positions == Positions::rotary) {
        rotate<F>(a, c, a.d_q.data(), d, positions, true);
        rotate<F>(a, c, a.d_k.data(), d, positions, true);
    }
    // q, k, v = LN1(x) Wq, Wk, Wv: their three gradients with respect to LN1(x), added in that order
    const std::tuple<const F*, F*, F*> projections[] = {
        {w.wq, g.wq, a.d_q.data()}, {w.wk, g.wk, a.d_k.data()}, {w.wv, g.wv, a.d_v.data()}};
    bool first = true;
    for (const auto& [weight, dweight, dheads] : projections) {
        if (!side_by_side) merge<F>(kernels, dproj, dheads, d);
        linear_backward<F>(a, kernels, dln, dweight, nullptr, side_by_side ? dheads : dproj, s.ln1, weight, N, D, D,
                           first ? Then::store : Then::accumulate, nullptr, dtmp);
        first = false;
    }
    norm_backward_add<F>(kernels, dx, g.norm1_gain, g.norm1_bias, dln, s.x, w.norm1_gain, s.ln1_mean, s.ln1_rstd, N, D,
                         dtmp);  // dx: now the gradient with respect to x
}

}  // namespace

std::int64_t activation_count(const Config& c, std::int64_t B, std::int64_t T, bool per_row) {
    // the formula of network.hpp, term by term
    const std::int64_t N = saturating_mul(B, T), D = c.width, L = c.layers, hd = D / c.heads;
    const std::int64_t nd = saturating_mul(N, D), R = c.readout == Readout::mean ? B : N;
    const std::int64_t per_layer = saturating_add(saturating_add(saturating_mul(12, nd), saturating_mul(4, N)),
                                                  saturating_product({B, c.heads, T, T}));
    std::int64_t total = saturating_mul(L, per_layer);
    total = saturating_add(total, saturating_add(saturating_mul(14, nd), saturating_mul(2, N)));
    total = saturating_add(total, saturating_mul(2, saturating_add(saturating_mul(B, D), saturating_mul(R, c.classes))));
    total = saturating_add(total, saturating_mul(T, D));
    total = saturating_add(total, saturating_add(saturating_product({4, D, D}), saturating_mul(D, c.classes)));
    if (has_score_bias(c)) total = saturating_add(total, saturating_product({c.heads, T, T}));
    if (c.positions == Positions::relative) total = saturating_add(total, saturating_product({B, c.heads, T, T}));
    if (per_row)
        total = saturating_add(total, saturating_add(saturating_mul(2, nd), saturating_product({B, c.heads, T, T})));
    return saturating_add(total, saturating_add(saturating_mul(hd, T), saturating_mul(T, T)));
}

namespace {

// The buffers of a, in the order of Sizes (const or not, as a is).
template <class A>
auto buffers_of(A& a) {
    return std::array{&a.x,        &a.ln1,      &a.ln2,      &a.q,        &a.k,      &a.v,      &a.att,
                      &a.mid,      &a.ln1_mean, &a.ln1_rstd, &a.ln2_mean, &a.ln2_rstd, &a.weights, &a.hidden,
                      &a.lnf,      &a.lnf_mean, &a.lnf_rstd, &a.pooled,   &a.d_pooled, &a.logits, &a.d_logits,
                      &a.d_x,      &a.d_ln,     &a.d_tmp,    &a.d_proj,   &a.d_heads, &a.d_q,    &a.d_k,
                      &a.d_v,      &a.d_hidden, &a.table,
                      &a.bias,     &a.d_bias,   &a.turns};
}

// The rows of a.table: T sinusoid rows, or N for positions given (sinusoidal: the rows by position, or a row per
// token; the learned rows are read from the table by position).
std::size_t table_rows(const Config& c, const Dims& d, bool per_row) {
    return c.positions == Positions::sinusoidal ? (per_row ? d.N : d.T) : 0;
}

// The size of each buffer for (B, T), in the order of buffers_of; and of the fast kernels' packed operands: a
// transposed weight (at most 4 D^2 or D C) or hd T + T^2 in attention.
template <class F>
struct Sizes {
    std::array<std::size_t, 34> buffers;
    std::size_t packed;
    Sizes(const Config& c, std::size_t B, std::size_t T, bool per_row) {
        const Dims d(c, B, T);
        const std::size_t nd = d.N * d.D, L = d.L, pooled = c.readout == Readout::mean ? B * d.D : 0;
        packed = std::is_same_v<F, float> ? std::max({4 * d.D * d.D, d.D * d.C, d.hd * T + T * T}) : 0;
        buffers = {(L + 1) * nd, L * nd,  L * nd,  L * nd,  L * nd,  L * nd,  L * nd,
                   L * nd,       L * d.N, L * d.N, L * d.N, L * d.N, L * B * d.H * T * T, L * 4 * nd,
                   nd,           d.N,     d.N,     pooled,  pooled,  d.R * d.C, d.R * d.C,
                   nd,           nd,      nd,      nd,      nd,      nd,      nd,
                   nd,           4 * nd,  table_rows(c, d, per_row) * d.D,
                   has_score_bias(c) ? (per_row ? B : 1) * d.H * T * T : 0,
                   c.positions == Positions::relative ? B * d.H * T * T : 0,
                   c.positions == Positions::rotary && per_row ? d.N * 2 * static_cast<std::size_t>(rotary_pairs(c)) : 0};
    }
    // whether any buffer of a must grow
    bool grows(const Activations<F>& a) const {
        bool grow = a.workspace.capacity() < packed;
        const auto held = buffers_of(a);
        for (std::size_t i = 0; i < buffers.size(); ++i) grow = grow || held[i]->capacity() < buffers[i];
        return grow;
    }
    std::int64_t bytes() const {
        std::int64_t total = static_cast<std::int64_t>(packed * sizeof(float));
        for (std::size_t size : buffers) total += static_cast<std::int64_t>(size * sizeof(F));
        return total;
    }
};

}  // namespace

template <class F>
std::int64_t held_bytes(const Activations<F>& a) noexcept {
    std::int64_t bytes = static_cast<std::int64_t>(a.workspace.capacity() * sizeof(float));
    for (const std::vector<F>* v : buffers_of(a)) bytes += static_cast<std::int64_t>(v->capacity() * sizeof(F));
    return bytes;
}

template <class F>
std::int64_t prepare_bytes(const Activations<F>& a, const Config& c, std::size_t B, std::size_t T, bool per_row) {
    const Sizes<F> sizes(c, B, T, per_row);
    return sizes.grows(a) ? std::max<std::int64_t>(0, sizes.bytes() - held_bytes(a)) : 0;
}

template <class F>
void prepare(Activations<F>& a, const Config& c, std::size_t B, std::size_t T, bool per_row) {
    const Sizes<F> sizes(c, B, T, per_row);
    if (sizes.grows(a)) a = Activations<F>{};  // release first: the old buffers never coexist with the new ones
    a.B = a.T = 0;
    const auto buffers = buffers_of(a);
    for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i]->resize(sizes.buffers[i]);
    a.workspace.resize(sizes.packed);
    if (per_row) a.table_length = 0;  // network_forward writes the rows by position, or each token's
    a.exact_rows = per_row ? std::min(a.exact_rows, a.table.size() / static_cast<std::size_t>(c.width)) : 0;
    if (c.positions == Positions::sinusoidal && !per_row && a.table_length != T) {
        a.table_length = 0;
        positions_fast<F>(a.table, static_cast<std::int64_t>(T), c.width);
        a.table_length = T;
    }
    a.B = B;
    a.T = T;
}

template <class F>
void network_forward(Activations<F>& a, const Config& c, const ParameterView<const F>& p, const std::int32_t* ids,
                     Kernels kernels, RunPositions positions) {
    const Dims d(c, a.B, a.T);
    const bool per_row = positions.ids != nullptr;
    const F* table = c.positions == Positions::sinusoidal ? a.table.data()
                     : c.positions == Positions::learned  ? p.positions
                                                          : nullptr;
    // positions given: each token reads the row of its position (the learned table's; the exact sinusoid rows of
    // 0 .. the largest position, kept in a.table from call to call), or, past N rows, its own row
    const std::int32_t* by_position = positions.ids;
    bool per_token = false;
    if (per_row && c.positions == Positions::sinusoidal) {
        const auto count = static_cast<std::size_t>(*std::max_element(positions.ids, positions.ids + d.N)) + 1;
        per_token = count > d.N;
        if (per_token || a.exact_rows < count)  // (the rows of 0 .. count - 1: token_rows at no positions)
            token_rows<F>(a.table.data(), nullptr, c, per_token ? positions.ids : nullptr,
                          per_token ? d.N : count, nullptr);
        a.exact_rows = per_token ? 0 : std::max(a.exact_rows, count);
        if (per_token) by_position = nullptr;
    }
    // rotary's turns at each token's position; or, with a ropeScaling alone, at 0 .. T - 1
    if (c.positions == Positions::rotary && positions.per_token())
        token_rows<F>(nullptr, a.turns.data(), c, positions.ids, per_row ? d.N : d.T, positions.scaling);
    input_forward<F>(a.x.data(), ids, p.embed, table, static_cast<F>(embed_factor(c)), d.B, d.T, d.D, per_token,
                     by_position);
    if (has_score_bias(c))  // every layer's: one for all sentences, or each sentence's
        score_bias<F>(a.bias.data(), c, p.relative_bias, d.B, d.T, positions.ids);
    for (std::size_t l = 0; l < d.L; ++l) block_forward<F>(a, c, p.layers[l], d, l, kernels, positions);
    const F* last = a.x.data() + d.L * d.N * d.D;
    norm_forward<F>(kernels, a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), last, p.norm_gain, p.norm_bias, d.N,
                    d.D);
    const F* features = a.lnf.data();  // (R, D): the rows the readout maps to logits
    if (c.readout == Readout::mean) {
        pool<F>(kernels, a.pooled.data(), a.lnf.data(), d);
        features = a.pooled.data();
    }
    linear_forward<F>(kernels, a.logits.data(), features, p.readout_weight, p.readout_bias, d.R, d.D, d.C);
}

template <class F>
void network_backward(Activations<F>& a, const Config& c, const ParameterView<const F>& p, const ParameterView<F>& g,
                      const std::int32_t* ids, Kernels kernels, RunPositions positions) {
    const Dims d(c, a.B, a.T);
    F* dlnf = a.d_ln.data();
    if (c.readout == Readout::mean) {
        linear_backward<F>(a, kernels, a.d_pooled.data(), g.readout_weight, g.readout_bias, a.d_logits.data(),
                           a.pooled.data(), p.readout_weight, d.B, d.D, d.C);
        pool_backward<F>(kernels, dlnf, a.d_pooled.data(), d);
    } else {
        linear_backward<F>(a, kernels, dlnf, g.readout_weight, g.readout_bias, a.d_logits.data(), a.lnf.data(),
                           p.readout_weight, d.N, d.D, d.C);
    }
    const F* last = a.x.data() + d.L * d.N * d.D;
    norm_backward<F>(kernels, a.d_x.data(), g.norm_gain, g.norm_bias, dlnf, last, p.norm_gain, a.lnf_mean.data(),
                     a.lnf_rstd.data(), d.N, d.D);
    if (g.relative_bias) std::fill(g.relative_bias, g.relative_bias + buckets(c) * c.heads, F{0});
    for (std::size_t l = d.L; l-- > 0;)
        block_backward<F>(a, c, p.layers[l], g.layers[l], g.relative_bias, d, l, kernels, positions);
    const std::size_t rows = static_cast<std::size_t>(c.max_length.value_or(0));
    input_backward<F>(g.embed, positions.ids ? nullptr : g.positions, a.d_x.data(), ids, static_cast<F>(embed_factor(c)),
                      d.B, d.T, d.D, d.V);
    if (positions.ids && g.positions) {  // each token's gradient into the row of its position
        positions_backward<F>(g.positions, a.d_x.data(), positions.ids, rows, d.N, d.D);
    } else if (g.positions) {
        // the learned table's rows past T took no part: their gradient is 0
        std::fill(g.positions + d.T * d.D, g.positions + rows * d.D, F{0});
    }
}

template std::int64_t held_bytes<double>(const Activations<double>&) noexcept;
template std::int64_t held_bytes<float>(const Activations<float>&) noexcept;
template std::int64_t prepare_bytes<double>(const Activations<double>&, const Config&, std::size_t, std::size_t,
                                            bool);
template std::int64_t prepare_bytes<float>(const Activations<float>&, const Config&, std::size_t, std::size_t, bool);
template void prepare<double>(Activations<double>&, const Config&, std::size_t, std::size_t, bool);
template void prepare<float>(Activations<float>&, const Config&, std::size_t, std::size_t, bool);
template void network_forward<double>(Activations<double>&, const Config&, const ParameterView<const double>&,
                                      const std::int32_t*, Kernels, RunPositions);
template void network_forward<float>(Activations<float>&, const Config&, const ParameterView<const float>&,
                                     const std::int32_t*, Kernels, RunPositions);
template void network_backward<double>(Activations<double>&, const Config&, const ParameterView<const double>&,
                                       const ParameterView<double>&, const std::int32_t*, Kernels,
                                       RunPositions);
template void network_backward<float>(Activations<float>&, const Config&, const ParameterView<const float>&,
                                      const ParameterView<float>&, const std::int32_t*, Kernels, RunPositions);

}  // namespace seqorder::model
