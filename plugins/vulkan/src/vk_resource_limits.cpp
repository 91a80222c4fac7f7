#include "vk_resource_limits.hpp"

#include <algorithm>
#include <string>

#include "vk_device.hpp"

namespace novem::vk {

namespace {

[[noreturn]] void refuse(const std::string &why) { throw VkError(VK_ERROR_OUT_OF_DEVICE_MEMORY, why); }

} // namespace

ResourceLimits::ResourceLimits(const Device &device, uint64_t max_allocation) : device_(device) {
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &v13};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11};
  device.instance_vk().GetPhysicalDeviceProperties2(device.gpu(), &props);
  if (v11.maxMemoryAllocationSize) max_allocation_ = v11.maxMemoryAllocationSize;
  if (v13.maxBufferSize) max_buffer_ = v13.maxBufferSize;
  if (max_allocation)
    max_allocation_ = std::min(max_allocation_, std::max<VkDeviceSize>(max_allocation, kSmallestAllocation));
}

void ResourceLimits::check_allocation(VkDeviceSize bytes, uint32_t type) const {
  const VkPhysicalDeviceMemoryProperties &mem = device_.memory();
  const VkDeviceSize heap = type < mem.memoryTypeCount ? mem.memoryHeaps[mem.memoryTypes[type].heapIndex].size : 0;
  const VkDeviceSize largest = std::min(max_allocation_, heap);
  if (bytes > largest)
    refuse(std::to_string(bytes) + " bytes of memory are more than one allocation may take (" +
           std::to_string(largest) + ")");
}

void ResourceLimits::check_buffer(VkDeviceSize bytes) const {
  if (bytes > max_buffer_)
    refuse("a buffer of " + std::to_string(bytes) + " bytes is past maxBufferSize (" + std::to_string(max_buffer_) +
           ")");
}

void ResourceLimits::check_image(const VkImageCreateInfo &ci, VkDeviceSize bytes) {
  const FormatKey key{ci.format, ci.imageType, ci.tiling, ci.usage, ci.flags};
  auto it = formats_.find(key);
  if (it == formats_.end()) {
    FormatLimits limits;
    limits.supported = device_.instance_vk().GetPhysicalDeviceImageFormatProperties(
                           device_.gpu(), ci.format, ci.imageType, ci.tiling, ci.usage, ci.flags, &limits.properties) ==
                       VK_SUCCESS;
    it = formats_.emplace(key, limits).first;
  }
  if (!it->second.supported) throw VkError(VK_ERROR_FORMAT_NOT_SUPPORTED, "the device makes no such image");
  const VkImageFormatProperties &p = it->second.properties;
  const auto extent = [](const VkExtent3D &e) {
    return std::to_string(e.width) + "x" + std::to_string(e.height) + "x" + std::to_string(e.depth);
  };
  if (ci.extent.width > p.maxExtent.width || ci.extent.height > p.maxExtent.height ||
      ci.extent.depth > p.maxExtent.depth)
    refuse("an image of " + extent(ci.extent) + " is past the largest the device makes (" + extent(p.maxExtent) + ")");
  if (ci.mipLevels > p.maxMipLevels || ci.arrayLayers > p.maxArrayLayers || !(ci.samples & p.sampleCounts))
    refuse("the device makes no image of " + std::to_string(ci.mipLevels) + " levels, " +
           std::to_string(ci.arrayLayers) + " layers and " + std::to_string(ci.samples) + " samples");
  if (bytes > p.maxResourceSize)
    refuse("an image of " + std::to_string(bytes) + " bytes is past maxResourceSize (" +
           std::to_string(p.maxResourceSize) + ")");
}

} // namespace novem::vk
