#include "sdl.hpp"

#include <dlfcn.h>

#include <mutex>

namespace novem {

namespace {

template <class Fn> void find(void *lib, const char *name, Fn &fn) {
  void *p = lib ? dlsym(lib, name) : nullptr;
  if (!p) p = dlsym(RTLD_DEFAULT, name);
  fn = reinterpret_cast<Fn>(p);
}

} // namespace

// RTLD_NOLOAD finds the SDL the program loaded without loading anything (and a process without
// SDL has no SDL window and no SDL display to ask).
const Sdl &sdl() {
  static Sdl s;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_NOLOAD);
    find(lib, "SDL_GetWindowWMInfo", s.GetWindowWMInfo);
    find(lib, "SDL_GetVersion", s.GetVersion);
    find(lib, "SDL_GetWindowSizeInPixels", s.GetWindowSizeInPixels);
    find(lib, "SDL_GetWindowSize", s.GetWindowSize);
    find(lib, "SDL_SetWindowSize", s.SetWindowSize);
    find(lib, "SDL_GetWindowPosition", s.GetWindowPosition);
    find(lib, "SDL_SetWindowPosition", s.SetWindowPosition);
    find(lib, "SDL_GetWindowFlags", s.GetWindowFlags);
    find(lib, "SDL_GetWindowDisplayIndex", s.GetWindowDisplayIndex);
    find(lib, "SDL_SetWindowDisplayMode", s.SetWindowDisplayMode);
    find(lib, "SDL_SetWindowFullscreen", s.SetWindowFullscreen);
    find(lib, "SDL_GetKeyboardFocus", s.GetKeyboardFocus);
    find(lib, "SDL_WasInit", s.WasInit);
    find(lib, "SDL_GetNumDisplayModes", s.GetNumDisplayModes);
    find(lib, "SDL_GetDisplayMode", s.GetDisplayMode);
    find(lib, "SDL_GetCurrentDisplayMode", s.GetCurrentDisplayMode);
    find(lib, "SDL_GetDesktopDisplayMode", s.GetDesktopDisplayMode);
    find(lib, "SDL_GetDisplayBounds", s.GetDisplayBounds);
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

bool sdl_video() {
  const Sdl &s = sdl();
  return s.WasInit && (s.WasInit(kSdlInitVideo) & kSdlInitVideo) && s.GetNumDisplayModes && s.GetDisplayMode;
}

} // namespace novem
