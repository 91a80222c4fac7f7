// D3D9Ex's text API: ComposeRects and SetConvolutionMonoKernel. Both work on D3DFMT_A1
// (one bit a texel) surfaces made with D3DUSAGE_TEXTAPI; Novem has no A1 format (CheckDeviceFormat
// refuses it), so no surface meets ComposeRects' documented constraints and every call is
// refused as Windows refuses one that breaks them. SetConvolutionMonoKernel is validated and
// stored; the D3DTEXF_CONVOLUTIONMONO filter it configures applies only to A1 textures.
#include "device.hpp"

namespace novem {

namespace {
// Windows SDK d3d9types.h values, missing from mingw-w64's headers.
constexpr UINT kComposeRectsMaxRects = 0xFFFF;  // D3DCOMPOSERECTS_MAXNUMRECTS
constexpr UINT kConvolutionMonoMaxSize = 7;     // D3DCONVOLUTIONMONO_MAXWIDTH and MAXHEIGHT
} // namespace

// IDirect3DDevice9Ex::ComposeRects' documented constraints: two different surfaces, both
// D3DFMT_A1, rectangle counts up to D3DCOMPOSERECTS_MAXNUMRECTS, an operation of
// D3DCOMPOSERECTSOP, and the descriptor buffers present when rectangles are composed.
HRESULT Device::ComposeRects(IDirect3DSurface9 *src, IDirect3DSurface9 *dst, IDirect3DVertexBuffer9 *src_descs,
                             UINT rect_count, IDirect3DVertexBuffer9 *dst_descs, D3DCOMPOSERECTSOP operation, INT,
                             INT) {
  if (!src || !dst || src == dst || rect_count > kComposeRectsMaxRects) return D3DERR_INVALIDCALL;
  if (operation < D3DCOMPOSERECTS_COPY || operation > D3DCOMPOSERECTS_NEG) return D3DERR_INVALIDCALL;
  if (rect_count && (!src_descs || !dst_descs)) return D3DERR_INVALIDCALL;
  // Both surfaces must be D3DFMT_A1, a format no Novem surface has (CheckDeviceFormat refuses
  // it): every call that gets here names surfaces of another format and is refused.
  return D3DERR_INVALIDCALL;
}

// width and height 1..7 (D3DCONVOLUTIONMONO_MAXWIDTH/MAXHEIGHT); the weights must be NULL (all
// 1.0), as the documentation requires. Only ComposeRects' D3DFMT_A1 surfaces read the kernel, and
// no Novem surface has that format, so a valid call changes nothing.
HRESULT Device::SetConvolutionMonoKernel(UINT width, UINT height, float *rows, float *columns) {
  if (width < 1 || width > kConvolutionMonoMaxSize || height < 1 || height > kConvolutionMonoMaxSize)
    return D3DERR_INVALIDCALL;
  if (rows || columns) return D3DERR_INVALIDCALL;
  return D3D_OK;
}

} // namespace novem
