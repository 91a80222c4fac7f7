// RT-patches and N-patches (DrawRectPatch, DrawTriPatch, DeletePatch). GetDeviceCaps reports
// neither D3DDEVCAPS_RTPATCHES, D3DDEVCAPS_QUINTICRTPATCHES nor D3DDEVCAPS_NPATCHES, and on such
// a device Windows' runtime draws no patch: every call answers D3DERR_INVALIDCALL (what Wine's
// and DXVK's d3d9 answer too). No patch handle is ever created, so DeletePatch has none to delete.
#include "device.hpp"

namespace novem {

HRESULT Device::DrawRectPatch(UINT, const float *, const D3DRECTPATCH_INFO *) { return D3DERR_INVALIDCALL; }

HRESULT Device::DrawTriPatch(UINT, const float *, const D3DTRIPATCH_INFO *) { return D3DERR_INVALIDCALL; }

HRESULT Device::DeletePatch(UINT) { return D3DERR_INVALIDCALL; }

} // namespace novem
