#include "adam.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "f32x4.hpp"

namespace seqorder::model {
namespace {

// The constants of step t (adam.hpp), in F.
template <class F>
struct Rates {
    F beta1, beta2, rest1, rest2, correction1, correction2, eps, rate;
    Rates(double beta1_power, double beta2_power, double lr)
        : beta1(static_cast<F>(kAdamBeta1)), beta2(static_cast<F>(kAdamBeta2)),
          rest1(static_cast<F>(1.0 - kAdamBeta1)), rest2(static_cast<F>(1.0 - kAdamBeta2)),
          correction1(static_cast<F>(1.0 - beta1_power)), correction2(static_cast<F>(1.0 - beta2_power)),
          eps(static_cast<F>(kAdamEps)), rate(static_cast<F>(lr)) {}
};

// One parameter's update (adam.hpp's formula): m, v and p in, their new values out. V is F, or simd::f32x4 for four
// float parameters at once: the same operations in the same order, each correctly rounded (no fused multiply-add), so
// a lane gives the bits of the scalar update. step and first_not_finite share it: what is checked is what is written.
template <class V, class R>
SEQORDER_INLINE void update(V& p, V& m, V& v, V g, const R& r) {
    using std::sqrt;
    using simd::sqrt;
    m = r.beta1 * m + r.rest1 * g;
    v = r.beta2 * v + r.rest2 * g * g;
    const V m_hat = m / r.correction1;
    const V v_hat = v / r.correction2;
    p = p - r.rate * m_hat / (sqrt(v_hat) + r.eps);
}

// Rates<float>'s constants in every lane, each read back from memory (simd::opaque: else the engine may make a vector
// constant again at every use in the loop, f32x4.hpp's exp_constants).
struct Rates4 {
    simd::f32x4 beta1, beta2, rest1, rest2, correction1, correction2, eps, rate;
    explicit Rates4(const Rates<float>& r)
        : beta1(lanes(r.beta1)), beta2(lanes(r.beta2)), rest1(lanes(r.rest1)), rest2(lanes(r.rest2)),
          correction1(lanes(r.correction1)), correction2(lanes(r.correction2)), eps(lanes(r.eps)), rate(lanes(r.rate)) {}
    static simd::f32x4 lanes(float x) { return simd::opaque(simd::splat(x)); }
};

// Parameters i .. n - 1, one at a time.
template <class F>
void update_scalar(F* p, F* m, F* v, const F* g, std::size_t i, std::size_t n, const Rates<F>& r) {
    for (; i < n; ++i) update(p[i], m[i], v[i], g[i], r);
}

// Whether update would make any of parameters i .. n - 1, or their moments, not finite; and the first that it would.
template <class F>
std::optional<std::size_t> first_bad(const F* p, const F* m, const F* v, const F* g, std::size_t i, std::size_t n,
                                     const Rates<F>& r) {
    for (; i < n; ++i) {
        F pi = p[i], mi = m[i], vi = v[i];
        update(pi, mi, vi, g[i], r);
        if (!(std::isfinite(pi) && std::isfinite(mi) && std::isfinite(vi))) return i;
    }
    return std::nullopt;
}

// Whether update surely leaves parameters 0 .. n4 - 1 (n4 a multiple of 4) and their moments finite, from bounds
// alone, in one pass of loads and comparisons (a fraction of the update's divisions and square roots): so it is when
// |g|, |m|, |p| <= X = 1e16, 0 <= v <= 1e33 and |lr| X <= 1e26. Then, each operation rounded within 2^-23 and the
// corrections c1 = 1 - 0.9^t >= 0.0999 and c2 = 1 - 0.999^t >= 0.000999 (t >= 1): |m'| <= 1.01e16, 0 <= v' <=
// 1.01e33, |m'| / c1 <= 10.2 X, v' / c2 <= 1.02e36, the divisor sqrt(v' / c2) + eps >= 0.99e-8, and
// |p'| <= 1e16 + 1.05 |lr| 10.2 X / 0.99e-8 <= 1e16 + 1.1e35: all far below the largest float (3.4e38). Comparing the
// bits of |x| as integers orders them as the floats and puts NaN above every bound (and -0 below 0: a v of -0 is left
// to the exact check).
bool surely_finite(const float* p, const float* m, const float* v, const float* g, std::size_t n4, double lr) {
    constexpr float kX = 1e16f, kV = 1e33f;
    if (!(std::abs(lr) * kX <= 1e26)) return false;
    const simd::i32x4 x_bound = simd::bits_of(simd::splat(kX)), v_bound = simd::bits_of(simd::splat(kV));
    const simd::i32x4 zero = simd::splat_i(0);
    simd::i32x4 ok = simd::splat_i(-1);
    for (std::size_t i = 0; i < n4; i += 4) {
        const simd::i32x4 vi = simd::bits_of(simd::load(v + i));
        ok = simd::both(ok, simd::less_equal(simd::bits_of(simd::abs(simd::load(g + i))), x_bound));
        ok = simd::both(ok, simd::less_equal(simd::bits_of(simd::abs(simd::load(m + i))), x_bound));
        ok = simd::both(ok, simd::less_equal(simd::bits_of(simd::abs(simd::load(p + i))), x_bound));
        ok = simd::both(ok, simd::both(simd::less_equal(zero, vi), simd::less_equal(vi, v_bound)));
    }
    return simd::all_true(ok);
}

}  // namespace

template <class F>
void Adam<F>::step(std::span<F> parameters, std::span<const F> gradients, double lr) {
    ++t_;
    beta1_power_ *= kAdamBeta1;
    beta2_power_ *= kAdamBeta2;
    const Rates<F> r(beta1_power_, beta2_power_, lr);
    F *p = parameters.data(), *m = m_.data(), *v = v_.data();
    const F* g = gradients.data();
    std::size_t i = 0;
    if constexpr (std::is_same_v<F, float>) {
        const Rates4 r4(r);
        for (; i + 4 <= parameters.size(); i += 4) {
            simd::f32x4 pi = simd::load(p + i), mi = simd::load(m + i), vi = simd::load(v + i);
            update(pi, mi, vi, simd::load(g + i), r4);
            simd::store(p + i, pi);
            simd::store(m + i, mi);
            simd::store(v + i, vi);
        }
    }
    update_scalar(p, m, v, g, i, parameters.size(), r);
}

template <class F>
std::optional<std::size_t> Adam<F>::first_not_finite(std::span<const F> parameters, std::span<const F> gradients,
                                                     double lr) const {
    const Rates<F> r(beta1_power_ * kAdamBeta1, beta2_power_ * kAdamBeta2, lr);
    const F *p = parameters.data(), *m = m_.data(), *v = v_.data(), *g = gradients.data();
    const std::size_t n = parameters.size();
    std::size_t i = 0;
    if constexpr (std::is_same_v<F, float>) {
        // (the step's number t + 1 >= 1: the corrections' bounds hold)
        if (surely_finite(p, m, v, g, n / 4 * 4, lr)) return first_bad(p, m, v, g, n / 4 * 4, n, r);
        // x * 0 is 0 for a finite x and NaN for an infinity or NaN: the sum of those products over a chunk is NaN
        // iff some new value in it is not finite; such a chunk is then searched one parameter at a time
        constexpr std::size_t kChunk = 256;
        const Rates4 r4(r);
        const simd::f32x4 zero = Rates4::lanes(0.0f);
        while (i + 4 <= n) {
            const std::size_t end = i + std::min(kChunk, (n - i) / 4 * 4);
            simd::f32x4 poison = zero;
            for (std::size_t j = i; j < end; j += 4) {
                simd::f32x4 pj = simd::load(p + j), mj = simd::load(m + j), vj = simd::load(v + j);
                update(pj, mj, vj, simd::load(g + j), r4);
                poison = poison + pj * zero + mj * zero + vj * zero;
            }
            bool clean = true;
            for (int lane = 0; lane < 4; ++lane) clean = clean && simd::lane(poison, lane) == 0.0f;
            if (!clean) return first_bad(p, m, v, g, i, end, r);
            i = end;
        }
    }
    return first_bad(p, m, v, g, i, n, r);
}

template <class F>
void Adam<F>::restore(std::span<const F> m, std::span<const F> v, std::int64_t steps) {
    std::copy(m.begin(), m.end(), m_.begin());
    std::copy(v.begin(), v.end(), v_.begin());
    t_ = steps;
    beta1_power_ = beta2_power_ = 1;
    for (std::int64_t t = 0; t < steps && (beta1_power_ != 0 || beta2_power_ != 0); ++t) {
        beta1_power_ *= kAdamBeta1;
        beta2_power_ *= kAdamBeta2;
    }
}

template class Adam<double>;
template class Adam<float>;

}  // namespace seqorder::model
