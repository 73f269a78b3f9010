// The configuration of a small trainable transformer, and the rules a configuration must follow.
//
// Every rule's message names the argument as the JS API spells it (vocab, width, heads, layers, positions, maxLength,
// causal, readout, classes, dtype, seed, embedScale, rotaryBase, rotaryPairs, buckets, maxDistance), so the binding
// can pass it on unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace seqorder::model {

// How the model learns where a token stands.
enum class Positions {
    none,        // nothing: without a causal mask the model cannot tell one order from another
    sinusoidal,  // the lesson's fixed table (positions.hpp), added to the token vectors
    learned,     // a trained (maxLength, width) table, added; a sequence longer than maxLength is an error
    rotary,      // each head's query and key pairs rotated by position (rope.hpp); nothing added
    alibi,       // ALiBi: each head's scores get -m_h times the distance (position_bias.hpp); no parameters
    relative,    // T5's relative bias: a learned (buckets, heads) table added to the scores (position_bias.hpp)
};

// What the model predicts.
enum class Readout {
    mean,  // one prediction per sequence: the final vectors averaged over the positions -> (B, classes)
    each,  // one prediction per position -> (B, T, classes)
};

enum class DType { float32, float64 };

// What the token vectors are multiplied by before the positions are added: a number, or sqrt(width), as Vaswani et al.
// (2017, section 3.4) do, so that a token vector (entries of about 0.02 sqrt(D) then) and a sinusoidal position vector
// (norm sqrt(D / 2)) meet at comparable scales.
struct EmbedScale {
    double factor = 1;         // used unless sqrt_width
    bool sqrt_width = false;   // 'sqrtWidth'
};

struct Config {
    std::int64_t vocab = 16;   // V: token ids are 0 .. V-1
    std::int64_t width = 32;   // D: the model width
    std::int64_t heads = 2;    // H: attention heads, each D / H wide
    std::int64_t layers = 1;   // L: transformer blocks, 1 .. 4
    Positions positions = Positions::none;
    std::optional<std::int64_t> max_length;  // rows of the learned table: required for learned positions, else unset
    bool causal = false;       // query i sees keys 0 .. i only
    Readout readout = Readout::mean;
    std::int64_t classes = 2;  // C: targets are 0 .. C-1 (or -1, ignored)
    std::uint64_t seed = 0;    // initial parameters (init.hpp)
    EmbedScale embed_scale;    // 1: the token vectors as they are
    // rotary positions only (unset otherwise): the base of the frequencies (unset: 10000) and the pairs rotated in
    // each head, the first ones (unset: every pair)
    std::optional<double> rotary_base;
    std::optional<std::int64_t> rotary_pairs;
    // relative positions only (unset otherwise): T5's buckets (unset: 32) and the distance where the last begins
    // (unset: 128)
    std::optional<std::int64_t> buckets, max_distance;
};

inline constexpr double kRotaryBase = 10000;
inline constexpr std::int64_t kBuckets = 32, kMaxDistance = 128;

// The options in force: rotaryBase, rotaryPairs (every pair of a head: width / heads / 2), buckets, maxDistance.
inline double rotary_base(const Config& c) { return c.rotary_base.value_or(kRotaryBase); }
inline std::int64_t rotary_pairs(const Config& c) { return c.rotary_pairs.value_or(c.width / c.heads / 2); }
inline std::int64_t buckets(const Config& c) { return c.buckets.value_or(kBuckets); }
inline std::int64_t max_distance(const Config& c) { return c.max_distance.value_or(kMaxDistance); }

// The number the token vectors are multiplied by: sqrt(width) (in float64, then rounded to the model's type by the
// network), or embed_scale.factor.
double embed_factor(const Config& config);

inline constexpr std::int64_t kMaxLayers = 4;
// ids and targets are int32, so vocab and classes stay below 2^31.
inline constexpr std::int64_t kMaxVocab = std::int64_t{1} << 31;

// Throws std::invalid_argument naming the argument and the rule:
//   vocab >= 1 (and < 2^31); width >= 1; heads >= 1 dividing width; layers 1..4; classes >= 1 (and < 2^31);
//   maxLength >= 1 with learned positions and unset otherwise; width even for sinusoidal positions (sine-cosine
//   pairs); width / heads even for rotary positions (each head rotates coordinate pairs); embedScale's factor a
//   positive finite number, also once rounded to float32 when element_bytes is 4 (the network multiplies in the
//   model's type); rotaryBase a finite number > 1 and rotaryPairs an integer in 1 .. width / heads / 2, with rotary
//   positions only; buckets an integer >= 2 (causal) or even and >= 4 (bidirectional: half per direction) and
//   maxDistance an integer above the exact buckets of a direction (buckets / 2, or buckets / 4 bidirectional), with
//   relative positions only.
// Throws std::length_error when the model's four values per parameter (value, gradient, Adam's two moments) would
// pass kMaxTensorBytes (tensor.hpp) with elements of element_bytes bytes.
void check_config(const Config& config, std::size_t element_bytes);

// The names the JS API uses, and back. The parsers throw std::invalid_argument naming the argument and the choices.
Positions positions_from_name(std::string_view name);
Readout readout_from_name(std::string_view name);
DType dtype_from_name(std::string_view name);
std::string_view name_of(Positions positions);
std::string_view name_of(Readout readout);
std::string_view name_of(DType dtype);

// An embedScale given as a name: 'sqrtWidth', else std::invalid_argument naming embedScale.
EmbedScale embed_scale_from_name(std::string_view name);

// A seed given as a JS number: an integer in 0 .. 2^53 (every such integer is exact in a double), else
// std::invalid_argument naming seed.
std::uint64_t seed_from_number(double seed);

}  // namespace seqorder::model
