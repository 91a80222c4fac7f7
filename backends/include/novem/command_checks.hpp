// The checks of a command's own arguments that every plugin makes before it acts, written once:
// a contract violation is a bug in the frontend, reported as one line in the same words on every
// plugin (ContractViolations, handle_table.hpp), and the command does nothing. Each check answers
// nullptr for a well-formed command, else what is wrong.
//
// NOVEM_COMMAND_CHECKS=OFF (CMake) compiles them out: every command is then taken as the frontend
// sent it, which it must get right. That is for measuring what the checks cost; an ill-formed
// command then reaches the plugin's arrays and the driver unchecked.
#pragma once

#include <algorithm>
#include <cstdint>

#include "novem/commands.h"
#include "novem/image_layout.hpp"

#ifndef NOVEM_COMMAND_CHECKS
#define NOVEM_COMMAND_CHECKS 1
#endif

namespace novem::checks {

inline constexpr bool kEnabled = NOVEM_COMMAND_CHECKS != 0;

// What UPDATE_IMAGE needs to know of the image it writes, whatever the plugin keeps.
struct ImageShape {
  uint32_t width = 0, height = 0, depth = 1; // of level 0
  uint32_t levels = 1;
  uint32_t layers = 1;   // faces of a cube, else 1 (a 3D image's slices are its depth)
  uint32_t type = NV_IMAGE_TYPE_2D;
  uint32_t format = 0;   // nv_format: the payload's layout (commands.h)
  bool sampled_colour = false; // only sampled colour images take texels
};

inline const char *set_texture(const nv_cmd_set_texture &a) {
  if (!kEnabled) return nullptr;
  if (a.stage >= NV_STAGE_COUNT) return "no such stage";
  if (a.slot >= (a.stage == NV_STAGE_PIXEL ? NV_MAX_PIXEL_TEXTURES : NV_MAX_VERTEX_TEXTURES)) return "no such texture slot";
  if (a.type > NV_IMAGE_TYPE_3D) return "no such image type";
  return nullptr;
}

// A buffer of 2- or 4-byte indices, bound at a multiple of the index size (or no buffer).
inline const char *set_index_buffer(const nv_cmd_set_index_buffer &a) {
  if (!kEnabled || !a.buffer) return nullptr;
  if (a.index_size != 2 && a.index_size != 4) return "index_size must be 2 or 4";
  if (a.offset % a.index_size) return "offset is not a multiple of index_size";
  return nullptr;
}

// `payload`: the bytes the record holds after the command's struct.
inline const char *update_image(const nv_cmd_update_image &a, const ImageShape &img, uint64_t payload) {
  if (!kEnabled) return nullptr;
  if (!img.sampled_colour) return "the image is not a sampled colour image";
  if (a.level >= img.levels) return "no such mip level";
  const uint32_t layers = img.type == NV_IMAGE_TYPE_3D ? std::max(img.depth >> a.level, 1u) : img.layers;
  if (a.layer >= layers) return "no such face or slice";
  const uint32_t w = std::max(img.width >> a.level, 1u), h = std::max(img.height >> a.level, 1u);
  const nv_rect &r = a.rect;
  if (r.x < 0 || r.y < 0 || r.width <= 0 || r.height <= 0 || uint64_t(r.x) + uint32_t(r.width) > w ||
      uint64_t(r.y) + uint32_t(r.height) > h)
    return "the rectangle is outside the level";
  const ImageLayout layout = image_layout(img.format);
  if (!layout.block_bytes) return "the image has no texel layout";
  const uint32_t b = layout.block;
  if (r.x % b || r.y % b || (r.width % b && uint32_t(r.x + r.width) != w) || (r.height % b && uint32_t(r.y + r.height) != h))
    return "the rectangle is not aligned to the format's blocks";
  const uint64_t row = image_row_bytes(img.format, uint32_t(r.width));
  const uint64_t pitch = a.row_pitch ? a.row_pitch : row;
  if (pitch < row) return "row_pitch is shorter than a row";
  if (pitch % layout.block_bytes) return "row_pitch is not a whole number of texels or blocks";
  if (pitch * (image_block_rows(img.format, uint32_t(r.height)) - 1) + row > payload) return "the rows run past the record";
  return nullptr;
}

} // namespace novem::checks
