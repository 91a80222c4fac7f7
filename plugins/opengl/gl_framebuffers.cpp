#include "gl_framebuffers.hpp"

#include <algorithm>

#include "gl_log.hpp"

namespace novem_gl {

bool Framebuffers::forget(uint32_t image) {
  bool any = false;
  for (auto f = framebuffers_.begin(); f != framebuffers_.end();) {
    const Colors &c = f->first.colors;
    if (f->first.depth_stencil == image ||
        std::any_of(c.begin(), c.end(), [&](const Target &t) { return t.image == image; })) {
      if (f->second) gl_.DeleteFramebuffers(1, &f->second);
      f = framebuffers_.erase(f);
      any = true;
    } else {
      ++f;
    }
  }
  return any;
}

GLuint Framebuffers::framebuffer(const Colors &colors, uint32_t depth_stencil, bool srgb) {
  const Key key{colors, depth_stencil, srgb};
  auto found = framebuffers_.find(key);
  if (found != framebuffers_.end()) return found->second;

  const Image *c[NV_MAX_COLOR_TARGETS];
  bool any = false, wrong = false;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    c[i] = images_.find(colors[i].image);
    any |= c[i] != nullptr;
    wrong |= (colors[i].image && !c[i]) || (c[i] && c[i]->format->depth) ||
             (c[i] && (colors[i].level >= c[i]->levels || colors[i].layer >= (c[i]->type == NV_IMAGE_TYPE_CUBE ? 6u : 1u)));
  }
  const Image *d = images_.find(depth_stencil);
  if (!any && !d) return 0; // nothing (alive) to render into; not remembered
  if (wrong || (depth_stencil && !d) || (d && !d->format->depth)) {
    log("render targets (%u, %u): missing or of the wrong kind", colors[0].image, depth_stencil);
    return 0;
  }
  GLuint fbo = 0;
  gl_.CreateFramebuffers(1, &fbo);
  GLenum draw_buffers[NV_MAX_COLOR_TARGETS];
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    draw_buffers[i] = c[i] ? GL_COLOR_ATTACHMENT0 + i : GL_NONE;
    if (!c[i]) continue;
    const GLuint name = srgb && c[i]->srgb_view ? c[i]->srgb_view : c[i]->name;
    // A cube face is a layer of the cube map (GL 4.5: the layer selects the face).
    if (c[i]->type == NV_IMAGE_TYPE_CUBE)
      gl_.NamedFramebufferTextureLayer(fbo, GL_COLOR_ATTACHMENT0 + i, name, GLint(colors[i].level), GLint(colors[i].layer));
    else
      gl_.NamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0 + i, name, GLint(colors[i].level));
  }
  if (d) {
    GLenum point = d->format->stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT;
    if (d->renderbuffer)
      gl_.NamedFramebufferRenderbuffer(fbo, point, GL_RENDERBUFFER, d->name);
    else
      gl_.NamedFramebufferTexture(fbo, point, d->name, 0);
  }
  gl_.NamedFramebufferDrawBuffers(fbo, NV_MAX_COLOR_TARGETS, draw_buffers);
  gl_.NamedFramebufferReadBuffer(fbo, c[0] ? GL_COLOR_ATTACHMENT0 : GL_NONE);
  GLenum status = gl_.CheckNamedFramebufferStatus(fbo, GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    log("render targets (%u, %u): framebuffer incomplete (0x%04x)", colors[0].image, depth_stencil, status);
    gl_.DeleteFramebuffers(1, &fbo);
    fbo = 0;
  }
  framebuffers_[key] = fbo;
  return fbo;
}

void Framebuffers::clear() {
  for (auto &[k, fbo] : framebuffers_)
    if (fbo) gl_.DeleteFramebuffers(1, &fbo);
  framebuffers_.clear();
}

} // namespace novem_gl
