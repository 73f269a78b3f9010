// Prints ALiBi's slopes (src/core/model/position_bias.cpp's alibi_slopes) for H = 1 .. 64, one line per H, each slope
// as the hexadecimal of its float64 bits: built natively (g++, glibc's pow and log2) and with em++ (musl's), the two
// outputs must be the same (tests/node/alibi-slopes.test.mjs).
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "model/position_bias.hpp"

int main() {
    for (std::int64_t heads = 1; heads <= 64; ++heads) {
        std::printf("%" PRId64 ":", heads);
        for (const double m : seqorder::model::alibi_slopes(heads)) {
            std::uint64_t bits = 0;
            std::memcpy(&bits, &m, sizeof bits);
            std::printf(" %016" PRIx64, bits);
        }
        std::printf("\n");
    }
}
