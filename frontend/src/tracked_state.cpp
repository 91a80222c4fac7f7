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

namespace {

// The dirty groups a render state feeds. A state feeds only the groups it changes, so that a draw
// after it sends only the commands that changed (SetRenderState of a state the draw path ignores
// sends nothing). kDirtyPipelineStates: only the pipeline's fields that StateEncoder::render_states
// fills; no shader nor key reads them.
constexpr uint32_t render_state_dirty(D3DRENDERSTATETYPE state) {
  switch (state) {
  case D3DRS_ZENABLE: case D3DRS_ZWRITEENABLE: case D3DRS_ZFUNC: case D3DRS_CULLMODE: case D3DRS_FILLMODE:
  case D3DRS_ALPHABLENDENABLE: case D3DRS_SRCBLEND: case D3DRS_DESTBLEND: case D3DRS_BLENDOP:
  case D3DRS_SEPARATEALPHABLENDENABLE: case D3DRS_SRCBLENDALPHA: case D3DRS_DESTBLENDALPHA:
  case D3DRS_BLENDOPALPHA: case D3DRS_COLORWRITEENABLE:
  case D3DRS_STENCILENABLE: case D3DRS_STENCILFAIL: case D3DRS_STENCILZFAIL: case D3DRS_STENCILPASS:
  case D3DRS_STENCILFUNC: case D3DRS_TWOSIDEDSTENCILMODE: case D3DRS_CCW_STENCILFAIL:
  case D3DRS_CCW_STENCILZFAIL: case D3DRS_CCW_STENCILPASS: case D3DRS_CCW_STENCILFUNC:
  case D3DRS_COLORWRITEENABLE1: case D3DRS_COLORWRITEENABLE2: case D3DRS_COLORWRITEENABLE3:
  case D3DRS_MULTISAMPLEMASK:
    return kDirtyPipelineStates;
  case D3DRS_STENCILREF: case D3DRS_STENCILMASK: case D3DRS_STENCILWRITEMASK: case D3DRS_BLENDFACTOR:
    return kDirtyDynamic;
  case D3DRS_DEPTHBIAS: case D3DRS_SLOPESCALEDEPTHBIAS:
    return kDirtyPipelineStates | kDirtyDynamic; // the values, and whether bias is on at all
  case D3DRS_SCISSORTESTENABLE:
    return kDirtyViewport;
  case D3DRS_SRGBWRITEENABLE:
    return kDirtyTargets; // SET_RENDER_TARGETS.srgb_write
  // The fixed-function pipeline: they shape its shaders (keys) or fill its uniform blocks.
  case D3DRS_LIGHTING: case D3DRS_COLORVERTEX: case D3DRS_DIFFUSEMATERIALSOURCE:
  case D3DRS_AMBIENTMATERIALSOURCE: case D3DRS_EMISSIVEMATERIALSOURCE: case D3DRS_SPECULARMATERIALSOURCE:
  case D3DRS_SPECULARENABLE: case D3DRS_LOCALVIEWER: case D3DRS_NORMALIZENORMALS:
  case D3DRS_VERTEXBLEND: case D3DRS_INDEXEDVERTEXBLENDENABLE: case D3DRS_FOGENABLE:
  case D3DRS_FOGTABLEMODE: case D3DRS_FOGVERTEXMODE: case D3DRS_RANGEFOGENABLE:
  case D3DRS_CLIPPING: case D3DRS_CLIPPLANEENABLE: case D3DRS_POINTSCALEENABLE:
  case D3DRS_POINTSPRITEENABLE: case D3DRS_ALPHATESTENABLE: case D3DRS_ALPHAFUNC: case D3DRS_SHADEMODE:
    return kDirtyPipeline | kDirtyVertexConstants | kDirtyPixelConstants;
  case D3DRS_AMBIENT: case D3DRS_FOGSTART: case D3DRS_FOGEND: case D3DRS_FOGDENSITY: case D3DRS_POINTSIZE:
  case D3DRS_POINTSIZE_MIN: case D3DRS_POINTSIZE_MAX: case D3DRS_POINTSCALE_A: case D3DRS_POINTSCALE_B:
  case D3DRS_POINTSCALE_C: case D3DRS_FOGCOLOR: case D3DRS_ALPHAREF: case D3DRS_TEXTUREFACTOR:
  case D3DRS_TWEENFACTOR:
    return kDirtyVertexConstants | kDirtyPixelConstants;
  default:
    return 0; // stored for the getters; not honoured by the draw path yet
  }
}

// render_state_dirty of every state, looked up once per SetRenderState.
constexpr auto kRenderStateDirty = [] {
  std::array<uint16_t, D3DRS_BLENDOPALPHA + 1> dirty{};
  for (uint32_t s = 0; s < dirty.size(); ++s) dirty[s] = uint16_t(render_state_dirty(D3DRENDERSTATETYPE(s)));
  return dirty;
}();

} // namespace

