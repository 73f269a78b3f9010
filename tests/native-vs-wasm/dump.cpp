// Native side of tests/node/native-vs-wasm.test.mjs: runs the calls that the WebAssembly binding received on the
// core compiled natively (g++, the CMake target seqorder_native_dump), through the same entry points (the core's
// public surface, src/core/api/calls.hpp and model_calls.hpp: the same checks and the same choice of kernel), and
// writes their results.
// Models live in one calls::ModelTable, as in the binding: it numbers them 1, 2, ... in the order they are created,
// so the handles recorded from a fresh module instance name the same models here.
//
// Usage: seqorder_native_dump <calls.bin> <results.bin>
//
// calls.bin, little-endian: "SOVW" u32 version (2) u32 calls, then per call:
//   str name (the binding's function: positions, embed, addPositions, learnedPositions, rope, attention, matmul,
//             softmax, splitHeads, mergeHeads, orderTask,
//             modelCreate, modelDispose, modelParameters, modelForward, modelLoss, modelGradients, modelStep,
//             modelAttentionWeights)
//   u32 fields, per field: str key (a member of the call's field table), u8 kind, then by kind:
//     0 number: f64 | 1 string: str | 2 boolean: u8 | 3 tensor: str dtype, u32 rank, f64 x rank (shape), u64 count,
//     the data (count elements of dtype)
//   (a field the caller left undefined is absent: the core's default applies)
//   str = u32 length, bytes
// results.bin: "SOVR" u32 version (2) u32 calls, then per call: u32 results, per result: str dtype, u32 rank,
//   u64 x rank (shape), u64 count, the data. (modelCreate and modelDispose have none.)
// Any error (a malformed file, a core exception) is printed and the exit status is 1.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "calls.hpp"
#include "model_calls.hpp"

