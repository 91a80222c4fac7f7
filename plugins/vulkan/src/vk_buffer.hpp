// Buffers: host-visible, coherent, persistently mapped. A buffer is a current slice (VkBuffer +
// memory) plus spare slices. UPDATE_BUFFER writes in place when no recorded or in-flight batch
// can read the current slice (or with NO_OVERWRITE); otherwise it renames: the next draws get a
// fresh slice (old bytes copied on the CPU unless DISCARD), and the old one waits among the spares
// until its last batch completes, to be reused by a later rename. No GPU copy, no barrier, and
// the render pass is never interrupted.
#pragma once

#include <vector>

#include "vk_common.hpp"
#include "vk_memory.hpp"

namespace novem::vk {

class BatchQueue;
class Device;

class Buffer {
public:
  Buffer(const Device &device, MemoryAllocator &allocator, uint64_t size, uint32_t usage);
  ~Buffer(); // the caller makes sure no batch still uses it (last_use() completed)
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  VkBuffer handle() const { return current_.buffer; }
  uint64_t size() const { return size_; }

  // The recording batch reads the current slice.
  void mark_used(BatchId id) { current_.last_use = id; }
  // The last batch that uses any slice of the buffer.
  BatchId last_use() const;

  // Writes size bytes at offset, ordered with recorded draws as UPDATE_BUFFER requires. Returns
  // true when the current VkBuffer changed (bindings must be refreshed).
  bool update(const BatchQueue &batches, uint64_t offset, const void *data, uint64_t size, uint32_t flags);

  // Renames done so far (for tests and statistics).
  uint64_t renames() const { return renames_; }

private:
  struct Slice {
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation memory;
    BatchId last_use = 0;
  };
  Slice create_slice();
  void destroy_slice(Slice &slice);
  Slice next_slice(const BatchQueue &batches);

  const Device &device_;
  MemoryAllocator &allocator_;
  const uint64_t size_;
  Slice current_;
  std::vector<Slice> spares_;
  uint64_t renames_ = 0;
};

} // namespace novem::vk
