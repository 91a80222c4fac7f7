// D3DFORMAT as the frontend knows it: which backend format stores it, its memory layout (texels
// or 4x4 blocks), its kind and what it may be used for.
#pragma once

#include <d3d9.h>

#include "novem/commands.h"

namespace novem {

// The vendors' FOURCC depth-texture formats (not in d3d9types.h): INTZ (NVIDIA, also AMD and
// Intel; D24S8 whose depth a texture reads as a value), DF24 and DF16 (AMD; D24X8 and D16 read
// likewise).
constexpr D3DFORMAT kFormatINTZ = D3DFORMAT(MAKEFOURCC('I', 'N', 'T', 'Z'));
constexpr D3DFORMAT kFormatDF24 = D3DFORMAT(MAKEFOURCC('D', 'F', '2', '4'));
constexpr D3DFORMAT kFormatDF16 = D3DFORMAT(MAKEFOURCC('D', 'F', '1', '6'));

// How a depth texture of the format is sampled.
enum class DepthSampling : uint8_t {
  None,    // not a depth texture
  Compare, // D16, D24X8, D24S8: the depth comparison (hardware shadow maps)
  Value,   // INTZ, DF24, DF16: the stored depth, in every channel
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

  // Bytes of one row of blocks width texels wide, and the rows of blocks in height texels.
  size_t row_bytes(UINT width) const { return size_t((width + block - 1) / block) * bytes_per_pixel; }
  UINT block_rows(UINT height) const { return (height + block - 1) / block; }
};

FormatInfo format_info(D3DFORMAT format);

} // namespace novem
