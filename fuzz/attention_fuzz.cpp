// libFuzzer target: scaled dot-product attention, the reference's four steps and (float32) the fast fused path.
//   attention_steps<T> / attention<T> (Tensor API, ranks 2 and 3, mismatched shapes), attention_reference<T> (span
//   API, as the WebAssembly binding calls it, with and without the steps), attention_fast (float32, both APIs, spans
//   sometimes of the wrong length); causal or not, queryStart unset, in range or out of it; q, k, v holding NaN,
//   infinities, subnormals and huge values.
// Invariants:
//   - throws iff the shapes disagree, D < 1, or the causal mask is impossible (Tk < Tq, queryStart outside
//     0..Tk-Tq, or given without causal) (invalid_argument), or a result is beyond 1 GiB (length_error); never anything else;
//   - masked entries: scaled exactly -inf and weights exactly 0, whatever the values (NaN included);
//   - Tk = 0: output exactly 0;
//   - a query row whose inputs (its q row and the visible keys' k and v) are finite and moderate: scores equal the
//     long-double dot products within float rounding, scaled = scores / sqrt(D), weights finite in [0, 1] summing to
//     1 and equal to the long-double softmax of scaled, output finite, inside the visible values' range and equal to
//     the long-double weighted sum, whatever masked keys hold (nothing leaks from the future);
//   - the Tensor API, the span API with and without steps give bit-identical outputs;
//   - attention_fast's output equals the reference's within a bound that follows the scores' magnitude (moderate
//     inputs), and it throws exactly when the reference does (plus spans of the wrong length).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "attention.hpp"
#include "fuzz_input.hpp"
#if __has_include("attention_fast.hpp")
#include "attention_fast.hpp"
#define SEQORDER_FUZZ_FAST 1
#endif

namespace {

using namespace seqorder_fuzz;
using seqorder::AttentionShape;
using seqorder::CausalMask;

// |x| up to this is "moderate": products of D of them cannot overflow float32 for any D this target draws.
constexpr double kModerate = 1e4;

template <class T>
bool moderate(const T* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!std::isfinite(x[i]) || std::fabs(static_cast<double>(x[i])) > kModerate) return false;
    return true;
}

std::optional<std::int64_t> draw_query_start(Input& in, std::int64_t Tq, std::int64_t Tk) {
    switch (in.byte() % 8) {
        case 0: case 1: case 2: return std::nullopt;
        // computed wide, then wrapped to 64 bits as a caller's arithmetic would
        case 3: return static_cast<std::int64_t>(static_cast<__int128>(Tk) - Tq);
        case 4: return 0;
        case 5: return static_cast<std::int64_t>(static_cast<__int128>(Tk) - Tq + 1);
        case 6: return -1;
        default: return in.size(8);
    }
}

// Everything about one call, decided before it.
struct Call {
    AttentionShape s;
    CausalMask mask;
    std::int64_t query_start = 0;  // in force, when valid
    bool mask_ok = false;          // D >= 1 and the mask is possible (check_attention_args's rule, restated)
};

Call decide(const AttentionShape& s, const CausalMask& mask) {
    Call c{s, mask, 0, false};
    if (s.batch < 0 || s.queries < 0 || s.keys < 0 || s.value_width < 0 || s.width < 1) return c;
    if (!mask.causal) {
        c.mask_ok = !mask.query_start;  // a queryStart without causal is a mistake, refused
        return c;
    }
    if (s.keys < s.queries) return c;
    const std::int64_t qs = mask.query_start.value_or(s.keys - s.queries);
    c.query_start = qs;
    c.mask_ok = qs >= 0 && qs <= s.keys - s.queries;
    return c;
}

std::string describe(const Call& c, bool f32) {
    return "attention(B " + std::to_string(c.s.batch) + ", Tq " + std::to_string(c.s.queries) + ", Tk " +
           std::to_string(c.s.keys) + ", D " + std::to_string(c.s.width) + ", Dv " + std::to_string(c.s.value_width) +
           (c.mask.causal ? ", causal" : "") +
           (c.mask.query_start ? ", queryStart " + std::to_string(*c.mask.query_start) : "") +
           (f32 ? ", float32)" : ", float64)");
}

