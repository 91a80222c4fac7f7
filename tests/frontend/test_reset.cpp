// Reset, ResetEx and TestCooperativeLevel: what blocks a Reset, what it recreates, and the state
// it leaves.
#include <cstdint>
#include <string>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

DWORD render_state(IDirect3DDevice9 *device, D3DRENDERSTATETYPE state) {
  DWORD value = 0xdeadbeef;
  REQUIRE(device->GetRenderState(state, &value) == D3D_OK);
  return value;
}

} // namespace

TEST_CASE("Reset: refused while D3DPOOL_DEFAULT resources or implicit surfaces are held", "[api][reset]") {
  NullDevice d;
  D3DPRESENT_PARAMETERS pp = headless(32, 16);
  CHECK(d.device->TestCooperativeLevel() == D3D_OK); // headless: never lost
  CHECK(d.device->Reset(nullptr) == D3DERR_INVALIDCALL);

  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  // The device is still usable, with the default state and its old back buffer.
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_CCW);
  D3DVIEWPORT9 vp;
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK(vp.Width == 64);
  CHECK(d.device->Clear(0, nullptr, D3DCLEAR_TARGET, 0, 1.0f, 0) == D3D_OK);
  CHECK(vb->Release() == 0);

  // A D3DPOOL_DEFAULT resource that only a binding keeps alive does not block: Reset unbinds it.
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  REQUIRE(d.device->SetStreamSource(0, vb, 0, 16) == D3D_OK);
  CHECK(vb->Release() == 0);
  // ...but a state block holding it does, until the block is released.
  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(d.device->CreateStateBlock(D3DSBT_ALL, &block) == D3D_OK);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(block->Release() == 0);

  // Managed and system-memory resources do not block.
  IDirect3DTexture9 *managed = nullptr;
  REQUIRE(d.device->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &managed, nullptr) == D3D_OK);

  // Render targets, depth-stencil surfaces and D3DPOOL_DEFAULT textures do.
  IDirect3DSurface9 *rt = nullptr;
  REQUIRE(d.device->CreateRenderTarget(8, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(rt->Release() == 0);
  IDirect3DTexture9 *default_texture = nullptr;
  REQUIRE(d.device->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &default_texture,
                                  nullptr) == D3D_OK);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(default_texture->Release() == 0);

  // The implicit surfaces block while the application holds them.
  IDirect3DSurface9 *back = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  CHECK(back->Release() == 0);

  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  CHECK(managed->Release() == 0);
}

