#include "vk_slab.hpp"

#include "novem/counter.hpp"
#include "vk_batch.hpp"
#include "vk_device.hpp"

namespace novem::vk {

SlabAllocator::SlabAllocator(const Device &device, MemoryAllocator &allocator, VkBufferUsageFlags usage,
                             std::atomic<uint64_t> &slab_allocations)
    : device_(device), allocator_(allocator), usage_(usage), slab_allocations_(slab_allocations) {
  for (uint32_t i = 0; i < kClasses; ++i) classes_[i].slot_bytes = kMinSlot << i;
  static_assert((kMinSlot << (kClasses - 1)) == kMaxSlot);
}

SlabAllocator::~SlabAllocator() {
  for (SizeClass &c : classes_) {
    for (Slab &s : c.slabs) {
      device_.vk().DestroyBuffer(device_.handle(), s.buffer, nullptr);
      allocator_.free(s.memory);
    }
  }
}

void SlabAllocator::add_slab(SizeClass &c) {
  Slab s;
  s.memory = allocator_.create_buffer(kSlabBytes, usage_, MemoryUsage::Upload, s.buffer);
  const uint32_t slab = uint32_t(c.slabs.size());
  c.slabs.push_back(s);
  const uint32_t count = uint32_t(kSlabBytes / c.slot_bytes);
  // Highest index first, so slots are handed out from the start of the slab.
  for (uint32_t i = count; i-- > 0;) c.free.emplace_back(slab, i);
}

// Released slots whose batch has completed become free again.
void SlabAllocator::reclaim(const BatchQueue &batches, SizeClass &c) {
  size_t kept = 0;
  for (const Released &r : c.released) {
    if (batches.in_use(r.last_use)) c.released[kept++] = r;
    else c.free.emplace_back(r.slab, r.index);
  }
  c.released.resize(kept);
}

SlabSlot SlabAllocator::allocate(const BatchQueue &batches, VkDeviceSize size) {
  uint32_t k = 0;
  while (k + 1 < kClasses && classes_[k].slot_bytes < size) ++k;
  SizeClass &c = classes_[k];
  if (c.free.empty()) reclaim(batches, c);
  if (c.free.empty()) add_slab(c);
  const auto [slab, index] = c.free.back();
  c.free.pop_back();
  novem::bump(slab_allocations_);
  SlabSlot s;
  s.buffer = c.slabs[slab].buffer;
  s.offset = VkDeviceSize(index) * c.slot_bytes;
  s.mapped = c.slabs[slab].memory.mapped + s.offset;
  s.size_class = uint8_t(k);
  s.slab = slab;
  s.index = index;
  return s;
}

void SlabAllocator::release(const SlabSlot &slot, BatchId last_use) {
  classes_[slot.size_class].released.push_back({last_use, slot.slab, slot.index});
}

} // namespace novem::vk
