#include "vk_adapter.hpp"

#include <cstdio>

#include "vk_device.hpp"
#include "vk_format.hpp"
#include "vk_vertex_format.hpp"

namespace novem::vk {

void describe_adapter(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_adapter_info &info) {
  info = nv_adapter_info{};

  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  vk.GetPhysicalDeviceProperties2(gpu, &props);
  const VkPhysicalDeviceProperties &p = props.properties;

  std::snprintf(info.device_name, sizeof info.device_name, "%.127s", p.deviceName);
  std::snprintf(info.driver_name, sizeof info.driver_name, "Vulkan %u.%u.%u, %.100s",
                VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
                VK_API_VERSION_PATCH(p.apiVersion), v12.driverInfo[0] ? v12.driverInfo : v12.driverName);
  info.vendor_id = p.vendorID;
  info.device_id = p.deviceID;

  // Video memory: the device-local heaps (all heaps where none is device-local).
  VkPhysicalDeviceMemoryProperties mem{};
  vk.GetPhysicalDeviceMemoryProperties(gpu, &mem);
  uint64_t local = 0, any = 0;
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i) {
    any += mem.memoryHeaps[i].size;
    if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) local += mem.memoryHeaps[i].size;
  }
  info.video_memory_bytes = local ? local : any;

  info.max_texture_size = p.limits.maxImageDimension2D;
  info.max_viewport_size = p.limits.maxViewportDimensions[0] < p.limits.maxViewportDimensions[1]
                               ? p.limits.maxViewportDimensions[0]
                               : p.limits.maxViewportDimensions[1];
  VkPhysicalDeviceFeatures features{};
  vk.GetPhysicalDeviceFeatures(gpu, &features);
  info.max_point_size = features.largePoints ? p.limits.pointSizeRange[1] : 1.0f;
  query_format_support(vk, gpu, info.format_support);
  query_vertex_format_support(vk, gpu, info.format_support);
  info.sample_counts = p.limits.framebufferColorSampleCounts & p.limits.framebufferDepthSampleCounts &
                       p.limits.framebufferStencilSampleCounts & p.limits.framebufferNoAttachmentsSampleCounts;
  info.max_instance_divisor = Device::instance_divisor_limit(vk, gpu);
  info.max_anisotropy = Device::anisotropy_limit(vk, gpu);
}

} // namespace novem::vk
