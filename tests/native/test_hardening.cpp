// Regressions for what the fuzz targets (fuzz/) found in the core, one test per finding. Each ran into a sanitizer
// report, an allocation of terabytes or a NaN table before its fix; the sanitize layer of npm test runs them under
// ASan + UBSan, so a signed overflow or an overrun here fails even when the result looks right.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "calling.hpp"
#include "calls.hpp"
#include "positions.hpp"
#include "rope.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define SEQORDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEQORDER_ASAN 1
#endif
#endif
#ifdef SEQORDER_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#endif

using Catch::Matchers::Contains;
using seqorder::Shape;
using seqorder::Tensor;
namespace calls = seqorder::calls;

namespace {
constexpr std::int64_t kHuge = std::int64_t{1} << 40;  // a width or length no table of this size could hold

// Runs `call` so that a block of more than `limit` bytes cannot go unnoticed: under AddressSanitizer its malloc hook
// records the largest block (checked after the call); elsewhere the address space is capped `limit` bytes above what
// the process maps now, so such a block cannot be had (malloc returns null: the call fails with out of memory).
#ifdef SEQORDER_ASAN
std::size_t largest_block = 0;
#endif
template <class F>
void with_blocks_under(std::size_t limit, F&& call) {
#ifdef SEQORDER_ASAN
    static const int installed = __sanitizer_install_malloc_and_free_hooks(
        [](const volatile void*, std::size_t bytes) { largest_block = std::max(largest_block, bytes); },
        [](const volatile void*) {});
    REQUIRE(installed != 0);
    largest_block = 0;
    call();
    CHECK(largest_block <= limit);
#else
    std::size_t pages = 0;  // the process's size: the first field of /proc/self/statm
    std::ifstream("/proc/self/statm") >> pages;
    REQUIRE(pages > 0);
    rlimit before{};
    REQUIRE(getrlimit(RLIMIT_AS, &before) == 0);
    rlimit capped = before;
    capped.rlim_cur = pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) + limit;
    REQUIRE(setrlimit(RLIMIT_AS, &capped) == 0);
    try {
        call();
    } catch (...) {
        setrlimit(RLIMIT_AS, &before);
        throw;
    }
    REQUIRE(setrlimit(RLIMIT_AS, &before) == 0);
#endif
}
}  // namespace

TEST_CASE("an empty positions table allocates nothing, whatever its width", "[positions][fuzz]") {
    // Was: positions_fast allocated its per-pair state (5 * width / 2 doubles) before looking at the length.
    const Tensor<double> table = testing::positions<double>(0, kHuge);
    CHECK(table.shape() == Shape{0, static_cast<std::size_t>(kHuge)});
    CHECK(table.size() == 0);
    std::vector<float> none;
    CHECK_NOTHROW(seqorder::positions_reference<float>(none, 0, kHuge, 0, 10000.0, seqorder::Layout::interleaved));
    CHECK_NOTHROW(seqorder::positions_fast<float>(none, 0, kHuge, 0, 10000.0, seqorder::Layout::halves));
}

TEST_CASE("a positions table whose length * width does not fit 64 bits is refused as too large", "[positions][fuzz]") {
    // 2^33 * 2^31 = 2^64 wraps to 0 in size_t: a size computed that way would let an empty block through.
    CHECK_THROWS_AS(testing::positions<double>(std::int64_t{1} << 33, std::int64_t{1} << 31), std::length_error);
    CHECK_THROWS_WITH(testing::positions<double>(std::int64_t{1} << 33, std::int64_t{1} << 31),
                      Contains("positions of shape [8589934592, 2147483648] is too large"));
}

TEST_CASE("adding positions to an empty batch makes no table", "[positions][fuzz]") {
    // Was: a (length * width) table was allocated, and length * width overflowed int64 (UB) for huge empty shapes.
    const Tensor<double> x(Shape{0, static_cast<std::size_t>(kHuge), 2});
    const Tensor<double> out = testing::add_positions(x);
    CHECK(out.shape() == x.shape());
    std::vector<float> none;
    CHECK_NOTHROW(seqorder::add_positions_into<float>(none, none, 0, std::int64_t{1} << 40, std::int64_t{1} << 40));
}

TEST_CASE("learned positions past the table near INT64_MAX: out_of_range, no overflow in the message", "[positions][fuzz]") {
    // Was: the message computed start + length - 1 in int64 (signed overflow, caught by UBSan).
    const std::int64_t start = std::numeric_limits<std::int64_t>::max();
    CHECK_THROWS_AS(seqorder::check_learned_positions_args(3, 5, start), std::out_of_range);
    CHECK_THROWS_WITH(seqorder::check_learned_positions_args(3, 5, start),
                      Contains("9223372036854775811"));  // start + length - 1, printed exactly
}

