#include "vk_device.hpp"

#include <algorithm>
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

bool has_extension(const NovemVkInstance &vk, VkPhysicalDevice gpu, const char *name) {
  uint32_t count = 0;
  if (vk.EnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> exts(count);
  if (vk.EnumerateDeviceExtensionProperties(gpu, nullptr, &count, exts.data()) < 0) return false;
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

} // namespace

uint32_t Device::instance_divisor_limit(const NovemVkInstance &vk, VkPhysicalDevice gpu) {
  if (!has_extension(vk, gpu, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME)) return 1;
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
  vk.GetPhysicalDeviceFeatures2(gpu, &have);
  if (!features.vertexAttributeInstanceRateDivisor) return 1;
  VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT limits{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
  vk.GetPhysicalDeviceProperties2(gpu, &props);
  return std::max<uint32_t>(limits.maxVertexAttribDivisor, 1);
}

uint32_t Device::anisotropy_limit(const NovemVkInstance &vk, VkPhysicalDevice gpu) {
  VkPhysicalDeviceFeatures features{};
  vk.GetPhysicalDeviceFeatures(gpu, &features);
  if (!features.samplerAnisotropy) return 1;
  VkPhysicalDeviceProperties p{};
  vk.GetPhysicalDeviceProperties(gpu, &p);
  return uint32_t(std::clamp(p.limits.maxSamplerAnisotropy, 1.0f, 16.0f)); // D3D9 goes to 16
}

void Device::require_support(const NovemVkInstance &vk, VkPhysicalDevice gpu) {
  if (graphics_family(vk, gpu) == UINT32_MAX) throw std::runtime_error("the Vulkan device has no graphics queue");
  VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have13};
  vk.GetPhysicalDeviceFeatures2(gpu, &have);
  if (!have13.dynamicRendering || !have13.synchronization2)
    throw std::runtime_error("the Vulkan device lacks dynamic rendering or synchronization2");
}

Device::Device(const NovemVkInstance &instance, VkPhysicalDevice gpu, bool want_dynamic_blend, bool want_multi_draw,
               DriverQuirks::Switches quirks)
    : instance_(instance), gpu_(gpu) {
  require_support(instance, gpu);
  instance.GetPhysicalDeviceProperties(gpu, &properties_);
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
  instance.GetPhysicalDeviceProperties2(gpu, &props2);
  quirks_ = driver_quirks(v12.driverID, quirks);
  instance.GetPhysicalDeviceMemoryProperties(gpu, &memory_);
  queue_family_ = graphics_family(instance, gpu);
  VkPhysicalDeviceFeatures have{};
  instance.GetPhysicalDeviceFeatures(gpu, &have);

  VkPhysicalDeviceVulkan13Features want13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  want13.dynamicRendering = VK_TRUE;
  want13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceFeatures2 want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &want13};
  // D3D9 draws whatever vertex range the program names (Windows' runtime does not check it
  // against the buffers): a fetch past a buffer's end reads zeros or in-bounds values, never
  // memory that is not the buffer's (every Vulkan device supports it; DXVK requires it too).
  want.features.robustBufferAccess = have.robustBufferAccess;
  want.features.largePoints = have.largePoints;
  want.features.fillModeNonSolid = have.fillModeNonSolid; // D3DFILL_WIREFRAME / POINT
  fill_mode_non_solid_ = have.fillModeNonSolid;
  want.features.depthClamp = have.depthClamp; // nv_pipeline_desc.depth_clamp; without it z is clipped
  depth_clamp_ = have.depthClamp;
  want.features.occlusionQueryPrecise = have.occlusionQueryPrecise; // D3D9 occlusion queries count samples
  want.features.independentBlend = have.independentBlend;           // a write mask per render target
  want.features.samplerAnisotropy = have.samplerAnisotropy;         // D3DTEXF_ANISOTROPIC (anisotropy_limit)
  independent_blend_ = have.independentBlend == VK_TRUE;
  // D3DSTREAMSOURCE_INSTANCEDATA | n with n > 1 needs VK_EXT_vertex_attribute_divisor
  // (nv_adapter_info.max_instance_divisor reports the same limit).
  const bool divisors = instance_divisor_limit(instance, gpu) > 1;
  VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  divisor.vertexAttributeInstanceRateDivisor = VK_TRUE;
  // Optional features are chained after want13 as they are enabled.
  std::vector<const char *> extensions;
  void **chain = &want13.pNext;
  auto enable = [&](const char *extension, auto &features) {
    extensions.push_back(extension);
    *chain = &features;
    chain = &features.pNext;
  };
  if (divisors) enable(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, divisor);
  // VK_KHR_swapchain when the device has it: windows present through it.
  swapchain_ = has_extension(instance, gpu, VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  if (swapchain_) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);

  // Blend state as dynamic state (NOVEM_VK_DYNAMIC_BLEND): a blend change then builds and binds
  // no pipeline. Only the three states Novem sets are enabled.
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
  if (want_dynamic_blend && has_extension(instance, gpu, VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &eds3};
    instance.GetPhysicalDeviceFeatures2(gpu, &query);
    if (eds3.extendedDynamicState3ColorBlendEnable && eds3.extendedDynamicState3ColorBlendEquation &&
        eds3.extendedDynamicState3ColorWriteMask) {
      eds3 = VkPhysicalDeviceExtendedDynamicState3FeaturesEXT{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
      eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
      eds3.extendedDynamicState3ColorBlendEquation = VK_TRUE;
      eds3.extendedDynamicState3ColorWriteMask = VK_TRUE;
      enable(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, eds3);
      dynamic_blend_ = true;
    }
  }

  // Consecutive draws with no command between them as one vkCmdDrawMulti*EXT
  // (NOVEM_VK_MULTI_DRAW): lavapipe then runs them as one llvmpipe draw.
  VkPhysicalDeviceMultiDrawFeaturesEXT multi{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
  if (want_multi_draw && has_extension(instance, gpu, VK_EXT_MULTI_DRAW_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &multi};
    instance.GetPhysicalDeviceFeatures2(gpu, &query);
    VkPhysicalDeviceMultiDrawPropertiesEXT limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
    instance.GetPhysicalDeviceProperties2(gpu, &props);
    if (multi.multiDraw && limits.maxMultiDrawCount > 1) {
      multi = VkPhysicalDeviceMultiDrawFeaturesEXT{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
      multi.multiDraw = VK_TRUE;
      enable(VK_EXT_MULTI_DRAW_EXTENSION_NAME, multi);
      max_multi_draw_ = limits.maxMultiDrawCount;
    }
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_ci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_ci.queueFamilyIndex = queue_family_;
  queue_ci.queueCount = 1;
  queue_ci.pQueuePriorities = &priority;

  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &want};
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &queue_ci;
  ci.enabledExtensionCount = uint32_t(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
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
