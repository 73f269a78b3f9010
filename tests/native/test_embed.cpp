// The two lookups: token embedding (embed, lesson 1: "which token") and learned absolute positions
// (learned_positions: "where"), against the numpy fixtures, and every error path.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "calling.hpp"
#include "compare.hpp"
#include "embed.hpp"
#include "fixtures.hpp"

using Catch::Matchers::Contains;
using seqorder::Shape;
using seqorder::Tensor;

// A lookup copies rows: every value must be bit-for-bit the table's (fixture tables hold float32 values exactly), so
// these comparisons use a tolerance of zero.
constexpr double kCopyIsExact = 0.0;

TEMPLATE_TEST_CASE("embed matches numpy's lookup table(ids) exactly, for ids (T) and (B, T)", "[embed][fixtures]", double,
                   float) {
    const fixtures::File& file = fixtures::cached("lookup.txt");
    const std::size_t cases = file.count("embed", "table");
    REQUIRE(cases >= 3);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "embed/" + std::to_string(n);
        const fixtures::Array& want = file[prefix + "/output"];
        const Tensor<TestType> got =
            testing::embed(testing::tensor_of<TestType>(file[prefix + "/table"]), testing::tensor_of<std::int32_t>(file[prefix + "/ids"]));
        CHECK(got.shape() == Shape(want.shape.begin(), want.shape.end()));
        testing::check_within_abs<TestType>(prefix, got.data(), want, kCopyIsExact);
    }
}

TEMPLATE_TEST_CASE("learned_positions matches numpy's rows start..start+length-1 exactly", "[learned][fixtures]", double,
                   float) {
    const fixtures::File& file = fixtures::cached("lookup.txt");
    const std::size_t cases = file.count("learned", "table");
    REQUIRE(cases >= 3);
    for (std::size_t n = 0; n < cases; ++n) {
        const std::string prefix = "learned/" + std::to_string(n);
        const fixtures::Array& params = file[prefix + "/params"];
        const fixtures::Array& want = file[prefix + "/output"];
        const Tensor<TestType> got = testing::learned_positions(testing::tensor_of<TestType>(file[prefix + "/table"]),
                                                                 params.integer(0), params.integer(1));
        CHECK(got.shape() == Shape{static_cast<std::size_t>(params.integer(0)), want.dim(1)});
        testing::check_within_abs<TestType>(prefix, got.data(), want, kCopyIsExact);
    }
}

TEST_CASE("embed: the lookup knows which token, never where", "[embed][properties]") {
    const Tensor<double> table = testing::random_tensor<double>({5, 4}, 11);
    const Tensor<std::int32_t> ids({2, 3}, std::vector<std::int32_t>{3, 1, 3, 0, 4, 3});
    const Tensor<double> x = testing::embed(table, ids);
    REQUIRE(x.shape() == Shape{2, 3, 4});
    // Token 3 gets the same vector at [0, 0], [0, 2] and [1, 2]: the same row of the table, wherever it sits.
    for (std::size_t d = 0; d < 4; ++d) {
        CHECK(x(0, 0, d) == table(3, d));
        CHECK(x(0, 2, d) == table(3, d));
        CHECK(x(1, 2, d) == table(3, d));
    }
    SECTION("empty ids give an empty result of the right shape") {
        CHECK(testing::embed(table, Tensor<std::int32_t>({0})).shape() == Shape{0, 4});
        CHECK(testing::embed(table, Tensor<std::int32_t>({3, 0})).shape() == Shape{3, 0, 4});
    }
}

