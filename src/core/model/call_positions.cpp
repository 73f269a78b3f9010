#include "call_positions.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "random.hpp"
#include "sin_cos.hpp"

namespace seqorder::model {

namespace {

// The ids of a call: null when none are given or every row is 0 .. T - 1, else the ids given (their checks above).
const std::int32_t* checked_ids(const Config& c, const CallPositions& positions, std::int64_t batch,
                                std::int64_t length) {
    if (positions.ids.empty()) return nullptr;
    if (c.positions == Positions::none)
        throw std::invalid_argument("positionIds: a model with positions 'none' reads no positions");
    const auto B = static_cast<std::size_t>(batch), T = static_cast<std::size_t>(length);
    if (positions.ids.size() != B * T)
        throw std::invalid_argument("positionIds must have the shape of ids, (B, T) = (" + std::to_string(batch) +
                                    ", " + std::to_string(length) + "), got " + std::to_string(positions.ids.size()) +
                                    " values");
    const std::int64_t rows = c.positions == Positions::learned ? *c.max_length : std::int64_t{1} << 31;
    bool plain = true;
    for (std::size_t n = 0; n < B * T; ++n) {
        const std::int32_t p = positions.ids[n];
        const std::size_t t = n % T;
        const bool below = t > 0 && p <= positions.ids[n - 1];
        if (p < 0 || p >= rows || below) {  // (appended piece by piece: the model module's size)
            std::string message = "positionIds[";
            message += std::to_string(n / T);
            message += ", ";
            message += std::to_string(t);
            message += "] = ";
            message += std::to_string(p);
            if (below) {
                message += " is not above the position before it: each row must be strictly increasing";
            } else {
                message += " is outside 0 .. ";
                message += std::to_string(rows - 1);
                message += c.positions == Positions::learned ? " (maxLength - 1: the learned table's rows)" : " (int32)";
            }
            throw std::out_of_range(message);
        }
        plain = plain && static_cast<std::size_t>(p) == t;
    }
    return plain ? nullptr : positions.ids.data();
}

// The positionRange of a call, checked: 0 when none is given. (The rule broken, thrown once: the model module's size.)
std::int64_t checked_range(const Config& c, const CallPositions& positions, std::int64_t length) {
    if (!positions.range) return 0;
    const double range = *positions.range;
    const bool learned = c.positions == Positions::learned;
    const char* rule = nullptr;
    if (c.positions == Positions::none)
        rule = "positionRange: a model with positions 'none' reads no positions";
    else if (!positions.ids.empty())
        rule = "positionRange and positionIds cannot be given together";
    else if (!(range >= static_cast<double>(length) &&
               range <= (learned ? static_cast<double>(*c.max_length) : 0x1p31) && std::floor(range) == range))
        rule = learned ? "positionRange must be an integer from T (the sentences' length) to maxLength"
                       : "positionRange must be an integer from T (the sentences' length) to 2^31";
    if (rule) throw std::out_of_range(rule);
    return static_cast<std::int64_t>(range);
}

}  // namespace

void check_rope_scaling(const Config& c, const RopeScaling& s) {
    // (the rule broken, thrown once: the model module's size)
    const bool yarn = s.method == RopeMethod::yarn;
    const double length = s.original_length ? *s.original_length : 1;
    const char* rule = nullptr;
    if (c.positions != Positions::rotary)
        rule = "ropeScaling: the model's positions are not rotary";
    else if (s.method == RopeMethod::unknown)
        rule = "ropeScaling.method must be 'linear', 'ntk' or 'yarn'";
    else if (!(std::isfinite(s.factor) && s.factor >= 1))
        rule = "ropeScaling.factor must be a finite number >= 1";
    else if (s.method == RopeMethod::ntk && rotary_pairs(c) < 2)
        rule = "ropeScaling.method 'ntk' needs rotaryPairs >= 2";
    else if (yarn && !s.original_length)
        rule = "ropeScaling.originalLength must be given with method 'yarn'";
    else if (!yarn && s.original_length)
        rule = "ropeScaling.originalLength is only for method 'yarn'";
    else if (!(length >= 1 && length <= 0x1p53 && std::floor(length) == length))
        rule = "ropeScaling.originalLength must be an integer >= 1";
    if (rule) throw std::out_of_range(rule);
}

RunPositions checked_positions(const Config& c, const CallPositions& positions, std::int64_t batch,
                               std::int64_t length) {
    const std::int32_t* ids = checked_ids(c, positions, batch, length);
    const std::int64_t range = checked_range(c, positions, length);
    if (!positions.rope_scaling) return {ids, nullptr, range};
    check_rope_scaling(c, *positions.rope_scaling);
    return {ids, &*positions.rope_scaling, range};
}

bool draw_positions(std::int32_t* out, SplitMix64& stream, std::size_t B, std::size_t T, std::int64_t range) {
    // Floyd's sample, row after row: for j = range - T .. range - 1, r uniform in 0 .. j joins the row, or j when r is
    // in it already. Every number in the row is below j: each joins where it sorts, and the row stays in order.
    for (std::size_t n = 0; n < B * T; ++n) {
        const std::size_t t = n % T;
        std::int32_t* row = out + (n - t);
        const auto j = static_cast<std::int32_t>(range - static_cast<std::int64_t>(T - t));
        auto r = static_cast<std::int32_t>(stream.uniform_below(static_cast<std::uint64_t>(j) + 1));
        std::size_t at = t;
        while (at > 0 && row[at - 1] > r) --at;
        if (at > 0 && row[at - 1] == r) {
            at = t;
            r = j;
        }
        std::copy_backward(row + at, row + t, row + t + 1);
        row[at] = r;
    }
    bool plain = true;
    for (std::size_t n = 0; n < B * T; ++n) plain = plain && out[n] == static_cast<std::int32_t>(n % T);
    return plain;
}

std::vector<double> position_frequencies(const Config& c, const RopeScaling* scaling) {
    const bool rotary = c.positions == Positions::rotary;
    const auto pairs = static_cast<std::size_t>(rotary ? rotary_pairs(c) : c.width / 2);
    const auto d = static_cast<double>(2 * pairs);
    const double base = rotary ? rotary_base(c) : 10000.0;
    std::vector<double> f(pairs);
    const RopeMethod method = scaling ? scaling->method : RopeMethod::linear;
    const double factor = scaling ? scaling->factor : 1;
    // YaRN's ramp between lo and hi (its pairs below lo keep their frequency, above hi are divided by the factor)
    double lo = 0, hi = 1;
    if (scaling && method == RopeMethod::yarn) {
        const auto correction = [&](double rotations) {
            return (d * std::log(*scaling->original_length / (rotations * 2 * 3.141592653589793))) /
                   (2 * std::log(base));
        };
        lo = std::floor(correction(32));
        lo = lo > 0 ? lo : 0;
        hi = std::ceil(correction(1));
        hi = hi < d - 1 ? hi : d - 1;
        if (lo == hi) hi += 0.001;
    }
    const bool ntk = scaling && method == RopeMethod::ntk;
    const double b = ntk ? base * std::pow(factor, d / (d - 2)) : base;  // 'ntk' stretches the base
    for (std::size_t i = 0; i < pairs; ++i) {
        const double x = static_cast<double>(2 * i) / d;
        // unscaled: b^(-x) (= std::pow(b, -(2i) / d): -(2i) / d is -x exactly); else b^x, then as the method says
        const double power = std::pow(b, scaling ? x : -x);
        const double ramp = (static_cast<double>(i) - lo) / (hi - lo);
        const double extrapolation = 1.0 - (ramp < 0 ? 0 : ramp > 1 ? 1 : ramp);  // 'yarn'
        f[i] = !scaling                      ? power
               : ntk                         ? 1.0 / power
               : method == RopeMethod::linear ? (1.0 / power) / factor
                                             : (1.0 / (factor * power)) * (1.0 - extrapolation) + (1.0 / power) * extrapolation;
    }
    return f;
}

double score_temperature(const RopeScaling* scaling) {
    if (!scaling || scaling->method != RopeMethod::yarn) return 1.0;
    const double m = 0.1 * std::log(scaling->factor) + 1.0;
    return m * m;
}

template <class F>
void positions_backward(F* dtable, const F* dout, const std::int32_t* positions, std::size_t rows, std::size_t N,
                        std::size_t D) {
    // dtable: (rows, D), dout: (N, D)
    std::fill(dtable, dtable + rows * D, F{0});
    for (std::size_t n = 0; n < N; ++n) {
        F* row = dtable + static_cast<std::size_t>(positions[n]) * D;
        for (std::size_t d = 0; d < D; ++d) row[d] += dout[n * D + d];
    }
}

template <class F>
void position_turns(F* out, const std::int32_t* positions, std::size_t rows, const double* frequencies,
                    std::size_t pairs) {
    // out: (rows, pairs, 2)
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < pairs; ++i) {
            const double angle = static_cast<double>(positions ? positions[r] : static_cast<std::int32_t>(r)) * frequencies[i];
            double sine = 0, cosine = 0;
            sin_cos(angle, sine, cosine);
            out[(r * pairs + i) * 2] = static_cast<F>(sine);
            out[(r * pairs + i) * 2 + 1] = static_cast<F>(cosine);
        }
}

