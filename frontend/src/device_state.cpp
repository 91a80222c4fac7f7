// Render states, transforms, viewport, scissor, material, lights and clip planes: stored application-side (the getters answer
// from here, never from the plugin) and marked dirty for the next draw.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "device.hpp"
#include "math.hpp"
#include "surface.hpp"
#include "vertex_buffer.hpp"

namespace novem {

namespace {

DWORD float_bits(float f) { return std::bit_cast<DWORD>(f); }

constexpr D3DMATRIX kIdentity = {{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}};

// The D3DTEXTURESTAGESTATETYPE values that exist (1..11, 22..24, 26..28, 32).
bool valid_texture_stage_state(D3DTEXTURESTAGESTATETYPE state) {
  switch (state) {
  case D3DTSS_COLOROP: case D3DTSS_COLORARG1: case D3DTSS_COLORARG2: case D3DTSS_ALPHAOP:
  case D3DTSS_ALPHAARG1: case D3DTSS_ALPHAARG2: case D3DTSS_BUMPENVMAT00: case D3DTSS_BUMPENVMAT01:
  case D3DTSS_BUMPENVMAT10: case D3DTSS_BUMPENVMAT11: case D3DTSS_TEXCOORDINDEX:
  case D3DTSS_BUMPENVLSCALE: case D3DTSS_BUMPENVLOFFSET: case D3DTSS_TEXTURETRANSFORMFLAGS:
  case D3DTSS_COLORARG0: case D3DTSS_ALPHAARG0: case D3DTSS_RESULTARG: case D3DTSS_CONSTANT:
    return true;
  default:
    return false;
  }
}

} // namespace

void Device::set_defaults() {
  // The values Windows documents for a new device.
  auto &rs = live_.state.render_states;
  rs.fill(0);
  set_sampler_defaults();
  set_texture_stage_defaults();
  rs[D3DRS_ZENABLE] = present_parameters_.EnableAutoDepthStencil ? D3DZB_TRUE : D3DZB_FALSE;
  rs[D3DRS_FILLMODE] = D3DFILL_SOLID;
  rs[D3DRS_SHADEMODE] = D3DSHADE_GOURAUD;
  rs[D3DRS_ZWRITEENABLE] = TRUE;
  rs[D3DRS_LASTPIXEL] = TRUE;
  rs[D3DRS_SRCBLEND] = D3DBLEND_ONE;
  rs[D3DRS_DESTBLEND] = D3DBLEND_ZERO;
  rs[D3DRS_CULLMODE] = D3DCULL_CCW;
  rs[D3DRS_ZFUNC] = D3DCMP_LESSEQUAL;
  rs[D3DRS_ALPHAFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_FOGEND] = float_bits(1.0f);
  rs[D3DRS_FOGDENSITY] = float_bits(1.0f);
  rs[D3DRS_STENCILFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILZFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILPASS] = D3DSTENCILOP_KEEP;
  rs[D3DRS_STENCILFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_STENCILMASK] = 0xffffffff;
  rs[D3DRS_STENCILWRITEMASK] = 0xffffffff;
  rs[D3DRS_TEXTUREFACTOR] = 0xffffffff;
  rs[D3DRS_CLIPPING] = TRUE;
  rs[D3DRS_LIGHTING] = TRUE;
  rs[D3DRS_COLORVERTEX] = TRUE;
  rs[D3DRS_LOCALVIEWER] = TRUE;
  rs[D3DRS_DIFFUSEMATERIALSOURCE] = D3DMCS_COLOR1;
  rs[D3DRS_SPECULARMATERIALSOURCE] = D3DMCS_COLOR2;
  rs[D3DRS_AMBIENTMATERIALSOURCE] = D3DMCS_MATERIAL;
  rs[D3DRS_EMISSIVEMATERIALSOURCE] = D3DMCS_MATERIAL;
  rs[D3DRS_POINTSIZE] = float_bits(1.0f);
  rs[D3DRS_POINTSIZE_MIN] = float_bits(1.0f);
  rs[D3DRS_POINTSCALE_A] = float_bits(1.0f);
  rs[D3DRS_MULTISAMPLEANTIALIAS] = TRUE;
  rs[D3DRS_MULTISAMPLEMASK] = 0xffffffff;
  rs[D3DRS_POINTSIZE_MAX] = float_bits(adapter().max_point_size);
  rs[D3DRS_COLORWRITEENABLE] = 0xf;
  rs[D3DRS_BLENDOP] = D3DBLENDOP_ADD;
  rs[D3DRS_POSITIONDEGREE] = D3DDEGREE_CUBIC;
  rs[D3DRS_NORMALDEGREE] = D3DDEGREE_LINEAR;
  rs[D3DRS_MINTESSELLATIONLEVEL] = float_bits(1.0f);
  rs[D3DRS_MAXTESSELLATIONLEVEL] = float_bits(1.0f);
  rs[D3DRS_ADAPTIVETESS_Z] = float_bits(1.0f);
  rs[D3DRS_CCW_STENCILFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_CCW_STENCILZFAIL] = D3DSTENCILOP_KEEP;
  rs[D3DRS_CCW_STENCILPASS] = D3DSTENCILOP_KEEP;
  rs[D3DRS_CCW_STENCILFUNC] = D3DCMP_ALWAYS;
  rs[D3DRS_COLORWRITEENABLE1] = 0xf;
  rs[D3DRS_COLORWRITEENABLE2] = 0xf;
  rs[D3DRS_COLORWRITEENABLE3] = 0xf;
  rs[D3DRS_BLENDFACTOR] = 0xffffffff;
  rs[D3DRS_SRCBLENDALPHA] = D3DBLEND_ONE;
  rs[D3DRS_DESTBLENDALPHA] = D3DBLEND_ZERO;
  rs[D3DRS_BLENDOPALPHA] = D3DBLENDOP_ADD;

  live_.state.transforms.fill(kIdentity);
  live_.state.material = D3DMATERIAL9{};
  live_.state.lights.clear();
  live_.state.clip_planes = {};
  live_.state.viewport = D3DVIEWPORT9{0, 0, present_parameters_.BackBufferWidth, present_parameters_.BackBufferHeight, 0.0f, 1.0f};
  live_.state.scissor_rect = RECT{0, 0, LONG(present_parameters_.BackBufferWidth), LONG(present_parameters_.BackBufferHeight)};
  bind_render_target(0, &back_buffers_.back_buffer(0));
  bind_depth_stencil(auto_depth_stencil_);
  live_.dirty = kDirtyAll;
}

HRESULT Device::SetRenderState(D3DRENDERSTATETYPE state, DWORD value) {
  // Windows ignores states it does not know and still returns D3D_OK.
  if (DWORD(state) >= live_.state.render_states.size()) return D3D_OK;
  update_->set_render_state(state, value);
  return D3D_OK;
}

HRESULT Device::GetRenderState(D3DRENDERSTATETYPE state, DWORD *value) {
  if (!value || DWORD(state) >= live_.state.render_states.size()) return D3DERR_INVALIDCALL;
  *value = live_.state.render_states[state];
  return D3D_OK;
}

HRESULT Device::SetTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) {
  if (!matrix || DWORD(state) >= live_.state.transforms.size()) return D3DERR_INVALIDCALL;
  update_->set_transform(state, *matrix);
  return D3D_OK;
}

