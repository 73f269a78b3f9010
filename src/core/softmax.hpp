// Softmax over the last axis, with attention's causal mask: attention's third step (attention.hpp) on its own.
//
// x: (B, Tq, Tk) -> weights (B, Tq, Tk). Row i of each block:
//   - with the causal mask, query i sits at position query_start + i and sees keys 0 .. query_start + i; a hidden
//     key's weight is exactly 0, whatever x holds there
//   - the row's maximum over its visible entries is subtracted, e^(x - max) taken by std::exp, the row summed in order
//     of the key, each weight divided by that sum: attention_reference's weights from its scaled scores, bit for bit
//   - a row with nothing to attend to, its visible entries all -infinity (a mask the caller wrote into x), gets
//     weights of exactly 0, never NaN (as attention's output for a row with no keys is zeros); a NaN among its visible
//     entries, or +infinity, gives a row of NaN (as numpy's and PyTorch's softmax do)
// Without the mask every entry is visible, and the blocks are only a way to count the rows: x of any shape (.., Tk).
#pragma once

#include <cstdint>
#include <span>

#include "attention.hpp"

namespace seqorder {

struct SoftmaxShape {
    std::int64_t batch = 1;    // B
    std::int64_t queries = 0;  // Tq: rows of each block
    std::int64_t keys = 0;     // Tk: the last axis
};

// Preconditions: sizes >= 0; with mask.causal, check_causal_mask holds for (queries, keys) and mask.query_start is set;
// x and out hold B Tq Tk values (out may not overlap x).
template <class T>
void softmax_rows(std::span<T> out, std::span<const T> x, const SoftmaxShape& shape, const CausalMask& mask);

}  // namespace seqorder
