// The conventions shared by the D3D9 shader translator, the frontend and the backend plugins
// (docs/shader-conventions.md). Everything here is fixed: a plugin built against one version of
// this header links any vertex shader with any pixel shader of a compatible model.
#pragma once

#include <cstddef>
#include <cstdint>

namespace novem::d3d9::conv {

// ---- uniform block (std140, one per stage, same layout and size for both) ------------------------
// Four descriptor sets, one per kind of binding and stage (ABI 6): a backend rebinds only the set
// that changed, and on lavapipe rebinding a set restages every binding in it, so a new
// vertex-constant offset per draw must not restage the pixel block and the samplers, nor a pixel
// texture change the vertex samplers (which cost lavapipe most).
inline constexpr uint32_t kVertexUniformSet = 0;
inline constexpr uint32_t kPixelUniformSet = 1;
inline constexpr uint32_t kPixelSamplerSet = 2;
inline constexpr uint32_t kVertexSamplerSet = 3;
inline constexpr uint32_t kVertexUniformBinding = 0;
inline constexpr uint32_t kPixelUniformBinding = 1;
inline constexpr uint32_t kFloatConstantCount = 256;   // vec4 c[256]
inline constexpr uint32_t kIntConstantCount = 16;      // ivec4 i[16]
inline constexpr uint32_t kBoolConstantCount = 16;     // bit n of b.x
inline constexpr uint32_t kFloatConstantOffset = 0;
inline constexpr uint32_t kIntConstantOffset = 4096;
inline constexpr uint32_t kBoolConstantOffset = 4352;
// ps_1_x bump-environment texture stage state (texbem, texbeml, bem), stages 0..7:
// bumpenv_mat[N] = (D3DTSS_BUMPENVMAT00, 01, 10, 11) of stage N,
// bumpenv_lum[N] = (D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET, 0, 0) of stage N.
// Only pixel shaders read them; the vertex stage's block has the same layout (zeros there).
inline constexpr uint32_t kBumpEnvStageCount = 8;
inline constexpr uint32_t kBumpEnvMatOffset = 4368;   // vec4 bumpenv_mat[8]
inline constexpr uint32_t kBumpEnvLumOffset = 4496;   // vec4 bumpenv_lum[8]
// What D3D9 applies after a pixel shader (translate.hpp's PixelEpilogue): D3DRS_FOGCOLOR and
// (FOGSTART, FOGEND, FOGDENSITY, ALPHAREF & 0xFF). Zeros in the vertex stage's block.
inline constexpr uint32_t kFogColorOffset = 4624;     // vec4 fog_color
inline constexpr uint32_t kFogParamsOffset = 4640;    // vec4 fog
// User clip planes 0..5 (D3DRS_CLIPPLANEENABLE) in clip space, as SetClipPlane gives them with a
// vertex shader; read by the vertex epilogue. Zeros in the pixel stage's block.
inline constexpr uint32_t kClipPlaneCount = 6;
inline constexpr uint32_t kClipPlaneOffset = 4656;    // vec4 clip_planes[6]
// Points with a vertex shader (the vertex epilogue's point size): (D3DRS_POINTSIZE,
// POINTSIZE_MIN, POINTSIZE_MAX at most the adapter's MaxPointSize, 0). Zeros in the pixel stage's
// block.
inline constexpr uint32_t kPointOffset = 4752;        // vec4 point
inline constexpr uint32_t kUniformBlockSize = 4768;
// The user clip distances of planes 0..3 and 4..5 (unused ones +1) between the stages, written by
// the vertex epilogue (or the fixed-function vertex shader) and tested by the pixel side.
inline constexpr uint32_t kLocationClipDistance0 = 29, kLocationClipDistance1 = 30;

// The block as the frontend fills it (C++ mirror of the std140 layout).
struct UniformBlock {
  float c[kFloatConstantCount][4];
  int32_t i[kIntConstantCount][4];
  uint32_t b[4];   // b[0] bit n = boolean constant n; b[1..3] unused (0)
  float bumpenv_mat[kBumpEnvStageCount][4];   // (M00, M01, M10, M11) per texture stage
  float bumpenv_lum[kBumpEnvStageCount][4];   // (LSCALE, LOFFSET, 0, 0) per texture stage
  float fog_color[4];                         // D3DRS_FOGCOLOR
  float fog[4];                               // (FOGSTART, FOGEND, FOGDENSITY, ALPHAREF & 0xFF)
  float clip_planes[kClipPlaneCount][4];      // clip-space user clip planes
  float point[4];                             // (POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX, 0)
};
static_assert(sizeof(UniformBlock) == kUniformBlockSize);
static_assert(offsetof(UniformBlock, i) == kIntConstantOffset);
static_assert(offsetof(UniformBlock, b) == kBoolConstantOffset);
static_assert(offsetof(UniformBlock, bumpenv_mat) == kBumpEnvMatOffset);
static_assert(offsetof(UniformBlock, bumpenv_lum) == kBumpEnvLumOffset);
static_assert(offsetof(UniformBlock, fog_color) == kFogColorOffset);
static_assert(offsetof(UniformBlock, fog) == kFogParamsOffset);
static_assert(offsetof(UniformBlock, clip_planes) == kClipPlaneOffset);
static_assert(offsetof(UniformBlock, point) == kPointOffset);

// ---- software vertex processing's constant files ----------------------------------------------
// A vertex shader created on a device of software (or mixed) vertex processing
// (Program::software_vertex) reads c0..c8191, i0..i2047 and b0..b2047 from a read-only storage
// buffer in the vertex uniform set, not from the uniform block's c, i and b (which it leaves
// unread; the epilogue's clip planes and point size stay in the block). std430:
inline constexpr uint32_t kSoftwareConstantsBinding = 2;      // set kVertexUniformSet
inline constexpr uint32_t kSoftwareFloatConstantCount = 8192;   // vec4 c[8192]
inline constexpr uint32_t kSoftwareIntConstantCount = 2048;     // ivec4 i[2048]
inline constexpr uint32_t kSoftwareBoolConstantCount = 2048;    // uvec4 b[16]: bit n is bit n % 32 of word n / 32
inline constexpr uint32_t kSoftwareFloatOffset = 0;
inline constexpr uint32_t kSoftwareIntOffset = 131072;
inline constexpr uint32_t kSoftwareBoolOffset = 163840;
inline constexpr uint32_t kSoftwareConstantsSize = 164096;
// The vertex stage's SET_CONSTANTS block on such a device: the uniform block, then the storage
// buffer's bytes from this offset (256-byte aligned, as the APIs' storage offsets need).
inline constexpr uint32_t kSoftwareConstantsOffset = 4864;
inline constexpr uint32_t kSoftwareVertexBlockSize = kSoftwareConstantsOffset + kSoftwareConstantsSize;

// The storage buffer as the frontend fills it.
struct SoftwareConstants {
  float c[kSoftwareFloatConstantCount][4];
  int32_t i[kSoftwareIntConstantCount][4];
  uint32_t b[kSoftwareBoolConstantCount / 32];   // the 16 uvec4s as words
};
static_assert(sizeof(SoftwareConstants) == kSoftwareConstantsSize);
static_assert(offsetof(SoftwareConstants, i) == kSoftwareIntOffset);
static_assert(offsetof(SoftwareConstants, b) == kSoftwareBoolOffset);
static_assert(kSoftwareConstantsOffset >= kUniformBlockSize && kSoftwareConstantsOffset % 256 == 0);

// ---- samplers (combined image samplers: pixel set 2, vertex set 3) ---------------------------------------------------
inline constexpr uint32_t kPixelSamplerBindingBase = 16;    // ps s0..s15 -> 16..31
inline constexpr uint32_t kPixelSamplerCount = 16;
inline constexpr uint32_t kVertexSamplerBindingBase = 32;   // vs_3_0 s0..s3 -> 32..35
inline constexpr uint32_t kVertexSamplerCount = 4;

// ---- stage interface (VS outputs = PS inputs), every variable a vec4 ------------------------------
// D3DDECLUSAGE values.
enum Usage : uint8_t {
  kUsagePosition = 0, kUsageBlendWeight = 1, kUsageBlendIndices = 2, kUsageNormal = 3,
  kUsagePSize = 4, kUsageTexcoord = 5, kUsageTangent = 6, kUsageBinormal = 7,
  kUsageTessFactor = 8, kUsagePositionT = 9, kUsageColor = 10, kUsageFog = 11, kUsageDepth = 12,
  kUsageSample = 13,
};

inline constexpr uint32_t kLocationTexcoord = 0;      // TEXCOORD n (0..15) -> n
inline constexpr uint32_t kLocationColor = 16;        // COLOR n (0..1) -> 16 + n
inline constexpr uint32_t kLocationFog = 18;
inline constexpr uint32_t kLocationNormal = 19;       // NORMAL n (0..1) -> 19 + n
inline constexpr uint32_t kLocationTangent = 21;
inline constexpr uint32_t kLocationBinormal = 22;
inline constexpr uint32_t kLocationBlendWeight = 23;
inline constexpr uint32_t kLocationBlendIndices = 24;
inline constexpr uint32_t kLocationPSize = 25;        // PSIZE as a varying
inline constexpr uint32_t kLocationDepth = 26;
inline constexpr uint32_t kLocationPosition = 27;     // POSITION n (n >= 1) as a varying
inline constexpr uint32_t kLocationSample = 28;
inline constexpr uint32_t kLocationCount = 29;

// The interface location of a varying of that usage and usage index; -1 when there is none
// (POSITION 0 is the clip position builtin, other usages/indices are outside the convention).
// `pixel_input`: a pixel shader input; there POSITION of any index reads location 27.
constexpr int32_t interface_location(uint8_t usage, uint8_t index, bool pixel_input = false) {
  switch (usage) {
    case kUsageTexcoord: return index < 16 ? static_cast<int32_t>(kLocationTexcoord + index) : -1;
    case kUsageColor: return index < 2 ? static_cast<int32_t>(kLocationColor + index) : -1;
    case kUsageFog: return index == 0 ? static_cast<int32_t>(kLocationFog) : -1;
    case kUsageNormal: return index < 2 ? static_cast<int32_t>(kLocationNormal + index) : -1;
    case kUsageTangent: return index == 0 ? static_cast<int32_t>(kLocationTangent) : -1;
    case kUsageBinormal: return index == 0 ? static_cast<int32_t>(kLocationBinormal) : -1;
    case kUsageBlendWeight: return index == 0 ? static_cast<int32_t>(kLocationBlendWeight) : -1;
    case kUsageBlendIndices: return index == 0 ? static_cast<int32_t>(kLocationBlendIndices) : -1;
    case kUsagePSize: return index == 0 ? static_cast<int32_t>(kLocationPSize) : -1;
    case kUsageDepth: return index == 0 ? static_cast<int32_t>(kLocationDepth) : -1;
    case kUsagePosition:
      return (index >= 1 || pixel_input) ? static_cast<int32_t>(kLocationPosition) : -1;
    case kUsageSample: return index == 0 ? static_cast<int32_t>(kLocationSample) : -1;
    default: return -1;
  }
}

// Pixel shader colour outputs oC0..oC3 -> fragment output location n; oDepth -> FragDepth.
inline constexpr uint32_t kColorOutputCount = 4;

}  // namespace novem::d3d9::conv
