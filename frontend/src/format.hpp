// D3DFORMAT as the frontend knows it: which backend format stores it, its size, its kind.
#pragma once

#include <d3d9.h>

#include "novem/commands.h"

namespace novem {

struct FormatInfo {
  nv_format storage = NV_FORMAT_UNDEFINED; // NV_FORMAT_UNDEFINED: not implemented
  uint32_t bytes_per_pixel = 0;
  bool color = false; // usable as a render target / offscreen plain surface
  bool depth = false;
  bool stencil = false;
  bool has_alpha = false; // X8R8G8B8's X byte is not alpha: blending must read 1 there
};

FormatInfo format_info(D3DFORMAT format);

} // namespace novem
