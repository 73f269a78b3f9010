// libFuzzer target: the trainable model (src/core/model), driven by sequences of calls.
//   A configuration (every field, names included, in and out of its range) and the model it makes; parameters as
//   initialized or set to other values; then a round of calls (forward, loss, gradients, step, attention_weights) on
//   ids and targets (mostly valid, sometimes not, sometimes of the wrong length); then up to 15 more operations, each
//   one of: another round at a new (B, T), with one allocation of each call failing (std::bad_alloc, injected by this
//   tests/native/failing_allocations.hpp's operator new); set_parameters with moderate, huge or non-finite values; a forward at a new length compared
//   with the twin's; dispose and create again. float64 and float32.
// Invariants, after every operation:
//   - a call throws iff its inputs break a rule, with the documented type and order; the constructor throws iff a
//     rule is broken (invalid_argument) or the model's four values per parameter pass 1 GiB (length_error), as
//     computed here independently; a step may be refused (range_error) only when the parameters are not moderate;
//   - a call that throws, std::bad_alloc included, leaves the parameters, Adam's moments and step count exactly as
//     they were; and the model equals a twin that made only the calls that succeeded (its state, and its outputs at
//     every length, bit for bit): no buffer for a length is left half-made;
//   - the parameters and Adam's moments are always finite;
//   - on success with moderate parameters: finite logits, a finite loss >= 0 (0 with every target ignored, and then
//     zero gradients), a finite gradient for every parameter, step returning the loss before it, attention weights
//     (L, H, T, T) whose rows sum to 1 with hidden keys exactly 0, and float32's fast kernels giving the reference's
//     bits.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../tests/native/failing_allocations.hpp"
#include "fuzz_input.hpp"
#include "model/model.hpp"

namespace {

using failing_allocations::allocations_until_failure;
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
    // 12 D^2 + 9 D per layer; embed V D; learned positions P D; final norm 2 D; readout D C + C; four values each
    const __int128 D = c.width;
    const __int128 count = c.vocab * D + (learned ? *c.max_length * D : 0) + c.layers * (12 * D * D + 9 * D) + 2 * D +
                           D * c.classes + c.classes;
    return {.length_error = 4 * count * static_cast<__int128>(element_bytes) > (__int128{1} << 30)};
}

std::int32_t draw_value(Input& in, std::int64_t low, std::int64_t high) {  // mostly in [low, high), sometimes not
    const std::uint8_t k = in.byte();
    if (k < 232) return static_cast<std::int32_t>(low + k % (high - low));
    static constexpr std::int32_t bad[] = {INT32_MIN, -2, -1, 0, INT32_MAX};
    if (k % 2 == 0) return bad[k % 5];
    return static_cast<std::int32_t>(std::min<std::int64_t>(high + k % 3, INT32_MAX));
}

template <class T>
bool all_finite(std::span<const T> xs) {
    for (T x : xs)
        if (!std::isfinite(x)) return false;
    return true;
}

template <class T>
void check_finite(std::span<const T> xs, const std::string& what) {
    FUZZ_CHECK(all_finite(xs), what + " holds a value that is not finite");
}

// What no failing call may change: the parameters, Adam's moments and its step count, bit for bit.
template <class T>
struct State {
    std::vector<T> values, m, v;
    std::int64_t steps = 0;
    explicit State(const Model<T>& model)
        : values(model.values().begin(), model.values().end()),
          m(model.optimizer().first_moment().begin(), model.optimizer().first_moment().end()),
          v(model.optimizer().second_moment().begin(), model.optimizer().second_moment().end()),
          steps(model.steps()) {}
    bool same(const State& o) const {
        auto bits = [](const std::vector<T>& a, const std::vector<T>& b) {
            return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
        };
        return steps == o.steps && bits(values, o.values) && bits(m, o.m) && bits(v, o.v);
    }
};

// One run: the configuration, the model and its twin (which makes only the calls that succeed, and never fails).
template <class T>
struct Run {
    Input& in;
    Config c;
    std::string call;              // the configuration, for messages
    std::optional<Model<T>> model, twin;
    bool moderate = true;          // parameters small enough that every output is finite
    std::int64_t fail_at = -1;     // this round's calls each fail at this allocation (-1: none)

    Run(Input& input, const Config& config, std::string text) : in(input), c(config), call(std::move(text)) {}

