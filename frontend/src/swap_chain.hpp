// IDirect3DSwapChain9Ex. The implicit swap chain 0 (what GetSwapChain(0) hands out) forwards
// to the device's own back buffers and presentation parameters: engines often present and fetch
// the back buffer through it rather than the device. An additional swap chain
// (CreateAdditionalSwapChain) has back buffers and a front buffer of its own
// (back_buffer_chain.hpp) and presents to its own window, or headless (docs/d3d9-behaviour.md,
// "Presentation").
#pragma once

#include "back_buffer_chain.hpp"
#include "device_child.hpp"

namespace novem {

class SwapChain final : public DeviceObject<IDirect3DSwapChain9Ex> {
public:
  // The implicit swap chain 0.
  explicit SwapChain(Device *device) : DeviceObject(device, 0) {}
  // An additional swap chain for checked parameters (Device::CreateAdditionalSwapChain); `window`
  // NULL makes it headless.
  SwapChain(Device *device, const D3DPRESENT_PARAMETERS &parameters, HWND window);
  ~SwapChain() override;

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

private:
  bool additional() const { return buffers_.count() != 0; }
  // Its back buffers and front buffer: its own, or the device's for the implicit swap chain.
  BackBufferChain &buffers() { return additional() ? buffers_ : device_->implicit_chain(); }

  // An additional swap chain's own (all empty for the implicit one).
  D3DPRESENT_PARAMETERS parameters_{};
  BackBufferChain buffers_;
  HWND window_ = nullptr;
  UINT present_count_ = 0;
};

} // namespace novem
