#include "gl_vertex_format.hpp"

namespace novem_gl {

namespace {

// Integer types without normalisation read as floats (USCALED/SSCALED); normalised signed types
// clamp to -1 (GL 4.2 and later: max(c / (2^(b-1) - 1), -1)), as nv_format defines. The packed
// 10-10-10-2 types take size 4: x in bits 9..0, w in 31..30.
constexpr VertexFormat kUbyte4 = {4, GL_UNSIGNED_BYTE, GL_FALSE};
constexpr VertexFormat kUbyte4N = {4, GL_UNSIGNED_BYTE, GL_TRUE};
constexpr VertexFormat kShort2 = {2, GL_SHORT, GL_FALSE};
constexpr VertexFormat kShort4 = {4, GL_SHORT, GL_FALSE};
constexpr VertexFormat kShort2N = {2, GL_SHORT, GL_TRUE};
constexpr VertexFormat kShort4N = {4, GL_SHORT, GL_TRUE};
constexpr VertexFormat kUshort2N = {2, GL_UNSIGNED_SHORT, GL_TRUE};
constexpr VertexFormat kUshort4N = {4, GL_UNSIGNED_SHORT, GL_TRUE};
constexpr VertexFormat kUdec3 = {4, GL_UNSIGNED_INT_2_10_10_10_REV, GL_FALSE};
constexpr VertexFormat kDec3N = {4, GL_INT_2_10_10_10_REV, GL_TRUE};
constexpr VertexFormat kHalf2 = {2, GL_HALF_FLOAT, GL_FALSE};
constexpr VertexFormat kHalf4 = {4, GL_HALF_FLOAT, GL_FALSE};

} // namespace

const VertexFormat *vertex_data_format(uint32_t format) {
  switch (format) {
  case NV_FORMAT_R8G8B8A8_USCALED: return &kUbyte4;
  case NV_FORMAT_R8G8B8A8_UNORM: return &kUbyte4N;
  case NV_FORMAT_R16G16_SSCALED: return &kShort2;
  case NV_FORMAT_R16G16B16A16_SSCALED: return &kShort4;
  case NV_FORMAT_R16G16_SNORM: return &kShort2N;
  case NV_FORMAT_R16G16B16A16_SNORM: return &kShort4N;
  case NV_FORMAT_R16G16_UNORM: return &kUshort2N;
  case NV_FORMAT_R16G16B16A16_UNORM: return &kUshort4N;
  case NV_FORMAT_R10G10B10A2_USCALED: return &kUdec3;
  case NV_FORMAT_R10G10B10A2_SNORM: return &kDec3N;
  case NV_FORMAT_R16G16_SFLOAT: return &kHalf2;
  case NV_FORMAT_R16G16B16A16_SFLOAT: return &kHalf4;
  default: return nullptr;
  }
}

} // namespace novem_gl
