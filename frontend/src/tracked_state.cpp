// TrackedState (tracked_state.hpp): the one path by which the device's live state and a state
// block being recorded are written.
#include "tracked_state.hpp"

#include <array>
#include <cstring>

#include "index_buffer.hpp"
#include "shader.hpp"
#include "texture.hpp"
#include "vertex_buffer.hpp"
#include "vertex_declaration.hpp"

namespace novem {

void TrackedState::set_transform(D3DTRANSFORMSTATETYPE s, const D3DMATRIX &matrix) {
  state.transforms[s] = matrix;
  holds.transforms.set(s);
  // Every transform feeds the fixed-function vertex block; the projection also chooses w or z fog.
  dirty |= kDirtyVertexConstants | (s == D3DTS_PROJECTION ? kDirtyPipeline : 0u);
}

void TrackedState::set_viewport(const D3DVIEWPORT9 &viewport) {
  state.viewport = viewport;
  holds.viewport = true;
  dirty |= kDirtyViewport | kDirtyVertexConstants;
}

void TrackedState::set_scissor_rect(const RECT &rect) {
  state.scissor_rect = rect;
  holds.scissor_rect = true;
  if (state.render_states[D3DRS_SCISSORTESTENABLE]) dirty |= kDirtyViewport; // otherwise it changes nothing
}

void TrackedState::set_material(const D3DMATERIAL9 &material) {
  state.material = material;
  holds.material = true;
  dirty |= kDirtyVertexConstants;
}

void TrackedState::set_light(DWORD index, const D3DLIGHT9 &light) {
  // A light new to the state starts disabled.
  state.lights[index].light = light;
  if (!holds.all_lights) holds.lights.insert(index);
  dirty |= kDirtyVertexConstants | kDirtyPipeline; // the light's type shapes the fixed-function shader
}

HRESULT TrackedState::enable_light(DWORD index, bool enable) {
  // A light never set is the default light (and a recording then holds its parameters as well,
  // as Wine's does).
  auto it = state.lights.try_emplace(index, LightSlot::default_light()).first;
  if (limits_lights_ && enable && !it->second.enabled) {
    // At most D3DCAPS9::MaxActiveLights lights are on at once; one more is refused.
    size_t enabled = 0;
    for (const auto &entry : state.lights) enabled += entry.second.enabled;
    if (enabled >= DeviceState::kMaxActiveLights) return D3DERR_INVALIDCALL;
  }
  it->second.enabled = enable;
  if (!holds.all_lights) holds.lights.insert(index);
  dirty |= kDirtyVertexConstants | kDirtyPipeline;
  return D3D_OK;
}

void TrackedState::set_clip_plane(DWORD index, const float plane[4]) {
  std::memcpy(state.clip_planes[index].data(), plane, sizeof(float) * 4);
  holds.clip_planes.set(index);
  dirty |= kDirtyVertexConstants;
}

void TrackedState::set_vertex_declaration(VertexDeclaration *declaration, DWORD fvf) {
  state.fvf = fvf;
  holds.vertex_declaration = true;
  if (declaration == state.vertex_declaration) return;
  hold(state.vertex_declaration, declaration);
  dirty |= kDirtyPipeline | kDirtyVertexConstants;
}

void TrackedState::set_fvf(DWORD fvf, VertexDeclaration *declaration) {
  if (holds.vertex_declaration && fvf == state.fvf && (fvf == 0 || state.vertex_declaration)) return;
  if (fvf == 0) { // as Windows: FVF 0 leaves the declaration alone
    state.fvf = 0;
    holds.vertex_declaration = true;
    return;
  }
  set_vertex_declaration(declaration, fvf);
}

void TrackedState::set_vertex_shader(VertexShader *shader) {
  if (holds.vertex_shader && shader == state.vertex_shader) return;
  hold(state.vertex_shader, shader);
  holds.vertex_shader = true;
  // Shaders share the stage's constants: another shader needs no resend (flush_state resends the
  // block when it held the fixed-function constants).
  dirty |= kDirtyPipeline | kDirtyVertexConstantRange;
}

void TrackedState::set_pixel_shader(PixelShader *shader) {
  if (holds.pixel_shader && shader == state.pixel_shader) return;
  hold(state.pixel_shader, shader);
  holds.pixel_shader = true;
  dirty |= kDirtyPipeline | kDirtyPixelConstantRange;
}

void TrackedState::hold_buffer(VertexBuffer *&slot, VertexBuffer *buffer) { hold(slot, buffer); }

void TrackedState::set_stream_frequency(UINT stream, UINT frequency) {
  state.streams[stream].frequency = frequency; // the draw reads it (Device::instancing)
  holds.stream_frequencies.set(stream);
}

void TrackedState::set_indices(IndexBuffer *buffer) {
  hold(state.indices, buffer);
  holds.indices = true;
}

void TrackedState::set_texture(uint32_t slot, Texture *texture) {
  Texture *old = state.textures[slot];
  if (holds.textures[slot] && texture == old) return;
  // Only what shapes the bound pipeline rebuilds it: without a pixel shader, a stage's texture
  // kind (the fixed-function key); with one, whether a pixel sampler's depth texture compares
  // (its variant's depth_samplers). Another texture of the same kind is only a new binding.
  // SetPixelShader rebuilds the pipeline, so the other case is taken up then.
  if (state.pixel_shader ? slot < 16 && compares_depth(texture) != compares_depth(old)
                         : slot < DeviceState::kTextureStages && ff_texture_kind(texture) != ff_texture_kind(old))
    dirty |= kDirtyPipeline;
  hold(state.textures[slot], texture);
  holds.textures.set(slot);
  dirty |= kDirtyTextures;
}

} // namespace novem
