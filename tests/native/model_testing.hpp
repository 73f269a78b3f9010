// Helpers shared by the model's native tests (test_model_*.cpp): configurations, random inputs and parameters, and
// reading a model case from the numpy fixture (tests/fixtures/make_model_fixtures.py). The tests call a model through
// the package's calls (calling.hpp: testing::model_forward, ...) and look at its state through testing::net.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "calling.hpp"
#include "fixtures.hpp"
#include "model/model.hpp"
#include "model/task.hpp"

namespace model_testing {

using seqorder::Shape;
using seqorder::Tensor;
using seqorder::calls::AnyModel;
using seqorder::model::Config;
using seqorder::model::Model;
using seqorder::model::ParameterUpdate;
using seqorder::model::Positions;
using seqorder::model::Readout;

// Matches an exception whose message contains `text`: REQUIRE_THROWS_MATCHES(call, std::invalid_argument, Says("..."))
class Says : public Catch::MatcherBase<std::exception> {
public:
    explicit Says(std::string text) : text_(std::move(text)) {}
    bool match(const std::exception& e) const override { return std::string(e.what()).find(text_) != std::string::npos; }
    std::string describe() const override { return "has a message containing \"" + text_ + "\""; }

private:
    std::string text_;
};

inline Config make_config(std::int64_t vocab, std::int64_t width, std::int64_t heads, std::int64_t layers,
                          Positions positions, bool causal, Readout readout, std::int64_t classes,
                          std::uint64_t seed = 1) {
    Config c;
    c.vocab = vocab;
    c.width = width;
    c.heads = heads;
    c.layers = layers;
    c.positions = positions;
    if (positions == Positions::learned) c.max_length = 9;
    c.causal = causal;
    c.readout = readout;
    c.classes = classes;
    c.seed = seed;
    return c;
}

inline std::string describe(const Config& c) {
    return "vocab " + std::to_string(c.vocab) + ", width " + std::to_string(c.width) + ", heads " +
           std::to_string(c.heads) + ", layers " + std::to_string(c.layers) + ", positions " +
           std::string(name_of(c.positions)) + (c.causal ? ", causal" : ", bidirectional") + ", readout " +
           std::string(name_of(c.readout)) + ", classes " + std::to_string(c.classes);
}

// ids (B, T), uniform over the vocabulary.
inline Tensor<std::int32_t> random_ids(std::size_t B, std::size_t T, std::int64_t vocab, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<std::int32_t> id(0, static_cast<std::int32_t>(vocab - 1));
    Tensor<std::int32_t> ids({B, T});
    for (std::int32_t& x : ids.data()) x = id(g);
    return ids;
}

// targets of the shape the readout wants, uniform over the classes, about `ignored` of them -1.
inline Tensor<std::int32_t> random_targets(const Config& c, std::size_t B, std::size_t T, std::uint32_t seed,
                                           double ignored = 0.0) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<std::int32_t> cls(0, static_cast<std::int32_t>(c.classes - 1));
    std::uniform_real_distribution<double> u(0, 1);
    Tensor<std::int32_t> targets(c.readout == Readout::mean ? Shape{B} : Shape{B, T});
    for (std::int32_t& x : targets.data()) x = u(g) < ignored ? -1 : cls(g);
    return targets;
}

// Every parameter set to values large enough that each step of the network works in its nonlinear range (the
// 0.02 initialization would leave gradients tiny): weights ~ N(0, 0.5^2), biases ~ N(0, 0.2^2), gains ~ 1 + N(0,
// 0.2^2). The values are float32 numbers, so a float32 and a float64 model can hold exactly the same parameters.
template <class T>
void randomize(Model<T>& model, std::uint32_t seed) {
    std::mt19937 g(seed);
    std::normal_distribution<double> normal(0, 1);
    std::vector<std::vector<T>> values;
    std::vector<ParameterUpdate<T>> updates;
    for (const auto& p : model.parameters()) {
        const bool gain = p.name.ends_with("gain");
        const bool bias = p.name.ends_with("bias") || p.name.ends_with(".b1") || p.name.ends_with(".b2");
        std::vector<T> v(p.size);
        for (T& x : v)
            x = static_cast<T>(static_cast<float>(gain ? 1.0 + 0.2 * normal(g) : (bias ? 0.2 : 0.5) * normal(g)));
        values.push_back(std::move(v));
    }
    for (std::size_t i = 0; i < values.size(); ++i)
        updates.push_back({model.parameters()[i].name, model.parameters()[i].shape, values[i]});
    model.set_parameters(updates);
}

// Copies every parameter of `from` into `to` (converting the type).
template <class To, class From>
void copy_parameters(Model<To>& to, const Model<From>& from) {
    std::vector<std::vector<To>> values;
    std::vector<ParameterUpdate<To>> updates;
    for (const auto& p : from.parameters()) {
        const auto v = from.values(p);
        values.emplace_back(v.begin(), v.end());
    }
    for (std::size_t i = 0; i < values.size(); ++i)
        updates.push_back({from.parameters()[i].name, from.parameters()[i].shape, values[i]});
    to.set_parameters(updates);
}

// ---- the numpy fixture

inline const fixtures::File& model_fixture() { return fixtures::cached("model.txt"); }

inline Config fixture_config(const fixtures::Array& a) {
    static const Positions positions[] = {Positions::none,   Positions::sinusoidal, Positions::learned,
                                          Positions::rotary, Positions::alibi,      Positions::relative};
    Config c;
    c.vocab = a.integer(0);
    c.width = a.integer(1);
    c.heads = a.integer(2);
    c.layers = a.integer(3);
    c.positions = positions[a.integer(4)];
    if (a.integer(5) > 0) c.max_length = a.integer(5);
    c.causal = a.integer(6) != 0;
    c.readout = a.integer(7) == 0 ? Readout::mean : Readout::each;
    c.classes = a.integer(8);
    c.embed_scale.factor = a.values.at(9);
    // rotaryBase, rotaryPairs, buckets, maxDistance: 0 for the default
    if (a.values.at(10) > 0) c.rotary_base = a.values.at(10);
    if (a.integer(11) > 0) c.rotary_pairs = a.integer(11);
    if (a.integer(12) > 0) c.buckets = a.integer(12);
    if (a.integer(13) > 0) c.max_distance = a.integer(13);
    return c;
}

inline Tensor<std::int32_t> int_tensor(const fixtures::Array& a) {
    std::vector<std::int32_t> data(a.values.begin(), a.values.end());
    return Tensor<std::int32_t>(Shape(a.shape.begin(), a.shape.end()), std::move(data));
}

// A model of fixture case `prefix` ("model/0"), made as the package makes one, holding the fixture's parameters.
template <class T>
AnyModel fixture_model(const std::string& prefix) {
    const fixtures::File& f = model_fixture();
    AnyModel any = testing::make_model<T>(fixture_config(f[prefix + "/config"]));
    Model<T>& model = testing::net<T>(any);
    std::vector<std::vector<T>> values;
    std::vector<ParameterUpdate<T>> updates;
    for (const auto& p : model.parameters()) {
        const fixtures::Array& a = f[prefix + "/param/" + p.name];
        values.emplace_back(a.values.begin(), a.values.end());
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        const fixtures::Array& a = f[prefix + "/param/" + model.parameters()[i].name];
        updates.push_back({model.parameters()[i].name, Shape(a.shape.begin(), a.shape.end()), values[i]});
    }
    model.set_parameters(updates);
    return any;
}

}  // namespace model_testing
