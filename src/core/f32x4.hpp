// Four float32 lanes for the fast kernels: WebAssembly SIMD128 when compiled with -msimd128, else a portable struct of
// four floats with the same semantics lane by lane. The blocked kernels are written once against this header, so the
// native build runs (and the native tests check) the very same blocking, packing and masking as the WebAssembly module.
//
// Only what the kernels need, with WebAssembly's semantics:
//   pmax(a, b) = a < b ? b : a   (a NaN in b is ignored, as in the reference's max)
//   masks (i32x4) are all-ones / all-zeros per lane.
// No fused multiply-add, except in the opt-in relaxed build (SEQORDER_RELAXED_FMA, see madd): the default results agree
// between the native and WebAssembly builds, bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#if defined(SEQORDER_RELAXED_FMA) && !defined(__wasm_relaxed_simd__)
#error "SEQORDER_RELAXED_FMA needs WebAssembly relaxed SIMD (-msimd128 -mrelaxed-simd)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SEQORDER_INLINE inline __attribute__((always_inline))
#else
#define SEQORDER_INLINE inline
#endif

namespace seqorder::simd {

#ifdef __wasm_simd128__

struct f32x4 { v128_t v; };
struct i32x4 { v128_t v; };  // also a lane mask

SEQORDER_INLINE f32x4 load(const float* p) { return {wasm_v128_load(p)}; }
SEQORDER_INLINE void store(float* p, f32x4 a) { wasm_v128_store(p, a.v); }
SEQORDER_INLINE f32x4 splat(float x) { return {wasm_f32x4_splat(x)}; }
SEQORDER_INLINE f32x4 load_splat(const float* p) { return {wasm_v128_load32_splat(p)}; }
SEQORDER_INLINE f32x4 operator+(f32x4 a, f32x4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
SEQORDER_INLINE f32x4 operator-(f32x4 a, f32x4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
SEQORDER_INLINE f32x4 operator*(f32x4 a, f32x4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
SEQORDER_INLINE f32x4 operator/(f32x4 a, f32x4 b) { return {wasm_f32x4_div(a.v, b.v)}; }
SEQORDER_INLINE f32x4 sqrt(f32x4 a) { return {wasm_f32x4_sqrt(a.v)}; }  // correctly rounded, as std::sqrt
// acc + a * b. The default: a multiply then an add, each rounded (bit-identical in every engine). The relaxed build:
// relaxed SIMD's multiply-add, which an engine may fuse (one rounding) or not, so results may differ between engines
// by float32 rounding. clang 14's builtin computes its first operand plus the product of the other two, and emits the
// proposal's pre-standard opcode; scripts/relaxed-rewrite.mjs turns that into the final f32x4.relaxed_madd after
// linking.
SEQORDER_INLINE f32x4 madd(f32x4 acc, f32x4 a, f32x4 b) {
#ifdef SEQORDER_RELAXED_FMA
    return {reinterpret_cast<v128_t>(__builtin_wasm_fma_f32x4(reinterpret_cast<__f32x4>(acc.v), reinterpret_cast<__f32x4>(a.v),
                                                              reinterpret_cast<__f32x4>(b.v)))};
#else
    return {wasm_f32x4_add(acc.v, wasm_f32x4_mul(a.v, b.v))};
#endif
}
SEQORDER_INLINE f32x4 pmax(f32x4 a, f32x4 b) { return {wasm_f32x4_pmax(a.v, b.v)}; }
// a where the mask is set, else b
SEQORDER_INLINE f32x4 select(i32x4 mask, f32x4 a, f32x4 b) { return {wasm_v128_bitselect(a.v, b.v, mask.v)}; }
// a where the mask is set, else +0
SEQORDER_INLINE f32x4 keep(f32x4 a, i32x4 mask) { return {wasm_v128_and(a.v, mask.v)}; }

SEQORDER_INLINE i32x4 splat_i(std::int32_t x) { return {wasm_i32x4_splat(x)}; }
SEQORDER_INLINE i32x4 iota_i(std::int32_t x) { return {wasm_i32x4_make(x, x + 1, x + 2, x + 3)}; }
SEQORDER_INLINE i32x4 shift_left(i32x4 a, int bits) { return {wasm_i32x4_shl(a.v, static_cast<std::uint32_t>(bits))}; }
SEQORDER_INLINE i32x4 less_equal(i32x4 a, i32x4 b) { return {wasm_i32x4_le(a.v, b.v)}; }
SEQORDER_INLINE i32x4 greater(f32x4 a, f32x4 b) { return {wasm_f32x4_gt(a.v, b.v)}; }  // false where either is NaN
SEQORDER_INLINE f32x4 abs(f32x4 a) { return {wasm_f32x4_abs(a.v)}; }  // the sign bit cleared
SEQORDER_INLINE i32x4 both(i32x4 a, i32x4 b) { return {wasm_v128_and(a.v, b.v)}; }
SEQORDER_INLINE bool all_true(i32x4 mask) { return wasm_i32x4_all_true(mask.v); }
SEQORDER_INLINE i32x4 bits_of(f32x4 a) { return {a.v}; }
SEQORDER_INLINE f32x4 float_of(i32x4 a) { return {a.v}; }
// a, stored to memory and read back as a whole vector (a volatile copy): a value neither compiler can see through or
// fold into a constant. (Not a volatile float then splatted: clang 14 turns that into a load_splat that it moves past
// the other volatile stores, reading the wrong float.)
SEQORDER_INLINE f32x4 opaque(f32x4 a) {
    volatile v128_t copy = a.v;
    return {copy};
}

// Rows r0..r3 of a 4 x 4 block -> its columns (c0 = (r0[0], r1[0], r2[0], r3[0]), ...).
SEQORDER_INLINE void transpose(f32x4& r0, f32x4& r1, f32x4& r2, f32x4& r3) {
    const v128_t t0 = wasm_i32x4_shuffle(r0.v, r1.v, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0.v, r1.v, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(r2.v, r3.v, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2.v, r3.v, 2, 6, 3, 7);
    r0.v = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
    r1.v = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
    r2.v = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
    r3.v = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

#else  // portable fallback: the same operations, one lane at a time

struct f32x4 { float lane[4]; };
struct i32x4 { std::int32_t lane[4]; };

// A vector of type V whose lane i is f(i).
template <class V, class F>
SEQORDER_INLINE V lanes(F f) {
    V r{};
    for (int i = 0; i < 4; ++i) r.lane[i] = f(i);
    return r;
}

SEQORDER_INLINE f32x4 load(const float* p) { return lanes<f32x4>([&](int i) { return p[i]; }); }
SEQORDER_INLINE void store(float* p, f32x4 a) { for (int i = 0; i < 4; ++i) p[i] = a.lane[i]; }
SEQORDER_INLINE f32x4 splat(float x) { return {{x, x, x, x}}; }
SEQORDER_INLINE f32x4 load_splat(const float* p) { return splat(*p); }
SEQORDER_INLINE f32x4 operator+(f32x4 a, f32x4 b) { return lanes<f32x4>([&](int i) { return a.lane[i] + b.lane[i]; }); }
SEQORDER_INLINE f32x4 operator-(f32x4 a, f32x4 b) { return lanes<f32x4>([&](int i) { return a.lane[i] - b.lane[i]; }); }
SEQORDER_INLINE f32x4 operator*(f32x4 a, f32x4 b) { return lanes<f32x4>([&](int i) { return a.lane[i] * b.lane[i]; }); }
SEQORDER_INLINE f32x4 operator/(f32x4 a, f32x4 b) { return lanes<f32x4>([&](int i) { return a.lane[i] / b.lane[i]; }); }
SEQORDER_INLINE f32x4 sqrt(f32x4 a) { return lanes<f32x4>([&](int i) { return std::sqrt(a.lane[i]); }); }
SEQORDER_INLINE f32x4 madd(f32x4 acc, f32x4 a, f32x4 b) { return lanes<f32x4>([&](int i) { return acc.lane[i] + a.lane[i] * b.lane[i]; }); }
SEQORDER_INLINE f32x4 pmax(f32x4 a, f32x4 b) {
    return lanes<f32x4>([&](int i) { return a.lane[i] < b.lane[i] ? b.lane[i] : a.lane[i]; });
}
SEQORDER_INLINE f32x4 select(i32x4 mask, f32x4 a, f32x4 b) {
    return lanes<f32x4>([&](int i) { return mask.lane[i] ? a.lane[i] : b.lane[i]; });
}
SEQORDER_INLINE f32x4 keep(f32x4 a, i32x4 mask) { return lanes<f32x4>([&](int i) { return mask.lane[i] ? a.lane[i] : 0.0f; }); }

SEQORDER_INLINE i32x4 splat_i(std::int32_t x) { return {{x, x, x, x}}; }
SEQORDER_INLINE i32x4 iota_i(std::int32_t x) { return {{x, x + 1, x + 2, x + 3}}; }
// wrap-around like WebAssembly's i32x4.shl (computed in unsigned arithmetic: no signed overflow)
SEQORDER_INLINE std::int32_t wrap(std::uint32_t x) { return static_cast<std::int32_t>(x); }
SEQORDER_INLINE std::uint32_t bits(std::int32_t x) { return static_cast<std::uint32_t>(x); }
SEQORDER_INLINE i32x4 shift_left(i32x4 a, int n) { return lanes<i32x4>([&](int i) { return wrap(bits(a.lane[i]) << n); }); }
SEQORDER_INLINE i32x4 less_equal(i32x4 a, i32x4 b) {
    return lanes<i32x4>([&](int i) { return a.lane[i] <= b.lane[i] ? std::int32_t{-1} : std::int32_t{0}; });
}
SEQORDER_INLINE i32x4 greater(f32x4 a, f32x4 b) {
    return lanes<i32x4>([&](int i) { return a.lane[i] > b.lane[i] ? std::int32_t{-1} : std::int32_t{0}; });
}
SEQORDER_INLINE f32x4 abs(f32x4 a) { return lanes<f32x4>([&](int i) { return std::fabs(a.lane[i]); }); }
SEQORDER_INLINE i32x4 both(i32x4 a, i32x4 b) { return lanes<i32x4>([&](int i) { return a.lane[i] & b.lane[i]; }); }
SEQORDER_INLINE bool all_true(i32x4 mask) { return mask.lane[0] && mask.lane[1] && mask.lane[2] && mask.lane[3]; }
// (__builtin_bit_cast: std::bit_cast is not in Emscripten 3.1.6's libc++, which builds this code with SEQORDER_SIMD off)
SEQORDER_INLINE i32x4 bits_of(f32x4 a) { return lanes<i32x4>([&](int i) { return __builtin_bit_cast(std::int32_t, a.lane[i]); }); }
SEQORDER_INLINE f32x4 float_of(i32x4 a) { return lanes<f32x4>([&](int i) { return __builtin_bit_cast(float, a.lane[i]); }); }
SEQORDER_INLINE f32x4 opaque(f32x4 a) {
    return lanes<f32x4>([&](int i) {
        volatile float copy = a.lane[i];
        return copy;
    });
}

SEQORDER_INLINE void transpose(f32x4& r0, f32x4& r1, f32x4& r2, f32x4& r3) {
    const f32x4 rows[4] = {r0, r1, r2, r3};
    f32x4* cols[4] = {&r0, &r1, &r2, &r3};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) cols[c]->lane[r] = rows[r].lane[c];
}

#endif

// Lane i (0..3) of a.
SEQORDER_INLINE float lane(f32x4 a, int i) {
    alignas(16) float l[4];
    store(l, a);
    return l[i];
}

// The constants of exp (below), as vectors: an argument of exp, built once by exp_constants() before the loop that calls
// it.
struct ExpConstants {
    f32x4 lowest, magic, log2e, minus_ln2_hi, ln2_lo, p0, p1, p2, p3, p4, one, floor;
};

// exp's constants, each read back from memory (opaque) so that the engine compiling the WebAssembly cannot take them for
// constants: an engine may materialize a vector constant at every use in a loop (newer V8 does, in instructions on the
// vector ports), while values computed before the loop stay in registers or come back from the stack (one load each;
// bench/notes/kernel.md).
inline ExpConstants exp_constants() {
    const auto v = [](float x) { return opaque(splat(x)); };
    return {v(-104.0f), v(12583039.0f) /* 1.5 * 2^23 + 127 */, v(1.44269504088896341f), v(-0.693359375f),
            v(2.12194440e-4f), v(1.381461741e-3f), v(8.368710056e-3f), v(4.166838899e-2f), v(1.666652113e-1f),
            v(4.999999404e-1f), v(1.0f), v(12582912.0f) /* 1.5 * 2^23: n + 127 >= 0 */};
}

// e^x lane by lane, for the softmax's x <= 0 (valid up to x = 88): within 1 ulp of the correctly rounded float where
// that is a normal float (x >= ln(FLT_MIN) ~ -87.34), then the subnormals of 2^-126 e^r down to x ~ -87.68, and 0
// below (and for -infinity): a softmax weight under 2^-126.5 ~ 8e-39 becomes 0 where std::exp would give a
// subnormal. NaN stays NaN.
//   x = n ln2 + r with n = round(x / ln2) and |r| <= ln2 / 2 (Cody-Waite: ln2 split in two so n * ln2_hi is exact);
//   e^r = 1 + r + r^2 P(r), P of degree 4: a degree-6 polynomial, its coefficients fitted to e^r's relative error on
//   [-ln2/2, ln2/2] (reweighted least squares on Chebyshev nodes, numpy): 3e-9 in exact arithmetic, <= 0.8 ulp
//   evaluated in float32;
//   2^n built in the exponent field: adding 1.5 * 2^23 + 127 to x log2(e) leaves n + 127 (rounded half to even) in the
//   low bits of the sum's mantissa, and shifting those bits left by 23 makes them the exponent of 2^n (the sum's own
//   exponent and leading bits shift out). Floored at n + 127 = 0, that exponent makes 2^n = 0 where n < -126.
// Two pmax and no masks: x is floored at -104 (e^-104 rounds to 0 in float32) so that -infinity gives 0, not NaN.
// Every multiply-add is simd::madd, so the relaxed build fuses them and the default one computes exactly the expression
// written.
// exp_reduce and exp_finish are its two halves, for a loop of many exponentials that runs them in two passes
// (softmax_rows): x reduced to r and 2^n, then e^r 2^n. exp(x) is exp_finish(exp_reduce(x)).
struct ExpReduced {
    f32x4 r, two_to_the_n;
};

SEQORDER_INLINE ExpReduced exp_reduce(f32x4 x, const ExpConstants& k) {
    x = pmax(x, k.lowest);
    const f32x4 shifted = madd(k.magic, x, k.log2e);
    const f32x4 n = shifted - k.magic;
    const f32x4 r = madd(madd(x, n, k.minus_ln2_hi), n, k.ln2_lo);
    const f32x4 floored = pmax(shifted, k.floor);
    return {r, float_of(shift_left(bits_of(floored), 23))};
}

SEQORDER_INLINE f32x4 exp_finish(ExpReduced x, const ExpConstants& k) {
    const f32x4 r = x.r;
    f32x4 p = k.p0;
    p = madd(k.p1, p, r);
    p = madd(k.p2, p, r);
    p = madd(k.p3, p, r);
    p = madd(k.p4, p, r);
    const f32x4 e_r = madd(r, p, r * r) + k.one;
    return e_r * x.two_to_the_n;
}

SEQORDER_INLINE f32x4 exp(f32x4 x, const ExpConstants& k) { return exp_finish(exp_reduce(x, k), k); }

// e^x, its constants built here (for a call outside a loop).
SEQORDER_INLINE f32x4 exp(f32x4 x) { return exp(x, exp_constants()); }

}  // namespace seqorder::simd
