#include "format.hpp"

namespace novem {

FormatInfo format_info(D3DFORMAT format) {
  // storage, bytes, color (render target), depth, stencil, has_alpha, texture, block, depth sampling
  // The FOURCC depth formats are no D3DFORMAT enumerators.
  if (format == kFormatINTZ) return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, true, false, false, 1, DepthSampling::Value};
  if (format == kFormatDF24) return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, false, false, false, 1, DepthSampling::Value};
  if (format == kFormatDF16) return {NV_FORMAT_D16_UNORM, 2, false, true, false, false, false, 1, DepthSampling::Value};
  switch (format) {
  case D3DFMT_A8R8G8B8: return {NV_FORMAT_B8G8R8A8_UNORM, 4, true, false, false, true, true};
  case D3DFMT_X8R8G8B8: return {NV_FORMAT_B8G8R8A8_UNORM, 4, true, false, false, false, true};
  case D3DFMT_R5G6B5: return {NV_FORMAT_R5G6B5_UNORM, 2, true, false, false, false, true};
  // Depth formats that are also depth textures (D3DUSAGE_DEPTHSTENCIL): sampled with a comparison,
  // as NVIDIA's and AMD's drivers do, or as the depth value (the FOURCC formats).
  case D3DFMT_D16: return {NV_FORMAT_D16_UNORM, 2, false, true, false, false, false, 1, DepthSampling::Compare};
  case D3DFMT_D24S8: return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, true, false, false, 1, DepthSampling::Compare};
  case D3DFMT_D24X8: return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, false, false, false, 1, DepthSampling::Compare};
  // D32's 32-bit integer depth is kept in 24 bits (Vulkan and GL have no 32-bit integer depth):
  // an integer format, so that D3DRS_DEPTHBIAS moves it by its value as Windows does, where a
  // float format's bias unit follows each primitive's largest depth (doubling a bias for depths
  // up to 1); a 32-bit float kept no more than 24 bits near 1 either.
  case D3DFMT_D32: return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, false, false};
  case D3DFMT_D32F_LOCKABLE: return {NV_FORMAT_D32_SFLOAT, 4, false, true, false, false};
  // Render targets too where D3D9 allows and the plugins store the format as laid out (so that
  // rendering writes and readback return D3D9's layout); A4R4G4B4 is stored swizzled, and the
  // luminance, alpha, signed and DXTn formats are no render targets in D3D9.
  case D3DFMT_A1R5G5B5: return {NV_FORMAT_B5G5R5A1_UNORM, 2, true, false, false, true, true};
  case D3DFMT_X1R5G5B5: return {NV_FORMAT_B5G5R5A1_UNORM, 2, true, false, false, false, true};
  case D3DFMT_A4R4G4B4: return {NV_FORMAT_B4G4R4A4_UNORM, 2, false, false, false, true, true};
  case D3DFMT_A8: return {NV_FORMAT_A8_UNORM, 1, false, false, false, true, true};
  case D3DFMT_L8: return {NV_FORMAT_L8_UNORM, 1, false, false, false, false, true};
  case D3DFMT_A8L8: return {NV_FORMAT_L8A8_UNORM, 2, false, false, false, true, true};
  case D3DFMT_A4L4: return {NV_FORMAT_L4A4_UNORM, 1, false, false, false, true, true};
  case D3DFMT_V8U8: return {NV_FORMAT_R8G8_SNORM, 2, false, false, false, false, true};
  case D3DFMT_Q8W8V8U8: return {NV_FORMAT_R8G8B8A8_SNORM, 4, false, false, false, true, true};
  case D3DFMT_L16: return {NV_FORMAT_L16_UNORM, 2, false, false, false, false, true};
  case D3DFMT_G16R16: return {NV_FORMAT_R16G16_UNORM, 4, true, false, false, false, true};
  case D3DFMT_A16B16G16R16: return {NV_FORMAT_R16G16B16A16_UNORM, 8, true, false, false, true, true};
  case D3DFMT_R16F: return {NV_FORMAT_R16_SFLOAT, 2, true, false, false, false, true};
  case D3DFMT_G16R16F: return {NV_FORMAT_R16G16_SFLOAT, 4, true, false, false, false, true};
  case D3DFMT_A16B16G16R16F: return {NV_FORMAT_R16G16B16A16_SFLOAT, 8, true, false, false, true, true};
  case D3DFMT_R32F: return {NV_FORMAT_R32_SFLOAT, 4, true, false, false, false, true};
  case D3DFMT_G32R32F: return {NV_FORMAT_R32G32_SFLOAT, 8, true, false, false, false, true};
  case D3DFMT_A32B32G32R32F: return {NV_FORMAT_R32G32B32A32_SFLOAT, 16, true, false, false, true, true};
  case D3DFMT_A2R10G10B10: return {NV_FORMAT_B10G10R10A2_UNORM, 4, true, false, false, true, true};
  case D3DFMT_A2B10G10R10: return {NV_FORMAT_R10G10B10A2_UNORM, 4, true, false, false, true, true};
  // DXT2 and DXT4 are the premultiplied-alpha twins of DXT3 and DXT5: the same blocks, which
  // sampling decodes the same way (the premultiplication is the application's business).
  case D3DFMT_DXT1: return {NV_FORMAT_BC1_UNORM, 8, false, false, false, true, true, 4};
  case D3DFMT_DXT2:
  case D3DFMT_DXT3: return {NV_FORMAT_BC2_UNORM, 16, false, false, false, true, true, 4};
  case D3DFMT_DXT4:
  case D3DFMT_DXT5: return {NV_FORMAT_BC3_UNORM, 16, false, false, false, true, true, 4};
  default: return {};
  }
}

} // namespace novem
