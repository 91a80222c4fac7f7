// StateEncoder's textures (state_encoder.hpp): SET_TEXTURE for the slots the draw's shaders
// sample, each with its sampler states as the plugin's sampler description.
#include "state_encoder.hpp"

#include <algorithm>
#include <cstring>

#include "device.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "texture.hpp"

namespace novem {

namespace {

uint8_t filter(DWORD f) {
  switch (f) {
  case D3DTEXF_NONE: return NV_FILTER_NONE;
  case D3DTEXF_POINT: return NV_FILTER_POINT;
  default: return NV_FILTER_LINEAR; // LINEAR, ANISOTROPIC, PYRAMIDALQUAD, GAUSSIANQUAD
  }
}

uint8_t address(DWORD a) {
  switch (a) {
  case D3DTADDRESS_MIRROR:
  case D3DTADDRESS_MIRRORONCE: return NV_ADDRESS_MIRROR; // MIRRORONCE is not advertised
  case D3DTADDRESS_CLAMP: return NV_ADDRESS_CLAMP;
  case D3DTADDRESS_BORDER: return NV_ADDRESS_BORDER;
  default: return NV_ADDRESS_WRAP;
  }
}

} // namespace

void StateEncoder::flush_textures() {
  uint32_t used = 0; // bit per slot
  if (live().state.pixel_shader) used |= live().state.pixel_shader->compiled().reflection.samplers_used & 0xFFFFu;
  if (live().state.vertex_shader) used |= (live().state.vertex_shader->compiled().reflection.samplers_used & 0xFu) << DeviceState::kVertexSlot0;
  if (!live().state.pixel_shader) used |= ff_samplers_; // the stages the fixed-function pixel shader samples
  for (uint32_t slot = 0; slot < DeviceState::kTextureSlots; ++slot) {
    if (!(used & (1u << slot))) continue;
    nv_cmd_set_texture c = texture_command(slot);
    if ((textures_sent_ & (1u << slot)) && std::memcmp(&c, &sent_textures_[slot], sizeof c) == 0) continue;
    commands().push(c);
    sent_textures_[slot] = c;
    textures_sent_ |= 1u << slot;
  }
}

nv_cmd_set_texture StateEncoder::texture_command(uint32_t slot) const {
  nv_cmd_set_texture c;
  std::memset(&c, 0, sizeof c);
  const bool vertex = slot >= DeviceState::kVertexSlot0;
  c.stage = vertex ? NV_STAGE_VERTEX : NV_STAGE_PIXEL;
  c.slot = vertex ? slot - DeviceState::kVertexSlot0 : slot;
  const Texture *t = live().state.textures[slot];
  c.image = t ? t->image() : 0;
  c.type = declared_type(slot);
  const auto &ss = live().state.sampler_states[slot];
  nv_sampler_desc &d = c.sampler;
  d.min_filter = filter(ss[D3DSAMP_MINFILTER]);
  d.mag_filter = filter(ss[D3DSAMP_MAGFILTER]);
  d.mip_filter = filter(ss[D3DSAMP_MIPFILTER]);
  if (d.min_filter == NV_FILTER_NONE) d.min_filter = NV_FILTER_POINT;
  if (d.mag_filter == NV_FILTER_NONE) d.mag_filter = NV_FILTER_POINT;
  d.address_u = address(ss[D3DSAMP_ADDRESSU]);
  d.address_v = address(ss[D3DSAMP_ADDRESSV]);
  d.address_w = address(ss[D3DSAMP_ADDRESSW]);
  // D3DTEXF_ANISOTROPIC as MINFILTER or MAGFILTER filters anisotropically with up to
  // MAXANISOTROPY samples (D3DTEXTUREFILTERTYPE); Vulkan and GL have one anisotropy for both. As
  // MIPFILTER, where D3D9 leaves it undefined, it does the same (wined3d's reading; games set it).
  const bool anisotropic = ss[D3DSAMP_MINFILTER] == D3DTEXF_ANISOTROPIC || ss[D3DSAMP_MAGFILTER] == D3DTEXF_ANISOTROPIC ||
                           ss[D3DSAMP_MIPFILTER] == D3DTEXF_ANISOTROPIC;
  d.max_anisotropy = anisotropic ? uint8_t(std::clamp<DWORD>(ss[D3DSAMP_MAXANISOTROPY], 1, std::max(adapter().max_anisotropy, 1u))) : 1;
  // The most detailed level: the larger of MAXMIPLEVEL and the texture's LOD, within the chain.
  // Without a mip filter MAXMIPLEVEL is ignored and only the LOD counts (Windows: Wine's
  // maxmip_test; wined3d's base level).
  DWORD top = d.mip_filter == NV_FILTER_NONE ? 0 : ss[D3DSAMP_MAXMIPLEVEL];
  if (t) top = std::min<DWORD>(std::max(top, t->lod()), t->levels() - 1);
  d.max_mip_level = uint8_t(std::min<DWORD>(top, 15));
  float bias;
  std::memcpy(&bias, &ss[D3DSAMP_MIPMAPLODBIAS], sizeof bias);
  d.mip_lod_bias = bias;
  color_to_floats(ss[D3DSAMP_BORDERCOLOR], d.border_color);
  if (!vertex && compares_depth_at(slot)) c.flags |= NV_TEXTURE_COMPARE_DEPTH;
  // D3DSAMP_SRGBTEXTURE decodes the formats that answer QUERY_SRGBREAD; others read as they are
  // (Windows ignores the state for them).
  if (t && ss[D3DSAMP_SRGBTEXTURE] && t->format().srgb_readable(adapter().format_support[t->format().storage]))
    c.flags |= NV_TEXTURE_SRGB;
  return c;
}

bool StateEncoder::compares_depth_at(uint32_t slot) const {
  // A 2D sampler reading a depth texture compares, as the vendors' drivers do: a pixel shader's
  // (depth_samplers in its variant key) and a fixed-function stage's (ff::kTextureDepth).
  if (!live().state.pixel_shader) return slot < ff::kStages && (ff_samplers_ >> slot & 1u) && compares_depth(live().state.textures[slot]);
  return slot < 16 && (live().state.pixel_shader->compiled().reflection.samplers_used >> slot & 1u) &&
         compares_depth(live().state.textures[slot]) && declared_type(slot) == NV_IMAGE_TYPE_2D;
}

uint16_t StateEncoder::depth_samplers() const {
  uint16_t mask = 0;
  if (!live().state.pixel_shader) return 0;
  for (uint32_t slot = 0; slot < 16; ++slot)
    if (compares_depth_at(slot)) mask |= uint16_t(1u << slot);
  return mask;
}

uint32_t StateEncoder::declared_type(uint32_t slot) const {
  // What the shader that samples the slot declares (dcl_cube, dcl_volume; 2D otherwise). The
  // fixed-function pixel shader declares each stage's sampler as the bound texture's kind.
  uint8_t type = 0;
  if (slot < DeviceState::kVertexSlot0 && !live().state.pixel_shader && live().state.textures[slot]) {
    return live().state.textures[slot]->type();
  } else if (slot >= DeviceState::kVertexSlot0) {
    if (live().state.vertex_shader)
      type = live().state.vertex_shader->compiled().reflection.sampler_types[slot - DeviceState::kVertexSlot0];
  } else if (live().state.pixel_shader) {
    type = live().state.pixel_shader->compiled().reflection.sampler_types[slot];
  }
  switch (d3d9::SamplerType(type)) {
  case d3d9::SamplerType::Cube: return NV_IMAGE_TYPE_CUBE;
  case d3d9::SamplerType::Volume: return NV_IMAGE_TYPE_3D;
  default: return NV_IMAGE_TYPE_2D;
  }
}

} // namespace novem
