// The position schemes that act on the attention scores (model/position_bias.hpp): ALiBi's slopes and T5's buckets
// against bench/position_schemes.py (through the numpy fixture, tests/fixtures/make_model_fixtures.py), and what the
// bias does to a model.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "compare.hpp"
#include "model/call_positions.hpp"
#include "model/position_bias.hpp"
#include "model_testing.hpp"

namespace {

using namespace model_testing;
using seqorder::model::alibi_slopes;
using seqorder::model::relative_bucket;

TEST_CASE("model schemes: ALiBi's slopes are get_slopes' bit for bit (H = 1 .. 16)", "[model][schemes]") {
    const fixtures::File& f = model_fixture();
    for (std::int64_t heads = 1; heads <= 16; ++heads) {
        INFO("heads " << heads);
        const auto want = f["scheme/alibi/" + std::to_string(heads)].values;
        const auto got = alibi_slopes(heads);
        REQUIRE(got.size() == want.size());
        for (std::size_t h = 0; h < got.size(); ++h) CHECK(got[h] == want[h]);
    }
    CHECK(alibi_slopes(2) == std::vector<double>{0x1p-4, 0x1p-8});
    CHECK(alibi_slopes(6) == std::vector<double>{0x1p-2, 0x1p-4, 0x1p-6, 0x1p-8, 0x1p-1, 0x1p-3});
}

TEST_CASE("model schemes: ropeScaling's frequencies are rotary_frequencies' (bench/position_schemes.py) bit for bit",
          "[model][schemes]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("scheme/rope", "args");
    REQUIRE(cases == 58);
    for (std::size_t i = 0; i < cases; ++i) {
        const std::string prefix = "scheme/rope/" + std::to_string(i);
        const fixtures::Array& a = f[prefix + "/args"];
        Config c = make_config(5, 2 * a.integer(0), 1, 1, Positions::rotary, false, Readout::mean, 2, 1);
        c.rotary_base = a.values[1];
        seqorder::model::RopeScaling s{static_cast<seqorder::model::RopeMethod>(a.integer(2)), a.values[3], std::nullopt};
        if (a.values[4] != 0) s.original_length = a.values[4];
        INFO(prefix << ": " << a.integer(0) << " pairs, base " << a.values[1] << ", method " << a.integer(2) << ", factor "
                    << a.values[3] << ", originalLength " << a.values[4]);
        testing::check_identical<double>("frequencies", seqorder::model::position_frequencies(c, &s),
                                         f[prefix + "/frequencies"].values);
    }
}

TEST_CASE("model schemes: T5's bucket of every distance -300 .. 300 as _relative_position_bucket", "[model][schemes]") {
    const fixtures::File& f = model_fixture();
    const std::size_t cases = f.count("scheme/relative", "args");
    REQUIRE(cases == 6);
    for (std::size_t i = 0; i < cases; ++i) {
        const std::string prefix = "scheme/relative/" + std::to_string(i);
        const fixtures::Array& args = f[prefix + "/args"];
        const auto& want = f[prefix + "/buckets"].values;
        for (std::int64_t d = -300; d <= 300; ++d) {
            INFO(prefix << ": buckets " << args.integer(0) << ", maxDistance " << args.integer(1)
                        << (args.integer(2) ? ", causal" : ", bidirectional") << ", distance " << d);
            CHECK(relative_bucket(d, args.integer(2) != 0, args.integer(0), args.integer(1)) ==
                  static_cast<std::int64_t>(want.at(static_cast<std::size_t>(d + 300))));
        }
    }
}

TEST_CASE("model schemes: rotaryBase 10000 and every pair, given, are the default's bits", "[model][schemes]") {
    for (const bool causal : {false, true}) {
        Config c = make_config(9, 16, 2, 2, Positions::rotary, causal, Readout::each, 3, 5);
        AnyModel plain = testing::make_model<float>(c);
        c.rotary_base = 10000;
        c.rotary_pairs = 4;
        AnyModel given = testing::make_model<float>(c);
        const auto ids = random_ids(3, 7, 9, 1);
        testing::check_identical<float>("logits", testing::model_forward<float>(given, ids).data(),
                                        testing::model_forward<float>(plain, ids).data());
    }
}

TEST_CASE("model schemes: bidirectional ALiBi sees distances, not directions: a reversed sentence mirrors the logits",
          "[model][schemes]") {
    // the bias -m_h |i - j| is the same for a key k places before the query as for one k places after
    const Config c = make_config(9, 8, 2, 2, Positions::alibi, false, Readout::each, 3, 7);
    AnyModel any = testing::make_model<double>(c);
    randomize(testing::net<double>(any), 3);
    const auto ids = random_ids(1, 6, 9, 2);
    Tensor<std::int32_t> reversed({1, 6});
    for (std::size_t t = 0; t < 6; ++t) reversed.data()[t] = ids.data()[5 - t];
    const Tensor<double> a = testing::model_forward<double>(any, ids), b = testing::model_forward<double>(any, reversed);
    for (std::size_t t = 0; t < 6; ++t)
        for (std::size_t k = 0; k < 3; ++k) CHECK(a.data()[t * 3 + k] == Approx(b.data()[(5 - t) * 3 + k]).margin(1e-12));
}

}  // namespace

