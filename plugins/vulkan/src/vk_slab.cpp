#include "vk_slab.hpp"

#include "novem/counter.hpp"
#include "vk_batch.hpp"

namespace novem::vk {

SlabAllocator::SlabAllocator(MemoryAllocator &allocator, std::atomic<uint64_t> &slab_allocations)
    : allocator_(allocator), slab_allocations_(slab_allocations) {
  for (uint32_t i = 0; i < kClasses; ++i) classes_[i].slot_bytes = kMinSlot << i;
  static_assert((kMinSlot << (kClasses - 1)) == kMaxSlot);
}

SlabAllocator::~SlabAllocator() {
  for (SizeClass &c : classes_) {
    for (Slab &s : c.slabs) allocator_.free_range(s);
  }
}

void SlabAllocator::add_slab(SizeClass &c) {
  const Slab s = allocator_.allocate_range(kSlabBytes);
  const uint32_t slab = uint32_t(c.slabs.size());
  c.slabs.push_back(s);
  const uint32_t count = uint32_t(kSlabBytes / c.slot_bytes);
  // Highest index first, so slots are handed out from the start of the slab.
  for (uint32_t i = count; i-- > 0;) c.free.emplace_back(slab, i);
}

// Released slots whose batch has completed become free again.
void SlabAllocator::reclaim(const BatchQueue &batches, SizeClass &c) {
  c.released.release(batches.completed_id(), [&](const std::pair<uint32_t, uint32_t> &slot) { c.free.push_back(slot); });
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
  const VkDeviceSize at = VkDeviceSize(index) * c.slot_bytes;
  s.buffer = c.slabs[slab].buffer;
  s.offset = c.slabs[slab].offset + at;
  s.mapped = c.slabs[slab].memory.mapped + at;
  s.size_class = uint8_t(k);
  s.slab = slab;
  s.index = index;
  return s;
}

void SlabAllocator::release(const SlabSlot &slot, BatchId last_use) {
  classes_[slot.size_class].released.push(last_use, {slot.slab, slot.index});
}

} // namespace novem::vk
