// An error about one item of a list, named: the core's messages name an argument as a call spells it ("ids[1, 2] = 11
// is outside ..."); a call that takes a list of them (train's batches) puts the item before it ("batches[2]: ids[1, 2]
// = 11 is outside ...").
#pragma once

#include <stdexcept>
#include <string>

namespace seqorder::model {

// Inside a catch block: rethrows the exception being handled as one of the same class whose message is `prefix`
// followed by its own (std::invalid_argument, std::out_of_range, std::length_error, std::range_error); any other
// exception (std::bad_alloc) is rethrown as it is.
[[noreturn]] inline void rethrow_prefixed(const std::string& prefix) {
    try {
        throw;
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(prefix + e.what());
    } catch (const std::out_of_range& e) {
        throw std::out_of_range(prefix + e.what());
    } catch (const std::length_error& e) {
        throw std::length_error(prefix + e.what());
    } catch (const std::range_error& e) {
        throw std::range_error(prefix + e.what());
    }
}

// "batches[2]: "
inline std::string batch_prefix(std::size_t i) { return "batches[" + std::to_string(i) + "]: "; }

}  // namespace seqorder::model
