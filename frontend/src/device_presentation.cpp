// Presentation: Present and PresentEx (to the device window, or headless), the implicit swap
// chain, its back buffers (back_buffer_chain.hpp), the plugin swapchains of windows, and what a
// display would answer (raster status, vblank, gamma, frame latency), answered for a virtual
// 60 Hz 1080-line display (docs/d3d9-behaviour.md, "Presentation and the virtual display").
#include <algorithm>
#include <thread>

#include "device.hpp"
#include "direct3d9.hpp"
#include "settings.hpp"
#include "surface.hpp"
#include "swap_chain.hpp"
#include "window.hpp"

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

HRESULT Device::present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window, const RGNDATA *,
                        DWORD flags) {
  return present_chain(PresentChain{&back_buffers_, device_window_, &present_parameters_, &present_count_}, src_rect,
                       dst_rect, dst_window, flags);
}

namespace {

// A RECT as nv_rect, clipped to [0, width) x [0, height) when `clip`; NULL gives width 0 (the
// whole image or window, as the contract reads it).
bool to_rect(const RECT *r, bool clip, UINT width, UINT height, nv_rect &out) {
  out = nv_rect{0, 0, 0, 0};
  if (!r) return true;
  LONG left = r->left, top = r->top, right = r->right, bottom = r->bottom;
  if (clip) {
    left = std::max<LONG>(left, 0), top = std::max<LONG>(top, 0);
    right = std::min<LONG>(right, LONG(width)), bottom = std::min<LONG>(bottom, LONG(height));
  }
  if (left >= right || top >= bottom) return false;
  out = nv_rect{int32_t(left), int32_t(top), int32_t(right - left), int32_t(bottom - top)};
  return true;
}

} // namespace

