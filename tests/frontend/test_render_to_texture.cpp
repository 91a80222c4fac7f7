// Rendering into textures: cube faces and levels above 0 as render targets, AUTOGENMIPMAP
// render targets, and GetRenderTargetData from any level or face. The first cases check the
// frontend's answers on the null plugin; the [backends] case reads the texels back from the
// real drivers.
#include <cstdint>
#include <cstring>

#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("render to texture: cube faces and levels are targets, as Windows", "[api][texture][rtt]") {
  NullDevice d;
  IDirect3DCubeTexture9 *cube = nullptr;
  // As 2D render-target textures: DEFAULT only, of a render-target format, not dynamic.
  CHECK(d.device->CreateCubeTexture(16, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(d.device->CreateCubeTexture(16, 1, D3DUSAGE_RENDERTARGET, D3DFMT_L8, D3DPOOL_DEFAULT, &cube, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(d.device->CreateCubeTexture(16, 1, D3DUSAGE_RENDERTARGET | D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT,
                                    &cube, nullptr) == D3DERR_INVALIDCALL);
  IDirect3DVolumeTexture9 *volume = nullptr;
  CHECK(d.device->CreateVolumeTexture(4, 4, 4, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &volume,
                                      nullptr) == D3DERR_INVALIDCALL);
  IDirect3D9 *d3d = nullptr;
  REQUIRE(d.device->GetDirect3D(&d3d) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_CUBETEXTURE,
                               D3DFMT_A8R8G8B8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_VOLUMETEXTURE,
                               D3DFMT_A8R8G8B8) == D3DERR_NOTAVAILABLE);
  d3d->Release();

  REQUIRE(d.device->CreateCubeTexture(16, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) ==
          D3D_OK);
  CHECK(cube->GetLevelCount() == 5);
  IDirect3DSurface9 *back = nullptr, *face = nullptr, *small = nullptr;
  REQUIRE(d.device->GetRenderTarget(0, &back) == D3D_OK);
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Y, 0, &face) == D3D_OK);
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_POSITIVE_Z, 2, &small) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(small->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Usage & D3DUSAGE_RENDERTARGET) != 0);
  CHECK(desc.Width == 4);

  // Any of the four slots takes a face; SetRenderTarget(0, …) resets the viewport to its level.
  for (DWORD slot = 1; slot < 4; ++slot) CHECK(d.device->SetRenderTarget(slot, face) == D3D_OK);
  for (DWORD slot = 1; slot < 4; ++slot) CHECK(d.device->SetRenderTarget(slot, nullptr) == D3D_OK);
  REQUIRE(d.device->SetRenderTarget(0, small) == D3D_OK);
  D3DVIEWPORT9 vp{};
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK((vp.X == 0 && vp.Y == 0 && vp.Width == 4 && vp.Height == 4));
  // The automatic 64 x 64 depth-stencil surface is larger than the level: D3D9 allows that.
  CHECK(d.device->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff00ff00, 1.0f, 0) == D3D_OK);
  IDirect3DSurface9 *bound = nullptr;
  REQUIRE(d.device->GetRenderTarget(0, &bound) == D3D_OK);
  CHECK(bound == small);
  IDirect3DCubeTexture9 *container = nullptr;
  REQUIRE(bound->GetContainer(IID_IDirect3DCubeTexture9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container == cube);
  container->Release();
  bound->Release();
  face->Release();
  small->Release();
  // Bound as the target, the face keeps its cube texture alive.
  CHECK(cube->Release() == 0);
  REQUIRE(d.device->SetRenderTarget(0, back) == D3D_OK);
  back->Release();
}

TEST_CASE("render to texture: surfaces that are no render target are refused", "[api][texture][rtt]") {
  NullDevice d;
  IDirect3DTexture9 *plain = nullptr;
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateCubeTexture(16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3D_OK);
  IDirect3DSurface9 *level = nullptr, *face = nullptr, *memory = nullptr, *depth = nullptr;
  REQUIRE(plain->GetSurfaceLevel(0, &level) == D3D_OK);
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_POSITIVE_X, 0, &face) == D3D_OK);
  REQUIRE(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &memory, nullptr) == D3D_OK);
  REQUIRE(d.device->GetDepthStencilSurface(&depth) == D3D_OK);
  // SetRenderTarget: "the new render-target surface must have at least D3DUSAGE_RENDERTARGET".
  for (IDirect3DSurface9 *s : {level, face, memory, depth}) {
    CHECK(d.device->SetRenderTarget(0, s) == D3DERR_INVALIDCALL);
    CHECK(d.device->SetRenderTarget(2, s) == D3DERR_INVALIDCALL);
  }
  CHECK(d.device->SetRenderTarget(0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->SetRenderTarget(4, nullptr) == D3DERR_INVALIDCALL);
  // GetRenderTargetData reads render targets only.
  CHECK(d.device->GetRenderTargetData(level, memory) == D3DERR_INVALIDCALL);
  CHECK(d.device->GetRenderTargetData(face, memory) == D3DERR_INVALIDCALL);
  for (IDirect3DSurface9 *s : {level, face, memory, depth}) s->Release();
  CHECK(plain->Release() == 0);
  CHECK(cube->Release() == 0);
}

