// Native side of tests/node/native-vs-wasm.test.mjs: runs a list of calls on the core compiled natively (g++) and
// writes their outputs, so that the test can compare them with the same calls through the WebAssembly module.
//
// Usage: dump <calls.bin> <outputs.bin>
//
// Each call is the one the binding (src/bindings/embind.cpp) makes for a JS API call, with the same scalar arguments
// and the same core function: positions_fast, add_positions_into, embed_into, learned_positions_into, rope_into,
// attention_reference, and for float32 attention without steps the fused attention_fast. The node side turns each API
// call into this form, so the inputs are the very bits the WebAssembly module receives.
//
// calls.bin, little-endian:
//   "SOVW" u32 version (1) u32 calls, then per call:
//     u32 name_bytes, name;  u32 scalars, f64 x scalars;  u32 tensors, per tensor: u32 dtype, u64 count, the data
//   dtype: 0 = float64, 1 = float32, 2 = int32
// outputs.bin:
//   "SOVR" u32 version (1) u32 calls, then per call: u32 outputs, per output: u32 dtype, u64 count, the data
//
// Scalars per call (the binding's arguments after the addresses; booleans are 0 or 1):
//   positions         f32, length, width, start, base, halves
//   addPositions      f32, batch, length, width, start, base                            tensors: x
//   embed             f32, vocab, width, ids_rows, ids_cols, ids_rank2                  tensors: table, ids (int32)
//   learnedPositions  f32, rows, width, length, start                                   tensors: table
//   rope              f32, batch, length, width, start, base                            tensors: x
//   attention         f32, batch, queries, keys, width, value_width, causal, has_query_start, query_start, steps
//                                                                                        tensors: q, k, v
// Outputs: one tensor, or for attention with steps the four: scores, scaled, weights, output.
// Any error (a malformed file, a core exception) is printed and the exit status is 1.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "seqorder.hpp"

namespace {

using Data = std::variant<std::vector<double>, std::vector<float>, std::vector<std::int32_t>>;

class Reader {
public:
    explicit Reader(std::vector<char> bytes) : bytes_(std::move(bytes)) {}

    template <class T>
    T value() {
        T x{};
        take(&x, sizeof x);
        return x;
    }
    std::string string(std::size_t n) {
        std::string s(n, '\0');
        take(s.data(), n);
        return s;
    }
    template <class T>
    std::vector<T> array(std::uint64_t count) {
        if (count > (bytes_.size() - at_) / sizeof(T)) throw std::runtime_error("calls file: a tensor runs past the end");
        std::vector<T> v(count);
        take(v.data(), count * sizeof(T));
        return v;
    }
    bool done() const { return at_ == bytes_.size(); }

private:
    void take(void* p, std::size_t n) {
        if (n > bytes_.size() - at_) throw std::runtime_error("calls file: truncated");
        if (n > 0) std::memcpy(p, bytes_.data() + at_, n);
        at_ += n;
    }
    std::vector<char> bytes_;
    std::size_t at_ = 0;
};

class Writer {
public:
    explicit Writer(std::ofstream& out) : out_(out) {}
    template <class T>
    void value(T x) { out_.write(reinterpret_cast<const char*>(&x), sizeof x); }
    template <class T>
    void tensor(const std::vector<T>& v) {
        value<std::uint32_t>(std::is_same_v<T, double> ? 0 : std::is_same_v<T, float> ? 1 : 2);
        value<std::uint64_t>(v.size());
        out_.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
    }

private:
    std::ofstream& out_;
};

struct Call {
    std::string name;
    std::vector<double> scalars;
    std::vector<Data> tensors;

