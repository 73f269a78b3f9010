// Adam (Kingma and Ba, 2015, Algorithm 1), with bias correction, no weight decay: torch.optim.Adam's defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace seqorder::model {

inline constexpr double kAdamBeta1 = 0.9;
inline constexpr double kAdamBeta2 = 0.999;
inline constexpr double kAdamEps = 1e-8;

// Adam's state for n parameters: the moments m and v (zero at first) and the step count t.
template <class F>
class Adam {
public:
    explicit Adam(std::size_t n) : m_(n, F{0}), v_(n, F{0}) {}

    // One step, t -> t + 1. For every parameter p with gradient g, in F:
    //   m = 0.9 m + 0.1 g;  v = 0.999 v + 0.001 g g
    //   p = p - lr (m / (1 - 0.9^t)) / (sqrt(v / (1 - 0.999^t)) + 1e-8)
    // The constants are rounded to F once (0.1 is 1 - 0.9 in float64, rounded); 0.9^t and 0.999^t are running products
    // in float64 (no libm pow: the same bits on every platform), and each correction 1 - beta^t is rounded to F.
    void step(std::span<F> parameters, std::span<const F> gradients, double lr);

    // The first parameter whose new value, m or v after step(parameters, gradients, lr) would not be finite, or none:
    // the same arithmetic as step(), writing nothing, so that a step can be refused before it changes anything (in
    // float32 first a pass of bounds that show, when every value is within them, that no update can overflow).
    std::optional<std::size_t> first_not_finite(std::span<const F> parameters, std::span<const F> gradients,
                                                double lr) const;

    std::int64_t steps() const noexcept { return t_; }
    std::span<const F> first_moment() const noexcept { return m_; }
    std::span<const F> second_moment() const noexcept { return v_; }

    // Puts back a state read from first_moment(), second_moment() and steps() (a saved model): m and v must hold the
    // parameter count (the caller checks them and steps >= 0). beta^t is recomputed as step() computes it, t products
    // in float64 (ending early once both are 0, below 1e-323 after some 745,000 steps), so the next step gives the bits
    // of a model that never stopped.
    void restore(std::span<const F> m, std::span<const F> v, std::int64_t steps);

private:
    std::vector<F> m_, v_;
    double beta1_power_ = 1, beta2_power_ = 1;
    std::int64_t t_ = 0;
};

}  // namespace seqorder::model