namespace {

// rows sentences of T positions, each increasing, some repeated across rows, the largest `top`
std::vector<std::int32_t> repeating_positions(std::size_t rows, std::size_t T, std::int32_t top) {
    std::vector<std::int32_t> p(rows * T);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t t = 0; t < T; ++t)
            p[r * T + t] = static_cast<std::int32_t>((r % 3) + 2 * t) + (t + 1 == T && r == 1 ? top - static_cast<std::int32_t>(2 * t + 1) : 0);
    return p;
}

}  // namespace

TEST_CASE("model schemes: each token's sinusoid or turns at a repeated position are those of its position, computed alone",
          "[model][schemes]") {
    for (const Positions kind : {Positions::sinusoidal, Positions::rotary}) {
        const Config c = make_config(9, 8, 2, 1, kind, false, Readout::mean, 2, 1);
        const std::size_t pairs = kind == Positions::rotary ? 2 : 4;
        // positions below N (each position's row computed once, then copied) and reaching past it (each token's own)
        for (const std::int32_t top : {20, 200}) {
            INFO((kind == Positions::rotary ? "rotary" : "sinusoidal") << ", largest position " << top);
            const std::size_t rows = 6, T = 5, N = rows * T;
            const std::vector<std::int32_t> p = repeating_positions(rows, T, top);
            REQUIRE(p[T + T - 1] == top);
            std::vector<float> table(N * 8), turns(N * pairs * 2);
            seqorder::model::token_rows<float>(table.data(), turns.data(), c, p.data(), N, nullptr);
            const std::vector<double> f = seqorder::model::position_frequencies(c, nullptr);
            std::vector<float> want(N * pairs * 2);
            for (std::size_t n = 0; n < N; ++n)
                seqorder::model::position_turns<float>(want.data() + n * pairs * 2, p.data() + n, 1, f.data(), pairs);
            testing::check_identical<float>("rows", kind == Positions::rotary ? turns : table, want);
        }
    }
}

TEST_CASE("model schemes: the bias of several sentences at given positions is each one's, as T5's table and ALiBi's slopes say",
          "[model][schemes]") {
    for (const Positions kind : {Positions::alibi, Positions::relative}) {
        for (const bool causal : {false, true}) {
            Config c = make_config(9, 8, 2, 1, kind, causal, Readout::mean, 2, 1);
            c.buckets = 6;
            c.max_distance = 9;
            const std::size_t rows = 4, T = 5, H = 2;
            const std::vector<std::int32_t> p = repeating_positions(rows, T, 300);
            std::vector<double> table(6 * H);
            for (std::size_t k = 0; k < table.size(); ++k) table[k] = 0.25 * static_cast<double>(k) - 1;
            std::vector<double> bias(rows * H * T * T, -7);
            seqorder::model::score_bias<double>(bias.data(), c, table.data(), rows, T, p.data());
            const std::vector<double> slopes = seqorder::model::alibi_slopes(2);
            for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t h = 0; h < H; ++h)
                    for (std::size_t i = 0; i < T; ++i)
                        for (std::size_t j = 0; j < T; ++j) {
                            if (causal && j > i) continue;  // never read
                            const std::int64_t d = std::int64_t{p[r * T + j]} - p[r * T + i];
                            const double want =
                                kind == Positions::alibi
                                    ? -(slopes[h] * static_cast<double>(causal ? -d : (d < 0 ? -d : d)))
                                    : table[static_cast<std::size_t>(relative_bucket(d, causal, 6, 9)) * H + h];
                            INFO((kind == Positions::alibi ? "alibi" : "relative") << (causal ? ", causal" : "")
                                                                                   << ": row " << r << ", head " << h
                                                                                   << ", query " << i << ", key " << j);
                            CHECK(bias[((r * H + h) * T + i) * T + j] == want);
                        }
        }
    }
}
