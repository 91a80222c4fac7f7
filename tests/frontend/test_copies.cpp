// Surfaces and copies as the API answers them (null plugin): DEFAULT-pool offscreen plain
// surfaces, lockable and non-lockable render targets, UpdateSurface into render targets, and
// StretchRect's surface combinations, each refused where Windows refuses it.
#include <d3d9.h>

#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("DEFAULT offscreen plain surfaces and lockable render targets lock, others refuse", "[api][copies]") {
  NullDevice f;
  IDirect3DDevice9 *dev = f.device;
  IDirect3DSurface9 *plain = nullptr, *lockable = nullptr, *fixed = nullptr, *ms = nullptr, *ds = nullptr;
  REQUIRE(dev->CreateOffscreenPlainSurface(16, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, TRUE, &lockable, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &fixed, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, TRUE, &ms, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(16, 8, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(plain->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Pool == D3DPOOL_DEFAULT);
  CHECK(desc.Usage == 0);
  CHECK(desc.Width == 16);

  D3DLOCKED_RECT lr{};
  for (IDirect3DSurface9 *s : {plain, lockable}) {
    CHECK(s->UnlockRect() == D3DERR_INVALIDCALL); // not locked
    REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
    CHECK(lr.pBits != nullptr);
    CHECK(lr.Pitch >= 16 * 4);
    CHECK(s->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL); // locked twice
    CHECK(s->UnlockRect() == D3D_OK);
    RECT outside{8, 0, 17, 8}, inside{4, 2, 8, 6};
    CHECK(s->LockRect(&lr, &outside, 0) == D3DERR_INVALIDCALL);
    REQUIRE(s->LockRect(&lr, &inside, D3DLOCK_DISCARD) == D3D_OK);
    CHECK(s->UnlockRect() == D3D_OK);
    CHECK(s->LockRect(nullptr, nullptr, 0) == D3DERR_INVALIDCALL);
  }
  // Render targets created without Lockable, multisampled ones and depth-stencil surfaces refuse.
  CHECK(fixed->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(ms->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(ds->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL);

  // ColorFill: offscreen plain surfaces in D3DPOOL_DEFAULT take it.
  CHECK(dev->ColorFill(plain, nullptr, 0xff00ff00) == D3D_OK);
  for (IDirect3DSurface9 *s : {plain, lockable, fixed, ms, ds}) CHECK(s->Release() == 0);
}

TEST_CASE("The back buffer locks with D3DPRESENTFLAG_LOCKABLE_BACKBUFFER only", "[api][copies]") {
  for (bool lockable : {false, true}) {
    Backend backend("null");
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    if (lockable) pp.Flags |= D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
    IDirect3DDevice9 *device = nullptr;
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
    IDirect3DSurface9 *back = nullptr;
    REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    D3DLOCKED_RECT lr{};
    CHECK(back->LockRect(&lr, nullptr, 0) == (lockable ? D3D_OK : D3DERR_INVALIDCALL));
    if (lockable) CHECK(back->UnlockRect() == D3D_OK);
    back->Release();
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("CreateRenderTargetEx makes lockable render targets", "[api][copies]") {
  Backend backend("null");
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9Ex *device = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &device) ==
          D3D_OK);
  IDirect3DSurface9 *lockable = nullptr, *fixed = nullptr;
  REQUIRE(device->CreateRenderTargetEx(8, 8, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, TRUE, &lockable, nullptr, 0) ==
          D3D_OK);
  REQUIRE(device->CreateRenderTargetEx(8, 8, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &fixed, nullptr, 0) ==
          D3D_OK);
  D3DLOCKED_RECT lr{};
  CHECK(lockable->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
  CHECK(lockable->UnlockRect() == D3D_OK);
  CHECK(fixed->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(lockable->Release() == 0);
  CHECK(fixed->Release() == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("UpdateSurface writes render targets and plain DEFAULT surfaces", "[api][copies]") {
  NullDevice f;
  IDirect3DDevice9 *dev = f.device;
  IDirect3DSurface9 *sys = nullptr, *rt = nullptr, *plain = nullptr, *ms = nullptr, *ds = nullptr, *back = nullptr;
  REQUIRE(dev->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(16, 16, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) == D3D_OK);
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  POINT at{8, 8}, too_far{9, 0};
  CHECK(dev->UpdateSurface(sys, nullptr, rt, &at) == D3D_OK);
  CHECK(dev->UpdateSurface(sys, nullptr, plain, nullptr) == D3D_OK);
  CHECK(dev->UpdateSurface(sys, nullptr, back, nullptr) == D3D_OK);
  CHECK(dev->UpdateSurface(sys, nullptr, rt, &too_far) == D3DERR_INVALIDCALL); // leaves the destination
  CHECK(dev->UpdateSurface(sys, nullptr, ms, nullptr) == D3DERR_INVALIDCALL);  // multisampled
  CHECK(dev->UpdateSurface(sys, nullptr, ds, nullptr) == D3DERR_INVALIDCALL);  // another format
  CHECK(dev->UpdateSurface(rt, nullptr, plain, nullptr) == D3DERR_INVALIDCALL); // the source is not SYSTEMMEM
  CHECK(dev->UpdateSurface(sys, nullptr, sys, nullptr) == D3DERR_INVALIDCALL);  // nor the destination DEFAULT
  for (IDirect3DSurface9 *s : {sys, rt, plain, ms, ds, back}) s->Release();
}

TEST_CASE("StretchRect takes the surface combinations of D3D9 drivers and refuses the others", "[api][copies]") {
  NullDevice f;
  IDirect3DDevice9 *dev = f.device;
  D3DCAPS9 caps;
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  CHECK((caps.DevCaps2 & D3DDEVCAPS2_CAN_STRETCHRECT_FROM_TEXTURES) != 0);

  IDirect3DSurface9 *back = nullptr, *rt = nullptr, *plain = nullptr, *plain2 = nullptr, *ms = nullptr, *ds = nullptr;
  IDirect3DTexture9 *tex = nullptr, *rt_tex = nullptr;
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(32, 32, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain2, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(32, 32, 2, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(32, 32, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &rt_tex, nullptr) ==
          D3D_OK);
  IDirect3DSurface9 *tex0 = nullptr, *tex1 = nullptr, *rt_tex0 = nullptr;
  REQUIRE(tex->GetSurfaceLevel(0, &tex0) == D3D_OK);
  REQUIRE(tex->GetSurfaceLevel(1, &tex1) == D3D_OK);
  REQUIRE(rt_tex->GetSurfaceLevel(0, &rt_tex0) == D3D_OK);
  RECT half{0, 0, 16, 16}, other_half{16, 16, 32, 32}, overlap{8, 8, 24, 24}, big{0, 0, 32, 32};

  // Textures (not render targets) as sources, stretched or not, into render targets.
  CHECK(dev->StretchRect(tex0, nullptr, rt, nullptr, D3DTEXF_LINEAR) == D3D_OK);
  CHECK(dev->StretchRect(tex1, nullptr, back, nullptr, D3DTEXF_POINT) == D3D_OK);
  CHECK(dev->StretchRect(tex0, nullptr, rt_tex0, nullptr, D3DTEXF_NONE) == D3D_OK);
  // Never into a texture that is not a render target, nor from a texture into a plain surface.
  CHECK(dev->StretchRect(rt, nullptr, tex0, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(tex0, nullptr, plain, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  // Plain surfaces: into targets (stretched too) and into plain surfaces unstretched; a render
  // target never into a plain surface.
  CHECK(dev->StretchRect(plain, nullptr, back, nullptr, D3DTEXF_LINEAR) == D3D_OK);
  CHECK(dev->StretchRect(plain, &half, plain2, nullptr, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(plain, nullptr, plain2, nullptr, D3DTEXF_POINT) == D3DERR_INVALIDCALL); // stretched
  CHECK(dev->StretchRect(rt, nullptr, plain, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  // Within one surface: unstretched copies, overlapping or not; no stretching.
  CHECK(dev->StretchRect(rt, &half, rt, &other_half, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(rt, &half, rt, &overlap, D3DTEXF_POINT) == D3D_OK);
  CHECK(dev->StretchRect(rt, nullptr, rt, nullptr, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(rt, &half, rt, &big, D3DTEXF_POINT) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(plain, &half, plain, &other_half, D3DTEXF_NONE) == D3D_OK);
  // Multisampled sources resolve, scaled or not; multisampled destinations are refused.
  CHECK(dev->StretchRect(ms, nullptr, rt, nullptr, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(ms, &half, rt, nullptr, D3DTEXF_LINEAR) == D3D_OK);
  CHECK(dev->StretchRect(rt, nullptr, ms, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  // Depth-stencil surfaces: whole, unstretched, of one format, neither discardable, outside a
  // scene.
  IDirect3DSurface9 *ds2 = nullptr, *ds16 = nullptr, *ds_discard = nullptr;
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds2, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D16, D3DMULTISAMPLE_NONE, 0, FALSE, &ds16, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, TRUE, &ds_discard, nullptr) ==
          D3D_OK);
  CHECK(dev->StretchRect(ds, nullptr, ds2, nullptr, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(ds, &big, ds2, &big, D3DTEXF_POINT) == D3D_OK);
  CHECK(dev->StretchRect(ds, nullptr, ds2, nullptr, D3DTEXF_LINEAR) == D3D_OK); // Windows takes LINEAR too
  CHECK(dev->StretchRect(ds, nullptr, ds2, nullptr, D3DTEXF_ANISOTROPIC) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(ds, &half, ds2, &half, D3DTEXF_NONE) == D3DERR_INVALIDCALL);   // a part
  CHECK(dev->StretchRect(ds, nullptr, ds16, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL); // conversion
  CHECK(dev->StretchRect(ds, nullptr, ds_discard, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(ds_discard, nullptr, ds, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  REQUIRE(dev->BeginScene() == D3D_OK);
  CHECK(dev->StretchRect(ds, nullptr, ds2, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL); // inside a scene
  REQUIRE(dev->EndScene() == D3D_OK);
  for (IDirect3DSurface9 *s : {ds2, ds16, ds_discard}) s->Release();
  // A colour surface and a depth-stencil surface never copy into each other.
  CHECK(dev->StretchRect(rt, nullptr, ds, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(ds, nullptr, rt, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);

  // ColorFill: not on texture levels that are not render targets.
  CHECK(dev->ColorFill(tex0, nullptr, 0xff000000) == D3DERR_INVALIDCALL);
  CHECK(dev->ColorFill(rt_tex0, nullptr, 0xff000000) == D3D_OK);

  for (IDirect3DSurface9 *s : {tex0, tex1, rt_tex0}) s->Release();
  for (IDirect3DSurface9 *s : {back, rt, plain, plain2, ms, ds}) s->Release();
  CHECK(tex->Release() == 0);
  CHECK(rt_tex->Release() == 0);
}
