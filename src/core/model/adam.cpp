#include "adam.hpp"

#include <cmath>

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

// One parameter's update: m, v and p in, their new values out (step and first_not_finite share it, so what is
// checked is what is written).
template <class F>
inline void update(F& p, F& m, F& v, F g, const Rates<F>& r) {
    m = r.beta1 * m + r.rest1 * g;
    v = r.beta2 * v + r.rest2 * g * g;
    const F m_hat = m / r.correction1;
    const F v_hat = v / r.correction2;
    p -= r.rate * m_hat / (std::sqrt(v_hat) + r.eps);
}

}  // namespace

template <class F>
void Adam<F>::step(std::span<F> parameters, std::span<const F> gradients, double lr) {
    ++t_;
    beta1_power_ *= kAdamBeta1;
    beta2_power_ *= kAdamBeta2;
    const Rates<F> r(beta1_power_, beta2_power_, lr);
    for (std::size_t i = 0; i < parameters.size(); ++i) update(parameters[i], m_[i], v_[i], gradients[i], r);
}

template <class F>
std::optional<std::size_t> Adam<F>::first_not_finite(std::span<const F> parameters, std::span<const F> gradients,
                                                     double lr) const {
    const Rates<F> r(beta1_power_ * kAdamBeta1, beta2_power_ * kAdamBeta2, lr);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        F p = parameters[i], m = m_[i], v = v_[i];
        update(p, m, v, gradients[i], r);
        if (!(std::isfinite(p) && std::isfinite(m) && std::isfinite(v))) return i;
    }
    return std::nullopt;
}

template class Adam<double>;
template class Adam<float>;

}  // namespace seqorder::model
