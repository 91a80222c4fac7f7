#include "format.hpp"

namespace novem {

FormatInfo format_info(D3DFORMAT format) {
  switch (format) {
  case D3DFMT_A8R8G8B8: return {NV_FORMAT_B8G8R8A8_UNORM, 4, true, false, false, true};
  case D3DFMT_X8R8G8B8: return {NV_FORMAT_B8G8R8A8_UNORM, 4, true, false, false, false};
  case D3DFMT_R5G6B5: return {NV_FORMAT_R5G6B5_UNORM, 2, true, false, false, false};
  case D3DFMT_D16: return {NV_FORMAT_D16_UNORM, 2, false, true, false, false};
  case D3DFMT_D24S8: return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, true, false};
  case D3DFMT_D24X8: return {NV_FORMAT_D24_UNORM_S8_UINT, 4, false, true, false, false};
  default: return {};
  }
}

} // namespace novem
