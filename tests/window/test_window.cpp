// Presenting to real windows: an SDL2 window (HWND = SDL_Window*) on an Xvfb server of the
// test's own, on every backend (Vulkan with the validation layer on). Each test renders known
// colours, presents, and reads the window itself back with XGetImage (window_fixture.hpp).
#include "window_fixture.hpp"

using namespace window_fixture;

TEST_CASE("window: Present stretches the back buffer over the client area, follows resizes, honours rectangles",
          "[window]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *window = x.open(64, 48);
    {
      Device d(backend, window);
      if (!d.started(backend)) {
        SDL_DestroyWindow(window);
        continue;
      }
      // A windowed back buffer of size 0 takes the client area's, as Windows.
      CHECK((d.pp.BackBufferWidth == 64 && d.pp.BackBufferHeight == 48));
      const D3DRECT right{32, 0, 64, 48};
      d.clear(D3DCOLOR_XRGB(255, 0, 0));
      d.clear(D3DCOLOR_XRGB(0, 0, 255), &right);
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 8, 24, kRed);
      CHECK_PIXEL(x.probe, window, 56, 24, kBlue);
      // The front buffer holds what was presented.
      IDirect3DSurface9 *front = nullptr;
      REQUIRE(d.device->CreateOffscreenPlainSurface(64, 48, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr) == D3D_OK);
      REQUIRE(d.device->GetFrontBufferData(0, front) == D3D_OK);
      D3DLOCKED_RECT lr{};
      REQUIRE(front->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
      const auto *row = static_cast<const uint8_t *>(lr.pBits) + 24 * lr.Pitch;
      CHECK((row[8 * 4 + 2] == 255 && row[56 * 4 + 0] == 255));
      front->UnlockRect();
      front->Release();

      // A bigger window: the same back buffer stretched over it.
      // As an application does, the next frame comes once the window has its new size.
      SDL_SetWindowSize(window, 128, 96);
      for (int attempt = 0; attempt < 500; ++attempt) {
        SDL_PumpEvents();
        XWindowAttributes attributes{};
        XGetWindowAttributes(x.probe, x11_window(window), &attributes);
        if (attributes.width == 128 && attributes.height == 96) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 120, 90, kBlue);
      CHECK_PIXEL(x.probe, window, 16, 48, kRed);

      // The right half of the back buffer into the window's top-left quarter; the rest is black.
      const RECT src{32, 0, 64, 48}, dst{0, 0, 64, 48};
      REQUIRE(d.device->Present(&src, &dst, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 8, 8, kBlue);
      CHECK_PIXEL(x.probe, window, 100, 80, kBlack);
    }
    SDL_DestroyWindow(window);
  }
}

// hDeviceWindow NULL: the device presents to the focus window, and GetPresentParameters (of the
// device's swap chain) names it there (Microsoft's D3DPRESENT_PARAMETERS; Wine's tests).
TEST_CASE("window: without hDeviceWindow the focus window is presented to and reported", "[window]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *window = x.open(64, 48);
    {
      D3DPRESENT_PARAMETERS windowed{};
      windowed.BackBufferFormat = D3DFMT_X8R8G8B8;
      windowed.SwapEffect = D3DSWAPEFFECT_DISCARD;
      windowed.Windowed = TRUE;
      windowed.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
      Device d(backend, windowed, window);
      if (!d.started(backend)) {
        SDL_DestroyWindow(window);
        continue;
      }
      IDirect3DSwapChain9 *chain = nullptr;
      REQUIRE(d.device->GetSwapChain(0, &chain) == D3D_OK);
      D3DPRESENT_PARAMETERS got{};
      REQUIRE(chain->GetPresentParameters(&got) == D3D_OK);
      CHECK(got.hDeviceWindow == reinterpret_cast<HWND>(window));
      CHECK((got.BackBufferWidth == 64 && got.BackBufferHeight == 48)); // the focus window's client area
      chain->Release();
      d.clear(D3DCOLOR_XRGB(0, 0, 255));
      REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
      CHECK_PIXEL(x.probe, window, 32, 24, kBlue);
    }
    SDL_DestroyWindow(window);
  }
}

