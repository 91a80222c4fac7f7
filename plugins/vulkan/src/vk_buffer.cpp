#include "vk_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "novem/commands.h"
#include "vk_batch.hpp"
#include "vk_slab.hpp"

namespace novem::vk {

namespace {
constexpr size_t kMaxSpares = 16; // idle spares beyond this are freed
}

Buffer::Buffer(MemoryAllocator &allocator, SlabAllocator *slabs, const BatchQueue &batches,
               uint64_t size, uint32_t)
    : allocator_(allocator), slabs_(slabs && size <= SlabAllocator::kMaxSlot ? slabs : nullptr),
      size_(size ? size : 1) {
  current_ = create_slice(batches);
}

Buffer::~Buffer() {
  destroy_slice(current_);
  spares_.release(~BatchId(0), [this](Slice &s) { destroy_slice(s); });
}

BatchId Buffer::last_use() const {
  return std::max(current_.last_use, spares_.newest());
}

Buffer::Slice Buffer::create_slice(const BatchQueue &batches) {
  Slice s;
  if (slabs_ && !alignment_) {
    const SlabSlot slot = slabs_->allocate(batches, size_);
    s.buffer = slot.buffer;
    s.offset = slot.offset;
    s.mapped = slot.mapped;
    s.size_class = slot.size_class;
    s.slab = slot.slab;
    s.index = slot.index;
    s.in_slab = true;
    return s;
  }
  s.range = allocator_.allocate_range(size_, alignment_);
  s.buffer = s.range.buffer;
  s.offset = s.range.offset;
  s.mapped = s.range.memory.mapped;
  return s;
}

// A slab's slot goes back to its slab (reused once its last batch has completed).
void Buffer::destroy_slice(Slice &s) {
  if (s.in_slab) {
    SlabSlot slot;
    slot.size_class = s.size_class;
    slot.slab = s.slab;
    slot.index = s.index;
    slabs_->release(slot, s.last_use);
    s = Slice{};
    return;
  }
  allocator_.free_range(s.range);
  s = Slice{};
}

Buffer::Slice Buffer::next_slice(const BatchQueue &batches) {
  if (slabs_ && !alignment_) return create_slice(batches);
  for (Slice s; spares_.take(batches.completed_id(), s);) {
    if (!alignment_ || s.offset % alignment_ == 0) return s;
    destroy_slice(s); // from before align_to_stride: the wrong start
  }
  return create_slice(batches);
}

void Buffer::retire_current() {
  if (current_.in_slab) destroy_slice(current_); // back to its slab once its last batch completes
  else spares_.push(current_.last_use, current_);
}

bool Buffer::align_to_stride(const BatchQueue &batches, uint32_t stride) {
  if (alignment_ || stride == 0 || current_.offset % stride == 0) return false;
  const VkDeviceSize alignment = std::lcm(VkDeviceSize(256), VkDeviceSize(stride));
  if (alignment > 4096) return false;
  alignment_ = alignment;
  Slice next = next_slice(batches);
  std::memcpy(next.mapped, current_.mapped, size_t(size_));
  retire_current();
  current_ = next;
  current_.last_use = 0;
  return true;
}

bool Buffer::update(const BatchQueue &batches, uint64_t offset, const void *data, uint64_t size, uint32_t flags) {
  if (offset >= size_) return false;
  size = std::min(size, size_ - offset);
  bool renamed = false;
  if (!(flags & NV_UPDATE_NO_OVERWRITE) && batches.in_use(current_.last_use)) {
    Slice next = next_slice(batches);
    if (!(flags & NV_UPDATE_DISCARD)) {
      // Keep the bytes the update does not replace.
      std::memcpy(next.mapped, current_.mapped, size_t(offset));
      std::memcpy(next.mapped + offset + size, current_.mapped + offset + size, size_t(size_ - offset - size));
    }
    retire_current();
    current_ = next;
    current_.last_use = 0;
    renamed = true;
    // Free idle spares beyond the limit.
    for (Slice s; spares_.size() > kMaxSpares && spares_.take(batches.completed_id(), s);) destroy_slice(s);
  }
  std::memcpy(current_.mapped + offset, data, size_t(size));
  return renamed;
}

} // namespace novem::vk
