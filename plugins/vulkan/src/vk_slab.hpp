// Slabs for small buffers: a slab is one host-visible buffer range of kSlabBytes
// (MemoryAllocator::allocate_range) cut into slots of one size class (256 B, 512 B, … 64 KiB). A small D3D9 vertex, index or dynamic buffer (and each of
// its renamed copies) takes the smallest slot that holds it instead of a VkBuffer and a memory
// range of its own, so many buffers share a few VkBuffers and one memory block, and binding them
// is an offset. A released slot is recycled once the last batch that used it has completed (its
// fence); slabs are kept for reuse until the device ends. Each slot handed out counts in
// channel.slab_allocations.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "novem/retire_queue.hpp"
#include "vk_common.hpp"
#include "vk_memory.hpp"

namespace novem::vk {

class BatchQueue;

struct SlabSlot {
  VkBuffer buffer = VK_NULL_HANDLE; // the slab's buffer
  VkDeviceSize offset = 0;          // of the slot in it
  uint8_t *mapped = nullptr;        // host address of the slot
  uint8_t size_class = 0;
  uint32_t slab = 0, index = 0;
};

class SlabAllocator {
public:
  static constexpr VkDeviceSize kMinSlot = 256;        // also the offset alignment of every slot
  static constexpr VkDeviceSize kMaxSlot = 64u << 10;  // bigger buffers get a VkBuffer of their own
  static constexpr VkDeviceSize kSlabBytes = 1u << 20;

  SlabAllocator(MemoryAllocator &allocator, std::atomic<uint64_t> &slab_allocations);
  ~SlabAllocator(); // every slot must be idle
  SlabAllocator(const SlabAllocator &) = delete;
  SlabAllocator &operator=(const SlabAllocator &) = delete;

  // A slot of at least size bytes (size <= kMaxSlot); throws VkError when no memory is left.
  SlabSlot allocate(const BatchQueue &batches, VkDeviceSize size);
  // Hands the slot back; it is reused once batch last_use has completed.
  void release(const SlabSlot &slot, BatchId last_use);

private:
  using Slab = BufferRange;
  struct SizeClass {
    VkDeviceSize slot_bytes = 0;
    std::vector<Slab> slabs;
    std::vector<std::pair<uint32_t, uint32_t>> free; // (slab, index)
    novem::RetireQueue<std::pair<uint32_t, uint32_t>> released; // (slab, index) waiting for their batch
  };
  static constexpr uint32_t kClasses = 9; // 256 B << 0 .. 8

  void reclaim(const BatchQueue &batches, SizeClass &c);
  void add_slab(SizeClass &c);

  MemoryAllocator &allocator_;
  std::atomic<uint64_t> &slab_allocations_;
  SizeClass classes_[kClasses];
};

} // namespace novem::vk
