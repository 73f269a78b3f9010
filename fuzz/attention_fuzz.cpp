// libFuzzer target: scaled dot-product attention, the reference's four steps and (float32) the fast fused path.
//   calls::attention (the package's path: q, k and v as the binding passes them, with 0 to 3 leading batch axes, equal
//   or not between them, shapes as JS numbers that may disagree with the data, dtypes as strings; causal, queryStart
//   as a JS number, steps or not, an out length; q, k, v of ranks 2 and 3, sometimes mismatched), check_attention_args
//   (the rule of the mask) and, on checked calls, the kernels attention_reference<T> (with and without the steps) and
//   attention_fast (float32); causal or not, queryStart unset, in range or out of it; q, k, v holding NaN,
//   infinities, subnormals and huge values.
// Invariants:
//   - the call and the rule throw iff a dtype or shape is wrong (entries whole numbers whose product is the data's count; one dtype; the
//     same rank and leading axes; D and Tk agreeing), D < 1, or the causal mask is impossible (Tk < Tq, queryStart
//     not a whole number in 0..Tk-Tq, or given without causal) (invalid_argument), a result is beyond 1 GiB
//     (length_error), or, for the package's call, an out length is not the output's (invalid_argument); never
//     anything else, and the package's call allocates nothing big before an error;
//   - masked entries: scaled exactly -inf and weights exactly 0, whatever the values (NaN included);
//   - Tk = 0: output exactly 0;
//   - a query row whose inputs (its q row and the visible keys' k and v) are finite and moderate: scores equal the
//     long-double dot products within float rounding, scaled = scores / sqrt(D), weights finite in [0, 1] summing to
//     1 and equal to the long-double softmax of scaled, output finite, inside the visible values' range and equal to
//     the long-double weighted sum, whatever masked keys hold (nothing leaks from the future);
//   - the package's results (leading axes kept) are, bit for bit, the kernel the binding runs: attention_fast for
//     float32 without steps, else attention_reference's steps and output;
//   - the reference with and without steps gives bit-identical outputs;
//   - attention_fast's output equals the reference's within a bound that follows the scores' magnitude (moderate
//     inputs), and it throws exactly when the reference does (plus spans of the wrong length).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "attention.hpp"
#include "attention_fast.hpp"
#include "fuzz_input.hpp"
#include "tensor.hpp"

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

// Two calls that compute the same thing (a queryStart given or left to its default alike).
bool same_work(const Call& a, const Call& b) {
    return a.s.batch == b.s.batch && a.s.queries == b.s.queries && a.s.keys == b.s.keys && a.s.width == b.s.width &&
           a.s.value_width == b.s.value_width && a.mask.causal == b.mask.causal && a.query_start == b.query_start;
}

// No more than kMaxElements per step and kMaxWork multiply-adds: a valid call this target runs and checks.
bool small(const AttentionShape& s) {
    return saturating_product({s.batch, s.queries, s.keys}) <= kMaxElements &&
           saturating_product({s.batch, s.queries, s.value_width}) <= kMaxElements &&
           saturating_product({s.batch, s.queries, s.keys, s.width}) +
                   saturating_product({s.batch, s.queries, s.keys, s.value_width}) <= kMaxWork;
}

