// The types of the core's public surface (calls.hpp, model_calls.hpp): the arguments of each call as the caller gives
// them, its results, and the plans. Each struct of arguments, and each result that is not a tensor, comes with its
// field table, fields(s, field): field(name, member) once per member, in order, under the name the JS API gives it. The
// binding reads a call's arguments through it (src/bindings/values.hpp) and tells the JS layer what to write, and
// writes the results the same way; the native-vs-WebAssembly test reads its recorded calls through it
// (tests/native-vs-wasm/dump.cpp). A member is a double, std::optional<double>, bool, std::int64_t, a pointer,
// std::string, NumberOrName, std::vector<double>, or a struct with a table of its own (or an optional or list of one);
// a result's also a list of strings or of shapes.
//
// The core's public headers are the three of this folder (src/core/api/), and they include only each other: what a
// caller needs to know of the kernels (a size limit, a shape) is stated here, in the caller's terms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace seqorder::calls {

// A member the caller may give as a number or as a name (createModel's embedScale: 2.5, or 'sqrtWidth').
using NumberOrName = std::variant<double, std::string>;

// An input tensor in the caller's memory: `count` elements of `dtype` at `address`, with the shape the caller gave.
// dtype is the element type of the caller's array: "float64", "float32" or "int32". The shape's entries are checked
// by the call (non-negative integers whose product is count).
struct TensorArg {
    const void* address = nullptr;
    std::int64_t count = 0;
    std::string dtype = "float64";
    std::vector<double> shape;
};
// The bytes of one element of `dtype`: 8 for "float64", 4 for "float32" and "int32".
std::size_t element_bytes(const std::string& dtype);
template <class Field>
void fields(TensorArg& t, Field&& field) {
    field("address", t.address);
    field("count", t.count);
    field("dtype", t.dtype);
    field("shape", t.shape);
}

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

// An absent member keeps the default below. out_length is the length of the caller's `out` array, if it gave one.

struct PositionsArgs {
    double length = 0, width = 0;
    double start = 0, base = 10000;
    std::string dtype = "float64";          // "float64" | "float32"
    std::string layout = "interleaved";     // "interleaved" | "halves"
    std::optional<double> out_length;
};
template <class Field>
void fields(PositionsArgs& a, Field&& field) {
    field("length", a.length);
    field("width", a.width);
    field("start", a.start);
    field("base", a.base);
    field("dtype", a.dtype);
    field("layout", a.layout);
    field("outLength", a.out_length);
}

// A positions call checked, without computing it: its result's element count, and the rows of the pieces a caller may
// compute it in instead (the JS layer, filling a large `out`: each piece is copied out while it is in the cache). A
// piece is positions() with `length` its rows and `start` moved on by the rows before it; it starts on an anchor row
// (positions.hpp: kAnchorRows), so its rows are the whole table's, bit for bit.
struct PositionsPlan {
    std::int64_t count = 0;       // length * width
    std::int64_t piece_rows = 0;  // a multiple of kAnchorRows: as many rows as fit in kPositionsPieceBytes, at least that
};
template <class Field>
void fields(PositionsPlan& p, Field&& field) {
    field("count", p.count);
    field("pieceRows", p.piece_rows);
}
inline constexpr std::int64_t kPositionsPieceBytes = std::int64_t{1} << 20;  // within the L2 cache of today's cores

struct EmbedArgs {
    TensorArg table, ids;                   // table (V, D) float, ids (T) or (B, T) int32
    std::optional<double> out_length;
};
template <class Field>
void fields(EmbedArgs& a, Field&& field) {
    field("table", a.table);
    field("ids", a.ids);
    field("outLength", a.out_length);
}

struct ShiftArgs {                          // addPositions and rope
    TensorArg x;                            // (.., T, D): any leading batch axes
    double start = 0, base = 10000;
    std::optional<double> out_length;
};
template <class Field>
void fields(ShiftArgs& a, Field&& field) {
    field("x", a.x);
    field("start", a.start);
    field("base", a.base);
    field("outLength", a.out_length);
}

