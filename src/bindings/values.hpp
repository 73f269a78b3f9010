// What the binding files (embind.cpp, model.cpp) share: how a call's arguments cross from JS (slots in the heap, read
// through the arguments' field table) and how its outcome goes back: { results } or { error }, never an exception; a
// result that is not a tensor (a plan, a model made) as a JS object written through its own field table.
//
// The arguments: the JS layer (src/js/binding.mjs) writes them into one block of the heap as float64 slots, in the
// order of the call's field table (fields(args, field), beside each struct: call_types.hpp, model_calls.hpp), which
// the module describes to it (argumentFields()); the binding reads them back with the same table. Nothing of a JS
// object is read here, so nothing on Object.prototype can reach the core. The slots: first their count; then per
// member, by its type:
//   double, std::optional<double>, bool, std::int64_t, a pointer: 0 (absent: the default stays), or 1 and the value
//   std::string: 0, or 1, its length in bytes n and ceil(n / 8) slots holding its UTF-8 bytes (a NUL among them too)
//   NumberOrName: 0, or 1 and the number, or 2, the name's length in bytes and its slots (as a std::string's)
//   std::vector<double>: its length n and n values
//   a struct with a field table: its members in order; std::optional of one: 0, or 1 and its members; std::vector of
//   one: its length and each one's members
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "call_types.hpp"

namespace seqorder::binding {

using emscripten::val;

// ---- a call's arguments, from the slots ----

template <class T>
concept HasFields = requires(T& t) { fields(t, [](const char*, auto&) {}); };

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

// Reads members from the slots at `address`, in the order they are visited (a field table's visitor).
class SlotReader {
public:
    explicit SlotReader(double address) {
        const auto* slots = reinterpret_cast<const double*>(static_cast<std::uintptr_t>(address));
        at_ = slots + 1;
        end_ = at_ + static_cast<std::size_t>(slots[0]);
    }
    template <class T>
    void operator()(const char*, T& member) {
        read(member);
    }
    bool done() const { return at_ == end_; }

private:
    void need(std::size_t slots) const {
        if (slots > static_cast<std::size_t>(end_ - at_))
            throw std::logic_error("binding: a call's arguments end before its field table does");
    }
    double take() {
        need(1);
        return *at_++;
    }
    bool given() { return take() != 0; }
    // One function per type of member, shared by every table (not inlined into each).
    [[gnu::noinline]] void read(double& member) {
        if (given()) member = take();
    }
    [[gnu::noinline]] void read(std::optional<double>& member) {
        member.reset();
        if (given()) member = take();
    }
    [[gnu::noinline]] void read(bool& member) {
        if (given()) member = take() != 0;
    }
    [[gnu::noinline]] void read(std::int64_t& member) {
        if (given()) member = static_cast<std::int64_t>(take());
    }
    [[gnu::noinline]] void read(const void*& member) {
        if (given()) member = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(take()));
    }
    [[gnu::noinline]] void read(std::string& member) {
        if (given()) read_text(member);
    }
    [[gnu::noinline]] void read(calls::NumberOrName& member) {
        const double given = take();
        if (given == 1) member = take();
        if (given == 2) read_text(member.emplace<std::string>());
    }
    // A string's length in bytes n and its ceil(n / 8) slots.
    void read_text(std::string& member) {
        const auto bytes = static_cast<std::size_t>(take());
        const std::size_t slots = (bytes + 7) / 8;
        need(slots);
        member.assign(reinterpret_cast<const char*>(at_), bytes);
        at_ += slots;
    }
    [[gnu::noinline]] void read(std::vector<double>& member) {
        const auto n = static_cast<std::size_t>(take());
        need(n);
        member.assign(at_, at_ + n);
        at_ += n;
    }
    template <class T>
    void read(std::optional<T>& member) {
        member.reset();
        if (given()) read(member.emplace());
    }
    template <class T>
    void read(std::vector<T>& member) {
        member.resize(static_cast<std::size_t>(take()));
        for (T& item : member) read(item);
    }
    template <HasFields T>
    void read(T& member) {
        fields(member, *this);
    }
    const double* at_;
    const double* end_;
};

// ---- the field tables, described for the JS layer ----

// How the slots of a member of type T are written, as JSON: "number", "text", "numberOrText", "numbers", or
// {"fields": [[name, kind], ...]}, {"optional": kind}, {"list": kind}.
template <class T>
std::string kind_of();

