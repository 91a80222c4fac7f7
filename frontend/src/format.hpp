// D3DFORMAT as the frontend knows it: which backend format stores it, its memory layout (texels
// or 4x4 blocks), its kind and what it may be used for.
#pragma once

#include <d3d9.h>

#include "novem/commands.h"

namespace novem {

struct FormatInfo {
  nv_format storage = NV_FORMAT_UNDEFINED; // NV_FORMAT_UNDEFINED: not implemented
  uint32_t bytes_per_pixel = 0; // bytes per texel, or per 4x4 block when block is 4
  bool color = false; // usable as a render target / offscreen plain surface
  bool depth = false;
  bool stencil = false;
  bool has_alpha = false; // X8R8G8B8's X byte is not alpha: blending and sampling read 1 there
  bool texture = false;   // usable as a (sampled) texture
  uint32_t block = 1;     // texels per block side: 4 for DXTn

  // Bytes of one row of blocks width texels wide, and the rows of blocks in height texels.
  size_t row_bytes(UINT width) const { return size_t((width + block - 1) / block) * bytes_per_pixel; }
  UINT block_rows(UINT height) const { return (height + block - 1) / block; }
};

FormatInfo format_info(D3DFORMAT format);

} // namespace novem
