// What the window tests share: an Xvfb server of the test's own with SDL's video on it, pixels
// of a window read back with XGetImage, and a D3D9 device presenting to an SDL window. Without
// Xvfb the tests are skipped, unless NOVEM_TEST_REQUIRE_BACKENDS is set (CI), where they fail.
#pragma once

#include <catch2/catch.hpp>

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <d3d9.h>

#include "x_server.hpp"

namespace window_fixture {

inline bool required() {
  const char *env = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
  return env && *env;
}

inline bool backend_required(const char *name) {
  const char *env = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
  return env && std::strstr(env, name);
}

inline int ignore_x_errors(Display *, XErrorEvent *) { return 0; } // XGetImage before the window maps

// The X server, SDL's video on it, and a connection of the test's own to read windows with.
struct Windows {
  Windows() {
    std::string why;
    if (!server.start(why)) {
      if (required()) FAIL(why << " (NOVEM_TEST_REQUIRE_BACKENDS is set: windows are required)");
      WARN(why << ": window tests skipped");
      return;
    }
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    REQUIRE(SDL_Init(SDL_INIT_VIDEO) == 0);
    probe = XOpenDisplay(server.display().c_str());
    REQUIRE(probe);
    XSetErrorHandler(ignore_x_errors);
    ok = true;
  }
  ~Windows() {
    if (probe) XCloseDisplay(probe);
    if (ok) SDL_Quit();
  }
  // Windows side by side (x apart): an X window that another covers cannot be read back.
  SDL_Window *open(int w, int h, int x = 0) {
    SDL_Window *window = SDL_CreateWindow("novem-window-test", x, 0, w, h, SDL_WINDOW_SHOWN);
    REQUIRE(window);
    SDL_PumpEvents();
    return window;
  }
  XServer server;
  Display *probe = nullptr;
  bool ok = false;
};

inline Window x11_window(SDL_Window *window) {
  SDL_SysWMinfo info;
  SDL_VERSION(&info.version);
  REQUIRE(SDL_GetWindowWMInfo(window, &info));
  REQUIRE(info.subsystem == SDL_SYSWM_X11);
  return info.info.x11.window;
}

// 0xRRGGBB of a window's pixel, or ~0u when it cannot be read.
inline uint32_t window_pixel(Display *dpy, Window w, int x, int y) {
  XImage *img = XGetImage(dpy, w, x, y, 1, 1, AllPlanes, ZPixmap);
  if (!img) return ~0u;
  uint32_t rgb = ~0u;
  if (img->red_mask == 0xFF0000 && img->green_mask == 0xFF00 && img->blue_mask == 0xFF)
    rgb = uint32_t(XGetPixel(img, 0, 0)) & 0xFFFFFF;
  XDestroyImage(img);
  return rgb;
}

inline bool near(uint32_t a, uint32_t b) {
  for (int shift : {0, 8, 16})
    if (std::abs(int((a >> shift) & 0xFF) - int((b >> shift) & 0xFF)) > 2) return false;
  return true;
}

// Presentation reaches the X server asynchronously (the WSI's or EGL's own queue): the window is
// read until it shows the colour, at most a few seconds of tries.
inline uint32_t wait_for(Display *dpy, SDL_Window *window, int x, int y, uint32_t rgb) {
  const Window w = x11_window(window);
  uint32_t got = ~0u;
  for (int attempt = 0; attempt < 500; ++attempt) {
    SDL_PumpEvents();
    got = window_pixel(dpy, w, x, y);
    if (near(got, rgb)) return got;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return got;
}

#define CHECK_PIXEL(dpy, window, x, y, rgb)                                                                 \
  do {                                                                                                      \
    const uint32_t got_ = wait_for(dpy, window, x, y, rgb);                                                 \
    INFO("pixel (" << (x) << ", " << (y) << "): 0x" << std::hex << got_ << ", want 0x" << (rgb));            \
    CHECK(near(got_, rgb));                                                                                 \
  } while (0)

struct Device {
  // A windowed device on `window` (a back buffer of size 0 takes the client area's).
  Device(const char *backend, SDL_Window *window, UINT width = 0, UINT height = 0, D3DFORMAT format = D3DFMT_X8R8G8B8,
         D3DSWAPEFFECT effect = D3DSWAPEFFECT_DISCARD, UINT back_buffers = 1) {
    D3DPRESENT_PARAMETERS windowed{};
    windowed.BackBufferWidth = width;
    windowed.BackBufferHeight = height;
    windowed.BackBufferFormat = format;
    windowed.BackBufferCount = back_buffers;
    windowed.SwapEffect = effect;
    windowed.Windowed = TRUE;
    windowed.hDeviceWindow = reinterpret_cast<HWND>(window);
    windowed.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
    create(backend, windowed);
  }
  // A device of any presentation parameters, focus window hDeviceWindow unless `focus` names one.
  Device(const char *backend, const D3DPRESENT_PARAMETERS &parameters, SDL_Window *focus = nullptr) {
    create(backend, parameters, focus ? reinterpret_cast<HWND>(focus) : parameters.hDeviceWindow);
  }
  void create(const char *backend, const D3DPRESENT_PARAMETERS &parameters) {
    create(backend, parameters, parameters.hDeviceWindow);
  }
  void create(const char *backend, const D3DPRESENT_PARAMETERS &parameters, HWND focus) {
    setenv("NOVEM_BACKEND", backend, 1);
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    pp = parameters;
    hr = d3d->CreateDevice(0, D3DDEVTYPE_HAL, focus, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device);
  }
  ~Device() {
    if (device) CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
    unsetenv("NOVEM_BACKEND");
  }
  // The device started, or the test may skip this backend.
  bool started(const char *backend) {
    if (hr == D3D_OK) return true;
    if (backend_required(backend)) FAIL(backend << " is required and cannot present to a window (0x" << std::hex << hr << ")");
    WARN(backend << " cannot start with a window: skipped");
    return false;
  }
  void clear(D3DCOLOR color, const D3DRECT *rect = nullptr) {
    REQUIRE(device->Clear(rect ? 1 : 0, rect, D3DCLEAR_TARGET, color, 1.0f, 0) == D3D_OK);
  }
  IDirect3D9 *d3d = nullptr;
  IDirect3DDevice9 *device = nullptr;
  D3DPRESENT_PARAMETERS pp{};
  HRESULT hr = E_FAIL;
};

inline constexpr uint32_t kRed = 0xFF0000, kBlue = 0x0000FF, kGreen = 0x00FF00, kBlack = 0x000000;

} // namespace window_fixture
