// The keys of the fixed-function pipeline's generated shaders: everything in the D3D9 state that
// changes the code of the vertex or the pixel shader (values that only change numbers go into the
// uniform blocks of ff_constants.hpp instead). Both keys are plain bytes (no padding, every field a
// uint8_t), compared and hashed as such; the frontend builds them from its state
// (frontend/src/state_encoder_fixed_function.cpp), the generators (ff_vertex.cpp, ff_pixel.cpp) emit
// SPIR-V from them, and the device caches the modules by key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <type_traits>

namespace novem::ff {

inline constexpr uint32_t kStages = 8;       // D3DCAPS9::MaxTextureBlendStages
inline constexpr uint32_t kLights = 8;       // D3DCAPS9::MaxActiveLights
inline constexpr uint32_t kClipPlanes = 6;   // D3DCAPS9::MaxUserClipPlanes
inline constexpr uint32_t kBlendMatrices = 8;  // world matrices 0..7 (MaxVertexBlendMatrixIndex 7)

// Vertex inputs of the fixed-function vertex shader (nv_vertex_attribute locations).
inline constexpr uint32_t kInPosition = 0, kInBlendWeight = 1, kInBlendIndices = 2, kInNormal = 3,
                          kInPSize = 4, kInColor0 = 5, kInColor1 = 6, kInTexcoord0 = 7;  // ..14
// Tweening excludes vertex blending, so POSITION1 and NORMAL1 take the blend inputs' locations
// (the plugins read at most 16 attributes, locations 0..15).
inline constexpr uint32_t kInPosition1 = kInBlendWeight, kInNormal1 = kInBlendIndices;

// Material colour sources (D3DMATERIALCOLORSOURCE after COLORVERTEX and the vertex's colours
// are taken into account): the material's own colour, or a vertex colour.
enum ColorSource : uint8_t { kSourceMaterial = 0, kSourceColor1 = 1, kSourceColor2 = 2 };

// Light types as D3DLIGHTTYPE (0: no light in that slot).
enum LightType : uint8_t { kLightNone = 0, kLightPoint = 1, kLightSpot = 2, kLightDirectional = 3 };

// Texture coordinate generation (D3DTSS_TCI_* >> 16).
enum TexGen : uint8_t {
  kTexGenPassThru = 0, kTexGenNormal = 1, kTexGenPosition = 2, kTexGenReflection = 3, kTexGenSphere = 4
};

// The sampler kind of a stage (from the bound texture's type).
// kTextureDepth: a 2D depth texture (D3DUSAGE_DEPTHSTENCIL, D16/D24X8/D24S8) that the stage
// samples as the vendors' drivers do, with the depth comparison (a hardware shadow map).
enum TextureKind : uint8_t { kTextureNone = 0, kTexture2D = 1, kTextureCube = 2, kTextureVolume = 3, kTextureDepth = 4 };

// Fog the pixel shader applies (FOGENABLE with FOGTABLEMODE / FOGVERTEXMODE).
enum PixelFog : uint8_t {
  kFogNone = 0,
  kFogVarying = 1,   // factor from the FOG varying (vertex fog, or the specular alpha / oFog)
  kFogLinear = 2,    // table fog, computed per pixel from the depth (D3DFOG_LINEAR)
  kFogExp = 3,       // D3DFOG_EXP
  kFogExp2 = 4,      // D3DFOG_EXP2
};

template <class Key> struct KeyBytes {
  friend bool operator==(const Key& a, const Key& b) { return std::memcmp(&a, &b, sizeof(Key)) == 0; }
  std::string_view bytes() const {
    return std::string_view(reinterpret_cast<const char*>(static_cast<const Key*>(this)), sizeof(Key));
  }
};

struct VertexKey : KeyBytes<VertexKey> {
  uint8_t pretransformed = 0;   // D3DDECLUSAGE_POSITIONT: window coordinates, no T&L
  uint8_t has_normal = 0;
  uint8_t has_color0 = 0, has_color1 = 0;   // diffuse / specular in the vertex
  uint8_t has_psize = 0;        // per-vertex point size
  uint8_t lighting = 0;         // D3DRS_LIGHTING (with a normal or not: D3D lights with N = 0)
  uint8_t specular = 0;         // D3DRS_SPECULARENABLE (lighting computes specular)
  uint8_t local_viewer = 0;     // D3DRS_LOCALVIEWER
  uint8_t normalize = 0;        // D3DRS_NORMALIZENORMALS
  uint8_t diffuse_source = 0, ambient_source = 0, specular_source = 0, emissive_source = 0;  // ColorSource
  uint8_t light_type[kLights] = {};   // enabled lights, packed from slot 0
  uint8_t blend_matrices = 0;   // 0: world matrix only; 1..4: D3DRS_VERTEXBLEND's matrix count
  uint8_t blend_weights = 0;    // weights in the vertex (the last matrix gets 1 - their sum)
  uint8_t blend_indexed = 0;    // D3DRS_INDEXEDVERTEXBLENDENABLE
  uint8_t blend_indices_color = 0;  // the indices are a D3DCOLOR (components read as zyxw)
  uint8_t tween_position = 0;   // D3DVBF_TWEENING with POSITION1: lerp(POSITION0, POSITION1, TWEENFACTOR)
  uint8_t tween_normal = 0;     // D3DVBF_TWEENING with NORMAL1 (and NORMAL0): the normals likewise
  uint8_t fog_mode = 0;         // vertex fog: D3DFOG_* of D3DRS_FOGVERTEXMODE (0: none)
  uint8_t fog_range = 0;        // D3DRS_RANGEFOGENABLE
  uint8_t clip_planes = 0;      // bit n: D3DRS_CLIPPLANEENABLE plane n
  uint8_t point_scale = 0;      // D3DRS_POINTSCALEENABLE
  uint8_t texcoord_size[kStages] = {};   // components of the vertex's TEXCOORDn (0: absent)
  uint8_t tex_gen[kStages] = {};         // TexGen of stage n
  uint8_t tex_index[kStages] = {};       // D3DTSS_TEXCOORDINDEX & 7 of stage n
  uint8_t tex_transform[kStages] = {};   // D3DTTFF_COUNTn (0: disabled) of stage n (PROJECTED: the pixel key)
};
static_assert(std::has_unique_object_representations_v<VertexKey>, "no padding: compared as bytes");

struct PixelStage {
  uint8_t color_op = 1;          // D3DTOP_* (1: DISABLE)
  uint8_t color_arg[3] = {};     // D3DTA_* of COLORARG0, 1, 2 (selector | COMPLEMENT | ALPHAREPLICATE)
  uint8_t alpha_op = 1;
  uint8_t alpha_arg[3] = {};
  uint8_t result_temp = 0;       // D3DTSS_RESULTARG == D3DTA_TEMP
  uint8_t texture = 0;           // TextureKind of the bound texture
  uint8_t projected = 0;         // D3DTTFF_PROJECTED: divide by component projected - 1 (2..4; 0: no division)
  uint8_t coord_location = 0;    // the TEXCOORD varying the stage reads
};

struct PixelKey : KeyBytes<PixelKey> {
  PixelStage stage[kStages];
  uint8_t fog = kFogNone;        // PixelFog
  uint8_t fog_w = 0;             // table fog reads eye depth (1 / gl_FragCoord.w), else z
  uint8_t alpha_func = 0;        // D3DCMP_* of the alpha test; 0: test off
  uint8_t specular_add = 0;      // D3DRS_SPECULARENABLE: add COLOR1.rgb after the stages
  uint8_t flat = 0;              // D3DSHADE_FLAT: colours not interpolated
  uint8_t clip_planes = 0;       // bit n: user clip plane n is tested (fixed-function vertex shader)
  uint8_t point_sprite = 0;      // D3DRS_POINTSPRITEENABLE on a point list: coordinates = PointCoord
  // What the vertex stage writes (all of it for the fixed-function one; a vertex shader's outputs
  // otherwise): bit n TEXCOORDn, bit 0/1 COLOR0/1, FOG. A varying not written reads 0.
  uint8_t texcoord_inputs = 0xff;
  uint8_t color_inputs = 3;
  uint8_t fog_input = 1;
};
static_assert(std::has_unique_object_representations_v<PixelKey>, "no padding: compared as bytes");

// FNV-1a over the key's bytes.
inline size_t hash_key_bytes(std::string_view bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return size_t(h);
}

}  // namespace novem::ff

template <> struct std::hash<novem::ff::VertexKey> {
  size_t operator()(const novem::ff::VertexKey& k) const noexcept { return novem::ff::hash_key_bytes(k.bytes()); }
};
template <> struct std::hash<novem::ff::PixelKey> {
  size_t operator()(const novem::ff::PixelKey& k) const noexcept { return novem::ff::hash_key_bytes(k.bytes()); }
};
