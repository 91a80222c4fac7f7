// The ABI 4 vertex-data nv_formats as GL vertex attribute formats (glVertexAttribFormat's size,
// type and normalized flag).
#pragma once

#include <cstdint>

#include "gl_formats.hpp"

namespace novem_gl {

// nullptr when the format is not one of the ABI 4 vertex-data formats.
const VertexFormat *vertex_data_format(uint32_t format);

} // namespace novem_gl