    double scalar(std::size_t i) const {
        if (i >= scalars.size()) throw std::runtime_error(name + ": scalar " + std::to_string(i) + " missing");
        return scalars[i];
    }
    std::int64_t integer(std::size_t i) const { return static_cast<std::int64_t>(scalar(i)); }
    std::size_t size(std::size_t i) const { return static_cast<std::size_t>(scalar(i)); }
    bool flag(std::size_t i) const { return scalar(i) != 0; }
    template <class T>
    const std::vector<T>& tensor(std::size_t i) const {
        if (i >= tensors.size()) throw std::runtime_error(name + ": tensor " + std::to_string(i) + " missing");
        const auto* v = std::get_if<std::vector<T>>(&tensors[i]);
        if (v == nullptr) throw std::runtime_error(name + ": tensor " + std::to_string(i) + " has another dtype");
        return *v;
    }
};

Call read_call(Reader& in) {
    Call call;
    call.name = in.string(in.value<std::uint32_t>());
    call.scalars = in.array<double>(in.value<std::uint32_t>());
    const auto tensors = in.value<std::uint32_t>();
    for (std::uint32_t t = 0; t < tensors; ++t) {
        const auto dtype = in.value<std::uint32_t>();
        const auto count = in.value<std::uint64_t>();
        if (dtype == 0) call.tensors.emplace_back(in.array<double>(count));
        else if (dtype == 1) call.tensors.emplace_back(in.array<float>(count));
        else if (dtype == 2) call.tensors.emplace_back(in.array<std::int32_t>(count));
        else throw std::runtime_error(call.name + ": unknown dtype " + std::to_string(dtype));
    }
    return call;
}

// Runs one call with T = float or double, as the binding's for_dtype does; returns its outputs.
template <class T>
std::vector<Data> run(const Call& c) {
    using seqorder::Layout;
    std::vector<Data> outputs;
    if (c.name == "positions") {
        // f32, length, width, start, base, halves
        std::vector<T> out(c.size(1) * c.size(2));
        seqorder::check_positions_args(c.integer(1), c.integer(2), c.integer(3), c.scalar(4));
        seqorder::positions_fast<T>(out, c.integer(1), c.integer(2), c.integer(3), c.scalar(4),
                                    c.flag(5) ? Layout::halves : Layout::interleaved);
        outputs.emplace_back(std::move(out));
    } else if (c.name == "addPositions" || c.name == "rope") {
        // f32, batch, length, width, start, base; x
        const auto& x = c.tensor<T>(0);
        std::vector<T> out(x.size());
        if (c.name == "rope")
            seqorder::rope_into<T>(out, x, c.integer(1), c.integer(2), c.integer(3), c.integer(4), c.scalar(5));
        else
            seqorder::add_positions_into<T>(out, x, c.integer(1), c.integer(2), c.integer(3), c.integer(4), c.scalar(5));
        outputs.emplace_back(std::move(out));
    } else if (c.name == "embed") {
        // f32, vocab, width, ids_rows, ids_cols, ids_rank2; table, ids
        const auto& ids = c.tensor<std::int32_t>(1);
        const seqorder::Shape ids_shape = c.flag(5) ? seqorder::Shape{c.size(3), c.size(4)} : seqorder::Shape{ids.size()};
        std::vector<T> out(ids.size() * c.size(2));
        seqorder::embed_into<T>(out, c.tensor<T>(0), c.integer(1), c.integer(2), ids, ids_shape);
        outputs.emplace_back(std::move(out));
    } else if (c.name == "learnedPositions") {
        // f32, rows, width, length, start; table
        std::vector<T> out(c.size(3) * c.size(2));
        seqorder::learned_positions_into<T>(out, c.tensor<T>(0), c.integer(1), c.integer(2), c.integer(3), c.integer(4));
        outputs.emplace_back(std::move(out));
    } else if (c.name == "attention") {
        // f32, batch, queries, keys, width, value_width, causal, has_query_start, query_start, steps; q, k, v
        const seqorder::AttentionShape s{c.integer(1), c.integer(2), c.integer(3), c.integer(4), c.integer(5)};
        seqorder::CausalMask mask{c.flag(6), {}};
        if (c.flag(7)) mask.query_start = c.integer(8);
        const bool steps = c.flag(9);
        const std::size_t n_weights = c.size(1) * c.size(2) * c.size(3);
        std::vector<T> output(c.size(1) * c.size(2) * c.size(5));
        std::vector<T> scores(steps ? n_weights : 0), scaled(steps ? n_weights : 0), weights(steps ? n_weights : 0);
        const auto &q = c.tensor<T>(0), &k = c.tensor<T>(1), &v = c.tensor<T>(2);
        bool fused = false;
        if constexpr (std::is_same_v<T, float>) {
            if (!steps) {  // the binding's fused fast path
                seqorder::attention_fast(output, q, k, v, s, mask);
                fused = true;
            }
        }
        if (!fused) seqorder::attention_reference<T>({scores, scaled, weights, output}, q, k, v, s, mask);
        if (steps) {
            outputs.emplace_back(std::move(scores));
            outputs.emplace_back(std::move(scaled));
            outputs.emplace_back(std::move(weights));
        }
        outputs.emplace_back(std::move(output));
    } else {
        throw std::runtime_error("unknown call '" + c.name + "'");
    }
    return outputs;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: dump <calls.bin> <outputs.bin>\n";
        return 2;
    }
    try {
        std::ifstream file(argv[1], std::ios::binary);
        if (!file) throw std::runtime_error(std::string("cannot read ") + argv[1]);
        Reader in({std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()});
        if (in.string(4) != "SOVW" || in.value<std::uint32_t>() != 1) throw std::runtime_error("calls file: not a version 1 SOVW file");
        const auto calls = in.value<std::uint32_t>();

        std::ofstream file_out(argv[2], std::ios::binary);
        if (!file_out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
        Writer out(file_out);
        file_out.write("SOVR", 4);
        out.value<std::uint32_t>(1);
        out.value<std::uint32_t>(calls);
        for (std::uint32_t n = 0; n < calls; ++n) {
            const Call call = read_call(in);
            try {
                const std::vector<Data> outputs = call.flag(0) ? run<float>(call) : run<double>(call);
                out.value<std::uint32_t>(static_cast<std::uint32_t>(outputs.size()));
                for (const Data& d : outputs) std::visit([&](const auto& v) { out.tensor(v); }, d);
            } catch (const std::exception& e) {
                throw std::runtime_error("call " + std::to_string(n) + " (" + call.name + "): " + e.what());
            }
        }
        if (!in.done()) throw std::runtime_error("calls file: bytes left after the last call");
        file_out.close();
        if (!file_out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
    } catch (const std::exception& e) {
        std::cerr << "dump: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
