// Texels on their way to the plugin (UPDATE_IMAGE): D3D9's memory layout for most formats, and for
// the few that neither Vulkan nor GL has (FormatInfo::upload) the storage format's layout, converted
// here, so that a plugin never learns D3D9's YUV or mixed-sign bump-map layouts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "command_stream.hpp"
#include "format.hpp"

namespace novem {

// Rows converted from D3D9's layout to the storage format's: `x` and `width` are the rectangle
// sent, which for the YUV formats starts at the pair holding the first texel asked for.
struct ConvertedRows {
  std::vector<uint8_t> bytes; // tightly packed rows
  int32_t x = 0;
  uint32_t width = 0;
};

// Converts `height` rows of `width` texels starting at texel `x` (src points at it; rows
// src_pitch bytes apart). For YUY2 and UYVY, src - 2 must be readable when x is odd (the texel
// pair's first half), as it is in a level laid out by D3D9's rules. For the block decodes, src
// points at the block holding texel (x, y), x is a multiple of 4 and rows of blocks are src_pitch
// bytes apart.
ConvertedRows convert_upload(Upload upload, const uint8_t *src, size_t src_pitch, int32_t x, uint32_t width,
                             uint32_t height);

// UPDATE_IMAGE of a rectangle of texels in D3D9's layout of `format`: copied, or converted first.
void send_texels(CommandStream &commands, const FormatInfo &format, uint32_t image, uint32_t level, uint32_t layer,
                 int32_t x, int32_t y, uint32_t width, uint32_t height, const uint8_t *src, size_t src_pitch,
                 uint32_t flags = 0);

} // namespace novem
