// The parts of values.hpp that are the same for every call and every table.
#include "values.hpp"

namespace seqorder::binding {

val error_outcome(const char* message) {
    val outcome = val::object();
    outcome.set("error", std::string(message));
    return outcome;
}

void Describer::add(const char* name, const std::string& kind) {
    list += list.empty() ? "[\"" : ", [\"";
    list += name;
    list += "\", ";
    list += kind;
    list += "]";
}

std::string wrapped(const char* before, const std::string& kind, const char* after) { return before + kind + after; }

val value_of(double x) { return val(x); }
val value_of(std::int64_t x) { return val(static_cast<double>(x)); }
val value_of(bool x) { return val(x); }
val value_of(const std::string& x) { return val(x); }
val value_of(const calls::NumberOrName& x) {
    return std::visit([](const auto& v) { return val(v); }, x);
}

std::vector<BoundCall>& bound_calls() {
    static std::vector<BoundCall> calls;
    return calls;
}

std::string argument_fields() {
    std::string tables;
    for (const BoundCall& call : bound_calls()) {
        tables += tables.empty() ? "{\"" : ", \"";
        tables += call.name;
        tables += "\": ";
        tables += call.describe();
    }
    return tables + "}";
}

}  // namespace seqorder::binding
