#include "swap_chain.hpp"

namespace novem {

HRESULT SwapChain::QueryInterface(REFIID iid, void **out) {
  // IDirect3DSwapChain9Ex only for a device of Direct3DCreate9Ex, as Windows.
  return query(iid, IID_IDirect3DSwapChain9, out, device_->extended() ? &IID_IDirect3DSwapChain9Ex : nullptr);
}

HRESULT SwapChain::Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override,
                           const RGNDATA *dirty_region, DWORD flags) {
  DeviceLock lock(*device_);
  return device_->present(src_rect, dst_rect, dst_window_override, dirty_region, flags);
}

HRESULT SwapChain::GetFrontBufferData(IDirect3DSurface9 *dst_surface) {
  return device_->GetFrontBufferData(0, dst_surface);
}

HRESULT SwapChain::GetBackBuffer(UINT index, D3DBACKBUFFER_TYPE type, IDirect3DSurface9 **surface) {
  return device_->GetBackBuffer(0, index, type, surface);
}

HRESULT SwapChain::GetRasterStatus(D3DRASTER_STATUS *status) { return device_->GetRasterStatus(0, status); }

HRESULT SwapChain::GetDisplayMode(D3DDISPLAYMODE *mode) { return device_->GetDisplayMode(0, mode); }

HRESULT SwapChain::GetPresentParameters(D3DPRESENT_PARAMETERS *parameters) {
  if (!parameters) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_);
  *parameters = device_->present_parameters();
  return D3D_OK;
}

HRESULT SwapChain::GetLastPresentCount(UINT *count) {
  if (!count) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_);
  *count = device_->present_count();
  return D3D_OK;
}

// Present statistics need a display's vblank counter; a headless device has none. Windows
// answers D3DERR_INVALIDCALL unless the swap effect is D3DSWAPEFFECT_FLIPEX, which a headless
// device never has.
HRESULT SwapChain::GetPresentStats(D3DPRESENTSTATS *) { return D3DERR_INVALIDCALL; }

HRESULT SwapChain::GetDisplayModeEx(D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) {
  return device_->GetDisplayModeEx(0, mode, rotation);
}

} // namespace novem