HRESULT Device::GetTransform(D3DTRANSFORMSTATETYPE state, D3DMATRIX *matrix) {
  if (!matrix || DWORD(state) >= live_.state.transforms.size()) return D3DERR_INVALIDCALL;
  *matrix = live_.state.transforms[state];
  return D3D_OK;
}

HRESULT Device::MultiplyTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) {
  if (!matrix || DWORD(state) >= live_.state.transforms.size()) return D3DERR_INVALIDCALL;
  // D3D9 multiplies on the left of the current matrix: M' = matrix * M.
  const D3DMATRIX product = multiply(*matrix, live_.state.transforms[state]);
  return SetTransform(state, &product);
}

HRESULT Device::SetViewport(const D3DVIEWPORT9 *viewport) {
  if (!viewport) return D3DERR_INVALIDCALL;
  // d3d9 accepts a viewport larger than the render target (d3d8 refused it); drawing is clipped
  // to the target. An empty viewport has no meaning on either plugin and is refused.
  if (viewport->Width == 0 || viewport->Height == 0) return D3DERR_INVALIDCALL;
  // NaN depths mean nothing. A viewport no device can place is refused too: wider or taller than
  // the largest viewport, or reaching past twice that (the bounds Vulkan guarantees every device
  // places); Windows' drivers refuse what their hardware cannot place. Depths outside [0, 1] are
  // kept and clamped where the plugin gets them.
  if (std::isnan(viewport->MinZ) || std::isnan(viewport->MaxZ)) return D3DERR_INVALIDCALL;
  const uint64_t largest = adapter().max_viewport_size;
  if (viewport->Width > largest || viewport->Height > largest || uint64_t(viewport->X) + viewport->Width > 2 * largest ||
      uint64_t(viewport->Y) + viewport->Height > 2 * largest)
    return D3DERR_INVALIDCALL;
  update_->set_viewport(*viewport);
  return D3D_OK;
}

