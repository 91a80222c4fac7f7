// nv_format → VkFormat, the sampled view's component mapping (D3D9's defaults for missing
// channels, luminance and alpha-only formats), aspects, block sizes; what a physical device
// supports per nv_format.
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "vk_common.hpp"

namespace novem::vk {

struct FormatInfo {
  VkFormat format = VK_FORMAT_UNDEFINED; // the format the plugin stores it in on this device
  VkImageAspectFlags aspects = 0;        // color, or depth (+ stencil)
  uint32_t texel_bytes = 0;              // bytes per texel (per 4x4 block for BC) as stored
  uint32_t block = 1;                    // texels per block side: 4 for BC formats
  VkComponentMapping swizzle{};          // the sampled view's mapping
  bool expand_l4a4 = false;              // uploads widen L4A4 to R8G8 (L, A)
  // The sRGB twin of `format` (ABI 5: sRGB reads and writes) where the device samples or renders
  // it; images of such a format are created MUTABLE_FORMAT with both formats listed.
  VkFormat srgb = VK_FORMAT_UNDEFINED;
};

// The sRGB format that reads/writes the same texels as `format`, or VK_FORMAT_UNDEFINED.
VkFormat srgb_twin(VkFormat format);

// The Vulkan format an nv_format is stored in, before any per-device fallback.
VkFormat to_vk_format(nv_format format);

// D24S8 falls back to D32_SFLOAT_S8_UINT where the device cannot use it as a depth target.
FormatInfo resolve_format(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_format format);

// nv_format_support bits for every nv_format, as probe reports them.
void query_format_support(const NovemVkInstance &vk, VkPhysicalDevice gpu, uint32_t (&support)[NV_FORMAT_COUNT]);

} // namespace novem::vk
