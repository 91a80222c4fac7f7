#include "swap_chain.hpp"

#include "surface.hpp"

namespace novem {

SwapChain::SwapChain(Device *device, const D3DPRESENT_PARAMETERS &parameters, HWND window)
    : DeviceObject(device, 1), parameters_(parameters), window_(window) {
  device_->AddRef(); // a public reference: the application holds the device through it
  buffers_.create(*device, parameters, this);
  // Like a D3DPOOL_DEFAULT resource: Reset refuses while it exists (D3D9Ex devices excepted).
  device->count_default_pool_resource(+1);
}

SwapChain::~SwapChain() {
  if (!additional()) return;
  buffers_.destroy(*device_);
  if (window_) device_->forget_window(window_);
  device_->count_default_pool_resource(-1);
}

HRESULT SwapChain::QueryInterface(REFIID iid, void **out) {
  // IDirect3DSwapChain9Ex only for a device of Direct3DCreate9Ex, as Windows.
  return query(iid, IID_IDirect3DSwapChain9, out, device_->extended() ? &IID_IDirect3DSwapChain9Ex : nullptr);
}

HRESULT SwapChain::Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override,
                           const RGNDATA *dirty_region, DWORD flags) {
  DeviceLock lock(*device_);
  if (!additional()) return device_->present(src_rect, dst_rect, dst_window_override, dirty_region, flags);
  return device_->present_chain(Device::PresentChain{&buffers_, window_, &parameters_, &present_count_}, src_rect,
                                dst_rect, dst_window_override, flags);
}

HRESULT SwapChain::GetFrontBufferData(IDirect3DSurface9 *dst_surface) {
  if (!additional()) return device_->GetFrontBufferData(0, dst_surface);
  DeviceLock lock(*device_);
  return device_->read_front_buffer(buffers_, window_, parameters_, known_object<Surface>(dst_surface));
}

// Windows' swap chains leave *surface as it was when they fail (BackBufferChain::get), the
// implicit one too: it answers with the device's buffers, not through the device's method.
HRESULT SwapChain::GetBackBuffer(UINT index, D3DBACKBUFFER_TYPE, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_);
  return buffers().get(index, surface);
}

HRESULT SwapChain::GetRasterStatus(D3DRASTER_STATUS *status) { return device_->GetRasterStatus(0, status); }

HRESULT SwapChain::GetDisplayMode(D3DDISPLAYMODE *mode) { return device_->GetDisplayMode(0, mode); }

HRESULT SwapChain::GetPresentParameters(D3DPRESENT_PARAMETERS *parameters) {
  if (!parameters) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_);
  *parameters = additional() ? parameters_ : device_->present_parameters();
  return D3D_OK;
}

HRESULT SwapChain::GetLastPresentCount(UINT *count) {
  if (!count) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_);
  *count = additional() ? present_count_ : device_->present_count();
  return D3D_OK;
}

// Present statistics need a display's vblank counter, which Novem does not read. Windows
// answers D3DERR_INVALIDCALL unless the swap effect is D3DSWAPEFFECT_FLIPEX.
HRESULT SwapChain::GetPresentStats(D3DPRESENTSTATS *) { return D3DERR_INVALIDCALL; }

HRESULT SwapChain::GetDisplayModeEx(D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) {
  return device_->GetDisplayModeEx(0, mode, rotation);
}

} // namespace novem
