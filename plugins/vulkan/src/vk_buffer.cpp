#include "vk_buffer.hpp"

#include <algorithm>
#include <cstring>

#include "novem/commands.h"
#include "vk_batch.hpp"
#include "vk_device.hpp"

namespace novem::vk {

namespace {
constexpr size_t kMaxSpares = 16; // idle spares beyond this are freed
}

Buffer::Buffer(const Device &device, MemoryAllocator &allocator, uint64_t size, uint32_t)
    : device_(device), allocator_(allocator), size_(size ? size : 1) {
  current_ = create_slice();
}

Buffer::~Buffer() {
  destroy_slice(current_);
  for (auto &s : spares_) destroy_slice(s);
}

BatchId Buffer::last_use() const {
  BatchId id = current_.last_use;
  for (const auto &s : spares_) id = std::max(id, s.last_use);
  return id;
}

Buffer::Slice Buffer::create_slice() {
  Slice s;
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = size_;
  // Every slice can serve as either kind of buffer; the usage flags cost nothing here.
  ci.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
             VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(device_.vk().CreateBuffer(device_.handle(), &ci, nullptr, &s.buffer), "vkCreateBuffer");
  try {
    s.memory = allocator_.allocate_buffer(s.buffer, MemoryUsage::Upload);
  } catch (...) {
    device_.vk().DestroyBuffer(device_.handle(), s.buffer, nullptr);
    throw;
  }
  return s;
}

void Buffer::destroy_slice(Slice &s) {
  if (s.buffer) device_.vk().DestroyBuffer(device_.handle(), s.buffer, nullptr);
  allocator_.free(s.memory);
  s = Slice{};
}

Buffer::Slice Buffer::next_slice(const BatchQueue &batches) {
  for (size_t i = 0; i < spares_.size(); ++i) {
    if (!batches.in_use(spares_[i].last_use)) {
      Slice s = spares_[i];
      spares_.erase(spares_.begin() + std::ptrdiff_t(i));
      return s;
    }
  }
  return create_slice();
}

bool Buffer::update(const BatchQueue &batches, uint64_t offset, const void *data, uint64_t size, uint32_t flags) {
  if (offset >= size_) return false;
  size = std::min(size, size_ - offset);
  bool renamed = false;
  if (!(flags & NV_UPDATE_NO_OVERWRITE) && batches.in_use(current_.last_use)) {
    Slice next = next_slice(batches);
    if (!(flags & NV_UPDATE_DISCARD)) {
      // Keep the bytes the update does not replace.
      std::memcpy(next.memory.mapped, current_.memory.mapped, size_t(offset));
      std::memcpy(next.memory.mapped + offset + size, current_.memory.mapped + offset + size,
                  size_t(size_ - offset - size));
    }
    spares_.push_back(current_);
    current_ = next;
    current_.last_use = 0;
    ++renames_;
    renamed = true;
    // Free idle spares beyond the limit.
    for (size_t i = 0; spares_.size() > kMaxSpares && i < spares_.size();) {
      if (!batches.in_use(spares_[i].last_use)) {
        destroy_slice(spares_[i]);
        spares_.erase(spares_.begin() + std::ptrdiff_t(i));
      } else {
        ++i;
      }
    }
  }
  std::memcpy(current_.memory.mapped + offset, data, size_t(size));
  return renamed;
}

} // namespace novem::vk
