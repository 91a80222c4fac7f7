// The constants upload ring: host-visible chunks bump-allocated for SET_CONSTANTS data. Each
// stage's uniform set (set 0 vertex, set 1 pixel) points its dynamic uniform buffer at the current
// chunk, so a new block is only a new dynamic offset for that stage's set; only the bytes the
// bound shader reads are copied (novem/spirv_uniforms.hpp). A chunk is recycled once
// the last batch that used it has completed. Each block pushed counts in channel.ring_allocations.
// On a device of software vertex processing the vertex block goes on past the uniform range: its
// storage part (NV_VERTEX_STORAGE_OFFSET on) is bound from the same chunk as a dynamic storage
// buffer, so the chunks are storage buffers too and offsets suit both kinds.
#pragma once

#include <atomic>
#include <vector>

#include "vk_common.hpp"
#include "vk_memory.hpp"
#include "novem/spirv_uniforms.hpp"

namespace novem::vk {

class BatchQueue;
class Device;

class UniformRing {
public:
  // largest_block: the most bytes a block may have when that is more than the uniform range (a
  // software vertex-processing block, whose storage part is bound too); 0: none is.
  UniformRing(const Device &device, MemoryAllocator &allocator, std::atomic<uint64_t> &ring_allocations,
              uint32_t largest_block);
  ~UniformRing(); // the GPU must be idle
  UniformRing(const UniformRing &) = delete;
  UniformRing &operator=(const UniformRing &) = delete;

  // The uniform descriptors' largest range.
  uint32_t range() const { return range_; }

  // Makes room for `bytes` in the current chunk, moving to another when it is full, and marks the
  // chunk used by the recording batch. Returns true when the chunk (and its buffer) changed.
  bool reserve(const BatchQueue &batches, uint32_t bytes);
  // The room push() takes for a block of `size` bytes that a shader reads through `reads`.
  uint32_t push_bytes(uint32_t size, const UniformFootprint &reads) const;
  // Copies the bytes of the block data[0, size) that `reads` covers (all of them, at most the
  // largest block, when it is whole) into the current chunk at their offsets in the block, and returns the
  // dynamic offset. Bytes read past `size` are zeros, as a block never set (size 0) is. Bytes
  // `reads` leaves out keep whatever the chunk held: the shader never reads them. Call
  // reserve() first, with room for push_bytes().
  uint32_t push(const void *data, uint32_t size, const UniformFootprint &reads);
  // The current chunk's buffer; descriptors cover [0, range()) and use dynamic offsets.
  VkBuffer buffer() const { return chunks_[current_].buffer; }

private:
  struct Chunk {
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation memory;
    BatchId last_use = 0;
  };
  Chunk create_chunk();

  static constexpr uint32_t kChunkCapacity = 1u << 20;
  static constexpr uint32_t kZeroBlock = 256; // what a whole-block shader gets of a block never set
  static constexpr uint32_t kMaxChunks = 256;

  const Device &device_;
  MemoryAllocator &allocator_;
  std::atomic<uint64_t> &ring_allocations_;
  uint32_t range_ = 0;
  uint32_t block_limit_ = 0;   // the most bytes of a block push() copies: range_ or largest_block
  bool storage_ = false;       // the chunks are bound as storage buffers too
  uint32_t alignment_ = 256;
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
  uint32_t used_ = 0;
};

} // namespace novem::vk
