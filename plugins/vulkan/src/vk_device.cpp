#include "vk_device.hpp"

#include <cstring>
#include <vector>

namespace novem::vk {

namespace {

// The first queue family with graphics, or UINT32_MAX.
uint32_t graphics_family(const NovemVkInstance &vk, VkPhysicalDevice gpu) {
  uint32_t count = 0;
  vk.GetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vk.GetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) return i;
  return UINT32_MAX;
}

} // namespace

void Device::require_support(const NovemVkInstance &vk, VkPhysicalDevice gpu) {
  if (graphics_family(vk, gpu) == UINT32_MAX) throw std::runtime_error("the Vulkan device has no graphics queue");
  VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have13};
  vk.GetPhysicalDeviceFeatures2(gpu, &have);
  if (!have13.dynamicRendering || !have13.synchronization2)
    throw std::runtime_error("the Vulkan device lacks dynamic rendering or synchronization2");
}

Device::Device(const NovemVkInstance &instance, VkPhysicalDevice gpu) : instance_(instance), gpu_(gpu) {
  require_support(instance, gpu);
  instance.GetPhysicalDeviceProperties(gpu, &properties_);
  instance.GetPhysicalDeviceMemoryProperties(gpu, &memory_);
  queue_family_ = graphics_family(instance, gpu);
  VkPhysicalDeviceFeatures have{};
  instance.GetPhysicalDeviceFeatures(gpu, &have);

  VkPhysicalDeviceVulkan13Features want13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  want13.dynamicRendering = VK_TRUE;
  want13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceFeatures2 want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &want13};
  want.features.largePoints = have.largePoints;
  want.features.fillModeNonSolid = have.fillModeNonSolid; // D3DFILL_WIREFRAME / POINT
  fill_mode_non_solid_ = have.fillModeNonSolid;
  want.features.occlusionQueryPrecise = have.occlusionQueryPrecise; // D3D9 occlusion queries count samples
  want.features.independentBlend = have.independentBlend;           // a write mask per render target
  independent_blend_ = have.independentBlend == VK_TRUE;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_ci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_ci.queueFamilyIndex = queue_family_;
  queue_ci.queueCount = 1;
  queue_ci.pQueuePriorities = &priority;

  // VK_KHR_swapchain when the device has it: windows present through it.
  uint32_t ext_count = 0;
  instance.EnumerateDeviceExtensionProperties(gpu, nullptr, &ext_count, nullptr);
  std::vector<VkExtensionProperties> exts(ext_count);
  instance.EnumerateDeviceExtensionProperties(gpu, nullptr, &ext_count, exts.data());
  const char *swapchain_ext = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, swapchain_ext) == 0) swapchain_ = true;

  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &want};
  ci.enabledExtensionCount = swapchain_ ? 1 : 0;
  ci.ppEnabledExtensionNames = &swapchain_ext;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue_ci;
  check(instance.CreateDevice(gpu, &ci, nullptr, &device_), "vkCreateDevice");
  novem_vk_load_device(&vk_, instance.GetDeviceProcAddr, device_);
  vk_.GetDeviceQueue(device_, queue_family_, 0, &queue_);
}

Device::~Device() {
  if (device_) {
    vk_.DeviceWaitIdle(device_);
    vk_.DestroyDevice(device_, nullptr);
  }
}

} // namespace novem::vk