// The text of a struct's table, [name, kind] by [name, kind].
struct Describer {
    std::string list;
    void add(const char* name, const std::string& kind);  // (values.cpp, as wrapped(): not repeated per type)
    template <class T>
    void operator()(const char* name, T&) {
        add(name, kind_of<T>());
    }
};
std::string wrapped(const char* before, const std::string& kind, const char* after);

template <class T>
std::string kind_of() {
    if constexpr (std::is_same_v<T, std::string>) {
        return "\"text\"";
    } else if constexpr (std::is_same_v<T, calls::NumberOrName>) {
        return "\"numberOrText\"";
    } else if constexpr (std::is_same_v<T, std::vector<double>>) {
        return "\"numbers\"";
    } else if constexpr (std::is_arithmetic_v<T> || std::is_pointer_v<T> || std::is_same_v<T, std::optional<double>>) {
        return "\"number\"";
    } else if constexpr (IsOptional<T>::value) {
        return wrapped("{\"optional\": ", kind_of<typename T::value_type>(), "}");
    } else if constexpr (IsVector<T>::value) {
        return wrapped("{\"list\": ", kind_of<typename T::value_type>(), "}");
    } else {
        T example{};
        Describer describe;
        fields(example, describe);
        return wrapped("{\"fields\": [", describe.list, "]}");
    }
}

// ---- results that are not tensors, through their field tables ----

// A member as a JS value: a number (a double or an std::int64_t), a boolean, a string, a number or a string
// (NumberOrName), an array of any of these, or an object of a struct's fields (its std::optional members set only when
// they hold a value).
val value_of(double x);
val value_of(std::int64_t x);
val value_of(bool x);
val value_of(const std::string& x);
val value_of(const calls::NumberOrName& x);
template <class T>
val value_of(std::vector<T>& items);
template <HasFields T>
val value_of(T& result);

// Sets each member of `result` on `object`, under its name in the field table.
struct ValueWriter {
    val& object;
    template <class T>
    void operator()(const char* name, T& member) {
        object.set(name, value_of(member));
    }
    template <class T>
    void operator()(const char* name, std::optional<T>& member) {
        if (member) object.set(name, value_of(*member));
    }
};
template <HasFields T>
void set_fields(val& object, T& result) {
    fields(result, ValueWriter{object});
}

template <class T>
val value_of(std::vector<T>& items) {
    val list = val::array();
    for (T& item : items) list.call<void>("push", value_of(item));
    return list;
}
template <HasFields T>
val value_of(T& result) {
    val object = val::object();
    set_fields(object, result);
    return object;
}

// ---- calls ----

// { error: message }
val error_outcome(const char* message);

// Runs fill(outcome), which sets what the call returns on `outcome`; any exception becomes { error } instead, with the
// core's message (the JS layer throws it as a RangeError). Nothing is thrown across the boundary, so no C++ frame is
// skipped and nothing leaks.
template <class F>
val guarded(F&& fill) {
    val outcome = val::object();
    try {
        fill(outcome);
    } catch (const std::bad_alloc&) {
        return error_outcome("out of memory: the WebAssembly heap cannot hold this call's tensors");
    } catch (const std::exception& e) {
        return error_outcome(e.what());
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

// ---- binding a call ----

// The calls bound with bind_call, and their arguments' tables: {"name": kind_of<Args>(), ...} (argumentFields(), JSON).
struct BoundCall {
    const char* name;
    std::string (*describe)();
};
std::vector<BoundCall>& bound_calls();  // (values.cpp: one list for every binding file)
std::string argument_fields();

template <class F>
struct ArgsOf;
template <class Args>
struct ArgsOf<val (*)(const Args&)> {
    using type = Args;
};

// Reads `args` from the slots at `address`: the empty string, or what is wrong with the slots.
template <class Args>
[[gnu::noinline]] std::string read_arguments(double address, Args& args) {
    try {
        SlotReader reader(address);
        fields(args, reader);
        if (!reader.done()) return "binding: a call's arguments go on past its field table";
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

// The JS function of Call (a val Call(const Args&)): it takes the address of its arguments' slots.
template <auto Call>
val invoke(double address) {
    typename ArgsOf<decltype(Call)>::type args;
    if (const std::string error = read_arguments(address, args); !error.empty()) return error_outcome(error.c_str());
    return Call(args);
}

// Binds Call as the module's function `name` (inside EMSCRIPTEN_BINDINGS), its arguments' table described by
// argumentFields().
template <auto Call>
void bind_call(const char* name) {
    emscripten::function(name, &invoke<Call>);
    bound_calls().push_back({name, &kind_of<typename ArgsOf<decltype(Call)>::type>});
}

}  // namespace seqorder::binding