    // The documented invariants of the model's state, after every operation.
    void check_state(const std::string& what) {
        const State<T> a(*model), b(*twin);
        FUZZ_CHECK(a.same(b), what + ": the model and its twin differ (" + call + ")");
        FUZZ_CHECK(all_finite<T>(a.values) && all_finite<T>(a.m) && all_finite<T>(a.v),
                   what + ": a parameter or moment is not finite (" + call + ")");
    }

    // Runs `work` (a call on *model) as the documentation says it ends: `expected`, or, when `refusable`, a refused
    // step (range_error: a loss or an update that would not be finite). When the round fails an allocation, the call is first made with it failing: a bad_alloc, or
    // any error, must leave the state as it was; a success counts as the call. Returns whether the call succeeded.
    template <class F>
    bool attempt(const Expected& expected, F&& work, const std::string& what, bool refusable = false) {
        const State<T> before(*model);
        if (fail_at >= 0) {
            bool done = false;
            allocations_until_failure = fail_at;
            try {
                work();
                done = true;
            } catch (const std::exception&) {
            }
            allocations_until_failure = -1;
            static const bool verbose = std::getenv("SEQORDER_FUZZ_VERBOSE") != nullptr;
            if (verbose) std::fprintf(stderr, "%s -> %s\n", what.c_str(), done ? "ok" : "failed");
            if (done) {
                FUZZ_CHECK(!expected.any(), what + ": returned normally, expected" + expected.describe());
                return true;
            }
            FUZZ_CHECK(State<T>(*model).same(before), what + " failed (allocation " + std::to_string(fail_at) +
                                                           " or a rule) and changed the model");
        }
        bool refused = false;
        const Outcome outcome = expect_outcome(expected, [&] {
            try {
                work();
            } catch (const std::range_error& e) {
                FUZZ_CHECK(refusable, what + ": refused with moderate parameters and lr: " + e.what());
                refused = true;
            }
        }, what);
        if (outcome && !refused) return true;
        FUZZ_CHECK(State<T>(*model).same(before), what + " failed and changed the model");
        return false;
    }

    // The model of c and its twin, afresh.
    void create() {
        model.emplace(c);
        twin.emplace(c);
        moderate = true;
    }

    void set_parameters(int mode);
    void round();
    void compare_forward();
};

// Every parameter to other values: mode 0 moderate (what set_parameters accepts and keeps every output finite), 1
// the fuzzer's values as they come (non-finite ones refused), 2 huge but finite.
template <class T>
void Run<T>::set_parameters(int mode) {
    std::vector<T> values(model->values().size());
    in.fill<T>(values);
    bool finite = true;
    for (T& x : values) {
        if (mode == 0) x = std::isfinite(x) ? std::fmod(x, T{4}) : T{1};
        if (mode == 2) x = std::isfinite(x) ? std::fmod(x, T{4}) * static_cast<T>(1e30) : T{1};
        finite = finite && std::isfinite(x);
    }
    std::vector<ParameterUpdate<T>> updates;
    for (const auto& p : model->parameters())
        updates.push_back({p.name, p.shape, std::span<const T>(values).subspan(p.offset, p.size)});
    if (attempt({.invalid_argument = !finite}, [&] { model->set_parameters(updates); }, "set_parameters " + call)) {
        twin->set_parameters(updates);
        moderate = mode == 0;
    }
}

// A forward at a drawn (small) shape on the model and its twin: the same bits (or the same error).
template <class T>
void Run<T>::compare_forward() {
    const std::int64_t batch = 1 + in.byte() % 3, length = 1 + in.byte() % 24;
    if (c.positions == Positions::learned && length > *c.max_length) return;
    std::vector<std::int32_t> ids(static_cast<std::size_t>(batch * length));
    for (std::int32_t& id : ids) id = static_cast<std::int32_t>(in.byte() % c.vocab);
    const std::size_t rows = static_cast<std::size_t>(c.readout == Readout::each ? batch * length : batch);
    std::vector<T> a(rows * static_cast<std::size_t>(c.classes)), b(a.size());
    if (static_cast<std::int64_t>(a.size()) > kMaxElements) return;
    model->forward(a, ids, batch, length);
    twin->forward(b, ids, batch, length);
    FUZZ_CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0,
               "forward at (" + str(batch) + ", " + str(length) + ") differs from the twin's (" + call + ")");
}

