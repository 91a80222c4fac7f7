// The framebuffer objects that render into images (gl_images.hpp), keyed by their attachments. One
// is made for each combination of colour targets 0..3 (each an image, a level and a cube face) and
// depth-stencil the first time it is bound (colour target N at GL_COLOR_ATTACHMENTN, draw buffer
// N), and kept until one of its images is destroyed or renamed (forget). READ_IMAGE reads through
// the same cache: (image, level, face) for color and (0, image) for depth.
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include "gl_images.hpp"
#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

class Framebuffers {
public:
  Framebuffers(const NovemGL &gl, const Images &images) : gl_(gl), images_(images) {}

  // Deletes every framebuffer the image is attached to: it is about to be deleted, or renamed.
  // Returns whether any was.
  bool forget(uint32_t image);
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

  const NovemGL &gl_;
  const Images &images_;
  std::map<Key, GLuint> framebuffers_; // 0: incomplete (reported once)
};

} // namespace novem_gl
