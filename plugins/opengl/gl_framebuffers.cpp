#include "gl_framebuffers.hpp"

#include <algorithm>
#include <string>

#include "gl_allocation.hpp"
#include "gl_log.hpp"

namespace novem_gl {

namespace {
constexpr GLenum kTargets[3] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D};
} // namespace

bool Framebuffers::create_image(const nv_cmd_create_image &a, std::string &why) {
  const ImageFormat *format = image_format(a.format);
  if (!format || !a.width || !a.height) {
    why = "format " + std::to_string(a.format) + " at " + std::to_string(a.width) + "x" + std::to_string(a.height) +
          " is no image";
    return false;
  }
  Image img;
  img.created = a;
  img.format = format;
  img.nv_format = a.format;
  img.width = a.width;
  img.height = a.height;
  img.renderbuffer = format->depth && !(a.usage & NV_IMAGE_SAMPLED);
  img.sampled = (a.usage & NV_IMAGE_SAMPLED) != 0;
  img.type = a.type;
  img.depth = a.type == NV_IMAGE_TYPE_3D && a.depth ? a.depth : 1;
  // Only 2D images are targets, and (ABI 5) cube render-target textures.
  const bool cube_target = a.type == NV_IMAGE_TYPE_CUBE && img.sampled;
  if (a.type > NV_IMAGE_TYPE_3D ||
      (a.type != NV_IMAGE_TYPE_2D && (format->depth || img.renderbuffer ||
                                      ((a.usage & NV_IMAGE_RENDER_TARGET) && !cube_target))) ||
      (a.type == NV_IMAGE_TYPE_CUBE && a.width != a.height)) {
    why = "type " + std::to_string(a.type) + " cannot have usage " + std::to_string(a.usage) + " at " +
          std::to_string(a.width) + "x" + std::to_string(a.height);
    return false;
  }
  if (const char *past = limits_.refuses(a, img.depth, img.renderbuffer || (a.samples > 1 && format->depth))) {
    why = std::string("an image of ") + std::to_string(a.width) + "x" + std::to_string(a.height) + " is " + past;
    return false;
  }
  uint32_t max_levels = 1;
  while ((std::max({a.width, a.height, img.depth}) >> max_levels) != 0) ++max_levels;
  img.levels = std::clamp<uint32_t>(a.levels, 1, max_levels);
  // Render-target textures keep their chain (FBOs attach the level chosen); other targets have one.
  if ((a.usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL)) && !(a.usage & NV_IMAGE_SAMPLED)) img.levels = 1;
  clear_errors(gl_, "CREATE_IMAGE");
  if (a.samples > 1) {
    // A multisampled target (ABI 4): never sampled, one level.
    img.samples = a.samples;
    img.sampled = false;
    img.levels = 1;
    if (format->depth) {
      img.renderbuffer = true;
      gl_.CreateRenderbuffers(1, &img.name);
      gl_.NamedRenderbufferStorageMultisample(img.name, GLsizei(a.samples), format->internal_format, GLsizei(a.width),
                                              GLsizei(a.height));
    } else {
      gl_.CreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &img.name);
      gl_.TextureStorage2DMultisample(img.name, GLsizei(a.samples), format->internal_format, GLsizei(a.width),
                                      GLsizei(a.height), GL_TRUE);
    }
  } else if (img.renderbuffer) {
    gl_.CreateRenderbuffers(1, &img.name);
    gl_.NamedRenderbufferStorage(img.name, format->internal_format, GLsizei(a.width), GLsizei(a.height));
  } else {
    gl_.CreateTextures(kTargets[a.type], 1, &img.name);
    if (a.type == NV_IMAGE_TYPE_3D)
      gl_.TextureStorage3D(img.name, GLsizei(img.levels), format->internal_format, GLsizei(a.width),
                           GLsizei(a.height), GLsizei(img.depth));
    else
      gl_.TextureStorage2D(img.name, GLsizei(img.levels), format->internal_format, GLsizei(a.width), GLsizei(a.height));
  }
  // Nothing else may touch an object whose storage GL could not give (a view of it is invalid).
  if (storage_failed(gl_, "CREATE_IMAGE")) {
    delete_image(img);
    why = "GL has no memory for " + std::to_string(a.width) + "x" + std::to_string(a.height) + " texels of " +
          std::to_string(img.levels) + " levels (GL_OUT_OF_MEMORY)";
    return false;
  }
  if (img.samples > 1) {
    if (!format->depth && format->srgb_format != GL_NONE) { // ABI 5: sRGB writes
      gl_.GenTextures(1, &img.srgb_view);
      gl_.TextureView(img.srgb_view, GL_TEXTURE_2D_MULTISAMPLE, img.name, format->srgb_format, 0, 1, 0, 1);
    }
  } else if (!img.renderbuffer) {
    // Immutable storage: every level exists, so the texture is complete whatever the sampler.
    gl_.TextureParameteri(img.name, GL_TEXTURE_MAX_LEVEL, GLint(img.levels - 1));
    // Sampling reads what commands.h defines for the format (D3D9's missing channels); X8 formats
    // read alpha as 1; depth textures read (D, D, D, D) (a comparison gives one value anyway).
    GLint swizzle[4] = {format->swizzle[0], format->swizzle[1], format->swizzle[2], format->swizzle[3]};
    if (format->depth) swizzle[0] = swizzle[1] = swizzle[2] = swizzle[3] = GL_RED;
    if ((a.usage & NV_IMAGE_ALPHA_ONE) && !format->depth) swizzle[3] = GL_ONE;
    gl_.TextureParameteriv(img.name, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
    // ABI 5: the sRGB view (immutable storage of a view-compatible format), sampled the same way.
    if (format->srgb_format != GL_NONE) {
      gl_.GenTextures(1, &img.srgb_view);
      gl_.TextureView(img.srgb_view, kTargets[a.type], img.name, format->srgb_format, 0, img.levels, 0,
                      a.type == NV_IMAGE_TYPE_CUBE ? 6 : 1);
      gl_.TextureParameteri(img.srgb_view, GL_TEXTURE_MAX_LEVEL, GLint(img.levels - 1));
      gl_.TextureParameteriv(img.srgb_view, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
    }
  }
  destroy_image(a.image);
  images_[a.image] = img;
  return true;
}

bool Framebuffers::rename_image(uint32_t handle) {
  auto it = images_.find(handle);
  if (it == images_.end()) return false;
  const Image &img = it->second;
  if (img.renderbuffer || !img.sampled || img.samples > 1 || img.type != NV_IMAGE_TYPE_2D || img.levels != 1 ||
      (img.created.usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL)))
    return false;
  // A copy: create_image replaces img. No memory for the fresh texture: the old one stays, and the
  // caller writes into it (GL orders the write after the draws that read it).
  std::string why;
  return create_image(nv_cmd_create_image{img.created}, why);
}

