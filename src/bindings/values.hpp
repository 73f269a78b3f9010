// What the binding files (embind.cpp, model.cpp) share: the conversions of value_object fields that are not plain
// numbers, strings or booleans, and how a call of the core reaches JS: { results } or { error }, never an exception.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calls.hpp"

namespace seqorder::binding {

using emscripten::val;

// ---- value_object fields converted by getter / setter pairs: `undefined` leaves the core's default ----

template <class Args, double Args::*Field>
val get_number(const Args& a) { return val(a.*Field); }
template <class Args, double Args::*Field>
void set_number(Args& a, const val& x) {
    if (!x.isUndefined()) a.*Field = x.as<double>();
}
template <class Args, std::optional<double> Args::*Field>
val get_optional(const Args& a) { return (a.*Field) ? val(*(a.*Field)) : val::undefined(); }
template <class Args, std::optional<double> Args::*Field>
void set_optional(Args& a, const val& x) {
    if (x.isUndefined()) (a.*Field).reset();
    else a.*Field = x.as<double>();
}
template <class Args, std::string Args::*Field>
val get_text(const Args& a) { return val(a.*Field); }
template <class Args, std::string Args::*Field>
void set_text(Args& a, const val& x) {
    if (!x.isUndefined()) a.*Field = x.as<std::string>();
}
template <class Args, bool Args::*Field>
val get_flag(const Args& a) { return val(a.*Field); }
template <class Args, bool Args::*Field>
void set_flag(Args& a, const val& x) {
    if (!x.isUndefined()) a.*Field = x.as<bool>();
}

// ---- calls ----

// Runs fill(outcome), which sets what the call returns on `outcome`; any exception becomes { error } instead, with the
// core's message (the JS layer throws it as a RangeError). Nothing is thrown across the boundary, so no C++ frame is
// skipped and nothing leaks.
template <class F>
val guarded(F&& fill) {
    val outcome = val::object();
    try {
        fill(outcome);
    } catch (const std::bad_alloc&) {
        outcome = val::object();
        outcome.set("error", std::string("out of memory: the WebAssembly heap cannot hold this call's tensors"));
    } catch (const std::exception& e) {
        outcome = val::object();
        outcome.set("error", std::string(e.what()));
    }
    return outcome;
}

// Runs the core call, turning its results into { results: [{ address, dtype, shape }] }, the results' blocks handed
// over to the JS layer (it copies them out and frees them), or { error }.
template <class F>
val run(F&& call) {
    return guarded([&](val& outcome) {
        std::vector<calls::Result> results = call();
        val list = val::array();
        for (const calls::Result& r : results) {
            val item = val::object();
            item.set("dtype", r.dtype);
            item.set("shape", val::array(std::vector<double>(r.shape.begin(), r.shape.end())));
            item.set("address", static_cast<double>(reinterpret_cast<std::uintptr_t>(r.data.get())));
            list.call<void>("push", item);
        }
        outcome.set("results", list);
        for (calls::Result& r : results) static_cast<void>(r.data.release());  // the JS layer frees them now
    });
}

}  // namespace seqorder::binding
