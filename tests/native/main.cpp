// The Catch2 test runner's main(): compiled once, every tests/native/test_*.cpp links against it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
