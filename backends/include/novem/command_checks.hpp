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

// What the checks need to know of an image, whatever the plugin keeps.
struct ImageShape {
  uint32_t width = 0, height = 0, depth = 1; // of level 0
  uint32_t levels = 1;
  uint32_t layers = 1;   // faces of a cube, else 1 (a 3D image's slices are its depth)
  uint32_t type = NV_IMAGE_TYPE_2D;
  uint32_t format = 0;   // nv_format: CREATE_IMAGE's, the payload's layout (commands.h)
  bool sampled_colour = false; // only sampled colour images take texels
  bool depth_stencil = false;
  uint32_t samples = 1;
  bool sampled_depth = false; // a depth image that is sampled too (a texture in GL)
};

// The rectangle lies inside level `level` of face `layer` and is not empty.
inline bool inside(const ImageShape &img, uint32_t level, uint32_t layer, const nv_rect &r) {
  if (level >= img.levels || layer >= img.layers) return false;
  const int64_t w = std::max(img.width >> level, 1u), h = std::max(img.height >> level, 1u);
  return r.x >= 0 && r.y >= 0 && r.width > 0 && r.height > 0 && int64_t(r.x) + r.width <= w && int64_t(r.y) + r.height <= h;
}

inline const char *set_texture(const nv_cmd_set_texture &a) {
  if (!kEnabled) return nullptr;
  if (a.stage >= NV_STAGE_COUNT) return "no such stage";
  if (a.slot >= (a.stage == NV_STAGE_PIXEL ? NV_MAX_PIXEL_TEXTURES : NV_MAX_VERTEX_TEXTURES)) return "no such texture slot";
  if (a.type > NV_IMAGE_TYPE_3D) return "no such image type";
  return nullptr;
}

inline const char *set_vertex_buffer(const nv_cmd_set_vertex_buffer &a) {
  if (!kEnabled) return nullptr;
  if (a.slot >= NV_MAX_VERTEX_BUFFERS) return "no such vertex buffer slot";
  return nullptr;
}

// `payload`: the bytes the record holds after the command's struct.
inline const char *set_constants(const nv_cmd_set_constants &a, uint64_t payload) {
  if (!kEnabled) return nullptr;
  if (a.stage >= NV_STAGE_COUNT) return "no such stage";
  if (a.size > payload) return "the block runs past the record";
  return nullptr;
}

inline const char *update_constants(const nv_cmd_update_constants &a, uint64_t payload) {
  if (!kEnabled) return nullptr;
  if (a.stage >= NV_STAGE_COUNT) return "no such stage";
  if (a.size > payload) return "the bytes run past the record";
  return nullptr;
}

// `payload`: the bytes the record holds after the command's struct.
inline const char *create_shader(const nv_cmd_create_shader &a, uint64_t payload) {
  if (!kEnabled) return nullptr;
  if (a.stage >= NV_STAGE_COUNT) return "no such stage";
  if (uint64_t(a.word_count) * 4 > payload) return "word_count runs past the record";
  return nullptr;
}

// A single-sampled colour image, and a source rectangle inside it (width 0: the whole image).
inline const char *present(const nv_cmd_present &a, const ImageShape &img) {
  if (!kEnabled) return nullptr;
  if (img.depth_stencil || img.samples > 1) return "only a single-sampled colour image can be presented";
  if (a.src_rect.width && !inside(img, 0, 0, a.src_rect)) return "the source rectangle is outside the image";
  return nullptr;
}

inline const char *begin_query(const nv_cmd_begin_query &a) {
  if (!kEnabled) return nullptr;
  if (a.slot >= NV_MAX_QUERIES) return "no such query slot";
  if (a.type != NV_QUERY_OCCLUSION) return "only occlusion queries begin";
  return nullptr;
}

inline const char *end_query(const nv_cmd_end_query &a) {
  if (!kEnabled) return nullptr;
  if (a.slot >= NV_MAX_QUERIES) return "no such query slot";
  if (a.type != NV_QUERY_OCCLUSION && a.type != NV_QUERY_TIMESTAMP) return "no such query type";
  return nullptr;
}

// Neither API makes a compressed format's levels: the frontend decompresses nothing for it.
inline const char *generate_mips(const ImageShape &img) {
  if (!kEnabled) return nullptr;
  if (!img.sampled_colour || image_layout(img.format).block > 1) return "the image is not a sampled, uncompressed colour image";
  return nullptr;
}

