// The memory layout of each image nv_format as commands.h defines it (what UPDATE_IMAGE's payload
// holds): texels per block side and bytes per block, so that every plugin sizes rows the same
// way, and the one expansion both plugins need because neither API has the layout (L4A4).
#pragma once

#include <cstddef>
#include <cstdint>

#include "novem/commands.h"

namespace novem {

struct ImageLayout {
  uint32_t block = 1;       // texels per block side: 1, or 4 for the BC formats
  uint32_t block_bytes = 0; // bytes per texel (block 1) or per 4x4 block; 0: not an image format
};

inline ImageLayout image_layout(uint32_t format) {
  switch (format) {
  case NV_FORMAT_A8_UNORM:
  case NV_FORMAT_L8_UNORM:
  case NV_FORMAT_L4A4_UNORM: return {1, 1};
  case NV_FORMAT_R5G6B5_UNORM:
  case NV_FORMAT_B5G5R5A1_UNORM:
  case NV_FORMAT_B4G4R4A4_UNORM:
  case NV_FORMAT_L8A8_UNORM:
  case NV_FORMAT_R8G8_SNORM:
  case NV_FORMAT_L16_UNORM:
  case NV_FORMAT_R16_SFLOAT:
  case NV_FORMAT_D16_UNORM: return {1, 2};
  case NV_FORMAT_B8G8R8A8_UNORM:
  case NV_FORMAT_R8G8B8A8_SNORM:
  case NV_FORMAT_R16G16_SNORM:
  case NV_FORMAT_R16G16_UNORM:
  case NV_FORMAT_R16G16_SFLOAT:
  case NV_FORMAT_R32_SFLOAT:
  case NV_FORMAT_D32_SFLOAT:
  case NV_FORMAT_B10G10R10A2_UNORM:
  case NV_FORMAT_R10G10B10A2_UNORM:
  case NV_FORMAT_D24_UNORM_S8_UINT: return {1, 4};
  case NV_FORMAT_R16G16B16A16_UNORM:
  case NV_FORMAT_R16G16B16A16_SFLOAT:
  case NV_FORMAT_R16G16B16A16_SNORM:
  case NV_FORMAT_R32G32_SFLOAT: return {1, 8};
  case NV_FORMAT_R32G32B32A32_SFLOAT: return {1, 16};
  case NV_FORMAT_BC1_UNORM:
  case NV_FORMAT_BC4_UNORM: return {4, 8};
  case NV_FORMAT_BC2_UNORM:
  case NV_FORMAT_BC5_UNORM:
  case NV_FORMAT_BC3_UNORM: return {4, 16};
  default: return {};
  }
}

// Bytes of one row of blocks `width` texels wide.
inline size_t image_row_bytes(uint32_t format, uint32_t width) {
  const ImageLayout l = image_layout(format);
  return size_t((width + l.block - 1) / l.block) * l.block_bytes;
}

// Rows of blocks in `height` texels.
inline uint32_t image_block_rows(uint32_t format, uint32_t height) {
  const ImageLayout l = image_layout(format);
  return (height + l.block - 1) / l.block;
}

// L4A4 (L in bits 3..0, A in 7..4) → bytes L, A with each nibble widened to 8 bits (n * 17), for
// plugins that store it as a two-channel 8-bit image: neither Vulkan (R4G4 is optional and
// lavapipe lacks it) nor GL has an 8-bit two-channel format.
inline void expand_l4a4(const uint8_t *src, uint8_t *dst, size_t texels) {
  for (size_t i = 0; i < texels; ++i) {
    dst[2 * i] = uint8_t((src[i] & 0x0F) * 17);
    dst[2 * i + 1] = uint8_t((src[i] >> 4) * 17);
  }
}

} // namespace novem
