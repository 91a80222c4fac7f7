// Every IDirect3DDevice9Ex method Novem does not implement yet: each logs once and returns
// the error Windows uses for an invalid call, so a program sees a failure, never a crash.
// A method leaves this file when it is implemented for real.
#include "device.hpp"
#include "log.hpp"

namespace novem {

HRESULT Device::SetCursorProperties(UINT, UINT, IDirect3DSurface9 *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
void Device::SetCursorPosition(int, int, DWORD) { NOVEM_UNIMPLEMENTED(); }
WINBOOL Device::ShowCursor(WINBOOL) { NOVEM_UNIMPLEMENTED(FALSE); }
HRESULT Device::CreateAdditionalSwapChain(D3DPRESENT_PARAMETERS *, IDirect3DSwapChain9 **) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::SetDialogBoxMode(WINBOOL) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::SetPaletteEntries(UINT, const PALETTEENTRY *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::GetPaletteEntries(UINT, PALETTEENTRY *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::SetCurrentTexturePalette(UINT) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::GetCurrentTexturePalette(UINT *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::DrawRectPatch(UINT, const float *, const D3DRECTPATCH_INFO *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::DrawTriPatch(UINT, const float *, const D3DTRIPATCH_INFO *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::DeletePatch(UINT) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::SetConvolutionMonoKernel(UINT, UINT, float *, float *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Device::ComposeRects(IDirect3DSurface9 *, IDirect3DSurface9 *, IDirect3DVertexBuffer9 *, UINT, IDirect3DVertexBuffer9 *, D3DCOMPOSERECTSOP, INT, INT) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }

} // namespace novem
