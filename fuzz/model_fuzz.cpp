// libFuzzer target: the trainable model (src/core/model).
//   A configuration (every field, names included, in and out of its range), parameters as initialized or set to
//   other values, then ids and targets (mostly valid, sometimes not, sometimes of the wrong length) through forward,
//   loss, gradients, step and attention_weights, float64 and float32.
// Invariants:
//   - the constructor throws iff a rule is broken (invalid_argument) or the parameters pass 1 GiB (length_error), as
//     computed here independently; a call throws iff its inputs break a rule, with the documented type and order;
//   - on success: finite logits, a finite loss >= 0 (0 with every target ignored, and then zero gradients), a finite
//     gradient for every parameter, step returning the loss before it, attention weights (L, H, T, T) whose rows sum
//     to 1 with hidden keys exactly 0, and float32's fast kernels giving the reference's bits.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "model/model.hpp"

namespace {

using namespace seqorder_fuzz;
using namespace seqorder::model;

const char* const kPositionNames[] = {"none", "sinusoidal", "learned", "rotary", "absolute"};
const char* const kReadoutNames[] = {"mean", "each", "last"};

// What the configuration rules say, computed from the documentation (config.hpp), not from the core's code.
Expected config_outcome(const Config& c, std::size_t element_bytes) {
    const bool learned = c.positions == Positions::learned;
    const bool valid = c.vocab >= 1 && c.vocab < (std::int64_t{1} << 31) && c.width >= 1 && c.heads >= 1 &&
                       c.width % c.heads == 0 && c.layers >= 1 && c.layers <= 4 && c.classes >= 1 &&
                       c.classes < (std::int64_t{1} << 31) && (learned ? c.max_length && *c.max_length >= 1 : !c.max_length) &&
                       (c.positions != Positions::sinusoidal || c.width % 2 == 0) &&
                       (c.positions != Positions::rotary || (c.width / c.heads) % 2 == 0);
    if (!valid) return {.invalid_argument = true};
    if (c.width >= (std::int64_t{1} << 31)) return {.length_error = true};  // 12 D^2 > 2^64 values (no overflow below)
    // 12 D^2 + 9 D per layer; embed V D; learned positions P D; final norm 2 D; readout D C + C
    const __int128 D = c.width;
    const __int128 count = c.vocab * D + (learned ? *c.max_length * D : 0) + c.layers * (12 * D * D + 9 * D) + 2 * D +
                           D * c.classes + c.classes;
    return {.length_error = count * static_cast<__int128>(element_bytes) > (__int128{1} << 30)};
}

std::int32_t draw_value(Input& in, std::int64_t low, std::int64_t high) {  // mostly in [low, high), sometimes not
    const std::uint8_t k = in.byte();
    if (k < 232) return static_cast<std::int32_t>(low + k % (high - low));
    static constexpr std::int32_t bad[] = {INT32_MIN, -2, -1, 0, INT32_MAX};
    if (k % 2 == 0) return bad[k % 5];
    return static_cast<std::int32_t>(std::min<std::int64_t>(high + k % 3, INT32_MAX));
}

template <class T>
void check_finite(std::span<const T> xs, const std::string& what) {
    for (T x : xs) FUZZ_CHECK(std::isfinite(x), what + " holds a value that is not finite");
}

template <class T>
void run(Input& in) {
    Config c;
    c.vocab = in.size(24);
    c.width = in.size(16);
    c.heads = in.size(5);
    c.layers = in.size(5);
    const char* positions = kPositionNames[in.byte() % 5];
    if (in.flag()) c.max_length = in.size(20);
    c.causal = in.flag();
    const char* readout = kReadoutNames[in.byte() % 3];
    c.classes = in.size(5);
    c.seed = in.bits(8);
    const std::string call = std::string("Model<") + (sizeof(T) == 4 ? "float" : "double") + ">(vocab " +
                             std::to_string(c.vocab) + ", width " + std::to_string(c.width) + ", heads " +
                             std::to_string(c.heads) + ", layers " + std::to_string(c.layers) + ", positions " +
                             positions + ", maxLength " + (c.max_length ? std::to_string(*c.max_length) : "unset") +
                             (c.causal ? ", causal" : "") + ", readout " + readout + ", classes " +
                             std::to_string(c.classes) + ")";
    const bool names_ok = std::string(positions) != "absolute" && std::string(readout) != "last";
    if (!expect_outcome({.invalid_argument = !names_ok},
                        [&] {
                            c.positions = positions_from_name(positions);
                            c.readout = readout_from_name(readout);
                        },
                        call + " names"))
        return;
    const Expected config_expected = config_outcome(c, sizeof(T));
    // A valid model too big to build quickly is out of scope (its checks run through the invalid ones).
    if (!config_expected.any() && c.vocab * c.width + c.layers * 12 * c.width * c.width +
                                          c.max_length.value_or(0) * c.width + c.width * c.classes >
                                      kMaxElements)
        return;
    std::optional<Model<T>> model;
    if (!expect_outcome(config_expected, [&] { model.emplace(c); }, call)) return;

    if (in.flag()) {  // other parameter values: moderate, so every output stays finite
        std::vector<T> values(model->values().size());
        in.fill<T>(values);
        for (T& x : values) x = std::isfinite(x) ? std::fmod(x, T{4}) : T{1};
        std::vector<ParameterUpdate<T>> updates;
        for (const auto& p : model->parameters())
            updates.push_back({p.name, p.shape, std::span<const T>(values).subspan(p.offset, p.size)});
        model->set_parameters(updates);
    }

    const std::int64_t batch = in.size(4), length = in.size(12);
    const bool each = c.readout == Readout::each;
    const std::int64_t tokens = seqorder_fuzz::saturating_product({batch, length});
    const bool shape_ok = batch >= 1 && length >= 1 && tokens <= kMaxElements;
    // ids and targets of the right lengths when the shape is small, else short spans (a length mismatch)
    std::vector<std::int32_t> ids(shape_ok ? static_cast<std::size_t>(tokens) : in.byte() % 4);
    for (std::int32_t& id : ids) id = draw_value(in, 0, c.vocab);
    const std::int64_t target_count = each ? tokens : batch;
    const bool short_targets = in.byte() % 16 == 0;
    std::vector<std::int32_t> targets(shape_ok && !short_targets ? static_cast<std::size_t>(target_count) : 1);
    const bool ignore_all = in.byte() % 8 == 0;
    for (std::int32_t& t : targets) t = ignore_all ? -1 : draw_value(in, -1, c.classes);

    bool bad_ids = false, bad_targets = false;
    for (std::int32_t id : ids) bad_ids = bad_ids || id < 0 || id >= c.vocab;
    for (std::int32_t t : targets) bad_targets = bad_targets || t < -1 || t >= c.classes;
    const bool too_long = c.positions == Positions::learned && length > *c.max_length;
    // the activations kept for (B, T), by network.hpp's formula (for a small shape), against 1 GiB; a valid call that
    // would build more than 16 kMaxWork of them is too slow to run here
    auto activations = [&](std::int64_t b) {
        const __int128 B = b, Tn = length, N = B * Tn, D = c.width, L = c.layers, hd = D / c.heads;
        return L * (12 * N * D + 4 * N + B * c.heads * Tn * Tn) + 14 * N * D + 2 * N +
               2 * (B * D + (each ? N : B) * c.classes) + Tn * D + 4 * D * D + hd * Tn + Tn * Tn;
    };
    auto beyond_limit = [&](std::int64_t b) { return activations(b) * static_cast<__int128>(sizeof(T)) > (__int128{1} << 30); };
    const bool too_big = shape_ok && beyond_limit(batch);
    if (shape_ok && !too_big && !too_long && activations(batch) > 16 * kMaxWork) return;
    const bool targets_ok = targets.size() == static_cast<std::size_t>(target_count);
    // the documented order: shapes and lengths, maxLength, memory, ids, targets
    auto outcome = [&](bool with_targets, bool output_ok) -> Expected {
        if (!shape_ok || !output_ok || (with_targets && !targets_ok)) return {.invalid_argument = true};
        if (too_long) return {.out_of_range = true};
        if (too_big) return {.length_error = true};
        if (bad_ids || (with_targets && bad_targets)) return {.out_of_range = true};
        return {};
    };
    const std::string inputs = call + " on ids (" + std::to_string(batch) + ", " + std::to_string(length) + ")";
    const auto C = static_cast<std::size_t>(c.classes);

    std::vector<T> logits(shape_ok ? static_cast<std::size_t>(each ? tokens : batch) * C : 0);
    if (expect_outcome(outcome(false, true), [&] { model->forward(logits, ids, batch, length); }, "forward " + inputs)) {
        check_finite<T>(logits, "forward " + inputs);
        if constexpr (sizeof(T) == 4) {  // the fast kernels against the reference
            std::vector<T> reference(logits.size());
            model->set_kernels(Kernels::reference);
            model->forward(reference, ids, batch, length);
            model->set_kernels(Kernels::fast);
            for (std::size_t i = 0; i < logits.size(); ++i)
                FUZZ_CHECK(same_value(logits[i], reference[i]), "forward " + inputs + ": fast and reference differ");
        }
    }
    double loss = -1;
    if (expect_outcome(outcome(true, true), [&] { loss = model->loss(ids, targets, batch, length); }, "loss " + inputs)) {
        FUZZ_CHECK(std::isfinite(loss) && loss >= 0, "loss " + inputs + " = " + str(loss));
        bool counted = false;
        for (std::int32_t t : targets) counted = counted || t != -1;
        if (!counted) FUZZ_CHECK(loss == 0, "loss " + inputs + " with every target ignored = " + str(loss));
    }
    std::vector<T> gradients(model->values().size() + (in.byte() % 32 == 0 ? 1 : 0));
    double gradient_loss = -1;
    if (expect_outcome(outcome(true, gradients.size() == model->values().size()),
                       [&] { gradient_loss = model->gradients(gradients, ids, targets, batch, length); },
                       "gradients " + inputs)) {
        FUZZ_CHECK(gradient_loss == loss, "gradients " + inputs + ": loss " + str(gradient_loss) + " vs " + str(loss));
        check_finite<T>(gradients, "gradients " + inputs);
        if (ignore_all)
            for (T g : gradients) FUZZ_CHECK(g == T{0}, "gradients " + inputs + ": nonzero with every target ignored");
    }
    static constexpr double rates[] = {1e-3, 0.0, 0.1, -1.0, NAN};
    const double lr = rates[in.byte() % 5];
    Expected step_expected = outcome(true, true);
    if (!(lr >= 0)) step_expected = {.invalid_argument = true};
    double step_loss = -1;
    if (expect_outcome(step_expected, [&] { step_loss = model->step(ids, targets, batch, length, lr); }, "step " + inputs)) {
        FUZZ_CHECK(step_loss == loss, "step " + inputs + ": returned " + str(step_loss) + ", the loss was " + str(loss));
        check_finite<T>(model->values(), "parameters after step " + inputs);
    }
    // attention weights of the first sequence
    if (!shape_ok || seqorder_fuzz::saturating_product({c.layers, c.heads, length, length}) > kMaxWork) return;
    const auto L = static_cast<std::size_t>(c.layers), H = static_cast<std::size_t>(c.heads),
               Tn = static_cast<std::size_t>(length);
    std::vector<T> weights(L * H * Tn * Tn);
    const std::span<const std::int32_t> first = std::span<const std::int32_t>(ids).first(Tn);
    bool first_bad = false;
    for (std::int32_t id : first) first_bad = first_bad || id < 0 || id >= c.vocab;
    const bool one_too_big = beyond_limit(1);
    if (!one_too_big && !too_long && activations(1) > 16 * kMaxWork) return;
    const Expected weights_expected = too_long      ? Expected{.out_of_range = true}
                                      : one_too_big ? Expected{.length_error = true}
                                                    : Expected{.out_of_range = first_bad};
    if (!expect_outcome(weights_expected, [&] { model->attention_weights(weights, first, length); },
                        "attention_weights " + inputs))
        return;
    for (std::size_t row = 0; row < L * H * Tn; ++row) {
        const std::size_t i = row % Tn;
        double sum = 0;
        for (std::size_t j = 0; j < Tn; ++j) {
            const T w = weights[row * Tn + j];
            if (c.causal && j > i) FUZZ_CHECK(w == T{0}, "attention_weights " + inputs + ": a hidden key's weight");
            sum += static_cast<double>(w);
        }
        FUZZ_CHECK(std::abs(sum - 1) < 1e-4, "attention_weights " + inputs + ": a row sums to " + str(sum));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
