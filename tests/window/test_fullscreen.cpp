// Full-screen devices on real windows: the display modes are SDL's (Xvfb's one 640x480 screen),
// the device window goes full-screen at the mode's size and presents there on every backend,
// Reset goes back to windowed and again to full screen, releasing the device gives the window back
// its size. The focus moving to a window of another program, or the window hidden (what
// minimising is where no window manager runs), loses a full-screen device as Windows does
// (Wine's test_lost_device): D3DERR_DEVICELOST, then D3DERR_DEVICENOTRESET once back, D3D_OK after
// Reset; a D3D9Ex device is occluded instead (Wine's d3d9ex test_lost_device).
#include "window_fixture.hpp"

using namespace window_fixture;

namespace {

constexpr UINT kScreenWidth = 640, kScreenHeight = 480; // x_server.hpp's screen

// Events pumped (as the program's own loop does) until `done` holds, at most a few seconds.
template <class Done> bool pump_until(Done done) {
  for (int attempt = 0; attempt < 300; ++attempt) {
    SDL_PumpEvents();
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

bool has_size(Display *dpy, SDL_Window *window, int w, int h) {
  return pump_until([&] {
    XWindowAttributes attributes{};
    XGetWindowAttributes(dpy, x11_window(window), &attributes);
    return attributes.width == w && attributes.height == h;
  });
}

bool fullscreen(SDL_Window *window) { return SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN; }

// The keyboard focus given to a window of another program (one of the test's own X connection):
// the program using Novem is no longer the active one, as when the user switches away from it.
struct OtherProgram {
  explicit OtherProgram(Display *display) : dpy(display) {
    // In the screen's corner, away from the pixels the tests read.
    window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), kScreenWidth - 2, kScreenHeight - 2, 1, 1, 0, 0, 0);
    XMapWindow(dpy, window);
    XSync(dpy, False);
  }
  ~OtherProgram() {
    XDestroyWindow(dpy, window);
    XSync(dpy, False);
  }
  void take_focus() {
    XSetInputFocus(dpy, window, RevertToParent, CurrentTime);
    XSync(dpy, False);
    REQUIRE(pump_until([] { return SDL_GetKeyboardFocus() == nullptr; }));
  }
  Display *dpy;
  Window window;
};

void give_focus(SDL_Window *window) {
  SDL_SetWindowInputFocus(window);
  REQUIRE(pump_until([&] { return SDL_GetKeyboardFocus() == window; }));
}

D3DPRESENT_PARAMETERS fullscreen_parameters(SDL_Window *window, UINT w = kScreenWidth, UINT h = kScreenHeight) {
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = w;
  pp.BackBufferHeight = h;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = FALSE;
  pp.hDeviceWindow = reinterpret_cast<HWND>(window);
  pp.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
  return pp;
}

D3DPRESENT_PARAMETERS windowed_parameters(SDL_Window *window) {
  D3DPRESENT_PARAMETERS pp = fullscreen_parameters(window, 0, 0);
  pp.Windowed = TRUE;
  return pp;
}

} // namespace

TEST_CASE("window: the display modes are SDL's", "[window][fullscreen]") {
  Windows x;
  if (!x.ok) return;
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  // Xvfb's one mode; SDL knows no refresh rate for it, which Novem reports as 60 Hz.
  REQUIRE(d3d->GetAdapterModeCount(0, D3DFMT_X8R8G8B8) == 1);
  D3DDISPLAYMODE mode{};
  REQUIRE(d3d->EnumAdapterModes(0, D3DFMT_X8R8G8B8, 0, &mode) == D3D_OK);
  CHECK((mode.Width == kScreenWidth && mode.Height == kScreenHeight && mode.RefreshRate == 60 &&
         mode.Format == D3DFMT_X8R8G8B8));
  REQUIRE(d3d->EnumAdapterModes(0, D3DFMT_R5G6B5, 0, &mode) == D3D_OK); // 16-bit, emulated
  CHECK((mode.Width == kScreenWidth && mode.Height == kScreenHeight && mode.Format == D3DFMT_R5G6B5));
  REQUIRE(d3d->GetAdapterDisplayMode(0, &mode) == D3D_OK);
  CHECK((mode.Width == kScreenWidth && mode.Height == kScreenHeight && mode.Format == D3DFMT_X8R8G8B8));
  CHECK(d3d->Release() == 0);
}

TEST_CASE("window: a full-screen device fills the screen, Reset goes windowed and back, Release gives the window back",
          "[window][fullscreen]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *window = x.open(64, 48);
    {
      Device d(backend, fullscreen_parameters(window));
      if (!d.started(backend)) {
        SDL_DestroyWindow(window);
        continue;
      }
      CHECK(fullscreen(window));
      CHECK(has_size(x.probe, window, kScreenWidth, kScreenHeight));
      d.clear(D3DCOLOR_XRGB(255, 0, 0));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 600, 400, kRed);
      CHECK_PIXEL(x.probe, window, 8, 8, kRed);

      // A size that is no mode of the display is refused, and the device waits for a Reset.
      D3DPRESENT_PARAMETERS pp = fullscreen_parameters(window, 800, 600);
      CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
      CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICENOTRESET);
      CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3DERR_DEVICELOST);

      // Windowed: the window has its size from before full screen, which a back buffer of size 0 takes.
      pp = windowed_parameters(window);
      REQUIRE(d.device->Reset(&pp) == D3D_OK);
      CHECK(d.device->TestCooperativeLevel() == D3D_OK);
      CHECK((pp.BackBufferWidth == 64 && pp.BackBufferHeight == 48));
      CHECK_FALSE(fullscreen(window));
      CHECK(has_size(x.probe, window, 64, 48));
      d.clear(D3DCOLOR_XRGB(0, 255, 0));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 32, 24, kGreen);

      // Full screen again.
      pp = fullscreen_parameters(window);
      REQUIRE(d.device->Reset(&pp) == D3D_OK);
      CHECK(fullscreen(window));
      CHECK(has_size(x.probe, window, kScreenWidth, kScreenHeight));
      d.clear(D3DCOLOR_XRGB(0, 0, 255));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 600, 400, kBlue);
    }
    // Releasing a full-screen device leaves full screen (and the display's mode) and gives the
    // window its size back, as Windows restores the device window.
    CHECK_FALSE(fullscreen(window));
    CHECK(has_size(x.probe, window, 64, 48));
    SDL_DestroyWindow(window);
  }
}

