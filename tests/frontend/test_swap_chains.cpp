// Additional swap chains, the cursor and the dialog-box mode on headless devices: what the
// frontend answers (null plugin), and what a headless additional swap chain presents on the real
// drivers ([backends]). Windows are tested in tests/window.
#include "api_fixture.hpp"

#include <cstring>

using namespace api_fixture;

namespace {

D3DPRESENT_PARAMETERS chain_parameters(UINT w, UINT h) {
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = w;
  pp.BackBufferHeight = h;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  return pp;
}

// A headless device on backend `name`, or nullptr (d3d released) when it cannot start and is not
// required (NOVEM_TEST_REQUIRE_BACKENDS).
IDirect3DDevice9 *headless_device(IDirect3D9 *d3d, const char *name) {
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK)
    return device;
  const char *required = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
  if (required && std::strstr(required, name)) FAIL(name << " is required and cannot start");
  WARN(name << " cannot start: skipped");
  d3d->Release();
  return nullptr;
}

// Runs body(device, chain, back) on each real backend: a headless device with a 24x12 additional
// swap chain whose back buffer is render target 0; releases them after it.
template <class Body> void on_each_backend(Body body) {
  for (const char *name : {"vulkan", "opengl"}) {
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    IDirect3DDevice9 *device = headless_device(d3d, name);
    if (!device) continue;
    INFO(name);
    IDirect3DSwapChain9 *chain = nullptr;
    D3DPRESENT_PARAMETERS cp = chain_parameters(24, 12);
    REQUIRE(device->CreateAdditionalSwapChain(&cp, &chain) == D3D_OK);
    IDirect3DSurface9 *back = nullptr;
    REQUIRE(chain->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    REQUIRE(device->SetRenderTarget(0, back) == D3D_OK);
    body(device, chain, back);
    back->Release();
    CHECK(chain->Release() == 0);
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

} // namespace

TEST_CASE("CreateAdditionalSwapChain: a headless chain with its own back buffer", "[api][present][swapchain]") {
  NullDevice d;
  IDirect3DSwapChain9 *chain = nullptr;
  D3DPRESENT_PARAMETERS pp = chain_parameters(32, 16);
  CHECK(d.device->CreateAdditionalSwapChain(nullptr, &chain) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateAdditionalSwapChain(&pp, nullptr) == D3DERR_INVALIDCALL);
  D3DPRESENT_PARAMETERS bad = chain_parameters(0, 16); // headless: no window to size it
  CHECK(d.device->CreateAdditionalSwapChain(&bad, &chain) == D3DERR_INVALIDCALL);
  CHECK(chain == nullptr);
  bad = chain_parameters(32, 16);
  bad.Windowed = FALSE;
  CHECK(d.device->CreateAdditionalSwapChain(&bad, &chain) == D3DERR_INVALIDCALL);
  bad = chain_parameters(32, 16);
  bad.BackBufferFormat = D3DFMT_D24S8;
  CHECK(d.device->CreateAdditionalSwapChain(&bad, &chain) == D3DERR_INVALIDCALL);
  // A render-target format that is not one of D3D9's six back-buffer formats.
  bad.BackBufferFormat = D3DFMT_A16B16G16R16F;
  CHECK(d.device->CreateAdditionalSwapChain(&bad, &chain) == D3DERR_INVALIDCALL);

  REQUIRE(d.device->CreateAdditionalSwapChain(&pp, &chain) == D3D_OK);
  CHECK(pp.BackBufferCount == 1); // filled in, as Windows writes back what it chose
  CHECK(refcount(chain) == 1);
  CHECK(refcount(d.device) == 2); // the chain holds the device
  // Only implicit swap chains are counted and reachable by index, as Windows.
  CHECK(d.device->GetNumberOfSwapChains() == 1);
  IDirect3DSwapChain9 *other = nullptr;
  CHECK(d.device->GetSwapChain(1, &other) == D3DERR_INVALIDCALL);

  IDirect3DSurface9 *back = nullptr;
  CHECK(chain->GetBackBuffer(1, D3DBACKBUFFER_TYPE_MONO, &back) == D3DERR_INVALIDCALL);
  REQUIRE(chain->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  D3DSURFACE_DESC desc{};
  back->GetDesc(&desc);
  CHECK((desc.Width == 32 && desc.Height == 16 && desc.Format == D3DFMT_X8R8G8B8));
  CHECK((desc.Usage & D3DUSAGE_RENDERTARGET) != 0);
  IDirect3DSurface9 *device_back = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &device_back) == D3D_OK);
  CHECK(device_back != back);
  device_back->Release();
  // It can be rendered to like any render target.
  CHECK(d.device->SetRenderTarget(0, back) == D3D_OK);
  back->Release();

  D3DPRESENT_PARAMETERS got{};
  REQUIRE(chain->GetPresentParameters(&got) == D3D_OK);
  CHECK((got.BackBufferWidth == 32 && got.BackBufferHeight == 16));
  CHECK(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  IDirect3DSurface9 *front = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(32, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr) == D3D_OK);
  CHECK(chain->GetFrontBufferData(front) == D3D_OK);
  front->Release();
  IDirect3DDevice9 *owner = nullptr;
  REQUIRE(chain->GetDevice(&owner) == D3D_OK);
  CHECK(owner == d.device);
  owner->Release();

  // Reset refuses while it exists (a D3DPOOL_DEFAULT object), and works once it is released.
  d.device->SetRenderTarget(0, nullptr);
  IDirect3DSurface9 *implicit = nullptr;
  d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit);
  d.device->SetRenderTarget(0, implicit);
  implicit->Release();
  D3DPRESENT_PARAMETERS reset = headless();
  CHECK(d.device->Reset(&reset) == D3DERR_INVALIDCALL);
  CHECK(chain->Release() == 0);
  reset = headless();
  CHECK(d.device->Reset(&reset) == D3D_OK);
}

