#include "gl_images.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace novem_gl {

namespace {
constexpr GLenum kTargets[3] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D};
} // namespace

bool Images::make(const nv_cmd_create_image &a, Image &img, std::string &why) {
  const ImageFormat *format = image_format(a.format);
  if (!format || !a.width || !a.height) {
    why = "format " + std::to_string(a.format) + " at " + std::to_string(a.width) + "x" + std::to_string(a.height) +
          " is no image";
    return false;
  }
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
    delete_gl_objects(img);
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
  return true;
}

bool Images::create(const nv_cmd_create_image &a, std::string &why) {
  Image img;
  if (!make(a, img, why)) return false;
  table_.insert(a.image, img, NV_OP_CREATE_IMAGE);
  return true;
}

bool Images::destroy(uint32_t handle) {
  const std::optional<Image> img = table_.take(handle, NV_OP_DESTROY_IMAGE);
  if (img) delete_gl_objects(*img);
  return img.has_value();
}

bool Images::rename(uint32_t handle) {
  Image *img = table_.find(handle);
  if (!img || img->renderbuffer || !img->sampled || img->samples > 1 || img->type != NV_IMAGE_TYPE_2D ||
      img->levels != 1 || (img->created.usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL)))
    return false;
  // No memory for the fresh texture: the old one stays, and the caller writes into it (GL orders
  // the write after the draws that read it).
  Image fresh;
  std::string why;
  if (!make(img->created, fresh, why)) return false;
  delete_gl_objects(*img);
  *img = fresh;
  return true;
}

void Images::delete_gl_objects(const Image &img) {
  if (img.renderbuffer) {
    gl_.DeleteRenderbuffers(1, &img.name);
    return;
  }
  if (img.srgb_view) gl_.DeleteTextures(1, &img.srgb_view);
  gl_.DeleteTextures(1, &img.name);
}

void Images::clear() {
  for (auto &[handle, img] : table_) delete_gl_objects(img);
  table_.clear();
}

} // namespace novem_gl
