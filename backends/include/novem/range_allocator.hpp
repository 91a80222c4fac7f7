// First-fit allocation of ranges of [0, size) with coalescing free ranges: the bookkeeping of a
// suballocator, with no memory of its own. The Vulkan plugin splits VkDeviceMemory blocks with it,
// the GL plugin its mapped buffer blocks. First fit keeps the low end of a block busy and the
// high end free, so blocks empty out and a D3D9 program's many same-sized buffers pack densely.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>

namespace novem {

class RangeAllocator {
public:
  static constexpr uint64_t kNone = ~uint64_t(0);

  RangeAllocator() = default;
  explicit RangeAllocator(uint64_t size) {
    if (size) free_.emplace(0, size);
  }

  // The lowest offset, a multiple of alignment (any value from 1), at which `bytes` fit in a free
  // range, now taken; kNone when none fits.
  uint64_t take(uint64_t bytes, uint64_t alignment) {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const uint64_t start = it->first, end = it->first + it->second;
      const uint64_t offset = (start + alignment - 1) / alignment * alignment;
      if (offset + bytes > end) continue;
      free_.erase(it);
      if (offset > start) free_.emplace(start, offset - start);
      if (offset + bytes < end) free_.emplace(offset + bytes, end - offset - bytes);
      used_ += bytes;
      return offset;
    }
    return kNone;
  }

  // Frees what take() gave: merged with the free ranges it touches.
  void give_back(uint64_t offset, uint64_t bytes) {
    used_ -= bytes;
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + bytes == next->first) {
      bytes += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        prev->second += bytes;
        return;
      }
    }
    free_.emplace(offset, bytes);
  }

  uint64_t used() const { return used_; } // bytes taken and not given back

private:
  std::map<uint64_t, uint64_t> free_; // offset -> size; never two that touch
  uint64_t used_ = 0;
};

} // namespace novem
