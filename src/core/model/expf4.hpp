// e^x of four floats with the bits of the WebAssembly build's std::exp(float): musl's expf, which is Arm's
// optimized-routines expf (Copyright (c) 2017-2018, Arm Limited; MIT; musl src/math/expf.c and exp2f_data.c, as
// Emscripten ships them). Its steps, in double precision, two lanes at a time in f64x2, operation for operation:
//
//   z = x * 32 / ln 2;  k = z rounded to an integer (by adding and subtracting 1.5 * 2^52);  r = z - k
//   s = 2^(k / 32) = the double whose bits are T[k % 32] + (k << 47)
//   e^x = s * (C0 r^3 + C1 r^2 + C2 r + 1), computed as ((C0 r + C1) r^2 + (C2 r + 1)) s, then rounded to float
//
// Every one of them is an IEEE operation correctly rounded in any engine (no fused multiply-add: SIMD128 has none), so
// the lanes give expf's bits. A lane where |x| >= 88 or x is NaN (overflow, underflow, infinities: expf's special
// cases) sends the four to std::exp. Checked against std::exp over every float (tests/wasm/expf4_check.cpp).
//
// Outside WebAssembly (the native build) it is std::exp on each lane: the reference there is the platform's libm.
#pragma once

#include <cmath>
#include <cstdint>

#include "f32x4.hpp"

namespace seqorder::model {

#ifdef __wasm_simd128__

namespace expf4_data {

// exp2f_data.tab: tab[i] = bits(2^(i / 32)) - (i << 47)
inline constexpr std::uint64_t kTable[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
    0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
    0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
inline constexpr double kInvLn2N = 0x1.71547652b82fep+5;  // invln2_scaled: 32 / ln 2
inline constexpr double kShift = 0x1.8p+52;               // shift
inline constexpr double kC0 = 0x1.c6af84b912394p-20;      // poly_scaled: poly / 32^3, / 32^2, / 32
inline constexpr double kC1 = 0x1.ebfce50fac4f3p-13;
inline constexpr double kC2 = 0x1.62e42ff0c52d6p-6;

// Two lanes of expf, from their doubles.
SEQORDER_INLINE v128_t exp2_lanes(v128_t xd) {
    const v128_t z = wasm_f64x2_mul(wasm_f64x2_splat(kInvLn2N), xd);
    v128_t kd = wasm_f64x2_add(z, wasm_f64x2_splat(kShift));
    const v128_t ki = kd;  // its bits: k in the low bits
    kd = wasm_f64x2_sub(kd, wasm_f64x2_splat(kShift));
    const v128_t r = wasm_f64x2_sub(z, kd);
    const auto k0 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(ki, 0));
    const auto k1 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(ki, 1));
    const v128_t t = wasm_i64x2_add(wasm_i64x2_make(static_cast<std::int64_t>(kTable[k0 % 32]),
                                                    static_cast<std::int64_t>(kTable[k1 % 32])),
                                    wasm_i64x2_shl(ki, 47));
    const v128_t s = t;  // as doubles
    const v128_t z2 = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kC0), r), wasm_f64x2_splat(kC1));
    const v128_t r2 = wasm_f64x2_mul(r, r);
    v128_t y = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kC2), r), wasm_f64x2_splat(1.0));
    y = wasm_f64x2_add(wasm_f64x2_mul(z2, r2), y);
    return wasm_f64x2_mul(y, s);
}

}  // namespace expf4_data

SEQORDER_INLINE simd::f32x4 expf4(simd::f32x4 x) {
    // expf's special cases: top12(x) & 0x7ff >= top12(88.0f) (|x| >= 88, infinities, NaN)
    const v128_t abstop = wasm_v128_and(wasm_u32x4_shr(x.v, 20), wasm_i32x4_splat(0x7ff));
    if (wasm_v128_any_true(wasm_u32x4_ge(abstop, wasm_i32x4_splat(0x42b)))) {
        alignas(16) float lanes[4];
        simd::store(lanes, x);
        for (float& lane : lanes) lane = std::exp(lane);
        return simd::load(lanes);
    }
    const v128_t low = expf4_data::exp2_lanes(wasm_f64x2_promote_low_f32x4(x.v));
    const v128_t high = expf4_data::exp2_lanes(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x.v, x.v, 2, 3, 2, 3)));
    // each pair rounded to float (lanes 0, 1), then the two pairs side by side
    return {wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(low), wasm_f32x4_demote_f64x2_zero(high), 0, 1, 4, 5)};
}

#else

SEQORDER_INLINE simd::f32x4 expf4(simd::f32x4 x) {
    alignas(16) float lanes[4];
    simd::store(lanes, x);
    for (float& lane : lanes) lane = std::exp(lane);
    return simd::load(lanes);
}

#endif

}  // namespace seqorder::model
