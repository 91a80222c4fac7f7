// D3DFORMAT as the frontend knows it: which backend format stores it, its memory layout (texels
// or 4x4 blocks), its kind and what it may be used for.
#pragma once

#include <d3d9.h>

#include "novem/backend.h"
#include "novem/commands.h"

namespace novem {

// The vendors' FOURCC depth-texture format (not in d3d9types.h): INTZ (NVIDIA, also AMD and
// Intel; D24S8 whose depth a texture reads as a value). AMD's DF24 and DF16 are not reported:
// programs take them as the sign of a driver with FETCH4, which Novem does not have.
constexpr D3DFORMAT kFormatINTZ = D3DFORMAT(MAKEFOURCC('I', 'N', 'T', 'Z'));
// AMD's 3Dc formats (also NVIDIA's and Intel's): ATI1 one channel, ATI2 two (BC4 and BC5).
constexpr D3DFORMAT kFormatATI1 = D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '1'));
constexpr D3DFORMAT kFormatATI2 = D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '2'));
// The vendors' render target that takes no memory: draws write only the depth-stencil surface.
constexpr D3DFORMAT kFormatNULL = D3DFORMAT(MAKEFOURCC('N', 'U', 'L', 'L'));

// How texels in D3D9's layout become the storage format's when they are sent to the plugin:
// formats neither Vulkan nor GL has are converted by the frontend (upload_conversion.hpp).
enum class Upload : uint8_t {
  Copy,     // the storage format is D3D9's layout
  YUY2,     // Y0 U Y1 V pairs -> B8G8R8A8
  UYVY,     // U Y0 V Y1 pairs -> B8G8R8A8
  L6V5U5,   // 16 bits: U 4..0, V 9..5 (signed), L 15..10 -> R16G16B16A16_SNORM (U, V, L, 1)
  X8L8V8U8, // bytes U, V (signed), L, X -> R16G16B16A16_SNORM (U, V, L, 1)
  // Volumes of the block formats: decoded to B8G8R8A8 (GL has no 3D S3TC or RGTC images).
  DecodeBC1, DecodeBC2, DecodeBC3, // DXT1, DXT2/3, DXT4/5
  DecodeATI1,                      // read (R, R, R, R)
  DecodeATI2,                      // read (Y, X, 1, 1)
};

// How a depth texture of the format is sampled.
enum class DepthSampling : uint8_t {
  None,    // not a depth texture
  Compare, // D16, D24X8, D24S8: the depth comparison (hardware shadow maps)
  Value,   // INTZ: the stored depth, in every channel
};

struct FormatInfo {
  nv_format storage = NV_FORMAT_UNDEFINED; // NV_FORMAT_UNDEFINED: not implemented
  uint32_t bytes_per_pixel = 0; // bytes per texel, or per 4x4 block when block is 4
  bool color = false; // usable as a render target / offscreen plain surface
  bool depth = false;
  bool stencil = false;
  bool has_alpha = false; // X8R8G8B8's X byte is not alpha: blending and sampling read 1 there
  bool texture = false;   // usable as a (sampled) texture
  uint32_t block = 1;     // texels per block side: 4 for DXTn
  DepthSampling depth_sampling = DepthSampling::None; // a depth texture's sampling (depth formats)
  Upload upload = Upload::Copy;
  bool null_target = false;    // the NULL format: a render target without memory
  bool whole_blocks = false;   // DXTn: level 0 must be whole blocks (Windows refuses others)
  bool lockable_depth = false; // D16_LOCKABLE, D32F_LOCKABLE: a depth-stencil surface that locks

  // YUY2 or UYVY: converted to RGB as it is sent to the plugin.
  bool yuv() const { return upload == Upload::YUY2 || upload == Upload::UYVY; }
  // Whether D3DSAMP_SRGBTEXTURE decodes it, given its storage's nv_format_support: YUV converted
  // to RGB is no sRGB texture, though its storage could be.
  bool srgb_readable(uint32_t support) const {
    return (support & NV_SUPPORT_SRGB_READ) && !yuv();
  }
  // Bytes of one row of blocks width texels wide, and the rows of blocks in height texels.
  size_t row_bytes(UINT width) const { return size_t((width + block - 1) / block) * bytes_per_pixel; }
  UINT block_rows(UINT height) const { return (height + block - 1) / block; }
};

FormatInfo format_info(D3DFORMAT format);
// A volume texture's: the block formats are decoded on upload into B8G8R8A8 (their layout in
// memory stays D3D9's blocks).
FormatInfo volume_format_info(D3DFORMAT format);

} // namespace novem
