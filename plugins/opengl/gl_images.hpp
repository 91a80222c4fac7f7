// The GL plugin's images under their handles. An image is a texture (render targets and sampled
// images) or a renderbuffer (depth/stencil that is never sampled); a texture with an sRGB internal
// format also has a view of that format for sRGB reads and writes.
#pragma once

#include <cstdint>
#include <string>

#include "gl_allocation.hpp"
#include "gl_formats.hpp"
#include "novem/command_checks.hpp"
#include "novem/commands.h"
#include "novem/handle_table.hpp"
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

  // What the contract's checks of a command read of it (novem/command_checks.hpp).
  novem::checks::ImageShape shape() const {
    return {width, height, depth, levels, type == NV_IMAGE_TYPE_CUBE ? 6u : 1u, type, nv_format,
            sampled && !renderbuffer && !format->depth, format->depth, samples,
            sampled && !renderbuffer && format->depth};
  }
};

class Images {
public:
  Images(const NovemGL &gl, novem::ContractViolations &violations) : gl_(gl), table_("image", violations) {}
  // The context's limits on images (gl_allocation.hpp), once the context is current.
  void query_limits() { limits_ = StorageLimits::query(gl_); }

  // Whether CREATE_IMAGE may use the handle (novem/handle_table.hpp: a violation otherwise).
  bool vacant(uint32_t handle) { return table_.vacant(handle, NV_OP_CREATE_IMAGE); }
  // Makes the image `a` describes under a.image, which is vacant(). False, with why in one
  // phrase, when it cannot be made (past the context's limits, GL out of memory, or not an image
  // at all): then nothing was made.
  bool create(const nv_cmd_create_image &a, std::string &why);
  // Deletes the image (DESTROY_IMAGE); false, with the violation reported, when the handle names none.
  bool destroy(uint32_t handle);
  // Gives a one-level 2D texture that is never a target fresh storage under the same handle (the
  // old texture lives on in GL until the draws queued with it are done); false for other images,
  // and when GL has no memory for the fresh one (the old one stays).
  bool rename(uint32_t handle);

  const Image *find(uint32_t handle) const { return table_.find(handle); } // quiet
  // For a command that acts on the image: a handle naming none is a violation.
  const Image *get(uint32_t handle, uint16_t opcode) { return table_.get(handle, opcode); }

  void clear(); // deletes every GL object; the context must be current

private:
  bool make(const nv_cmd_create_image &a, Image &img, std::string &why);
  void delete_gl_objects(const Image &img);

  const NovemGL &gl_;
  StorageLimits limits_;
  novem::HandleTable<Image> table_;
};

} // namespace novem_gl
