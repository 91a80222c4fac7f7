// IDirect3DStateBlock9 (see state_block.hpp): the documented state lists, Capture, Apply and
// recording.
#include "state_block.hpp"

#include <cstring>
#include <initializer_list>

#include "index_buffer.hpp"
#include "shader.hpp"
#include "texture.hpp"
#include "vertex_buffer.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

// Every D3DRENDERSTATETYPE value d3d9 defines.
constexpr D3DRENDERSTATETYPE kAllRenderStates[] = {
    D3DRS_ZENABLE, D3DRS_FILLMODE, D3DRS_SHADEMODE, D3DRS_ZWRITEENABLE, D3DRS_ALPHATESTENABLE, D3DRS_LASTPIXEL,
    D3DRS_SRCBLEND, D3DRS_DESTBLEND, D3DRS_CULLMODE, D3DRS_ZFUNC, D3DRS_ALPHAREF, D3DRS_ALPHAFUNC,
    D3DRS_DITHERENABLE, D3DRS_ALPHABLENDENABLE, D3DRS_FOGENABLE, D3DRS_SPECULARENABLE, D3DRS_FOGCOLOR,
    D3DRS_FOGTABLEMODE, D3DRS_FOGSTART, D3DRS_FOGEND, D3DRS_FOGDENSITY, D3DRS_RANGEFOGENABLE, D3DRS_STENCILENABLE,
    D3DRS_STENCILFAIL, D3DRS_STENCILZFAIL, D3DRS_STENCILPASS, D3DRS_STENCILFUNC, D3DRS_STENCILREF,
    D3DRS_STENCILMASK, D3DRS_STENCILWRITEMASK, D3DRS_TEXTUREFACTOR, D3DRS_WRAP0, D3DRS_WRAP1, D3DRS_WRAP2,
    D3DRS_WRAP3, D3DRS_WRAP4, D3DRS_WRAP5, D3DRS_WRAP6, D3DRS_WRAP7, D3DRS_CLIPPING, D3DRS_LIGHTING, D3DRS_AMBIENT,
    D3DRS_FOGVERTEXMODE, D3DRS_COLORVERTEX, D3DRS_LOCALVIEWER, D3DRS_NORMALIZENORMALS,
    D3DRS_DIFFUSEMATERIALSOURCE, D3DRS_SPECULARMATERIALSOURCE, D3DRS_AMBIENTMATERIALSOURCE,
    D3DRS_EMISSIVEMATERIALSOURCE, D3DRS_VERTEXBLEND, D3DRS_CLIPPLANEENABLE, D3DRS_POINTSIZE, D3DRS_POINTSIZE_MIN,
    D3DRS_POINTSPRITEENABLE, D3DRS_POINTSCALEENABLE, D3DRS_POINTSCALE_A, D3DRS_POINTSCALE_B, D3DRS_POINTSCALE_C,
    D3DRS_MULTISAMPLEANTIALIAS, D3DRS_MULTISAMPLEMASK, D3DRS_PATCHEDGESTYLE, D3DRS_DEBUGMONITORTOKEN,
    D3DRS_POINTSIZE_MAX, D3DRS_INDEXEDVERTEXBLENDENABLE, D3DRS_COLORWRITEENABLE, D3DRS_TWEENFACTOR, D3DRS_BLENDOP,
    D3DRS_POSITIONDEGREE, D3DRS_NORMALDEGREE, D3DRS_SCISSORTESTENABLE, D3DRS_SLOPESCALEDEPTHBIAS,
    D3DRS_ANTIALIASEDLINEENABLE, D3DRS_MINTESSELLATIONLEVEL, D3DRS_MAXTESSELLATIONLEVEL, D3DRS_ADAPTIVETESS_X,
    D3DRS_ADAPTIVETESS_Y, D3DRS_ADAPTIVETESS_Z, D3DRS_ADAPTIVETESS_W, D3DRS_ENABLEADAPTIVETESSELLATION,
    D3DRS_TWOSIDEDSTENCILMODE, D3DRS_CCW_STENCILFAIL, D3DRS_CCW_STENCILZFAIL, D3DRS_CCW_STENCILPASS,
    D3DRS_CCW_STENCILFUNC, D3DRS_COLORWRITEENABLE1, D3DRS_COLORWRITEENABLE2, D3DRS_COLORWRITEENABLE3,
    D3DRS_BLENDFACTOR, D3DRS_SRGBWRITEENABLE, D3DRS_DEPTHBIAS, D3DRS_WRAP8, D3DRS_WRAP9, D3DRS_WRAP10,
    D3DRS_WRAP11, D3DRS_WRAP12, D3DRS_WRAP13, D3DRS_WRAP14, D3DRS_WRAP15, D3DRS_SEPARATEALPHABLENDENABLE,
    D3DRS_SRCBLENDALPHA, D3DRS_DESTBLENDALPHA, D3DRS_BLENDOPALPHA};

