// D3DCAPS9 as Novem fills it: a capability is reported only once the frontend implements it
// on every plugin. Limits come from the backend's device.
#include <cstring>

#include "direct3d9.hpp"

namespace novem {

void fill_device_caps(const nv_adapter_info &adapter, D3DCAPS9 *caps) {
  std::memset(caps, 0, sizeof *caps);
  caps->DeviceType = D3DDEVTYPE_HAL;
  caps->AdapterOrdinal = 0;
  caps->PresentationIntervals = D3DPRESENT_INTERVAL_IMMEDIATE | D3DPRESENT_INTERVAL_ONE;
  caps->DevCaps = D3DDEVCAPS_EXECUTESYSTEMMEMORY | D3DDEVCAPS_TLVERTEXSYSTEMMEMORY |
                  D3DDEVCAPS_TLVERTEXVIDEOMEMORY | D3DDEVCAPS_DRAWPRIMTLVERTEX |
                  D3DDEVCAPS_HWRASTERIZATION | D3DDEVCAPS_HWTRANSFORMANDLIGHT;
  caps->PrimitiveMiscCaps = D3DPMISCCAPS_MASKZ | D3DPMISCCAPS_CULLNONE | D3DPMISCCAPS_CULLCW |
                            D3DPMISCCAPS_CULLCCW | D3DPMISCCAPS_COLORWRITEENABLE | D3DPMISCCAPS_BLENDOP;
  caps->RasterCaps = D3DPRASTERCAPS_ZTEST;
  caps->ZCmpCaps = D3DPCMPCAPS_NEVER | D3DPCMPCAPS_LESS | D3DPCMPCAPS_EQUAL | D3DPCMPCAPS_LESSEQUAL |
                   D3DPCMPCAPS_GREATER | D3DPCMPCAPS_NOTEQUAL | D3DPCMPCAPS_GREATEREQUAL | D3DPCMPCAPS_ALWAYS;
  caps->SrcBlendCaps = D3DPBLENDCAPS_ZERO | D3DPBLENDCAPS_ONE | D3DPBLENDCAPS_SRCCOLOR |
                       D3DPBLENDCAPS_INVSRCCOLOR | D3DPBLENDCAPS_SRCALPHA | D3DPBLENDCAPS_INVSRCALPHA |
                       D3DPBLENDCAPS_DESTALPHA | D3DPBLENDCAPS_INVDESTALPHA | D3DPBLENDCAPS_DESTCOLOR |
                       D3DPBLENDCAPS_INVDESTCOLOR | D3DPBLENDCAPS_SRCALPHASAT |
                       D3DPBLENDCAPS_BOTHSRCALPHA | D3DPBLENDCAPS_BOTHINVSRCALPHA;
  caps->DestBlendCaps = caps->SrcBlendCaps;
  caps->ShadeCaps = D3DPSHADECAPS_COLORGOURAUDRGB | D3DPSHADECAPS_ALPHAGOURAUDBLEND;
  // No textures, stencil, fog, lights, clip planes, point sprites or shaders yet: their caps stay 0.
  caps->MaxVertexW = 1e10f;
  caps->GuardBandLeft = -float(adapter.max_viewport_size);
  caps->GuardBandTop = -float(adapter.max_viewport_size);
  caps->GuardBandRight = float(adapter.max_viewport_size);
  caps->GuardBandBottom = float(adapter.max_viewport_size);
  caps->MaxPrimitiveCount = 0xFFFFF;
  caps->MaxVertexIndex = 0xFFFFF;
  caps->MaxStreams = 1;
  caps->MaxStreamStride = 255;
  caps->MaxPointSize = 1.0f; // D3DRS_POINTSIZE is not honoured yet
  caps->VertexShaderVersion = D3DVS_VERSION(0, 0);
  caps->PixelShaderVersion = D3DPS_VERSION(0, 0);
  caps->NumSimultaneousRTs = 1;
  caps->MasterAdapterOrdinal = 0;
  caps->AdapterOrdinalInGroup = 0;
  caps->NumberOfAdaptersInGroup = 1;
  caps->DeclTypes = 0;
}

} // namespace novem
