// The VkDevice: one graphics queue, Vulkan 1.3 core features (dynamic rendering,
// synchronization2; extended dynamic state is core in 1.3), the physical device's properties, and
// the device's dispatch table.
#pragma once

#include "vk_common.hpp"
#include "vk_quirks.hpp"

namespace novem::vk {

class Device {
public:
  // Throws VkError or std::runtime_error (one line) when the device lacks what the plugin needs.
  // instance: the instance's table; it must outlive the device. want_dynamic_blend: enable
  // VK_EXT_extended_dynamic_state3's blend enable, equation and write mask where the device has them.
  // quirks: the workarounds the settings leave on (Options::quirks).
  Device(const NovemVkInstance &instance, VkPhysicalDevice gpu, bool want_dynamic_blend, bool want_multi_draw,
         DriverQuirks::Switches quirks);
  // Throws std::runtime_error (one line) when gpu lacks a graphics queue or a feature Novem needs.
  static void require_support(const NovemVkInstance &instance, VkPhysicalDevice gpu);
  // The largest instance-rate divisor gpu draws: maxVertexAttribDivisor with
  // VK_EXT_vertex_attribute_divisor's vertexAttributeInstanceRateDivisor, else 1.
  static uint32_t instance_divisor_limit(const NovemVkInstance &instance, VkPhysicalDevice gpu);
  // The largest anisotropy gpu filters with, up to D3D9's 16: maxSamplerAnisotropy with the
  // samplerAnisotropy feature, else 1.
  static uint32_t anisotropy_limit(const NovemVkInstance &instance, VkPhysicalDevice gpu);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  VkDevice handle() const { return device_; }
  // The device-level commands (device, queue and command-buffer functions).
  const NovemVkDevice &vk() const { return vk_; }
  // The instance-level commands, for queries on gpu().
  const NovemVkInstance &instance_vk() const { return instance_; }
  VkPhysicalDevice gpu() const { return gpu_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties &properties() const { return properties_; }
  const VkPhysicalDeviceLimits &limits() const { return properties_.limits; }
  const VkPhysicalDeviceMemoryProperties &memory() const { return memory_; }
  bool fill_mode_non_solid() const { return fill_mode_non_solid_; } // wireframe and point fill
  bool depth_clamp() const { return depth_clamp_; }                 // nv_pipeline_desc.depth_clamp
  // The independentBlend feature: colour attachments may have different blend states (masks).
  bool independent_blend() const { return independent_blend_; }
  // The driver's habits the plugin works around (vk_quirks.hpp).
  const DriverQuirks &quirks() const { return quirks_; }
  bool swapchain() const { return swapchain_; } // VK_KHR_swapchain is enabled
  // VK_EXT_extended_dynamic_state3 is enabled with colorBlendEnable, colorBlendEquation and
  // colorWriteMask: blend state is set with vkCmdSet*EXT, not built into pipelines.
  bool dynamic_blend() const { return dynamic_blend_; }
  // VK_EXT_multi_draw is enabled: vkCmdDrawMulti*EXT take up to max_multi_draw() draws at once.
  bool multi_draw() const { return max_multi_draw_ > 1; }
  uint32_t max_multi_draw() const { return max_multi_draw_; }

private:
  const NovemVkInstance &instance_;
  VkPhysicalDevice gpu_;
  VkDevice device_ = VK_NULL_HANDLE;
  NovemVkDevice vk_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  bool fill_mode_non_solid_ = false;
  bool depth_clamp_ = false;
  bool independent_blend_ = false;
  DriverQuirks quirks_;
  bool swapchain_ = false;
  bool dynamic_blend_ = false;
  uint32_t max_multi_draw_ = 1;
};

} // namespace novem::vk