TEST_CASE("attention with no query rows allocates no key-length buffers", "[attention][fuzz]") {
    // Was: the reference allocated three (Tk) row buffers before looking at B and Tq; B = 0 lets Tk be anything.
    const std::size_t keys = static_cast<std::size_t>(kHuge);
    const Tensor<double> q(Shape{0, 3, 2}), k(Shape{0, keys, 2}), v(Shape{0, keys, 1});
    CHECK(testing::attention(q, k, v).shape() == Shape{0, 3, 1});
    const auto steps = testing::attention_steps(q, k, v, {true, {}});
    CHECK(steps.weights.shape() == Shape{0, 3, keys});
}

TEST_CASE("a base so small that an angle overflows float64 is an error naming base, not a NaN table", "[positions][fuzz]") {
    // Was: base 7e-322 passed the check (finite, > 0) and gave frequencies of inf: sin(0 * inf) = NaN everywhere.
    const double subnormal = std::numeric_limits<double>::denorm_min();
    CHECK_THROWS_AS(testing::positions<double>(1, 48, 0, subnormal), std::invalid_argument);
    CHECK_THROWS_WITH(testing::positions<float>(1, 48, 0, subnormal), Contains("base"));
    CHECK_THROWS_AS(testing::add_positions(Tensor<double>(Shape{2, 48}), 0, subnormal), std::invalid_argument);
    // Below 1 but with finite angles it is a valid (if odd) table: finite values in [-1, 1].
    for (const double base : {0.5, 1e-300}) {
        const Tensor<double> table = testing::positions<double>(10, 4, 0, base);
        for (const double x : table.data()) CHECK((std::isfinite(x) && std::fabs(x) <= 1.0));
    }
    // An empty table has no angles: any base > 0 will do.
    CHECK_NOTHROW(testing::positions<double>(0, 48, 0, subnormal));
}

TEST_CASE("rope over an empty batch makes no block of sines, whatever its length and width", "[rope][fuzz]") {
    // Was: rope_into allocated min(256, T) rows of sines (256 * 2^40 doubles) and rope_reference a frequency per pair
    // (2^39 doubles) before looking at the batch.
    const std::size_t huge = static_cast<std::size_t>(kHuge);
    const Tensor<double> x(Shape{0, huge, huge});
    CHECK(testing::rope(x).shape() == x.shape());
    std::vector<float> none;
    CHECK_NOTHROW(seqorder::rope_into<float>(none, none, 0, kHuge, kHuge));
    CHECK_NOTHROW(seqorder::rope_reference<float>(none, none, 0, kHuge, kHuge));
}

TEST_CASE("the package's calls take an empty tensor whose leading axes multiply past 64 bits", "[calls][fuzz]") {
    // Was: calls.cpp multiplied the leading axes of x (.., T, D) as if x had elements (signed overflow, UBSan).
    const double huge = static_cast<double>(kHuge);
    calls::ShiftArgs shift;
    shift.x = {nullptr, 0, "float32", {huge, huge, 0, 2}};
    for (const auto call : {&calls::add_positions, &calls::rope}) {
        const std::vector<calls::Result> results = call(shift);
        REQUIRE(results.size() == 1);
        CHECK(results[0].shape == std::vector<std::int64_t>{kHuge, kHuge, 0, 2});
        CHECK(results[0].count == 0);
    }
    calls::AttentionArgs empty;
    empty.q = empty.k = {nullptr, 0, "float64", {huge, huge, 0, 2}};
    empty.v = {nullptr, 0, "float64", {huge, huge, 0, 5}};
    empty.steps = true;
    const std::vector<calls::Result> steps = calls::attention(empty);
    REQUIRE(steps.size() == 4);
    CHECK(steps[0].shape == std::vector<std::int64_t>{kHuge, kHuge, 0, 0});
    CHECK(steps[3].shape == std::vector<std::int64_t>{kHuge, kHuge, 0, 5});
    // No query rows beside real keys: q's batch is still the product of its leading axes (none here: 1), not 0.
    const std::vector<float> k(8, 1.0f);
    calls::AttentionArgs no_queries;
    no_queries.q = {nullptr, 0, "float32", {0, 8}};
    no_queries.k = {k.data(), 8, "float32", {1, 8}};
    no_queries.v = {nullptr, 0, "float32", {1, 0}};
    no_queries.causal = true;
    const std::vector<calls::Result> output = calls::attention(no_queries);
    REQUIRE(output.size() == 1);
    CHECK(output[0].shape == std::vector<std::int64_t>{0, 0});
}

TEST_CASE("attention with steps refuses a wrong out length before it allocates the steps", "[calls][attention][fuzz]") {
    // Was: scores, scaled and weights (400 MB each here) were allocated before the output's out length was checked: a
    // heap that could not hold them said "out of memory" instead of the rule the caller broke.
    const std::vector<float> ones(10000, 1.0f);
    calls::AttentionArgs a;
    a.q = a.k = a.v = {ones.data(), 10000, "float32", {10000, 1}};
    a.steps = true;
    a.out_length = 10001;
    with_blocks_under(std::size_t{64} << 20, [&] {
        CHECK_THROWS_WITH(calls::attention(a), Contains("out must have exactly 10000 elements for this result, got 10001"));
    });
}
