// Presentation without a window: Present and PresentEx, the implicit swap chain, the back buffer,
// and what a display would answer (raster status, vblank, gamma, frame latency), answered for the
// one virtual 60 Hz 1920x1080 mode the adapter reports (docs/d3d9-behaviour.md, "Devices").
#include <algorithm>
#include <thread>

#include "device.hpp"
#include "direct3d9.hpp"
#include "surface.hpp"
#include "swap_chain.hpp"

namespace novem {

namespace {

// The virtual display: 60 Hz, 1080 visible lines of 1125 (CEA-861's 1080p60 timing).
constexpr std::chrono::nanoseconds kRefreshPeriod{16'666'667};
constexpr UINT kVisibleLines = 1080, kTotalLines = 1125;

} // namespace

bool Device::extended() const { return parent_->extended(); }

UINT Device::GetNumberOfSwapChains() { return 1; }

HRESULT Device::GetSwapChain(UINT index, IDirect3DSwapChain9 **swap_chain) {
  if (!swap_chain) return D3DERR_INVALIDCALL;
  *swap_chain = nullptr;
  if (index != 0) return D3DERR_INVALIDCALL;
  if (!swap_chain_) {
    swap_chain_ = new SwapChain(this);
    swap_chain_->add_private_ref();
  }
  swap_chain_->AddRef();
  *swap_chain = swap_chain_;
  return D3D_OK;
}

HRESULT Device::Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window, const RGNDATA *dirty_region) {
  return present(src_rect, dst_rect, dst_window, dirty_region, 0);
}

HRESULT Device::PresentEx(const RECT *src_rect, const RECT *dst_rect, HWND dst_window, const RGNDATA *dirty_region,
                          DWORD flags) {
  return present(src_rect, dst_rect, dst_window, dirty_region, flags);
}

// Rectangles and a window override have nothing to act on without a window: the whole back buffer
// is presented. D3DPRESENT_DONOTWAIT answers D3DERR_WASSTILLDRAWING instead of waiting when the
// frame-latency limit is reached, as Windows does when the GPU is busy.
HRESULT Device::present(const RECT *, const RECT *, HWND, const RGNDATA *, DWORD flags) {
  CommandStream &cs = commands();
  if ((flags & D3DPRESENT_DONOTWAIT) && frame_fences_.size() >= max_frame_latency_ &&
      !cs.completed(frame_fences_.front()))
    return D3DERR_WASSTILLDRAWING;
  // What the front buffer shows from now on (GetFrontBufferData).
  const nv_rect whole{0, 0, int32_t(present_parameters_.BackBufferWidth), int32_t(present_parameters_.BackBufferHeight)};
  cs.push(NV_OP_BLIT_IMAGE, nv_cmd_blit_image{back_buffer_->image(), 0, whole, front_image_, 0, whole, NV_FILTER_POINT});
  cs.push(NV_OP_PRESENT, nv_cmd_present{back_buffer_->image()});
  ++present_count_;
  frame_fences_.push_back(cs.fence());
  // At most max_frame_latency_ frames in flight: the one reason Present waits.
  while (frame_fences_.size() > max_frame_latency_) {
    cs.wait(frame_fences_.front());
    frame_fences_.pop_front();
  }
  return cs.channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

HRESULT Device::GetBackBuffer(UINT swapchain, UINT index, D3DBACKBUFFER_TYPE type, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  // One back buffer is kept whatever BackBufferCount says (headless presentation does not flip).
  if (swapchain != 0 || index != 0 || type != D3DBACKBUFFER_TYPE_MONO) return D3DERR_INVALIDCALL;
  back_buffer_->AddRef();
  *surface = back_buffer_;
  return D3D_OK;
}

// The beam of the virtual display, from the time since the device was created.
HRESULT Device::GetRasterStatus(UINT swapchain, D3DRASTER_STATUS *status) {
  if (!status || swapchain != 0) return D3DERR_INVALIDCALL;
  const auto in_frame = (std::chrono::steady_clock::now() - created_) % kRefreshPeriod;
  const UINT line = UINT(uint64_t(in_frame.count()) * kTotalLines / uint64_t(kRefreshPeriod.count()));
  status->InVBlank = line >= kVisibleLines;
  status->ScanLine = status->InVBlank ? 0 : line; // Windows reports 0 during the vertical blank
  return D3D_OK;
}

HRESULT Device::WaitForVBlank(UINT swapchain) {
  if (swapchain != 0) return D3DERR_INVALIDCALL;
  const auto since = std::chrono::steady_clock::now() - created_;
  std::this_thread::sleep_until(created_ + (since / kRefreshPeriod + 1) * kRefreshPeriod);
  return D3D_OK;
}

// Stored and answered; there is no display for the ramp to change (headless).
void Device::SetGammaRamp(UINT swapchain, DWORD, const D3DGAMMARAMP *ramp) {
  if (swapchain == 0 && ramp) gamma_ramp_ = *ramp;
}

void Device::GetGammaRamp(UINT swapchain, D3DGAMMARAMP *ramp) {
  if (swapchain == 0 && ramp) *ramp = gamma_ramp_;
}

// D3D9Ex: 0 restores the default of 3; at most 16 (D3D9Ex's documented range).
HRESULT Device::SetMaximumFrameLatency(UINT latency) {
  if (latency > 16) return D3DERR_INVALIDCALL;
  max_frame_latency_ = latency ? latency : 3;
  return D3D_OK;
}

HRESULT Device::GetMaximumFrameLatency(UINT *latency) {
  if (!latency) return D3DERR_INVALIDCALL;
  *latency = max_frame_latency_;
  return D3D_OK;
}

// No window can be occluded or lose its mode; only a lost plugin device is reported.
HRESULT Device::CheckDeviceState(HWND) {
  return commands().channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

HRESULT Device::GetDisplayModeEx(UINT swapchain, D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) {
  if (swapchain != 0) return D3DERR_INVALIDCALL;
  return parent_->GetAdapterDisplayModeEx(0, mode, rotation);
}

// D3D9Ex: priorities from -7 to 7. The plugin's thread is not re-prioritised; the value is kept.
HRESULT Device::SetGPUThreadPriority(INT priority) {
  if (priority < -7 || priority > 7) return D3DERR_INVALIDCALL;
  gpu_thread_priority_ = priority;
  return D3D_OK;
}

HRESULT Device::GetGPUThreadPriority(INT *priority) {
  if (!priority) return D3DERR_INVALIDCALL;
  *priority = gpu_thread_priority_;
  return D3D_OK;
}

// Every resource lives in the plugin's device memory: all are resident. At most 65535 may be
// asked about at once, as D3D9Ex documents.
HRESULT Device::CheckResourceResidency(IDirect3DResource9 **resources, UINT32 count) {
  if (count > 65535 || (count && !resources)) return D3DERR_INVALIDCALL;
  return D3D_OK;
}

} // namespace novem