// "Saving Pixel States with a Stateblock" (Direct3D 9 docs).
constexpr D3DRENDERSTATETYPE kPixelRenderStates[] = {
    D3DRS_ZENABLE, D3DRS_FILLMODE, D3DRS_SHADEMODE, D3DRS_ZWRITEENABLE, D3DRS_ALPHATESTENABLE, D3DRS_LASTPIXEL,
    D3DRS_SRCBLEND, D3DRS_DESTBLEND, D3DRS_ZFUNC, D3DRS_ALPHAREF, D3DRS_ALPHAFUNC, D3DRS_DITHERENABLE,
    D3DRS_FOGSTART, D3DRS_FOGEND, D3DRS_FOGDENSITY, D3DRS_ALPHABLENDENABLE, D3DRS_DEPTHBIAS, D3DRS_STENCILENABLE,
    D3DRS_STENCILFAIL, D3DRS_STENCILZFAIL, D3DRS_STENCILPASS, D3DRS_STENCILFUNC, D3DRS_STENCILREF,
    D3DRS_STENCILMASK, D3DRS_STENCILWRITEMASK, D3DRS_TEXTUREFACTOR, D3DRS_WRAP0, D3DRS_WRAP1, D3DRS_WRAP2,
    D3DRS_WRAP3, D3DRS_WRAP4, D3DRS_WRAP5, D3DRS_WRAP6, D3DRS_WRAP7, D3DRS_WRAP8, D3DRS_WRAP9, D3DRS_WRAP10,
    D3DRS_WRAP11, D3DRS_WRAP12, D3DRS_WRAP13, D3DRS_WRAP14, D3DRS_WRAP15, D3DRS_COLORWRITEENABLE, D3DRS_BLENDOP,
    D3DRS_SCISSORTESTENABLE, D3DRS_SLOPESCALEDEPTHBIAS, D3DRS_ANTIALIASEDLINEENABLE, D3DRS_TWOSIDEDSTENCILMODE,
    D3DRS_CCW_STENCILFAIL, D3DRS_CCW_STENCILZFAIL, D3DRS_CCW_STENCILPASS, D3DRS_CCW_STENCILFUNC,
    D3DRS_COLORWRITEENABLE1, D3DRS_COLORWRITEENABLE2, D3DRS_COLORWRITEENABLE3, D3DRS_BLENDFACTOR,
    D3DRS_SRGBWRITEENABLE, D3DRS_SEPARATEALPHABLENDENABLE, D3DRS_SRCBLENDALPHA, D3DRS_DESTBLENDALPHA,
    D3DRS_BLENDOPALPHA};

constexpr D3DSAMPLERSTATETYPE kPixelSamplerStates[] = {
    D3DSAMP_ADDRESSU, D3DSAMP_ADDRESSV, D3DSAMP_ADDRESSW, D3DSAMP_BORDERCOLOR, D3DSAMP_MAGFILTER,
    D3DSAMP_MINFILTER, D3DSAMP_MIPFILTER, D3DSAMP_MIPMAPLODBIAS, D3DSAMP_MAXMIPLEVEL, D3DSAMP_MAXANISOTROPY,
    D3DSAMP_SRGBTEXTURE, D3DSAMP_ELEMENTINDEX};

