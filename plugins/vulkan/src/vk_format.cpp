#include "vk_format.hpp"

#include "novem/backend.h"
#include "novem/image_layout.hpp"

namespace novem::vk {

namespace {

constexpr VkComponentSwizzle R = VK_COMPONENT_SWIZZLE_R, G = VK_COMPONENT_SWIZZLE_G, B = VK_COMPONENT_SWIZZLE_B,
                             A = VK_COMPONENT_SWIZZLE_A, ONE = VK_COMPONENT_SWIZZLE_ONE,
                             ZERO = VK_COMPONENT_SWIZZLE_ZERO;

// How sampling reads each stored format so that it returns what commands.h defines (D3D9's
// values): one- and two-channel formats fill their missing channels with 1, luminance is
// replicated, A8 reads (0, 0, 0, A).
VkComponentMapping swizzle_of(nv_format format) {
  switch (format) {
  case NV_FORMAT_R5G6B5_UNORM: return {R, G, B, ONE};
  // D3D9's A4R4G4B4 word (A high) read through B4G4R4A4 (B high): R reads D3D's G, G its R, B
  // its A and A its B.
  case NV_FORMAT_B4G4R4A4_UNORM: return {G, R, A, B};
  case NV_FORMAT_A8_UNORM: return {ZERO, ZERO, ZERO, R};
  case NV_FORMAT_L8_UNORM:
  case NV_FORMAT_L16_UNORM: return {R, R, R, ONE};
  case NV_FORMAT_L8A8_UNORM:
  case NV_FORMAT_L4A4_UNORM: return {R, R, R, G};
  case NV_FORMAT_R8G8_SNORM:
  case NV_FORMAT_R16G16_SNORM:
  case NV_FORMAT_R16G16_UNORM:
  case NV_FORMAT_R16G16_SFLOAT:
  case NV_FORMAT_R32G32_SFLOAT: return {R, G, ONE, ONE};
  case NV_FORMAT_R16_SFLOAT:
  case NV_FORMAT_R32_SFLOAT: return {R, ONE, ONE, ONE};
  // ATI1 reads its one channel everywhere, as AMD's Direct3D 10-class drivers return it (older
  // AMD and NVIDIA drivers differ; Wine's test_3dc_formats records them all); ATI2 stores the
  // channel sampling returns in G first (every vendor agrees).
  case NV_FORMAT_BC4_UNORM: return {R, R, R, R};
  case NV_FORMAT_BC5_UNORM: return {G, R, ONE, ONE};
  default: return {R, G, B, A};
  }
}

bool is_depth_target(const NovemVkInstance &vk, VkPhysicalDevice gpu, VkFormat format) {
  VkFormatProperties p{};
  vk.GetPhysicalDeviceFormatProperties(gpu, format, &p);
  return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
}

} // namespace

VkFormat srgb_twin(VkFormat format) {
  switch (format) {
  case VK_FORMAT_B8G8R8A8_UNORM: return VK_FORMAT_B8G8R8A8_SRGB;
  case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
  case VK_FORMAT_BC2_UNORM_BLOCK: return VK_FORMAT_BC2_SRGB_BLOCK;
  case VK_FORMAT_BC3_UNORM_BLOCK: return VK_FORMAT_BC3_SRGB_BLOCK;
  default: return VK_FORMAT_UNDEFINED;
  }
}

VkFormat to_vk_format(nv_format format) {
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM: return VK_FORMAT_B8G8R8A8_UNORM;
  // D3DFMT_R5G6B5: red in the top five bits of the 16-bit word, as Vulkan's packed R5G6B5.
  case NV_FORMAT_R5G6B5_UNORM: return VK_FORMAT_R5G6B5_UNORM_PACK16;
  case NV_FORMAT_D16_UNORM: return VK_FORMAT_D16_UNORM;
  case NV_FORMAT_D24_UNORM_S8_UINT: return VK_FORMAT_D24_UNORM_S8_UINT;
  case NV_FORMAT_D32_SFLOAT: return VK_FORMAT_D32_SFLOAT;
  case NV_FORMAT_R32_SFLOAT: return VK_FORMAT_R32_SFLOAT;
  case NV_FORMAT_R32G32_SFLOAT: return VK_FORMAT_R32G32_SFLOAT;
  case NV_FORMAT_R32G32B32_SFLOAT: return VK_FORMAT_R32G32B32_SFLOAT;
  case NV_FORMAT_R32G32B32A32_SFLOAT: return VK_FORMAT_R32G32B32A32_SFLOAT;
  // A in bit 15, then R, G, B: Vulkan's A1R5G5B5 word exactly (a format every device samples).
  case NV_FORMAT_B5G5R5A1_UNORM: return VK_FORMAT_A1R5G5B5_UNORM_PACK16;
  // The same 4-bit channels in another order (swizzle_of); B4G4R4A4 is the one every device
  // samples (A4R4G4B4 needs VK_EXT_4444_formats' feature).
  case NV_FORMAT_B4G4R4A4_UNORM: return VK_FORMAT_B4G4R4A4_UNORM_PACK16;
  case NV_FORMAT_A8_UNORM:
  case NV_FORMAT_L8_UNORM: return VK_FORMAT_R8_UNORM;
  case NV_FORMAT_L8A8_UNORM:
  case NV_FORMAT_L4A4_UNORM: return VK_FORMAT_R8G8_UNORM; // L4A4 widened on upload
  case NV_FORMAT_R8G8_SNORM: return VK_FORMAT_R8G8_SNORM;
  case NV_FORMAT_R8G8B8A8_SNORM: return VK_FORMAT_R8G8B8A8_SNORM;
  case NV_FORMAT_L16_UNORM: return VK_FORMAT_R16_UNORM;
  case NV_FORMAT_R16G16_UNORM: return VK_FORMAT_R16G16_UNORM;
  case NV_FORMAT_R16G16B16A16_UNORM: return VK_FORMAT_R16G16B16A16_UNORM;
  case NV_FORMAT_R16_SFLOAT: return VK_FORMAT_R16_SFLOAT;
  case NV_FORMAT_R16G16_SFLOAT: return VK_FORMAT_R16G16_SFLOAT;
  case NV_FORMAT_R16G16B16A16_SFLOAT: return VK_FORMAT_R16G16B16A16_SFLOAT;
  case NV_FORMAT_B10G10R10A2_UNORM: return VK_FORMAT_A2R10G10B10_UNORM_PACK32;
  case NV_FORMAT_R10G10B10A2_UNORM: return VK_FORMAT_A2B10G10R10_UNORM_PACK32;
  // D3D9's DXT1 has 1-bit alpha (a transparent texel reads (0, 0, 0, 0)): BC1 RGBA.
  case NV_FORMAT_BC1_UNORM: return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  case NV_FORMAT_BC2_UNORM: return VK_FORMAT_BC2_UNORM_BLOCK;
  case NV_FORMAT_BC3_UNORM: return VK_FORMAT_BC3_UNORM_BLOCK;
  case NV_FORMAT_BC4_UNORM: return VK_FORMAT_BC4_UNORM_BLOCK;
  case NV_FORMAT_BC5_UNORM: return VK_FORMAT_BC5_UNORM_BLOCK;
  case NV_FORMAT_R16G16_SNORM: return VK_FORMAT_R16G16_SNORM;
  case NV_FORMAT_R16G16B16A16_SNORM: return VK_FORMAT_R16G16B16A16_SNORM;
  default: return VK_FORMAT_UNDEFINED;
  }
}

