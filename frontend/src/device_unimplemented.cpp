// Every IDirect3DDevice9Ex method Novem does not implement yet: each logs once and returns
// the error Windows uses for an invalid call, so a program sees a failure, never a crash.
// A method leaves this file when it is implemented for real.
#include "device.hpp"
#include "log.hpp"

namespace novem {

HRESULT Device::ProcessVertices(UINT, UINT, UINT, IDirect3DVertexBuffer9 *, IDirect3DVertexDeclaration9 *, DWORD) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }

} // namespace novem