TEST_CASE("Reset: new back buffer and depth-stencil surface, defaults, reference counts", "[api][reset]") {
  NullDevice d;
  IDirect3DSurface9 *old_back = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &old_back) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(old_back->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Width == 64);
  old_back->Release();

  const D3DMATRIX world = {{{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}}};
  const float constant[4] = {1, 2, 3, 4};
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &world) == D3D_OK);
  REQUIRE(d.device->SetVertexShaderConstantF(3, constant, 1) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE) == D3D_OK);
  REQUIRE(d.device->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR) == D3D_OK);
  REQUIRE(d.device->BeginStateBlock() == D3D_OK); // a recording is dropped by Reset

  D3DPRESENT_PARAMETERS pp = headless(32, 16);
  pp.BackBufferFormat = D3DFMT_UNKNOWN; // written back, as at creation
  pp.BackBufferCount = 0;
  pp.EnableAutoDepthStencil = FALSE;
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  CHECK(pp.BackBufferFormat == D3DFMT_X8R8G8B8);
  CHECK(pp.BackBufferCount == 1);
  CHECK(refcount(d.device) == 1);
  IDirect3DStateBlock9 *block = nullptr;
  CHECK(d.device->EndStateBlock(&block) == D3DERR_INVALIDCALL);

  IDirect3DSurface9 *back = nullptr, *rt = nullptr, *ds = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  REQUIRE(back->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Width == 32 && desc.Height == 16 && desc.Format == D3DFMT_X8R8G8B8));
  REQUIRE(d.device->GetRenderTarget(0, &rt) == D3D_OK);
  CHECK(rt == back);
  CHECK(refcount(d.device) == 2);
  rt->Release();
  back->Release();
  CHECK(d.device->GetDepthStencilSurface(&ds) == D3DERR_NOTFOUND); // none asked for
  D3DVIEWPORT9 vp;
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK((vp.Width == 32 && vp.Height == 16));
  CHECK(render_state(d.device, D3DRS_ZENABLE) == D3DZB_FALSE); // the default without a depth buffer
  D3DMATRIX m;
  REQUIRE(d.device->GetTransform(D3DTS_WORLD, &m) == D3D_OK);
  CHECK(m._11 == 1.0f);
  float got[4] = {9, 9, 9, 9};
  REQUIRE(d.device->GetVertexShaderConstantF(3, got, 1) == D3D_OK);
  CHECK(got[0] == 0.0f);
  DWORD filter = 0;
  REQUIRE(d.device->GetSamplerState(0, D3DSAMP_MINFILTER, &filter) == D3D_OK);
  CHECK(filter == D3DTEXF_POINT);

  // Reset again with a depth buffer: ZENABLE's default follows it.
  pp = headless(16, 16);
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  REQUIRE(d.device->GetDepthStencilSurface(&ds) == D3D_OK);
  REQUIRE(ds->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Width == 16 && desc.Format == D3DFMT_D24S8));
  ds->Release();
  CHECK(render_state(d.device, D3DRS_ZENABLE) == D3DZB_TRUE);

  // Invalid parameters are refused and change nothing.
  pp = headless(0, 16);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  pp = headless(16, 16);
  pp.Windowed = FALSE;
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->GetDepthStencilSurface(&ds) == D3D_OK);
  ds->Release();
}

TEST_CASE("ResetEx: D3DPOOL_DEFAULT resources survive, a display mode is refused when windowed", "[api][reset]") {
  Backend backend("null");
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9Ex *device = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &device) ==
          D3D_OK);
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(device->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  pp = headless(32, 32);
  D3DDISPLAYMODEEX mode{sizeof mode, 32, 32, 60, D3DFMT_X8R8G8B8, D3DSCANLINEORDERING_PROGRESSIVE};
  CHECK(device->ResetEx(&pp, &mode) == D3DERR_INVALIDCALL);
  REQUIRE(device->ResetEx(&pp, nullptr) == D3D_OK);
  REQUIRE(device->Reset(&pp) == D3D_OK); // an Ex device's Reset does not check either
  CHECK(vb->Release() == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("Reset on the real backends: the new back buffer is drawn to and read back", "[api][reset][backends]") {
  for (const char *name : {"vulkan", "opengl"}) {
    INFO(name);
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    REQUIRE(d3d);
    D3DPRESENT_PARAMETERS pp = headless();
    IDirect3DDevice9 *device = nullptr;
    if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) != D3D_OK) {
      WARN(std::string(name) + " cannot start here");
      d3d->Release();
      continue;
    }
    REQUIRE(device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0) == D3D_OK);
    REQUIRE(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    pp = headless(32, 16);
    REQUIRE(device->Reset(&pp) == D3D_OK);
    REQUIRE(device->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xffff0000, 1.0f, 0) == D3D_OK);
    REQUIRE(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    IDirect3DSurface9 *back = nullptr, *readback = nullptr;
    REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    REQUIRE(device->CreateOffscreenPlainSurface(32, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr) ==
            D3D_OK);
    REQUIRE(device->GetRenderTargetData(back, readback) == D3D_OK);
    D3DLOCKED_RECT locked;
    REQUIRE(readback->LockRect(&locked, nullptr, D3DLOCK_READONLY) == D3D_OK);
    const auto *row = static_cast<const uint32_t *>(locked.pBits);
    CHECK((row[0] & 0xffffff) == 0xff0000);
    CHECK((row[31] & 0xffffff) == 0xff0000);
    REQUIRE(readback->UnlockRect() == D3D_OK);
    readback->Release();
    back->Release();
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
