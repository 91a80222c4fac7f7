// Which dirty groups (StateDirty) each render state feeds, worked out at compile time.
#pragma once

#include <array>
#include <cstdint>

#include <d3d9.h>

#include "state_dirty.hpp"

namespace novem {

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
inline constexpr std::array<uint16_t, D3DRS_BLENDOPALPHA + 1> kRenderStateDirty = [] {
  std::array<uint16_t, D3DRS_BLENDOPALPHA + 1> dirty{};
  for (uint32_t s = 0; s < dirty.size(); ++s) dirty[s] = uint16_t(render_state_dirty(D3DRENDERSTATETYPE(s)));
  return dirty;
}();

} // namespace novem
