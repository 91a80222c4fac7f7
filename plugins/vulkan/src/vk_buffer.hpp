// Buffers: host-visible, coherent, persistently mapped. A buffer is a current slice — a slot of
// a slab (vk_slab) when it is small and slabs are on, else a buffer range of its own (a range of
// a memory block's shared VkBuffer: MemoryAllocator::allocate_range) — plus,
// for the latter, spare slices. UPDATE_BUFFER writes in place when no recorded or in-flight batch
// can read the current slice (or with NO_OVERWRITE); otherwise it renames: the next draws get a
// fresh slice (old bytes copied on the CPU unless DISCARD); the old one goes back to its slab, or
// waits among the spares, until its last batch completes, to be reused by a later rename. No GPU
// copy, no barrier, and the render pass is never interrupted.
#pragma once

#include "novem/retire_queue.hpp"
#include "vk_common.hpp"
#include "vk_memory.hpp"

namespace novem::vk {

class BatchQueue;
class SlabAllocator;
struct SlabSlot;

class Buffer {
public:
  // slabs: where small slices come from; nullptr: every slice is a VkBuffer of its own.
  Buffer(MemoryAllocator &allocator, SlabAllocator *slabs, const BatchQueue &batches,
         uint64_t size, uint32_t usage);
  ~Buffer(); // the caller makes sure no batch still uses it (last_use() completed)
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  // The current slice: bind handle() at offset() + the buffer offset.
  VkBuffer handle() const { return current_.buffer; }
  VkDeviceSize offset() const { return current_.offset; }
  uint64_t size() const { return size_; }

  // The recording batch reads the current slice.
  void mark_used(BatchId id) { current_.last_use = id; }
  // The last batch that uses any slice of the buffer.
  BatchId last_use() const;

  // Writes size bytes at offset, ordered with recorded draws as UPDATE_BUFFER requires. Returns
  // true when the current slice changed (a new VkBuffer, or another slot of a slab: bindings must
  // be refreshed).
  bool update(const BatchQueue &batches, uint64_t offset, const void *data, uint64_t size, uint32_t flags);

  // Moves the buffer, once, to a slice that starts on a multiple of `stride` (and of 256), its
  // bytes copied, when the current one does not: buffers drawn with the same stride then start
  // a whole number of vertices apart, which the executor's vertex shift needs. Strides whose
  // alignment would exceed 4 KiB are left alone. Returns true when the current slice changed.
  bool align_to_stride(const BatchQueue &batches, uint32_t stride);

private:
  struct Slice {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0; // in buffer
    uint8_t *mapped = nullptr;
    BufferRange range;       // not in a slab: its own range (MemoryAllocator::allocate_range)
    uint8_t size_class = 0;  // a slab's slot: which one
    uint32_t slab = 0, index = 0;
    bool in_slab = false;
    BatchId last_use = 0;
  };
  Slice create_slice(const BatchQueue &batches);
  void retire_current(); // the current slice to its slab or the spares
  void destroy_slice(Slice &slice);
  Slice next_slice(const BatchQueue &batches);

  MemoryAllocator &allocator_;
  SlabAllocator *const slabs_; // nullptr when this buffer takes no slots
  const uint64_t size_;
  VkDeviceSize alignment_ = 0; // of every slice's start once align_to_stride moved it; 0: none
  Slice current_;
  novem::RetireQueue<Slice> spares_; // by last use
};

} // namespace novem::vk
