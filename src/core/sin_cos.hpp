#pragma once

#include <cmath>

namespace seqorder {

// sin x and cos x, as std::sin and std::cos give them: one argument reduction for both where the C library has sincos
// (glibc's and musl's, Emscripten's C library, compute the same kernels as their sin and cos: the same bits).
inline void sin_cos(double x, double& s, double& c) {
#if defined(__GLIBC__) || defined(__EMSCRIPTEN__)
    ::sincos(x, &s, &c);
#else
    s = std::sin(x);
    c = std::cos(x);
#endif
}

}  // namespace seqorder
