// D3D9Ex's user memory: pSharedHandle pointing at the program's memory makes a SYSTEMMEM texture
// of one level, or a SYSTEMMEM plain surface, whose bytes are that memory (rows exactly a row
// long); other resources and pools refuse it, as Windows answers in Wine's test_user_memory.
// A D3D9 device takes no pSharedHandle.
#include <cstring>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("D3D9Ex: user memory for SYSTEMMEM textures of one level and plain surfaces", "[api][d3d9ex][memory]") {
  NullExDevice d;
  std::vector<uint8_t> bytes(128 * 128 * 4);
  HANDLE mem = bytes.data();
  IDirect3DTexture9 *tex = nullptr;
  struct Refused {
    const char *what;
    UINT edge, levels;
    D3DPOOL pool;
  };
  for (Refused r : {Refused{"a full chain", 128, 0, D3DPOOL_SYSTEMMEM}, Refused{"levels 0 of 1x1", 1, 0, D3DPOOL_SYSTEMMEM},
                    Refused{"two levels", 128, 2, D3DPOOL_SYSTEMMEM}, Refused{"SCRATCH", 128, 1, D3DPOOL_SCRATCH},
                    Refused{"MANAGED", 128, 1, D3DPOOL_MANAGED}, Refused{"DEFAULT", 128, 1, D3DPOOL_DEFAULT}}) {
    INFO(r.what);
    CHECK(d.device->CreateTexture(r.edge, r.edge, r.levels, 0, D3DFMT_A8R8G8B8, r.pool, &tex, &mem) == D3DERR_INVALIDCALL);
  }
  REQUIRE(d.device->CreateTexture(128, 128, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &tex, &mem) == D3D_OK);
  D3DLOCKED_RECT lr{};
  REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 128 * 4);
  CHECK(lr.pBits == bytes.data());
  CHECK(tex->UnlockRect(0) == D3D_OK);
  CHECK(tex->Release() == 0);
  // Rows exactly a row long: 33 bytes for 33 L8 texels, not rounded to 4.
  REQUIRE(d.device->CreateTexture(33, 33, 1, 0, D3DFMT_L8, D3DPOOL_SYSTEMMEM, &tex, &mem) == D3D_OK);
  REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 33);
  CHECK(lr.pBits == bytes.data());
  CHECK(tex->UnlockRect(0) == D3D_OK);
  // UpdateTexture reads the program's bytes.
  IDirect3DTexture9 *dst = nullptr;
  REQUIRE(d.device->CreateTexture(33, 33, 1, 0, D3DFMT_L8, D3DPOOL_DEFAULT, &dst, nullptr) == D3D_OK);
  CHECK(d.device->UpdateTexture(tex, dst) == D3D_OK);
  CHECK(dst->Release() == 0);
  CHECK(tex->Release() == 0);

  IDirect3DCubeTexture9 *cube = nullptr;
  CHECK(d.device->CreateCubeTexture(2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &cube, &mem) == D3DERR_INVALIDCALL);
  IDirect3DVolumeTexture9 *volume = nullptr;
  CHECK(d.device->CreateVolumeTexture(2, 2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &volume, &mem) ==
        D3DERR_INVALIDCALL);
  IDirect3DIndexBuffer9 *ib = nullptr;
  CHECK(d.device->CreateIndexBuffer(16, 0, D3DFMT_INDEX32, D3DPOOL_SYSTEMMEM, &ib, &mem) == D3DERR_NOTAVAILABLE);
  IDirect3DVertexBuffer9 *vb = nullptr;
  CHECK(d.device->CreateVertexBuffer(16, 0, 0, D3DPOOL_SYSTEMMEM, &vb, &mem) == D3DERR_NOTAVAILABLE);

  IDirect3DSurface9 *s = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(128, 128, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &s, &mem) == D3D_OK);
  REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 128 * 4);
  CHECK(lr.pBits == bytes.data());
  CHECK(s->UnlockRect() == D3D_OK);
  CHECK(s->Release() == 0);
  REQUIRE(d.device->CreateOffscreenPlainSurfaceEx(128, 128, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &s, &mem, 0) == D3D_OK);
  REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
  CHECK(lr.pBits == bytes.data());
  CHECK(s->UnlockRect() == D3D_OK);
  CHECK(s->Release() == 0);
  CHECK(d.device->CreateOffscreenPlainSurface(128, 128, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &s, &mem) == D3DERR_INVALIDCALL);
}

TEST_CASE("D3D9: no pSharedHandle on any creation", "[api][memory]") {
  NullDevice d;
  std::vector<uint8_t> bytes(64 * 64 * 4);
  HANDLE mem = bytes.data();
  IDirect3DTexture9 *tex = nullptr;
  CHECK(d.device->CreateTexture(64, 64, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &tex, &mem) == D3DERR_INVALIDCALL);
  IDirect3DSurface9 *s = nullptr;
  CHECK(d.device->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &s, &mem) == D3DERR_INVALIDCALL);
  IDirect3DVertexBuffer9 *vb = nullptr;
  CHECK(d.device->CreateVertexBuffer(16, 0, 0, D3DPOOL_SYSTEMMEM, &vb, &mem) == D3DERR_INVALIDCALL);
}
