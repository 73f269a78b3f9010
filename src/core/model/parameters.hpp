// The model's parameters: their names, shapes and places in one flat buffer, and typed views into such a buffer.
//
// The order of parameters() is the order of the list below; the values of all parameters live in one buffer in that
// order, each row-major (x W convention: a weight (D_in, D_out) maps a row x (.., D_in) to x W (.., D_out)). Gradients
// and Adam's moments use the same layout.
//
//   embed                      (vocab, width)
//   positions                  (maxLength, width)            learned positions only
//   relativeBias               (buckets, heads)               relative positions only: T5's table, every layer's
//   layers.i.norm1.gain        (width)                        for i = 0 .. layers-1
//   layers.i.norm1.bias        (width)
//   layers.i.attention.wq      (width, width)                 heads side by side: head h is columns h*D/H ..
//   layers.i.attention.wk      (width, width)
//   layers.i.attention.wv      (width, width)
//   layers.i.attention.wo      (width, width)
//   layers.i.norm2.gain        (width)
//   layers.i.norm2.bias        (width)
//   layers.i.mlp.w1            (width, 4 width)
//   layers.i.mlp.b1            (4 width)
//   layers.i.mlp.w2            (4 width, width)
//   layers.i.mlp.b2            (width)
//   norm.gain                  (width)
//   norm.bias                  (width)
//   readout.weight             (width, classes)
//   readout.bias               (classes)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "config.hpp"
#include "tensor.hpp"

namespace seqorder::model {

// How a parameter starts (init.hpp).
enum class Init { normal, zeros, ones };

struct ParameterInfo {
    std::string name;
    Shape shape;
    std::size_t offset = 0;  // first element in the flat buffer
    std::size_t size = 0;    // element count
    Init init = Init::normal;
};

// Total number of parameters (elements), saturated at INT64_MAX: computed before any size is trusted.
std::int64_t parameter_count(const Config& config);

// Names, shapes and offsets, in the order above. The config must have passed check_config.
std::vector<ParameterInfo> parameter_layout(const Config& config);

// Pointers to one layer's parameters (or gradients) in a flat buffer. T may be const.
template <class T>
struct LayerView {
    T* norm1_gain;
    T* norm1_bias;
    T* wq;
    T* wk;
    T* wv;
    T* wo;
    T* norm2_gain;
    T* norm2_bias;
    T* w1;
    T* b1;
    T* w2;
    T* b2;
};

// Pointers to every parameter (or gradient) in a flat buffer laid out by parameter_layout. positions is null unless
// the positions are learned, relative_bias unless they are relative.
template <class T>
struct ParameterView {
    T* embed = nullptr;
    T* positions = nullptr;
    T* relative_bias = nullptr;
    std::array<LayerView<T>, kMaxLayers> layers{};
    T* norm_gain = nullptr;
    T* norm_bias = nullptr;
    T* readout_weight = nullptr;
    T* readout_bias = nullptr;
};

template <class T>
ParameterView<T> view_of(std::span<T> flat, const std::vector<ParameterInfo>& layout, const Config& config) {
    auto at = [&](std::size_t i) { return flat.data() + layout[i].offset; };
    ParameterView<T> v;
    std::size_t i = 0;
    v.embed = at(i++);
    if (config.positions == Positions::learned) v.positions = at(i++);
    if (config.positions == Positions::relative) v.relative_bias = at(i++);
    for (std::int64_t l = 0; l < config.layers; ++l) {
        LayerView<T>& layer = v.layers[static_cast<std::size_t>(l)];
        for (T** p : {&layer.norm1_gain, &layer.norm1_bias, &layer.wq, &layer.wk, &layer.wv, &layer.wo,
                      &layer.norm2_gain, &layer.norm2_bias, &layer.w1, &layer.b1, &layer.w2, &layer.b2})
            *p = at(i++);
    }
    v.norm_gain = at(i++);
    v.norm_bias = at(i++);
    v.readout_weight = at(i++);
    v.readout_bias = at(i++);
    return v;
}

}  // namespace seqorder::model
