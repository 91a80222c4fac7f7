// Full-screen devices without SDL in the process: the adapter's display is the virtual one
// (1920x1080 at 60 Hz), its modes are what EnumAdapterModes lists and what a full-screen back
// buffer must be; a headless full-screen device is accepted and presents nothing; Reset goes both
// ways; a refused Reset leaves a device to be reset, as Windows (Wine's test_reset records it).
// Real windows made full-screen, focus loss and minimising are tests/window/'s.
#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

D3DPRESENT_PARAMETERS fullscreen(UINT w = 1920, UINT h = 1080, D3DFORMAT format = D3DFMT_X8R8G8B8, UINT rate = 0) {
  D3DPRESENT_PARAMETERS pp = headless(w, h);
  pp.BackBufferFormat = format;
  pp.Windowed = FALSE;
  pp.FullScreen_RefreshRateInHz = rate;
  return pp;
}

HRESULT create(IDirect3D9 *d3d, D3DPRESENT_PARAMETERS pp, IDirect3DDevice9 **device) {
  return d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, device);
}

} // namespace

TEST_CASE("Display modes: the virtual display when the program has no SDL video", "[api][fullscreen]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  // One mode, offered in 32-bit and (emulated, as Windows 8 and later and Wine do) 16-bit colour.
  CHECK(d3d->GetAdapterModeCount(0, D3DFMT_X8R8G8B8) == 1);
  CHECK(d3d->GetAdapterModeCount(0, D3DFMT_R5G6B5) == 1);
  // Back-buffer formats that are no display format list nothing, as Windows (Wine's test_display_modes).
  for (D3DFORMAT f : {D3DFMT_A8R8G8B8, D3DFMT_X1R5G5B5, D3DFMT_A1R5G5B5, D3DFMT_A2R10G10B10, D3DFMT_UNKNOWN}) {
    INFO("format " << f);
    CHECK(d3d->GetAdapterModeCount(0, f) == 0);
    D3DDISPLAYMODE mode{};
    CHECK(d3d->EnumAdapterModes(0, f, 0, &mode) == D3DERR_INVALIDCALL);
  }
  CHECK(d3d->GetAdapterModeCount(1, D3DFMT_X8R8G8B8) == 0);

  D3DDISPLAYMODE mode{};
  REQUIRE(d3d->EnumAdapterModes(0, D3DFMT_X8R8G8B8, 0, &mode) == D3D_OK);
  CHECK((mode.Width == 1920 && mode.Height == 1080 && mode.RefreshRate == 60 && mode.Format == D3DFMT_X8R8G8B8));
  REQUIRE(d3d->EnumAdapterModes(0, D3DFMT_R5G6B5, 0, &mode) == D3D_OK);
  CHECK((mode.Width == 1920 && mode.Height == 1080 && mode.RefreshRate == 60 && mode.Format == D3DFMT_R5G6B5));
  CHECK(d3d->EnumAdapterModes(0, D3DFMT_X8R8G8B8, 1, &mode) == D3DERR_INVALIDCALL);
  CHECK(d3d->EnumAdapterModes(0, D3DFMT_X8R8G8B8, 0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d3d->EnumAdapterModes(1, D3DFMT_X8R8G8B8, 0, &mode) == D3DERR_INVALIDCALL);
  REQUIRE(d3d->GetAdapterDisplayMode(0, &mode) == D3D_OK);
  CHECK((mode.Width == 1920 && mode.Height == 1080 && mode.RefreshRate == 60 && mode.Format == D3DFMT_X8R8G8B8));

  // A full-screen back buffer goes with its display format: X8R8G8B8 (and A8R8G8B8), R5G6B5;
  // UNKNOWN only windowed; a format the display has no mode of is not available.
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_A8R8G8B8, FALSE) == D3D_OK);
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_HAL, D3DFMT_R5G6B5, D3DFMT_R5G6B5, FALSE) == D3D_OK);
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_UNKNOWN, FALSE) == D3DERR_INVALIDCALL);
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_HAL, D3DFMT_X1R5G5B5, D3DFMT_X1R5G5B5, FALSE) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->Release() == 0);

  // D3D9Ex: the same modes, progressive; an interlaced filter finds none.
  IDirect3D9Ex *ex = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &ex) == D3D_OK);
  D3DDISPLAYMODEFILTER filter{sizeof filter, D3DFMT_X8R8G8B8, D3DSCANLINEORDERING_PROGRESSIVE};
  CHECK(ex->GetAdapterModeCountEx(0, &filter) == 1);
  D3DDISPLAYMODEEX mode_ex{};
  mode_ex.Size = sizeof mode_ex;
  REQUIRE(ex->EnumAdapterModesEx(0, &filter, 0, &mode_ex) == D3D_OK);
  CHECK((mode_ex.Width == 1920 && mode_ex.Height == 1080 && mode_ex.RefreshRate == 60 &&
         mode_ex.ScanLineOrdering == D3DSCANLINEORDERING_PROGRESSIVE));
  filter.ScanLineOrdering = D3DSCANLINEORDERING_INTERLACED;
  CHECK(ex->GetAdapterModeCountEx(0, &filter) == 0);
  CHECK(ex->EnumAdapterModesEx(0, &filter, 0, &mode_ex) == D3DERR_INVALIDCALL);
  filter = D3DDISPLAYMODEFILTER{sizeof filter, D3DFMT_R5G6B5, D3DSCANLINEORDERING_UNKNOWN};
  CHECK(ex->GetAdapterModeCountEx(0, &filter) == 1);
  CHECK(ex->Release() == 0);
}

