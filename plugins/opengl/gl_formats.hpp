// nv_format in GL terms: how an image is stored, uploaded and read back, how sampling reads it
// (texture swizzles for D3D9's missing channels), how a vertex attribute is read, and what this
// context can do with each format (nv_adapter_info.format_support).
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct ImageFormat {
  GLenum internal_format; // storage
  GLenum read_format;     // glReadPixels / glTextureSubImage2D format and type giving the
  GLenum read_type;       // nv_format's memory layout (unused for compressed formats)
  uint32_t bytes_per_pixel; // as uploaded to GL (per 4x4 block for compressed formats)
  bool depth, stencil;
  GLint swizzle[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA}; // GL_TEXTURE_SWIZZLE_RGBA
  bool compressed = false;  // 4x4 blocks, uploaded with glCompressedTextureSubImage2D
  bool expand_l4a4 = false; // uploads widen L4A4 to RG8 (L, A)
  // ABI 5: the sRGB internal format a texture view reads (decoding) and renders (encoding) the
  // same texels through; GL_NONE for formats without one.
  GLenum srgb_format = GL_NONE;
};

struct VertexFormat {
  GLint size; // components, or GL_BGRA
  GLenum type;
  GLboolean normalized;
};

// nullptr when the format is not one an image can have, or not a vertex format.
const ImageFormat *image_format(uint32_t format);
const VertexFormat *vertex_format(uint32_t format);

// nv_format_support bits for format, asked of the current context.
uint32_t format_support(const NovemGL &gl, uint32_t format);
// The sample counts N > 1 at which the context makes the format's multisampled targets exactly
// (bit value N, as nv_adapter_info.sample_counts): colour formats as GL_TEXTURE_2D_MULTISAMPLE,
// depth formats as renderbuffers, as create_image makes them. A count missing here would be
// rounded up by the driver (llvmpipe makes a 2-sample image with 4), so it is never claimed.
uint32_t multisample_counts(const NovemGL &gl, uint32_t format);

} // namespace novem_gl