struct LearnedPositionsArgs {
    TensorArg table;                        // (P, D)
    double length = 0, start = 0;
    std::optional<double> out_length;
};
template <class Field>
void fields(LearnedPositionsArgs& a, Field&& field) {
    field("table", a.table);
    field("length", a.length);
    field("start", a.start);
    field("outLength", a.out_length);
}

struct AttentionArgs {
    TensorArg q, k, v;                      // (.., Tq, D), (.., Tk, D), (.., Tk, Dv): the same leading axes
    bool causal = false;
    std::optional<double> query_start;      // unset: Tk - Tq
    bool steps = false;                     // all four steps (scores, scaled, weights, output) instead of the output
    std::optional<double> out_length;       // for the output
};
template <class Field>
void fields(AttentionArgs& a, Field&& field) {
    field("q", a.q);
    field("k", a.k);
    field("v", a.v);
    field("causal", a.causal);
    field("queryStart", a.query_start);
    field("steps", a.steps);
    field("outLength", a.out_length);
}

struct MatmulArgs {
    TensorArg a, b;                         // (.., M, K), (.., K, N): leading axes broadcast as numpy's matmul
    std::optional<double> out_length;
};
template <class Field>
void fields(MatmulArgs& a, Field&& field) {
    field("a", a.a);
    field("b", a.b);
    field("outLength", a.out_length);
}

struct SoftmaxArgs {
    TensorArg x;                            // (.., Tk); with causal (.., Tq, Tk)
    bool causal = false;
    std::optional<double> query_start;      // unset: Tk - Tq
    std::optional<double> out_length;
};
template <class Field>
void fields(SoftmaxArgs& a, Field&& field) {
    field("x", a.x);
    field("causal", a.causal);
    field("queryStart", a.query_start);
    field("outLength", a.out_length);
}

struct SplitHeadsArgs {
    TensorArg x;                            // (.., T, D) -> (.., heads, T, D / heads)
    double heads = 0;
    std::optional<double> out_length;
};
template <class Field>
void fields(SplitHeadsArgs& a, Field&& field) {
    field("x", a.x);
    field("heads", a.heads);
    field("outLength", a.out_length);
}

struct MergeHeadsArgs {
    TensorArg x;                            // (.., H, T, Dh) -> (.., T, H Dh)
    std::optional<double> out_length;
};
template <class Field>
void fields(MergeHeadsArgs& a, Field&& field) {
    field("x", a.x);
    field("outLength", a.out_length);
}

// An attention call checked and planned, without touching any data: what attention() would compute for the same
// arguments. A caller that spreads one call over several module instances (the JS pool: batch items and query rows
// over workers) checks it here first, with the very messages attention() gives, and learns how it may split the work.
struct AttentionPlan {
    std::string dtype;                              // q's: "float64" | "float32"
    std::int64_t batch = 0;                         // the product of the leading axes
    std::int64_t queries = 0, keys = 0;             // Tq, Tk
    std::int64_t width = 0, value_width = 0;        // D, Dv
    bool causal = false;
    std::int64_t query_start = 0;                   // in force (Tk - Tq unless given); 0 when not causal
    bool steps = false;
    std::vector<std::vector<std::int64_t>> results;  // the results' shapes, in attention()'s order
    bool fused = false;  // the fused kernel runs it (attention_fast: float32, no steps), else the reference
    // Query rows the chosen kernel computes together: q split on a multiple of it (each part causal from its own
    // query_start) gives every output row the same bits as the whole call. 1 for the reference (row by row).
    std::int64_t row_group = 1;
};
template <class Field>
void fields(AttentionPlan& p, Field&& field) {
    field("dtype", p.dtype);
    field("batch", p.batch);
    field("queries", p.queries);
    field("keys", p.keys);
    field("width", p.width);
    field("valueWidth", p.value_width);
    field("causal", p.causal);
    field("queryStart", p.query_start);
    field("steps", p.steps);
    field("results", p.results);
    field("fused", p.fused);
    field("rowGroup", p.row_group);
}

}  // namespace seqorder::calls
