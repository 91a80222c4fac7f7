// The hash of a plain state struct (a pipeline key), taken a 64-bit word at a time. A state change
// per draw looks a key up per draw: FNV-1a over the 256 bytes of nv_pipeline_desc one byte at a
// time is 256 dependent multiplies (a few hundred nanoseconds on the plugin's thread); a word at a
// time, with a shift to fold the high bits down, is 32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace novem {

inline uint64_t state_hash(const void *data, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  uint64_t h = 1469598103934665603ull;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes + i, 8);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

} // namespace novem
