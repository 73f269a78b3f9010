#include "parameters.hpp"

#include "sizes.hpp"

namespace seqorder::model {

std::int64_t parameter_count(const Config& c) {
    // saturated, so a huge configuration is refused, never wrapped
    auto mul = saturating_mul;
    auto add = saturating_add;
    const std::int64_t D = c.width, hidden = mul(4, c.width);
    std::int64_t per_layer = mul(4, mul(D, D));                    // wq, wk, wv, wo
    per_layer = add(per_layer, mul(4, D));                         // norm1 and norm2, gain and bias
    per_layer = add(per_layer, add(mul(2, mul(D, hidden)), add(hidden, D)));  // w1, w2, b1, b2
    std::int64_t total = mul(c.vocab, D);
    if (c.positions == Positions::learned) total = add(total, mul(c.max_length.value_or(0), D));
    if (c.positions == Positions::relative) total = add(total, mul(buckets(c), c.heads));
    total = add(total, mul(c.layers, per_layer));
    total = add(total, add(mul(2, D), add(mul(D, c.classes), c.classes)));  // final norm, readout
    return total;
}

std::vector<ParameterInfo> parameter_layout(const Config& c) {
    const auto V = static_cast<std::size_t>(c.vocab), D = static_cast<std::size_t>(c.width),
               C = static_cast<std::size_t>(c.classes);
    std::vector<ParameterInfo> layout;
    std::size_t offset = 0;
    auto add_parameter = [&](std::string name, Shape shape, Init init) {
        std::size_t size = 1;
        for (std::size_t n : shape) size *= n;  // within the limit: check_config has bounded the total
        layout.push_back({std::move(name), std::move(shape), offset, size, init});
        offset += size;
    };
    add_parameter("embed", {V, D}, Init::normal);
    if (c.positions == Positions::learned)
        add_parameter("positions", {static_cast<std::size_t>(*c.max_length), D}, Init::normal);
    if (c.positions == Positions::relative)
        add_parameter("relativeBias", {static_cast<std::size_t>(buckets(c)), static_cast<std::size_t>(c.heads)},
                      Init::normal);
    for (std::int64_t l = 0; l < c.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        add_parameter(p + "norm1.gain", {D}, Init::ones);
        add_parameter(p + "norm1.bias", {D}, Init::zeros);
        for (const char* w : {"wq", "wk", "wv", "wo"}) add_parameter(p + "attention." + w, {D, D}, Init::normal);
        add_parameter(p + "norm2.gain", {D}, Init::ones);
        add_parameter(p + "norm2.bias", {D}, Init::zeros);
        add_parameter(p + "mlp.w1", {D, 4 * D}, Init::normal);
        add_parameter(p + "mlp.b1", {4 * D}, Init::zeros);
        add_parameter(p + "mlp.w2", {4 * D, D}, Init::normal);
        add_parameter(p + "mlp.b2", {D}, Init::zeros);
    }
    add_parameter("norm.gain", {D}, Init::ones);
    add_parameter("norm.bias", {D}, Init::zeros);
    add_parameter("readout.weight", {D, C}, Init::normal);
    add_parameter("readout.bias", {C}, Init::zeros);
    return layout;
}

}  // namespace seqorder::model