constexpr D3DTEXTURESTAGESTATETYPE kPixelTextureStageStates[] = {
    D3DTSS_COLOROP, D3DTSS_COLORARG1, D3DTSS_COLORARG2, D3DTSS_ALPHAOP, D3DTSS_ALPHAARG1, D3DTSS_ALPHAARG2,
    D3DTSS_BUMPENVMAT00, D3DTSS_BUMPENVMAT01, D3DTSS_BUMPENVMAT10, D3DTSS_BUMPENVMAT11, D3DTSS_TEXCOORDINDEX,
    D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTSS_COLORARG0,
    D3DTSS_ALPHAARG0, D3DTSS_RESULTARG, D3DTSS_CONSTANT};

// "Saving Vertex States with a Stateblock" (Direct3D 9 docs).
constexpr D3DRENDERSTATETYPE kVertexRenderStates[] = {
    D3DRS_CULLMODE, D3DRS_FOGENABLE, D3DRS_FOGCOLOR, D3DRS_FOGTABLEMODE, D3DRS_FOGSTART, D3DRS_FOGEND,
    D3DRS_FOGDENSITY, D3DRS_RANGEFOGENABLE, D3DRS_AMBIENT, D3DRS_COLORVERTEX, D3DRS_FOGVERTEXMODE, D3DRS_CLIPPING,
    D3DRS_LIGHTING, D3DRS_LOCALVIEWER, D3DRS_EMISSIVEMATERIALSOURCE, D3DRS_AMBIENTMATERIALSOURCE,
    D3DRS_DIFFUSEMATERIALSOURCE, D3DRS_SPECULARMATERIALSOURCE, D3DRS_VERTEXBLEND, D3DRS_CLIPPLANEENABLE,
    D3DRS_POINTSIZE, D3DRS_POINTSIZE_MIN, D3DRS_POINTSPRITEENABLE, D3DRS_POINTSCALEENABLE, D3DRS_POINTSCALE_A,
    D3DRS_POINTSCALE_B, D3DRS_POINTSCALE_C, D3DRS_MULTISAMPLEANTIALIAS, D3DRS_MULTISAMPLEMASK,
    D3DRS_PATCHEDGESTYLE, D3DRS_POINTSIZE_MAX, D3DRS_INDEXEDVERTEXBLENDENABLE, D3DRS_TWEENFACTOR,
    D3DRS_POSITIONDEGREE, D3DRS_NORMALDEGREE, D3DRS_MINTESSELLATIONLEVEL, D3DRS_MAXTESSELLATIONLEVEL,
    D3DRS_ADAPTIVETESS_X, D3DRS_ADAPTIVETESS_Y, D3DRS_ADAPTIVETESS_Z, D3DRS_ADAPTIVETESS_W,
    D3DRS_ENABLEADAPTIVETESSELLATION, D3DRS_NORMALIZENORMALS, D3DRS_SPECULARENABLE, D3DRS_SHADEMODE};

constexpr D3DTEXTURESTAGESTATETYPE kVertexTextureStageStates[] = {D3DTSS_TEXCOORDINDEX, D3DTSS_TEXTURETRANSFORMFLAGS};

DWORD sampler_of(uint32_t slot) {
  return slot < DeviceState::kVertexSlot0 ? slot : D3DVERTEXTEXTURESAMPLER0 + (slot - DeviceState::kVertexSlot0);
}

template <size_t N> void set_all(std::bitset<N> &bits) { bits.set(); }

void set_pixel(StateMask &m) {
  for (D3DRENDERSTATETYPE s : kPixelRenderStates) m.render_states.set(s);
  for (auto &samplers : m.sampler_states)
    for (D3DSAMPLERSTATETYPE s : kPixelSamplerStates) samplers.set(s);
  for (auto &stage : m.texture_stage_states)
    for (D3DTEXTURESTAGESTATETYPE s : kPixelTextureStageStates) stage.set(s);
  m.pixel_shader = true;
  set_all(m.ps_constants.f), set_all(m.ps_constants.i), set_all(m.ps_constants.b);
}

