// Sizes past the caps or past what memory holds, and the command ring's size: each is an answer
// (D3DERR_INVALIDCALL, D3DERR_OUTOFVIDEOMEMORY, E_OUTOFMEMORY, one logged line), never an
// exception out of a COM method, an abort, a hang or a resource that silently does not exist.
#include <cstring>
#include <string>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("limits: surfaces and back buffers larger than the caps are refused", "[api][limits]") {
  NullDevice d;
  D3DCAPS9 caps;
  REQUIRE(d.device->GetDeviceCaps(&caps) == D3D_OK);
  const UINT big = caps.MaxTextureWidth * 4;
  IDirect3DSurface9 *s = reinterpret_cast<IDirect3DSurface9 *>(0x1);
  CHECK(d.device->CreateRenderTarget(big, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &s, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(s == nullptr);
  CHECK(d.device->CreateDepthStencilSurface(64, big, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &s, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(d.device->CreateOffscreenPlainSurface(big, big, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &s, nullptr) ==
        D3DERR_INVALIDCALL);
  // Memory surfaces are bounded by memory, not the caps; a row pitch past 32 bits is no memory.
  HRESULT hr = d.device->CreateOffscreenPlainSurface(0xFFFFFFFF, 0xFFFFFFFF, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &s,
                                                     nullptr);
  CHECK(hr == E_OUTOFMEMORY);
  CHECK(s == nullptr);
  CHECK(d.device->CreateOffscreenPlainSurface(0x10000000, 0x10000000, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &s, nullptr) ==
        E_OUTOFMEMORY);
  CHECK(d.device->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL(0xFFFFFFFF), &s, nullptr) ==
        D3DERR_INVALIDCALL);
  IDirect3DTexture9 *t = nullptr;
  CHECK(d.device->CreateTexture(64, 64, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL(0xFFFFFFFF), &t, nullptr) == D3DERR_INVALIDCALL);

  D3DPRESENT_PARAMETERS pp = headless(big, 64);
  CHECK(d.device->Reset(&pp) == D3DERR_INVALIDCALL);
  IDirect3DDevice9 *other = nullptr;
  pp = headless(64, big);
  CHECK(d.d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &other) ==
        D3DERR_INVALIDCALL);
  CHECK(other == nullptr);
}

// SCRATCH resources "are not bound by device size or format restrictions ... They can, however,
// always be created, locked, and copied" (D3DPOOL): textures past MaxTextureWidth are made and
// lock; what memory cannot hold, or a pitch past 32 bits, is E_OUTOFMEMORY. Other pools keep the caps.
TEST_CASE("limits: SCRATCH textures are bounded by memory, not the caps", "[api][limits]") {
  NullDevice d;
  D3DCAPS9 caps;
  REQUIRE(d.device->GetDeviceCaps(&caps) == D3D_OK);
  const UINT past = caps.MaxTextureWidth + 4;
  IDirect3DTexture9 *t = nullptr;
  CHECK(d.device->CreateTexture(past, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &t, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateTexture(past, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &t, nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->CreateTexture(past, 4, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &t, nullptr) == D3D_OK);
  CHECK(t->GetLevelCount() == 15); // the full chain of a 16388-wide texture, past the caps too
  D3DLOCKED_RECT lr{};
  REQUIRE(t->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == INT(past * 4));
  static_cast<DWORD *>(lr.pBits)[past - 1] = 0x12345678;
  CHECK(t->UnlockRect(0) == D3D_OK);
  REQUIRE(t->LockRect(0, &lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
  CHECK(static_cast<DWORD *>(lr.pBits)[past - 1] == 0x12345678);
  CHECK(t->UnlockRect(0) == D3D_OK);
  CHECK(t->Release() == 0);
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateCubeTexture(past, 1, 0, D3DFMT_L8, D3DPOOL_SCRATCH, &cube, nullptr) == D3D_OK);
  CHECK(cube->Release() == 0);
  IDirect3DVolumeTexture9 *volume = nullptr;
  REQUIRE(d.device->CreateVolumeTexture(4, 4, past, 1, 0, D3DFMT_L8, D3DPOOL_SCRATCH, &volume, nullptr) == D3D_OK);
  CHECK(volume->Release() == 0);
  // Past what memory holds, or a row pitch past 32 bits: no memory, nothing made.
  t = reinterpret_cast<IDirect3DTexture9 *>(0x1);
  CHECK(d.device->CreateTexture(0xFFFFFFFF, 0xFFFFFFFF, 0, 0, D3DFMT_A32B32G32R32F, D3DPOOL_SCRATCH, &t, nullptr) ==
        E_OUTOFMEMORY);
  CHECK(t == nullptr);
  CHECK(d.device->CreateTexture(0x40000000, 1, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &t, nullptr) == E_OUTOFMEMORY);
  CHECK(d.device->CreateVolumeTexture(0x10000, 0x10000, 0x10000, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &volume,
                                      nullptr) == E_OUTOFMEMORY);
  CHECK(d.device->CreateCubeTexture(0x100000, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &cube, nullptr) == E_OUTOFMEMORY);
  // DXTn keeps its whole blocks in every pool.
  CHECK(d.device->CreateTexture(past + 2, 4, 1, 0, D3DFMT_DXT1, D3DPOOL_SCRATCH, &t, nullptr) == D3DERR_INVALIDCALL);
}

TEST_CASE("limits: video memory is taken by resources and given back", "[api][limits]") {
  NullDevice d;
  const UINT start = d.device->GetAvailableTextureMem();
  REQUIRE(start > (64u << 20));
  IDirect3DVertexBuffer9 *vb = nullptr;
  // A buffer larger than all the video memory there is: refused, not made.
  CHECK(d.device->CreateVertexBuffer(0xFFFFFFFF, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3DERR_OUTOFVIDEOMEMORY);
  CHECK(vb == nullptr);
  IDirect3DIndexBuffer9 *ib = nullptr;
  CHECK(d.device->CreateIndexBuffer(0xFFFFFFF0, 0, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, nullptr) ==
        D3DERR_OUTOFVIDEOMEMORY);
  CHECK(ib == nullptr);
  CHECK(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL(0xFFFFFFFF), &vb, nullptr) == D3DERR_INVALIDCALL);

  IDirect3DTexture9 *rt = nullptr;
  REQUIRE(d.device->CreateTexture(1024, 1024, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &rt, nullptr) ==
          D3D_OK);
  REQUIRE(d.device->CreateVertexBuffer(8u << 20, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  CHECK(d.device->GetAvailableTextureMem() == start - (12u << 20));
  // SYSTEMMEM textures have no plugin image: they take none.
  IDirect3DTexture9 *sys = nullptr;
  REQUIRE(d.device->CreateTexture(1024, 1024, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr) == D3D_OK);
  CHECK(d.device->GetAvailableTextureMem() == start - (12u << 20));
  CHECK(sys->Release() == 0);
  CHECK(rt->Release() == 0);
  CHECK(vb->Release() == 0);
  CHECK(d.device->GetAvailableTextureMem() == start);
}

// D3D9Ex has no D3DERR_OUTOFVIDEOMEMORY (Wine's d3d9ex test_vidmem_accounting): what the
// accounting refuses answers E_OUTOFMEMORY there.
TEST_CASE("limits: a D3D9Ex device answers E_OUTOFMEMORY for what the video memory cannot hold", "[api][limits]") {
  NullExDevice d;
  IDirect3DVertexBuffer9 *vb = nullptr;
  CHECK(d.device->CreateVertexBuffer(0xFFFFFFFF, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == E_OUTOFMEMORY);
  CHECK(vb == nullptr);
  const UINT available = d.device->GetAvailableTextureMem();
  // Textures of 256 MiB each (8192 x 8192 x 4 bytes) until the accounting refuses one.
  std::vector<IDirect3DTexture9 *> textures;
  HRESULT hr = D3D_OK;
  for (UINT n = 0; n <= available / (256u << 20) && hr == D3D_OK; ++n) {
    IDirect3DTexture9 *t = nullptr;
    hr = d.device->CreateTexture(8192, 8192, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &t, nullptr);
    if (t) textures.push_back(t);
  }
  CHECK(hr == E_OUTOFMEMORY);
  for (IDirect3DTexture9 *t : textures) CHECK(t->Release() == 0);
  CHECK(d.device->GetAvailableTextureMem() == available);
}

// NOVEM_RING_SIZE: whatever its value, the device starts, draws (a fixed-function draw sends a
// shader record of some KiB), uploads a texture larger than the ring and presents.
TEST_CASE("limits: any NOVEM_RING_SIZE gives a working device", "[api][limits][ring]") {
  Backend backend("null");
  for (const char *value : {"0", "1", "64", "4096", "text", "-5", "99999999999999", "0x100000", "8388608"}) {
    CAPTURE(value);
    setenv("NOVEM_RING_SIZE", value, 1);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    IDirect3DDevice9 *device = nullptr;
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
    const TLVertex v[3] = {{0, 0, 0.5f, 1, 0xffff0000}, {64, 0, 0.5f, 1, 0xffff0000}, {0, 64, 0.5f, 1, 0xffff0000}};
    CHECK(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE) == D3D_OK);
    CHECK(device->SetRenderState(D3DRS_LIGHTING, FALSE) == D3D_OK);
    for (int n = 0; n < 64; ++n) CHECK(device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex)) == D3D_OK);
    // 4 MiB of texels, more than the smallest ring holds, go to the plugin in pieces.
    IDirect3DTexture9 *texture = nullptr;
    REQUIRE(device->CreateTexture(1024, 1024, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr) == D3D_OK);
    D3DLOCKED_RECT locked;
    REQUIRE(texture->LockRect(0, &locked, nullptr, 0) == D3D_OK);
    std::memset(locked.pBits, 0x7f, size_t(locked.Pitch) * 1024);
    CHECK(texture->UnlockRect(0) == D3D_OK);
    CHECK(device->SetTexture(0, texture) == D3D_OK);
    CHECK(device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex)) == D3D_OK);
    CHECK(device->SetTexture(0, nullptr) == D3D_OK);
    CHECK(texture->Release() == 0);
    CHECK(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
  unsetenv("NOVEM_RING_SIZE");
}
