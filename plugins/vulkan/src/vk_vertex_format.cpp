#include "vk_vertex_format.hpp"

#include "novem/backend.h"

namespace novem::vk {

VkFormat to_vk_vertex_format(nv_format format) {
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM: return VK_FORMAT_B8G8R8A8_UNORM; // D3DCOLOR: bytes B, G, R, A read as (R, G, B, A)
  case NV_FORMAT_R32_SFLOAT: return VK_FORMAT_R32_SFLOAT;
  case NV_FORMAT_R32G32_SFLOAT: return VK_FORMAT_R32G32_SFLOAT;
  case NV_FORMAT_R32G32B32_SFLOAT: return VK_FORMAT_R32G32B32_SFLOAT;
  case NV_FORMAT_R32G32B32A32_SFLOAT: return VK_FORMAT_R32G32B32A32_SFLOAT;
  case NV_FORMAT_R8G8B8A8_USCALED: return VK_FORMAT_R8G8B8A8_USCALED;
  case NV_FORMAT_R8G8B8A8_UNORM: return VK_FORMAT_R8G8B8A8_UNORM;
  case NV_FORMAT_R16G16_SSCALED: return VK_FORMAT_R16G16_SSCALED;
  case NV_FORMAT_R16G16B16A16_SSCALED: return VK_FORMAT_R16G16B16A16_SSCALED;
  case NV_FORMAT_R16G16_SNORM: return VK_FORMAT_R16G16_SNORM;
  case NV_FORMAT_R16G16B16A16_SNORM: return VK_FORMAT_R16G16B16A16_SNORM;
  case NV_FORMAT_R16G16_UNORM: return VK_FORMAT_R16G16_UNORM;
  case NV_FORMAT_R16G16B16A16_UNORM: return VK_FORMAT_R16G16B16A16_UNORM;
  // Vulkan's A2B10G10R10 packs R in bits 9..0, as the nv_format does.
  case NV_FORMAT_R10G10B10A2_USCALED: return VK_FORMAT_A2B10G10R10_USCALED_PACK32;
  case NV_FORMAT_R10G10B10A2_SNORM: return VK_FORMAT_A2B10G10R10_SNORM_PACK32;
  case NV_FORMAT_R16G16_SFLOAT: return VK_FORMAT_R16G16_SFLOAT;
  case NV_FORMAT_R16G16B16A16_SFLOAT: return VK_FORMAT_R16G16B16A16_SFLOAT;
  default: return VK_FORMAT_UNDEFINED;
  }
}

void query_vertex_format_support(const NovemVkInstance &vk, VkPhysicalDevice gpu, uint32_t (&support)[NV_FORMAT_COUNT]) {
  for (uint32_t f = 0; f < NV_FORMAT_COUNT; ++f) {
    VkFormat format = to_vk_vertex_format(nv_format(f));
    if (format == VK_FORMAT_UNDEFINED) continue;
    VkFormatProperties p{};
    vk.GetPhysicalDeviceFormatProperties(gpu, format, &p);
    if (p.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) support[f] |= NV_SUPPORT_VERTEX;
  }
}

} // namespace novem::vk