void set_vertex(StateMask &m) {
  for (D3DRENDERSTATETYPE s : kVertexRenderStates) m.render_states.set(s);
  for (auto &samplers : m.sampler_states) samplers.set(D3DSAMP_DMAPOFFSET);
  for (auto &stage : m.texture_stage_states)
    for (D3DTEXTURESTAGESTATETYPE s : kVertexTextureStageStates) stage.set(s);
  m.vertex_shader = true;
  set_all(m.vs_constants.f), set_all(m.vs_constants.i), set_all(m.vs_constants.b);
  m.all_lights = true;
  m.vertex_declaration = true;
  set_all(m.stream_frequencies);
}

} // namespace

StateMask StateMask::for_type(D3DSTATEBLOCKTYPE type) {
  StateMask m;
  if (type == D3DSBT_PIXELSTATE || type == D3DSBT_ALL) set_pixel(m);
  if (type == D3DSBT_VERTEXSTATE || type == D3DSBT_ALL) set_vertex(m);
  if (type == D3DSBT_ALL) {
    // The pixel and vertex lists cover every sampler and texture stage state, not every render state.
    for (D3DRENDERSTATETYPE s : kAllRenderStates) m.render_states.set(s);
    set_all(m.transforms);
    m.viewport = m.scissor_rect = m.material = true;
    set_all(m.clip_planes);
    set_all(m.streams);
    m.indices = true;
    set_all(m.textures);
  }
  return m;
}

StateBlock::StateBlock(Device *device, const StateMask &mask, ULONG public_refs)
    : DeviceObject(device, public_refs), block_(vertex_constant_files(device->creation_.BehaviorFlags), mask, false),
      recorded_(public_refs == 0) {
  copy_from(device->live_.state, false);
}

void release_bound_objects(DeviceState &state) {
  for (StreamBinding &stream : state.streams)
    if (stream.buffer) stream.buffer->release_private_ref();
  if (state.indices) state.indices->release_private_ref();
  for (Texture *t : state.textures)
    if (t) t->release_private_ref();
  if (state.vertex_declaration) state.vertex_declaration->release_private_ref();
  if (state.vertex_shader) state.vertex_shader->release_private_ref();
  if (state.pixel_shader) state.pixel_shader->release_private_ref();
}

StateBlock::~StateBlock() { release_bound_objects(block_.state); }

