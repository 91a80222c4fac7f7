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
#include <array>
#include <cstring>

#include "render_state_dirty.hpp"
#include "state.hpp"
#include "state_dirty.hpp"

namespace novem {

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
  bool any() const { return f.begin < f.end || i.begin < i.end || b.begin < b.end; }
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
  // Float, integer or boolean registers (kKind 'f', 'i', 'b') from `data` as the SetShaderConstant call
  // got it; D3DERR_INVALIDCALL when they do not lie inside the file or there is no data.
  template <char kKind> HRESULT set_constants(nv_shader_stage stage, UINT start, const void *data, UINT count);
  void set_stream_source(UINT stream, VertexBuffer *buffer, UINT offset, UINT stride);
  void set_stream_frequency(UINT stream, UINT frequency);
  void set_indices(IndexBuffer *buffer);
  void set_texture(uint32_t slot, Texture *texture);
  void set_sampler_state(uint32_t slot, D3DSAMPLERSTATETYPE s, DWORD value);
  void set_texture_stage_state(DWORD stage, D3DTEXTURESTAGESTATETYPE s, DWORD value);

private:
  // hold() of a vertex buffer, out of line (VertexBuffer is not complete here).
  static void hold_buffer(VertexBuffer *&slot, VertexBuffer *buffer);

  bool limits_lights_;
};

// The setters a draw loop calls most, inline: the rest are in tracked_state.cpp.
inline void TrackedState::set_render_state(D3DRENDERSTATETYPE s, DWORD value) {
  if (state.render_states[s] == value && holds.render_states[s]) return;
  state.render_states[s] = value;
  holds.render_states[s] = true;
  dirty |= kRenderStateDirty[s];
}

inline void TrackedState::set_sampler_state(uint32_t slot, D3DSAMPLERSTATETYPE s, DWORD value) {
  DWORD &current = state.sampler_states[slot][s];
  if (current == value && holds.sampler_states[slot][s]) return;
  current = value;
  holds.sampler_states[slot][s] = true;
  dirty |= kDirtyTextures;
}

// Every stage state shapes or feeds the fixed-function shaders; the bump-environment ones also
// the translated pixel shaders' block.
inline void TrackedState::set_texture_stage_state(DWORD stage, D3DTEXTURESTAGESTATETYPE s, DWORD value) {
  DWORD &current = state.texture_stage_states[stage][s];
  if (current == value && holds.texture_stage_states[stage][s]) return;
  current = value;
  holds.texture_stage_states[stage][s] = true;
  dirty |= kDirtyPipeline | kDirtyVertexConstants | kDirtyPixelConstants;
}

// Vertex and index bindings are compared with what was last sent when a draw reads them. A UP
// draw unsets stream 0 each time: an unchanged buffer takes no call.
inline void TrackedState::set_stream_source(UINT stream, VertexBuffer *buffer, UINT offset, UINT stride) {
  StreamBinding &s = state.streams[stream];
  if (s.buffer != buffer) hold_buffer(s.buffer, buffer);
  s.offset = offset, s.stride = stride; // the frequency stays
  holds.streams[stream] = true;
}

template <char kKind>
inline HRESULT TrackedState::set_constants(nv_shader_stage stage, UINT start, const void *data, UINT count) {
  ShaderConstants &c = stage == NV_STAGE_PIXEL ? state.ps_constants : state.vs_constants;
  StateMask::Constants &m = stage == NV_STAGE_PIXEL ? holds.ps_constants : holds.vs_constants;
  ChangedRegisters &changed = changed_registers[stage];
  auto write = [&](auto &file, auto &held, ChangedRegisters::Range &range) {
    // The registers must lie inside the file (start + count without wrapping) and the data be there.
    if (!data || start >= file.size() || count > file.size() - start) return D3DERR_INVALIDCALL;
    std::memcpy(file.data() + start, data, size_t(count) * sizeof file[0]);
    for (UINT n = start; n < start + count; ++n) held[n] = true;
    range.widen(start, count);
    dirty |= stage == NV_STAGE_VERTEX ? kDirtyVertexConstantRange : kDirtyPixelConstantRange;
    return D3D_OK;
  };
  if constexpr (kKind == 'f') return write(c.f, m.f, changed.f);
  else if constexpr (kKind == 'i') return write(c.i, m.i, changed.i);
  else return write(c.b, m.b, changed.b);
}

// Makes `slot` hold `object`, moving the private reference.
template <class T> void hold(T *&slot, T *object) {
  if (slot == object) return;
  if (object) object->add_private_ref();
  if (slot) slot->release_private_ref();
  slot = object;
}

} // namespace novem
