// Images and the framebuffers that render into them. An image is a texture (render targets and
// sampled images) or a renderbuffer (depth/stencil that is never sampled). A framebuffer object
// is made for each (color, depth-stencil) combination the first time it is bound, and kept until
// one of its images is destroyed. READ_IMAGE reads through the same cache: (image, 0) for color
// and (0, image) for depth.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "gl_formats.hpp"
#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct Image {
  GLuint name = 0;
  bool renderbuffer = false;
  const ImageFormat *format = nullptr;
  uint32_t nv_format = 0; // the layout of its uploads
  uint32_t width = 0, height = 0;
  uint32_t depth = 1; // slices of a 3D image
  uint32_t levels = 1;
  uint32_t type = NV_IMAGE_TYPE_2D;
  bool sampled = false;
};

class Framebuffers {
public:
  explicit Framebuffers(const NovemGL &gl) : gl_(gl) {}

  void create_image(const nv_cmd_create_image &a);
  void destroy_image(uint32_t handle); // and every framebuffer it is attached to
  const Image *image(uint32_t handle) const;
  // The framebuffer for the pair, created on first use; 0 when both are 0 or it is incomplete.
  GLuint framebuffer(uint32_t color, uint32_t depth_stencil);
  void clear();

private:
  static uint64_t key(uint32_t color, uint32_t depth) { return uint64_t(color) << 32 | depth; }

  const NovemGL &gl_;
  std::unordered_map<uint32_t, Image> images_;
  std::unordered_map<uint64_t, GLuint> framebuffers_; // 0: incomplete (reported once)
};

} // namespace novem_gl
