#include "tests/unit/testing/allocation_counter.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};  // operator new
std::atomic<long> g_mallocs{0};      // the C allocator, which Eigen uses
}  // namespace

// noinline keeps GCC 12's
// -Wmismatched-new-delete from pairing an inlined free with a new-expression.
[[gnu::noinline]] void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, std::align_val_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

// Eigen allocates with std::malloc (Eigen/src/Core/util/Memory.h), which a
// counting operator new never sees: interpose glibc's allocator too.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t size) noexcept {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void* aligned_alloc(std::size_t align, std::size_t size) noexcept {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(align, size);
}
int posix_memalign(void** p, std::size_t align, std::size_t size) noexcept {
  g_mallocs.fetch_add(1, std::memory_order_relaxed);
  *p = __libc_memalign(align, size);
  return *p != nullptr ? 0 : ENOMEM;
}
void free(void* p) noexcept { __libc_free(p); }
}  // extern "C"

namespace moreau::testing {

long OperatorNewCount() { return g_allocations.load(); }
long MallocCount() { return g_mallocs.load(); }

}  // namespace moreau::testing
