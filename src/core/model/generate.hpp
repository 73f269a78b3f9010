// Generation with a key/value cache: a causal model with readout 'each' run one token at a time, each new token one
// row of every step (the lesson's incremental generation: the token at position start + r = t is the only query, its
// queryStart is t, and it sees the keys 0 .. t that the cache holds), bit for bit the last row of the forward pass on
// the whole sequence so far (tested on every position scheme, float32 and float64). And the sampling of the next id.
//
//   Decoder<float> decoder(config, view, capacity);  // capacity: the most tokens it will hold
//   for (std::int32_t id : prefix) decoder.push(id);   // decoder.logits(): the next token's logits (classes)
//   std::vector<double> logits(decoder.logits().begin(), decoder.logits().end());
//   const std::int32_t next = sample_next(logits, sampling, random);
//
// Each push runs, for the token at position t, the steps of network.hpp on one row: its input row (the sinusoidal or
// learned table's row t), per layer LN1, its q, k and v, k and q rotated to position t (rotary), k and v appended to
// the layer's cache, attention of q over the t + 1 cached keys with the bias row t (alibi, relative), Wo, the MLP; the
// final LayerNorm and the readout. It calls the reference steps (steps.hpp, attention.hpp), whose bits the fast
// float32 kernels of the full forward give.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "config.hpp"
#include "parameters.hpp"
#include "random.hpp"

namespace seqorder::model {

template <class F>
class Decoder {
public:
    // A cache for up to `capacity` tokens (>= 1) of a causal model of `config`, whose parameters `p` must outlive it.
    Decoder(const Config& config, const ParameterView<const F>& p, std::size_t capacity);

    // Appends the token `id` (checked by the caller: 0 .. vocab - 1) at the next position t (fewer than capacity
    // tokens held) and computes the logits of the token after it.
    void push(std::int32_t id);
    std::span<const F> logits() const noexcept { return logits_; }
    std::size_t length() const noexcept { return length_; }

private:
    Config c_;
    ParameterView<const F> p_;
    std::size_t capacity_, length_ = 0, D_, H_, hd_, pairs_;
    std::vector<F> keys_, values_;     // (L, H, capacity, hd): each layer's k (rotated) and v of every position
    std::vector<F> table_;             // (capacity, D): the sinusoidal rows
    std::vector<F> rotated_;           // (2H, capacity, hd): rotary's q and k heads of positions 0 .. t
    std::vector<F> x_, ln_, q_, k_, v_, heads_, mid_, hidden_, stat_, bias_, logits_;  // one row of each step
    std::vector<double> slopes_;       // ALiBi's
};

extern template class Decoder<double>;
extern template class Decoder<float>;

// How the next id is drawn from a row of logits (classes).
struct Sampling {
    double temperature = 1;            // 0: greedy
    std::optional<std::int64_t> top_k; // keep the k largest logits (ties: the lower ids first); none: every id
};

// The next id, from a row of logits (classes, as float64): temperature 0 takes the largest logit (the lowest id
// among equal ones) and draws nothing. Otherwise one draw u = random.uniform() (53 bits, [0, 1)); the kept ids (every id, or the top_k largest) get weights
// w_i = exp((z_i - z_max) / temperature), in float64, summed in order of id into W; the id drawn is the first kept id,
// in order of id, whose running sum exceeds u W (the last kept id if rounding leaves none).
std::int32_t sample_next(std::span<const double> logits, const Sampling& sampling, SplitMix64& random);

// The bytes a Decoder of `capacity` tokens of element_bytes-byte values allocates (the caches, the tables and one row
// of each step), and sampling's buffers (a few values per class); saturated, never wrapped.
std::int64_t decoder_bytes(const Config& config, std::int64_t capacity, std::size_t element_bytes);

// generate's rules, checked before anything is computed, for a model of `config` and element_bytes-byte values:
// std::invalid_argument unless the model is a next-token model (causal, readout 'each', classes = vocab), the prefix
// holds at least one id, steps >= 0, the temperature is finite >= 0 and topK in 1 .. classes; std::out_of_range for
// prefix + steps past a learned table's maxLength, or an id of the prefix outside 0 .. vocab - 1 (naming it);
// std::length_error for a cache past the tensor limit.
void check_generate(const Config& config, std::span<const std::int32_t> prefix, std::int64_t steps,
                    const Sampling& sampling, std::size_t element_bytes);

}  // namespace seqorder::model
