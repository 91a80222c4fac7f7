#include "vk_uniform_ring.hpp"

#include <algorithm>
#include <cstring>

#include "novem/counter.hpp"
#include "vk_batch.hpp"
#include "vk_device.hpp"

namespace novem::vk {

UniformRing::UniformRing(const Device &device, MemoryAllocator &allocator, std::atomic<uint64_t> &ring_allocations,
                         uint32_t largest_block)
    : device_(device), allocator_(allocator), ring_allocations_(ring_allocations) {
  range_ = std::min<uint32_t>(65536, device.limits().maxUniformBufferRange);
  block_limit_ = std::max(range_, largest_block);
  storage_ = largest_block != 0;
  alignment_ = std::max<uint32_t>(16, uint32_t(device.limits().minUniformBufferOffsetAlignment));
  // NV_VERTEX_STORAGE_OFFSET is a multiple of 256, the largest alignment Vulkan allows.
  if (storage_) alignment_ = std::max(alignment_, uint32_t(device.limits().minStorageBufferOffsetAlignment));
  chunks_.push_back(create_chunk());
}

UniformRing::~UniformRing() {
  for (auto &c : chunks_) {
    device_.vk().DestroyBuffer(device_.handle(), c.buffer, nullptr);
    allocator_.free(c.memory);
  }
}

UniformRing::Chunk UniformRing::create_chunk() {
  if (chunks_.size() >= kMaxChunks) throw VkError(VK_ERROR_OUT_OF_POOL_MEMORY, "uniform ring: too many chunks in flight");
  Chunk c;
  // The last offset still has a full range (and a storage part) behind it.
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | (storage_ ? VkBufferUsageFlags(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) : 0u);
  c.memory = allocator_.create_buffer(VkDeviceSize(kChunkCapacity) + block_limit_, usage, MemoryUsage::Upload, c.buffer);
  return c;
}

bool UniformRing::reserve(const BatchQueue &batches, uint32_t bytes) {
  bool changed = false;
  uint32_t start = (used_ + alignment_ - 1) / alignment_ * alignment_;
  if (start + bytes > kChunkCapacity) {
    size_t next = chunks_.size();
    for (size_t i = 0; i < chunks_.size(); ++i) {
      size_t c = (current_ + 1 + i) % chunks_.size();
      if (c != current_ && !batches.in_use(chunks_[c].last_use)) {
        next = c;
        break;
      }
    }
    if (next == chunks_.size()) chunks_.push_back(create_chunk());
    current_ = next;
    used_ = 0;
    changed = true;
  }
  chunks_[current_].last_use = batches.recording_id();
  return changed;
}

uint32_t UniformRing::push_bytes(uint32_t size, const UniformFootprint &reads) const {
  if (reads.whole) return std::min(std::max<uint32_t>(size, kZeroBlock), block_limit_);
  return std::min(reads.end(), block_limit_);
}

uint32_t UniformRing::push(const void *data, uint32_t size, const UniformFootprint &reads) {
  const uint32_t offset = (used_ + alignment_ - 1) / alignment_ * alignment_;
  const uint32_t span = push_bytes(size, reads);
  copy_footprint(reads, chunks_[current_].memory.mapped + offset, static_cast<const uint8_t *>(data), size, span);
  used_ = offset + span;
  novem::bump(ring_allocations_);
  return offset;
}

} // namespace novem::vk