void Framebuffers::destroy_image(uint32_t handle) {
  auto it = images_.find(handle);
  if (it == images_.end()) return;
  for (auto f = framebuffers_.begin(); f != framebuffers_.end();) {
    const Colors &c = f->first.colors;
    if (f->first.depth_stencil == handle ||
        std::any_of(c.begin(), c.end(), [&](const Target &t) { return t.image == handle; })) {
      if (f->second) gl_.DeleteFramebuffers(1, &f->second);
      f = framebuffers_.erase(f);
    } else {
      ++f;
    }
  }
  delete_image(it->second);
  images_.erase(it);
}

void Framebuffers::delete_image(const Image &img) {
  if (img.renderbuffer) {
    gl_.DeleteRenderbuffers(1, &img.name);
    return;
  }
  if (img.srgb_view) gl_.DeleteTextures(1, &img.srgb_view);
  gl_.DeleteTextures(1, &img.name);
}

const Image *Framebuffers::image(uint32_t handle) const {
  auto it = images_.find(handle);
  return it == images_.end() ? nullptr : &it->second;
}

GLuint Framebuffers::framebuffer(const Colors &colors, uint32_t depth_stencil, bool srgb) {
  const Key key{colors, depth_stencil, srgb};
  auto found = framebuffers_.find(key);
  if (found != framebuffers_.end()) return found->second;

  const Image *c[NV_MAX_COLOR_TARGETS];
  bool any = false, wrong = false;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    c[i] = image(colors[i].image);
    any |= c[i] != nullptr;
    wrong |= (colors[i].image && !c[i]) || (c[i] && c[i]->format->depth) ||
             (c[i] && (colors[i].level >= c[i]->levels || colors[i].layer >= (c[i]->type == NV_IMAGE_TYPE_CUBE ? 6u : 1u)));
  }
  const Image *d = image(depth_stencil);
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
  for (auto &[handle, img] : images_) delete_image(img);
  framebuffers_.clear();
  images_.clear();
}

} // namespace novem_gl
