// Device memory: a simple suballocator. Large VkDeviceMemory blocks per (memory type, linear or
// optimal resources), split first-fit with coalescing free ranges; host-visible blocks are mapped
// once, persistently. Big requests (and everything when suballocation is off) get a block of
// their own. Linear and optimal resources never share a block, so bufferImageGranularity never
// applies.
//
// Vertex and index buffers are ranges of a shared VkBuffer (allocate_range): a host-visible
// linear block has one VkBuffer over all of it, so the D3D9 buffers in a block differ by an offset
// only, and the executor can switch between them with no new vertex-buffer binding (its vertex
// shift).
#pragma once

#include <map>
#include <memory>
#include <vector>

#include <atomic>

#include "vk_common.hpp"
#include "vk_resource_limits.hpp"

namespace novem::vk {

class Device;

enum class MemoryUsage {
  DeviceLocal, // images the GPU alone touches
  Upload,      // host-visible, coherent: buffers the CPU writes (device-local where possible)
  Readback,    // host-visible, coherent, cached where possible: the GPU writes, the CPU reads
};

enum class ResourceKind { Linear, Optimal }; // buffers / optimally tiled images

struct MemoryBlock;

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
  uint8_t *mapped = nullptr; // host address of offset, for host-visible memory
  MemoryBlock *block = nullptr;
  explicit operator bool() const { return memory != VK_NULL_HANDLE; }
};

// `offset` into `buffer`: a range of a block's shared VkBuffer, or (shared false) a VkBuffer of
// its own at offset 0, which free_range destroys.
struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  Allocation memory;
  bool shared = false;
};

class MemoryAllocator {
public:
  // Each vkAllocateMemory counts in `allocations` (the channel's device_allocations).
  // max_allocation: NOVEM_VK_MAX_ALLOCATION (ResourceLimits; 0: the device's limits only).
  MemoryAllocator(const Device &device, bool suballocate, std::atomic<uint64_t> &allocations,
                  uint64_t max_allocation = 0);
  ~MemoryAllocator();
  MemoryAllocator(const MemoryAllocator &) = delete;
  MemoryAllocator &operator=(const MemoryAllocator &) = delete;

  // What one resource may be; images ask it before vkCreateImage.
  ResourceLimits &limits() { return limits_; }

  // Throws VkError when no memory fits, or the request is past what one allocation may take
  // (ResourceLimits: VK_ERROR_OUT_OF_DEVICE_MEMORY without asking the driver).
  Allocation allocate(const VkMemoryRequirements &req, MemoryUsage usage, ResourceKind kind);
  void free(const Allocation &allocation);

  // Convenience: memory for an existing buffer or image, bound at once.
  Allocation allocate_buffer(VkBuffer buffer, MemoryUsage usage);
  // A new buffer of `size` bytes with its memory bound (`buffer` is set; nothing is left behind
  // when it throws, as it does past maxBufferSize).
  Allocation create_buffer(VkDeviceSize size, VkBufferUsageFlags buffer_usage, MemoryUsage usage, VkBuffer &buffer);
  Allocation allocate_image(VkImage image, MemoryUsage usage);

  // Host-visible (Upload) memory for a buffer of `size` bytes with kRangeUsage: a range of a
  // block's shared VkBuffer where suballocation is on and the size fits a block, else a VkBuffer
  // of its own. Throws VkError when no memory fits.
  // alignment: of the range's start in the shared VkBuffer; never less than 256.
  BufferRange allocate_range(VkDeviceSize size, VkDeviceSize alignment = 256);
  void free_range(BufferRange &range);

  static constexpr VkDeviceSize kBlockSize = 32ull << 20;
  // What a shared VkBuffer serves as: vertex and index buffers, copies from and to them, and the
  // staging bytes of texture uploads.
  static constexpr VkBufferUsageFlags kRangeUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

private:
  uint32_t find_type(uint32_t type_bits, MemoryUsage usage) const;
  MemoryBlock *new_block(uint32_t type, ResourceKind kind, VkDeviceSize size, bool dedicated);
  void release_block(MemoryBlock *block);
  VkBuffer shared_buffer(MemoryBlock &block); // the block's VkBuffer, made on first use; null if none fits

  const Device &device_;
  const bool suballocate_;
  std::atomic<uint64_t> &allocations_;
  ResourceLimits limits_;
  std::vector<std::unique_ptr<MemoryBlock>> blocks_;
};

} // namespace novem::vk