void TrackedState::set_render_state(D3DRENDERSTATETYPE s, DWORD value) {
  if (holds.render_states[s] && state.render_states[s] == value) return;
  state.render_states[s] = value;
  holds.render_states.set(s);
  dirty |= kRenderStateDirty[s];
}

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

HRESULT TrackedState::set_constants(nv_shader_stage stage, char kind, UINT start, const void *data, UINT count) {
  ShaderConstants &c = stage == NV_STAGE_PIXEL ? state.ps_constants : state.vs_constants;
  StateMask::Constants &m = stage == NV_STAGE_PIXEL ? holds.ps_constants : holds.vs_constants;
  ChangedRegisters &changed = changed_registers[stage];
  const size_t size = kind == 'f' ? c.f.size() : kind == 'i' ? c.i.size() : c.b.size();
  // The registers must lie inside the file (start + count without wrapping) and the data be there.
  if (!data || start >= size || count > size - start) return D3DERR_INVALIDCALL;
  if (kind == 'f') {
    std::memcpy(c.f.data() + start, data, size_t(count) * sizeof c.f[0]);
    for (UINT n = start; n < start + count; ++n) m.f.set(n);
    changed.f.widen(start, count);
  } else if (kind == 'i') {
    std::memcpy(c.i.data() + start, data, size_t(count) * sizeof c.i[0]);
    for (UINT n = start; n < start + count; ++n) m.i.set(n);
    changed.i.widen(start, count);
  } else {
    std::memcpy(c.b.data() + start, data, size_t(count) * sizeof c.b[0]);
    for (UINT n = start; n < start + count; ++n) m.b.set(n);
    changed.b.widen(start, count);
  }
  dirty |= stage == NV_STAGE_VERTEX ? kDirtyVertexConstantRange : kDirtyPixelConstantRange;
  return D3D_OK;
}

// Vertex and index bindings are compared with what was last sent when a draw reads them.
void TrackedState::set_stream_source(UINT stream, VertexBuffer *buffer, UINT offset, UINT stride) {
  StreamBinding &s = state.streams[stream];
  hold(s.buffer, buffer);
  s.offset = offset, s.stride = stride; // the frequency stays
  holds.streams.set(stream);
}

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

void TrackedState::set_sampler_state(uint32_t slot, D3DSAMPLERSTATETYPE s, DWORD value) {
  DWORD &current = state.sampler_states[slot][s];
  if (holds.sampler_states[slot][s] && current == value) return;
  current = value;
  holds.sampler_states[slot].set(s);
  dirty |= kDirtyTextures;
}

// Every stage state shapes or feeds the fixed-function shaders; the bump-environment ones also
// the translated pixel shaders' block.
void TrackedState::set_texture_stage_state(DWORD stage, D3DTEXTURESTAGESTATETYPE s, DWORD value) {
  DWORD &current = state.texture_stage_states[stage][s];
  if (holds.texture_stage_states[stage][s] && current == value) return;
  current = value;
  holds.texture_stage_states[stage].set(s);
  dirty |= kDirtyPipeline | kDirtyVertexConstants | kDirtyPixelConstants;
}

} // namespace novem