HRESULT Device::GetViewport(D3DVIEWPORT9 *viewport) {
  if (!viewport) return D3DERR_INVALIDCALL;
  *viewport = live_.state.viewport;
  return D3D_OK;
}

HRESULT Device::SetMaterial(const D3DMATERIAL9 *material) {
  if (!material) return D3DERR_INVALIDCALL;
  update_->set_material(*material);
  return D3D_OK;
}

HRESULT Device::GetMaterial(D3DMATERIAL9 *material) {
  if (!material) return D3DERR_INVALIDCALL;
  *material = live_.state.material;
  return D3D_OK;
}

HRESULT Device::SetScissorRect(const RECT *rect) {
  if (!rect) return D3DERR_INVALIDCALL;
  update_->set_scissor_rect(*rect);
  return D3D_OK;
}

HRESULT Device::GetScissorRect(RECT *rect) {
  if (!rect) return D3DERR_INVALIDCALL;
  *rect = live_.state.scissor_rect;
  return D3D_OK;
}

// ---- lights ----
// D3D9 lets a light index be any DWORD; only the lights set or enabled exist.

HRESULT Device::SetLight(DWORD index, const D3DLIGHT9 *light) {
  if (!light) return D3DERR_INVALIDCALL;
  switch (light->Type) {
  case D3DLIGHT_POINT: case D3DLIGHT_SPOT:
    // As Windows: negative attenuation is refused for lights that attenuate.
    if (light->Attenuation0 < 0.0f || light->Attenuation1 < 0.0f || light->Attenuation2 < 0.0f)
      return D3DERR_INVALIDCALL;
    break;
  case D3DLIGHT_DIRECTIONAL:
    break;
  default:
    return D3DERR_INVALIDCALL;
  }
  update_->set_light(index, *light);
  return D3D_OK;
}

HRESULT Device::GetLight(DWORD index, D3DLIGHT9 *light) {
  auto it = live_.state.lights.find(index);
  if (!light || it == live_.state.lights.end()) return D3DERR_INVALIDCALL;
  *light = it->second.light;
  return D3D_OK;
}

// Enabling (or disabling) a light never set creates it with the default light.
HRESULT Device::LightEnable(DWORD index, WINBOOL enable) { return update_->enable_light(index, enable != FALSE); }

HRESULT Device::GetLightEnable(DWORD index, WINBOOL *enable) {
  auto it = live_.state.lights.find(index);
  if (!enable || it == live_.state.lights.end()) return D3DERR_INVALIDCALL;
  // Windows answers 128, not TRUE, for an enabled light (Wine's d3d9 tests and DXVK agree).
  *enable = it->second.enabled ? 128 : FALSE;
  return D3D_OK;
}

// ---- user clip planes ----

// An index at or past MaxUserClipPlanes is the last plane, as Windows' d3d9 answers (Wine's
// tests record it).
HRESULT Device::SetClipPlane(DWORD index, const float *plane) {
  if (!plane) return D3DERR_INVALIDCALL;
  index = std::min<DWORD>(index, DeviceState::kClipPlanes - 1);
  update_->set_clip_plane(index, plane);
  return D3D_OK;
}

HRESULT Device::GetClipPlane(DWORD index, float *plane) {
  if (!plane) return D3DERR_INVALIDCALL;
  index = std::min<DWORD>(index, DeviceState::kClipPlanes - 1);
  std::memcpy(plane, live_.state.clip_planes[index].data(), sizeof(float) * 4);
  return D3D_OK;
}

