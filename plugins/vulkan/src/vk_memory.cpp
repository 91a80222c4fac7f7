#include "vk_memory.hpp"

#include <algorithm>

#include "novem/counter.hpp"
#include "novem/range_allocator.hpp"
#include "vk_device.hpp"

namespace novem::vk {

struct MemoryBlock {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  uint8_t *mapped = nullptr;
  uint32_t type = 0;
  ResourceKind kind = ResourceKind::Linear;
  bool dedicated = false;
  VkBuffer buffer = VK_NULL_HANDLE; // over the whole block, for allocate_range (host-visible, linear)
  RangeAllocator ranges; // of [0, size)
};

MemoryAllocator::MemoryAllocator(const Device &device, bool suballocate, std::atomic<uint64_t> &allocations,
                                 uint64_t max_allocation)
    : device_(device), suballocate_(suballocate), allocations_(allocations), limits_(device, max_allocation) {}

MemoryAllocator::~MemoryAllocator() {
  for (auto &b : blocks_) {
    if (b->buffer) device_.vk().DestroyBuffer(device_.handle(), b->buffer, nullptr);
    device_.vk().FreeMemory(device_.handle(), b->memory, nullptr);
  }
}

uint32_t MemoryAllocator::find_type(uint32_t type_bits, MemoryUsage usage) const {
  const VkPhysicalDeviceMemoryProperties &mem = device_.memory();
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (usage) {
  case MemoryUsage::DeviceLocal: preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
  case MemoryUsage::Upload:
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    break;
  case MemoryUsage::Readback:
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    break;
  }
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    VkMemoryPropertyFlags flags = mem.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  if (fallback == UINT32_MAX) throw VkError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "no fitting memory type");
  return fallback;
}

MemoryBlock *MemoryAllocator::new_block(uint32_t type, ResourceKind kind, VkDeviceSize size, bool dedicated) {
  limits_.check_allocation(size, type);
  auto block = std::make_unique<MemoryBlock>();
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = size;
  ai.memoryTypeIndex = type;
  check(device_.vk().AllocateMemory(device_.handle(), &ai, nullptr, &block->memory), "vkAllocateMemory");
  novem::bump(allocations_);
  if (device_.memory().memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void *p = nullptr;
    VkResult r = device_.vk().MapMemory(device_.handle(), block->memory, 0, VK_WHOLE_SIZE, 0, &p);
    if (r < 0) {
      device_.vk().FreeMemory(device_.handle(), block->memory, nullptr);
      throw VkError(r, "vkMapMemory");
    }
    block->mapped = static_cast<uint8_t *>(p);
  }
  block->size = size;
  block->type = type;
  block->kind = kind;
  block->dedicated = dedicated;
  block->ranges = RangeAllocator(size);
  blocks_.push_back(std::move(block));
  return blocks_.back().get();
}

void MemoryAllocator::release_block(MemoryBlock *block) {
  if (block->buffer) device_.vk().DestroyBuffer(device_.handle(), block->buffer, nullptr);
  device_.vk().FreeMemory(device_.handle(), block->memory, nullptr); // unmaps implicitly
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const auto &b) { return b.get() == block; });
  if (it != blocks_.end()) blocks_.erase(it);
}

Allocation MemoryAllocator::allocate(const VkMemoryRequirements &req, MemoryUsage usage, ResourceKind kind) {
  const uint32_t type = find_type(req.memoryTypeBits, usage);
  const VkDeviceSize alignment = std::max<VkDeviceSize>(req.alignment, 16);
  MemoryBlock *block = nullptr;
  VkDeviceSize offset = 0;
  if (!suballocate_ || req.size > kBlockSize / 4) {
    block = new_block(type, kind, req.size, true);
    offset = block->ranges.take(req.size, 1);
  } else {
    for (auto &b : blocks_) {
      if (b->dedicated || b->type != type || b->kind != kind) continue;
      offset = b->ranges.take(req.size, alignment);
      if (offset != RangeAllocator::kNone) {
        block = b.get();
        break;
      }
    }
    if (!block) {
      block = new_block(type, kind, kBlockSize, false);
      offset = block->ranges.take(req.size, alignment);
    }
  }
  Allocation a;
  a.memory = block->memory;
  a.offset = offset;
  a.size = req.size;
  a.mapped = block->mapped ? block->mapped + offset : nullptr;
  a.block = block;
  return a;
}