TEST_CASE("CreateDevice: a headless full-screen device takes a mode of the virtual display", "[api][fullscreen]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  // FullScreen_RefreshRateInHz 0 (D3DPRESENT_RATE_DEFAULT) is the mode's default rate; Windows
  // takes it (Wine's full-screen devices pass it), or a rate EnumAdapterModes lists.
  const D3DPRESENT_PARAMETERS accepted[] = {fullscreen(), fullscreen(1920, 1080, D3DFMT_X8R8G8B8, 60),
                                            fullscreen(1920, 1080, D3DFMT_A8R8G8B8),
                                            fullscreen(1920, 1080, D3DFMT_R5G6B5)};
  for (const D3DPRESENT_PARAMETERS &pp : accepted) {
    INFO("format " << pp.BackBufferFormat << ", rate " << pp.FullScreen_RefreshRateInHz);
    IDirect3DDevice9 *device = nullptr;
    REQUIRE(create(d3d, pp, &device) == D3D_OK);
    CHECK(device->TestCooperativeLevel() == D3D_OK); // no window: nothing to lose
    IDirect3DSwapChain9 *chain = nullptr;
    REQUIRE(device->GetSwapChain(0, &chain) == D3D_OK);
    D3DPRESENT_PARAMETERS got{};
    REQUIRE(chain->GetPresentParameters(&got) == D3D_OK);
    CHECK(got.Windowed == FALSE);
    CHECK((got.BackBufferWidth == 1920 && got.BackBufferHeight == 1080));
    chain->Release();
    D3DVIEWPORT9 vp{};
    REQUIRE(device->GetViewport(&vp) == D3D_OK);
    CHECK((vp.Width == 1920 && vp.Height == 1080));
    // Presents to no window, as a headless windowed device does; the front buffer follows.
    CHECK(device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0) == D3D_OK);
    CHECK(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    CHECK(device->Release() == 0);
  }

  // What Windows refuses (Wine's test_reset: sizes that are no mode, 0x0): D3DERR_INVALIDCALL;
  // a format without display modes: not available.
  struct Refused {
    D3DPRESENT_PARAMETERS pp;
    HRESULT hr;
  } const refused[] = {
      {fullscreen(1280, 720), D3DERR_INVALIDCALL},
      {fullscreen(801, 600), D3DERR_INVALIDCALL},
      {fullscreen(0, 0), D3DERR_INVALIDCALL},
      {fullscreen(1920, 1080, D3DFMT_X8R8G8B8, 75), D3DERR_INVALIDCALL},
      {fullscreen(1920, 1080, D3DFMT_UNKNOWN), D3DERR_INVALIDCALL},
      {fullscreen(1920, 1080, D3DFMT_D24S8), D3DERR_INVALIDCALL},
      {fullscreen(1920, 1080, D3DFMT_X1R5G5B5), D3DERR_NOTAVAILABLE},
      {fullscreen(1920, 1080, D3DFMT_A2R10G10B10), D3DERR_NOTAVAILABLE},
  };
  for (const Refused &r : refused) {
    INFO(r.pp.BackBufferWidth << "x" << r.pp.BackBufferHeight << " format " << r.pp.BackBufferFormat << " rate "
                              << r.pp.FullScreen_RefreshRateInHz);
    IDirect3DDevice9 *device = reinterpret_cast<IDirect3DDevice9 *>(uintptr_t(1));
    CHECK(create(d3d, r.pp, &device) == r.hr);
    CHECK(device == nullptr);
  }

  // A full-screen additional swap chain is refused, as Windows allows one full-screen chain (the
  // device's own).
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(create(d3d, headless(), &device) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = fullscreen();
  IDirect3DSwapChain9 *chain = nullptr;
  CHECK(device->CreateAdditionalSwapChain(&pp, &chain) == D3DERR_INVALIDCALL);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("Reset: windowed to full-screen and back, headless", "[api][fullscreen][reset]") {
  NullDevice d;
  D3DPRESENT_PARAMETERS pp = fullscreen();
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  CHECK(d.device->TestCooperativeLevel() == D3D_OK);
  IDirect3DSurface9 *back = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  D3DSURFACE_DESC desc{};
  REQUIRE(back->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Width == 1920 && desc.Height == 1080));
  back->Release();
  CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);

  pp = headless(32, 16);
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  D3DVIEWPORT9 vp{};
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK((vp.Width == 32 && vp.Height == 16));
  CHECK(d.device->TestCooperativeLevel() == D3D_OK);
  CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
}

