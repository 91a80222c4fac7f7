// Cube and volume textures through the API: creation and levels, faces and volumes as
// sub-objects that count on their texture, LockRect/LockBox rules, CheckDeviceFormat per kind.
#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("cube textures: levels, faces, surfaces and locks", "[api][texture][cube]") {
  NullDevice d;
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateCubeTexture(8, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3D_OK);
  CHECK(cube->GetType() == D3DRTYPE_CUBETEXTURE);
  CHECK(cube->GetLevelCount() == 4);
  D3DSURFACE_DESC desc;
  REQUIRE(cube->GetLevelDesc(2, &desc) == D3D_OK);
  CHECK(desc.Width == 2);
  CHECK(desc.Height == 2);
  CHECK(cube->GetLevelDesc(4, &desc) == D3DERR_INVALIDCALL);

  IDirect3DSurface9 *face = nullptr;
  CHECK(cube->GetCubeMapSurface(D3DCUBEMAP_FACES(6), 0, &face) == D3DERR_INVALIDCALL);
  CHECK(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Z, 4, &face) == D3DERR_INVALIDCALL);
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Z, 1, &face) == D3D_OK);
  CHECK(refcount(cube) == 2); // the face counts on its texture
  IDirect3DCubeTexture9 *container = nullptr;
  REQUIRE(face->GetContainer(IID_IDirect3DCubeTexture9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container == cube);
  container->Release();
  IDirect3DSurface9 *again = nullptr;
  REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Z, 1, &again) == D3D_OK);
  CHECK(again == face);
  again->Release();

  // A face's surface and the texture lock the same level: one lock at a time.
  D3DLOCKED_RECT lr;
  REQUIRE(face->LockRect(&lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 4 * 4);
  CHECK(cube->LockRect(D3DCUBEMAP_FACE_NEGATIVE_Z, 1, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(cube->LockRect(D3DCUBEMAP_FACE_POSITIVE_Z, 1, &lr, nullptr, 0) == D3D_OK); // another face
  CHECK(cube->UnlockRect(D3DCUBEMAP_FACE_POSITIVE_Z, 1) == D3D_OK);
  CHECK(face->UnlockRect() == D3D_OK);
  CHECK(cube->UnlockRect(D3DCUBEMAP_FACE_NEGATIVE_Z, 1) == D3D_OK); // not locked: D3D_OK, as Windows
  CHECK(face->UnlockRect() == D3DERR_INVALIDCALL); // but a face's surface refuses
  CHECK(cube->LockRect(D3DCUBEMAP_FACES(7), 0, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(cube->AddDirtyRect(D3DCUBEMAP_FACE_POSITIVE_X, nullptr) == D3D_OK);
  CHECK(cube->AddDirtyRect(D3DCUBEMAP_FACES(6), nullptr) == D3DERR_INVALIDCALL);
  face->Release();

  REQUIRE(d.device->SetTexture(3, cube) == D3D_OK);
  IDirect3DBaseTexture9 *bound = nullptr;
  REQUIRE(d.device->GetTexture(3, &bound) == D3D_OK);
  CHECK(bound == static_cast<IDirect3DBaseTexture9 *>(cube));
  bound->Release();
  REQUIRE(d.device->SetTexture(3, nullptr) == D3D_OK);
  CHECK(cube->Release() == 0);

  // DEFAULT cube textures lock only when dynamic, as 2D ones.
  REQUIRE(d.device->CreateCubeTexture(4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) == D3D_OK);
  CHECK(cube->LockRect(D3DCUBEMAP_FACE_POSITIVE_X, 0, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(cube->Release() == 0);
  CHECK(d.device->CreateCubeTexture(0, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateCubeTexture(4, 4, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3DERR_INVALIDCALL);
  CHECK(cube == nullptr);
}

TEST_CASE("volume textures: levels, volumes and boxes", "[api][texture][volume]") {
  NullDevice d;
  IDirect3DVolumeTexture9 *tex = nullptr;
  REQUIRE(d.device->CreateVolumeTexture(8, 4, 2, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  CHECK(tex->GetType() == D3DRTYPE_VOLUMETEXTURE);
  CHECK(tex->GetLevelCount() == 4); // 8x4x2, 4x2x1, 2x1x1, 1x1x1
  D3DVOLUME_DESC desc;
  REQUIRE(tex->GetLevelDesc(1, &desc) == D3D_OK);
  CHECK(desc.Width == 4);
  CHECK(desc.Height == 2);
  CHECK(desc.Depth == 1);
  CHECK(desc.Type == D3DRTYPE_VOLUME);

  D3DLOCKED_BOX lb;
  REQUIRE(tex->LockBox(0, &lb, nullptr, 0) == D3D_OK);
  CHECK(lb.RowPitch == 8 * 4);
  CHECK(lb.SlicePitch == 8 * 4 * 4);
  auto *base = static_cast<uint8_t *>(lb.pBits);
  REQUIRE(tex->UnlockBox(0) == D3D_OK);
  const D3DBOX inner{1, 2, 3, 4, 1, 2};
  REQUIRE(tex->LockBox(0, &lb, &inner, D3DLOCK_READONLY) == D3D_OK);
  CHECK(static_cast<uint8_t *>(lb.pBits) == base + 1 * 128 + 2 * 32 + 1 * 4);
  CHECK(tex->LockBox(0, &lb, &inner, 0) == D3DERR_INVALIDCALL); // already locked
  REQUIRE(tex->UnlockBox(0) == D3D_OK);
  for (D3DBOX bad : {D3DBOX{0, 0, 9, 4, 0, 2}, D3DBOX{0, 0, 8, 4, 1, 1}, D3DBOX{0, 0, 8, 4, 0, 3}})
    CHECK(tex->LockBox(0, &lb, &bad, 0) == D3DERR_INVALIDCALL);
  CHECK(tex->AddDirtyBox(&inner) == D3D_OK);

  IDirect3DVolume9 *volume = nullptr;
  CHECK(tex->GetVolumeLevel(4, &volume) == D3DERR_INVALIDCALL);
  REQUIRE(tex->GetVolumeLevel(1, &volume) == D3D_OK);
  CHECK(refcount(tex) == 2);
  REQUIRE(volume->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Width == 4);
  IDirect3DVolumeTexture9 *container = nullptr;
  REQUIRE(volume->GetContainer(IID_IDirect3DVolumeTexture9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container == tex);
  container->Release();
  REQUIRE(volume->LockBox(&lb, nullptr, 0) == D3D_OK);
  CHECK(lb.RowPitch == 4 * 4);
  CHECK(tex->LockBox(1, &lb, nullptr, 0) == D3DERR_INVALIDCALL);
  REQUIRE(volume->UnlockBox() == D3D_OK);
  volume->Release();

  REQUIRE(d.device->SetTexture(0, tex) == D3D_OK);
  REQUIRE(d.device->SetTexture(0, nullptr) == D3D_OK);
  CHECK(tex->Release() == 0);

  // DXTn volumes lock in blocks, a row of blocks a row and the blocks of a slice a slice.
  REQUIRE(d.device->CreateVolumeTexture(8, 8, 2, 1, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  REQUIRE(tex->LockBox(0, &lb, nullptr, 0) == D3D_OK);
  CHECK(lb.RowPitch == 2 * 8);
  CHECK(lb.SlicePitch == 2 * 2 * 8);
  REQUIRE(tex->UnlockBox(0) == D3D_OK);
  CHECK(tex->Release() == 0);
  tex = nullptr;
  CHECK(d.device->CreateVolumeTexture(6, 4, 4, 1, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateVolumeTexture(512, 4, 4, 1, 0, D3DFMT_L8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateVolumeTexture(4, 4, 0, 1, 0, D3DFMT_L8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(tex == nullptr);
}

TEST_CASE("CheckDeviceFormat: cube and volume textures", "[api][texture][format]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  auto check = [&](D3DRESOURCETYPE type, D3DFORMAT f) {
    return d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, type, f);
  };
  CHECK(check(D3DRTYPE_CUBETEXTURE, D3DFMT_DXT5) == D3D_OK);
  CHECK(check(D3DRTYPE_CUBETEXTURE, D3DFMT_L8) == D3D_OK);
  CHECK(check(D3DRTYPE_VOLUMETEXTURE, D3DFMT_A16B16G16R16F) == D3D_OK);
  for (D3DFORMAT f : {D3DFMT_DXT1, D3DFMT_DXT2, D3DFMT_DXT3, D3DFMT_DXT4, D3DFMT_DXT5,
                      D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '1')), D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '2'))})
    CHECK(check(D3DRTYPE_VOLUMETEXTURE, f) == D3D_OK);
  CHECK(check(D3DRTYPE_CUBETEXTURE, D3DFMT_D24S8) == D3DERR_NOTAVAILABLE);
  D3DCAPS9 caps;
  REQUIRE(d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps) == D3D_OK);
  CHECK((caps.TextureCaps & D3DPTEXTURECAPS_CUBEMAP) != 0);
  CHECK((caps.TextureCaps & D3DPTEXTURECAPS_VOLUMEMAP) != 0);
  CHECK(caps.MaxVolumeExtent == 256);
  d3d->Release();
}

TEST_CASE("UpdateTexture: SYSTEMMEM to DEFAULT with Windows' rules", "[api][texture]") {
  NullDevice d;
  auto make = [&](UINT w, UINT h, UINT levels, D3DFORMAT f, D3DPOOL pool) {
    IDirect3DTexture9 *t = nullptr;
    REQUIRE(d.device->CreateTexture(w, h, levels, 0, f, pool, &t, nullptr) == D3D_OK);
    return t;
  };
  IDirect3DTexture9 *sys = make(32, 16, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM); // 6 levels
  IDirect3DTexture9 *full = make(32, 16, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT);
  IDirect3DTexture9 *bottom3 = make(4, 2, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT);  // 4x2, 2x1, 1x1
  IDirect3DTexture9 *top1 = make(32, 16, 1, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT);   // bottom is 32x16
  IDirect3DTexture9 *other = make(32, 16, 0, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT);
  IDirect3DTexture9 *managed = make(32, 16, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED);
  IDirect3DTexture9 *few = make(32, 16, 2, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM);
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateCubeTexture(32, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) == D3D_OK);

  CHECK(d.device->UpdateTexture(sys, full) == D3D_OK);
  CHECK(d.device->UpdateTexture(sys, bottom3) == D3D_OK); // the matching bottom levels
  CHECK(d.device->UpdateTexture(sys, top1) == D3DERR_INVALIDCALL); // bottom levels differ
  CHECK(d.device->UpdateTexture(sys, other) == D3DERR_INVALIDCALL); // formats differ
  CHECK(d.device->UpdateTexture(sys, managed) == D3DERR_INVALIDCALL); // destination not DEFAULT
  CHECK(d.device->UpdateTexture(full, sys) == D3DERR_INVALIDCALL); // source not SYSTEMMEM
  CHECK(d.device->UpdateTexture(few, full) == D3DERR_INVALIDCALL); // fewer source levels
  CHECK(d.device->UpdateTexture(sys, cube) == D3DERR_INVALIDCALL); // types differ
  CHECK(d.device->UpdateTexture(sys, nullptr) == D3DERR_INVALIDCALL);
  CHECK(cube->Release() == 0);
  for (IDirect3DTexture9 *t : {sys, full, bottom3, top1, other, managed, few}) CHECK(t->Release() == 0);
}

TEST_CASE("UpdateSurface: SYSTEMMEM to a DEFAULT texture level with Windows' rules", "[api][texture]") {
  NullDevice d;
  IDirect3DSurface9 *sys = nullptr, *sys_x8 = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &sys_x8, nullptr) == D3D_OK);
  IDirect3DTexture9 *gpu = nullptr, *managed = nullptr;
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &gpu, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &managed, nullptr) == D3D_OK);
  IDirect3DSurface9 *level = nullptr, *managed_level = nullptr;
  REQUIRE(gpu->GetSurfaceLevel(0, &level) == D3D_OK);
  REQUIRE(managed->GetSurfaceLevel(0, &managed_level) == D3D_OK);

  CHECK(d.device->UpdateSurface(sys, nullptr, level, nullptr) == D3D_OK);
  const POINT corner{8, 8}, over{9, 8};
  CHECK(d.device->UpdateSurface(sys, nullptr, level, &corner) == D3D_OK);
  CHECK(d.device->UpdateSurface(sys, nullptr, level, &over) == D3DERR_INVALIDCALL); // past the edge
  const RECT part{2, 2, 6, 5}, outside{0, 0, 9, 8};
  CHECK(d.device->UpdateSurface(sys, &part, level, &over) == D3D_OK);
  CHECK(d.device->UpdateSurface(sys, &outside, level, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->UpdateSurface(sys_x8, nullptr, level, nullptr) == D3DERR_INVALIDCALL); // formats differ
  CHECK(d.device->UpdateSurface(sys, nullptr, managed_level, nullptr) == D3DERR_INVALIDCALL); // not DEFAULT
  CHECK(d.device->UpdateSurface(level, nullptr, level, nullptr) == D3DERR_INVALIDCALL); // not SYSTEMMEM
  CHECK(d.device->UpdateSurface(nullptr, nullptr, level, nullptr) == D3DERR_INVALIDCALL);

  // DXTn rectangles are whole blocks.
  IDirect3DTexture9 *dxt_sys = nullptr, *dxt = nullptr;
  REQUIRE(d.device->CreateTexture(8, 8, 1, 0, D3DFMT_DXT1, D3DPOOL_SYSTEMMEM, &dxt_sys, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateTexture(8, 8, 1, 0, D3DFMT_DXT1, D3DPOOL_DEFAULT, &dxt, nullptr) == D3D_OK);
  IDirect3DSurface9 *dxt_src = nullptr, *dxt_dst = nullptr;
  REQUIRE(dxt_sys->GetSurfaceLevel(0, &dxt_src) == D3D_OK);
  REQUIRE(dxt->GetSurfaceLevel(0, &dxt_dst) == D3D_OK);
  const RECT block{4, 0, 8, 4}, half_block{2, 0, 4, 4};
  const POINT origin{0, 4}, odd{2, 0};
  CHECK(d.device->UpdateSurface(dxt_src, &block, dxt_dst, &origin) == D3D_OK);
  CHECK(d.device->UpdateSurface(dxt_src, &half_block, dxt_dst, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->UpdateSurface(dxt_src, &block, dxt_dst, &odd) == D3DERR_INVALIDCALL);

  for (IDirect3DSurface9 *s : {level, managed_level, dxt_src, dxt_dst}) s->Release();
  for (IDirect3DTexture9 *t : {gpu, managed, dxt_sys, dxt}) CHECK(t->Release() == 0);
  CHECK(sys->Release() == 0);
  CHECK(sys_x8->Release() == 0);
}

TEST_CASE("render-target textures: creation rules and their levels as targets", "[api][texture]") {
  NullDevice d;
  IDirect3DTexture9 *rt = nullptr;
  CHECK(d.device->CreateTexture(16, 16, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &rt, nullptr) ==
        D3DERR_INVALIDCALL); // DEFAULT only
  CHECK(d.device->CreateTexture(16, 16, 1, D3DUSAGE_RENDERTARGET, D3DFMT_L8, D3DPOOL_DEFAULT, &rt, nullptr) ==
        D3DERR_INVALIDCALL); // not a render-target format
  REQUIRE(d.device->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &rt, nullptr) ==
          D3D_OK);
  CHECK(rt->GetLevelCount() == 5);
  D3DLOCKED_RECT lr;
  CHECK(rt->LockRect(0, &lr, nullptr, 0) == D3DERR_INVALIDCALL); // DEFAULT, not dynamic
  IDirect3DSurface9 *level0 = nullptr, *level1 = nullptr, *back = nullptr;
  REQUIRE(rt->GetSurfaceLevel(0, &level0) == D3D_OK);
  REQUIRE(rt->GetSurfaceLevel(1, &level1) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(level0->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Usage & D3DUSAGE_RENDERTARGET) != 0);
  REQUIRE(d.device->GetRenderTarget(0, &back) == D3D_OK);
  CHECK(d.device->SetRenderTarget(0, level1) == D3D_OK); // every level renders
  REQUIRE(d.device->SetRenderTarget(0, level0) == D3D_OK);
  level0->Release();
  level1->Release();
  // Bound as the target, the level keeps its texture alive.
  CHECK(rt->Release() == 0);
  IDirect3DSurface9 *bound = nullptr;
  REQUIRE(d.device->GetRenderTarget(0, &bound) == D3D_OK);
  IDirect3DTexture9 *container = nullptr;
  REQUIRE(bound->GetContainer(IID_IDirect3DTexture9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container->GetLevelCount() == 5);
  container->Release();
  bound->Release();
  REQUIRE(d.device->SetRenderTarget(0, back) == D3D_OK);
  back->Release();
}

TEST_CASE("AUTOGENMIPMAP textures: one level seen, Windows' creation rules, filter type", "[api][texture]") {
  NullDevice d;
  IDirect3DTexture9 *tex = nullptr;
  CHECK(d.device->CreateTexture(16, 16, 2, D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(d.device->CreateTexture(16, 16, 0, D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  REQUIRE(d.device->CreateTexture(16, 16, 0, D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) ==
          D3D_OK);
  CHECK(tex->GetLevelCount() == 1);
  D3DSURFACE_DESC desc;
  CHECK(tex->GetLevelDesc(1, &desc) == D3DERR_INVALIDCALL);
  D3DLOCKED_RECT lr;
  CHECK(tex->LockRect(1, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
  REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  REQUIRE(tex->UnlockRect(0) == D3D_OK);
  CHECK(tex->GetAutoGenFilterType() == D3DTEXF_LINEAR);
  CHECK(tex->SetAutoGenFilterType(D3DTEXF_POINT) == D3D_OK);
  CHECK(tex->GetAutoGenFilterType() == D3DTEXF_POINT);
  CHECK(tex->SetAutoGenFilterType(D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  tex->GenerateMipSubLevels();
  CHECK(tex->Release() == 0);
  REQUIRE(d.device->CreateTexture(16, 16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  // A texture without AUTOGENMIPMAP keeps a filter too (Windows, and wined3d, answer D3D_OK).
  CHECK(tex->GetAutoGenFilterType() == D3DTEXF_LINEAR);
  CHECK(tex->SetAutoGenFilterType(D3DTEXF_LINEAR) == D3D_OK);
  CHECK(tex->SetAutoGenFilterType(D3DTEXF_ANISOTROPIC) == D3D_OK);
  CHECK(tex->GetAutoGenFilterType() == D3DTEXF_ANISOTROPIC);
  CHECK(tex->SetAutoGenFilterType(D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(tex->SetAutoGenFilterType(D3DTEXTUREFILTERTYPE(9)) == D3DERR_INVALIDCALL);
  CHECK(tex->GetAutoGenFilterType() == D3DTEXF_ANISOTROPIC);
  CHECK(tex->Release() == 0);
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(d.device->CreateCubeTexture(16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3D_OK);
  CHECK(cube->SetAutoGenFilterType(D3DTEXF_POINT) == D3D_OK);
  CHECK(cube->GetAutoGenFilterType() == D3DTEXF_POINT);
  CHECK(cube->Release() == 0);
  IDirect3DVolumeTexture9 *volume = nullptr;
  CHECK(d.device->CreateVolumeTexture(4, 4, 4, 0, D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &volume,
                                      nullptr) == D3DERR_INVALIDCALL);
  // Volumes have no filter to set (Windows: D3DERR_INVALIDCALL).
  REQUIRE(d.device->CreateVolumeTexture(4, 4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &volume, nullptr) == D3D_OK);
  CHECK(volume->SetAutoGenFilterType(D3DTEXF_LINEAR) == D3DERR_INVALIDCALL);
  CHECK(volume->Release() == 0);
}