// Checks the steps and output of the reference for every query row (see the invariants above).
template <class T>
void check_steps(const Call& c, const T* q, const T* k, const T* v, const T* scores, const T* scaled, const T* weights,
                 const T* output, const std::string& what) {
    const auto B = static_cast<std::size_t>(c.s.batch), Tq = static_cast<std::size_t>(c.s.queries),
               Tk = static_cast<std::size_t>(c.s.keys), D = static_cast<std::size_t>(c.s.width),
               Dv = static_cast<std::size_t>(c.s.value_width);
    const double eps = std::numeric_limits<T>::epsilon();
    const double tiny = std::numeric_limits<T>::denorm_min();
    const double sqrt_d = std::sqrt(static_cast<double>(D));
    if (Tq == 0) return;  // no rows (B may be anything then)
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < Tq; ++i) {
            const std::size_t row = (b * Tq + i) * Tk;
            const std::size_t visible = c.mask.causal ? static_cast<std::size_t>(c.query_start) + i + 1 : Tk;
            const std::string at = what + ": batch " + std::to_string(b) + " query " + std::to_string(i);
            for (std::size_t j = visible; j < Tk; ++j) {
                FUZZ_CHECK(scaled[row + j] == -std::numeric_limits<T>::infinity(), at + ": masked key " + std::to_string(j) + " scaled is not -inf");
                FUZZ_CHECK(weights[row + j] == 0, at + ": masked key " + std::to_string(j) + " weight " + str(weights[row + j]));
            }
            const T* out = output + (b * Tq + i) * Dv;
            if (Tk == 0) {
                for (std::size_t e = 0; e < Dv; ++e) FUZZ_CHECK(out[e] == 0, at + ": Tk = 0 but output is " + str(out[e]));
                continue;
            }
            const T* qi = q + (b * Tq + i) * D;
            const T* kb = k + b * Tk * D;
            const T* vb = v + b * Tk * Dv;
            if (!moderate(qi, D) || !moderate(kb, visible * D) || !moderate(vb, visible * Dv)) continue;

            // 1-2. scores and scaled, against long double
            for (std::size_t j = 0; j < visible; ++j) {
                long double dot = 0, magnitude = 0;
                for (std::size_t d = 0; d < D; ++d) {
                    dot += static_cast<long double>(qi[d]) * kb[j * D + d];
                    magnitude += std::fabs(static_cast<long double>(qi[d]) * kb[j * D + d]);
                }
                const double tol = static_cast<double>(D) * eps * static_cast<double>(magnitude) * 1.01 + D * tiny;
                FUZZ_CHECK(std::fabs(static_cast<double>(scores[row + j]) - static_cast<double>(dot)) <= tol,
                           at + " key " + std::to_string(j) + ": score " + str(scores[row + j]) + ", long double " +
                               str(static_cast<double>(dot)) + " within " + str(tol));
                const double want_scaled = static_cast<double>(scores[row + j]) / sqrt_d;
                FUZZ_CHECK(std::fabs(static_cast<double>(scaled[row + j]) - want_scaled) <= 2 * eps * std::fabs(want_scaled) + tiny,
                           at + " key " + std::to_string(j) + ": scaled " + str(scaled[row + j]) + " is not score / sqrt(D) = " + str(want_scaled));
            }
            // 3. weights: the softmax of the core's own scaled row, in long double
            long double max = -std::numeric_limits<long double>::infinity(), sum = 0, weight_sum = 0;
            for (std::size_t j = 0; j < visible; ++j) max = std::fmax(max, static_cast<long double>(scaled[row + j]));
            for (std::size_t j = 0; j < visible; ++j) sum += std::exp(static_cast<long double>(scaled[row + j]) - max);
            for (std::size_t j = 0; j < visible; ++j) {
                const T w = weights[row + j];
                const long double want = std::exp(static_cast<long double>(scaled[row + j]) - max) / sum;
                FUZZ_CHECK(std::isfinite(w) && w >= 0 && w <= 1, at + " key " + std::to_string(j) + ": weight " + str(w));
                // exp turns the rounding of scaled - max (up to eps |scaled - max| absolute) into a relative error.
                const long double exponent = std::fabs(static_cast<long double>(scaled[row + j]) - max);
                FUZZ_CHECK(std::fabs(static_cast<long double>(w) - want) <= (4 + visible + exponent) * eps * want + tiny,
                           at + " key " + std::to_string(j) + ": weight " + str(w) + ", long double softmax " +
                               str(static_cast<double>(want)));
                weight_sum += w;
            }
            FUZZ_CHECK(std::fabs(static_cast<double>(weight_sum) - 1) <= 2 * (visible + 2) * eps,
                       at + ": weights sum to " + str(static_cast<double>(weight_sum)));
            // 4. output: the weighted sum of the visible values, in long double, and inside their range
            for (std::size_t e = 0; e < Dv; ++e) {
                long double want = 0, lo = std::numeric_limits<long double>::infinity(), hi = -lo, scale = 0;
                for (std::size_t j = 0; j < visible; ++j) {
                    const long double x = vb[j * Dv + e];
                    want += static_cast<long double>(weights[row + j]) * x;
                    lo = std::fmin(lo, x);
                    hi = std::fmax(hi, x);
                    scale = std::fmax(scale, std::fabs(x));
                }
                const double tol = static_cast<double>((visible + 1) * eps * scale) + visible * tiny;
                FUZZ_CHECK(std::isfinite(out[e]) && std::fabs(static_cast<long double>(out[e]) - want) <= tol,
                           at + " column " + std::to_string(e) + ": output " + str(out[e]) + ", long double " +
                               str(static_cast<double>(want)) + " within " + str(tol));
                FUZZ_CHECK(out[e] >= lo - tol && out[e] <= hi + tol,
                           at + " column " + std::to_string(e) + ": output " + str(out[e]) + " outside the values' range [" +
                               str(static_cast<double>(lo)) + ", " + str(static_cast<double>(hi)) + "]");
            }
        }
}