TEST_CASE("Reset: a refused Reset leaves the device not reset until one succeeds", "[api][fullscreen][reset]") {
  NullDevice d;
  // A size that is no display mode (Wine's test_reset: TestCooperativeLevel then answers
  // D3DERR_DEVICENOTRESET, and Present D3DERR_DEVICELOST).
  D3DPRESENT_PARAMETERS pp = fullscreen(32, 32);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICENOTRESET);
  CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3DERR_DEVICELOST);
  // Drawing calls go on succeeding while the device waits for its Reset.
  CHECK(d.device->Clear(0, nullptr, D3DCLEAR_TARGET, 0, 1.0f, 0) == D3D_OK);
  // So does a D3DPOOL_DEFAULT resource blocking the Reset.
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  pp = headless();
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(d.device->TestCooperativeLevel() == D3DERR_DEVICENOTRESET);
  CHECK(vb->Release() == 0);
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  CHECK(d.device->TestCooperativeLevel() == D3D_OK);
  CHECK(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
}

TEST_CASE("D3D9Ex: a headless full-screen device is never lost nor occluded", "[api][fullscreen]") {
  Backend backend("null");
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = fullscreen();
  IDirect3DDevice9Ex *device = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &device) ==
          D3D_OK);
  CHECK(device->TestCooperativeLevel() == D3D_OK);
  CHECK(device->CheckDeviceState(nullptr) == D3D_OK);
  CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  // D3D9Ex devices are not left to be reset by a refused Reset: TestCooperativeLevel stays D3D_OK.
  pp = fullscreen(32, 32);
  CHECK(device->ResetEx(&pp, nullptr) == D3DERR_INVALIDCALL);
  CHECK(device->TestCooperativeLevel() == D3D_OK);
  CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  pp = headless();
  REQUIRE(device->ResetEx(&pp, nullptr) == D3D_OK);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}