// The fused kernel's scratch block for a call of shape s, in bytes, as calls.hpp states it (restated here, not asked of
// the core): 8 ceil(Tk / 8) (D + 4 S) + 8 ceil(Dv / 8) (Tk + 4) + 16 D + 4096 floats, S = min(4, ceil(Tq / 4)), each
// of the six parts rounded up to 64 bytes.
std::int64_t fused_scratch_bytes(const AttentionShape& s) {
    // in 128 bits: an empty batch may come with sizes up to 2^53 each (nothing is allocated then)
    using Wide = __int128;
    const auto eights = [](Wide n) { return (n + 7) / 8 * 8; };
    const auto line = [](Wide floats) { return (floats + 15) / 16 * 16; };
    const Wide Tk = s.keys, D = s.width, Dv = s.value_width, stripes = std::clamp<Wide>((Wide{s.queries} + 3) / 4, 1, 4);
    const Wide floats = line(eights(Tk) * D) + line(eights(Dv) * Tk) + line(16 * D) + line(4 * eights(Tk) * stripes) +
                        line(4096) + line(4 * eights(Dv));
    return static_cast<std::int64_t>(std::min<Wide>(4 * floats, std::numeric_limits<std::int64_t>::max()));
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

// The fast path's output against the reference's, row by row (inputs moderate): within a bound that follows the
// scaled scores' magnitude, which sets how far two float32 evaluations of the softmax can drift apart.
void check_fast(const Call& c, const float* q, const float* k, const float* v, std::span<const float> fast,
                std::span<const float> reference, const std::string& what) {
    const auto B = static_cast<std::size_t>(c.s.batch), Tq = static_cast<std::size_t>(c.s.queries),
               Tk = static_cast<std::size_t>(c.s.keys), D = static_cast<std::size_t>(c.s.width),
               Dv = static_cast<std::size_t>(c.s.value_width);
    const double eps = std::numeric_limits<float>::epsilon();
    for (std::size_t b = 0; b < (Tq > 0 ? B : 0); ++b)
        for (std::size_t i = 0; i < Tq; ++i) {
            const std::size_t visible = c.mask.causal ? static_cast<std::size_t>(c.query_start) + i + 1 : Tk;
            const float* qi = q + (b * Tq + i) * D;
            const float* kb = k + b * Tk * D;
            const float* vb = v + b * Tk * Dv;
            const std::size_t row = (b * Tq + i) * Dv;
            if (Tk == 0) {
                for (std::size_t e = 0; e < Dv; ++e) FUZZ_CHECK(fast[row + e] == 0, what + ": fast, Tk = 0 but output nonzero");
                continue;
            }
            // Moderate inputs: q row and every key's k and v of the batch item (the fast path reads masked keys'
            // values in a tile and multiplies them by 0, so a non-finite masked v may reach it: documented).
            if (!moderate(qi, D) || !moderate(kb, Tk * D) || !moderate(vb, Tk * Dv)) continue;
            double magnitude = 0, v_scale = 0;
            for (std::size_t j = 0; j < visible; ++j) {
                double m = 0;
                for (std::size_t d = 0; d < D; ++d) m += std::fabs(static_cast<double>(qi[d]) * kb[j * D + d]);
                magnitude = std::fmax(magnitude, m / std::sqrt(static_cast<double>(D)));
                for (std::size_t e = 0; e < Dv; ++e) v_scale = std::fmax(v_scale, std::fabs(static_cast<double>(vb[j * Dv + e])));
            }
            const double tol = (16 * static_cast<double>(D) * eps * magnitude + 2e-5 + 4 * visible * eps) * v_scale + 1e-30;
            for (std::size_t e = 0; e < Dv; ++e)
                FUZZ_CHECK(std::isfinite(fast[row + e]) &&
                               std::fabs(static_cast<double>(fast[row + e]) - static_cast<double>(reference[row + e])) <= tol,
                           what + ": batch " + std::to_string(b) + " query " + std::to_string(i) + " column " +
                               std::to_string(e) + ": fast " + str(fast[row + e]) + " vs reference " +
                               str(reference[row + e]) + " within " + str(tol));
        }
}

// What the kernels give for one valid, small call: the reference's four steps, its output alone, and (float32) the
// fused output.
template <class T>
struct Kernels {
    std::vector<T> scores, scaled, weights, output, output_only;
    std::vector<float> fast;
};

// Runs the kernels on spans of exactly the call's sizes (so AddressSanitizer sees any overrun) and checks them: the
// steps (check_steps), the output with and without steps, and for float32 the fast path against the reference.
template <class T>
Kernels<T> run_kernels(const Call& c, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                       const std::string& what) {
    const AttentionShape& s = c.s;
    const auto nw = static_cast<std::size_t>(saturating_product({s.batch, s.queries, s.keys})),
               no = static_cast<std::size_t>(saturating_product({s.batch, s.queries, s.value_width}));
    Kernels<T> r{std::vector<T>(nw), std::vector<T>(nw), std::vector<T>(nw), std::vector<T>(no), std::vector<T>(no), {}};
    expect_outcome({}, [&] {
        seqorder::attention_reference<T>({r.scores, r.scaled, r.weights, r.output}, q, k, v, s, c.mask);
    }, "attention_reference with steps " + what);
    expect_outcome({}, [&] {
        seqorder::attention_reference<T>({{}, {}, {}, r.output_only}, q, k, v, s, c.mask);
    }, "attention_reference " + what);
    check_steps<T>(c, q.data(), k.data(), v.data(), r.scores.data(), r.scaled.data(), r.weights.data(), r.output.data(), what);
    for (std::size_t j = 0; j < no; ++j)
        FUZZ_CHECK(same_value(r.output[j], r.output_only[j]),
                   what + ": output with and without steps differ at " + std::to_string(j));
    if constexpr (sizeof(T) == 4) {
        r.fast.resize(no);
        expect_outcome({}, [&] { seqorder::attention_fast(r.fast, q, k, v, s, c.mask); }, "attention_fast " + what);
        check_fast(c, q.data(), k.data(), v.data(), r.fast, r.output, what);
    }
    return r;
}

// The kernels of the last call asked for, run again only for a call that computes something else.
template <class T>
class KernelRuns {
public:
    KernelRuns(std::span<const T> q, std::span<const T> k, std::span<const T> v) : q_(q), k_(k), v_(v) {}
    const Kernels<T>& of(const Call& c, const std::string& what) {
        if (!call_ || !same_work(*call_, c)) {
            kernels_ = run_kernels<T>(c, q_, k_, v_, what);
            call_ = c;
        }
        return kernels_;
    }

private:
    std::span<const T> q_, k_, v_;
    std::optional<Call> call_;
    Kernels<T> kernels_;
};

// The dims of `t` as a caller shapes them: its sequences under `lead` (the axes drawn for q's `batch` sequences; a
// tensor with another count of sequences has it in place of q's), then its last two axes.
template <class T>
std::vector<std::int64_t> dims_of(const seqorder::Tensor<T>& t, std::vector<std::int64_t> lead, std::int64_t batch) {
    const std::int64_t own = t.rank() == 3 ? static_cast<std::int64_t>(t.dim(0)) : 1;
    if (own != batch) {
        const auto at = std::find(lead.begin(), lead.end(), batch);
        if (at != lead.end()) *at = own;
        else lead.insert(lead.begin(), own);
    }
    lead.push_back(static_cast<std::int64_t>(t.dim(t.rank() - 2)));
    lead.push_back(static_cast<std::int64_t>(t.dim(t.rank() - 1)));
    return lead;
}

// The package's call, drawn after the rest: q, k and v as the binding passes them (their sequences under leading
// axes drawn here), causal as drawn, queryStart (when one is drawn) as a JS number, steps or not, an out length.
template <class T>
void check_package(Input& in, const seqorder::Tensor<T>& q, const seqorder::Tensor<T>& k, const seqorder::Tensor<T>& v,
                   std::int64_t batch, const CausalMask& mask, KernelRuns<T>& kernels) {
    const char* other = sizeof(T) == 4 ? "float64" : "float32";
    const std::vector<std::int64_t> lead = in.lead_axes(batch, q.rank() == 3);
    seqorder::calls::AttentionArgs p;
    p.q = tensor_arg<T>(q.data(), in.dtype(dtype_name<T>()), in.shape(dims_of(q, lead, batch)));
    p.k = tensor_arg<T>(k.data(), in.dtype(dtype_name<T>(), other), in.shape(dims_of(k, lead, batch)));
    p.v = tensor_arg<T>(v.data(), in.dtype(dtype_name<T>(), other), in.shape(dims_of(v, lead, batch)));
    p.causal = mask.causal;
    const double query_start = in.number(static_cast<double>(mask.query_start.value_or(0)));
    if (mask.query_start) p.query_start = query_start;
    p.steps = in.flag();

    // The rules, restated: one float dtype; shapes; ranks and leading axes equal; D and Tk agreeing; queryStart a
    // whole number; then the mask's rule (decide).
    const auto qs = sizes_of(p.q), ks = sizes_of(p.k), vs = sizes_of(p.v);
    bool shapes_ok = p.q.dtype == dtype_name<T>() && p.k.dtype == p.q.dtype && p.v.dtype == p.q.dtype && qs && ks && vs &&
                     qs->size() >= 2 && ks->size() == qs->size() && vs->size() == qs->size();
    const std::size_t rank = shapes_ok ? qs->size() : 2;
    const std::vector<std::int64_t> q_lead = shapes_ok ? std::vector<std::int64_t>(qs->begin(), qs->end() - 2)
                                                       : std::vector<std::int64_t>{};
    shapes_ok = shapes_ok && std::equal(q_lead.begin(), q_lead.end(), ks->begin()) &&
                std::equal(q_lead.begin(), q_lead.end(), vs->begin()) && (*ks)[rank - 1] == (*qs)[rank - 1] &&
                (*vs)[rank - 2] == (*ks)[rank - 2];
    const std::optional<std::int64_t> start = p.query_start ? whole(*p.query_start, -kMaxSafe, kMaxSafe) : std::nullopt;
    AttentionShape s{saturating_product(q_lead), 0, 0, 1, 0};
    if (shapes_ok) s = {s.batch, (*qs)[rank - 2], (*ks)[rank - 2], (*qs)[rank - 1], (*vs)[rank - 1]};
    const Call c = decide(s, {p.causal, start});
    const bool valid = shapes_ok && (!p.query_start || start) && c.mask_ok;
    auto with_last = [&](std::int64_t rows, std::int64_t cols) {
        std::vector<std::int64_t> shape = q_lead;
        shape.push_back(rows);
        shape.push_back(cols);
        return shape;
    };
    const std::vector<std::int64_t> step_shape = with_last(s.queries, s.keys), output_shape = with_last(s.queries, s.value_width);
    const std::int64_t nw = saturating_product(step_shape), no = saturating_product(output_shape);
    p.out_length = in.out_length(no);
    const bool too_big = (p.steps && beyond_tensor_limit(step_shape, sizeof(T))) || beyond_tensor_limit(output_shape, sizeof(T));
    const Expected expected = package_outcome({.invalid_argument = !valid}, too_big, no, p.out_length);
    if (!expected.any() && !small(s)) return;  // a valid call too big to check here

    const std::string call = "calls::attention(q " + text(p.q) + ", k " + text(p.k) + ", v " + text(p.v) +
                             (p.causal ? ", causal" : "") + (p.query_start ? ", queryStart " + str(*p.query_start) : "") +
                             (p.steps ? ", steps" : "") + text(p.out_length) + ")";
    const std::int64_t io_bytes =
        expected.any() ? 0 : static_cast<std::int64_t>((q.size() + k.size() + v.size() + (p.steps ? 3 * nw : 0) + no) * sizeof(T));
    std::vector<seqorder::calls::Result> results;
    const std::int64_t scratch_bytes = !expected.any() && sizeof(T) == 4 && !p.steps ? fused_scratch_bytes(s) : 0;
    if (!expect_call(expected, [&] { results = seqorder::calls::attention(p); }, call, io_bytes, scratch_bytes)) return;
    FUZZ_CHECK(results.size() == (p.steps ? 4u : 1u), call + ": " + std::to_string(results.size()) + " results");
    const std::span<const T> output = result_values<T>(results.back(), output_shape, call + ", output");
    std::vector<std::span<const T>> steps;
    for (std::size_t j = 0; p.steps && j < 3; ++j)
        steps.push_back(result_values<T>(results[j], step_shape, call + ", step " + std::to_string(j)));
    if (nw == 0 && no == 0) return;  // nothing computed (the batch may be as large as the empty axes allow)

    const Kernels<T>& kernel = kernels.of(c, call);
    if (p.steps) {
        check_same_bits<T>(steps[0], kernel.scores, call + ", scores");
        check_same_bits<T>(steps[1], kernel.scaled, call + ", scaled");
        check_same_bits<T>(steps[2], kernel.weights, call + ", weights");
        check_same_bits<T>(output, kernel.output, call + ", output");
    } else if constexpr (sizeof(T) == 4) {
        check_same_bits<float>(output, kernel.fast, call + ", output (fast path)");
    } else {
        check_same_bits<T>(output, kernel.output_only, call + ", output");
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
    // A shape mismatch between q, k and v (the package's call refuses it): 0 none, 1 k's D, 2 v's Tk, 3 k's batch.
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
                       nv = saturating_product({s.batch, s.keys, s.value_width});
    // Only shapes a caller could back with data: q, k, v within the budget.
    if (nq > kMaxElements || nk > kMaxElements || nv > kMaxElements) return;

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
    KernelRuns<T> kernels(q.data(), k.data(), v.data());
    check_package<T>(in, q, k, v, s.batch, mask, kernels);

    // The rule of the mask, then the kernels on the checked call (once: the package's check may have run them).
    expect_outcome({.invalid_argument = !c.mask_ok}, [&] { seqorder::check_attention_args(s, mask); },
                   "check_attention_args " + call);
    if (real_mismatch || !c.mask_ok || !small(s)) return;
    static_cast<void>(kernels.of(c, call));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
