// What one image or buffer may be on this device, checked before Vulkan is asked for it. Past
// some limits a call is invalid, not merely refused (a buffer past maxBufferSize, an image past
// its format's imageCreateMaxExtent, levels, layers or sample counts, an allocation larger than
// its memory heap: VUID-VkBufferCreateInfo-size-06409, VUID-VkImageCreateInfo-extent-02252 and
// its neighbours, VUID-vkAllocateMemory-pAllocateInfo-01713); past maxMemoryAllocationSize a
// driver may refuse or misbehave (the validation layers now flag it). Either way the plugin makes
// nothing and answers as a driver out of memory does: a VkError with
// VK_ERROR_OUT_OF_DEVICE_MEMORY, which the executor reports as a failed creation (ABI 9).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "vk_common.hpp"

namespace novem::vk {

class Device;

class ResourceLimits {
public:
  // max_allocation: NOVEM_VK_MAX_ALLOCATION, a lower bound on single allocations than the
  // device's (0: none); never below kSmallestAllocation.
  ResourceLimits(const Device &device, uint64_t max_allocation);

  // The plugin's own memory blocks (MemoryAllocator::kBlockSize) must fit, whatever the switch says.
  static constexpr VkDeviceSize kSmallestAllocation = 32ull << 20;

  // Throws (VK_ERROR_OUT_OF_DEVICE_MEMORY) when `bytes` of memory type `type` cannot be one
  // allocation: past maxMemoryAllocationSize, the type's heap or the switch.
  void check_allocation(VkDeviceSize bytes, uint32_t type) const;
  // Throws when a buffer of `bytes` is past maxBufferSize.
  void check_buffer(VkDeviceSize bytes) const;
  // Throws when the device cannot make `ci` (its format's limits for this type, tiling, usage
  // and flags, asked once per combination). bytes: the texels of every level, layer and sample,
  // checked against the format's maxResourceSize (the validation layers estimate it so too).
  void check_image(const VkImageCreateInfo &ci, VkDeviceSize bytes);

private:
  const Device &device_;
  VkDeviceSize max_allocation_ = ~VkDeviceSize(0);
  VkDeviceSize max_buffer_ = ~VkDeviceSize(0);
  using FormatKey = std::tuple<VkFormat, VkImageType, VkImageTiling, VkImageUsageFlags, VkImageCreateFlags>;
  struct FormatLimits {
    bool supported = false;
    VkImageFormatProperties properties{};
  };
  std::map<FormatKey, FormatLimits> formats_;
};

} // namespace novem::vk