// The images SET_RENDER_TARGETS binds, as `find(handle)` gives them (a pointer to the plugin's
// image, with shape(); nullptr where the handle names none, which the draw reports): colour images
// at a level and face they have, a depth-stencil image, and one sample count for all (a render
// pass has one; D3D9 requires the depth-stencil surface's and every target's multisample type to
// match, and the frontend leaves out what does not).
template <class Find> const char *render_targets(const nv_cmd_set_render_targets &a, Find &&find) {
  if (!kEnabled) return nullptr;
  uint32_t samples = 0;
  for (uint32_t i = 0; i <= NV_MAX_COLOR_TARGETS; ++i) {
    const uint32_t handle = i == 0 ? a.color : i < NV_MAX_COLOR_TARGETS ? a.more_colors[i - 1] : a.depth_stencil;
    const auto *image = handle ? find(handle) : nullptr;
    if (!image) continue;
    const ImageShape img = image->shape();
    if (i < NV_MAX_COLOR_TARGETS) {
      if (img.depth_stencil) return "a colour target is a depth-stencil image";
      if (a.color_levels[i] >= img.levels || a.color_layers[i] >= img.layers)
        return "a colour target's level or face is not in its image";
    } else if (!img.depth_stencil) {
      return "the depth-stencil target is not a depth-stencil image";
    }
    if (samples && img.samples != samples) return "the targets differ in sample count";
    samples = img.samples;
  }
  return nullptr;
}

// A buffer of 2- or 4-byte indices, bound at a multiple of the index size (or no buffer).
inline const char *set_index_buffer(const nv_cmd_set_index_buffer &a) {
  if (!kEnabled || !a.buffer) return nullptr;
  if (a.index_size != 2 && a.index_size != 4) return "index_size must be 2 or 4";
  if (a.offset % a.index_size) return "offset is not a multiple of index_size";
  return nullptr;
}

// `payload`: the bytes the record holds after the command's struct. Sampled colour images take
// texels, and sampled single-sampled D16 and D32F depth images depth values (D3D9's lockable
// depth formats: what a lock wrote).
inline const char *update_image(const nv_cmd_update_image &a, const ImageShape &img, uint64_t payload) {
  if (!kEnabled) return nullptr;
  const bool depth_values = img.sampled_depth && img.samples == 1 &&
                            (img.format == NV_FORMAT_D16_UNORM || img.format == NV_FORMAT_D32_SFLOAT);
  if (!img.sampled_colour && !depth_values) return "the image is not a sampled colour image";
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

// `texel_bytes`: what one texel of the image takes in the readback area; `readback`: its size.
inline const char *read_image(const nv_cmd_read_image &a, const ImageShape &img, uint64_t texel_bytes, uint64_t readback) {
  if (!kEnabled) return nullptr;
  if (img.samples > 1) return "a multisampled image cannot be read";
  if (a.level >= img.levels || a.layer >= img.layers) return "no such level or face";
  if (!inside(img, a.level, a.layer, a.rect)) return "the rectangle is empty or outside the level";
  if (uint64_t(a.rect.width) * uint64_t(a.rect.height) * texel_bytes > readback) return "the channel's readback area is too small";
  return nullptr;
}

inline const char *fill_image(const nv_cmd_fill_image &a, const ImageShape &img) {
  if (!kEnabled) return nullptr;
  if (img.depth_stencil) return "not a colour image";
  if (!inside(img, a.level, a.layer, a.rect)) return "the rectangle is empty or outside the level";
  return nullptr;
}

// Between two colour images, or the whole of two depth-stencil images alike.
inline const char *blit_image(const nv_cmd_blit_image &a, const ImageShape &src, const ImageShape &dst) {
  if (!kEnabled) return nullptr;
  if (a.src == a.dst) return "needs two different images";
  if (src.depth_stencil && dst.depth_stencil) {
    auto whole = [](const ImageShape &img, const nv_rect &r) {
      return r.x == 0 && r.y == 0 && uint32_t(r.width) == img.width && uint32_t(r.height) == img.height;
    };
    if (src.format != dst.format || src.width != dst.width || src.height != dst.height || src.samples != dst.samples ||
        a.src_level != 0 || a.dst_level != 0 || !whole(src, a.src_rect) || !whole(dst, a.dst_rect))
      return "a depth-stencil copy needs two whole images of one format and size";
    return nullptr;
  }
  if (src.depth_stencil || dst.depth_stencil) return "needs two colour images";
  if (src.format != dst.format) return "the images' formats differ";
  if (!inside(src, a.src_level, a.src_layer, a.src_rect) || !inside(dst, a.dst_level, a.dst_layer, a.dst_rect))
    return "a rectangle is empty or outside its level";
  if (dst.samples > 1) return "the destination is multisampled";
  if (src.samples > 1 && (a.src_rect.width != a.dst_rect.width || a.src_rect.height != a.dst_rect.height))
    return "a resolve cannot scale";
  return nullptr;
}

} // namespace novem::checks
