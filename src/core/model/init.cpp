#include "init.hpp"

#include "random.hpp"

namespace seqorder::model {

template <class T>
void init_parameters(std::span<T> flat, const std::vector<ParameterInfo>& layout, std::uint64_t seed) {
    SplitMix64 generator(seed);
    for (const ParameterInfo& p : layout) {
        std::span<T> values = flat.subspan(p.offset, p.size);
        for (T& x : values) {
            switch (p.init) {
                case Init::normal: x = static_cast<T>(kInitStd * generator.normal()); break;
                case Init::zeros: x = T{0}; break;
                case Init::ones: x = T{1}; break;
            }
        }
    }
}

template void init_parameters<double>(std::span<double>, const std::vector<ParameterInfo>&, std::uint64_t);
template void init_parameters<float>(std::span<float>, const std::vector<ParameterInfo>&, std::uint64_t);

}  // namespace seqorder::model
