#include "gl_formats.hpp"

#include <vector>

#include "gl_vertex_format.hpp"
#include "novem/backend.h"

namespace novem_gl {

namespace {

// B8G8R8A8 is stored as RGBA8 and read back as BGRA bytes: memory holds B, G, R, A, as in D3D9
// and the Vulkan plugin. R5G6B5 (D3DFMT_R5G6B5) is a 16-bit word with red in the high bits, which
// is GL's RGB + UNSIGNED_SHORT_5_6_5. D24S8 reads back as one 32-bit word, depth in the high 24
// bits and stencil in the low 8, as D3DFMT_D24S8 lays it out.
constexpr ImageFormat kB8G8R8A8 = {GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE, 4, false, false,
                                   {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}, false, false, GL_SRGB8_ALPHA8};
constexpr ImageFormat kR5G6B5 = {GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2, false, false};
constexpr ImageFormat kD16 = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 2, true, false};
constexpr ImageFormat kD24S8 = {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4, true, true};
constexpr ImageFormat kD32F = {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 4, true, false};

// Texture formats (commands.h gives each layout and what sampling returns). GL's _REV packed
// types put the first component of the format in the low bits: BGRA + 1_5_5_5_REV is D3D9's
// A1R5G5B5 word (B in bits 4..0, A in bit 15), BGRA + 4_4_4_4_REV its A4R4G4B4, BGRA +
// 2_10_10_10_REV its A2R10G10B10 and RGBA + 2_10_10_10_REV its A2B10G10R10. Missing channels
// read 1, luminance is replicated and A8 reads (0, 0, 0, A), through texture swizzles.
constexpr ImageFormat kB5G5R5A1 = {GL_RGB5_A1, GL_BGRA, GL_UNSIGNED_SHORT_1_5_5_5_REV, 2, false, false};
constexpr ImageFormat kB4G4R4A4 = {GL_RGBA4, GL_BGRA, GL_UNSIGNED_SHORT_4_4_4_4_REV, 2, false, false};
constexpr ImageFormat kA8 = {GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, false, false, {GL_ZERO, GL_ZERO, GL_ZERO, GL_RED}};
constexpr ImageFormat kL8 = {GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, false, false, {GL_RED, GL_RED, GL_RED, GL_ONE}};
constexpr ImageFormat kL8A8 = {GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, false, false, {GL_RED, GL_RED, GL_RED, GL_GREEN}};
constexpr ImageFormat kL4A4 = {GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, false, false, {GL_RED, GL_RED, GL_RED, GL_GREEN},
                               false, true};
constexpr ImageFormat kR8G8S = {GL_RG8_SNORM, GL_RG, GL_BYTE, 2, false, false, {GL_RED, GL_GREEN, GL_ONE, GL_ONE}};
constexpr ImageFormat kR8G8B8A8S = {GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, 4, false, false};
constexpr ImageFormat kL16 = {GL_R16, GL_RED, GL_UNSIGNED_SHORT, 2, false, false, {GL_RED, GL_RED, GL_RED, GL_ONE}};
constexpr ImageFormat kR16G16 = {GL_RG16, GL_RG, GL_UNSIGNED_SHORT, 4, false, false, {GL_RED, GL_GREEN, GL_ONE, GL_ONE}};
constexpr ImageFormat kR16G16B16A16 = {GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8, false, false};
constexpr ImageFormat kR16F = {GL_R16F, GL_RED, GL_HALF_FLOAT, 2, false, false, {GL_RED, GL_ONE, GL_ONE, GL_ONE}};
constexpr ImageFormat kR16G16F = {GL_RG16F, GL_RG, GL_HALF_FLOAT, 4, false, false, {GL_RED, GL_GREEN, GL_ONE, GL_ONE}};
constexpr ImageFormat kR16G16B16A16F = {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, false, false};
constexpr ImageFormat kR32F = {GL_R32F, GL_RED, GL_FLOAT, 4, false, false, {GL_RED, GL_ONE, GL_ONE, GL_ONE}};
constexpr ImageFormat kR32G32F = {GL_RG32F, GL_RG, GL_FLOAT, 8, false, false, {GL_RED, GL_GREEN, GL_ONE, GL_ONE}};
constexpr ImageFormat kR32G32B32A32F = {GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, false, false};
constexpr ImageFormat kB10G10R10A2 = {GL_RGB10_A2, GL_BGRA, GL_UNSIGNED_INT_2_10_10_10_REV, 4, false, false};
constexpr ImageFormat kR10G10B10A2 = {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4, false, false};
// The S3TC sRGB formats of GL_EXT_texture_sRGB (gl.xml lists the extension for compatibility
// contexts only, so the generated header lacks them; format_support asks the context whether it
// takes them).
constexpr GLenum kSrgbAlphaDxt1 = 0x8C4D, kSrgbAlphaDxt3 = 0x8C4E, kSrgbAlphaDxt5 = 0x8C4F;

// D3D9's DXT1 has 1-bit alpha: the RGBA variant.
constexpr ImageFormat kBC1 = {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 0, 0, 8, false, false,
                              {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}, true, false,
                              kSrgbAlphaDxt1};
constexpr ImageFormat kBC2 = {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, 0, 0, 16, false, false,
                              {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}, true, false,
                              kSrgbAlphaDxt3};
constexpr ImageFormat kBC3 = {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 0, 0, 16, false, false,
                              {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}, true, false,
                              kSrgbAlphaDxt5};

// ATI1 reads its one channel everywhere (AMD's Direct3D 10-class drivers); ATI2 returns its second
// channel in R and its first in G (every vendor): RGTC, core since GL 3.0.
constexpr ImageFormat kBC4 = {GL_COMPRESSED_RED_RGTC1, 0, 0, 8, false, false, {GL_RED, GL_RED, GL_RED, GL_RED}, true};
constexpr ImageFormat kBC5 = {GL_COMPRESSED_RG_RGTC2, 0, 0, 16, false, false, {GL_GREEN, GL_RED, GL_ONE, GL_ONE}, true};
// V16U16 and Q16W16V16U16.
constexpr ImageFormat kR16G16S = {GL_RG16_SNORM, GL_RG, GL_SHORT, 4, false, false, {GL_RED, GL_GREEN, GL_ONE, GL_ONE}};
constexpr ImageFormat kR16G16B16A16S = {GL_RGBA16_SNORM, GL_RGBA, GL_SHORT, 8, false, false};

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
  case NV_FORMAT_D32_SFLOAT: return &kD32F;
  case NV_FORMAT_B5G5R5A1_UNORM: return &kB5G5R5A1;
  case NV_FORMAT_B4G4R4A4_UNORM: return &kB4G4R4A4;
  case NV_FORMAT_A8_UNORM: return &kA8;
  case NV_FORMAT_L8_UNORM: return &kL8;
  case NV_FORMAT_L8A8_UNORM: return &kL8A8;
  case NV_FORMAT_L4A4_UNORM: return &kL4A4;
  case NV_FORMAT_R8G8_SNORM: return &kR8G8S;
  case NV_FORMAT_R8G8B8A8_SNORM: return &kR8G8B8A8S;
  case NV_FORMAT_L16_UNORM: return &kL16;
  case NV_FORMAT_R16G16_UNORM: return &kR16G16;
  case NV_FORMAT_R16G16B16A16_UNORM: return &kR16G16B16A16;
  case NV_FORMAT_R16_SFLOAT: return &kR16F;
  case NV_FORMAT_R16G16_SFLOAT: return &kR16G16F;
  case NV_FORMAT_R16G16B16A16_SFLOAT: return &kR16G16B16A16F;
  case NV_FORMAT_R32_SFLOAT: return &kR32F;
  case NV_FORMAT_R32G32_SFLOAT: return &kR32G32F;
  case NV_FORMAT_R32G32B32A32_SFLOAT: return &kR32G32B32A32F;
  case NV_FORMAT_B10G10R10A2_UNORM: return &kB10G10R10A2;
  case NV_FORMAT_R10G10B10A2_UNORM: return &kR10G10B10A2;
  case NV_FORMAT_BC1_UNORM: return &kBC1;
  case NV_FORMAT_BC2_UNORM: return &kBC2;
  case NV_FORMAT_BC3_UNORM: return &kBC3;
  case NV_FORMAT_BC4_UNORM: return &kBC4;
  case NV_FORMAT_BC5_UNORM: return &kBC5;
  case NV_FORMAT_R16G16_SNORM: return &kR16G16S;
  case NV_FORMAT_R16G16B16A16_SNORM: return &kR16G16B16A16S;
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
  } else if (!f->compressed) {
    // Scaled BLIT_IMAGE and PRESENT are glBlitNamedFramebuffer, which takes any colour-renderable
    // (non-integer) format.
    if (query(gl, f->internal_format, GL_COLOR_RENDERABLE) == GL_TRUE) bits |= NV_SUPPORT_RENDER_TARGET | NV_SUPPORT_BLIT;
    if (query(gl, f->internal_format, GL_FRAMEBUFFER_BLEND) != GL_NONE) bits |= NV_SUPPORT_BLEND;
  }
  if (query(gl, f->internal_format, GL_FRAGMENT_TEXTURE) != GL_NONE) bits |= NV_SUPPORT_SAMPLED;
  if (query(gl, f->internal_format, GL_FILTER) != GL_NONE) bits |= NV_SUPPORT_FILTER;
  if (!f->depth && !f->compressed && query(gl, f->internal_format, GL_MIPMAP) == GL_TRUE) bits |= NV_SUPPORT_GENERATE_MIPS;
  // ABI 5: depth textures (sampled; comparisons filtered, depth values read nearest).
  constexpr uint32_t depth_texture = NV_SUPPORT_DEPTH_STENCIL | NV_SUPPORT_SAMPLED;
  if (f->depth && (bits & depth_texture) == depth_texture) bits |= NV_SUPPORT_DEPTH_SAMPLED;
  // ABI 5: sRGB through a texture view of the sRGB twin (views are core since GL 4.3).
  if (f->srgb_format != GL_NONE && query(gl, f->srgb_format, GL_INTERNALFORMAT_SUPPORTED) == GL_TRUE) {
    if ((bits & NV_SUPPORT_SAMPLED) && query(gl, f->srgb_format, GL_FRAGMENT_TEXTURE) != GL_NONE)
      bits |= NV_SUPPORT_SRGB_READ;
    if ((bits & NV_SUPPORT_RENDER_TARGET) && query(gl, f->srgb_format, GL_COLOR_RENDERABLE) == GL_TRUE &&
        query(gl, f->srgb_format, GL_FRAMEBUFFER_BLEND) != GL_NONE)
      bits |= NV_SUPPORT_SRGB_WRITE;
  }
  return bits;
}

uint32_t multisample_counts(const NovemGL &gl, uint32_t format) {
  const ImageFormat *f = image_format(format);
  if (!f || f->compressed) return 0;
  const GLenum target = f->depth ? GL_RENDERBUFFER : GL_TEXTURE_2D_MULTISAMPLE;
  GLint count = 0;
  gl.GetInternalformativ(target, f->internal_format, GL_NUM_SAMPLE_COUNTS, 1, &count);
  if (count <= 0) return 0;
  std::vector<GLint> samples(size_t(count), 0);
  gl.GetInternalformativ(target, f->internal_format, GL_SAMPLES, GLsizei(count), samples.data());
  uint32_t counts = 0;
  for (GLint n : samples)
    if (n > 1 && n <= 16 && (n & (n - 1)) == 0) counts |= uint32_t(n);
  return counts;
}

} // namespace novem_gl
