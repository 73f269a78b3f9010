// The public API's functions on the caller's memory: one entry per function of the JS API (positions, embed,
// addPositions, learnedPositions, rope, attention), taking its arguments as the caller gave them (numbers as doubles,
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

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attention.hpp"

namespace seqorder::calls {

// An input tensor in the caller's memory: `count` elements of `dtype` at `data`, with the shape the caller gave.
// dtype is the element type of the caller's array: "float64", "float32" or "int32". The shape's entries are checked
// here (non-negative integers whose product is count).
struct TensorArg {
    const void* data = nullptr;
    std::int64_t count = 0;
    std::string dtype = "float64";
    std::vector<double> shape;
};

// A result: `shape` of `dtype`, in a block from std::malloc (released by whoever takes it; freed otherwise).
struct Result {
    struct Free {
        void operator()(void* p) const noexcept { std::free(p); }
    };
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::int64_t count = 0;  // elements: the product of shape
    std::unique_ptr<void, Free> data;
};

// Every call may also be given the length of the caller's `out` array: it must equal the result's element count
// (checked before anything is computed).
//
// Memory: a result is at most 1 GiB (kMaxTensorBytes), and every result is checked before any is allocated. Beside
// its results a call takes a few small blocks (a row of scores, a table of frequencies: within 8 times its inputs and
// results, plus 64 KiB), except the fused attention (float32 without steps), which takes one block of
// attention_fast_scratch_size(shape) floats (attention_fast.hpp): 8 ceil(Tk / 8) (D + 4 S) + 8 ceil(Dv / 8) (Tk + 4)
// + 16 D + 4096 floats, with S = min(4, ceil(Tq / 4)), each of its six parts rounded up to 64 bytes. For narrow widths
// that is many times the inputs (D = Dv = 1, Tq = 1: 13 floats a key against the inputs' 2).

struct PositionsArgs {
    double length = 0, width = 0;
    double start = 0, base = 10000;
    std::string dtype = "float64";          // "float64" | "float32"
    std::string layout = "interleaved";     // "interleaved" | "halves"
    std::optional<double> out_length;
};
struct EmbedArgs {
    TensorArg table, ids;                   // table (V, D) float, ids (T) or (B, T) int32
    std::optional<double> out_length;
};
struct ShiftArgs {                          // addPositions and rope
    TensorArg x;                            // (.., T, D): any leading batch axes
    double start = 0, base = 10000;
    std::optional<double> out_length;
};
struct LearnedPositionsArgs {
    TensorArg table;                        // (P, D)
    double length = 0, start = 0;
    std::optional<double> out_length;
};
struct AttentionArgs {
    TensorArg q, k, v;                      // (.., Tq, D), (.., Tk, D), (.., Tk, Dv): the same leading axes
    bool causal = false;
    std::optional<double> query_start;      // unset: Tk - Tq
    bool steps = false;                     // all four steps (scores, scaled, weights, output) instead of the output
    std::optional<double> out_length;       // for the output
};

// An attention call checked and planned, without touching any data: what attention() would compute for the same
// arguments. A caller that spreads one call over several module instances (the JS pool: batch items and query rows
// over workers) checks it here first, with the very messages attention() gives, and learns how it may split the work.
struct AttentionPlan {
    std::string dtype;                              // q's: "float64" | "float32"
    AttentionShape shape;                           // batch: the product of the leading axes
    bool causal = false;
    std::int64_t query_start = 0;                   // in force (Tk - Tq unless given); 0 when not causal
    bool steps = false;
    std::vector<std::vector<std::int64_t>> results;  // the results' shapes, in attention()'s order
    bool fused = false;  // the fused kernel runs it (attention_fast: float32, no steps), else the reference
    // Query rows the chosen kernel computes together: q split on a multiple of it (each part causal from its own
    // query_start) gives every output row the same bits as the whole call. 1 for the reference (row by row).
    std::int64_t row_group = 1;
};

// Each returns its results (attention with steps: scores, scaled, weights, output; the others: one), or throws
// std::invalid_argument, std::out_of_range or std::length_error (a size past the limit) with the message for the
// caller, or std::bad_alloc. Nothing is allocated before every argument has been checked.
std::vector<Result> positions(const PositionsArgs& args);
std::vector<Result> embed(const EmbedArgs& args);
std::vector<Result> add_positions(const ShiftArgs& args);
std::vector<Result> learned_positions(const LearnedPositionsArgs& args);
std::vector<Result> rope(const ShiftArgs& args);
std::vector<Result> attention(const AttentionArgs& args);
// attention()'s checks, in its order and with its messages, and its plan; throws as attention() does.
AttentionPlan plan_attention(const AttentionArgs& args);

}  // namespace seqorder::calls
