// novem/driver_heap.hpp: the plugins raise glibc's thresholds and top pad on a CPU rasterizer,
// unless the user set one of them.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "novem/driver_heap.hpp"

#if defined(__GLIBC__)
TEST_CASE("driver heap: the thresholds and the top pad are raised, and a user's MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_ or MALLOC_TOP_PAD_ stands") {
  for (const char *name : {"MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_"}) {
    ::setenv(name, "131072", 1);
    CHECK_FALSE(novem::keep_driver_heap());
    ::unsetenv(name);
  }
#if !defined(__SANITIZE_ADDRESS__) // ASan's allocator takes mallopt and refuses it
  CHECK(novem::keep_driver_heap());
#endif
}
#endif
