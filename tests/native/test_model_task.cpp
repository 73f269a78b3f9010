// The order task (task.hpp): one robot and one person per sentence, targets that say which comes first, mirrored pairs,
// determinism, balance; and the accuracy score.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/task.hpp"

namespace {

using seqorder::model::kPerson;
using seqorder::model::kRobot;
using seqorder::model::kTaskWords;
using seqorder::model::induction_task;
using seqorder::model::lookback_task;
using seqorder::model::order_task;
using seqorder::model::score;

TEST_CASE("model task: the vocabulary holds the lesson's words", "[model][task]") {
    CHECK(kTaskWords.size() == 16);
    CHECK(kTaskWords[kRobot] == "robot");
    CHECK(kTaskWords[kPerson] == "person");
    const std::string_view page[] = {"the", "robot", "follows", "person", "sees", "a", "box", "and", "lifts", "it"};
    for (std::size_t i = 0; i < 10; ++i) CHECK(kTaskWords[i] == page[i]);
}

TEST_CASE("model task: every sentence has one robot, one person, and the target says which comes first",
          "[model][task]") {
    for (const bool mirrored : {false, true}) {
        for (std::int64_t length : {2, 3, 8, 16, 33}) {
            const auto batch = order_task(400, length, 17, mirrored);
            const auto T = static_cast<std::size_t>(length);
            std::int64_t ones = 0;
            std::vector<std::int64_t> robot_at(T, 0);
            for (std::size_t s = 0; s < 400; ++s) {
                std::int64_t robot = -1, person = -1, robots = 0, persons = 0;
                for (std::size_t t = 0; t < T; ++t) {
                    const std::int32_t id = batch.ids(s, t);
                    REQUIRE(id >= 0);
                    REQUIRE(id < 16);
                    if (id == kRobot) robot = static_cast<std::int64_t>(t), ++robots;
                    if (id == kPerson) person = static_cast<std::int64_t>(t), ++persons;
                }
                REQUIRE(robots == 1);
                REQUIRE(persons == 1);
                REQUIRE(batch.targets.data()[s] == (robot < person ? 1 : 0));
                ones += batch.targets.data()[s];
                robot_at[static_cast<std::size_t>(robot)] += 1;
                if (mirrored && s % 2 == 1) {  // the mirror of sentence s - 1: robot and person swapped, nothing else
                    for (std::size_t t = 0; t < T; ++t) {
                        const std::int32_t a = batch.ids(s - 1, t), b = batch.ids(s, t);
                        REQUIRE(b == (a == kRobot ? kPerson : a == kPerson ? kRobot : a));
                    }
                }
            }
            INFO("length " << length << (mirrored ? ", mirrored" : ""));
            if (mirrored) CHECK(ones == 200);
            else CHECK(std::abs(ones - 200) < 50);  // balanced: binomial(400, 1/2), 5 standard deviations
            for (std::int64_t c : robot_at) CHECK(c > 0);  // robot stands everywhere
        }
    }
}

TEST_CASE("model task: the same seed gives the same sentences, another seed others", "[model][task]") {
    const auto a = order_task(50, 9, 3, false), b = order_task(50, 9, 3, false), c = order_task(50, 9, 4, false);
    CHECK(std::vector<std::int32_t>(a.ids.data().begin(), a.ids.data().end()) ==
          std::vector<std::int32_t>(b.ids.data().begin(), b.ids.data().end()));
    CHECK(std::vector<std::int32_t>(a.ids.data().begin(), a.ids.data().end()) !=
          std::vector<std::int32_t>(c.ids.data().begin(), c.ids.data().end()));
}

TEST_CASE("model task: score counts first-largest logits over counted targets", "[model][task]") {
    const std::vector<float> logits = {0.1f, 0.9f, 0.5f, 0.5f, 2.0f, -1.0f, 0.0f, 3.0f};
    const std::vector<std::int32_t> targets = {1, 0, 1, -1};
    const auto s = score<float>(logits, targets, 2);
    CHECK(s.counted == 3);
    CHECK(s.correct == 2);  // row 0 right, row 1 a tie (class 0 wins) right, row 2 wrong
    CHECK(s.fraction() == 2.0 / 3.0);
    CHECK_THROWS_AS(score<float>(logits, targets, 3), std::invalid_argument);
    CHECK(score<double>({}, {}, 2).fraction() == 0.0);
}

TEST_CASE("model task: lookback's target at t is the word back places earlier, -1 before; words are uniform",
          "[model][task]") {
    for (std::int64_t back : {1, 2, 5}) {
        for (std::int64_t length : {back + 1, std::int64_t{12}, std::int64_t{33}}) {
            const auto batch = lookback_task(300, length, back, 9);
            const auto T = static_cast<std::size_t>(length), k = static_cast<std::size_t>(back);
            REQUIRE(batch.ids.shape() == seqorder::Shape{300, T});
            REQUIRE(batch.targets.shape() == seqorder::Shape{300, T});
            std::vector<std::int64_t> counts(16, 0);
            for (std::size_t s = 0; s < 300; ++s)
                for (std::size_t t = 0; t < T; ++t) {
                    const std::int32_t id = batch.ids(s, t);
                    REQUIRE(id >= 0);
                    REQUIRE(id < 16);
                    ++counts[static_cast<std::size_t>(id)];
                    REQUIRE(batch.targets(s, t) == (t < k ? -1 : batch.ids(s, t - k)));
                }
            INFO("back " << back << ", length " << length);
            const double expected = 300.0 * static_cast<double>(T) / 16;  // binomial, 5 standard deviations
            for (std::int64_t c : counts) CHECK(std::abs(static_cast<double>(c) - expected) < 5 * std::sqrt(expected));
        }
    }
    // the same seed, the same sentences; the words do not depend on back
    CHECK(lookback_task(4, 9, 2, 3).ids.data()[17] == lookback_task(4, 9, 5, 3).ids.data()[17]);
    CHECK(lookback_task(0, 5, 3, 1).ids.shape() == seqorder::Shape{0, 5});
}

TEST_CASE("model task: induction's target is the word after the last earlier occurrence, by a search back",
          "[model][task]") {
    for (std::int64_t length : {2, 3, 12, 40}) {
        const auto batch = induction_task(300, length, 21);
        const auto T = static_cast<std::size_t>(length);
        REQUIRE(batch.targets.shape() == seqorder::Shape{300, T});
        std::int64_t counted = 0, repeats_at_once = 0;
        for (std::size_t s = 0; s < 300; ++s)
            for (std::size_t t = 0; t < T; ++t) {
                std::int32_t want = -1;  // a search back from t - 1 for the same word
                for (std::size_t u = t; u-- > 0;)
                    if (batch.ids(s, u) == batch.ids(s, t)) {
                        want = batch.ids(s, u + 1);
                        repeats_at_once += u + 1 == t;
                        break;
                    }
                REQUIRE(batch.targets(s, t) == want);
                counted += want != -1;
            }
        INFO("length " << length);
        // the first word never has a target; at length 40 about 25 of 40 words have occurred before (40 minus the
        // expected distinct words, 16 (1 - (15/16)^40) = 14.8)
        for (std::size_t s = 0; s < 300; ++s) REQUIRE(batch.targets(s, 0) == -1);
        if (length == 40) CHECK(counted > 300 * 22);
        if (length >= 12) CHECK(repeats_at_once > 0);
    }
    // the words are lookback_task's (the same draws), and the same seed gives the same sentences
    const auto a = induction_task(5, 9, 3), b = lookback_task(5, 9, 2, 3), c = induction_task(5, 9, 3);
    CHECK(std::vector<std::int32_t>(a.ids.data().begin(), a.ids.data().end()) ==
          std::vector<std::int32_t>(b.ids.data().begin(), b.ids.data().end()));
    CHECK(std::vector<std::int32_t>(a.targets.data().begin(), a.targets.data().end()) ==
          std::vector<std::int32_t>(c.targets.data().begin(), c.targets.data().end()));
    CHECK(induction_task(0, 5, 1).ids.shape() == seqorder::Shape{0, 5});
}

}  // namespace
