#include "gl_allocation.hpp"

#include <algorithm>

#include "gl_log.hpp"

namespace novem_gl {

StorageLimits StorageLimits::query(const NovemGL &gl) {
  StorageLimits l;
  gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, &l.texture_2d);
  gl.GetIntegerv(GL_MAX_CUBE_MAP_TEXTURE_SIZE, &l.texture_cube);
  gl.GetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &l.texture_3d);
  gl.GetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &l.renderbuffer);
  GLint counts[3] = {1, 1, 1};
  gl.GetIntegerv(GL_MAX_SAMPLES, &counts[0]);
  gl.GetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &counts[1]);
  gl.GetIntegerv(GL_MAX_DEPTH_TEXTURE_SAMPLES, &counts[2]);
  l.samples = std::min({counts[0], counts[1], counts[2]});
  return l;
}

const char *StorageLimits::refuses(const nv_cmd_create_image &a, uint32_t depth, bool as_renderbuffer) const {
  const uint64_t largest = std::max<uint64_t>(a.width, a.height);
  if (as_renderbuffer) {
    if (largest > uint64_t(renderbuffer)) return "larger than GL_MAX_RENDERBUFFER_SIZE";
  } else if (a.type == NV_IMAGE_TYPE_CUBE) {
    if (largest > uint64_t(texture_cube)) return "larger than GL_MAX_CUBE_MAP_TEXTURE_SIZE";
  } else if (a.type == NV_IMAGE_TYPE_3D) {
    if (std::max<uint64_t>(largest, depth) > uint64_t(texture_3d)) return "larger than GL_MAX_3D_TEXTURE_SIZE";
  } else if (largest > uint64_t(texture_2d)) {
    return "larger than GL_MAX_TEXTURE_SIZE";
  }
  if (a.samples > 1 && a.samples > uint32_t(samples)) return "more samples than GL_MAX_SAMPLES";
  return nullptr;
}

void clear_errors(const NovemGL &gl, const char *before) {
  for (GLenum e; (e = gl.GetError()) != GL_NO_ERROR;) log("GL error 0x%04x before %s", e, before);
}

bool storage_failed(const NovemGL &gl, const char *call) {
  bool failed = false;
  for (GLenum e; (e = gl.GetError()) != GL_NO_ERROR;) {
    failed = true;
    if (e != GL_OUT_OF_MEMORY) log("GL error 0x%04x in %s", e, call);
  }
  return failed;
}

} // namespace novem_gl
