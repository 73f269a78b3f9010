// The model behind a handle of model_calls.hpp: a model::Model of either dtype, with the options it was made from. The
// core's own (src/core/calls/): the binding holds an AnyModel only by reference; the native tests and the fuzz target
// of the model include this header on purpose, to look at the model::Model<T> inside (tests/native/calling.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "model/model.hpp"
#include "model_calls.hpp"

namespace seqorder::calls {

class AnyModel {
public:
    using Either = std::variant<model::Model<float>, model::Model<double>>;

    // The model `args` describe, every rule checked (integers where numbers are given, the names of the choices, then
    // model::check_config's rules): std::invalid_argument naming the option, std::length_error for a model past the
    // tensor limit or past what `room` can give; then its parameters drawn from args.seed (model/init.hpp).
    explicit AnyModel(const ModelArgs& args, MemoryRoom room = {});

    const model::Config& config() const;
    model::DType dtype() const noexcept { return dtype_; }
    const std::vector<model::ParameterInfo>& parameters() const;
    // The options it was made from, resolved: every one checked and given (model.config in JS).
    const ModelArgs& options() const noexcept { return options_; }

    // Calls work(model) with the model::Model<float> or model::Model<double> held.
    template <class F>
    decltype(auto) visit(F&& work) {
        return std::visit(work, model_);
    }
    template <class F>
    decltype(auto) visit(F&& work) const {
        return std::visit(work, model_);
    }

    // std::length_error, "<what> <bytes> more memory (<why>), but the heap can give <room> more", when the room given
    // at construction is smaller than `bytes`.
    void check_room(std::int64_t bytes, const std::string& what, const std::string& why) const;

private:
    model::DType dtype_;
    MemoryRoom room_;
    ModelArgs options_;
    Either model_;
};

}  // namespace seqorder::calls