void MemoryAllocator::free(const Allocation &a) {
  if (!a.block) return;
  MemoryBlock *block = a.block;
  block->ranges.give_back(a.offset, a.size);
  if (block->dedicated) {
    release_block(block);
    return;
  }
  // Keep one empty block per (type, kind) for reuse; free the others.
  if (block->ranges.used() == 0) {
    for (auto &b : blocks_) {
      if (b.get() != block && !b->dedicated && b->type == block->type && b->kind == block->kind && b->ranges.used() == 0) {
        release_block(block);
        return;
      }
    }
  }
}

Allocation MemoryAllocator::allocate_buffer(VkBuffer buffer, MemoryUsage usage) {
  VkMemoryRequirements req{};
  device_.vk().GetBufferMemoryRequirements(device_.handle(), buffer, &req);
  Allocation a = allocate(req, usage, ResourceKind::Linear);
  VkResult r = device_.vk().BindBufferMemory(device_.handle(), buffer, a.memory, a.offset);
  if (r < 0) {
    free(a);
    throw VkError(r, "vkBindBufferMemory");
  }
  return a;
}

Allocation MemoryAllocator::create_buffer(VkDeviceSize size, VkBufferUsageFlags buffer_usage, MemoryUsage usage,
                                          VkBuffer &buffer) {
  limits_.check_buffer(size);
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = size;
  ci.usage = buffer_usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(device_.vk().CreateBuffer(device_.handle(), &ci, nullptr, &buffer), "vkCreateBuffer");
  try {
    return allocate_buffer(buffer, usage);
  } catch (...) {
    device_.vk().DestroyBuffer(device_.handle(), buffer, nullptr);
    buffer = VK_NULL_HANDLE;
    throw;
  }
}

VkBuffer MemoryAllocator::shared_buffer(MemoryBlock &block) {
  if (block.buffer) return block.buffer;
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = block.size;
  ci.usage = kRangeUsage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(device_.vk().CreateBuffer(device_.handle(), &ci, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements req{};
  device_.vk().GetBufferMemoryRequirements(device_.handle(), buffer, &req);
  // A driver may want more than the block for a buffer of its size: then the block has none.
  if (!(req.memoryTypeBits >> block.type & 1) || req.size > block.size ||
      device_.vk().BindBufferMemory(device_.handle(), buffer, block.memory, 0) != VK_SUCCESS) {
    device_.vk().DestroyBuffer(device_.handle(), buffer, nullptr);
    return VK_NULL_HANDLE;
  }
  return block.buffer = buffer;
}

BufferRange MemoryAllocator::allocate_range(VkDeviceSize size, VkDeviceSize alignment) {
  BufferRange r;
  if (suballocate_ && size <= kBlockSize / 4) {
    VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    ci.size = size;
    ci.usage = kRangeUsage;
    ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkDeviceBufferMemoryRequirements info{VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS};
    info.pCreateInfo = &ci;
    VkMemoryRequirements2 req{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    device_.vk().GetDeviceBufferMemoryRequirements(device_.handle(), &info, &req);
    // 256-byte starts (as a slab's slots have): every buffer then starts at the same residue
    // modulo any stride that divides 256, and the executor's vertex shift can move between them.
    req.memoryRequirements.alignment = std::max<VkDeviceSize>({req.memoryRequirements.alignment, alignment, 256});
    r.memory = allocate(req.memoryRequirements, MemoryUsage::Upload, ResourceKind::Linear);
    if (!r.memory.block->dedicated) r.buffer = shared_buffer(*r.memory.block);
    if (r.buffer) {
      r.offset = r.memory.offset;
      r.shared = true;
      return r;
    }
    free(r.memory);
  }
  r.memory = create_buffer(size, kRangeUsage, MemoryUsage::Upload, r.buffer);
  return r;
}

void MemoryAllocator::free_range(BufferRange &r) {
  if (!r.shared && r.buffer) device_.vk().DestroyBuffer(device_.handle(), r.buffer, nullptr);
  free(r.memory);
  r = BufferRange{};
}

Allocation MemoryAllocator::allocate_image(VkImage image, MemoryUsage usage) {
  VkMemoryRequirements req{};
  device_.vk().GetImageMemoryRequirements(device_.handle(), image, &req);
  Allocation a = allocate(req, usage, ResourceKind::Optimal);
  VkResult r = device_.vk().BindImageMemory(device_.handle(), image, a.memory, a.offset);
  if (r < 0) {
    free(a);
    throw VkError(r, "vkBindImageMemory");
  }
  return a;
}

} // namespace novem::vk