template <class T>
void run(Input& in) {
    const bool f32 = sizeof(T) == 4;
    const int rank = in.flag() ? 3 : 2;
    AttentionShape s;
    s.batch = rank == 3 ? in.size(3) : 1;
    s.queries = in.size(9);
    s.keys = in.size(9);
    s.width = in.size(9);
    s.value_width = in.size(9);
    CausalMask mask;
    mask.causal = in.flag();
    mask.query_start = draw_query_start(in, s.queries, s.keys);
    // A shape mismatch for the Tensor API: 0 none, 1 k's D, 2 v's Tk, 3 k's batch.
    int mismatch = in.byte() % 16 < 13 ? 0 : 1 + in.byte() % 3;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (s.width == kMax || s.keys == kMax || s.batch == kMax) mismatch = 0;  // no room to make a dimension disagree
    const Call c = decide(s, mask);
    const std::string call = describe(c, f32) + (mismatch ? " mismatch " + std::to_string(mismatch) : "");

    if (s.batch < 0 || s.queries < 0 || s.keys < 0 || s.width < 0 || s.value_width < 0) {
        // Only the span API can be given negative sizes: the check must refuse them before touching memory.
        expect_outcome({.invalid_argument = true}, [&] { seqorder::check_attention_args(s, mask); }, call);
        return;
    }
    const std::int64_t nq = saturating_product({s.batch, s.queries, s.width}),
                       nk = saturating_product({s.batch, s.keys, s.width}),
                       nv = saturating_product({s.batch, s.keys, s.value_width}),
                       nw = saturating_product({s.batch, s.queries, s.keys}),
                       no = saturating_product({s.batch, s.queries, s.value_width});
    // Only shapes a caller could back with data: q, k, v (and, for the steps, the weights) within the budget.
    if (nq > kMaxElements || nk > kMaxElements || nv > kMaxElements) return;
    const bool small = nw <= kMaxElements && no <= kMaxElements &&
                       saturating_product({s.batch, s.queries, s.keys, s.width}) +
                               saturating_product({s.batch, s.queries, s.keys, s.value_width}) <= kMaxWork;

    auto shape = [&](std::int64_t batch, std::int64_t rows, std::int64_t cols) {
        seqorder::Shape sh{static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)};
        if (rank == 3) sh.insert(sh.begin(), static_cast<std::size_t>(batch));
        return sh;
    };
    const std::int64_t k_batch = mismatch == 3 && rank == 3 ? s.batch + 1 : s.batch, k_width = s.width + (mismatch == 1),
                       v_keys = s.keys + (mismatch == 2);
    if (saturating_product({k_batch, s.keys, k_width}) > kMaxElements || saturating_product({s.batch, v_keys, s.value_width}) > kMaxElements)
        return;  // the mismatched k or v would be too big to back with data
    seqorder::Tensor<T> q(shape(s.batch, s.queries, s.width));
    seqorder::Tensor<T> k(shape(k_batch, s.keys, k_width));
    seqorder::Tensor<T> v(shape(s.batch, v_keys, s.value_width));
    const bool real_mismatch = mismatch == 1 || mismatch == 2 || (mismatch == 3 && rank == 3);
    in.fill<T>(q.data());
    in.fill<T>(k.data());
    in.fill<T>(v.data());

    // Tensor API: shapes, then the mask, then the results' size.
    const bool steps_too_big = beyond_tensor_limit({s.batch, s.queries, s.keys}, sizeof(T)) ||
                               beyond_tensor_limit({s.batch, s.queries, s.value_width}, sizeof(T));
    const bool output_too_big = beyond_tensor_limit({s.batch, s.queries, s.value_width}, sizeof(T));
    const bool args_ok = !real_mismatch && c.mask_ok;
    const bool run_steps = small || steps_too_big || nw == 0;
    seqorder::AttentionSteps<T> steps;
    seqorder::Tensor<T> output;
    bool steps_ok = false, output_ok = false;
    if (run_steps || !args_ok)
        steps_ok = expect_outcome({.invalid_argument = !args_ok, .length_error = args_ok && steps_too_big},
                                  [&] { steps = seqorder::attention_steps<T>(q, k, v, mask); }, "attention_steps " + call);
    if (small || output_too_big || !args_ok)
        output_ok = expect_outcome({.invalid_argument = !args_ok, .length_error = args_ok && output_too_big},
                                   [&] { output = seqorder::attention<T>(q, k, v, mask); }, "attention " + call);
    if (real_mismatch || !c.mask_ok || !small) {
#ifdef SEQORDER_FUZZ_FAST
        // The fast path refuses what the reference refuses; an empty output is fine whatever the other sizes.
        if constexpr (sizeof(T) == 4)
            if (!real_mismatch && (!c.mask_ok || no == 0))
                expect_outcome({.invalid_argument = !c.mask_ok}, [&] { seqorder::attention_fast(q, k, v, mask); },
                               "attention_fast " + call);
#endif
        return;
    }

    // Span API, as the binding calls it: with all steps, then output only (the reference's own row buffers).
    std::vector<T> scores(static_cast<std::size_t>(nw)), scaled(scores.size()), weights(scores.size()),
        out(static_cast<std::size_t>(no)), out_only(out.size());
    expect_outcome({}, [&] {
        seqorder::attention_reference<T>({scores, scaled, weights, out}, q.data(), k.data(), v.data(), s, mask);
    }, "attention_reference with steps " + call);
    expect_outcome({}, [&] {
        seqorder::attention_reference<T>({{}, {}, {}, out_only}, q.data(), k.data(), v.data(), s, mask);
    }, "attention_reference " + call);
    check_steps<T>(c, q.data().data(), k.data().data(), v.data().data(), scores.data(), scaled.data(), weights.data(),
                   out.data(), call);
    for (std::size_t j = 0; j < out.size(); ++j) {
        FUZZ_CHECK(same_value(out[j], out_only[j]), call + ": output with and without steps differ at " + std::to_string(j));
        if (output_ok) FUZZ_CHECK(same_value(out[j], output.data()[j]), call + ": attention() differs at " + std::to_string(j));
        if (steps_ok) FUZZ_CHECK(same_value(out[j], steps.output.data()[j]), call + ": attention_steps() differs at " + std::to_string(j));
    }
    if (steps_ok)
        for (std::size_t j = 0; j < weights.size(); ++j)
            FUZZ_CHECK(same_value(weights[j], steps.weights.data()[j]) && same_value(scaled[j], steps.scaled.data()[j]) &&
                           same_value(scores[j], steps.scores.data()[j]),
                       call + ": attention_steps() steps differ at " + std::to_string(j));

