#include "softmax.hpp"

#include <cassert>
#include <cmath>
#include <cstddef>
#include <limits>

namespace seqorder {

template <class T>
void softmax_rows(std::span<T> out, std::span<const T> x, const SoftmaxShape& s, const CausalMask& mask) {
    assert(s.batch >= 0 && s.queries >= 0 && s.keys >= 0);
    assert(!mask.causal || (mask.query_start && *mask.query_start >= 0 && *mask.query_start <= s.keys - s.queries));
    const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
               Tk = static_cast<std::size_t>(s.keys);
    const std::size_t query_start = mask.causal ? static_cast<std::size_t>(*mask.query_start) : 0;
    const T minus_inf = -std::numeric_limits<T>::infinity();
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t i = 0; i < Tq; ++i) {
            const T* row = x.data() + (b * Tq + i) * Tk;
            T* weights = out.data() + (b * Tq + i) * Tk;
            const std::size_t visible = mask.causal ? query_start + i + 1 : Tk;
            T max = minus_inf;
            for (std::size_t j = 0; j < visible; ++j) max = row[j] > max ? row[j] : max;
            if (max == minus_inf) {  // nothing to attend to: zeros, unless a NaN is among the visible entries
                bool nan = false;
                for (std::size_t j = 0; j < visible; ++j) nan = nan || std::isnan(row[j]);
                for (std::size_t j = 0; j < Tk; ++j)
                    weights[j] = nan && j < visible ? std::numeric_limits<T>::quiet_NaN() : T{0};
                continue;
            }
            T sum = 0;
            for (std::size_t j = 0; j < Tk; ++j) {
                weights[j] = j < visible ? std::exp(row[j] - max) : T{0};
                sum += weights[j];
            }
            for (std::size_t j = 0; j < visible; ++j) weights[j] /= sum;
        }
    }
}

template void softmax_rows<double>(std::span<double>, std::span<const double>, const SoftmaxShape&, const CausalMask&);
template void softmax_rows<float>(std::span<float>, std::span<const float>, const SoftmaxShape&, const CausalMask&);

}  // namespace seqorder
