// The only C++ file that knows about Emscripten: exposes the core to the JS layer (src/js/seqorder.mjs).
//
// Conventions, kept thin on purpose:
// - Tensors cross as heap addresses (the JS layer copies data in and out) plus sizes; sizes come as JS numbers
//   (doubles) that the JS layer has already checked to be safe integers.
// - Every function returns a std::string: empty on success, else the core's error message. The JS layer throws it as
//   a RangeError. Nothing is thrown across the boundary, so no C++ frame is skipped and nothing leaks on an error.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <exception>
#include <new>
#include <span>
#include <string>
#include <type_traits>

#include "seqorder.hpp"

namespace {

using seqorder::Layout;

std::int64_t i64(double x) { return static_cast<std::int64_t>(x); }

template <class T>
std::span<T> heap_span(std::uintptr_t address, std::size_t count) {
    return {reinterpret_cast<T*>(address), count};
}

// Runs `work`, turning any exception into its message.
template <class F>
std::string guarded(F&& work) {
    try {
        work();
        return {};
    } catch (const std::bad_alloc&) {
        return "out of memory: the WebAssembly heap cannot hold this call's tensors";
    } catch (const std::exception& e) {
        return e.what();
    }
}

// Calls work.template operator()<T>() with T = float when f32, else double.
template <class F>
std::string for_dtype(bool f32, F&& work) {
    return guarded([&] {
        if (f32)
            work.template operator()<float>();
        else
            work.template operator()<double>();
    });
}

std::size_t count(double a, double b, double c = 1) { return static_cast<std::size_t>(a * b * c); }

std::string positions(std::uintptr_t out, bool f32, double length, double width, double start, double base, bool halves) {
    return for_dtype(f32, [&]<class T>() {
        seqorder::check_positions_args(i64(length), i64(width), i64(start), base);
        seqorder::positions_fast<T>(heap_span<T>(out, count(length, width)), i64(length), i64(width), i64(start), base,
                                    halves ? Layout::halves : Layout::interleaved);
    });
}

std::string add_positions(std::uintptr_t out, std::uintptr_t x, bool f32, double batch, double length, double width,
                          double start, double base) {
    return for_dtype(f32, [&]<class T>() {
        const std::size_t n = count(batch, length, width);
        seqorder::add_positions_into<T>(heap_span<T>(out, n), heap_span<const T>(x, n), i64(batch), i64(length),
                                        i64(width), i64(start), base);
    });
}

std::string embed(std::uintptr_t out, std::uintptr_t table, bool f32, double vocab, double width, std::uintptr_t ids,
                  double ids_rows, double ids_cols, bool ids_rank2) {
    return for_dtype(f32, [&]<class T>() {
        const std::size_t n = count(ids_rows, ids_cols);
        const seqorder::Shape ids_shape = ids_rank2 ? seqorder::Shape{static_cast<std::size_t>(ids_rows), static_cast<std::size_t>(ids_cols)}
                                                    : seqorder::Shape{n};
        seqorder::embed_into<T>(heap_span<T>(out, count(ids_rows, ids_cols, width)), heap_span<const T>(table, count(vocab, width)),
                                i64(vocab), i64(width), heap_span<const std::int32_t>(ids, n), ids_shape);
    });
}

std::string learned_positions(std::uintptr_t out, std::uintptr_t table, bool f32, double rows, double width,
                              double length, double start) {
    return for_dtype(f32, [&]<class T>() {
        seqorder::learned_positions_into<T>(heap_span<T>(out, count(length, width)), heap_span<const T>(table, count(rows, width)),
                                            i64(rows), i64(width), i64(length), i64(start));
    });
}

// x, out: (batch, length, width); out may be x (the JS layer rotates its copy of x in place).
std::string rope(std::uintptr_t out, std::uintptr_t x, bool f32, double batch, double length, double width, double start,
                 double base) {
    return for_dtype(f32, [&]<class T>() {
        const std::size_t n = count(batch, length, width);
        seqorder::rope_into<T>(heap_span<T>(out, n), heap_span<const T>(x, n), i64(batch), i64(length), i64(width),
                               i64(start), base);
    });
}

// Steps that are not wanted are passed as address 0. With none wanted, float32 runs the fused fast path.
std::string attention(std::uintptr_t output, std::uintptr_t scores, std::uintptr_t scaled, std::uintptr_t weights,
                      std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, bool f32, double batch, double queries,
                      double keys, double width, double value_width, bool causal, bool has_query_start,
                      double query_start) {
    return for_dtype(f32, [&]<class T>() {
        const seqorder::AttentionShape s{i64(batch), i64(queries), i64(keys), i64(width), i64(value_width)};
        seqorder::CausalMask mask{causal, {}};
        if (has_query_start) mask.query_start = i64(query_start);
        const std::size_t n_weights = count(batch, queries, keys);
        auto step = [&](std::uintptr_t address) { return address ? heap_span<T>(address, n_weights) : std::span<T>{}; };
        const auto out = heap_span<T>(output, count(batch, queries, value_width));
        const auto q_in = heap_span<const T>(q, count(batch, queries, width));
        const auto k_in = heap_span<const T>(k, count(batch, keys, width));
        const auto v_in = heap_span<const T>(v, count(batch, keys, value_width));
        // float32 without steps: the fused fast path, which never builds the (Tq, Tk) matrices.
        if constexpr (std::is_same_v<T, float>)
            if (!scores && !scaled && !weights) return seqorder::attention_fast(out, q_in, k_in, v_in, s, mask);
        seqorder::attention_reference<T>({step(scores), step(scaled), step(weights), out}, q_in, k_in, v_in, s, mask);
    });
}

// Bytes currently allocated by malloc in the WebAssembly heap (for leak checks).
double allocated_bytes() { return static_cast<double>(mallinfo().uordblks); }

double max_tensor_bytes() { return static_cast<double>(seqorder::kMaxTensorBytes); }

// How the fast kernels were compiled: "relaxed" (relaxed SIMD's multiply-add: SEQORDER_RELAXED_FMA) or "simd128".
std::string build() {
#ifdef SEQORDER_RELAXED_FMA
    return "relaxed";
#else
    return "simd128";
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(seqorder) {
    emscripten::function("positions", &positions);
    emscripten::function("addPositions", &add_positions);
    emscripten::function("embed", &embed);
    emscripten::function("learnedPositions", &learned_positions);
    emscripten::function("rope", &rope);
    emscripten::function("attention", &attention);
    emscripten::function("allocatedBytes", &allocated_bytes);
    emscripten::function("maxTensorBytes", &max_tensor_bytes);
    emscripten::function("build", &build);
}
