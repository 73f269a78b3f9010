// The lesson's tasks, seeded sentences over a small vocabulary of the lesson's words: 'order' (does robot come before
// person?, one answer per sentence), 'lookback' (which word stands k places back?, one answer per position) and
// 'induction' (which word followed this one last time?, an answer at every repeated word); and the accuracy of a
// model's predictions on them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tensor.hpp"

namespace seqorder::model {

// The vocabulary: a token's id is its index here. The first ten are the lesson page's sentence words, in its order.
inline constexpr std::array<std::string_view, 16> kTaskWords = {
    "the", "robot", "follows", "person", "sees", "a", "box", "and",
    "lifts", "it", "near", "big", "small", "red", "slowly", "then"};
inline constexpr std::int32_t kRobot = 1;
inline constexpr std::int32_t kPerson = 3;

// 'order': count sentences of `length` tokens. Each has exactly one robot and one person, at two distinct positions
// drawn uniformly, and filler words (every other word of the vocabulary, uniformly) everywhere else; its target is 1
// when robot comes first, else 0. With `mirrored`, sentences come in pairs: sentence 2k + 1 is sentence 2k with robot
// and person swapped (and the other target), so both of a pair hold the same words and a model that cannot see order
// scores exactly one of the two.
// Draws, from one SplitMix64 stream seeded with `seed` (random.hpp), per sentence (per pair when mirrored): the
// `length` fillers in order (indices into the fillers by uniform_below(14)), robot's position by uniform_below(length),
// then person's by uniform_below(length - 1), skipping robot's.
// ids: (count, length), targets: (count). Throws as check_order_task does, and std::invalid_argument unless both spans
// hold exactly what the shape needs.
void order_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                     std::int64_t length, std::uint64_t seed, bool mirrored);

// The rules of order_task's arguments, checked before anything is drawn: std::invalid_argument unless count >= 0 (even
// when mirrored) and length >= 2; std::length_error when one sentence, or the ids, pass kMaxTensorBytes (a length
// no sentence can have is refused even with count 0). Returns count * length.
std::size_t check_order_task(std::int64_t count, std::int64_t length, bool mirrored);

struct TaskBatch {
    Tensor<std::int32_t> ids;      // (count, length)
    Tensor<std::int32_t> targets;  // (count) for 'order', (count, length) for 'lookback'
};
TaskBatch order_task(std::int64_t count, std::int64_t length, std::uint64_t seed, bool mirrored);

// 'lookback': count sentences of `length` words, each drawn uniformly from the whole vocabulary (uniform_below(16),
// word after word, sentence after sentence, from one SplitMix64 stream seeded with `seed`); the target at position t
// is the word `back` places earlier, ids[s, t - back], and -1 (ignored) for t < back. Position itself is the answer:
// a model must know where t - back is, whatever the words.
// ids and targets: (count, length). Throws as check_lookback_task does, and std::invalid_argument unless both spans
// hold exactly count * length values.
void lookback_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                        std::int64_t length, std::int64_t back, std::uint64_t seed);

// The rules of lookback_task's arguments, checked before anything is drawn: std::invalid_argument unless count >= 0,
// back >= 1 and length > back (every sentence has a word back places before its last); std::length_error when one
// sentence, or the ids, pass kMaxTensorBytes. Returns count * length.
std::size_t check_lookback_task(std::int64_t count, std::int64_t length, std::int64_t back);

TaskBatch lookback_task(std::int64_t count, std::int64_t length, std::int64_t back, std::uint64_t seed);

// 'induction' ("... A B ... A -> B", Olsson et al. 2022): count sentences of `length` words drawn exactly as
// lookback_task draws them; the target at position t is the word that followed the last earlier occurrence of the
// word at t, ids[s, u + 1] for the largest u < t with ids[s, u] == ids[s, t] (u + 1 == t when the word repeats at
// once), and -1 (ignored) where the word has not occurred before. A model must find the earlier occurrence and read
// what came after it: two steps of attention (a head that copies the previous word into each position, then one that
// matches), which one layer cannot compose.
// ids and targets: (count, length). Throws as check_induction_task does, and std::invalid_argument unless both spans
// hold exactly count * length values.
void induction_task_into(std::span<std::int32_t> ids, std::span<std::int32_t> targets, std::int64_t count,
                         std::int64_t length, std::uint64_t seed);

// The rules of induction_task's arguments, checked before anything is drawn: std::invalid_argument unless count >= 0
// and length >= 2 (a word can repeat); std::length_error when one sentence, or the ids, pass kMaxTensorBytes. Returns
// count * length.
std::size_t check_induction_task(std::int64_t count, std::int64_t length);

TaskBatch induction_task(std::int64_t count, std::int64_t length, std::uint64_t seed);

// How many of the counted rows a model gets right: logits (rows, classes), targets (rows), -1 not counted; a row's
// prediction is its first largest logit.
struct Score {
    std::int64_t correct = 0;
    std::int64_t counted = 0;
    double fraction() const { return counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0; }
};
template <class F>
Score score(std::span<const F> logits, std::span<const std::int32_t> targets, std::int64_t classes);

}  // namespace seqorder::model