#ifdef SEQORDER_FUZZ_FAST
    if constexpr (sizeof(T) == 4) {
        // Spans of the wrong length (one element short) must be refused, not read past.
        const int short_span = in.byte() % 16 < 14 ? 0 : 1 + in.byte() % 4;
        std::vector<float> fast(out.size());
        std::span<float> fast_out(fast);
        std::span<const float> fq = q.data(), fk = k.data(), fv = v.data();
        const auto shorten = [](auto sp) { return sp.empty() ? sp : sp.first(sp.size() - 1); };
        bool refused_short = false;
        if (short_span == 1 && !fast_out.empty()) fast_out = shorten(fast_out), refused_short = true;
        if (short_span == 2 && !fq.empty()) fq = shorten(fq), refused_short = true;
        if (short_span == 3 && !fk.empty()) fk = shorten(fk), refused_short = true;
        if (short_span == 4 && !fv.empty()) fv = shorten(fv), refused_short = true;
        if (!expect_outcome({.invalid_argument = refused_short},
                            [&] { seqorder::attention_fast(fast_out, fq, fk, fv, s, mask); }, "attention_fast " + call))
            return;
        seqorder::Tensor<float> fast_tensor = seqorder::attention_fast(q, k, v, mask);
        const auto B = static_cast<std::size_t>(s.batch), Tq = static_cast<std::size_t>(s.queries),
                   Tk = static_cast<std::size_t>(s.keys), D = static_cast<std::size_t>(s.width),
                   Dv = static_cast<std::size_t>(s.value_width);
        const double eps = std::numeric_limits<float>::epsilon();
        for (std::size_t b = 0; b < (Tq > 0 ? B : 0); ++b)
            for (std::size_t i = 0; i < Tq; ++i) {
                const std::size_t visible = mask.causal ? static_cast<std::size_t>(c.query_start) + i + 1 : Tk;
                const float* qi = q.data().data() + (b * Tq + i) * D;
                const float* kb = k.data().data() + b * Tk * D;
                const float* vb = v.data().data() + b * Tk * Dv;
                const std::size_t row = (b * Tq + i) * Dv;
                for (std::size_t e = 0; e < Dv; ++e)
                    FUZZ_CHECK(same_value(fast[row + e], fast_tensor.data()[row + e]),
                               call + ": attention_fast span and Tensor APIs differ");
                if (Tk == 0) {
                    for (std::size_t e = 0; e < Dv; ++e) FUZZ_CHECK(fast[row + e] == 0, call + ": fast, Tk = 0 but output nonzero");
                    continue;
                }
                // Moderate inputs: q row and every key's k and v of the batch item (the fast path reads masked keys'
                // values in a tile and multiplies them by 0, so a non-finite masked v may reach it: documented).
                if (!moderate(qi, D) || !moderate(kb, Tk * D) || !moderate(vb, Tk * Dv)) continue;
                // The scaled scores' magnitude sets how far two float32 evaluations of the softmax can drift apart.
                double magnitude = 0, v_scale = 0;
                for (std::size_t j = 0; j < visible; ++j) {
                    double m = 0;
                    for (std::size_t d = 0; d < D; ++d) m += std::fabs(static_cast<double>(qi[d]) * kb[j * D + d]);
                    magnitude = std::fmax(magnitude, m / std::sqrt(static_cast<double>(D)));
                    for (std::size_t e = 0; e < Dv; ++e) v_scale = std::fmax(v_scale, std::fabs(static_cast<double>(vb[j * Dv + e])));
                }
                const double tol = (16 * static_cast<double>(D) * eps * magnitude + 2e-5 + 4 * visible * eps) * v_scale +
                                   1e-30;
                for (std::size_t e = 0; e < Dv; ++e)
                    FUZZ_CHECK(std::isfinite(fast[row + e]) &&
                                   std::fabs(static_cast<double>(fast[row + e]) - static_cast<double>(out[row + e])) <= tol,
                               call + ": batch " + std::to_string(b) + " query " + std::to_string(i) + " column " +
                                   std::to_string(e) + ": fast " + str(fast[row + e]) + " vs reference " + str(out[row + e]) +
                                   " within " + str(tol));
            }
    }
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