// Windows' Capture differs from a block's first capture in two ways (Wine's tests record both, and
// wined3d and DXVK do the same): a recorded block does not capture the vertex declaration again,
// and a block CreateStateBlock made captures the stream sources' buffers and strides again but
// keeps their offsets.
void StateBlock::copy_from(const DeviceState &from, bool capture) {
  const StateMask &m = block_.holds;
  for (size_t i = 0; i < m.render_states.size(); ++i)
    if (m.render_states[i]) block_.state.render_states[i] = from.render_states[i];
  for (size_t i = 0; i < m.transforms.size(); ++i)
    if (m.transforms[i]) block_.state.transforms[i] = from.transforms[i];
  if (m.viewport) block_.state.viewport = from.viewport;
  if (m.scissor_rect) block_.state.scissor_rect = from.scissor_rect;
  if (m.material) block_.state.material = from.material;
  if (m.all_lights) block_.state.lights = from.lights;
  for (DWORD index : m.lights) {
    // A recorded light the device does not have (any more) keeps what the block has.
    if (auto it = from.lights.find(index); it != from.lights.end()) block_.state.lights[index] = it->second;
  }
  for (size_t i = 0; i < m.clip_planes.size(); ++i)
    if (m.clip_planes[i]) block_.state.clip_planes[i] = from.clip_planes[i];
  if (m.vertex_declaration && !(capture && recorded_)) {
    hold(block_.state.vertex_declaration, from.vertex_declaration);
    block_.state.fvf = from.fvf;
  }
  if (m.vertex_shader) hold(block_.state.vertex_shader, from.vertex_shader);
  if (m.pixel_shader) hold(block_.state.pixel_shader, from.pixel_shader);
  auto constants = [](const StateMask::Constants &cm, ShaderConstants &to, const ShaderConstants &c) {
    for (size_t i = 0; i < c.f.size(); ++i)
      if (cm.f[i]) to.f[i] = c.f[i];
    for (size_t i = 0; i < c.i.size(); ++i)
      if (cm.i[i]) to.i[i] = c.i[i];
    for (size_t i = 0; i < c.b.size(); ++i)
      if (cm.b[i]) to.b[i] = c.b[i];
  };
  constants(m.vs_constants, block_.state.vs_constants, from.vs_constants);
  constants(m.ps_constants, block_.state.ps_constants, from.ps_constants);
  for (size_t i = 0; i < m.streams.size(); ++i) {
    StreamBinding &to = block_.state.streams[i];
    if (m.streams[i]) {
      hold(to.buffer, from.streams[i].buffer);
      if (!capture || recorded_) to.offset = from.streams[i].offset;
      to.stride = from.streams[i].stride;
    }
    if (m.stream_frequencies[i]) to.frequency = from.streams[i].frequency;
  }
  if (m.indices) hold(block_.state.indices, from.indices);
  for (size_t i = 0; i < m.textures.size(); ++i)
    if (m.textures[i]) hold(block_.state.textures[i], from.textures[i]);
  for (size_t slot = 0; slot < DeviceState::kTextureSlots; ++slot)
    for (size_t s = 0; s < m.sampler_states[slot].size(); ++s)
      if (m.sampler_states[slot][s]) block_.state.sampler_states[slot][s] = from.sampler_states[slot][s];
  for (size_t stage = 0; stage < DeviceState::kTextureStages; ++stage)
    for (size_t s = 0; s < m.texture_stage_states[stage].size(); ++s)
      if (m.texture_stage_states[stage][s]) block_.state.texture_stage_states[stage][s] = from.texture_stage_states[stage][s];
}

HRESULT StateBlock::Capture() {
  DeviceLock lock(*device_);
  if (device_->recording_) return D3DERR_INVALIDCALL; // as documented: not while recording
  copy_from(device_->live_.state, true);
  return D3D_OK;
}