namespace {

namespace calls = seqorder::calls;

class Reader {
public:
    explicit Reader(std::vector<char> bytes) : bytes_(std::move(bytes)) {}
    template <class T>
    T value() {
        T x{};
        take(&x, sizeof x);
        return x;
    }
    std::string string() {
        std::string s(value<std::uint32_t>(), '\0');
        take(s.data(), s.size());
        return s;
    }
    // n bytes, kept in `storage` (aligned for any element type)
    const void* block(std::uint64_t n, std::vector<std::vector<double>>& storage) {
        if (n > bytes_.size() - at_) throw std::runtime_error("calls file: a tensor runs past the end");
        storage.emplace_back((n + 7) / 8);
        take(storage.back().data(), static_cast<std::size_t>(n));
        return storage.back().data();
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

struct Field {
    std::uint8_t kind = 0;  // as in the file: 0 number, 1 string, 2 boolean, 3 tensor
    double number = 0;
    std::string text;
    bool flag = false;
    calls::TensorArg tensor;
};

// One call's fields by key; tensors' data kept alive in `storage`.
std::map<std::string, Field> read_fields(Reader& in, std::vector<std::vector<double>>& storage) {
    std::map<std::string, Field> fields;
    for (auto n = in.value<std::uint32_t>(); n > 0; --n) {
        const std::string key = in.string();
        Field& f = fields[key];
        f.kind = in.value<std::uint8_t>();
        switch (f.kind) {
            case 0: f.number = in.value<double>(); break;
            case 1: f.text = in.string(); break;
            case 2: f.flag = in.value<std::uint8_t>() != 0; break;
            case 3: {
                f.tensor.dtype = in.string();
                for (auto rank = in.value<std::uint32_t>(); rank > 0; --rank) f.tensor.shape.push_back(in.value<double>());
                const auto count = in.value<std::uint64_t>();
                f.tensor.count = static_cast<std::int64_t>(count);
                f.tensor.address = in.block(count * calls::element_bytes(f.tensor.dtype), storage);
                break;
            }
            default: throw std::runtime_error("calls file: field " + key + " of an unknown kind");
        }
    }
    return fields;
}

// A call's arguments (call_types.hpp, model_calls.hpp), filled through their field tables from the fields present,
// as the binding fills them from the slots the JS layer writes (src/bindings/values.hpp).
class Fields {
public:
    explicit Fields(std::map<std::string, Field> fields) : fields_(std::move(fields)) {}
    template <class Args>
    Args read() const {
        Args args;
        fields(args, *this);
        return args;
    }
    // The field table's visitor: one member.
    template <class T>
    void operator()(const char* key, T& member) const {
        read(key, member);
    }
    // The model a call is made on (its `model` field).
    calls::AnyModel& model(const calls::ModelTable& models) const {
        double handle = 0;
        read("model", handle);
        return models.at(handle);
    }

private:
    void read(const char* key, double& to) const { if (const Field* f = find(key)) to = f->number; }
    void read(const char* key, std::optional<double>& to) const { if (const Field* f = find(key)) to = f->number; }
    void read(const char* key, std::string& to) const { if (const Field* f = find(key)) to = f->text; }
    void read(const char* key, bool& to) const { if (const Field* f = find(key)) to = f->flag; }
    void read(const char* key, calls::NumberOrName& to) const {
        if (const Field* f = find(key)) to = f->kind == 1 ? calls::NumberOrName(f->text) : calls::NumberOrName(f->number);
    }
    void read(const char* key, calls::TensorArg& to) const {
        const Field* f = find(key);
        if (f == nullptr) throw std::runtime_error(std::string("calls file: tensor ") + key + " missing");
        to = f->tensor;
    }
    void read(const char* key, std::optional<calls::TensorArg>& to) const {
        if (const Field* f = find(key)) to = f->tensor;
    }
    const Field* find(const char* key) const {
        const auto it = fields_.find(key);
        return it == fields_.end() ? nullptr : &it->second;
    }
    std::map<std::string, Field> fields_;
};

// The model calls: orderTask, and those of src/bindings/model.cpp on the models of `models`.
std::vector<calls::Result> run_model(const std::string& name, const Fields& f, calls::ModelTable& models) {
    if (name == "orderTask") return calls::order_task(f.read<calls::OrderTaskArgs>());
    if (name == "modelCreate") {
        models.create(f.read<calls::ModelArgs>());
        return {};
    }
    if (name == "modelDispose") {
        double handle = 0;
        f("model", handle);
        models.dispose(handle);
        return {};
    }
    if (name == "modelParameters") return calls::model_parameters(f.model(models));
    const auto in = f.read<calls::ModelInput>();
    if (name == "modelForward") return calls::model_forward(f.model(models), in);
    if (name == "modelLoss") return calls::model_loss(f.model(models), in);
    if (name == "modelGradients") return calls::model_gradients(f.model(models), in);
    if (name == "modelStep") return calls::model_step(f.model(models), in);
    if (name == "modelAttentionWeights") return calls::model_attention_weights(f.model(models), in);
    throw std::runtime_error("unknown call '" + name + "'");
}

std::vector<calls::Result> run(const std::string& name, const Fields& f, calls::ModelTable& models) {
    if (name == "positions") return calls::positions(f.read<calls::PositionsArgs>());
    if (name == "addPositions") return calls::add_positions(f.read<calls::ShiftArgs>());
    if (name == "rope") return calls::rope(f.read<calls::ShiftArgs>());
    if (name == "embed") return calls::embed(f.read<calls::EmbedArgs>());
    if (name == "learnedPositions") return calls::learned_positions(f.read<calls::LearnedPositionsArgs>());
    if (name == "attention") return calls::attention(f.read<calls::AttentionArgs>());
    if (name == "matmul") return calls::matmul(f.read<calls::MatmulArgs>());
    if (name == "softmax") return calls::softmax(f.read<calls::SoftmaxArgs>());
    if (name == "splitHeads") return calls::split_heads(f.read<calls::SplitHeadsArgs>());
    if (name == "mergeHeads") return calls::merge_heads(f.read<calls::MergeHeadsArgs>());
    return run_model(name, f, models);
}

template <class T>
void put(std::ofstream& out, T x) {
    out.write(reinterpret_cast<const char*>(&x), sizeof x);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: seqorder_native_dump <calls.bin> <results.bin>\n";
        return 2;
    }
    try {
        std::ifstream file(argv[1], std::ios::binary);
        if (!file) throw std::runtime_error(std::string("cannot read ") + argv[1]);
        Reader in({std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()});
        char magic[4];
        for (char& c : magic) c = in.value<char>();
        if (std::string(magic, 4) != "SOVW" || in.value<std::uint32_t>() != 2)
            throw std::runtime_error("calls file: not a version 2 SOVW file");
        const auto count = in.value<std::uint32_t>();
        calls::ModelTable models;

        std::ofstream out(argv[2], std::ios::binary);
        if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
        out.write("SOVR", 4);
        put<std::uint32_t>(out, 2);
        put<std::uint32_t>(out, count);
        for (std::uint32_t n = 0; n < count; ++n) {
            const std::string name = in.string();
            std::vector<std::vector<double>> storage;
            const Fields fields(read_fields(in, storage));
            try {
                const std::vector<calls::Result> results = run(name, fields, models);
                put<std::uint32_t>(out, static_cast<std::uint32_t>(results.size()));
                for (const calls::Result& r : results) {
                    put<std::uint32_t>(out, static_cast<std::uint32_t>(r.dtype.size()));
                    out.write(r.dtype.data(), static_cast<std::streamsize>(r.dtype.size()));
                    put<std::uint32_t>(out, static_cast<std::uint32_t>(r.shape.size()));
                    for (const std::int64_t d : r.shape) put<std::uint64_t>(out, static_cast<std::uint64_t>(d));
                    put<std::uint64_t>(out, static_cast<std::uint64_t>(r.count));
                    out.write(static_cast<const char*>(r.data.get()),
                              static_cast<std::streamsize>(static_cast<std::size_t>(r.count) * calls::element_bytes(r.dtype)));
                }
            } catch (const std::exception& e) {
                throw std::runtime_error("call " + std::to_string(n) + " (" + name + "): " + e.what());
            }
        }
        if (!in.done()) throw std::runtime_error("calls file: bytes left after the last call");
        out.close();
        if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
    } catch (const std::exception& e) {
        std::cerr << "seqorder_native_dump: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