template <class F>
void token_rows(F* table, F* turns, const Config& c, const std::int32_t* positions, std::size_t N,
                const RopeScaling* scaling) {
    if (c.positions != Positions::sinusoidal && c.positions != Positions::rotary) return;
    const std::vector<double> frequencies = position_frequencies(c, scaling);
    const std::size_t pairs = frequencies.size();
    F* out = c.positions == Positions::rotary ? turns : table;
    // Positions drawn from a small range repeat: when the largest is below N, each position's row (the same values
    // whichever token is there) is computed once, then copied to its tokens.
    const std::int32_t largest = positions ? *std::max_element(positions, positions + N) : 0;
    if (!positions || static_cast<std::size_t>(largest) + 1 >= N) {
        position_turns<F>(out, positions, N, frequencies.data(), pairs);
        return;
    }
    std::vector<F> rows((static_cast<std::size_t>(largest) + 1) * pairs * 2);
    position_turns<F>(rows.data(), nullptr, static_cast<std::size_t>(largest) + 1, frequencies.data(), pairs);
    for (std::size_t n = 0; n < N; ++n)
        std::copy_n(rows.data() + static_cast<std::size_t>(positions[n]) * pairs * 2, pairs * 2, out + n * pairs * 2);
}

template <class F>
void rotary_turn(F* x, const F* turns, std::size_t B, std::size_t H, std::size_t T, std::size_t hd, std::size_t pairs,
                 bool per_row, bool transposed) {
    // x: (B, H, T, hd), turns: (T, pairs, 2), or (B, T, pairs, 2) per_row
    for (std::size_t bh = 0; bh < B * H; ++bh)
        for (std::size_t t = 0; t < T; ++t) {
            F* row = x + (bh * T + t) * hd;
            const F* turn = turns + ((per_row ? (bh / H) * T : 0) + t) * pairs * 2;
            for (std::size_t i = 0; i < pairs; ++i) {
                const double even = static_cast<double>(row[2 * i]), odd = static_cast<double>(row[2 * i + 1]);
                const double s = transposed ? -static_cast<double>(turn[2 * i]) : static_cast<double>(turn[2 * i]);
                const double c = static_cast<double>(turn[2 * i + 1]);
                row[2 * i] = static_cast<F>(even * c - odd * s);
                row[2 * i + 1] = static_cast<F>(even * s + odd * c);
            }
        }
}

// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, and (F)* would not parse
#define SEQORDER_INSTANTIATE(F)                                                                                       \
    template void positions_backward<F>(F*, const F*, const std::int32_t*, std::size_t, std::size_t, std::size_t);    \
    template void position_turns<F>(F*, const std::int32_t*, std::size_t, const double*, std::size_t);                \
    template void token_rows<F>(F*, F*, const Config&, const std::int32_t*, std::size_t, const RopeScaling*);       \
    template void rotary_turn<F>(F*, const F*, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, bool, \
                                 bool);
SEQORDER_INSTANTIATE(double)
SEQORDER_INSTANTIATE(float)
#undef SEQORDER_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace seqorder::model
