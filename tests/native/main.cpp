// The Catch2 test runner's main(): compiled once, every tests/native/test_*.cpp links against it.
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 with -fsanitize=address,undefined (SEQORDER_SANITIZE) reports a false -Wmaybe-uninitialized inside <regex>,
// which Catch2's implementation uses; with warnings as errors that would stop the sanitizer build.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
