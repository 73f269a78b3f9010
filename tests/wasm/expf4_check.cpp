// expf4 (src/core/model/expf4.hpp) against std::exp, the WebAssembly build's libm (musl's expf), bit for bit, over the
// floats whose bit patterns run from `first` to `last` (default: all 2^32 of them, about 3 minutes), four consecutive
// patterns at a time, every `stride`-th group of four (default 1: every float). Prints the number of floats checked and
// of those whose bits differ; exits 1 if any do. tests/node/expf4.test.mjs builds and runs it.
//
//   em++ -std=c++20 -O2 -msimd128 -ffp-contract=off -Isrc/core tests/wasm/expf4_check.cpp -o build-expf4/check.cjs \
//     -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 && node build-expf4/check.cjs [first last [stride]]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "model/expf4.hpp"

int main(int argc, char** argv) {
    const std::uint64_t first = argc > 2 ? std::strtoull(argv[1], nullptr, 0) : 0;
    const std::uint64_t last = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 0xffffffffu;
    const std::uint64_t stride = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 1;
    std::uint64_t checked = 0, differ = 0;
    for (std::uint64_t base = first & ~std::uint64_t{3}; base <= last; base += 4 * stride) {
        alignas(16) float x[4], got[4];
        for (int i = 0; i < 4; ++i) {
            const auto bits = static_cast<std::uint32_t>(base + static_cast<std::uint64_t>(i));
            std::memcpy(&x[i], &bits, 4);
        }
        seqorder::simd::store(got, seqorder::model::expf4(seqorder::simd::load(x)));
        for (int i = 0; i < 4; ++i) {
            const float want = std::exp(x[i]);
            ++checked;
            if (std::memcmp(&want, &got[i], 4) != 0 && !(std::isnan(want) && std::isnan(got[i]))) {
                if (++differ <= 10) std::printf("differs at %a: expf %a, expf4 %a\n", static_cast<double>(x[i]),
                                                static_cast<double>(want), static_cast<double>(got[i]));
            }
        }
    }
    std::printf("%llu floats checked, %llu differ\n", static_cast<unsigned long long>(checked),
                static_cast<unsigned long long>(differ));
    return differ == 0 ? 0 : 1;
}
