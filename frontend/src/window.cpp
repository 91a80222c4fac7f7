#include "window.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <mutex>

#include "log.hpp"

namespace novem {

namespace {

// SDL_syswm.h's SDL_SysWMinfo as far as X11 goes. SDL2 keeps this layout for every 2.x release
// (the union is padded to 64 bytes), so it is declared here rather than building against SDL.
struct SdlVersion {
  uint8_t major, minor, patch;
};
struct SdlSysWmInfo {
  SdlVersion version;
  int subsystem; // SDL_SYSWM_TYPE
  union {
    struct {
      void *display; // Display *
      unsigned long window; // Window
    } x11;
    uint8_t dummy[64];
  } info;
};
constexpr int kSdlSysWmX11 = 2; // SDL_SYSWM_X11

struct Sdl {
  int (*GetWindowWMInfo)(void *, SdlSysWmInfo *) = nullptr; // SDL_bool
  void (*GetVersion)(SdlVersion *) = nullptr;
  void (*GetWindowSizeInPixels)(void *, int *, int *) = nullptr; // SDL 2.26
  void (*GetWindowSize)(void *, int *, int *) = nullptr;
  void (*GetWindowPosition)(void *, int *, int *) = nullptr;
  void *(*CreateRGBSurfaceWithFormatFrom)(void *, int, int, int, int, uint32_t) = nullptr;
  void (*FreeSurface)(void *) = nullptr;
  void *(*CreateColorCursor)(void *, int, int) = nullptr;
  void (*SetCursor)(void *) = nullptr;
  void (*FreeCursor)(void *) = nullptr;
  int (*ShowCursor)(int) = nullptr;
  void *(*GetDefaultCursor)() = nullptr;
  void (*WarpMouseInWindow)(void *, int, int) = nullptr;
  bool ok = false;
};

template <class Fn> void find(void *lib, const char *name, Fn &fn) {
  void *p = lib ? dlsym(lib, name) : nullptr;
  if (!p) p = dlsym(RTLD_DEFAULT, name);
  fn = reinterpret_cast<Fn>(p);
}

// SDL as the process has it: a program with SDL windows has loaded libSDL2 already, so
// RTLD_NOLOAD finds it without loading anything (and a process without SDL has no SDL window).
const Sdl &sdl() {
  static Sdl s;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_NOLOAD);
    find(lib, "SDL_GetWindowWMInfo", s.GetWindowWMInfo);
    find(lib, "SDL_GetVersion", s.GetVersion);
    find(lib, "SDL_GetWindowSizeInPixels", s.GetWindowSizeInPixels);
    find(lib, "SDL_GetWindowSize", s.GetWindowSize);
    find(lib, "SDL_GetWindowPosition", s.GetWindowPosition);
    find(lib, "SDL_CreateRGBSurfaceWithFormatFrom", s.CreateRGBSurfaceWithFormatFrom);
    find(lib, "SDL_FreeSurface", s.FreeSurface);
    find(lib, "SDL_CreateColorCursor", s.CreateColorCursor);
    find(lib, "SDL_SetCursor", s.SetCursor);
    find(lib, "SDL_FreeCursor", s.FreeCursor);
    find(lib, "SDL_ShowCursor", s.ShowCursor);
    find(lib, "SDL_GetDefaultCursor", s.GetDefaultCursor);
    find(lib, "SDL_WarpMouseInWindow", s.WarpMouseInWindow);
    s.ok = s.GetWindowWMInfo && s.GetVersion && s.GetWindowSize;
  });
  return s;
}

} // namespace

bool native_window(HWND hwnd, const char *call, nv_window &out) {
  const Sdl &s = sdl();
  if (!s.ok) {
    log_error("%s: a window must be an SDL_Window* (SDL2), and SDL2 is not loaded in this process", call);
    return false;
  }
  SdlSysWmInfo info{};
  s.GetVersion(&info.version); // SDL_VERSION(): the caller's version, which SDL checks
  if (!s.GetWindowWMInfo(hwnd, &info)) {
    log_error("%s: the HWND is not an SDL window (SDL_GetWindowWMInfo failed)", call);
    return false;
  }
  if (info.subsystem != kSdlSysWmX11) {
    log_error("%s: the SDL window is not an X11 window (SDL_SYSWM_TYPE %d); Novem presents to X11 only", call,
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
