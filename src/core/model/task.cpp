#include "task.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "random.hpp"
#include "sizes.hpp"

namespace seqorder::model {
namespace {

// The ids of every word but robot and person, in vocabulary order.
std::vector<std::int32_t> filler_ids() {
    std::vector<std::int32_t> fillers;
    for (std::size_t id = 0; id < kTaskWords.size(); ++id)
        if (static_cast<std::int32_t>(id) != kRobot && static_cast<std::int32_t>(id) != kPerson)
            fillers.push_back(static_cast<std::int32_t>(id));
    return fillers;
}

// count sentences of length tokens within the tensor limit, and one sentence whatever the count (an empty batch of
// impossible sentences is refused too). Returns count * length.
std::size_t check_sentences(std::int64_t count, std::int64_t length) {
    checked_count({length}, sizeof(std::int32_t), "one sentence of length = " + std::to_string(length) + " tokens");
    return checked_count({count, length}, sizeof(std::int32_t), "ids of count * length = " +
                         std::to_string(saturating_mul(count, length)) + " tokens");
}

// The two spans of a task's result, of n and targets values.
void check_spans(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::size_t n, std::size_t targets_n) {
    if (ids.size() != n || targets.size() != targets_n)
        throw std::invalid_argument("ids must hold count * length = " + std::to_string(n) + " values and targets " +
                                    std::to_string(targets_n) + ", got " + std::to_string(ids.size()) + " and " +
                                    std::to_string(targets.size()));
}

// Every word drawn uniformly from the whole vocabulary, word after word, sentence after sentence, from one SplitMix64
// stream seeded with `seed`: the sentences of lookback_task and induction_task.
void uniform_words(std::span<std::int32_t> ids, std::uint64_t seed) {
    SplitMix64 generator(seed);
    for (std::int32_t& id : ids) id = static_cast<std::int32_t>(generator.uniform_below(kTaskWords.size()));
}

}  // namespace

std::size_t check_order_task(std::int64_t count, std::int64_t length, bool mirrored) {
    if (count < 0) throw std::invalid_argument("count must be a non-negative integer, got " + std::to_string(count));
    if (mirrored && count % 2 != 0)
        throw std::invalid_argument("count must be even with mirrored: true (sentences come in pairs), got " +
                                    std::to_string(count));
    if (length < 2)
        throw std::invalid_argument("length must be at least 2 (a sentence holds robot and person), got " +
                                    std::to_string(length));
    return check_sentences(count, length);
}

void order_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                     std::int64_t length, std::uint64_t seed, bool mirrored) {
    const std::size_t n = check_order_task(count, length, mirrored);
    check_spans(ids, targets, n, static_cast<std::size_t>(count));
    const std::vector<std::int32_t> fillers = filler_ids();
    const auto T = static_cast<std::size_t>(length);
    SplitMix64 generator(seed);
    const std::size_t step = mirrored ? 2 : 1;
    for (std::size_t s = 0; s < static_cast<std::size_t>(count); s += step) {
        std::int32_t* sentence = ids.data() + s * T;
        for (std::size_t t = 0; t < T; ++t) sentence[t] = fillers[generator.uniform_below(fillers.size())];
        const std::size_t robot = generator.uniform_below(T);
        std::size_t person = generator.uniform_below(T - 1);
        if (person >= robot) ++person;
        sentence[robot] = kRobot;
        sentence[person] = kPerson;
        targets[s] = robot < person ? 1 : 0;
        if (!mirrored) continue;
        std::int32_t* mirror = sentence + T;
        for (std::size_t t = 0; t < T; ++t) mirror[t] = sentence[t];
        mirror[robot] = kPerson;
        mirror[person] = kRobot;
        targets[s + 1] = 1 - targets[s];
    }
}

TaskBatch order_task(std::int64_t count, std::int64_t length, std::uint64_t seed, bool mirrored) {
    check_order_task(count, length, mirrored);
    TaskBatch batch{Tensor<std::int32_t>({static_cast<std::size_t>(count), static_cast<std::size_t>(length)}, "ids"),
                    Tensor<std::int32_t>({static_cast<std::size_t>(count)}, "targets")};
    order_task_into(batch.ids.data(), batch.targets.data(), count, length, seed, mirrored);
    return batch;
}