// Everything goes through the device's Set* methods, which compare with the current state where
// that is cheap; the larger values are compared here first, so that applying a block equal to the
// device's state marks nothing dirty and the next draw sends nothing again.
HRESULT StateBlock::Apply() {
  DeviceLock lock(*device_);
  Device &d = *device_;
  if (d.recording_) return D3DERR_INVALIDCALL; // as documented: not while recording
  const DeviceState &now = d.live_.state;
  const StateMask &m = block_.holds;
  for (size_t i = 0; i < m.render_states.size(); ++i)
    if (m.render_states[i]) d.SetRenderState(D3DRENDERSTATETYPE(i), block_.state.render_states[i]);
  for (size_t i = 0; i < m.transforms.size(); ++i)
    if (m.transforms[i] && std::memcmp(&now.transforms[i], &block_.state.transforms[i], sizeof(D3DMATRIX)) != 0)
      d.SetTransform(D3DTRANSFORMSTATETYPE(i), &block_.state.transforms[i]);
  if (m.viewport && std::memcmp(&now.viewport, &block_.state.viewport, sizeof(D3DVIEWPORT9)) != 0)
    d.SetViewport(&block_.state.viewport);
  if (m.scissor_rect && std::memcmp(&now.scissor_rect, &block_.state.scissor_rect, sizeof(RECT)) != 0)
    d.SetScissorRect(&block_.state.scissor_rect);
  if (m.material && std::memcmp(&now.material, &block_.state.material, sizeof(D3DMATERIAL9)) != 0)
    d.SetMaterial(&block_.state.material);
  apply_lights();
  for (size_t i = 0; i < m.clip_planes.size(); ++i)
    if (m.clip_planes[i] && now.clip_planes[i] != block_.state.clip_planes[i])
      d.SetClipPlane(DWORD(i), block_.state.clip_planes[i].data());
  // As Wine: a block holding no declaration leaves the device's alone (a NULL declaration cannot
  // be set to draw with anyway).
  // The declaration itself, whether SetFVF or SetVertexDeclaration put it there: an FVF's is the
  // device's declaration of that FVF, and GetVertexDeclaration must answer the object that was set.
  if (m.vertex_declaration && block_.state.vertex_declaration) d.SetVertexDeclaration(block_.state.vertex_declaration);
  if (m.vertex_shader) d.SetVertexShader(block_.state.vertex_shader);
  if (m.pixel_shader) d.SetPixelShader(block_.state.pixel_shader);
  apply_constants(false);
  apply_constants(true);
  for (size_t i = 0; i < m.streams.size(); ++i) {
    const StreamBinding &s = block_.state.streams[i], &current = now.streams[i];
    if (m.streams[i] && (s.buffer != current.buffer || s.offset != current.offset || s.stride != current.stride))
      d.SetStreamSource(UINT(i), s.buffer, s.offset, s.stride);
    if (m.stream_frequencies[i] && s.frequency != current.frequency) d.SetStreamSourceFreq(UINT(i), s.frequency);
  }
  if (m.indices) d.SetIndices(block_.state.indices);
  for (uint32_t slot = 0; slot < DeviceState::kTextureSlots; ++slot) {
    if (m.textures[slot]) d.SetTexture(sampler_of(slot), block_.state.textures[slot] ? block_.state.textures[slot]->base() : nullptr);
    for (size_t s = 0; s < m.sampler_states[slot].size(); ++s)
      if (m.sampler_states[slot][s])
        d.SetSamplerState(sampler_of(slot), D3DSAMPLERSTATETYPE(s), block_.state.sampler_states[slot][s]);
  }
  for (DWORD stage = 0; stage < DeviceState::kTextureStages; ++stage)
    for (size_t s = 0; s < m.texture_stage_states[stage].size(); ++s)
      if (m.texture_stage_states[stage][s])
        d.SetTextureStageState(stage, D3DTEXTURESTAGESTATETYPE(s), block_.state.texture_stage_states[stage][s]);
  return D3D_OK;
}

void StateBlock::apply_lights() {
  Device &d = *device_;
  const auto &now = d.live_.state.lights;
  // Disables first, so that the lights the block enables fit in the device's eight.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto &[index, slot] : block_.state.lights) {
      if (slot.enabled != (pass == 1)) continue;
      auto it = now.find(index);
      if (it == now.end() || std::memcmp(&it->second.light, &slot.light, sizeof(D3DLIGHT9)) != 0)
        d.SetLight(index, &slot.light);
      if (it == now.end() || it->second.enabled != slot.enabled) d.LightEnable(index, slot.enabled);
    }
  }
}

void StateBlock::apply_constants(bool pixel) {
  Device &d = *device_;
  const StateMask::Constants &m = pixel ? block_.holds.ps_constants : block_.holds.vs_constants;
  const ShaderConstants &c = pixel ? block_.state.ps_constants : block_.state.vs_constants;
  const ShaderConstants &now = pixel ? d.live_.state.ps_constants : d.live_.state.vs_constants;
  for (UINT i = 0; i < c.f.size(); ++i)
    if (m.f[i] && std::memcmp(c.f[i].data(), now.f[i].data(), sizeof c.f[i]) != 0) // bits: -0 and NaN too
      pixel ? d.SetPixelShaderConstantF(i, c.f[i].data(), 1) : d.SetVertexShaderConstantF(i, c.f[i].data(), 1);
  for (UINT i = 0; i < c.i.size(); ++i)
    if (m.i[i] && c.i[i] != now.i[i])
      pixel ? d.SetPixelShaderConstantI(i, c.i[i].data(), 1) : d.SetVertexShaderConstantI(i, c.i[i].data(), 1);
  for (UINT i = 0; i < c.b.size(); ++i)
    if (m.b[i] && c.b[i] != now.b[i])
      pixel ? d.SetPixelShaderConstantB(i, &c.b[i], 1) : d.SetVertexShaderConstantB(i, &c.b[i], 1);
}

} // namespace novem
