// Initial parameters from a seed: the same seed gives the same parameters, bit for bit, on every platform.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "parameters.hpp"

namespace seqorder::model {

inline constexpr double kInitStd = 0.02;

// flat: every parameter, laid out by `layout`. One SplitMix64 stream seeded with `seed` (random.hpp) fills the
// Init::normal parameters in the order of the layout, each row-major: value = round_to_T(0.02 * normal()), the
// product taken in float64 and rounded once (so a float32 model holds its float64 twin's values, rounded). Init::zeros
// parameters (biases) are 0 and Init::ones (LayerNorm gains) 1; they draw nothing.
template <class T>
void init_parameters(std::span<T> flat, const std::vector<ParameterInfo>& layout, std::uint64_t seed);

}  // namespace seqorder::model