// The front buffer gets back buffer 0's frame as the swap effect says (BackBufferChain::present;
// GetFrontBufferData reads it) and, with a window (the swap chain's, or dst_window, D3D9's
// hDestWindowOverride), the frame's src_rect is shown in dst_rect of the window's client area,
// scaled (D3D9 stretches the back buffer over the client area). As wined3d, the rectangles are
// honoured whatever the swap effect; an empty source or destination presents nothing to the
// window. The dirty region is a hint Windows may ignore, and so does Novem.
// Present is where the application waits for the plugin's thread (docs/d3d9-behaviour.md, "Frame
// latency"): until at most the maximum frame latency's frames are in flight, and until the command
// ring has room for a frame as large as this one, so that the next frame's calls do not wait
// inside the ring (only a frame larger than the ring does). D3DPRESENT_DONOTWAIT answers
// D3DERR_WASSTILLDRAWING instead of waiting, as Windows does when the GPU is busy.
HRESULT Device::present_chain(const PresentChain &chain, const RECT *src_rect, const RECT *dst_rect, HWND dst_window,
                              DWORD flags) {
  if (HRESULT hr = presentation_blocked(); hr != D3D_OK) return hr; // lost or occluded (device_fullscreen.cpp)
  CommandStream &cs = commands();
  CommandRing &ring = cs.channel().ring;
  // Room for a frame like this one, and a sixteenth of the ring for the next one's differences
  // (the pad where it wraps round the ring, a few more commands).
  const uint64_t frame_bytes =
      ring.counters.bytes.load(std::memory_order_relaxed) - frame_start_bytes_ + ring.capacity() / 16;
  if ((flags & D3DPRESENT_DONOTWAIT) &&
      ((frame_fences_.size() >= max_frame_latency_ && !cs.completed(frame_fences_.front())) ||
       !ring.has_room(frame_bytes)))
    return D3DERR_WASSTILLDRAWING;
  if (library_settings().frame_rate) // NOVEM_FRAME_RATE; no clock read without it
    std::this_thread::sleep_for(frame_limiter_.wait(FrameLimiter::Clock::now()));
  const D3DPRESENT_PARAMETERS &pp = *chain.parameters;
  uint32_t shown = chain.buffers->present(*this, pp);
  if (chain.buffers == &back_buffers_) {
    // The HUD goes on the implicit swap chain's frames, drawn into the image shown, never into a
    // back buffer: the program's next frame (COPY keeps the back buffer) and its read-backs see
    // none of it, as with an overlay on Windows. A back buffer shown as it is (its front copy
    // deferred) is copied into the front image first; GetFrontBufferData sees the HUD, as a
    // screenshot of the screen would.
    if (hud_.on()) {
      shown = chain.buffers->front_image();
      draw_hud(shown, pp.BackBufferWidth, pp.BackBufferHeight);
    }
    frame_draws_ = 0;
  }
  // Where a back buffer is bound, the next draw binds it again: a FLIP moved its image, and a
  // deferred front copy is made by that binding.
  if (pp.MultiSampleType == D3DMULTISAMPLE_NONE) live_.dirty |= kDirtyTargets;
  nv_cmd_present present{shown, 0, {}, {}};
  if (HWND window = dst_window ? dst_window : chain.window) {
    nv_rect src, dst;
    if (to_rect(src_rect, true, pp.BackBufferWidth, pp.BackBufferHeight, src) && to_rect(dst_rect, false, 0, 0, dst)) {
      present.swapchain = window_target(window);
      present.src_rect = src;
      present.dst_rect = dst;
    }
  }
  cs.push(present);
  ++*chain.present_count;
  frame_fences_.push_back(cs.fence());
  while (frame_fences_.size() > max_frame_latency_) {
    cs.wait(frame_fences_.front());
    frame_fences_.pop_front();
  }
  ring.wait_for_room(frame_bytes);
  frame_start_bytes_ = ring.counters.bytes.load(std::memory_order_relaxed);
  return cs.channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

uint32_t Device::window_target(HWND window) {
  if (auto it = window_targets_.find(window); it != window_targets_.end()) return it->second;
  nv_window native;
  if (!native_window(window, "Present", native)) {
    window_targets_.emplace(window, 0); // logged once; presents nothing to it
    return 0;
  }
  const uint32_t target = commands().new_handle();
  // D3DPRESENT_INTERVAL_IMMEDIATE presents without waiting for the vertical blank; every other
  // interval waits for it (one blank: Novem does not skip more). NOVEM_PRESENT_INTERVAL overrides
  // the program's choice.
  const std::optional<unsigned> forced = library_settings().present_interval;
  const bool vsync = forced ? *forced != 0 : present_parameters_.PresentationInterval != D3DPRESENT_INTERVAL_IMMEDIATE;
  commands().push(nv_cmd_create_swapchain{target, vsync ? 1u : 0u, native});
  window_targets_.emplace(window, target);
  return target;
}

void Device::forget_window(HWND window) {
  auto it = window_targets_.find(window);
  if (it == window_targets_.end() || window == device_window_) return;
  if (it->second) commands().push(nv_cmd_destroy_swapchain{it->second});
  window_targets_.erase(it);
}

// The implicit swap chain's back buffers (BackBufferChain::get: the type is ignored, as Windows).
// Unlike a swap chain's GetBackBuffer, the device's clears *surface when it fails, as Windows
// does (Wine's test_swapchain; Windows crashes on a NULL pointer, Novem refuses it).
HRESULT Device::GetBackBuffer(UINT swapchain, UINT index, D3DBACKBUFFER_TYPE, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (swapchain != 0) return D3DERR_INVALIDCALL;
  return back_buffers_.get(index, surface);
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
  // NOVEM_MAX_FRAME_LATENCY, when set, overrides the program's choice (GetMaximumFrameLatency
  // answers the latency in force).
  max_frame_latency_ = library_settings().max_frame_latency.value_or(latency ? latency : 3);
  return D3D_OK;
}

HRESULT Device::GetMaximumFrameLatency(UINT *latency) {
  if (!latency) return D3DERR_INVALIDCALL;
  *latency = max_frame_latency_;
  return D3D_OK;
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
