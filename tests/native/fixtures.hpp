// Reader for the reference fixtures written by tests/fixtures/make_fixtures.py (numpy, independent of the core).
//
// A fixture file is text:
//   # seqorder-fixtures v1 ...                      (magic and version on the first line)
//   # comments
//   array <name> <dtype> <rank> <dim_0> ... <dim_rank-1>
//   <row-major values separated by spaces: float64 repr, inf, -inf, nan, or int32>
//
// load_fixtures("positions.txt") returns name -> {shape, values as double}, read from the directory given by the
// SEQORDER_FIXTURES macro (CMake sets it to tests/fixtures). Any mismatch throws with the command that regenerates.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef SEQORDER_FIXTURES
#error "SEQORDER_FIXTURES must name the fixture directory (CMake defines it)"
#endif

namespace fixtures {

inline constexpr const char* kMagic = "# seqorder-fixtures v1";
inline constexpr const char* kRegenerate = "/usr/bin/python3 tests/fixtures/make_fixtures.py";

struct Array {
    std::string dtype;                // "float64" or "int32"
    std::vector<std::size_t> shape;
    std::vector<double> values;       // row-major; int32 values are exact in double

    std::size_t size() const { return values.size(); }
    std::size_t dim(std::size_t axis) const { return shape.at(axis); }
    double scalar(std::size_t i = 0) const { return values.at(i); }
    std::int64_t integer(std::size_t i = 0) const { return static_cast<std::int64_t>(values.at(i)); }
};

class File {
public:
    File() = default;
    File(std::string path, std::map<std::string, Array> arrays) : path_(std::move(path)), arrays_(std::move(arrays)) {}

    bool has(const std::string& name) const { return arrays_.count(name) != 0; }
    const Array& operator[](const std::string& name) const {
        const auto it = arrays_.find(name);
        if (it == arrays_.end())
            throw std::runtime_error(path_ + " has no array '" + name + "'; regenerate the fixtures with: " + kRegenerate);
        return it->second;
    }
    // Number of cases "<prefix>/0/<first>", "<prefix>/1/<first>", ... present in the file.
    std::size_t count(const std::string& prefix, const std::string& first) const {
        std::size_t n = 0;
        while (has(prefix + "/" + std::to_string(n) + "/" + first)) ++n;
        return n;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::map<std::string, Array> arrays_;
};

namespace detail {

[[noreturn]] inline void fail(const std::string& path, std::size_t line, const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what +
                             "; regenerate the fixtures with: " + kRegenerate);
}

inline double parse_value(const std::string& token, const std::string& path, std::size_t line) {
    if (token == "inf") return INFINITY;
    if (token == "-inf") return -INFINITY;
    if (token == "nan") return NAN;
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') fail(path, line, "not a number: '" + token + "'");
    return value;
}

}  // namespace detail

// Reads `file_name` from the fixture directory.
inline File load(const std::string& file_name) {
    const std::string path = std::string(SEQORDER_FIXTURES) + "/" + file_name;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open fixture file " + path + "; generate it with: " + kRegenerate);
    std::string line;
    std::size_t line_number = 1;
    const std::string magic = kMagic;
    if (!std::getline(in, line) || line.compare(0, magic.size(), magic) != 0 ||
        (line.size() > magic.size() && line[magic.size()] != ' '))
        detail::fail(path, line_number, "expected the header '" + magic + " ...' (wrong file or format version)");

    std::map<std::string, Array> arrays;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream header(line);
        std::string keyword, name;
        Array array;
        std::size_t rank = 0;
        if (!(header >> keyword >> name >> array.dtype >> rank) || keyword != "array")
            detail::fail(path, line_number, "expected 'array <name> <dtype> <rank> <dims...>'");
        if (array.dtype != "float64" && array.dtype != "int32")
            detail::fail(path, line_number, "unknown dtype '" + array.dtype + "'");
        std::size_t count = 1;
        for (std::size_t axis = 0; axis < rank; ++axis) {
            std::size_t d = 0;
            if (!(header >> d)) detail::fail(path, line_number, "array " + name + ": missing dimension");
            array.shape.push_back(d);
            count *= d;
        }
        if (!std::getline(in, line)) detail::fail(path, line_number, "array " + name + ": missing its values line");
        ++line_number;
        std::istringstream values(line);
        array.values.reserve(count);
        for (std::string token; values >> token;) array.values.push_back(detail::parse_value(token, path, line_number));
        if (array.values.size() != count)
            detail::fail(path, line_number,
                         "array " + name + " has " + std::to_string(array.values.size()) + " values, its shape needs " +
                             std::to_string(count));
        if (!arrays.emplace(name, std::move(array)).second) detail::fail(path, line_number, "duplicate array " + name);
    }
    return File(path, std::move(arrays));
}

// Each file is read once per test process.
inline const File& cached(const std::string& file_name) {
    static std::map<std::string, File> files;
    auto it = files.find(file_name);
    if (it == files.end()) it = files.emplace(file_name, load(file_name)).first;
    return it->second;
}

}  // namespace fixtures
