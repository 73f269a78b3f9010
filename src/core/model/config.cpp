#include "config.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "parameters.hpp"
#include "sizes.hpp"
#include "tensor.hpp"

namespace seqorder::model {
namespace {

std::string str(std::int64_t n) { return std::to_string(n); }

void require(bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument(message);
}

}  // namespace

void check_config(const Config& c, std::size_t element_bytes) {
    require(c.vocab >= 1 && c.vocab < kMaxVocab,
            "vocab must be an integer in 1 .. 2^31 - 1 (token ids are int32), got " + str(c.vocab));
    require(c.width >= 1, "width must be a positive integer, got " + str(c.width));
    require(c.heads >= 1, "heads must be a positive integer, got " + str(c.heads));
    require(c.width % c.heads == 0, "heads must divide width (each head is width / heads wide), got width " +
                                        str(c.width) + " and heads " + str(c.heads));
    require(c.layers >= 1 && c.layers <= kMaxLayers,
            "layers must be an integer in 1 .. " + str(kMaxLayers) + ", got " + str(c.layers));
    require(c.classes >= 1 && c.classes < kMaxVocab,
            "classes must be an integer in 1 .. 2^31 - 1 (targets are int32), got " + str(c.classes));
    if (c.positions == Positions::learned) {
        require(c.max_length.has_value(),
                "maxLength is required with positions: 'learned' (it is the number of rows of the learned table)");
        require(*c.max_length >= 1, "maxLength must be a positive integer, got " + str(*c.max_length));
    } else {
        require(!c.max_length.has_value(),
                "maxLength applies only to positions: 'learned' (the rows of its table); positions is '" +
                    std::string(name_of(c.positions)) + "'");
    }
    require(c.positions != Positions::sinusoidal || c.width % 2 == 0,
            "width must be even with positions: 'sinusoidal' (the table pairs a sine with a cosine), got " +
                str(c.width));
    require(c.positions != Positions::rotary || (c.width / c.heads) % 2 == 0,
            "width / heads must be even with positions: 'rotary' (each head rotates coordinate pairs), got width " +
                str(c.width) + " and heads " + str(c.heads));

    const std::string kind = "; positions is '" + std::string(name_of(c.positions)) + "'";
    if (c.positions == Positions::rotary) {
        const std::int64_t pairs = c.width / c.heads / 2;
        require(!c.rotary_base || (std::isfinite(*c.rotary_base) && *c.rotary_base > 1),
                "rotaryBase must be a finite number greater than 1 (the frequencies are rotaryBase^(-2i/d)), got " +
                    number_text(c.rotary_base.value_or(0)));
        require(!c.rotary_pairs || (*c.rotary_pairs >= 1 && *c.rotary_pairs <= pairs),
                "rotaryPairs must be an integer in 1 .. " + str(pairs) + " (the pairs of a head of width " +
                    str(c.width / c.heads) + "), got " + str(c.rotary_pairs.value_or(0)));
    } else {
        require(!c.rotary_base, "rotaryBase applies only to positions: 'rotary'" + kind);
        require(!c.rotary_pairs, "rotaryPairs applies only to positions: 'rotary'" + kind);
    }
    if (c.positions == Positions::relative) {
        const std::int64_t b = buckets(c), per = c.causal ? b : b / 2;
        require(c.causal ? b >= 2 : b >= 4 && b % 2 == 0,
                c.causal ? "buckets must be an integer >= 2, got " + str(b)
                         : "buckets must be an even integer >= 4 without a causal mask (half the buckets for each "
                           "direction), got " + str(b));
        require(max_distance(c) > per / 2,
                "maxDistance must be an integer greater than " + str(per / 2) + " (the exact buckets of a direction: " +
                    "the larger distances are spaced by log(distance / " + str(per / 2) + ") / log(maxDistance / " +
                    str(per / 2) + ")), got " + str(max_distance(c)));
    } else {
        require(!c.buckets, "buckets applies only to positions: 'relative'" + kind);
        require(!c.max_distance, "maxDistance applies only to positions: 'relative'" + kind);
    }

    require(c.embed_scale.sqrt_width || (std::isfinite(c.embed_scale.factor) && c.embed_scale.factor > 0),
            "embedScale must be a positive finite number or 'sqrtWidth', got " + number_text(c.embed_scale.factor));
    // the network multiplies by the factor in the model's type: it must stay finite and > 0 there too (as lr must)
    if (!c.embed_scale.sqrt_width && element_bytes == sizeof(float)) {
        const float in_float32 = static_cast<float>(c.embed_scale.factor);
        require(std::isfinite(in_float32) && in_float32 > 0,
                "embedScale must be a positive number that float32 (the model's dtype) holds, from " +
                    number_text(static_cast<double>(std::numeric_limits<float>::denorm_min())) + " to " +
                    number_text(static_cast<double>(std::numeric_limits<float>::max())) + ", got " +
                    number_text(c.embed_scale.factor) + ", which float32 rounds to " +
                    number_text(static_cast<double>(in_float32)));
    }

    // Sizes: a model keeps four values per parameter (its value, its gradient and Adam's two moments), each set in
    // one buffer: all of them within the core's tensor limit.
    const std::int64_t most = max_elements(element_bytes) / 4;
    const std::int64_t total = parameter_count(c);
    if (total > most)
        throw std::length_error("vocab, width, layers, maxLength and classes make a model of " +
                                (total == kSaturated ? std::string("more than 2^63") : str(total)) +
                                " parameters: at most " + str(most) + " fit in the " +
                                str(static_cast<std::int64_t>(kMaxTensorBytes >> 20)) +
                                " MiB a model may hold (four " + str(static_cast<std::int64_t>(element_bytes)) +
                                "-byte values per parameter: its value, its gradient and Adam's two moments)");
}

double embed_factor(const Config& c) {
    return c.embed_scale.sqrt_width ? std::sqrt(static_cast<double>(c.width)) : c.embed_scale.factor;
}

EmbedScale embed_scale_from_name(std::string_view name) {
    if (name == "sqrtWidth") return {.factor = 1, .sqrt_width = true};
    throw std::invalid_argument("embedScale must be a positive finite number or 'sqrtWidth', got " + quoted(std::string(name)));
}

Positions positions_from_name(std::string_view name) {
    if (name == "none") return Positions::none;
    if (name == "sinusoidal") return Positions::sinusoidal;
    if (name == "learned") return Positions::learned;
    if (name == "rotary") return Positions::rotary;
    if (name == "alibi") return Positions::alibi;
    if (name == "relative") return Positions::relative;
    throw std::invalid_argument(
        "positions must be 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative', got " +
        quoted(std::string(name)));
}

Readout readout_from_name(std::string_view name) {
    if (name == "mean") return Readout::mean;
    if (name == "each") return Readout::each;
    throw std::invalid_argument("readout must be 'mean' (one prediction per sequence) or 'each' (one per position), got " + quoted(std::string(name)));
}

DType dtype_from_name(std::string_view name) {
    if (name == "float32") return DType::float32;
    if (name == "float64") return DType::float64;
    throw std::invalid_argument("dtype must be 'float32' or 'float64', got " + quoted(std::string(name)));
}

std::string_view name_of(Positions positions) {
    switch (positions) {
        case Positions::none: return "none";
        case Positions::sinusoidal: return "sinusoidal";
        case Positions::learned: return "learned";
        case Positions::rotary: return "rotary";
        case Positions::alibi: return "alibi";
        case Positions::relative: return "relative";
    }
    return "?";
}

std::string_view name_of(Readout readout) { return readout == Readout::mean ? "mean" : "each"; }

std::string_view name_of(DType dtype) { return dtype == DType::float32 ? "float32" : "float64"; }

std::uint64_t seed_from_number(double seed) {
    if (!(seed >= 0 && seed <= 0x1p53 && std::floor(seed) == seed))
        throw std::invalid_argument("seed must be an integer in 0 .. 2^53, got " + number_text(seed));
    return static_cast<std::uint64_t>(seed);
}

}  // namespace seqorder::model
