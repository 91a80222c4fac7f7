// D3DCAPS9 as Novem fills it: a capability is reported only once the frontend implements it
// on every plugin. Limits come from the backend's device.
#include <algorithm>
#include <cfloat>
#include <cstring>

#include "direct3d9.hpp"
#include "volume_texture.hpp"

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
                            D3DPMISCCAPS_CULLCCW | D3DPMISCCAPS_COLORWRITEENABLE | D3DPMISCCAPS_BLENDOP |
                            D3DPMISCCAPS_SEPARATEALPHABLEND |
                            // Multiple render targets: own write masks, own formats, blended alike.
                            D3DPMISCCAPS_INDEPENDENTWRITEMASKS | D3DPMISCCAPS_MRTINDEPENDENTBITDEPTHS |
                            D3DPMISCCAPS_MRTPOSTPIXELSHADERBLENDING;
  // D3DZB_USEW draws as D3DZB_TRUE, so D3DPRASTERCAPS_WBUFFER is not reported.
  caps->RasterCaps = D3DPRASTERCAPS_ZTEST | D3DPRASTERCAPS_SCISSORTEST | D3DPRASTERCAPS_DEPTHBIAS |
                     D3DPRASTERCAPS_SLOPESCALEDEPTHBIAS;
  caps->StencilCaps = D3DSTENCILCAPS_KEEP | D3DSTENCILCAPS_ZERO | D3DSTENCILCAPS_REPLACE | D3DSTENCILCAPS_INCRSAT |
                      D3DSTENCILCAPS_DECRSAT | D3DSTENCILCAPS_INVERT | D3DSTENCILCAPS_INCR | D3DSTENCILCAPS_DECR |
                      D3DSTENCILCAPS_TWOSIDED;
  // Fixed function (frontend/shader/ff): D3DTA_TEMP, D3DTA_CONSTANT,
  // vertex fog clamped to [0, 1].
  caps->PrimitiveMiscCaps |= D3DPMISCCAPS_TSSARGTEMP | D3DPMISCCAPS_PERSTAGECONSTANT |
                             D3DPMISCCAPS_FOGVERTEXCLAMPED;
  // D3DRS_SRGBWRITEENABLE blends in linear space and encodes after blending (where the plugin
  // writes a format as sRGB).
  if (adapter.format_support[NV_FORMAT_B8G8R8A8_UNORM] & NV_SUPPORT_SRGB_WRITE)
    caps->PrimitiveMiscCaps |= D3DPMISCCAPS_POSTBLENDSRGBCONVERT;
  caps->RasterCaps |= D3DPRASTERCAPS_FOGVERTEX | D3DPRASTERCAPS_FOGTABLE | D3DPRASTERCAPS_FOGRANGE |
                      D3DPRASTERCAPS_WFOG | D3DPRASTERCAPS_ZFOG;
  caps->AlphaCmpCaps = D3DPCMPCAPS_NEVER | D3DPCMPCAPS_LESS | D3DPCMPCAPS_EQUAL | D3DPCMPCAPS_LESSEQUAL |
                       D3DPCMPCAPS_GREATER | D3DPCMPCAPS_NOTEQUAL | D3DPCMPCAPS_GREATEREQUAL | D3DPCMPCAPS_ALWAYS;
  caps->ZCmpCaps = D3DPCMPCAPS_NEVER | D3DPCMPCAPS_LESS | D3DPCMPCAPS_EQUAL | D3DPCMPCAPS_LESSEQUAL |
                   D3DPCMPCAPS_GREATER | D3DPCMPCAPS_NOTEQUAL | D3DPCMPCAPS_GREATEREQUAL | D3DPCMPCAPS_ALWAYS;
  // Lines: depth test and blending; no antialiasing (D3DRS_ANTIALIASEDLINEENABLE is ignored).
  caps->LineCaps = D3DLINECAPS_ZTEST | D3DLINECAPS_BLEND;
  caps->SrcBlendCaps = D3DPBLENDCAPS_ZERO | D3DPBLENDCAPS_ONE | D3DPBLENDCAPS_SRCCOLOR |
                       D3DPBLENDCAPS_INVSRCCOLOR | D3DPBLENDCAPS_SRCALPHA | D3DPBLENDCAPS_INVSRCALPHA |
                       D3DPBLENDCAPS_DESTALPHA | D3DPBLENDCAPS_INVDESTALPHA | D3DPBLENDCAPS_DESTCOLOR |
                       D3DPBLENDCAPS_INVDESTCOLOR | D3DPBLENDCAPS_SRCALPHASAT |
                       D3DPBLENDCAPS_BOTHSRCALPHA | D3DPBLENDCAPS_BOTHINVSRCALPHA | D3DPBLENDCAPS_BLENDFACTOR;
  caps->DestBlendCaps = caps->SrcBlendCaps;
  caps->ShadeCaps = D3DPSHADECAPS_COLORGOURAUDRGB | D3DPSHADECAPS_ALPHAGOURAUDBLEND |
                    D3DPSHADECAPS_SPECULARGOURAUDRGB | D3DPSHADECAPS_FOGGOURAUD;
  // 2D, cube and volume textures with mip chains, any size up to the adapter's limit (volumes:
  // MaxVolumeExtent).
  caps->TextureCaps = D3DPTEXTURECAPS_ALPHA | D3DPTEXTURECAPS_MIPMAP | D3DPTEXTURECAPS_PROJECTED |
                      D3DPTEXTURECAPS_CUBEMAP | D3DPTEXTURECAPS_MIPCUBEMAP | D3DPTEXTURECAPS_VOLUMEMAP |
                      D3DPTEXTURECAPS_MIPVOLUMEMAP;
  caps->TextureFilterCaps = D3DPTFILTERCAPS_MINFPOINT | D3DPTFILTERCAPS_MINFLINEAR | D3DPTFILTERCAPS_MIPFPOINT |
                            D3DPTFILTERCAPS_MIPFLINEAR | D3DPTFILTERCAPS_MAGFPOINT | D3DPTFILTERCAPS_MAGFLINEAR;
  caps->CubeTextureFilterCaps = caps->TextureFilterCaps;
  caps->VolumeTextureFilterCaps = caps->TextureFilterCaps;
  caps->MaxVolumeExtent = VolumeTexture::kMaxExtent;
  caps->VertexTextureFilterCaps = caps->TextureFilterCaps;
  caps->TextureAddressCaps = D3DPTADDRESSCAPS_WRAP | D3DPTADDRESSCAPS_MIRROR | D3DPTADDRESSCAPS_CLAMP |
                             D3DPTADDRESSCAPS_BORDER | D3DPTADDRESSCAPS_INDEPENDENTUV;
  caps->VolumeTextureAddressCaps = caps->TextureAddressCaps;
  caps->MaxTextureWidth = adapter.max_texture_size;
  caps->MaxTextureHeight = adapter.max_texture_size;
  caps->MaxTextureRepeat = 8192;
  caps->MaxTextureAspectRatio = adapter.max_texture_size;
  // Anisotropic filtering where the plugin has it, advertised for 2D and cube textures (Novem's
  // choice: volume textures and vertex textures, which sample at an explicit level, without).
  caps->MaxAnisotropy = std::max(adapter.max_anisotropy, 1u);
  if (caps->MaxAnisotropy > 1) {
    caps->TextureFilterCaps |= D3DPTFILTERCAPS_MINFANISOTROPIC | D3DPTFILTERCAPS_MAGFANISOTROPIC;
    caps->CubeTextureFilterCaps = caps->TextureFilterCaps;
  }
  // The fixed-function pipeline: 8 stages with every D3DTOP, 8 lights, texture coordinate
  // generation, vertex blending over 4 of world matrices 0..7 and tweening, user clip planes
  // (fixed-function vertex processing only), point sprites and point scale.
  caps->MaxTextureBlendStages = 8;
  caps->MaxSimultaneousTextures = 8;
  caps->TextureOpCaps = D3DTEXOPCAPS_DISABLE | D3DTEXOPCAPS_SELECTARG1 | D3DTEXOPCAPS_SELECTARG2 |
      D3DTEXOPCAPS_MODULATE | D3DTEXOPCAPS_MODULATE2X | D3DTEXOPCAPS_MODULATE4X | D3DTEXOPCAPS_ADD |
      D3DTEXOPCAPS_ADDSIGNED | D3DTEXOPCAPS_ADDSIGNED2X | D3DTEXOPCAPS_SUBTRACT | D3DTEXOPCAPS_ADDSMOOTH |
      D3DTEXOPCAPS_BLENDDIFFUSEALPHA | D3DTEXOPCAPS_BLENDTEXTUREALPHA | D3DTEXOPCAPS_BLENDFACTORALPHA |
      D3DTEXOPCAPS_BLENDTEXTUREALPHAPM | D3DTEXOPCAPS_BLENDCURRENTALPHA | D3DTEXOPCAPS_MODULATEALPHA_ADDCOLOR |
      D3DTEXOPCAPS_MODULATECOLOR_ADDALPHA | D3DTEXOPCAPS_MODULATEINVALPHA_ADDCOLOR |
      D3DTEXOPCAPS_MODULATEINVCOLOR_ADDALPHA | D3DTEXOPCAPS_BUMPENVMAP | D3DTEXOPCAPS_BUMPENVMAPLUMINANCE |
      D3DTEXOPCAPS_DOTPRODUCT3 | D3DTEXOPCAPS_MULTIPLYADD | D3DTEXOPCAPS_LERP | D3DTEXOPCAPS_PREMODULATE;
  caps->FVFCaps = 8 /* texture coordinate sets */ | D3DFVFCAPS_PSIZE;
  caps->VertexProcessingCaps = D3DVTXPCAPS_TEXGEN | D3DVTXPCAPS_MATERIALSOURCE7 | D3DVTXPCAPS_DIRECTIONALLIGHTS |
                               D3DVTXPCAPS_POSITIONALLIGHTS | D3DVTXPCAPS_LOCALVIEWER | D3DVTXPCAPS_TEXGEN_SPHEREMAP |
                               D3DVTXPCAPS_TWEENING;
  caps->MaxActiveLights = 8;
  caps->MaxUserClipPlanes = 6;
  caps->MaxVertexBlendMatrices = 4;
  caps->MaxVertexBlendMatrixIndex = 7;
  caps->MaxVertexW = 1e10f;
  caps->GuardBandLeft = -float(adapter.max_viewport_size);
  caps->GuardBandTop = -float(adapter.max_viewport_size);
  caps->GuardBandRight = float(adapter.max_viewport_size);
  caps->GuardBandBottom = float(adapter.max_viewport_size);
  caps->MaxPrimitiveCount = Device::kMaxPrimitiveCount;
  caps->MaxVertexIndex = 0xFFFFFF;
  // Instancing (SetStreamSourceFreq) has no cap bit: it comes with vs_3_0, reported below.
  caps->MaxStreams = 16;
  caps->MaxStreamStride = Device::kMaxStreamStride;
  caps->MaxPointSize = adapter.max_point_size; // D3DRS_POINTSIZE_MAX is clamped to it
  // Shaders of every model translate and draw; what they can sample does not exist yet (no
  // textures), which the texture caps above say.
  caps->VertexShaderVersion = D3DVS_VERSION(3, 0);
  caps->PixelShaderVersion = D3DPS_VERSION(3, 0);
  caps->MaxVertexShaderConst = 256;
  caps->PixelShader1xMaxValue = FLT_MAX; // registers are 32-bit floats, not clamped
  caps->VS20Caps.Caps = D3DVS20CAPS_PREDICATION;
  caps->VS20Caps.DynamicFlowControlDepth = D3DVS20_MAX_DYNAMICFLOWCONTROLDEPTH;
  caps->VS20Caps.NumTemps = D3DVS20_MAX_NUMTEMPS;
  caps->VS20Caps.StaticFlowControlDepth = D3DVS20_MAX_STATICFLOWCONTROLDEPTH;
  caps->PS20Caps.Caps = D3DPS20CAPS_ARBITRARYSWIZZLE | D3DPS20CAPS_GRADIENTINSTRUCTIONS |
                        D3DPS20CAPS_PREDICATION | D3DPS20CAPS_NODEPENDENTREADLIMIT | D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT;
  caps->PS20Caps.DynamicFlowControlDepth = D3DPS20_MAX_DYNAMICFLOWCONTROLDEPTH;
  caps->PS20Caps.NumTemps = D3DPS20_MAX_NUMTEMPS;
  caps->PS20Caps.StaticFlowControlDepth = D3DPS20_MAX_STATICFLOWCONTROLDEPTH;
  caps->PS20Caps.NumInstructionSlots = D3DPS20_MAX_NUMINSTRUCTIONSLOTS;
  caps->MaxVShaderInstructionsExecuted = 65535;
  caps->MaxPShaderInstructionsExecuted = 65535;
  caps->MaxVertexShader30InstructionSlots = 32768;
  caps->MaxPixelShader30InstructionSlots = 32768;
  caps->NumSimultaneousRTs = NV_MAX_COLOR_TARGETS; // device.cpp SetRenderTarget
  // StretchRect filters (device_copies.cpp): point and linear, minifying and magnifying.
  caps->StretchRectFilterCaps = D3DPTFILTERCAPS_MINFPOINT | D3DPTFILTERCAPS_MAGFPOINT | D3DPTFILTERCAPS_MINFLINEAR |
                                D3DPTFILTERCAPS_MAGFLINEAR;
  // StretchRect reads levels of non-target DEFAULT textures (device_copies.cpp).
  caps->DevCaps2 |= D3DDEVCAPS2_CAN_STRETCHRECT_FROM_TEXTURES;
  caps->MasterAdapterOrdinal = 0;
  caps->AdapterOrdinalInGroup = 0;
  caps->NumberOfAdaptersInGroup = 1;
  // The declaration types beyond FLOAT1-4 and D3DCOLOR that the plugin reads from vertex buffers.
  // UDEC3 and DEC3N read w as 1 through the vertex shader's prologue (d3d9-behaviour.md).
  struct DeclCap { DWORD cap; nv_format format; };
  static constexpr DeclCap decl_caps[] = {
      {D3DDTCAPS_UBYTE4, NV_FORMAT_R8G8B8A8_USCALED},      {D3DDTCAPS_UBYTE4N, NV_FORMAT_R8G8B8A8_UNORM},
      {D3DDTCAPS_SHORT2N, NV_FORMAT_R16G16_SNORM},         {D3DDTCAPS_SHORT4N, NV_FORMAT_R16G16B16A16_SNORM},
      {D3DDTCAPS_USHORT2N, NV_FORMAT_R16G16_UNORM},        {D3DDTCAPS_USHORT4N, NV_FORMAT_R16G16B16A16_UNORM},
      {D3DDTCAPS_UDEC3, NV_FORMAT_R10G10B10A2_USCALED},    {D3DDTCAPS_DEC3N, NV_FORMAT_R10G10B10A2_SNORM},
      {D3DDTCAPS_FLOAT16_2, NV_FORMAT_R16G16_SFLOAT},      {D3DDTCAPS_FLOAT16_4, NV_FORMAT_R16G16B16A16_SFLOAT}};
  caps->DeclTypes = 0;
  for (const DeclCap &c : decl_caps)
    if (adapter.format_support[c.format] & NV_SUPPORT_VERTEX) caps->DeclTypes |= c.cap;
}

} // namespace novem
