// calls::plan_attention, the check-and-plan half of calls::attention that lets a caller spread one call over several
// module instances: it refuses exactly what attention refuses, with the same exception type and message; its result
// shapes are attention's; and a call split on multiples of its row group (batch items apart, query rows in parts that
// are causal from their own query_start) gives every result the same bits as the whole call, for both kernels.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "attention_fast.hpp"
#include "calls.hpp"

namespace {

namespace calls = seqorder::calls;

template <class T>
std::vector<T> random_values(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    std::vector<T> values(count);
    for (T& x : values) x = static_cast<T>(uniform(rng));
    return values;
}

calls::TensorArg tensor(const void* data, std::int64_t count, const std::string& dtype, std::vector<double> shape) {
    return {data, count, dtype, std::move(shape)};
}

// What a call throws: "invalid_argument: message", or "" when it does not throw.
template <class F>
std::string thrown(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return std::string("invalid_argument: ") + e.what();
    } catch (const std::length_error& e) {
        return std::string("length_error: ") + e.what();
    } catch (const std::out_of_range& e) {
        return std::string("out_of_range: ") + e.what();
    }
    return "";
}

std::vector<unsigned char> bytes_of(const calls::Result& r) {
    const std::size_t size = static_cast<std::size_t>(r.count) * (r.dtype == "float64" ? 8 : 4);
    const auto* p = static_cast<const unsigned char*>(r.data.get());
    return {p, p + size};
}

}  // namespace

TEST_CASE("plan_attention refuses what attention refuses, with the same message", "[attention][plan]") {
    const std::vector<float> data(64, 0.5f);
    const auto f32 = [&](std::vector<double> shape) {
        std::int64_t n = 1;
        for (double d : shape) n *= static_cast<std::int64_t>(d);
        return tensor(data.data(), n, "float32", std::move(shape));
    };
    std::vector<calls::AttentionArgs> bad;
    const auto add = [&](calls::AttentionArgs a) { bad.push_back(std::move(a)); };
    add({f32({2, 4}), f32({3, 4}), f32({3, 2}), true, 2.0, false, std::nullopt});            // queryStart past Tk - Tq
    add({f32({2, 4}), f32({3, 4}), f32({3, 2}), false, 0.0, false, std::nullopt});           // queryStart without causal
    add({f32({2, 4}), f32({3, 4}), f32({3, 2}), true, 0.5, false, std::nullopt});            // not an integer
    add({f32({4, 4}), f32({3, 4}), f32({3, 2}), true, std::nullopt, false, std::nullopt});   // Tk < Tq, causal
    add({f32({2, 4}), f32({3, 2}), f32({3, 2}), false, std::nullopt, false, std::nullopt});  // widths differ
    add({f32({2, 4}), f32({3, 4}), f32({2, 2}), false, std::nullopt, false, std::nullopt});  // Tk differs
    add({f32({2, 2, 4}), f32({3, 3, 4}), f32({3, 3, 2}), false, std::nullopt, false, std::nullopt});  // batch axes
    add({f32({8}), f32({8}), f32({8}), false, std::nullopt, false, std::nullopt});           // rank 1
    add({f32({2, 4}), f32({3, 4}), f32({3, 2}), false, std::nullopt, false, 5.0});           // out length
    add({f32({2, 4}), f32({3, 4}), f32({3, 2}), false, std::nullopt, true, 5.0});            // out length with steps
    add({f32({2, 0}), f32({3, 0}), f32({3, 2}), false, std::nullopt, false, std::nullopt});  // D = 0
    calls::AttentionArgs mixed{f32({2, 4}), f32({3, 4}), f32({3, 2}), false, std::nullopt, false, std::nullopt};
    mixed.k.dtype = "float64";
    add(mixed);
    calls::AttentionArgs lying{f32({2, 4}), f32({3, 4}), f32({3, 2}), false, std::nullopt, false, std::nullopt};
    lying.q.count = 7;  // data shorter than the shape
    add(lying);
    // steps: a (Tq, Tk) of 16 GiB is past the tensor limit, and the scores are named before anything is allocated
    const std::vector<float> column(1 << 16, 0.5f);
    const calls::TensorArg tall = tensor(column.data(), 1 << 16, "float32", {1 << 16, 1});
    add({tall, tall, tall, false, std::nullopt, true, std::nullopt});

    for (const calls::AttentionArgs& a : bad) {
        const std::string planned = thrown([&] { calls::plan_attention(a); });
        const std::string computed = thrown([&] { calls::attention(a); });
        INFO(computed);
        CHECK_FALSE(planned.empty());
        CHECK(planned == computed);
    }
}

