#include "format.hpp"

namespace novem {

namespace {

FormatInfo with_upload(FormatInfo info, Upload upload) {
  info.upload = upload;
  return info;
}

FormatInfo lockable_depth(FormatInfo info) {
  info.lockable_depth = true;
  return info;
}

FormatInfo enumerated_format_info(D3DFORMAT format) {
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
  // The lockable depth formats: LockRect reads the depth (D16's words, D32F's floats).
  case D3DFMT_D32F_LOCKABLE: return lockable_depth({NV_FORMAT_D32_SFLOAT, 4, false, true, false, false});
  case D3DFMT_D16_LOCKABLE: return lockable_depth({NV_FORMAT_D16_UNORM, 2, false, true, false, false});
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
  // Signed formats Vulkan and GL have: V16U16 reads (U, V, 1, 1).
  case D3DFMT_V16U16: return {NV_FORMAT_R16G16_SNORM, 4, false, false, false, false, true};
  case D3DFMT_Q16W16V16U16: return {NV_FORMAT_R16G16B16A16_SNORM, 8, false, false, false, true, true};
  // Mixed signed and unsigned bump-map formats neither API has: converted on upload into 16-bit
  // signed channels, read (U, V, L, 1) as Windows returns them (Wine's test_signed_formats).
  case D3DFMT_L6V5U5: return with_upload({NV_FORMAT_R16G16B16A16_SNORM, 2, false, false, false, false, true}, Upload::L6V5U5);
  case D3DFMT_X8L8V8U8: return with_upload({NV_FORMAT_R16G16B16A16_SNORM, 4, false, false, false, false, true}, Upload::X8L8V8U8);
  // Packed 4:2:2 YUV: converted to RGB on upload, as Windows' drivers sample it.
  case D3DFMT_YUY2: return with_upload({NV_FORMAT_B8G8R8A8_UNORM, 2, false, false, false, false, true}, Upload::YUY2);
  case D3DFMT_UYVY: return with_upload({NV_FORMAT_B8G8R8A8_UNORM, 2, false, false, false, false, true}, Upload::UYVY);
  default: return {};
  }
}

} // namespace

FormatInfo format_info(D3DFORMAT format) {
  // storage, bytes, color (render target), depth, stencil, has_alpha, texture, block, depth sampling
  // The FOURCC formats are no D3DFORMAT enumerators.
  if (format == kFormatINTZ) return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, true, false, false, 1, DepthSampling::Value};
  // 3Dc: 4x4 blocks like DXTn's, but Windows takes a level 0 of any size (Wine's test_surface_blocks).
  if (format == kFormatATI1) return {NV_FORMAT_BC4_UNORM, 8, false, false, false, true, true, 4};
  if (format == kFormatATI2) return {NV_FORMAT_BC5_UNORM, 16, false, false, false, false, true, 4};
  if (format == kFormatNULL) {
    FormatInfo info;
    info.null_target = true;
    return info;
  }
  FormatInfo info = enumerated_format_info(format);
  info.whole_blocks = info.block > 1; // DXTn
  return info;
}

FormatInfo volume_format_info(D3DFORMAT format) {
  FormatInfo info = format_info(format);
  if (info.block == 1) return info;
  switch (info.storage) {
  case NV_FORMAT_BC1_UNORM: info.upload = Upload::DecodeBC1; break;
  case NV_FORMAT_BC2_UNORM: info.upload = Upload::DecodeBC2; break;
  case NV_FORMAT_BC3_UNORM: info.upload = Upload::DecodeBC3; break;
  case NV_FORMAT_BC4_UNORM: info.upload = Upload::DecodeATI1; break;
  default: info.upload = Upload::DecodeATI2; break;
  }
  info.storage = NV_FORMAT_B8G8R8A8_UNORM;
  return info;
}

} // namespace novem
