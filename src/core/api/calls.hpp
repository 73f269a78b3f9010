// The public API's functions on the caller's memory: one entry per function of the JS API (positions, embed,
// addPositions, learnedPositions, rope, attention, matmul, softmax, splitHeads, mergeHeads), taking its arguments as the caller gave them (numbers as doubles,
// shapes as lists of numbers, dtypes and choices as strings) and returning freshly allocated results.
//
// This is where the core's rules are checked, once, with the messages callers see (every message names the argument),
// where each size is computed in 64-bit arithmetic and held to the tensor limit before anything is allocated, and where
// the kernel is chosen (the fused float32 attention when no steps are asked for, else the readable reference). The
// WebAssembly binding (src/bindings/), the native-vs-WebAssembly test (tests/native-vs-wasm/) and the fuzz targets
// (fuzz/) all call these functions, so the path they test is the package's path.
//
// What stays with the caller (the JS layer): the kinds of its arguments (a number, a typed array, a string) and the
// class of an `out` array; everything about values, shapes and sizes is checked here.
#pragma once

#include <cstdint>
#include <vector>

#include "call_types.hpp"

namespace seqorder::calls {

// Every call may also be given the length of the caller's `out` array: it must equal the result's element count
// (checked before anything is computed).
//
// Memory: a result is at most max_tensor_bytes() (1 GiB), and every result is checked before any is allocated. Beside
// its results a call takes a few small blocks (a row of scores, a table of frequencies: within 8 times its inputs and
// results, plus 64 KiB), except the fused attention (float32 without steps), which takes one block of
// attention_fast_scratch_size(shape) floats (attention_fast.hpp): 8 ceil(Tk / 8) (D + 4 S) + 8 ceil(Dv / 8) (Tk + 4)
// + 16 D floats, with S = min(4, ceil(Tq / 4)), each of its five parts rounded up to 64 bytes. For narrow widths
// that is many times the inputs (D = Dv = 1, Tq = 1: 13 floats a key against the inputs' 2).

// Each returns its results (attention with steps: scores, scaled, weights, output; the others: one), or throws
// std::invalid_argument, std::out_of_range or std::length_error (a size past the limit) with the message for the
// caller, or std::bad_alloc. Nothing is allocated before every argument has been checked.
std::vector<Result> positions(const PositionsArgs& args);
std::vector<Result> embed(const EmbedArgs& args);
std::vector<Result> add_positions(const ShiftArgs& args);
std::vector<Result> learned_positions(const LearnedPositionsArgs& args);
std::vector<Result> rope(const ShiftArgs& args);
std::vector<Result> attention(const AttentionArgs& args);
// a (.., M, K) . b (.., K, N) -> (.., M, N), the leading axes broadcast as numpy's matmul broadcasts them (aligned from
// the right, each pair equal or one of them 1, a missing axis counting as 1); each sum from 0 in order of k (K = 0:
// zeros): the model's projections' function (model/steps.hpp: matmul_forward).
std::vector<Result> matmul(const MatmulArgs& args);
// Softmax over the last axis (softmax.hpp), with attention's causal mask (causal, queryStart: x (.., Tq, Tk)).
std::vector<Result> softmax(const SoftmaxArgs& args);
// x (.., T, D) -> (.., heads, T, D / heads): head h is columns h Dh .. (h + 1) Dh - 1 of every row, as the model splits
// its projections; merge_heads is its inverse, (.., H, T, Dh) -> (.., T, H Dh). Copies, no arithmetic.
std::vector<Result> split_heads(const SplitHeadsArgs& args);
std::vector<Result> merge_heads(const MergeHeadsArgs& args);
// attention()'s checks, in its order and with its messages, and its plan; throws as attention() does.
AttentionPlan plan_attention(const AttentionArgs& args);
// positions()'s checks, in its order and with its messages, and the pieces it may be computed in; throws as
// positions() does.
PositionsPlan plan_positions(const PositionsArgs& args);

// The largest tensor, in bytes (kMaxTensorBytes, tensor.hpp): no result, argument or model passes it.
std::int64_t max_tensor_bytes();

}  // namespace seqorder::calls