std::size_t check_lookback_task(std::int64_t count, std::int64_t length, std::int64_t back) {
    if (count < 0) throw std::invalid_argument("count must be a non-negative integer, got " + std::to_string(count));
    if (back < 1) throw std::invalid_argument("back must be at least 1 (the word 1 place back, or more), got " +
                                              std::to_string(back));
    if (length <= back)
        throw std::invalid_argument("length must be greater than back = " + std::to_string(back) +
                                    " (a sentence needs a word back places before its last), got " +
                                    std::to_string(length));
    return check_sentences(count, length);
}

void lookback_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                        std::int64_t length, std::int64_t back, std::uint64_t seed) {
    const std::size_t n = check_lookback_task(count, length, back);
    check_spans(ids, targets, n, n);
    const auto T = static_cast<std::size_t>(length), k = static_cast<std::size_t>(back);
    uniform_words(ids, seed);
    for (std::size_t i = 0; i < n; ++i) targets[i] = i % T < k ? -1 : ids[i - k];
}

TaskBatch lookback_task(std::int64_t count, std::int64_t length, std::int64_t back, std::uint64_t seed) {
    check_lookback_task(count, length, back);
    const Shape shape{static_cast<std::size_t>(count), static_cast<std::size_t>(length)};
    TaskBatch batch{Tensor<std::int32_t>(shape, "ids"), Tensor<std::int32_t>(shape, "targets")};
    lookback_task_into(batch.ids.data(), batch.targets.data(), count, length, back, seed);
    return batch;
}

std::size_t check_induction_task(std::int64_t count, std::int64_t length) {
    if (count < 0) throw std::invalid_argument("count must be a non-negative integer, got " + std::to_string(count));
    if (length < 2)
        throw std::invalid_argument("length must be at least 2 (a word needs an earlier one to repeat), got " +
                                    std::to_string(length));
    return check_sentences(count, length);
}

void induction_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                         std::int64_t length, std::uint64_t seed) {
    const std::size_t n = check_induction_task(count, length);
    check_spans(ids, targets, n, n);
    const auto T = static_cast<std::size_t>(length);
    uniform_words(ids, seed);
    for (std::size_t start = 0; start < n; start += T) {
        std::array<std::size_t, kTaskWords.size()> last{};  // 1 + the position of each word's last occurrence, 0: none
        for (std::size_t t = 0; t < T; ++t) {
            const auto word = static_cast<std::size_t>(ids[start + t]);
            targets[start + t] = last[word] == 0 ? -1 : ids[start + last[word]];  // the word after its last occurrence
            last[word] = t + 1;
        }
    }
}

TaskBatch induction_task(std::int64_t count, std::int64_t length, std::uint64_t seed) {
    check_induction_task(count, length);
    const Shape shape{static_cast<std::size_t>(count), static_cast<std::size_t>(length)};
    TaskBatch batch{Tensor<std::int32_t>(shape, "ids"), Tensor<std::int32_t>(shape, "targets")};
    induction_task_into(batch.ids.data(), batch.targets.data(), count, length, seed);
    return batch;
}

template <class F>
Score score(std::span<const F> logits, std::span<const std::int32_t> targets, std::int64_t classes) {
    if (classes < 1 || logits.size() != targets.size() * static_cast<std::size_t>(classes))
        throw std::invalid_argument("logits must hold targets.size() * classes values");
    const auto C = static_cast<std::size_t>(classes);
    Score s;
    for (std::size_t r = 0; r < targets.size(); ++r) {
        if (targets[r] == -1) continue;
        const F* row = logits.data() + r * C;
        std::size_t best = 0;
        for (std::size_t c = 1; c < C; ++c)
            if (row[c] > row[best]) best = c;
        ++s.counted;
        if (static_cast<std::int32_t>(best) == targets[r]) ++s.correct;
    }
    return s;
}

template Score score<double>(std::span<const double>, std::span<const std::int32_t>, std::int64_t);
template Score score<float>(std::span<const float>, std::span<const std::int32_t>, std::int64_t);

}  // namespace seqorder::model