TEST_CASE("cursor: SetCursorProperties validation, ShowCursor returns the previous visibility", "[api][cursor]") {
  NullDevice d;
  IDirect3DSurface9 *cursor = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(32, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &cursor, nullptr) == D3D_OK);
  CHECK(d.device->SetCursorProperties(0, 0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->SetCursorProperties(32, 0, cursor) == D3DERR_INVALIDCALL); // hot spot outside
  CHECK(d.device->SetCursorProperties(0, 40, cursor) == D3DERR_INVALIDCALL);
  CHECK(d.device->SetCursorProperties(31, 31, cursor) == D3D_OK);
  IDirect3DSurface9 *odd = nullptr; // not a power of two
  REQUIRE(d.device->CreateOffscreenPlainSurface(24, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &odd, nullptr) == D3D_OK);
  CHECK(d.device->SetCursorProperties(0, 0, odd) == D3DERR_INVALIDCALL);
  odd->Release();
  IDirect3DSurface9 *x8 = nullptr; // not A8R8G8B8
  REQUIRE(d.device->CreateOffscreenPlainSurface(32, 32, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &x8, nullptr) == D3D_OK);
  CHECK(d.device->SetCursorProperties(0, 0, x8) == D3DERR_INVALIDCALL);
  x8->Release();
  IDirect3DSurface9 *huge = nullptr; // not smaller than the 1920x1080 display mode
  REQUIRE(d.device->CreateOffscreenPlainSurface(2048, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &huge, nullptr) == D3D_OK);
  CHECK(d.device->SetCursorProperties(0, 0, huge) == D3DERR_INVALIDCALL);
  huge->Release();
  cursor->Release();

  CHECK(d.device->ShowCursor(TRUE) == FALSE); // hidden on a new device
  CHECK(d.device->ShowCursor(TRUE) == TRUE);
  CHECK(d.device->ShowCursor(FALSE) == TRUE);
  CHECK(d.device->ShowCursor(FALSE) == FALSE);
  d.device->SetCursorPosition(10, 20, D3DCURSOR_IMMEDIATE_UPDATE); // headless: kept, nothing to move
}