TEST_CASE("embed: an id outside 0..V-1 is a std::out_of_range naming the id and where it was", "[embed][errors]") {
    const Tensor<float> table = testing::random_tensor<float>({7, 4}, 3);
    SECTION("ids (T)") {
        const Tensor<std::int32_t> ids({4}, std::vector<std::int32_t>{0, 6, -1, 2});
        REQUIRE_THROWS_AS(testing::embed(table, ids), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::embed(table, ids), Contains("ids[2] = -1") && Contains("rows 0..6"));
    }
    SECTION("ids (B, T): the index is written [b, t]") {
        const Tensor<std::int32_t> ids({2, 4}, std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
        REQUIRE_THROWS_AS(testing::embed(table, ids), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::embed(table, ids), Contains("ids[1, 3] = 7") && Contains("rows 0..6"));
    }
    SECTION("extreme ids") {
        const std::int32_t big = std::numeric_limits<std::int32_t>::max(), small = std::numeric_limits<std::int32_t>::min();
        REQUIRE_THROWS_WITH(testing::embed(table, Tensor<std::int32_t>({1}, std::vector<std::int32_t>{big})), Contains("ids[0] = 2147483647"));
        REQUIRE_THROWS_WITH(testing::embed(table, Tensor<std::int32_t>({1}, std::vector<std::int32_t>{small})), Contains("ids[0] = -2147483648"));
    }
    SECTION("every id is checked (check_ids, before the call allocates anything)") {
        const std::vector<std::int32_t> ids = {1, 2, 9};
        REQUIRE_THROWS_WITH(seqorder::check_ids(ids, 7, Shape{3}), Contains("ids[2] = 9"));
    }
    SECTION("an empty table has no valid id") {
        REQUIRE_THROWS_AS(testing::embed(Tensor<double>({0, 4}), Tensor<std::int32_t>({1}, std::vector<std::int32_t>{0})), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::embed(Tensor<double>({0, 4}), Tensor<std::int32_t>({1}, std::vector<std::int32_t>{0})),
                            Contains("(the table has none)"));
    }
    SECTION("a bad id is reported before the result is allocated") {
        // 512 ids into a (1, 2^22) table would need an 8 GiB result, beyond the size limit: the id error comes first.
        std::vector<std::int32_t> ids(512, 0);
        ids[511] = 1;
        const Tensor<float> wide({1, std::size_t{1} << 22});
        REQUIRE_THROWS_AS(testing::embed(wide, Tensor<std::int32_t>({512}, ids)), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::embed(wide, Tensor<std::int32_t>({512}, ids)), Contains("ids[511] = 1"));
    }
}

TEST_CASE("embed: shapes of the table and of the ids are checked", "[embed][errors]") {
    const Tensor<double> table({5, 4});
    REQUIRE_THROWS_AS(testing::embed(Tensor<double>({20}), Tensor<std::int32_t>({2})), std::invalid_argument);
    REQUIRE_THROWS_WITH(testing::embed(Tensor<double>({20}), Tensor<std::int32_t>({2})),
                        Contains("table must have shape (V, D), got [20]"));
    REQUIRE_THROWS_WITH(testing::embed(Tensor<double>({2, 5, 4}), Tensor<std::int32_t>({2})),
                        Contains("table must have shape (V, D)"));
    REQUIRE_THROWS_AS(testing::embed(table, Tensor<std::int32_t>({1, 2, 2})), std::invalid_argument);
    REQUIRE_THROWS_WITH(testing::embed(table, Tensor<std::int32_t>({1, 2, 2})),
                        Contains("ids must have shape (T) or (B, T), got [1, 2, 2]"));
    REQUIRE_THROWS_WITH(testing::embed(table, Tensor<std::int32_t>(Shape{})), Contains("ids must have shape"));
}

TEST_CASE("learned_positions: a finite table has a supported range", "[learned][errors]") {
    const Tensor<double> table = testing::random_tensor<double>({16, 8}, 5);
    SECTION("rows past the last one are a std::out_of_range, never a wrap or a clamp") {
        REQUIRE_THROWS_AS(testing::learned_positions(table, 5, 12), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::learned_positions(table, 5, 12),
                            Contains("start + length must be at most the table's rows P = 16, got rows 12..16"));
        REQUIRE_THROWS_WITH(testing::learned_positions(table, 17, 0), Contains("must be at most the table's rows P = 16"));
        REQUIRE_THROWS_WITH(testing::learned_positions(table, 1, 16), Contains("must be at most the table's rows P = 16"));
        REQUIRE_THROWS_WITH(testing::learned_positions(table, 2, std::int64_t{1} << 53),
                            Contains("must be at most the table's rows P = 16"));
        REQUIRE_THROWS_AS(testing::learned_positions(Tensor<float>({0, 8}), 1, 0), std::out_of_range);
        REQUIRE_THROWS_WITH(testing::learned_positions(Tensor<float>({0, 8}), 1, 0), Contains("rows P = 0"));
    }
    SECTION("the range is checked before the result is allocated") {
        // 2^40 rows of 8 would be far beyond the size limit: the range error must come first, not a length_error.
        REQUIRE_THROWS_AS(testing::learned_positions(table, std::int64_t{1} << 40, 0), std::out_of_range);
    }
    SECTION("the last rows and the empty slice at the end are fine") {
        const Tensor<double> last = testing::learned_positions(table, 4, 12);
        testing::check_identical<double>("rows 12..15", last.data(), table.data().subspan(12 * 8));
        CHECK(testing::learned_positions(table, 0, 16).shape() == Shape{0, 8});
    }
    SECTION("negative length or start, and a table that is not (P, D)") {
        REQUIRE_THROWS_AS(testing::learned_positions(table, -1, 0), std::invalid_argument);
        REQUIRE_THROWS_WITH(testing::learned_positions(table, -1, 0), Contains("length must be an integer at least 0"));
        REQUIRE_THROWS_AS(testing::learned_positions(table, 2, -1), std::invalid_argument);
        REQUIRE_THROWS_WITH(testing::learned_positions(table, 2, -1), Contains("start must be an integer at least 0"));
        REQUIRE_THROWS_WITH(testing::learned_positions(Tensor<double>({16}), 2, 0), Contains("table must have shape (P, D)"));
        REQUIRE_THROWS_WITH(seqorder::check_learned_positions_args(16, -2, 0), Contains("length must be"));
        REQUIRE_THROWS_WITH(seqorder::check_learned_positions_args(16, 2, 15), Contains("must be at most the table's rows P = 16"));
    }
}
