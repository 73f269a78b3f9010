#include "adam.hpp"

#include <cmath>

namespace seqorder::model {

template <class F>
void Adam<F>::step(std::span<F> parameters, std::span<const F> gradients, double lr) {
    ++t_;
    beta1_power_ *= kAdamBeta1;
    beta2_power_ *= kAdamBeta2;
    const auto beta1 = static_cast<F>(kAdamBeta1), beta2 = static_cast<F>(kAdamBeta2);
    const auto rest1 = static_cast<F>(1.0 - kAdamBeta1), rest2 = static_cast<F>(1.0 - kAdamBeta2);
    const auto correction1 = static_cast<F>(1.0 - beta1_power_), correction2 = static_cast<F>(1.0 - beta2_power_);
    const auto eps = static_cast<F>(kAdamEps), rate = static_cast<F>(lr);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const F g = gradients[i];
        m_[i] = beta1 * m_[i] + rest1 * g;
        v_[i] = beta2 * v_[i] + rest2 * g * g;
        const F m_hat = m_[i] / correction1;
        const F v_hat = v_[i] / correction2;
        parameters[i] -= rate * m_hat / (std::sqrt(v_hat) + eps);
    }
}

template class Adam<double>;
template class Adam<float>;

}  // namespace seqorder::model
