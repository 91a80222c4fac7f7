// DeviceState: everything an application sets on a device that the getters answer from and that
// state blocks capture and apply (render, sampler and texture-stage states, transforms, lights,
// material, clip planes, viewport, scissor, shaders and their constants, vertex input, textures).
// Render targets and the depth-stencil surface are not part of it: D3D9's state blocks leave them.
//
// Pointers are private references held by whoever owns the DeviceState (the device, or a state
// block); this struct only stores them.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include <d3d9.h>

#include <novem/commands.h>

namespace novem {

class IndexBuffer;
class Texture;
class VertexBuffer;
class VertexDeclaration;
template <class Iface> class ShaderObject;
using VertexShader = ShaderObject<IDirect3DVertexShader9>;
using PixelShader = ShaderObject<IDirect3DPixelShader9>;

// How many float, integer and boolean constant registers a stage has: what the SetShaderConstant
// calls accept and D3DCAPS9::MaxVertexShaderConst reports.
struct ConstantFiles {
  uint32_t f, i, b;
};
// Shader model 3.0's files; pixel shaders have 224 float registers.
inline constexpr ConstantFiles kPixelConstantFiles{224, 16, 16};
inline constexpr ConstantFiles kVertexConstantFiles{256, 16, 16};
// A device of software or mixed vertex processing: Windows' software vertex pipeline has 8192
// float registers (c2048 and above are D3DSPR_CONST2..4 in the bytecode) and 2048 integer and
// boolean ones, whichever mode a mixed device is in (DXVK's limits agree).
inline constexpr ConstantFiles kSoftwareVertexConstantFiles{8192, 2048, 2048};
inline bool software_vertex_files(DWORD behavior_flags) {
  return behavior_flags & (D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MIXED_VERTEXPROCESSING);
}
inline ConstantFiles vertex_constant_files(DWORD behavior_flags) {
  return software_vertex_files(behavior_flags) ? kSoftwareVertexConstantFiles : kVertexConstantFiles;
}

// A stage's shader constants as the application set them, as many as its files hold.
struct ShaderConstants {
  explicit ShaderConstants(ConstantFiles files) : f(files.f), i(files.i), b(files.b) {}
  std::vector<std::array<float, 4>> f;
  std::vector<std::array<int32_t, 4>> i;
  std::vector<WINBOOL> b;
};

struct StreamBinding {
  VertexBuffer *buffer = nullptr;
  UINT offset = 0;
  UINT stride = 0;
  UINT frequency = 1; // SetStreamSourceFreq's value (D3DSTREAMSOURCE_* flags and count)
};

// A light index the application has set or enabled; D3D9 lets the index be any DWORD.
struct LightSlot {
  D3DLIGHT9 light{};
  bool enabled = false;

  // What LightEnable creates for a light never set: the light Windows documents as the
  // default, directional, white diffuse, pointing down +z; disabled.
  static LightSlot default_light() {
    LightSlot slot;
    slot.light.Type = D3DLIGHT_DIRECTIONAL;
    slot.light.Diffuse = D3DCOLORVALUE{1.0f, 1.0f, 1.0f, 0.0f};
    slot.light.Direction = D3DVECTOR{0.0f, 0.0f, 1.0f};
    return slot;
  }
};

struct DeviceState {
  explicit DeviceState(ConstantFiles vertex_files) : vs_constants(vertex_files) {}

  // Texture slots: 0..15 the pixel samplers (stages), 16..19 D3DVERTEXTEXTURESAMPLER0..3.
  static constexpr uint32_t kTextureSlots = 20, kVertexSlot0 = 16;
  static constexpr uint32_t kTextureStages = 8; // fixed-function texture stages
  static constexpr uint32_t kClipPlanes = 6;     // D3DCAPS9::MaxUserClipPlanes
  static constexpr size_t kMaxActiveLights = 8;   // D3DCAPS9::MaxActiveLights

  std::array<DWORD, D3DRS_BLENDOPALPHA + 1> render_states{};
  std::array<D3DMATRIX, 512> transforms{}; // indexed by D3DTRANSFORMSTATETYPE (world matrices from 256)
  D3DVIEWPORT9 viewport{};
  RECT scissor_rect{};
  D3DMATERIAL9 material{};
  std::map<DWORD, LightSlot> lights;
  std::array<std::array<float, 4>, kClipPlanes> clip_planes{};

  DWORD fvf = 0;
  VertexDeclaration *vertex_declaration = nullptr;
  VertexShader *vertex_shader = nullptr; // nullptr: fixed function
  PixelShader *pixel_shader = nullptr;
  ShaderConstants vs_constants;
  ShaderConstants ps_constants{kPixelConstantFiles};
  std::array<StreamBinding, NV_MAX_VERTEX_BUFFERS> streams{};
  IndexBuffer *indices = nullptr;

  std::array<Texture *, kTextureSlots> textures{};
  std::array<std::array<DWORD, D3DSAMP_DMAPOFFSET + 1>, kTextureSlots> sampler_states{};
  // Texture stage states (D3DTSS_*) of stages 0..7, indexed by D3DTEXTURESTAGESTATETYPE.
  std::array<std::array<DWORD, D3DTSS_CONSTANT + 1>, kTextureStages> texture_stage_states{};
};

// Which parts of a DeviceState a state block holds (or, in a TrackedState, holds so far).
struct StateMask {
  // Bits for the largest files (kSoftwareVertexConstantFiles); a stage's own files use the first ones.
  struct Constants {
    std::bitset<kSoftwareVertexConstantFiles.f> f;
    std::bitset<kSoftwareVertexConstantFiles.i> i, b;
  };

  std::bitset<D3DRS_BLENDOPALPHA + 1> render_states;
  std::bitset<512> transforms;
  bool viewport = false, scissor_rect = false, material = false;
  bool all_lights = false; // every light the device has when captured (D3DSBT_ALL, D3DSBT_VERTEXSTATE)
  std::set<DWORD> lights;  // lights recorded one by one (parameters and enable together)
  std::bitset<DeviceState::kClipPlanes> clip_planes;
  bool vertex_declaration = false; // the declaration and the FVF together
  bool vertex_shader = false, pixel_shader = false;
  Constants vs_constants, ps_constants;
  std::bitset<NV_MAX_VERTEX_BUFFERS> streams, stream_frequencies;
  bool indices = false;
  std::bitset<DeviceState::kTextureSlots> textures;
  std::array<std::bitset<D3DSAMP_DMAPOFFSET + 1>, DeviceState::kTextureSlots> sampler_states;
  std::array<std::bitset<D3DTSS_CONSTANT + 1>, DeviceState::kTextureStages> texture_stage_states;

  // The documented lists ("Saving Pixel States / Vertex States / All Device States with a
  // Stateblock", Direct3D 9 docs).
  static StateMask for_type(D3DSTATEBLOCKTYPE type);
};

} // namespace novem