TEST_CASE("render to texture: GetRenderTargetData needs a SYSTEMMEM surface of the level's size and format",
          "[api][texture][rtt]") {
  NullDevice d;
  IDirect3DTexture9 *rt = nullptr;
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &rt, nullptr) ==
          D3D_OK);
  REQUIRE(d.device->CreateCubeTexture(8, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) ==
          D3D_OK);
  IDirect3DSurface9 *level1 = nullptr, *face = nullptr, *mem8 = nullptr, *mem16 = nullptr, *mem8_x8 = nullptr,
                    *scratch8 = nullptr;
  REQUIRE(rt->GetSurfaceLevel(1, &level1) == D3D_OK); // 8 x 8
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Z, 0, &face) == D3D_OK); // 8 x 8
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &mem8, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &mem16, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &mem8_x8, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &scratch8, nullptr) == D3D_OK);
  CHECK(d.device->GetRenderTargetData(level1, mem8) == D3D_OK);
  CHECK(d.device->GetRenderTargetData(face, mem8) == D3D_OK);
  CHECK(d.device->GetRenderTargetData(level1, mem16) == D3DERR_INVALIDCALL);   // size mismatch
  CHECK(d.device->GetRenderTargetData(face, mem16) == D3DERR_INVALIDCALL);     // size mismatch
  CHECK(d.device->GetRenderTargetData(level1, mem8_x8) == D3DERR_INVALIDCALL); // format mismatch
  CHECK(d.device->GetRenderTargetData(face, scratch8) == D3DERR_INVALIDCALL);  // not SYSTEMMEM
  CHECK(d.device->GetRenderTargetData(level1, nullptr) == D3DERR_INVALIDCALL);
  for (IDirect3DSurface9 *s : {level1, face, mem8, mem16, mem8_x8, scratch8}) s->Release();
  CHECK(rt->Release() == 0);
  CHECK(cube->Release() == 0);
}

TEST_CASE("render to texture: AUTOGENMIPMAP render targets show level 0 only", "[api][texture][rtt]") {
  NullDevice d;
  IDirect3DTexture9 *rt = nullptr;
  // As other AUTOGENMIPMAP textures: 0 or 1 levels asked for.
  CHECK(d.device->CreateTexture(16, 16, 2, D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8,
                                D3DPOOL_DEFAULT, &rt, nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8,
                                  D3DPOOL_DEFAULT, &rt, nullptr) == D3D_OK);
  IDirect3D9 *d3d = nullptr;
  REQUIRE(d.device->GetDirect3D(&d3d) == D3D_OK);
  // The null plugin generates every format's levels.
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP,
                               D3DRTYPE_TEXTURE, D3DFMT_A8R8G8B8) == D3D_OK);
  d3d->Release();
  // "Only the top texture level is accessible to the application" (Automatic Generation of Mipmaps).
  CHECK(rt->GetLevelCount() == 1);
  IDirect3DSurface9 *level0 = nullptr, *level1 = nullptr;
  CHECK(rt->GetSurfaceLevel(1, &level1) == D3DERR_INVALIDCALL);
  CHECK(level1 == nullptr);
  REQUIRE(rt->GetSurfaceLevel(0, &level0) == D3D_OK);
  REQUIRE(d.device->SetRenderTarget(1, level0) == D3D_OK);
  REQUIRE(d.device->SetRenderTarget(1, nullptr) == D3D_OK);
  rt->GenerateMipSubLevels();
  level0->Release();
  CHECK(rt->Release() == 0);
}

