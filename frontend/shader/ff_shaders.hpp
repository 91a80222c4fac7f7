// The fixed-function pipeline's generated shaders (SPIR-V 1.0, entry point "main").
//
// Vertex shader interface:
//   in  location 0: vec4 position  (pretransformed: x, y, z, rhw in window pixels;
//                                   otherwise x, y, z with w filled as 1 by the vertex format,
//                                   of which only .xyz is read)
//   in  location 1: vec4 colour    (only when has_color; otherwise the colour is (1, 1, 1, 1),
//                                   D3D9's default diffuse)
//   in  location 2: vec4 TEXCOORD0 (only when has_texcoord; missing components read as 0, w 1)
//   out kFFColorLocation: vec4 colour; out location 0: TEXCOORD0 ((0, 0, 0, 1) without one);
//   BuiltIn Position; BuiltIn PointSize = 1 (gl_PerVertex block)
//   uniform block FFVertexConstants: std140, descriptor set 0, binding 0
// Pixel shader: in kFFColorLocation colour -> out location 0 (OriginUpperLeft); no uniforms.
// Textured (stage 0 has a texture), it reads TEXCOORD0 at location 0 and samples the pixel stage's
// slot 0 (set 0, binding 16) as D3D9's default stage 0 does: colour = texture * diffuse
// (COLOROP MODULATE), alpha = texture alpha (ALPHAOP SELECTARG1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace novem {

// The state that shapes the fixed-function vertex shader.
struct FFVertexKey {
  bool pretransformed = false;  // D3DFVF_XYZRHW: window-space positions, no transform/lighting
  bool has_color = false;       // the vertex has a diffuse colour (D3DFVF_DIFFUSE)
  bool lighting = false;        // D3DRS_LIGHTING (ignored when pretransformed)
  bool has_texcoord = false;    // the vertex has TEXCOORD0

  // Bit 0 pretransformed, bit 1 has_color, bit 2 lighting, bit 3 has_texcoord; other bits zero.
  constexpr uint32_t pack() const {
    return (pretransformed ? 1u : 0u) | (has_color ? 2u : 0u) | (lighting ? 4u : 0u) | (has_texcoord ? 8u : 0u);
  }
  static constexpr FFVertexKey unpack(uint32_t bits) {
    return FFVertexKey{(bits & 1u) != 0, (bits & 2u) != 0, (bits & 4u) != 0, (bits & 8u) != 0};
  }
  friend constexpr bool operator==(const FFVertexKey&, const FFVertexKey&) = default;
};

// The vertex stage's uniform block (std140; SET_CONSTANTS payload for NV_STAGE_VERTEX).
struct FFVertexConstants {
  float transform[16];  // column-major mat4: clip = transform * vec4(pos.xyz, 1) (!pretransformed)
  float viewport[4];    // pretransformed: (x0, y0, sx, sy):
                        //   ndc.x = (pos.x - x0) * sx - 1, ndc.y = (pos.y - y0) * sy + 1
                        //   (the frontend sets sx = 2 / width, sy = -2 / height)
  float depth[4];       // pretransformed: (z0, sz, 0, 0): ndc.z = (pos.z - z0) * sz
  float lit_color[4];   // lighting && !pretransformed: rgb = lit_color.rgb,
                        //   alpha = has_color ? vertex alpha : lit_color.a
};
static_assert(sizeof(FFVertexConstants) == 112, "FFVertexConstants must match the std140 block");
static_assert(offsetof(FFVertexConstants, viewport) == 64);
static_assert(offsetof(FFVertexConstants, depth) == 80);
static_assert(offsetof(FFVertexConstants, lit_color) == 96);

// Pretransformed vertices: w = 1 / rhw, clip = (ndc.xyz * w, w), so interpolation is
// perspective-correct as in D3D9 (rhw == 0, which D3D9 leaves undefined, gives w = 1, as other
// implementations do).
// The diffuse colour travels between the stages at COLOR0's location of the stage-interface
// convention (TEXCOORDn at n, COLORn at 16 + n), so that fixed-function and translated shaders
// of either stage link with each other.
constexpr uint32_t kFFColorLocation = 16;
constexpr uint32_t kFFTexcoordLocation = 0;  // TEXCOORD0 between the stages
constexpr uint32_t kFFTexcoordAttribute = 2; // the vertex input of TEXCOORD0

std::vector<uint32_t> build_ff_vertex_shader(const FFVertexKey& key);
std::vector<uint32_t> build_ff_pixel_shader(bool textured = false);

}  // namespace novem

template <> struct std::hash<novem::FFVertexKey> {
  size_t operator()(const novem::FFVertexKey& k) const noexcept { return std::hash<uint32_t>{}(k.pack()); }
};
