// BLIT_IMAGE (colour images; ABI 5: depth-stencil images), FILL_IMAGE and POINT mip generation on GL.
#include <algorithm>

#include "gl_executor.hpp"
#include "gl_log.hpp"

namespace novem_gl {

// Attaches a level of a colour texture to a copy framebuffer's colour attachment 0 (0 detaches);
// a cube face is a layer of the cube map (GL 4.5: the layer selects the face).
void Executor::attach_copy(GLuint fbo, const Image *img, uint32_t level, uint32_t layer) {
  if (img && img->type == NV_IMAGE_TYPE_CUBE)
    gl_.NamedFramebufferTextureLayer(fbo, GL_COLOR_ATTACHMENT0, img->name, GLint(level), GLint(layer));
  else
    gl_.NamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, img ? img->name : 0, GLint(level));
}

// ABI 5: the whole of one depth-stencil image into another of the same format and size (a
// nearest blit of depth and stencil between their framebuffers).
void Executor::copy_depth_stencil(const Image &src, const Image &dst, const nv_cmd_blit_image &a) {
  // checks::blit_image has seen that both are whole images alike.
  const GLuint read = framebuffers_.framebuffer(Framebuffers::Target{}, a.src),
               draw = framebuffers_.framebuffer(Framebuffers::Target{}, a.dst);
  if (!read || !draw) return;
  // Blits obey the scissor test only (not the depth or stencil masks): open it for the image.
  state_.scissor(a.dst_rect);
  const GLbitfield mask = GL_DEPTH_BUFFER_BIT | (src.format->stencil ? GL_STENCIL_BUFFER_BIT : 0);
  gl_.BlitNamedFramebuffer(read, draw, 0, 0, GLint(src.width), GLint(src.height), 0, 0, GLint(dst.width),
                           GLint(dst.height), mask, GL_NEAREST);
  command_state_.mark(novem::kScissorPart);
  unflushed_ = true;
}

void Executor::blit_image(const nv_cmd_blit_image &a, const nv_cmd_header *) {
  const Image *src = images_.get(a.src, NV_OP_BLIT_IMAGE), *dst = images_.get(a.dst, NV_OP_BLIT_IMAGE);
  if (!src || !dst) return;
  if (const char *why = novem::checks::blit_image(a, src->shape(), dst->shape()))
    return violations_.report(NV_OP_BLIT_IMAGE, why);
  if (src->format->depth) return copy_depth_stencil(*src, *dst, a);
  // The copy framebuffers attach textures: a multisampled renderbuffer is read by resolving it
  // through its own framebuffer, which this path does not do.
  if (src->renderbuffer || dst->renderbuffer)
    return log("BLIT_IMAGE %u -> %u: a renderbuffer cannot be copied here", a.src, a.dst);
  attach_copy(copy_fbos_.read, src, a.src_level, a.src_layer);
  gl_.NamedFramebufferReadBuffer(copy_fbos_.read, GL_COLOR_ATTACHMENT0);
  attach_copy(copy_fbos_.draw, dst, a.dst_level, a.dst_layer);
  gl_.NamedFramebufferDrawBuffer(copy_fbos_.draw, GL_COLOR_ATTACHMENT0);
  // Blits obey the scissor test and the colour mask: open both for the destination rectangle.
  state_.scissor(a.dst_rect);
  state_.color_mask(0xF);
  pipeline_dirty_ = true; // the next draw puts the pipeline's mask back
  const nv_rect &s = a.src_rect, &d = a.dst_rect;
  // Row 0 is the first row in memory for both (the top), so no flip. From a multisampled image
  // (same size) the blit resolves.
  gl_.BlitNamedFramebuffer(copy_fbos_.read, copy_fbos_.draw, s.x, s.y, s.x + s.width, s.y + s.height, d.x, d.y,
                           d.x + d.width, d.y + d.height, GL_COLOR_BUFFER_BIT,
                           a.filter == NV_FILTER_LINEAR ? GL_LINEAR : GL_NEAREST);
  command_state_.mark(novem::kScissorPart);
  // Detached again, so that deleting either texture frees it.
  attach_copy(copy_fbos_.read, nullptr, 0, 0);
  attach_copy(copy_fbos_.draw, nullptr, 0, 0);
  unflushed_ = true;
}

// Each level of each face from the one above by a nearest blit (GENERATE_MIPS with POINT).
void Executor::point_mips(const Image &img) {
  gl_.NamedFramebufferReadBuffer(copy_fbos_.read, GL_COLOR_ATTACHMENT0);
  gl_.NamedFramebufferDrawBuffer(copy_fbos_.draw, GL_COLOR_ATTACHMENT0);
  state_.color_mask(0xF);
  pipeline_dirty_ = true; // the next draw puts the pipeline's mask back
  const uint32_t faces = img.type == NV_IMAGE_TYPE_CUBE ? 6 : 1;
  for (uint32_t face = 0; face < faces; ++face)
    for (uint32_t level = 1; level < img.levels; ++level) {
      const GLint sw = GLint(std::max(img.width >> (level - 1), 1u)), sh = GLint(std::max(img.height >> (level - 1), 1u));
      const GLint dw = GLint(std::max(img.width >> level, 1u)), dh = GLint(std::max(img.height >> level, 1u));
      attach_copy(copy_fbos_.read, &img, level - 1, face);
      attach_copy(copy_fbos_.draw, &img, level, face);
      state_.scissor(nv_rect{0, 0, dw, dh});
      gl_.BlitNamedFramebuffer(copy_fbos_.read, copy_fbos_.draw, 0, 0, sw, sh, 0, 0, dw, dh, GL_COLOR_BUFFER_BIT,
                               GL_NEAREST);
    }
  command_state_.mark(novem::kScissorPart);
  attach_copy(copy_fbos_.read, nullptr, 0, 0);
  attach_copy(copy_fbos_.draw, nullptr, 0, 0);
}

void Executor::fill_image(const nv_cmd_fill_image &a, const nv_cmd_header *) {
  const Image *img = images_.get(a.image, NV_OP_FILL_IMAGE);
  if (!img) return;
  if (const char *why = novem::checks::fill_image(a, img->shape())) return violations_.report(NV_OP_FILL_IMAGE, why);
  if (img->renderbuffer) return log("FILL_IMAGE %u: a renderbuffer cannot be filled here", a.image);
  // The colour as floats, converted to the texture's format as a clear converts it; no scissor or
  // mask applies. A cube map's face is its z.
  gl_.ClearTexSubImage(img->name, GLint(a.level), a.rect.x, a.rect.y, GLint(a.layer), a.rect.width, a.rect.height, 1, GL_RGBA,
                       GL_FLOAT, a.color);
  unflushed_ = true;
}

} // namespace novem_gl
