// The uniform blocks of the fixed-function shaders (std140; vertex stage set 0 binding 0, pixel
// stage set 1 binding 1, as every shader of the project). Each block is an array of
// vec4 (`vec4 v[N]`, ArrayStride 16); the structs below name the vec4s. Matrices are D3D's
// row-vector matrices stored row by row, which the shaders read as column-major mat4 columns, so
// that `M * v` in the shader is D3D's `v * M`. The frontend fills them
// (frontend/src/state_encoder_fixed_function.cpp) and sends them only when the state they hold changed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff_key.hpp"

namespace novem::ff {

struct Light {           // one enabled light, in view space
  float diffuse[4];
  float specular[4];
  float ambient[4];
  float position[4];     // view-space position (point, spot)
  float direction[4];    // view-space direction towards the light, normalised (directional, spot: -Direction)
  float range_att[4];    // (Range, Attenuation0, Attenuation1, Attenuation2)
  float spot[4];         // (cos(Theta / 2), cos(Phi / 2), Falloff, 0)
};

struct VertexConstants {
  float world_view[kBlendMatrices][4][4];   // World(n) * View (n = 0: D3DTS_WORLD)
  float normal_matrix[kBlendMatrices][4][4];  // inverse transpose of world_view[n] (upper 3x3 used)
  float projection[4][4];
  float texture[kStages][4][4];             // D3DTS_TEXTUREn of stage n
  Light light[kLights];
  float material_diffuse[4], material_ambient[4], material_specular[4], material_emissive[4];
  float material_power[4];                  // (Power, 0, 0, 0)
  float ambient[4];                         // D3DRS_AMBIENT
  float fog[4];                             // (FOGSTART, FOGEND, FOGDENSITY, 0)
  float clip_plane[kClipPlanes][4];         // user clip planes, in view space
  float viewport[4];                        // pretransformed: (x0, y0, 2 / width, -2 / height)
  float point[4];                           // (POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX, viewport height)
  float point_scale[4];                     // (POINTSCALE_A, _B, _C, 0)
  float tween[4];                           // (TWEENFACTOR, 0, 0, 0)
};

// vec4 indices of the members, for the generator.
namespace vs {
inline constexpr uint32_t kWorldView = offsetof(VertexConstants, world_view) / 16;
inline constexpr uint32_t kNormalMatrix = offsetof(VertexConstants, normal_matrix) / 16;
inline constexpr uint32_t kProjection = offsetof(VertexConstants, projection) / 16;
inline constexpr uint32_t kTexture = offsetof(VertexConstants, texture) / 16;
inline constexpr uint32_t kLight = offsetof(VertexConstants, light) / 16;
inline constexpr uint32_t kLightSize = sizeof(Light) / 16;
inline constexpr uint32_t kMaterialDiffuse = offsetof(VertexConstants, material_diffuse) / 16;
inline constexpr uint32_t kMaterialAmbient = offsetof(VertexConstants, material_ambient) / 16;
inline constexpr uint32_t kMaterialSpecular = offsetof(VertexConstants, material_specular) / 16;
inline constexpr uint32_t kMaterialEmissive = offsetof(VertexConstants, material_emissive) / 16;
inline constexpr uint32_t kMaterialPower = offsetof(VertexConstants, material_power) / 16;
inline constexpr uint32_t kAmbient = offsetof(VertexConstants, ambient) / 16;
inline constexpr uint32_t kFog = offsetof(VertexConstants, fog) / 16;
inline constexpr uint32_t kClipPlane = offsetof(VertexConstants, clip_plane) / 16;
inline constexpr uint32_t kViewport = offsetof(VertexConstants, viewport) / 16;
inline constexpr uint32_t kPoint = offsetof(VertexConstants, point) / 16;
inline constexpr uint32_t kPointScale = offsetof(VertexConstants, point_scale) / 16;
inline constexpr uint32_t kTween = offsetof(VertexConstants, tween) / 16;
inline constexpr uint32_t kCount = sizeof(VertexConstants) / 16;
}  // namespace vs
static_assert(sizeof(VertexConstants) % 16 == 0);

struct PixelConstants {
  float texture_factor[4];                  // D3DRS_TEXTUREFACTOR
  float constant[kStages][4];               // D3DTSS_CONSTANT of each stage
  float bumpenv_mat[kStages][4];            // (BUMPENVMAT00, 01, 10, 11) of each stage
  float bumpenv_lum[kStages][4];            // (BUMPENVLSCALE, BUMPENVLOFFSET, 0, 0) of each stage
  float fog_color[4];                       // D3DRS_FOGCOLOR
  float fog[4];                             // (FOGSTART, FOGEND, FOGDENSITY, ALPHAREF & 0xFF)
};

namespace ps {
inline constexpr uint32_t kTextureFactor = offsetof(PixelConstants, texture_factor) / 16;
inline constexpr uint32_t kConstant = offsetof(PixelConstants, constant) / 16;
inline constexpr uint32_t kBumpEnvMat = offsetof(PixelConstants, bumpenv_mat) / 16;
inline constexpr uint32_t kBumpEnvLum = offsetof(PixelConstants, bumpenv_lum) / 16;
inline constexpr uint32_t kFogColor = offsetof(PixelConstants, fog_color) / 16;
inline constexpr uint32_t kFog = offsetof(PixelConstants, fog) / 16;
inline constexpr uint32_t kCount = sizeof(PixelConstants) / 16;
}  // namespace ps

}  // namespace novem::ff
