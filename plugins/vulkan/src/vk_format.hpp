// nv_format → VkFormat, aspects and texel sizes; what a physical device supports per nv_format.
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "vk_common.hpp"

namespace novem::vk {

struct FormatInfo {
  VkFormat format = VK_FORMAT_UNDEFINED; // the format the plugin stores it in on this device
  VkImageAspectFlags aspects = 0;        // color, or depth (+ stencil)
  uint32_t texel_bytes = 0;              // bytes per pixel in readback
};

// The Vulkan format for an nv_format, before any per-device fallback.
VkFormat to_vk_format(nv_format format);

// D24S8 falls back to D32_SFLOAT_S8_UINT where the device cannot use it as a depth target.
FormatInfo resolve_format(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_format format);

// nv_format_support bits for every nv_format, as probe reports them.
void query_format_support(const NovemVkInstance &vk, VkPhysicalDevice gpu, uint32_t (&support)[NV_FORMAT_COUNT]);

} // namespace novem::vk
