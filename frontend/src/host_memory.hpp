// The host's physical memory. An allocation larger than it cannot succeed, and asking for one
// only makes the allocator (or a sanitizer) give up loudly: memory resources larger than this are
// E_OUTOFMEMORY before anything is allocated.
#pragma once

#include <cstdint>

#include <unistd.h>

namespace novem {

inline uint64_t host_memory_bytes() {
  static const uint64_t bytes = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE));
  return bytes;
}

} // namespace novem
