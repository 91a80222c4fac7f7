// Full-screen devices and lost devices: the device window made full-screen in the display mode of
// a full-screen device (display.hpp, window.hpp) and given back when the device goes windowed or is
// released; TestCooperativeLevel, CheckDeviceState and what Present answers while a full-screen
// device's program is in the background (docs/d3d9-behaviour.md, "Devices").
//
// Windows loses a full-screen D3D9 device when its application is deactivated or its window
// minimised: TestCooperativeLevel and Present answer D3DERR_DEVICELOST, then, once the application
// is back, TestCooperativeLevel D3DERR_DEVICENOTRESET until a Reset succeeds, and a Reset before
// that is D3DERR_DEVICELOST (Wine's test_lost_device records it; Microsoft's "Lost Devices"). A
// windowed device is not lost so. D3D9Ex devices are never lost: Present and CheckDeviceState
// answer S_PRESENT_OCCLUDED instead (Wine's d3d9ex test_lost_device). SDL has no activation
// event Novem could read without taking the program's events, so the state is asked of SDL when
// TestCooperativeLevel, Present, CheckDeviceState and Reset are called: the window's flags and
// the keyboard focus, which SDL updates as the program pumps its events.
#include "device.hpp"
#include "direct3d9.hpp"
#include "display.hpp"
#include "window.hpp"

namespace novem {

void Device::apply_window_mode() {
  const D3DPRESENT_PARAMETERS &pp = present_parameters_;
  if (pp.Windowed || !device_window_) {
    leave_fullscreen_window();
    return; // a headless full-screen device has a virtual display only: nothing to change
  }
  if (fullscreen_window_ && fullscreen_window_ != device_window_) leave_fullscreen_window();
  // check_present_parameters found the mode: the SDL mode to give the display (its highest rate
  // when FullScreen_RefreshRateInHz is 0).
  DisplayMode mode;
  const bool found = find_display_mode(pp.BackBufferWidth, pp.BackBufferHeight, pp.FullScreen_RefreshRateInHz,
                                       display_format_of(pp.BackBufferFormat), mode);
  if (!fullscreen_window_) {
    windowed_place_ = window_place(device_window_);
    seen_active_ = false;
  }
  fullscreen_window_ = device_window_;
  enter_fullscreen(device_window_, found ? mode.sdl_mode : -1);
}

void Device::leave_fullscreen_window() {
  if (!fullscreen_window_) return;
  leave_fullscreen(fullscreen_window_, windowed_place_);
  fullscreen_window_ = nullptr;
}

// As wined3d gives the window back its place before reading its client area for a windowed
// Reset.
void Device::prepare_window_mode(const D3DPRESENT_PARAMETERS *parameters) {
  if (parameters && parameters->Windowed) leave_fullscreen_window();
}

// A refused Reset leaves a D3D9 device to be reset, whatever refused it (Wine's test_reset: a
// mode the display does not have, a D3DPOOL_DEFAULT resource, a held back buffer); drawing still
// succeeds, Present answers D3DERR_DEVICELOST. D3D9Ex devices are not lost so.
HRESULT Device::reset_done(HRESULT hr, const D3DPRESENT_PARAMETERS *parameters) {
  apply_window_mode(); // the new parameters' mode, or back to the device's own after a refusal
  if (SUCCEEDED(hr))
    lost_ = Lost::kNo;
  else if (parameters && !extended() && lost_ == Lost::kNo)
    lost_ = Lost::kNotReset;
  return hr;
}

HRESULT Device::reset_blocked() { return update_lost() == Lost::kLost ? D3DERR_DEVICELOST : D3D_OK; }

bool Device::fullscreen_in_background() {
  if (present_parameters_.Windowed || !device_window_) return false;
  const WindowState window = window_state(device_window_);
  if (!window.known) return false;
  if (window.program_active) seen_active_ = true;
  // A program not yet seen active since it went full-screen (its window manager has not given it
  // the focus yet) is not taken for one switched away from.
  return window.minimized || (!window.program_active && seen_active_);
}

Device::Lost Device::update_lost() {
  if (extended()) return Lost::kNo;
  if (lost_ == Lost::kNo && fullscreen_in_background())
    lost_ = Lost::kLost;
  else if (lost_ == Lost::kLost && !fullscreen_in_background())
    lost_ = Lost::kNotReset;
  return lost_;
}

HRESULT Device::presentation_blocked() {
  if (extended()) {
    const bool minimized = device_window_ && window_state(device_window_).minimized;
    return fullscreen_in_background() || minimized ? S_PRESENT_OCCLUDED : D3D_OK;
  }
  return update_lost() == Lost::kNo ? D3D_OK : D3DERR_DEVICELOST;
}

// A device is also lost when the plugin's device is (a GPU failure), which no Reset repairs.
HRESULT Device::TestCooperativeLevel() {
  if (stream_->channel().device_lost.load()) return D3DERR_DEVICELOST;
  switch (update_lost()) {
  case Lost::kLost: return D3DERR_DEVICELOST;
  case Lost::kNotReset: return D3DERR_DEVICENOTRESET;
  default: return D3D_OK;
  }
}

// D3D9Ex: a full-screen device in the background is occluded (NULL or any window), and so is a
// minimised (hidden) window, as documented ("a window is occluded if any part of it is obscured");
// windows covered by others are not seen (X11 does not tell). A D3D9 device answers its loss.
HRESULT Device::CheckDeviceState(HWND window) {
  if (commands().channel().device_lost.load()) return D3DERR_DEVICELOST;
  if (update_lost() != Lost::kNo) return D3DERR_DEVICELOST;
  if (fullscreen_in_background() || (window && window_state(window).minimized)) return S_PRESENT_OCCLUDED;
  return D3D_OK;
}

} // namespace novem
