#include "window.hpp"

#include <cstdint>

#include "log.hpp"
#include "sdl.hpp"
#include "x11.hpp"

namespace novem {

bool native_window(HWND hwnd, const char *call, nv_window &out) {
  const Sdl &s = sdl();
  if (!s.ok) {
    log_warn("%s: a window must be an SDL_Window* (SDL2), and SDL2 is not loaded in this process", call);
    return false;
  }
  SdlSysWmInfo info{};
  s.GetVersion(&info.version); // SDL_VERSION(): the caller's version, which SDL checks
  if (!s.GetWindowWMInfo(hwnd, &info)) {
    log_warn("%s: the HWND is not an SDL window (SDL_GetWindowWMInfo failed)", call);
    return false;
  }
  if (info.subsystem != kSdlSysWmX11) {
    log_warn("%s: the SDL window is not an X11 window (SDL_SYSWM_TYPE %d); Novem presents to X11 only", call,
              info.subsystem);
    return false;
  }
  out = nv_window{NV_WINDOW_X11, 0, reinterpret_cast<uintptr_t>(info.info.x11.display), info.info.x11.window};
  return true;
}

bool window_client_size(HWND hwnd, UINT &width, UINT &height) {
  const Sdl &s = sdl();
  if (!s.ok) return false;
  int w = 0, h = 0;
  if (s.GetWindowSizeInPixels)
    s.GetWindowSizeInPixels(hwnd, &w, &h);
  else
    s.GetWindowSize(hwnd, &w, &h);
  if (w <= 0 || h <= 0) return false;
  width = UINT(w);
  height = UINT(h);
  return true;
}

bool window_position(HWND hwnd, int &x, int &y) {
  const Sdl &s = sdl();
  if (!hwnd || !s.GetWindowPosition) return false;
  s.GetWindowPosition(hwnd, &x, &y);
  return true;
}

WindowPlace window_place(HWND hwnd) {
  const Sdl &s = sdl();
  WindowPlace place;
  if (!hwnd || !s.GetWindowSize) return place;
  s.GetWindowSize(hwnd, &place.width, &place.height);
  if (s.GetWindowPosition) s.GetWindowPosition(hwnd, &place.x, &place.y);
  return place;
}

namespace {

// The X11 display and window of an SDL window, without the lines native_window logs.
bool x11_of(HWND hwnd, void *&display, unsigned long &window) {
  const Sdl &s = sdl();
  if (!s.ok) return false;
  SdlSysWmInfo info{};
  s.GetVersion(&info.version);
  if (!s.GetWindowWMInfo(hwnd, &info) || info.subsystem != kSdlSysWmX11) return false;
  display = info.info.x11.display;
  window = info.info.x11.window;
  return true;
}

} // namespace

// SDL_WINDOW_FULLSCREEN (not SDL's desktop-sized kind): the display takes the mode, as Windows
// gives the display the mode of a full-screen device. Adapter 0 is SDL's display 0, so a window
// on another display moves there first, as D3D9 moves a device window to its adapter's monitor.
bool enter_fullscreen(HWND hwnd, int sdl_mode) {
  const Sdl &s = sdl();
  if (!hwnd || !s.SetWindowFullscreen || !s.GetWindowFlags) return false;
  if (s.GetWindowDisplayIndex && s.SetWindowPosition && s.GetWindowDisplayIndex(hwnd) > 0)
    s.SetWindowPosition(hwnd, kSdlWindowPosUndefinedMask, kSdlWindowPosUndefinedMask);
  SdlDisplayMode mode{};
  const bool known_mode = sdl_mode >= 0 && s.GetDisplayMode && s.GetDisplayMode(0, sdl_mode, &mode) == 0;
  if (known_mode && s.SetWindowDisplayMode) s.SetWindowDisplayMode(hwnd, &mode);
  void *display = nullptr;
  unsigned long window = 0;
  const bool x11 = x11_of(hwnd, display, window);
  // Without a window manager nothing honours SDL's request: the window is put over the display
  // as a window manager would.
  SdlRect bounds{};
  const bool place_it = x11 && !x11_window_manager_running(display) && s.GetDisplayBounds;
  // SDL does nothing for a window it already holds full-screen, though it may have let the window
  // go back to its own size (SDL minimises a full-screen window that loses the focus, which a
  // window manager restores) or the mode may have changed (Reset to another mode): it enters
  // again then.
  if (s.GetWindowFlags(hwnd) & kSdlWindowFullscreen) {
    const WindowPlace now = window_place(hwnd);
    const bool placed = !place_it || (s.GetDisplayBounds(0, &bounds) == 0 && now.x == bounds.x && now.y == bounds.y);
    if (!known_mode || (now.width == mode.w && now.height == mode.h && placed)) return true;
    s.SetWindowFullscreen(hwnd, 0);
  }
  if (s.SetWindowFullscreen(hwnd, kSdlWindowFullscreen) != 0) {
    log_warn("full screen: SDL_SetWindowFullscreen failed; presenting to the window as it is");
    return false;
  }
  if (place_it && s.GetDisplayBounds(0, &bounds) == 0) // the display's bounds in its new mode
    x11_place_window(display, window, bounds.x, bounds.y, bounds.w, bounds.h);
  return true;
}

void leave_fullscreen(HWND hwnd, const WindowPlace &place) {
  const Sdl &s = sdl();
  if (!hwnd || !s.SetWindowFullscreen) return;
  s.SetWindowFullscreen(hwnd, 0); // SDL gives the display its desktop mode back
  // SDL does not always give the window its size back (without a window manager it keeps the
  // screen's), where Windows restores the device window's rectangle; without a window manager
  // its place too.
  if (place.width > 0 && place.height > 0 && s.SetWindowSize) s.SetWindowSize(hwnd, place.width, place.height);
  void *display = nullptr;
  unsigned long window = 0;
  if (x11_of(hwnd, display, window) && !x11_window_manager_running(display) && place.width > 0 && place.height > 0)
    x11_place_window(display, window, place.x, place.y, place.width, place.height);
}

WindowState window_state(HWND hwnd) {
  const Sdl &s = sdl();
  WindowState state;
  if (!hwnd || !s.GetWindowFlags || !s.GetKeyboardFocus) return state;
  state.known = true;
  state.minimized = s.GetWindowFlags(hwnd) & (kSdlWindowMinimized | kSdlWindowHidden);
  state.program_active = s.GetKeyboardFocus() != nullptr;
  return state;
}

// The SDL cursor made from the last SetCursorProperties image; SDL keeps the cursor it shows, so
// the one before is freed once replaced.
static void *d3d_cursor = nullptr;

bool set_window_cursor(const uint32_t *argb, UINT width, UINT height, UINT hotspot_x, UINT hotspot_y) {
  const Sdl &s = sdl();
  if (!s.CreateRGBSurfaceWithFormatFrom || !s.CreateColorCursor || !s.SetCursor || !s.FreeSurface) return false;
  constexpr uint32_t kArgb8888 = 0x16362004; // SDL_PIXELFORMAT_ARGB8888
  void *surface = s.CreateRGBSurfaceWithFormatFrom(const_cast<uint32_t *>(argb), int(width), int(height), 32,
                                                   int(width * 4), kArgb8888);
  if (!surface) return false;
  void *cursor = s.CreateColorCursor(surface, int(hotspot_x), int(hotspot_y));
  s.FreeSurface(surface);
  if (!cursor) return false;
  s.SetCursor(cursor);
  if (d3d_cursor && s.FreeCursor) s.FreeCursor(d3d_cursor);
  d3d_cursor = cursor;
  return true;
}

void reset_window_cursor() {
  const Sdl &s = sdl();
  if (!d3d_cursor || !s.SetCursor || !s.GetDefaultCursor) return;
  s.SetCursor(s.GetDefaultCursor());
  if (s.FreeCursor) s.FreeCursor(d3d_cursor);
  d3d_cursor = nullptr;
}

bool show_window_cursor(bool show) {
  const Sdl &s = sdl();
  if (!s.ShowCursor) return false;
  s.ShowCursor(show ? 1 : 0);
  return true;
}

void warp_window_cursor(HWND hwnd, int x, int y) {
  const Sdl &s = sdl();
  if (s.WarpMouseInWindow) s.WarpMouseInWindow(hwnd, x, y);
}

} // namespace novem