TEST_CASE("plan_attention gives attention's result shapes, the mask in force and the kernel's row group", "[attention][plan]") {
    const std::vector<double> d(2 * 3 * 5 * 4, 0.25);
    const std::vector<float> f(2 * 3 * 5 * 4, 0.25f);
    for (const bool steps : {false, true})
        for (const std::string dtype : {"float64", "float32"}) {
            const void* data = dtype == "float64" ? static_cast<const void*>(d.data()) : static_cast<const void*>(f.data());
            const calls::AttentionArgs a{tensor(data, 2 * 3 * 2 * 4, dtype, {2, 3, 2, 4}), tensor(data, 2 * 3 * 5 * 4, dtype, {2, 3, 5, 4}),
                                         tensor(data, 2 * 3 * 5 * 3, dtype, {2, 3, 5, 3}), true, std::nullopt, steps, std::nullopt};
            const calls::AttentionPlan plan = calls::plan_attention(a);
            const std::vector<calls::Result> results = calls::attention(a);
            REQUIRE(plan.results.size() == results.size());
            for (std::size_t i = 0; i < results.size(); ++i) CHECK(plan.results[i] == results[i].shape);
            CHECK(plan.dtype == dtype);
            CHECK(plan.batch == 6);
            CHECK(plan.queries == 2);
            CHECK(plan.keys == 5);
            CHECK(plan.width == 4);
            CHECK(plan.value_width == 3);
            CHECK(plan.causal);
            CHECK(plan.query_start == 3);  // Tk - Tq
            CHECK(plan.row_group == (dtype == "float32" && !steps ? static_cast<std::int64_t>(seqorder::kFastAttentionRows) : 1));
        }
}

namespace {

// Splits (B, Tq, D) attention into one call per batch item and part of its rows, cut at `cut`, and checks that the
// parts' results, laid end to end, are the whole call's bytes.
template <class T>
void check_split(int B, int Tq, int Tk, int D, int Dv, bool causal, std::optional<int> query_start, bool steps) {
    const std::string dtype = sizeof(T) == 4 ? "float32" : "float64";
    const auto seed = static_cast<std::uint32_t>(B * 1000 + Tq);
    const std::vector<T> q = random_values<T>(std::size_t(B * Tq * D), seed), k = random_values<T>(std::size_t(B * Tk * D), seed + 1),
                         v = random_values<T>(std::size_t(B * Tk * Dv), seed + 2);
    const auto rows = [&](const T* data, int n, int width) { return tensor(data, n * width, dtype, {double(n), double(width)}); };
    const calls::AttentionArgs whole{
        tensor(q.data(), B * Tq * D, dtype, {double(B), double(Tq), double(D)}),
        tensor(k.data(), B * Tk * D, dtype, {double(B), double(Tk), double(D)}),
        tensor(v.data(), B * Tk * Dv, dtype, {double(B), double(Tk), double(Dv)}),
        causal, query_start ? std::optional<double>(*query_start) : std::nullopt, steps, std::nullopt};
    const calls::AttentionPlan plan = calls::plan_attention(whole);
    const std::vector<calls::Result> expected = calls::attention(whole);
    for (int cut = 0; cut <= Tq; cut += static_cast<int>(plan.row_group)) {
        std::vector<std::vector<unsigned char>> got(expected.size());
        for (int b = 0; b < B; ++b)
            for (const auto& [i0, i1] : {std::pair{0, cut}, std::pair{cut, Tq}}) {
                if (i0 == i1) continue;
                const calls::AttentionArgs part{
                    rows(q.data() + (b * Tq + i0) * D, i1 - i0, D), rows(k.data() + b * Tk * D, Tk, D),
                    rows(v.data() + b * Tk * Dv, Tk, Dv), causal,
                    causal ? std::optional<double>(double(plan.query_start + i0)) : std::nullopt, steps, std::nullopt};
                const std::vector<calls::Result> results = calls::attention(part);
                for (std::size_t r = 0; r < results.size(); ++r) {
                    const std::vector<unsigned char> bytes = bytes_of(results[r]);
                    got[r].insert(got[r].end(), bytes.begin(), bytes.end());
                }
            }
        for (std::size_t r = 0; r < expected.size(); ++r) {
            INFO(dtype << (steps ? " steps" : "") << " B " << B << " Tq " << Tq << " Tk " << Tk << " cut " << cut << " result " << r);
            CHECK(got[r] == bytes_of(expected[r]));
        }
    }
}

}  // namespace

TEST_CASE("attention split on multiples of the row group gives the whole call's bits", "[attention][plan]") {
    // (B, Tq, Tk, D, Dv, causal, queryStart): odd sizes, every remainder of Tq by the row group, causal offsets
    const std::vector<std::tuple<int, int, int, int, int, bool, std::optional<int>>> cases = {
        {1, 37, 37, 16, 16, true, std::nullopt}, {2, 29, 41, 8, 5, true, 3}, {3, 13, 13, 7, 9, false, std::nullopt},
        {1, 64, 70, 64, 64, true, 6}, {2, 18, 18, 3, 3, true, 0}, {1, 9, 12, 5, 2, false, std::nullopt},
    };
    for (const auto& [B, Tq, Tk, D, Dv, causal, query_start] : cases)
        for (const bool steps : {false, true}) {
            check_split<float>(B, Tq, Tk, D, Dv, causal, query_start, steps);
            check_split<double>(B, Tq, Tk, D, Dv, causal, query_start, steps);
        }
}