// ---- texture stage states ----
// Every D3DTSS value is stored for the getters. Only the bump-environment ones (BUMPENVMAT00..11,
// BUMPENVLSCALE, BUMPENVLOFFSET) affect drawing today: they go into the pixel uniform block that
// ps_1_x texbem/texbeml/bem read (docs/shader-conventions.md). The rest are stored for the
// getters until the fixed-function texture stages land.

void Device::set_texture_stage_defaults() {
  // The values Windows documents for a new device.
  for (uint32_t stage = 0; stage < DeviceState::kTextureStages; ++stage) {
    auto &ts = live_.state.texture_stage_states[stage];
    ts.fill(0); // BUMPENVMAT*, BUMPENVLSCALE/LOFFSET (0.0f), TEXTURETRANSFORMFLAGS (DISABLE), CONSTANT
    ts[D3DTSS_COLOROP] = stage == 0 ? D3DTOP_MODULATE : D3DTOP_DISABLE;
    ts[D3DTSS_COLORARG1] = D3DTA_TEXTURE;
    ts[D3DTSS_COLORARG2] = D3DTA_CURRENT;
    ts[D3DTSS_ALPHAOP] = stage == 0 ? D3DTOP_SELECTARG1 : D3DTOP_DISABLE;
    ts[D3DTSS_ALPHAARG1] = D3DTA_TEXTURE;
    ts[D3DTSS_ALPHAARG2] = D3DTA_CURRENT;
    ts[D3DTSS_TEXCOORDINDEX] = stage;
    ts[D3DTSS_TEXTURETRANSFORMFLAGS] = D3DTTFF_DISABLE;
    ts[D3DTSS_COLORARG0] = D3DTA_CURRENT;
    ts[D3DTSS_ALPHAARG0] = D3DTA_CURRENT;
    ts[D3DTSS_RESULTARG] = D3DTA_CURRENT;
  }
}

HRESULT Device::SetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD value) {
  if (stage >= DeviceState::kTextureStages || !valid_texture_stage_state(state)) return D3DERR_INVALIDCALL;
  update_->set_texture_stage_state(stage, state, value);
  return D3D_OK;
}

HRESULT Device::GetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD *value) {
  if (!value || stage >= DeviceState::kTextureStages || !valid_texture_stage_state(state)) return D3DERR_INVALIDCALL;
  *value = live_.state.texture_stage_states[stage][state];
  return D3D_OK;
}

// ---- stored and answered ----

// D3D9 fills the clip status only while vertices are processed in software; Novem processes
// them on the GPU in every mode, so the status is what the application last set (as wined3d).
HRESULT Device::SetClipStatus(const D3DCLIPSTATUS9 *status) {
  if (!status) return D3DERR_INVALIDCALL;
  clip_status_ = *status;
  return D3D_OK;
}

HRESULT Device::GetClipStatus(D3DCLIPSTATUS9 *status) {
  if (!status) return D3DERR_INVALIDCALL;
  *status = clip_status_;
  return D3D_OK;
}

// Software vertex processing exists for devices created with MIXED or SOFTWARE vertex processing
// (refused otherwise, as DXVK records Windows doing). Novem draws the same way in both modes: its
// vertex processing always runs on the plugin's device, with vs_3_0 limits either way.
HRESULT Device::SetSoftwareVertexProcessing(WINBOOL software) {
  const DWORD flags = creation_.BehaviorFlags;
  if (software && !(flags & (D3DCREATE_MIXED_VERTEXPROCESSING | D3DCREATE_SOFTWARE_VERTEXPROCESSING)))
    return D3DERR_INVALIDCALL;
  software_vertex_processing_ = software != FALSE;
  return D3D_OK;
}

WINBOOL Device::GetSoftwareVertexProcessing() { return software_vertex_processing_; }

// N-patches are not advertised (no D3DDEVCAPS_NPATCHES): the segment count is stored and
// answered, and draws are not tessellated, as on hardware without them.
HRESULT Device::SetNPatchMode(float segments) {
  npatch_segments_ = segments;
  return D3D_OK;
}

float Device::GetNPatchMode() { return npatch_segments_; }

// Every state Novem advertises draws in one pass; nothing it accepts is a combination the
// plugins cannot draw, so there is nothing to report but the pass count.
HRESULT Device::ValidateDevice(DWORD *passes) {
  if (!passes) return D3DERR_INVALIDCALL;
  *passes = 1;
  return D3D_OK;
}

} // namespace novem