namespace {

// Reads a 1-texel-or-more render-target surface into memory and returns texel (x, y).
D3DCOLOR read_texel(IDirect3DDevice9 *dev, IDirect3DSurface9 *src, UINT x, UINT y) {
  D3DSURFACE_DESC desc;
  REQUIRE(src->GetDesc(&desc) == D3D_OK);
  IDirect3DSurface9 *mem = nullptr;
  REQUIRE(dev->CreateOffscreenPlainSurface(desc.Width, desc.Height, desc.Format, D3DPOOL_SYSTEMMEM, &mem, nullptr) ==
          D3D_OK);
  REQUIRE(dev->GetRenderTargetData(src, mem) == D3D_OK);
  D3DLOCKED_RECT lr;
  REQUIRE(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
  D3DCOLOR c;
  std::memcpy(&c, static_cast<const uint8_t *>(lr.pBits) + y * UINT(lr.Pitch) + x * 4, 4);
  REQUIRE(mem->UnlockRect() == D3D_OK);
  mem->Release();
  return c;
}

} // namespace

TEST_CASE("render to texture: cleared faces and levels read back on the real backends",
          "[api][texture][rtt][backends]") {
  for (const char *name : {"vulkan", "opengl"}) {
    INFO(name);
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    IDirect3DDevice9 *dev = nullptr;
    if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) != D3D_OK) {
      WARN(name << " cannot start here: skipped");
      d3d->Release();
      continue;
    }
    IDirect3DCubeTexture9 *cube = nullptr;
    IDirect3DTexture9 *rt = nullptr, *sys = nullptr;
    REQUIRE(dev->CreateCubeTexture(8, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) ==
            D3D_OK);
    REQUIRE(dev->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &rt, nullptr) ==
            D3D_OK);
    REQUIRE(dev->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr) == D3D_OK);
    IDirect3DSurface9 *back = nullptr, *faces[6] = {}, *face_level1 = nullptr, *level0 = nullptr, *level1 = nullptr,
                      *sys_level = nullptr;
    REQUIRE(dev->GetRenderTarget(0, &back) == D3D_OK);
    for (UINT f = 0; f < 6; ++f) REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACES(f), 0, &faces[f]) == D3D_OK);
    REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_X, 1, &face_level1) == D3D_OK);
    REQUIRE(rt->GetSurfaceLevel(0, &level0) == D3D_OK);
    REQUIRE(rt->GetSurfaceLevel(1, &level1) == D3D_OK);
    REQUIRE(sys->GetSurfaceLevel(0, &sys_level) == D3D_OK);

    // Each face through slot 0, and face +Y again through slot 2 beside level 0 of the 2D texture
    // (Clear clears every bound target); level 1s of a face and of the 2D texture.
    for (UINT f = 0; f < 6; ++f) {
      REQUIRE(dev->SetRenderTarget(0, faces[f]) == D3D_OK);
      REQUIRE(dev->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR(0xff000000u | (f * 40 + 10) << 16 | 0x80), 1.0f, 0) ==
              D3D_OK);
    }
    REQUIRE(dev->SetRenderTarget(0, face_level1) == D3D_OK);
    REQUIRE(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff123456, 1.0f, 0) == D3D_OK);
    REQUIRE(dev->SetRenderTarget(0, level0) == D3D_OK);
    REQUIRE(dev->SetRenderTarget(2, faces[D3DCUBEMAP_FACE_POSITIVE_Y]) == D3D_OK);
    const D3DRECT quarter_rect{0, 0, 4, 4};
    REQUIRE(dev->Clear(1, &quarter_rect, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0) == D3D_OK);
    REQUIRE(dev->SetRenderTarget(2, nullptr) == D3D_OK);
    REQUIRE(dev->SetRenderTarget(0, level1) == D3D_OK);
    REQUIRE(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff0000ff, 1.0f, 0) == D3D_OK);
    REQUIRE(dev->SetRenderTarget(0, back) == D3D_OK);

    for (UINT f = 0; f < 6; ++f) {
      const D3DCOLOR expected = D3DCOLOR(0xff000000u | (f * 40 + 10) << 16 | 0x80);
      CHECK(read_texel(dev, faces[f], 7, 7) == expected);
      CHECK(read_texel(dev, faces[f], 1, 1) == (f == D3DCUBEMAP_FACE_POSITIVE_Y ? 0xff00ff00 : expected));
    }
    CHECK(read_texel(dev, face_level1, 3, 3) == 0xff123456);
    CHECK(read_texel(dev, level0, 1, 1) == 0xff00ff00);
    CHECK(read_texel(dev, level1, 7, 0) == 0xff0000ff);
    // Into a level of a SYSTEMMEM texture.
    REQUIRE(dev->GetRenderTargetData(level1, sys_level) == D3D_OK);
    D3DLOCKED_RECT lr;
    REQUIRE(sys->LockRect(0, &lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
    D3DCOLOR texel;
    std::memcpy(&texel, static_cast<const uint8_t *>(lr.pBits) + 5 * UINT(lr.Pitch) + 6 * 4, 4);
    CHECK(texel == 0xff0000ff);
    REQUIRE(sys->UnlockRect(0) == D3D_OK);

    for (IDirect3DSurface9 *s : faces) s->Release();
    for (IDirect3DSurface9 *s : {back, face_level1, level0, level1, sys_level}) s->Release();
    CHECK(cube->Release() == 0);
    CHECK(rt->Release() == 0);
    CHECK(sys->Release() == 0);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
