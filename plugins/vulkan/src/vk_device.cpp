#include "vk_device.hpp"

#include <vector>

namespace novem::vk {

namespace {

// The first queue family with graphics, or UINT32_MAX.
uint32_t graphics_family(VkPhysicalDevice gpu) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) return i;
  return UINT32_MAX;
}

} // namespace

void Device::require_support(VkPhysicalDevice gpu) {
  if (graphics_family(gpu) == UINT32_MAX) throw std::runtime_error("the Vulkan device has no graphics queue");
  VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have13};
  vkGetPhysicalDeviceFeatures2(gpu, &have);
  if (!have13.dynamicRendering || !have13.synchronization2)
    throw std::runtime_error("the Vulkan device lacks dynamic rendering or synchronization2");
}

Device::Device(VkPhysicalDevice gpu) : gpu_(gpu) {
  require_support(gpu);
  vkGetPhysicalDeviceProperties(gpu, &properties_);
  vkGetPhysicalDeviceMemoryProperties(gpu, &memory_);
  queue_family_ = graphics_family(gpu);
  VkPhysicalDeviceFeatures have{};
  vkGetPhysicalDeviceFeatures(gpu, &have);

  VkPhysicalDeviceVulkan13Features want13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  want13.dynamicRendering = VK_TRUE;
  want13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceFeatures2 want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &want13};
  want.features.largePoints = have.largePoints;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_ci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_ci.queueFamilyIndex = queue_family_;
  queue_ci.queueCount = 1;
  queue_ci.pQueuePriorities = &priority;

  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &want};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue_ci;
  check(vkCreateDevice(gpu, &ci, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
}

Device::~Device() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
}

} // namespace novem::vk