TEST_CASE("SetDialogBoxMode: refused unless the back buffer is lockable, GDI-compatible, DISCARD, single-sampled",
          "[api][cursor]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless();
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
  CHECK(device->SetDialogBoxMode(TRUE) == D3DERR_INVALIDCALL); // not lockable
  CHECK(device->SetDialogBoxMode(FALSE) == D3D_OK);
  pp = headless();
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.Flags = D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
  REQUIRE(device->Reset(&pp) == D3D_OK);
  CHECK(device->SetDialogBoxMode(TRUE) == D3D_OK);
  REQUIRE(device->BeginScene() == D3D_OK);
  CHECK(device->SetDialogBoxMode(TRUE) == D3DERR_INVALIDCALL); // inside a scene
  REQUIRE(device->EndScene() == D3D_OK);
  pp = headless();
  pp.BackBufferFormat = D3DFMT_A8R8G8B8; // not a GDI format
  pp.Flags = D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
  REQUIRE(device->Reset(&pp) == D3D_OK);
  CHECK(device->SetDialogBoxMode(TRUE) == D3DERR_INVALIDCALL);
  pp = headless();
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.Flags = D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
  pp.SwapEffect = D3DSWAPEFFECT_FLIP;
  REQUIRE(device->Reset(&pp) == D3D_OK);
  CHECK(device->SetDialogBoxMode(TRUE) == D3DERR_INVALIDCALL);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("an additional headless swap chain presents what was rendered into its back buffer", "[backends][swapchain]") {
  on_each_backend([](IDirect3DDevice9 *device, IDirect3DSwapChain9 *chain, IDirect3DSurface9 *) {
    REQUIRE(device->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR_XRGB(10, 200, 30), 1.0f, 0) == D3D_OK);
    // The device's own back buffer gets another colour: the chains do not share one.
    IDirect3DSurface9 *implicit = nullptr;
    REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit) == D3D_OK);
    REQUIRE(device->SetRenderTarget(0, implicit) == D3D_OK);
    REQUIRE(device->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR_XRGB(250, 0, 0), 1.0f, 0) == D3D_OK);
    REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    REQUIRE(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);

    IDirect3DSurface9 *front = nullptr;
    REQUIRE(device->CreateOffscreenPlainSurface(24, 12, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr) == D3D_OK);
    CHECK(device->GetFrontBufferData(0, front) == D3DERR_INVALIDCALL); // the device's is 64x64
    REQUIRE(chain->GetFrontBufferData(front) == D3D_OK);
    D3DLOCKED_RECT lr{};
    REQUIRE(front->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
    const auto *px = static_cast<const uint8_t *>(lr.pBits) + 5 * lr.Pitch + 20 * 4;
    CHECK((px[0] == 30 && px[1] == 200 && px[2] == 10 && px[3] == 255));
    front->UnlockRect();
    front->Release();
    implicit->Release();
  });
}

// Present leaves the frame in the back buffer and owes the front image a copy of it: a clear of the
// whole back buffer takes the front image's place instead, anything else makes the copy first.
// Either way the front buffer shows the last Present and the back buffer keeps what was not cleared.
TEST_CASE("Present's front copy: deferred, and replaced by an exchange before a whole clear", "[backends][swapchain]") {
  on_each_backend([](IDirect3DDevice9 *device, IDirect3DSwapChain9 *chain, IDirect3DSurface9 *back) {
    IDirect3DSurface9 *front = nullptr, *back_copy = nullptr;
    REQUIRE(device->CreateOffscreenPlainSurface(24, 12, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr) == D3D_OK);
    REQUIRE(device->CreateOffscreenPlainSurface(24, 12, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &back_copy, nullptr) == D3D_OK);
    // The red byte of pixel (x, 5) of a read-back surface.
    auto red_at = [](IDirect3DSurface9 *s, int x) {
      D3DLOCKED_RECT lr{};
      REQUIRE(s->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
      const uint8_t red = static_cast<const uint8_t *>(lr.pBits)[5 * lr.Pitch + x * 4 + 2];
      s->UnlockRect();
      return int(red);
    };
    auto clear_red = [&](uint8_t red, const D3DRECT *rect) {
      REQUIRE(device->Clear(rect ? 1 : 0, rect, D3DCLEAR_TARGET, D3DCOLOR_XRGB(red, 0, 0), 1.0f, 0) == D3D_OK);
    };

    clear_red(100, nullptr);
    REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    clear_red(150, nullptr); // the whole back buffer: the images are exchanged
    REQUIRE(chain->GetFrontBufferData(front) == D3D_OK);
    CHECK(red_at(front, 3) == 100);
    REQUIRE(device->GetRenderTargetData(back, back_copy) == D3D_OK);
    CHECK(red_at(back_copy, 3) == 150);

    REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    const D3DRECT left{0, 0, 12, 12};
    clear_red(200, &left); // a part: the front image gets its copy first
    REQUIRE(chain->GetFrontBufferData(front) == D3D_OK);
    CHECK(red_at(front, 3) == 150);
    CHECK(red_at(front, 20) == 150);
    REQUIRE(device->GetRenderTargetData(back, back_copy) == D3D_OK);
    CHECK(red_at(back_copy, 3) == 200);
    CHECK(red_at(back_copy, 20) == 150); // kept, as D3D9 drivers keep a back buffer with one buffer

    // Two presents with nothing between them, then a whole clear: the front shows the frame.
    REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    REQUIRE(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
    clear_red(250, nullptr);
    REQUIRE(chain->GetFrontBufferData(front) == D3D_OK);
    CHECK(red_at(front, 3) == 200);
    CHECK(red_at(front, 20) == 150);
    REQUIRE(device->GetRenderTargetData(back, back_copy) == D3D_OK);
    CHECK(red_at(back_copy, 20) == 250);

    front->Release();
    back_copy->Release();
  });
}