FormatInfo resolve_format(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_format format) {
  FormatInfo info;
  info.format = to_vk_format(format);
  const ImageLayout layout = image_layout(format);
  if (info.format == VK_FORMAT_UNDEFINED || layout.block_bytes == 0 || format == NV_FORMAT_R32G32B32_SFLOAT) {
    info.format = VK_FORMAT_UNDEFINED; // vertex-only formats are not images
    return info;
  }
  info.aspects = VK_IMAGE_ASPECT_COLOR_BIT;
  info.texel_bytes = layout.block_bytes;
  info.block = layout.block;
  info.swizzle = swizzle_of(format);
  if (VkFormat twin = srgb_twin(info.format); twin != VK_FORMAT_UNDEFINED) {
    VkFormatProperties p{};
    vk.GetPhysicalDeviceFormatProperties(gpu, twin, &p);
    constexpr VkFormatFeatureFlags used = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    if (p.optimalTilingFeatures & used) info.srgb = twin;
  }
  switch (format) {
  case NV_FORMAT_D16_UNORM:
  case NV_FORMAT_D32_SFLOAT: info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT; break;
  case NV_FORMAT_D24_UNORM_S8_UINT:
    if (!is_depth_target(vk, gpu, info.format)) info.format = VK_FORMAT_D32_SFLOAT_S8_UINT;
    info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    break;
  case NV_FORMAT_L4A4_UNORM:
    info.texel_bytes = 2;
    info.expand_l4a4 = true;
    break;
  default: break;
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
    const bool image = image_layout(f).block_bytes != 0;
    if (image && (tiled & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) support[f] |= NV_SUPPORT_RENDER_TARGET;
    if (image && (tiled & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT)) support[f] |= NV_SUPPORT_BLEND;
    // Scaled BLIT_IMAGE and PRESENT are vkCmdBlitImage2 (vk_copy.cpp, vk_present.cpp): lavapipe
    // cannot blit A2R10G10B10.
    constexpr VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    if ((support[f] & NV_SUPPORT_RENDER_TARGET) && (tiled & blit) == blit) support[f] |= NV_SUPPORT_BLIT;
    if (tiled & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) support[f] |= NV_SUPPORT_DEPTH_STENCIL;
    // A texture is uploaded with a copy: sampling needs the transfer destination too.
    constexpr VkFormatFeatureFlags sampled = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if (image && (tiled & sampled) == sampled) support[f] |= NV_SUPPORT_SAMPLED;
    if (image && (tiled & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) support[f] |= NV_SUPPORT_FILTER;
    // GENERATE_MIPS blits with a linear filter, in place (the L4A4 widening is no concern: the
    // blit works on the stored format).
    constexpr VkFormatFeatureFlags blits = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                           VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    if (image && !(tiled & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) && (tiled & blits) == blits)
      support[f] |= NV_SUPPORT_GENERATE_MIPS;
    if (p.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) support[f] |= NV_SUPPORT_VERTEX;
    // Depth textures (ABI 5): a depth target that is sampled. A comparison sampler filters linearly
    // whatever FILTER_LINEAR says (Vulkan asks it only of samplers that do not compare); depth
    // values are read with nearest filtering.
    constexpr VkFormatFeatureFlags depth_texture = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                                   VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((tiled & depth_texture) == depth_texture) support[f] |= NV_SUPPORT_DEPTH_SAMPLED;
    // sRGB (ABI 5): the twin format's view samples (decoding) or renders (encoding).
    if (VkFormat twin = srgb_twin(vk_format); twin != VK_FORMAT_UNDEFINED) {
      VkFormatProperties sp{};
      vk.GetPhysicalDeviceFormatProperties(gpu, twin, &sp);
      const VkFormatFeatureFlags srgb = sp.optimalTilingFeatures;
      if ((support[f] & NV_SUPPORT_SAMPLED) && (srgb & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) support[f] |= NV_SUPPORT_SRGB_READ;
      constexpr VkFormatFeatureFlags target = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
      if ((support[f] & NV_SUPPORT_RENDER_TARGET) && (srgb & target) == target) support[f] |= NV_SUPPORT_SRGB_WRITE;
    }
  }
}

} // namespace novem::vk
