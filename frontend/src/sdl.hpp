// SDL2 as the program has it. The frontend never links SDL: a program with SDL windows has loaded
// libSDL2 already, and its functions are found there (dlopen with RTLD_NOLOAD, else the global
// symbols). window.cpp (windows, full screen, the cursor) and display.cpp (the display's modes)
// call SDL through this table; a function SDL does not have (older releases) is NULL.
#pragma once

#include <cstdint>

namespace novem {

// SDL2's structs and constants as far as Novem reads them. SDL2 keeps these layouts and values
// for every 2.x release, so they are declared here rather than building against SDL.
struct SdlVersion {
  uint8_t major, minor, patch;
};
struct SdlSysWmInfo { // SDL_syswm.h's SDL_SysWMinfo as far as X11 goes (the union is padded to 64 bytes)
  SdlVersion version;
  int subsystem; // SDL_SYSWM_TYPE
  union {
    struct {
      void *display;        // Display *
      unsigned long window; // Window
    } x11;
    uint8_t dummy[64];
  } info;
};
struct SdlRect {
  int x, y, w, h;
};
struct SdlDisplayMode {
  uint32_t format; // SDL_PIXELFORMAT_*
  int w, h;
  int refresh_rate; // 0: unknown
  void *driverdata;
};
constexpr int kSdlSysWmX11 = 2;                    // SDL_SYSWM_X11
constexpr uint32_t kSdlInitVideo = 0x20;            // SDL_INIT_VIDEO
constexpr uint32_t kSdlWindowFullscreen = 0x1;      // SDL_WINDOW_FULLSCREEN (changes the display mode)
constexpr uint32_t kSdlWindowHidden = 0x8;          // SDL_WINDOW_HIDDEN
constexpr uint32_t kSdlWindowMinimized = 0x40;      // SDL_WINDOW_MINIMIZED
constexpr int kSdlWindowPosUndefinedMask = 0x1FFF0000; // SDL_WINDOWPOS_UNDEFINED_DISPLAY(display) | display

struct Sdl {
  int (*GetWindowWMInfo)(void *, SdlSysWmInfo *) = nullptr; // SDL_bool
  void (*GetVersion)(SdlVersion *) = nullptr;
  void (*GetWindowSizeInPixels)(void *, int *, int *) = nullptr; // SDL 2.26
  void (*GetWindowSize)(void *, int *, int *) = nullptr;
  void (*SetWindowSize)(void *, int, int) = nullptr;
  void (*GetWindowPosition)(void *, int *, int *) = nullptr;
  void (*SetWindowPosition)(void *, int, int) = nullptr;
  uint32_t (*GetWindowFlags)(void *) = nullptr;
  int (*GetWindowDisplayIndex)(void *) = nullptr;
  int (*SetWindowDisplayMode)(void *, const SdlDisplayMode *) = nullptr;
  int (*SetWindowFullscreen)(void *, uint32_t) = nullptr;
  void *(*GetKeyboardFocus)() = nullptr;
  uint32_t (*WasInit)(uint32_t) = nullptr;
  int (*GetNumDisplayModes)(int) = nullptr;
  int (*GetDisplayMode)(int, int, SdlDisplayMode *) = nullptr;
  int (*GetCurrentDisplayMode)(int, SdlDisplayMode *) = nullptr;
  int (*GetDesktopDisplayMode)(int, SdlDisplayMode *) = nullptr;
  int (*GetDisplayBounds)(int, SdlRect *) = nullptr;
  void *(*CreateRGBSurfaceWithFormatFrom)(void *, int, int, int, int, uint32_t) = nullptr;
  void (*FreeSurface)(void *) = nullptr;
  void *(*CreateColorCursor)(void *, int, int) = nullptr;
  void (*SetCursor)(void *) = nullptr;
  void (*FreeCursor)(void *) = nullptr;
  int (*ShowCursor)(int) = nullptr;
  void *(*GetDefaultCursor)() = nullptr;
  void (*WarpMouseInWindow)(void *, int, int) = nullptr;
  bool ok = false; // what windows need (their native handles and sizes) is there
};

// The program's SDL, looked up once.
const Sdl &sdl();

// SDL's video is up (SDL_Init(SDL_INIT_VIDEO)): its displays can be asked.
bool sdl_video();

} // namespace novem
