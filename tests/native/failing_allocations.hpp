// Injected allocation failures, for the tests of what a failing call leaves behind (test_model_state.cpp, and the
// model's fuzz target): this header replaces the program's global operator new and delete (every form but the aligned
// ones, which keep the library's own pair) with malloc and free, and `allocations_until_failure` makes one allocation
// throw std::bad_alloc: set to k, it lets k allocations succeed and fails the next (once, then back to -1: none).
// Include it in exactly one source file of a program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

// GCC cannot see that these are the program's operator new and delete, so it warns that delete's free() may meet
// memory from another allocator.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace failing_allocations {

inline std::int64_t allocations_until_failure = -1;

inline void* allocate(std::size_t bytes) {
    if (allocations_until_failure == 0) {
        allocations_until_failure = -1;
        throw std::bad_alloc();
    }
    if (allocations_until_failure > 0) --allocations_until_failure;
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
}

inline void* allocate(std::size_t bytes, const std::nothrow_t&) noexcept {
    try {
        return allocate(bytes);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

}  // namespace failing_allocations

void* operator new(std::size_t bytes) { return failing_allocations::allocate(bytes); }
void* operator new[](std::size_t bytes) { return failing_allocations::allocate(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t& tag) noexcept { return failing_allocations::allocate(bytes, tag); }
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept { return failing_allocations::allocate(bytes, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
