// TrackedState: a DeviceState with what was set in it, written through one setter path. The
// device's live state is one (it holds every part, so its `holds` mask is full), and a state
// block being recorded is another (it holds what the application set since BeginStateBlock): the
// device's Set* methods validate the call and write through update_state(), whichever it is, as
// wined3d's setters write its update state block.
//
// Each write also raises the dirty groups (StateDirty) the next draw must send. Only the live
// state's are read: the state encoder (StateEncoder::flush_state) consumes them and compares what it
// builds with what it last sent, so the setters never decide whether a command is sent.
//
// The setters take values the device has validated, except set_constants, whose bounds are the
// files' own. They hold a private reference on each object stored (buffers, textures, shaders,
// declarations); release_bound_objects (state_block.hpp) drops them.
#pragma once

#include <algorithm>

#include "state.hpp"

namespace novem {

// Groups of state the next draw must send; one set for every kind of state. (Vertex and index
// bindings are compared with what was last sent instead.)
enum StateDirty : uint32_t {
  kDirtyTargets = 1u << 0,
  kDirtyViewport = 1u << 1, // viewport and scissor
  kDirtyPipeline = 1u << 2,
  kDirtyVertexConstants = 1u << 3,
  kDirtyPixelConstants = 1u << 4,
  kDirtyTextures = 1u << 5, // textures and sampler states
  kDirtyDynamic = 1u << 6,  // stencil reference and masks, blend factor, depth bias
  kDirtyAll = (1u << 7) - 1,
  // Only shader constants changed, in the registers TrackedState::changed_registers records (or a
  // shader was bound): the next draw sends those (UPDATE_CONSTANTS), not the whole block. The
  // full bits above (set by everything else: Reset, bump-env states, transforms) resend it all.
  kDirtyVertexConstantRange = 1u << 7,
  kDirtyPixelConstantRange = 1u << 8,
  // Only render states that feed the pipeline's blend, depth, stencil, cull, fill and mask
  // fields changed: the next draw rebuilds those fields alone (kDirtyPipeline rebuilds all).
  kDirtyPipelineStates = 1u << 9,
};

// The registers of one stage's constant files set since the encoder last sent them: [begin, end)
// of the float, integer and boolean files (begin > end: none).
struct ChangedRegisters {
  struct Range {
    uint32_t begin = UINT32_MAX, end = 0;
    void widen(uint32_t start, uint32_t count) {
      begin = std::min(begin, start);
      end = std::max(end, start + count);
    }
  };
  Range f, i, b;
};

class TrackedState {
public:
  // `held`: what the state holds from the start (every part for the device's live state, none for
  // a recording). `limits_lights`: LightEnable refuses a ninth enabled light (the live state; a
  // recording takes it, and Apply meets the limit).
  TrackedState(ConstantFiles vertex_files, const StateMask &held, bool limits_lights)
      : state(vertex_files), holds(held), limits_lights_(limits_lights) {}

  DeviceState state;
  StateMask holds;
  uint32_t dirty = kDirtyAll;
  ChangedRegisters changed_registers[2]; // by nv_shader_stage

  void set_render_state(D3DRENDERSTATETYPE s, DWORD value); // s < render_states.size()
  void set_transform(D3DTRANSFORMSTATETYPE s, const D3DMATRIX &matrix);
  void set_viewport(const D3DVIEWPORT9 &viewport);
  void set_scissor_rect(const RECT &rect);
  void set_material(const D3DMATERIAL9 &material);
  void set_light(DWORD index, const D3DLIGHT9 &light);
  // Enabling or disabling a light never set makes it the default light first. Refuses
  // (D3DERR_INVALIDCALL) a ninth enabled light where the state limits them.
  HRESULT enable_light(DWORD index, bool enable);
  void set_clip_plane(DWORD index, const float plane[4]); // index < kClipPlanes
  // The declaration and the FVF are held together: SetVertexDeclaration's (fvf: the
  // declaration's) and SetFVF's (declaration: the FVF's; FVF 0 leaves the declaration alone).
  void set_vertex_declaration(VertexDeclaration *declaration, DWORD fvf);
  void set_fvf(DWORD fvf, VertexDeclaration *declaration);
  void set_vertex_shader(VertexShader *shader);
  void set_pixel_shader(PixelShader *shader);
  // Float, integer and boolean registers ('f', 'i', 'b') from `data` as the SetShaderConstant call
  // got it; D3DERR_INVALIDCALL when they do not lie inside the file or there is no data.
  HRESULT set_constants(nv_shader_stage stage, char kind, UINT start, const void *data, UINT count);
  void set_stream_source(UINT stream, VertexBuffer *buffer, UINT offset, UINT stride);
  void set_stream_frequency(UINT stream, UINT frequency);
  void set_indices(IndexBuffer *buffer);
  void set_texture(uint32_t slot, Texture *texture);
  void set_sampler_state(uint32_t slot, D3DSAMPLERSTATETYPE s, DWORD value);
  void set_texture_stage_state(DWORD stage, D3DTEXTURESTAGESTATETYPE s, DWORD value);

private:
  bool limits_lights_;
};

// Makes `slot` hold `object`, moving the private reference.
template <class T> void hold(T *&slot, T *object) {
  if (slot == object) return;
  if (object) object->add_private_ref();
  if (slot) slot->release_private_ref();
  slot = object;
}

} // namespace novem
