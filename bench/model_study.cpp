// Trains seqorder's model as the lab does and prints what it measures, one JSON line per run, for bench/model-study.mjs
// (which runs bench/model_reference.py's --study the same way and writes the tables of docs/model.md):
//
//   model_study <task> <back> <steps> <embedScale> <setup> <seed>...
//     task        order (readout 'mean', 2 classes), lookback (readout 'each', 16 classes, the word `back` places back)
//                 or induction (readout 'each', 16 classes; `back` unused)
//     embedScale  a number, or sqrtWidth
//     setup       none | causal | sinusoidal | learned | rotary, each optionally suffixed "-causal" (sinusoidal-causal),
//                 or the options themselves, comma-separated: positions=<kind>, causal=1, layers=<n>, maxLength=<n>,
//                 rotaryBase=<x>, rotaryPairs=<n>, buckets=<n>, maxDistance=<n> (positions=alibi,causal=1,layers=2),
//                 and the call option positionRange=<L> (randomized positions: every step's positions drawn from the
//                 model's training stream, every evaluation's from its evaluation stream; L at least every length
//                 measured), as bench/model_reference.py's --study takes them
//
// The lab's schedule and sets (web/js/lab/tasks.mjs): vocab 16, width 32, 2 heads, 1 layer unless the setup says
// more, float32, Adam at lr 3e-3, batch 32, step k on sentences of length 8 + k % 9; every 20 steps the accuracy on the
// held-out sentences (128 of length 12; the order task's mirrored); after the last step the accuracy at lengths 8, 12,
// 16, 32, 64 and 128 (256 sentences of length T, mirrored). The seed draws the initial parameters and every sentence:
// step k's are seeded data_seed(seed, 1000 + k), the held-out ones data_seed(seed, 7), those at length T
// data_seed(seed, 500 + T), with data_seed(seed, n) = 1,000,000 seed + n. A learned table has 16 rows unless the setup
// says otherwise: no accuracy past them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/task.hpp"
#include "model_harness.hpp"

namespace {

using namespace seqorder::model;
using harness::logits_of;
using harness::step_on;

struct Study {
    std::string task;
    std::int64_t back;
    bool order() const { return task == "order"; }
    TaskBatch sentences(std::int64_t count, std::int64_t length, std::uint64_t seed, bool mirrored) const {
        if (order()) return order_task(count, length, seed, mirrored);
        return task == "induction" ? induction_task(count, length, seed) : lookback_task(count, length, back, seed);
    }
};

/** The configuration a setup names (its kind of positions and mask), or spells out as key=value options; and the
 * options of its calls (positionRange). */
void apply_setup(Config& c, CallPositions& calls, const std::string& setup) {
    if (setup.find('=') == std::string::npos) {
        const std::string kind = setup.substr(0, setup.find('-'));
        c.causal = setup == "causal" || setup.ends_with("-causal");
        c.positions = kind == "none" || kind == "causal" ? Positions::none : positions_from_name(kind);
    } else {
        for (std::size_t at = 0; at < setup.size();) {
            const std::size_t end = std::min(setup.find(',', at), setup.size()), eq = setup.find('=', at);
            const std::string key = setup.substr(at, eq - at), value = setup.substr(eq + 1, end - eq - 1);
            const auto integer = [&] { return static_cast<std::int64_t>(std::atoll(value.c_str())); };
            if (key == "positions") c.positions = positions_from_name(value);
            else if (key == "causal") c.causal = value == "1";
            else if (key == "layers") c.layers = integer();
            else if (key == "maxLength") c.max_length = integer();
            else if (key == "rotaryBase") c.rotary_base = std::strtod(value.c_str(), nullptr);
            else if (key == "rotaryPairs") c.rotary_pairs = integer();
            else if (key == "buckets") c.buckets = integer();
            else if (key == "maxDistance") c.max_distance = integer();
            else if (key == "positionRange") calls.range = static_cast<double>(integer());
            else throw std::invalid_argument("model_study: unknown setup option " + key);
            at = end + 1;
        }
    }
    if (c.positions == Positions::learned && !c.max_length) c.max_length = 16;
}

/** The seed of a run's sentences of stream n (lab/tasks.mjs's dataSeed). */
std::uint64_t data_seed(std::uint64_t seed, std::uint64_t n) { return 1'000'000 * seed + n; }

double accuracy(Model<float>& model, const TaskBatch& batch, const CallPositions& calls) {
    const auto logits = logits_of(model, batch.ids, calls);
    return score<float>(logits, batch.targets.data(), model.config().classes).fraction();
}

void run(const Study& study, int steps, const std::string& scale, const std::string& setup, std::uint64_t seed) {
    Config c;
    c.vocab = 16;
    c.width = 32;
    c.heads = 2;
    c.layers = 1;
    CallPositions calls;  // every step's and evaluation's
    apply_setup(c, calls, setup);
    c.readout = study.order() ? Readout::mean : Readout::each;
    c.classes = study.order() ? 2 : 16;
    c.seed = seed;
    if (scale == "sqrtWidth") c.embed_scale.sqrt_width = true;
    else c.embed_scale.factor = std::strtod(scale.c_str(), nullptr);
    Model<float> model(c);
    const TaskBatch validation = study.sentences(128, 12, data_seed(seed, 7), true);
    std::string curve;
    int reached = -1;
    double first_loss = 0, loss = 0;
    for (int k = 0; k < steps; ++k) {
        const TaskBatch batch = study.sentences(32, 8 + k % 9, data_seed(seed, 1000 + static_cast<std::uint64_t>(k)), false);
        loss = step_on(model, batch, calls);
        if (k == 0) first_loss = loss;
        if ((k + 1) % 20 == 0) {
            const double a = accuracy(model, validation, calls);
            if (reached < 0 && a >= 0.95) reached = k + 1;
            curve += (curve.empty() ? "" : ",") + std::to_string(a);
        }
    }
    std::string lengths;
    for (std::int64_t T : {8, 12, 16, 32, 64, 128}) {
        if (c.max_length && T > *c.max_length) continue;
        const double a =
            accuracy(model, study.sentences(256, T, data_seed(seed, 500 + static_cast<std::uint64_t>(T)), true), calls);
        lengths += (lengths.empty() ? "" : ",") + ("\"" + std::to_string(T) + "\":" + std::to_string(a));
    }
    std::printf("{\"implementation\":\"seqorder\",\"task\":\"%s\",\"back\":%lld,\"steps\":%d,\"embedScale\":\"%s\","
                "\"setup\":\"%s\",\"seed\":%llu,\"firstLoss\":%.9g,\"lastLoss\":%.9g,\"stepsTo95\":%s,"
                "\"validation\":[%s],\"accuracy\":{%s}}\n",
                study.task.c_str(), static_cast<long long>(study.back), steps, scale.c_str(), setup.c_str(),
                static_cast<unsigned long long>(seed), first_loss, loss,
                reached < 0 ? "null" : std::to_string(reached).c_str(), curve.c_str(), lengths.c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::fprintf(stderr, "usage: model_study <order|lookback|induction> <back> <steps> <embedScale> <setup> <seed>...\n");
        return 2;
    }
    const Study study{argv[1], std::atoll(argv[2])};
    for (int i = 6; i < argc; ++i)
        run(study, std::atoi(argv[3]), argv[4], argv[5], static_cast<std::uint64_t>(std::atoll(argv[i])));
}