TEST_CASE("window: a full-screen device is lost without the focus or hidden, and Reset brings it back",
          "[window][fullscreen]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *window = x.open(64, 48);
    REQUIRE(pump_until([&] { return SDL_GetKeyboardFocus() == window; }));
    {
      Device d(backend, fullscreen_parameters(window));
      if (!d.started(backend)) {
        SDL_DestroyWindow(window);
        continue;
      }
      OtherProgram other(x.probe);
      CHECK(d.device->TestCooperativeLevel() == D3D_OK);
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);

      // Another program takes the focus: lost, and a Reset cannot bring it back yet.
      other.take_focus();
      D3DPRESENT_PARAMETERS pp = fullscreen_parameters(window);
      CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICELOST);
      CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3DERR_DEVICELOST);
      CHECK(d.device->Reset(&pp) == D3DERR_DEVICELOST);
      // Back: the device waits for its Reset.
      give_focus(window);
      CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICENOTRESET);
      CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3DERR_DEVICELOST);
      REQUIRE(d.device->Reset(&pp) == D3D_OK);
      CHECK(d.device->TestCooperativeLevel() == D3D_OK);
      CHECK(has_size(x.probe, window, kScreenWidth, kScreenHeight));
      d.clear(D3DCOLOR_XRGB(255, 0, 0));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 600, 400, kRed);

      // Hidden (minimised, where a window manager runs): lost until shown again.
      SDL_HideWindow(window);
      REQUIRE(pump_until([&] { return (SDL_GetWindowFlags(window) & SDL_WINDOW_HIDDEN) != 0; }));
      CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICELOST);
      SDL_ShowWindow(window);
      give_focus(window);
      CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICENOTRESET);
      REQUIRE(d.device->Reset(&pp) == D3D_OK);
      CHECK(d.device->TestCooperativeLevel() == D3D_OK);
      CHECK(has_size(x.probe, window, kScreenWidth, kScreenHeight));
      d.clear(D3DCOLOR_XRGB(0, 255, 0));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 600, 400, kGreen);

      // A windowed device is not lost with the focus (Wine's test_lost_device).
      pp = windowed_parameters(window);
      REQUIRE(d.device->Reset(&pp) == D3D_OK);
      other.take_focus();
      CHECK(d.device->TestCooperativeLevel() == D3D_OK);
      CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      give_focus(window);
    }
    SDL_DestroyWindow(window);
  }
}

TEST_CASE("window: a full-screen D3D9Ex device is occluded without the focus, never lost", "[window][fullscreen]") {
  Windows x;
  if (!x.ok) return;
  SDL_Window *window = x.open(64, 48);
  REQUIRE(pump_until([&] { return SDL_GetKeyboardFocus() == window; }));
  setenv("NOVEM_BACKEND", "null", 1); // what the device answers is the frontend's: any backend
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = fullscreen_parameters(window);
  IDirect3DDevice9Ex *device = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, pp.hDeviceWindow, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr,
                              &device) == D3D_OK);
  const HWND hwnd = reinterpret_cast<HWND>(window);
  {
    OtherProgram other(x.probe);
    CHECK(device->TestCooperativeLevel() == D3D_OK);
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    CHECK(device->CheckDeviceState(hwnd) == D3D_OK);

    other.take_focus();
    CHECK(device->TestCooperativeLevel() == D3D_OK);
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == S_PRESENT_OCCLUDED);
    CHECK(device->Present(nullptr, nullptr, nullptr, nullptr) == S_PRESENT_OCCLUDED);
    CHECK(device->CheckDeviceState(hwnd) == S_PRESENT_OCCLUDED);
    give_focus(window);
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    CHECK(device->CheckDeviceState(hwnd) == D3D_OK);

    // Windowed, the focus does not matter; a hidden (minimised) window is occluded.
    pp = windowed_parameters(window);
    REQUIRE(device->ResetEx(&pp, nullptr) == D3D_OK);
    other.take_focus();
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    CHECK(device->CheckDeviceState(hwnd) == D3D_OK);
    give_focus(window);
    SDL_HideWindow(window);
    REQUIRE(pump_until([&] { return (SDL_GetWindowFlags(window) & SDL_WINDOW_HIDDEN) != 0; }));
    CHECK(device->CheckDeviceState(hwnd) == S_PRESENT_OCCLUDED);
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == S_PRESENT_OCCLUDED);
    SDL_ShowWindow(window);
    REQUIRE(pump_until([&] { return (SDL_GetWindowFlags(window) & SDL_WINDOW_SHOWN) != 0; }));
    CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  }
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
  unsetenv("NOVEM_BACKEND");
  SDL_DestroyWindow(window);
}
