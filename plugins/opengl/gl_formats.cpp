#include "gl_formats.hpp"

#include "gl_vertex_format.hpp"
#include "novem/backend.h"

namespace novem_gl {

namespace {

// B8G8R8A8 is stored as RGBA8 and read back as BGRA bytes: memory holds B, G, R, A, as in D3D9
// and the Vulkan plugin. R5G6B5 (D3DFMT_R5G6B5) is a 16-bit word with red in the high bits, which
// is GL's RGB + UNSIGNED_SHORT_5_6_5. D24S8 reads back as one 32-bit word, depth in the high 24
// bits and stencil in the low 8, as D3DFMT_D24S8 lays it out.
constexpr ImageFormat kB8G8R8A8 = {GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE, 4, false, false};
constexpr ImageFormat kR5G6B5 = {GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2, false, false};
constexpr ImageFormat kD16 = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 2, true, false};
constexpr ImageFormat kD24S8 = {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4, true, true};

// D3DCOLOR (bytes B, G, R, A) read as (R, G, B, A): GL_BGRA as the size does exactly that.
constexpr VertexFormat kColor = {GL_BGRA, GL_UNSIGNED_BYTE, GL_TRUE};
constexpr VertexFormat kFloat1 = {1, GL_FLOAT, GL_FALSE};
constexpr VertexFormat kFloat2 = {2, GL_FLOAT, GL_FALSE};
constexpr VertexFormat kFloat3 = {3, GL_FLOAT, GL_FALSE};
constexpr VertexFormat kFloat4 = {4, GL_FLOAT, GL_FALSE};

GLint query(const NovemGL &gl, GLenum internal_format, GLenum pname) {
  GLint value = GL_NONE;
  gl.GetInternalformativ(GL_TEXTURE_2D, internal_format, pname, 1, &value);
  return value;
}

} // namespace

const ImageFormat *image_format(uint32_t format) {
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM: return &kB8G8R8A8;
  case NV_FORMAT_R5G6B5_UNORM: return &kR5G6B5;
  case NV_FORMAT_D16_UNORM: return &kD16;
  case NV_FORMAT_D24_UNORM_S8_UINT: return &kD24S8;
  default: return nullptr;
  }
}

const VertexFormat *vertex_format(uint32_t format) {
  switch (format) {
  case NV_FORMAT_B8G8R8A8_UNORM: return &kColor;
  case NV_FORMAT_R32_SFLOAT: return &kFloat1;
  case NV_FORMAT_R32G32_SFLOAT: return &kFloat2;
  case NV_FORMAT_R32G32B32_SFLOAT: return &kFloat3;
  case NV_FORMAT_R32G32B32A32_SFLOAT: return &kFloat4;
  default: return vertex_data_format(format);
  }
}

uint32_t format_support(const NovemGL &gl, uint32_t format) {
  uint32_t bits = vertex_format(format) ? NV_SUPPORT_VERTEX : 0; // all core since GL 3.2
  const ImageFormat *f = image_format(format);
  if (!f || query(gl, f->internal_format, GL_INTERNALFORMAT_SUPPORTED) != GL_TRUE) return bits;
  if (f->depth) {
    if (query(gl, f->internal_format, GL_DEPTH_RENDERABLE) == GL_TRUE) bits |= NV_SUPPORT_DEPTH_STENCIL;
  } else {
    if (query(gl, f->internal_format, GL_COLOR_RENDERABLE) == GL_TRUE) bits |= NV_SUPPORT_RENDER_TARGET;
    if (query(gl, f->internal_format, GL_FRAMEBUFFER_BLEND) != GL_NONE) bits |= NV_SUPPORT_BLEND;
  }
  if (query(gl, f->internal_format, GL_FRAGMENT_TEXTURE) != GL_NONE) bits |= NV_SUPPORT_SAMPLED;
  return bits;
}

} // namespace novem_gl
