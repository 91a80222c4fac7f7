// IDirect3DSwapChain9Ex for the device's implicit swap chain 0: what GetSwapChain(0) hands out.
// Engines often present and fetch the back buffer through it rather than the device; every
// method forwards to the device's own (headless: one back buffer, see docs/d3d9-behaviour.md).
#pragma once

#include "device_child.hpp"

namespace novem {

class SwapChain final : public DeviceObject<IDirect3DSwapChain9Ex> {
public:
  explicit SwapChain(Device *device) : DeviceObject(device, 0) {}

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  HRESULT STDMETHODCALLTYPE Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override,
                                    const RGNDATA *dirty_region, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE GetFrontBufferData(IDirect3DSurface9 *dst_surface) override;
  HRESULT STDMETHODCALLTYPE GetBackBuffer(UINT backbuffer_idx, D3DBACKBUFFER_TYPE backbuffer_type,
                                          IDirect3DSurface9 **backbuffer) override;
  HRESULT STDMETHODCALLTYPE GetRasterStatus(D3DRASTER_STATUS *raster_status) override;
  HRESULT STDMETHODCALLTYPE GetDisplayMode(D3DDISPLAYMODE *mode) override;
  HRESULT STDMETHODCALLTYPE GetPresentParameters(D3DPRESENT_PARAMETERS *parameters) override;
  HRESULT STDMETHODCALLTYPE GetLastPresentCount(UINT *last_present_count) override;
  HRESULT STDMETHODCALLTYPE GetPresentStats(D3DPRESENTSTATS *stats) override;
  HRESULT STDMETHODCALLTYPE GetDisplayModeEx(D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) override;
};

} // namespace novem