TEST_CASE("window: an additional swap chain presents to its own window, and hDestWindowOverride redirects Present",
          "[window]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *first = x.open(40, 40);
    SDL_Window *second = x.open(48, 32, 200);
    {
      Device d(backend, first);
      if (d.started(backend)) {
        D3DPRESENT_PARAMETERS pp{};
        pp.BackBufferFormat = D3DFMT_X8R8G8B8;
        pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
        pp.Windowed = TRUE;
        pp.hDeviceWindow = reinterpret_cast<HWND>(second);
        IDirect3DSwapChain9 *chain = nullptr;
        REQUIRE(d.device->CreateAdditionalSwapChain(&pp, &chain) == D3D_OK);
        CHECK((pp.BackBufferWidth == 48 && pp.BackBufferHeight == 32)); // the window's client area
        IDirect3DSurface9 *back = nullptr, *implicit = nullptr;
        REQUIRE(chain->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
        REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit) == D3D_OK);
        REQUIRE(d.device->SetRenderTarget(0, back) == D3D_OK);
        d.clear(D3DCOLOR_XRGB(0, 255, 0));
        REQUIRE(d.device->SetRenderTarget(0, implicit) == D3D_OK);
        d.clear(D3DCOLOR_XRGB(255, 0, 0));
        REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
        REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, second, 24, 16, kGreen);
        CHECK_PIXEL(x.probe, first, 20, 20, kRed);
        // The device's back buffer shown in the second window instead of its own.
        d.clear(D3DCOLOR_XRGB(0, 0, 255));
        REQUIRE(d.device->Present(nullptr, nullptr, reinterpret_cast<HWND>(second), nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, second, 24, 16, kBlue);
        CHECK_PIXEL(x.probe, first, 20, 20, kRed);
        back->Release();
        implicit->Release();
        CHECK(chain->Release() == 0);
      }
    }
    SDL_DestroyWindow(second);
    SDL_DestroyWindow(first);
  }
}

TEST_CASE("window: 16-bit and 10-bit back buffers show in a window, or the device is refused", "[window]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    for (D3DFORMAT format : {D3DFMT_R5G6B5, D3DFMT_X1R5G5B5, D3DFMT_A2R10G10B10}) {
      INFO(backend << ", back buffer format " << format);
      SDL_Window *window = x.open(32, 32);
      {
        Device d(backend, window, 0, 0, format);
        // A backend that cannot present the format refuses the device rather than fail at
        // Present: lavapipe cannot blit from A2R10G10B10.
        if (d.hr == D3DERR_NOTAVAILABLE) {
          CHECK((std::string(backend) == "vulkan" && format == D3DFMT_A2R10G10B10));
        } else if (d.started(backend)) {
          d.clear(D3DCOLOR_XRGB(255, 0, 0));
          REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
          CHECK_PIXEL(x.probe, window, 16, 16, kRed);
        }
      }
      SDL_DestroyWindow(window);
    }
  }
}

// A FLIP chain shows what each Present turns to the front: back buffer 0, then what back buffer 1
// held, then the front buffer's first contents (black) come round again.
TEST_CASE("window: a FLIP chain of two back buffers shows each in turn", "[window][chain]") {
  Windows x;
  if (!x.ok) return;
  for (const char *backend : {"vulkan", "opengl"}) {
    INFO(backend);
    SDL_Window *window = x.open(32, 32);
    {
      Device d(backend, window, 0, 0, D3DFMT_X8R8G8B8, D3DSWAPEFFECT_FLIP, 2);
      if (d.started(backend)) {
        IDirect3DSurface9 *second = nullptr;
        REQUIRE(d.device->GetBackBuffer(0, 1, D3DBACKBUFFER_TYPE_MONO, &second) == D3D_OK);
        REQUIRE(d.device->SetRenderTarget(0, second) == D3D_OK);
        d.clear(D3DCOLOR_XRGB(0, 255, 0));
        IDirect3DSurface9 *first = nullptr;
        REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &first) == D3D_OK);
        REQUIRE(d.device->SetRenderTarget(0, first) == D3D_OK);
        d.clear(D3DCOLOR_XRGB(255, 0, 0));
        first->Release();
        second->Release();
        REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, window, 16, 16, kRed);
        REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, window, 16, 16, kGreen);
        REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, window, 16, 16, kBlack);
        REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
        CHECK_PIXEL(x.probe, window, 16, 16, kRed);
      }
    }
    SDL_DestroyWindow(window);
  }
}

TEST_CASE("window: the D3D9 cursor becomes the SDL cursor of the window", "[window]") {
  Windows x;
  if (!x.ok) return;
  SDL_Window *window = x.open(32, 32);
  {
    Device d("null", window); // the cursor is the frontend's: any backend
    REQUIRE(d.hr == D3D_OK);
    SDL_Cursor *before = SDL_GetCursor();
    IDirect3DSurface9 *image = nullptr;
    REQUIRE(d.device->CreateOffscreenPlainSurface(32, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &image, nullptr) == D3D_OK);
    REQUIRE(d.device->SetCursorProperties(4, 4, image) == D3D_OK);
    CHECK(SDL_GetCursor() != before);
    CHECK(d.device->ShowCursor(FALSE) == FALSE);
    CHECK(SDL_ShowCursor(SDL_QUERY) == SDL_DISABLE);
    CHECK(d.device->ShowCursor(TRUE) == FALSE);
    CHECK(SDL_ShowCursor(SDL_QUERY) == SDL_ENABLE);
    image->Release();
    // The cursor does not survive Reset (SetCursorProperties' documentation): SDL's default again.
    REQUIRE(d.device->Reset(&d.pp) == D3D_OK);
    CHECK(SDL_GetCursor() == SDL_GetDefaultCursor());
  }
  SDL_DestroyWindow(window);
}
