// Images and the framebuffers that render into them. An image is a texture (render targets and
// sampled images) or a renderbuffer (depth/stencil that is never sampled). A framebuffer object
// is made for each combination of colour targets 0..3 (each an image, a level and a cube face) and
// depth-stencil the first time it is bound (colour target N at GL_COLOR_ATTACHMENTN, draw buffer
// N), and kept until one of its images is destroyed. READ_IMAGE reads through the same cache:
// (image, level, face) for color and (0, image) for depth.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "gl_allocation.hpp"
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
  uint32_t samples = 1; // > 1: multisampled (GL_TEXTURE_2D_MULTISAMPLE or a multisampled renderbuffer)
  uint32_t type = NV_IMAGE_TYPE_2D;
  bool sampled = false;
  // ABI 5: a view of the texels as format->srgb_format (sRGB reads and writes); 0 for none.
  GLuint srgb_view = 0;
  nv_cmd_create_image created{}; // what made it, to make it again (rename)
};

class Framebuffers {
public:
  explicit Framebuffers(const NovemGL &gl) : gl_(gl) {}
  // The context's limits on images (gl_allocation.hpp), once the context is current.
  void query_limits() { limits_ = StorageLimits::query(gl_); }

  // Makes the image `a` describes and puts it under a.image, destroying the one there. False,
  // with why in one phrase, when it cannot be made (past the context's limits, GL out of memory,
  // or not an image at all): then nothing was made and the handle keeps what it had.
  bool create_image(const nv_cmd_create_image &a, std::string &why);
  void destroy_image(uint32_t handle); // and every framebuffer it is attached to
  // Gives a one-level 2D texture that is never a target fresh storage under the same handle (the
  // old texture lives on in GL until the draws queued with it are done); false for other images,
  // and when GL has no memory for the fresh one (the old one stays).
  bool rename_image(uint32_t handle);
  const Image *image(uint32_t handle) const;
  // A colour target: a level of a layer (cube face) of an image (ABI 5).
  struct Target {
    uint32_t image = 0, level = 0, layer = 0;
    auto operator<=>(const Target &) const = default;
  };
  using Colors = std::array<Target, NV_MAX_COLOR_TARGETS>;
  // The framebuffer for the targets, created on first use; 0 when all are 0 or it is incomplete.
  // srgb (ABI 5): colour targets with an sRGB view are attached through it (with
  // GL_FRAMEBUFFER_SRGB on, draws and clears encode).
  GLuint framebuffer(const Colors &colors, uint32_t depth_stencil, bool srgb = false);
  GLuint framebuffer(Target color, uint32_t depth_stencil) { return framebuffer(Colors{color}, depth_stencil); }
  void clear();

private:
  struct Key {
    Colors colors;
    uint32_t depth_stencil;
    bool srgb;
    auto operator<=>(const Key &) const = default;
  };
  void delete_image(const Image &img);

  const NovemGL &gl_;
  StorageLimits limits_;
  std::unordered_map<uint32_t, Image> images_;
  std::map<Key, GLuint> framebuffers_; // 0: incomplete (reported once)
};

} // namespace novem_gl
