// nv_format in GL terms: how an image is stored and read back, how a vertex attribute is read,
// and what this context can do with each format (nv_adapter_info.format_support).
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct ImageFormat {
  GLenum internal_format; // storage
  GLenum read_format;     // glReadPixels format/type giving the nv_format's memory layout
  GLenum read_type;
  uint32_t bytes_per_pixel;
  bool depth, stencil;
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

} // namespace novem_gl