// forward, loss, gradients, step and attention_weights on drawn ids and targets.
template <class T>
void Run<T>::round() {
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
               2 * (B * D + (each ? N : B) * c.classes) + Tn * D + 4 * D * D + D * c.classes + hd * Tn + Tn * Tn;
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
    const std::string inputs = call + " on ids (" + std::to_string(batch) + ", " + std::to_string(length) + ")" +
                               (fail_at >= 0 ? ", allocation " + std::to_string(fail_at) + " failing" : "");
    const auto C = static_cast<std::size_t>(c.classes);

    std::vector<T> logits(shape_ok ? static_cast<std::size_t>(each ? tokens : batch) * C : 0);
    if (attempt(outcome(false, true), [&] { model->forward(logits, ids, batch, length); }, "forward " + inputs) &&
        moderate) {
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
    if (attempt(outcome(true, true), [&] { loss = model->loss(ids, targets, batch, length); }, "loss " + inputs) &&
        moderate) {
        FUZZ_CHECK(std::isfinite(loss) && loss >= 0, "loss " + inputs + " = " + str(loss));
        bool counted = false;
        for (std::int32_t t : targets) counted = counted || t != -1;
        if (!counted) FUZZ_CHECK(loss == 0, "loss " + inputs + " with every target ignored = " + str(loss));
    }
    std::vector<T> gradients(model->values().size() + (in.byte() % 32 == 0 ? 1 : 0));
    double gradient_loss = -1;
    if (attempt(outcome(true, gradients.size() == model->values().size()),
                [&] { gradient_loss = model->gradients(gradients, ids, targets, batch, length); },
                "gradients " + inputs) &&
        moderate) {
        FUZZ_CHECK(gradient_loss == loss, "gradients " + inputs + ": loss " + str(gradient_loss) + " vs " + str(loss));
        check_finite<T>(gradients, "gradients " + inputs);
        if (ignore_all)
            for (T g : gradients) FUZZ_CHECK(g == T{0}, "gradients " + inputs + ": nonzero with every target ignored");
    }
    static constexpr double rates[] = {1e-3, 0.0, 0.1, -1.0, NAN, 1e39, 1e308};
    const double lr = rates[in.byte() % 7];
    Expected step_expected = outcome(true, true);
    if (!(lr >= 0) || (sizeof(T) == 4 && lr > 3.4028234663852886e38)) step_expected = {.invalid_argument = true};
    double step_loss = -1;
    // a refused step: only with parameters that are not moderate, or an lr of 1e308 (float64: an update of about 3e308)
    if (attempt(step_expected, [&] { step_loss = model->step(ids, targets, batch, length, lr); }, "step " + inputs,
                !moderate || lr > 1)) {
        FUZZ_CHECK(std::isfinite(step_loss), "step " + inputs + " returned a loss that is not finite");
        if (moderate && fail_at < 0)
            FUZZ_CHECK(step_loss == loss, "step " + inputs + ": returned " + str(step_loss) + ", the loss was " + str(loss));
        const double twin_loss = twin->step(ids, targets, batch, length, lr);
        FUZZ_CHECK(std::memcmp(&twin_loss, &step_loss, sizeof(double)) == 0, "step " + inputs + ": the twin's loss differs");
        if (lr > 0.2) moderate = false;  // lr 1e308 in float64: parameters of about 1e308
    }
    check_state("step " + inputs);
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
    if (!attempt(weights_expected, [&] { model->attention_weights(weights, first, length); },
                 "attention_weights " + inputs) ||
        !moderate)
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
    Run<T> r(in, c, call);
    if (!expect_outcome(config_expected, [&] { r.create(); }, call)) return;

    if (in.flag()) r.set_parameters(0);
    r.round();
    // then a sequence of operations, each followed by the state's invariants
    const int operations = in.byte() % 16;
    for (int op = 0; op < operations; ++op) {
        const std::uint8_t kind = in.byte();
        std::string what;
        switch (kind % 5) {
            case 0:  // another round, each call first made with one allocation failing
                r.fail_at = in.byte() % 48;
                r.round();
                r.fail_at = -1;
                what = "a round with allocation failures";
                break;
            case 1:
                r.set_parameters(in.byte() % 3);
                what = "set_parameters";
                break;
            case 2:
                r.compare_forward();
                what = "forward at a new length";
                break;
            case 3:  // dispose, and create again
                r.model.reset();
                r.twin.reset();
                r.create();
                what = "dispose and create";
                break;
            default:
                r.round();
                what = "a round";
        }
        r.check_state(what + " (operation " + std::to_string(op) + ")");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return run_float_or_double(data, size, [](Input& in, auto zero) { run<decltype(zero)>(in); });
}
