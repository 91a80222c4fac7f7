#include "vk_format.hpp"

#include "novem/backend.h"

namespace novem::vk {

VkFormat to_vk_format(nv_format format) {
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM: return VK_FORMAT_B8G8R8A8_UNORM;
  // D3DFMT_R5G6B5: red in the top five bits of the 16-bit word, as Vulkan's packed R5G6B5.
  case NV_FORMAT_R5G6B5_UNORM: return VK_FORMAT_R5G6B5_UNORM_PACK16;
  case NV_FORMAT_D16_UNORM: return VK_FORMAT_D16_UNORM;
  case NV_FORMAT_D24_UNORM_S8_UINT: return VK_FORMAT_D24_UNORM_S8_UINT;
  case NV_FORMAT_R32_SFLOAT: return VK_FORMAT_R32_SFLOAT;
  case NV_FORMAT_R32G32_SFLOAT: return VK_FORMAT_R32G32_SFLOAT;
  case NV_FORMAT_R32G32B32_SFLOAT: return VK_FORMAT_R32G32B32_SFLOAT;
  case NV_FORMAT_R32G32B32A32_SFLOAT: return VK_FORMAT_R32G32B32A32_SFLOAT;
  default: return VK_FORMAT_UNDEFINED;
  }
}

namespace {

bool is_depth_target(const NovemVkInstance &vk, VkPhysicalDevice gpu, VkFormat format) {
  VkFormatProperties p{};
  vk.GetPhysicalDeviceFormatProperties(gpu, format, &p);
  return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
}

} // namespace

FormatInfo resolve_format(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_format format) {
  FormatInfo info;
  info.format = to_vk_format(format);
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM:
    info.aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    info.texel_bytes = 4;
    break;
  case NV_FORMAT_R5G6B5_UNORM:
    info.aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    info.texel_bytes = 2;
    break;
  case NV_FORMAT_D16_UNORM:
    info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT;
    info.texel_bytes = 2;
    break;
  case NV_FORMAT_D24_UNORM_S8_UINT:
    if (!is_depth_target(vk, gpu, info.format)) info.format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    info.texel_bytes = 4;
    break;
  default:
    info.format = VK_FORMAT_UNDEFINED; // vertex-only formats are not images
    break;
  }
  return info;
}

void query_format_support(const NovemVkInstance &vk, VkPhysicalDevice gpu, uint32_t (&support)[NV_FORMAT_COUNT]) {
  for (uint32_t f = 0; f < NV_FORMAT_COUNT; ++f) {
    support[f] = 0;
    VkFormat vk_format = to_vk_format(nv_format(f));
    if (vk_format == VK_FORMAT_UNDEFINED) continue;
    if (f == NV_FORMAT_D24_UNORM_S8_UINT) vk_format = resolve_format(vk, gpu, nv_format(f)).format;
    VkFormatProperties p{};
    vk.GetPhysicalDeviceFormatProperties(gpu, vk_format, &p);
    const VkFormatFeatureFlags tiled = p.optimalTilingFeatures;
    if (tiled & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) support[f] |= NV_SUPPORT_RENDER_TARGET;
    if (tiled & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT) support[f] |= NV_SUPPORT_BLEND;
    if (tiled & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) support[f] |= NV_SUPPORT_DEPTH_STENCIL;
    if (tiled & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) support[f] |= NV_SUPPORT_SAMPLED;
    if (p.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) support[f] |= NV_SUPPORT_VERTEX;
  }
}

} // namespace novem::vk
