#include "attention_fast.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>

#include "f32x4.hpp"

// The microkernel's loop must stay a plain loop: V8's TurboFan hoists every load of an unrolled body and does not
// schedule for register pressure, so unrolled bodies spill their accumulators. V8 unrolls the plain loop itself,
// keeping per step 6 loads, 16 multiplies and adds in 15 xmm registers, and 3 integer instructions (two pointer
// increments, compare and branch). What bounds it on each kind of core: bench/notes/kernel.md.
#if defined(__clang__)
#define SEQORDER_PLAIN_LOOP _Pragma("clang loop unroll(disable) vectorize(disable)")
#else
#define SEQORDER_PLAIN_LOOP
#endif

namespace seqorder {
namespace {

using simd::f32x4;
using simd::i32x4;

constexpr std::size_t kRows = kFastAttentionRows;  // query rows per tile: one lane each (attention_fast.hpp)
constexpr std::size_t kCols = 8;  // keys (or value columns) per tile: two vectors of four
constexpr std::size_t kLanes = 4;  // floats per vector
constexpr std::size_t kGroup = kFastAttentionGroupRows / kRows;  // stripes that share a pass over the key and value panels
constexpr std::size_t kAlignFloats = 16;  // scratch parts start on 64-byte boundaries (a cache line)

std::size_t round_up(std::size_t n, std::size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// An uninitialized float buffer aligned for vector loads (aligned_alloc wants a size that is a multiple of the
// alignment, else it may return null).
class Floats {
public:
    explicit Floats(std::size_t count) {
        constexpr std::size_t alignment = 64;
        data_ = static_cast<float*>(std::aligned_alloc(alignment, round_up(std::max<std::size_t>(count, 1) * sizeof(float), alignment)));
        if (data_ == nullptr) throw std::bad_alloc();
    }
    ~Floats() { std::free(data_); }
    Floats(const Floats&) = delete;
    Floats& operator=(const Floats&) = delete;
    float* data() const { return data_; }

private:
    float* data_;
};

// k: (Tk, D) -> panels (ceil(Tk / 8), D, 8): the 8 keys of a panel side by side at each d; keys past Tk are zero.
// Four keys at a time, four values of d at a time: a 4 x 4 transpose of vectors.
void pack_keys(float* panels, const float* k, std::size_t Tk, std::size_t D) {
    for (std::size_t j0 = 0; j0 < Tk; j0 += kLanes) {
        float* const panel = panels + (j0 / kCols) * kCols * D + j0 % kCols;  // its keys j0 .. j0+3
        const auto value = [&](std::size_t c, std::size_t d) { return j0 + c < Tk ? k[(j0 + c) * D + d] : 0.0f; };
        const auto four = [&](std::size_t c, std::size_t d) {
            return j0 + c < Tk ? simd::load(k + (j0 + c) * D + d) : simd::splat(0.0f);
        };
        std::size_t d = 0;
        for (; d + kLanes <= D; d += kLanes) {
            f32x4 r0 = four(0, d), r1 = four(1, d), r2 = four(2, d), r3 = four(3, d);
            simd::transpose(r0, r1, r2, r3);  // r_i: the four keys at d + i
            simd::store(panel + d * kCols, r0);
            simd::store(panel + (d + 1) * kCols, r1);
            simd::store(panel + (d + 2) * kCols, r2);
            simd::store(panel + (d + 3) * kCols, r3);
        }
        for (; d < D; ++d)
            for (std::size_t c = 0; c < kLanes; ++c) panel[d * kCols + c] = value(c, d);
    }
    if (Tk % kCols != 0 && Tk % kCols <= kLanes) {  // the last panel's second half: keys past Tk
        float* const half = panels + Tk / kCols * kCols * D + kLanes;
        for (std::size_t d = 0; d < D; ++d) simd::store(half + d * kCols, simd::splat(0.0f));
    }
}

// v: (Tk, Dv) -> panels (ceil(Dv / 8), Tk, 8): 8 value columns per panel; columns past Dv are zero.
void pack_values(float* panels, const float* v, std::size_t Tk, std::size_t Dv) {
    for (std::size_t j = 0; j < Tk; ++j)
        for (std::size_t e0 = 0; e0 < Dv; e0 += kCols) {
            float* const out = panels + (e0 * Tk + j * kCols);
            const float* const in = v + j * Dv + e0;
            if (e0 + kCols <= Dv) {  // two vectors (a copy of a variable length would call memcpy)
                simd::store(out, simd::load(in));
                simd::store(out + 4, simd::load(in + 4));
                continue;
            }
            const std::size_t n = Dv - e0;
            for (std::size_t c = 0; c < n; ++c) out[c] = in[c];
            for (std::size_t c = n; c < kCols; ++c) out[c] = 0.0f;
        }
}

// rows (<= 4) query rows of width D -> (D, 4, 4), the microkernel's Splatted layout: at each d, each row's value
// splatted over four lanes (missing rows are zero). Splatted once, used by every key panel.
void pack_queries(float* packed, const float* q, std::size_t rows, std::size_t D) {
    for (std::size_t d = 0; d < D; ++d)
        for (std::size_t r = 0; r < kRows; ++r)
            simd::store(packed + (d * kRows + r) * kLanes, simd::splat(r < rows ? q[r * D + d] : 0.0f));
}

// The microkernel, for q . k^T and for weights . v alike:
//   a: (n, 4) (`A` says how it lies in memory), b: (n, 8) -> tile (4, 8) += a . b, i.e.
//   tile[r][c] += a[t][r] * b[t][c] for t = 0 .. n-1 in order.
// Row r of the tile is c[2r] (columns 0..3) and c[2r + 1] (columns 4..7): 8 accumulators, 2 loads of b and 4 of a
// (each a[t][r] in all four lanes) per step, all of it in registers.
struct Tile {
    f32x4 c[8];
};

// How a reaches the microkernel, a[t][r] splatted over four lanes:
//   Splatted: (n, 4, 4), already splatted in memory, so a step's four a vectors are plain loads (the queries);
//   Broadcast: (n, 4), each a[t][r] splatted by a load_splat, one instruction too (x64: vbroadcastss from memory; the
//   weights).
struct Splatted {
    static constexpr std::size_t step = kRows * kLanes;
    static SEQORDER_INLINE f32x4 row(const float* a, std::size_t r) { return simd::load(a + r * kLanes); }
};
struct Broadcast {
    static constexpr std::size_t step = kRows;
    static SEQORDER_INLINE f32x4 row(const float* a, std::size_t r) { return simd::load_splat(a + r); }
};

template <class A>
SEQORDER_INLINE void multiply_tile(Tile& tile, const float* a, const float* b, std::size_t n) {
    f32x4 c0 = tile.c[0], c1 = tile.c[1], c2 = tile.c[2], c3 = tile.c[3];
    f32x4 c4 = tile.c[4], c5 = tile.c[5], c6 = tile.c[6], c7 = tile.c[7];
    SEQORDER_PLAIN_LOOP
    for (const float* const end = b + n * kCols; b != end; b += kCols, a += A::step) {
        const f32x4 b0 = simd::load(b), b1 = simd::load(b + 4);
        const f32x4 a0 = A::row(a, 0);
        c0 = simd::madd(c0, a0, b0);
        c1 = simd::madd(c1, a0, b1);
        const f32x4 a1 = A::row(a, 1);
        c2 = simd::madd(c2, a1, b0);
        c3 = simd::madd(c3, a1, b1);
        const f32x4 a2 = A::row(a, 2);
        c4 = simd::madd(c4, a2, b0);
        c5 = simd::madd(c5, a2, b1);
        const f32x4 a3 = A::row(a, 3);
        c6 = simd::madd(c6, a3, b0);
        c7 = simd::madd(c7, a3, b1);
    }
    tile = {{c0, c1, c2, c3, c4, c5, c6, c7}};
}

// How scaled_scores turns a dot product into a scaled score: divided by sqrt(D) as in the reference, or, when sqrt(D)
// is a power of two (D = 1, 4, 16, 64, 256, ...), multiplied by its reciprocal, which is then exact: the same bits,
// and a multiply is several times cheaper than a divide.
class Scaling {
public:
    explicit Scaling(float sqrt_d)
        : divisor_(simd::splat(sqrt_d)),
          reciprocal_(simd::splat(1.0f / sqrt_d)),
          exact_reciprocal_(power_of_two(sqrt_d)) {}
    f32x4 operator()(f32x4 dot) const { return exact_reciprocal_ ? dot * reciprocal_ : dot / divisor_; }

private:
    // x is a normal power of two: mantissa bits 0, exponent neither 0 (zero, subnormal) nor 255 (inf, NaN).
    static bool power_of_two(float x) {
        const auto bits = __builtin_bit_cast(std::uint32_t, x);  // (std::bit_cast: not in Emscripten 3.1.6's libc++)
        const std::uint32_t exponent = (bits >> 23) & 0xffu;
        return (bits & 0x807fffffu) == 0 && exponent != 0 && exponent != 0xffu;
    }
    f32x4 divisor_, reciprocal_;
    bool exact_reciprocal_;
};

// scaled: (round_up(keys, 8), 4) <- (q . k^T) / sqrt(D) for keys 0 .. keys-1 (and the zero keys padding the last
// panel), stored one lane per query row: scaled[j][r]. Each dot product adds q_d k_d in order of d and is then divided
// by sqrt(D), as in the reference: these are the reference's scaled scores, bit for bit (in the relaxed build, whose
// multiply-add may be fused, within float32 rounding of them).
// Returns each row's maximum over the keys before `seen_by_all` (the softmax's first pass, done while the scores are
// still in registers; -infinity if there are none).
// queries: pack_queries's layout; key_panels: pack_keys's.
f32x4 scaled_scores(float* scaled, const float* queries, const float* key_panels, std::size_t keys, std::size_t D,
                    const Scaling& scale, std::size_t seen_by_all) {
    f32x4 max = simd::splat(-std::numeric_limits<float>::infinity());
    for (std::size_t j0 = 0; j0 < keys; j0 += kCols) {
        Tile t{};
        multiply_tile<Splatted>(t, queries, key_panels + j0 * D, D);
        simd::transpose(t.c[0], t.c[2], t.c[4], t.c[6]);  // keys j0 .. j0+3, one lane per row
        simd::transpose(t.c[1], t.c[3], t.c[5], t.c[7]);  // keys j0+4 .. j0+7
        // the scaled scores of keys j0 .. j0+7 (named vectors: an array would live in memory, copied with memcpy)
        const f32x4 k0 = scale(t.c[0]), k1 = scale(t.c[2]), k2 = scale(t.c[4]), k3 = scale(t.c[6]);
        const f32x4 k4 = scale(t.c[1]), k5 = scale(t.c[3]), k6 = scale(t.c[5]), k7 = scale(t.c[7]);
        float* out = scaled + j0 * kRows;
        simd::store(out + 0, k0);
        simd::store(out + 4, k1);
        simd::store(out + 8, k2);
        simd::store(out + 12, k3);
        simd::store(out + 16, k4);
        simd::store(out + 20, k5);
        simd::store(out + 24, k6);
        simd::store(out + 28, k7);
        if (j0 + kCols <= seen_by_all)  // a tree, so the running maximum waits for one pmax per panel, not eight
            max = simd::pmax(max, simd::pmax(simd::pmax(simd::pmax(k0, k1), simd::pmax(k2, k3)),
                                             simd::pmax(simd::pmax(k4, k5), simd::pmax(k6, k7))));
        else
            for (std::size_t j = j0; j < seen_by_all; ++j) max = simd::pmax(max, simd::load(scaled + j * kRows));
    }
    return max;
}

// The softmax of 4 rows at once, in place, as the reference computes it: scaled (keys, 4) -> weights
// e^(scaled - row max) / row sum, the sum taken in order of the keys. Two differences from the reference, each within
// about an ulp of a weight: e^x is a polynomial (within ~1 ulp of std::exp), and the division by the row sum is a
// multiplication by its reciprocal.
// `max` holds each row's maximum over the keys before first_masked (scaled_scores's); from first_masked on, row r sees
// key j only if j <= last_seen_by_row0 + r (the causal diagonal), and the other weights are exactly 0.
void softmax_rows(float* scaled, std::size_t keys, f32x4 max, std::size_t first_masked,
                  std::int32_t last_seen_by_row0) {
    const std::size_t unmasked = std::min(keys, first_masked);
    const i32x4 last_seen = simd::iota_i(last_seen_by_row0);  // row r sees keys 0 .. last_seen_by_row0 + r
    const auto seen = [&](std::size_t j) { return simd::less_equal(simd::splat_i(static_cast<std::int32_t>(j)), last_seen); };
    const f32x4 minus_inf = simd::splat(-std::numeric_limits<float>::infinity());

    // the row maximum over the diagonal keys each row sees
    for (std::size_t j = unmasked; j < keys; ++j)
        max = simd::pmax(max, simd::select(seen(j), simd::load(scaled + j * kRows), minus_inf));

    // e^(scaled - max), with the row max subtracted first so nothing overflows; hidden keys get exactly 0 (loops over
    // pointers: an index would cost integer instructions, which take vector ALU ports on some cores)
    const simd::ExpConstants constants = simd::exp_constants();  // once, out of the loops (f32x4.hpp)
    f32x4 sum = simd::splat(0.0f);
    float* const unmasked_end = scaled + unmasked * kRows;
    // In blocks of keys, in two passes: the first half of each key's exponential (exp_reduce), then the second. One
    // exponential is a chain of ~20 dependent operations, too long for an out-of-order core to keep enough of them in
    // flight to fill its pipes; chains half as long fill them better (bench/notes/kernel.md). Each key runs the same
    // operations in the same order, so the same bits.
    constexpr std::size_t kExpBlock = 16;
    alignas(16) float reduced[kExpBlock * kRows], two_to_the_n[kExpBlock * kRows];
    float* key = scaled;
    for (; unmasked_end - key >= static_cast<std::ptrdiff_t>(kExpBlock * kRows); key += kExpBlock * kRows) {
        for (std::size_t i = 0; i < kExpBlock; ++i) {
            const simd::ExpReduced x = simd::exp_reduce(simd::load(key + i * kRows) - max, constants);
            simd::store(reduced + i * kRows, x.r);
            simd::store(two_to_the_n + i * kRows, x.two_to_the_n);
        }
        for (std::size_t i = 0; i < kExpBlock; ++i) {
            const f32x4 w = simd::exp_finish({simd::load(reduced + i * kRows), simd::load(two_to_the_n + i * kRows)}, constants);
            simd::store(key + i * kRows, w);
            sum = sum + w;
        }
    }
    for (; key != unmasked_end; key += kRows) {
        const f32x4 w = simd::exp(simd::load(key) - max, constants);
        simd::store(key, w);
        sum = sum + w;
    }
    for (std::size_t j = unmasked; j < keys; ++j) {
        const f32x4 w = simd::keep(simd::exp(simd::load(scaled + j * kRows) - max, constants), seen(j));
        simd::store(scaled + j * kRows, w);
        sum = sum + w;
    }

    // normalized (hidden weights stay 0)
    const f32x4 reciprocal = simd::splat(1.0f) / sum;
    for (float* p = scaled; p != scaled + keys * kRows; p += kRows) simd::store(p, simd::load(p) * reciprocal);
}

// A tile into memory (one tile per value panel, parked while the weighted sum adds the diagonal keys).
constexpr std::size_t kTileFloats = kRows * kCols;
void store_tile(float* p, const Tile& t) {
    for (std::size_t i = 0; i < 8; ++i) simd::store(p + i * kLanes, t.c[i]);
}

// The scratch memory of one call, carved from one buffer (attention_fast_scratch_size floats), each part aligned to
// 64 bytes: the packed key and value panels, the packed query rows, the scaled scores of a group of stripes (as many
// stripes as the call has, up to kGroup), and the weighted sum's tile per value panel.
struct Scratch {
    float *key_panels, *value_panels, *queries, *scaled, *tiles;
    std::size_t stripe_scores;  // floats of one stripe's scaled scores: round_up(Tk, 8) x 4
    std::size_t size = 0;  // floats taken by all the parts

    // The parts laid from `base` on (base == nullptr: only measured); `size` says how many floats they take.
    Scratch(float* base, std::size_t Tq, std::size_t Tk, std::size_t D, std::size_t Dv)
        : stripe_scores(round_up(Tk, kCols) * kRows) {
        const auto part = [&](std::size_t floats) {
            float* const at = base == nullptr ? nullptr : base + size;
            size += round_up(floats, kAlignFloats);
            return at;
        };
        const std::size_t stripes = std::clamp<std::size_t>(round_up(Tq, kRows) / kRows, 1, kGroup);
        key_panels = part(round_up(Tk, kCols) * D);
        value_panels = part(round_up(Dv, kCols) * Tk);
        queries = part(D * kRows * kLanes);
        scaled = part(stripes * stripe_scores);
        tiles = part(round_up(Dv, kCols) / kCols * kTileFloats);
    }
};

// output rows (rows <= 4 of them, Dv wide) = weights . v, for weights (keys, 4) and the value panels (pack_values's
// layout, Tk keys each, of which the first `keys` are used): for each row, the terms w_j v_j added in order of j, as in
// the reference.
// The keys before first_masked go through the microkernel (the weights as they are, Broadcast), one value panel at a
// time, its tile parked in scratch.tiles (stored and reloaded exactly).
// Keys from first_masked on are on the causal diagonal (as in softmax_rows): row r adds key j only if it sees it. A
// hidden key's weight is exactly 0, but 0 * v would still turn an infinite or NaN value into NaN, so hidden keys are
// skipped rather than multiplied by 0 (a later token never changes an earlier output, as in the reference).
// Out of line in clang's output (Emscripten's link-time optimizer, Binaryen, may still inline it into its one caller).
[[gnu::noinline]] void weighted_sum(float* output, std::size_t rows, const float* weights, const float* value_panels,
                                   std::size_t keys, std::size_t first_masked, std::int32_t last_seen_by_row0,
                                   std::size_t Tk, std::size_t Dv, const Scratch& scratch) {
    const std::size_t unmasked = std::min(keys, first_masked);
    const std::size_t panels = round_up(Dv, kCols) / kCols;
    float* const tiles = scratch.tiles;
    for (std::size_t p = 0; p < panels; ++p) {
        Tile t{};
        multiply_tile<Broadcast>(t, weights, value_panels + p * Tk * kCols, unmasked);
        store_tile(tiles + p * kTileFloats, t);
    }
    // The diagonal keys and the output, from the parked tiles (row r of a tile: its 8 floats from 8r on).
    for (std::size_t p = 0; p < panels; ++p) {
        const float* panel = value_panels + p * kCols * Tk;
        float* const tile = tiles + p * kTileFloats;
        for (std::size_t j = unmasked; j < keys; ++j) {  // at most kRows - 1 diagonal keys
            const f32x4 v0 = simd::load(panel + j * kCols), v1 = simd::load(panel + j * kCols + 4);
            // row r sees key j iff j <= last_seen_by_row0 + r
            const std::int64_t first_row_seeing = static_cast<std::int64_t>(j) - last_seen_by_row0;
            const auto first_row = static_cast<std::size_t>(std::max<std::int64_t>(first_row_seeing, 0));
            for (std::size_t r = first_row; r < kRows; ++r) {
                const f32x4 w = simd::load_splat(weights + j * kRows + r);
                simd::store(tile + r * kCols, simd::madd(simd::load(tile + r * kCols), w, v0));
                simd::store(tile + r * kCols + 4, simd::madd(simd::load(tile + r * kCols + 4), w, v1));
            }
        }
        const std::size_t e0 = p * kCols, n = std::min(kCols, Dv - e0);
        for (std::size_t r = 0; r < rows; ++r) {
            float* const out = output + r * Dv + e0;
            if (n == kCols) {  // a whole panel: two vector copies (a copy of a variable length would call memcpy)
                simd::store(out, simd::load(tile + r * kCols));
                simd::store(out + 4, simd::load(tile + r * kCols + 4));
            } else {
                std::copy(tile + r * kCols, tile + r * kCols + n, out);
            }
        }
    }
}

}  // namespace

std::size_t attention_fast_scratch_size(const AttentionShape& s) {
    return Scratch(nullptr, static_cast<std::size_t>(s.queries), static_cast<std::size_t>(s.keys),
                   static_cast<std::size_t>(s.width), static_cast<std::size_t>(s.value_width))
        .size;
}

void attention_fast_rows(float* output, const float* q, const float* k, const float* v, const AttentionShape& s,
                         bool causal, std::int64_t query_start, float* scratch_memory) {
    const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
               Tk = static_cast<std::size_t>(s.keys), D = static_cast<std::size_t>(s.width),
               Dv = static_cast<std::size_t>(s.value_width);
    if (B == 0 || Tq == 0 || Dv == 0) return;
    if (Tk == 0) {  // nothing to attend to: an empty weighted sum, zeros (as the reference)
        std::fill(output, output + B * Tq * Dv, 0.0f);
        return;
    }
    const Scaling scale(static_cast<float>(std::sqrt(static_cast<double>(D))));  // sqrt(D) rounded as the reference
    const Scratch scratch(scratch_memory, Tq, Tk, D, Dv);
    for (std::size_t b = 0; b < B; ++b) {
        pack_keys(scratch.key_panels, k + b * Tk * D, Tk, D);
        pack_values(scratch.value_panels, v + b * Tk * Dv, Tk, Dv);
        // Query i0 + r sits at position query_start + i0 + r and sees keys 0 .. query_start + i0 + r: the stripe
        // needs keys up to its last row's, and masks from its first row's last key on.
        const auto position = [&](std::size_t i0) { return causal ? static_cast<std::size_t>(query_start) + i0 : 0; };
        const auto keys = [&](std::size_t i0) { return causal ? std::min(Tk, position(i0) + kRows) : Tk; };
        const auto first_masked = [&](std::size_t i0) { return causal ? position(i0) + 1 : Tk; };
        // A group of kGroup stripes: the scores and weights of each, then the weighted sum of each, so that the key
        // panels, then the value panels, are read from memory once per group and from the cache for its other stripes.
        for (std::size_t g0 = 0; g0 < Tq; g0 += kGroup * kRows) {
            const std::size_t g_end = std::min(Tq, g0 + kGroup * kRows);
            for (std::size_t i0 = g0; i0 < g_end; i0 += kRows) {
                float* const weights = scratch.scaled + (i0 - g0) / kRows * scratch.stripe_scores;
                const float* const rows = q + (b * Tq + i0) * D;
                const std::size_t row_count = std::min(kRows, Tq - i0), seen_by_all = std::min(keys(i0), first_masked(i0));
                pack_queries(scratch.queries, rows, row_count, D);
                const f32x4 max = scaled_scores(weights, scratch.queries, scratch.key_panels, keys(i0), D, scale, seen_by_all);
                softmax_rows(weights, keys(i0), max, first_masked(i0), static_cast<std::int32_t>(position(i0)));
            }
            for (std::size_t i0 = g0; i0 < g_end; i0 += kRows)
                weighted_sum(output + (b * Tq + i0) * Dv, std::min(kRows, Tq - i0),
                             scratch.scaled + (i0 - g0) / kRows * scratch.stripe_scores, scratch.value_panels, keys(i0),
                             first_masked(i0), static_cast<std::int32_t>(position(i0)), Tk, Dv, scratch);
        }
    }
}

void attention_fast(std::span<float> output, std::span<const float> q, std::span<const float> k,
                    std::span<const float> v, const AttentionShape& s, const CausalMask& mask) {
    const std::int64_t query_start = mask.causal ? mask.query_start.value_or(s.keys - s.queries) : 0;
    assert_attention_args(s, mask.causal, query_start);
    if (output.empty()) return;
    // every span its shape's size, and Tk far below 2^31 (the stripes' positions are int32): a float32 k of at most
    // 1 GiB has at most 2^28 keys
    assert(output.size() == static_cast<std::size_t>(s.batch * s.queries * s.value_width));
    assert(q.size() == static_cast<std::size_t>(s.batch * s.queries * s.width));
    assert(k.size() == static_cast<std::size_t>(s.batch * s.keys * s.width) && s.keys <= (std::int64_t{1} << 28));
    assert(v.size() == static_cast<std::size_t>(s.batch * s.keys * s.value_width));
    const Floats scratch(s.keys == 0 ? 0 : attention_fast_scratch_size(s));
    attention_fast_rows(output.data(), q.data(), k.data(), v.data(), s, mask.causal, query_start, scratch.data());
}

}  // namespace seqorder
