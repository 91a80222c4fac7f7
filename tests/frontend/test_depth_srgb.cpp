// Depth textures (hardware shadow maps, INTZ) and sRGB through the API: what CheckDeviceFormat
// answers, what CreateTexture takes and refuses as Windows does, and that a depth texture's
// level 0 is a depth-stencil surface. The images they render are checked in
// tests/scenes/test_depth_srgb_scenes.cpp.
#include <cstdlib>
#include <string>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

constexpr D3DFORMAT kINTZ = D3DFORMAT(MAKEFOURCC('I', 'N', 'T', 'Z'));
constexpr D3DFORMAT kDF24 = D3DFORMAT(MAKEFOURCC('D', 'F', '2', '4'));
constexpr D3DFORMAT kDF16 = D3DFORMAT(MAKEFOURCC('D', 'F', '1', '6'));

HRESULT check(IDirect3D9 *d3d, DWORD usage, D3DRESOURCETYPE type, D3DFORMAT format) {
  return d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, usage, type, format);
}

const std::vector<D3DFORMAT> kDepthTextureFormats = {D3DFMT_D16, D3DFMT_D24X8, D3DFMT_D24S8, kINTZ};

} // namespace

// AMD's DF24 and DF16 tell a program it runs on a driver with FETCH4 (a sampler state that
// gathers four depth values), which Novem does not have: it reports neither, as a driver without
// FETCH4 does, so that programs take INTZ or the comparing formats instead.
TEST_CASE("DF24 and DF16 are not reported without FETCH4", "[api][depth_srgb]") {
  NullDevice n;
  for (D3DFORMAT f : {kDF24, kDF16}) {
    INFO("format " << f);
    CHECK(check(n.d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(n.d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE, f) == D3DERR_NOTAVAILABLE);
    IDirect3DTexture9 *tex = nullptr;
    CHECK(n.device->CreateTexture(32, 32, 1, D3DUSAGE_DEPTHSTENCIL, f, D3DPOOL_DEFAULT, &tex, nullptr) ==
          D3DERR_INVALIDCALL);
    IDirect3DSurface9 *ds = nullptr;
    CHECK(n.device->CreateDepthStencilSurface(32, 32, f, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) ==
          D3DERR_INVALIDCALL);
  }
}

TEST_CASE("CheckDeviceFormat answers for depth textures", "[api][depth_srgb]") {
  Backend backend("null"); // every backend format supported: the frontend's own answers
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  for (D3DFORMAT f : kDepthTextureFormats) {
    INFO("format " << f);
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_TEXTURE, f) == D3D_OK);
    // The comparison is filtered (PCF); depth values are read nearest.
    const bool compares = f == D3DFMT_D16 || f == D3DFMT_D24X8 || f == D3DFMT_D24S8;
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_QUERY_FILTER, D3DRTYPE_TEXTURE, f) ==
          (compares ? D3D_OK : D3DERR_NOTAVAILABLE));
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE, f) == D3D_OK);
    // Only 2D depth textures, only with D3DUSAGE_DEPTHSTENCIL, and nothing else in the usage.
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_CUBETEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_VOLUMETEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(d3d, 0, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_RENDERTARGET, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_QUERY_SRGBREAD, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
  }
  // D32 and D32F_LOCKABLE are depth surfaces, not depth textures; a colour format is neither.
  for (D3DFORMAT f : {D3DFMT_D32, D3DFMT_D32F_LOCKABLE, D3DFMT_A8R8G8B8})
    CHECK(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
  d3d->Release();
}

TEST_CASE("CheckDeviceFormat answers for sRGB reads and writes", "[api][depth_srgb]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  for (D3DFORMAT f : {D3DFMT_A8R8G8B8, D3DFMT_X8R8G8B8, D3DFMT_DXT1, D3DFMT_DXT2, D3DFMT_DXT3, D3DFMT_DXT4, D3DFMT_DXT5}) {
    INFO("format " << f);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD, D3DRTYPE_TEXTURE, f) == D3D_OK);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD | D3DUSAGE_QUERY_FILTER, D3DRTYPE_CUBETEXTURE, f) == D3D_OK);
  }
  // Writes: render targets of the 8-bit RGB formats (not DXTn, which are no targets).
  for (D3DFORMAT f : {D3DFMT_A8R8G8B8, D3DFMT_X8R8G8B8}) {
    INFO("format " << f);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE | D3DUSAGE_RENDERTARGET, D3DRTYPE_TEXTURE, f) == D3D_OK);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE | D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, f) == D3D_OK);
  }
  CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE, D3DRTYPE_TEXTURE, D3DFMT_DXT1) == D3DERR_NOTAVAILABLE);
  // Formats the plugins have no sRGB twin for.
  for (D3DFORMAT f : {D3DFMT_R5G6B5, D3DFMT_L8, D3DFMT_A16B16G16R16F, D3DFMT_A4R4G4B4}) {
    INFO("format " << f);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
  }
  CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE | D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, D3DFMT_R5G6B5) ==
        D3DERR_NOTAVAILABLE);
  d3d->Release();
}

TEST_CASE("Depth textures are created in the DEFAULT pool and bind as depth-stencil surfaces", "[api][depth_srgb]") {
  NullDevice n;
  IDirect3DDevice9 *dev = n.device;
  for (D3DFORMAT f : kDepthTextureFormats) {
    INFO("format " << f);
    IDirect3DTexture9 *tex = nullptr;
    REQUIRE(dev->CreateTexture(32, 16, 1, D3DUSAGE_DEPTHSTENCIL, f, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
    CHECK(tex->GetLevelCount() == 1);
    D3DSURFACE_DESC desc{};
    REQUIRE(tex->GetLevelDesc(0, &desc) == D3D_OK);
    CHECK(desc.Format == f);
    CHECK(desc.Usage == D3DUSAGE_DEPTHSTENCIL);
    CHECK(desc.Pool == D3DPOOL_DEFAULT);
    CHECK(desc.Width == 32);
    CHECK(desc.Height == 16);
    IDirect3DSurface9 *level = nullptr;
    REQUIRE(tex->GetSurfaceLevel(0, &level) == D3D_OK);
    CHECK(dev->SetDepthStencilSurface(level) == D3D_OK);
    IDirect3DSurface9 *bound = nullptr;
    REQUIRE(dev->GetDepthStencilSurface(&bound) == D3D_OK);
    CHECK(bound == level);
    bound->Release();
    // A depth texture is no render target, and DEFAULT textures that are not dynamic do not lock.
    CHECK(dev->SetRenderTarget(0, level) == D3DERR_INVALIDCALL);
    D3DLOCKED_RECT locked{};
    CHECK(tex->LockRect(0, &locked, nullptr, 0) == D3DERR_INVALIDCALL);
    CHECK(dev->SetTexture(0, tex) == D3D_OK);
    CHECK(dev->SetTexture(0, nullptr) == D3D_OK);
    CHECK(dev->SetDepthStencilSurface(nullptr) == D3D_OK);
    level->Release();
    CHECK(tex->Release() == 0);
    // Levels 0 gives the one level Novem makes.
    REQUIRE(dev->CreateTexture(16, 16, 0, D3DUSAGE_DEPTHSTENCIL, f, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
    CHECK(tex->GetLevelCount() == 1);
    CHECK(tex->Release() == 0);
  }
}

TEST_CASE("Invalid depth textures are refused as Windows does", "[api][depth_srgb]") {
  NullDevice n;
  IDirect3DDevice9 *dev = n.device;
  IDirect3DTexture9 *tex = nullptr;
  // D3DUSAGE_DEPTHSTENCIL is for D3DPOOL_DEFAULT only.
  for (D3DPOOL pool : {D3DPOOL_MANAGED, D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH}) {
    INFO("pool " << pool);
    CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, pool, &tex, nullptr) == D3DERR_INVALIDCALL);
    CHECK(tex == nullptr);
  }
  // Not with other usages, not a colour format, not a depth format without a texture, not a
  // depth format without D3DUSAGE_DEPTHSTENCIL.
  CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_RENDERTARGET, D3DFMT_D24S8, D3DPOOL_DEFAULT,
                           &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_DYNAMIC, D3DFMT_D24S8, D3DPOOL_DEFAULT, &tex,
                           nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_AUTOGENMIPMAP, D3DFMT_D24S8, D3DPOOL_DEFAULT,
                           &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(16, 16, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D32, D3DPOOL_DEFAULT, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(16, 16, 1, 0, D3DFMT_D24S8, D3DPOOL_DEFAULT, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(0, 16, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, D3DPOOL_DEFAULT, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  // Novem's depth textures have one level.
  CHECK(dev->CreateTexture(16, 16, 2, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, D3DPOOL_DEFAULT, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  // Cube and volume depth textures do not exist.
  IDirect3DCubeTexture9 *cube = nullptr;
  CHECK(dev->CreateCubeTexture(16, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, D3DPOOL_DEFAULT, &cube, nullptr) ==
        D3DERR_INVALIDCALL);
  IDirect3DVolumeTexture9 *volume = nullptr;
  CHECK(dev->CreateVolumeTexture(16, 16, 4, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, D3DPOOL_DEFAULT, &volume,
                                 nullptr) == D3DERR_INVALIDCALL);
  CHECK(tex == nullptr);
  CHECK(cube == nullptr);
  CHECK(volume == nullptr);
}

TEST_CASE("The sRGB states are stored and read back", "[api][depth_srgb]") {
  NullDevice n;
  IDirect3DDevice9 *dev = n.device;
  DWORD value = 1;
  CHECK(dev->GetRenderState(D3DRS_SRGBWRITEENABLE, &value) == D3D_OK);
  CHECK(value == FALSE);
  CHECK(dev->GetSamplerState(0, D3DSAMP_SRGBTEXTURE, &value) == D3D_OK);
  CHECK(value == FALSE);
  CHECK(dev->SetRenderState(D3DRS_SRGBWRITEENABLE, TRUE) == D3D_OK);
  CHECK(dev->SetSamplerState(3, D3DSAMP_SRGBTEXTURE, TRUE) == D3D_OK);
  CHECK(dev->GetRenderState(D3DRS_SRGBWRITEENABLE, &value) == D3D_OK);
  CHECK(value == TRUE);
  CHECK(dev->GetSamplerState(3, D3DSAMP_SRGBTEXTURE, &value) == D3D_OK);
  CHECK(value == TRUE);
}

// The real plugins answer from their own support tables; what they claim must be creatable.
TEST_CASE("The real plugins claim depth textures and sRGB and create what they claim", "[api][depth_srgb][backends]") {
  for (const char *name : {"vulkan", "opengl"}) {
    INFO("backend " << name);
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    IDirect3DDevice9 *dev = nullptr;
    if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) != D3D_OK) {
      d3d->Release();
      const char *required = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
      if (required && std::string(required).find(name) != std::string::npos) FAIL("backend " << name << " did not start");
      continue;
    }
    // lavapipe and llvmpipe sample D16 and D24S8 with comparisons, and read and write sRGB.
    for (D3DFORMAT f : kDepthTextureFormats) {
      INFO("format " << f);
      REQUIRE(check(d3d, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_TEXTURE, f) == D3D_OK);
      IDirect3DTexture9 *tex = nullptr;
      CHECK(dev->CreateTexture(64, 64, 1, D3DUSAGE_DEPTHSTENCIL, f, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
      if (tex) CHECK(tex->Release() == 0);
    }
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD | D3DUSAGE_QUERY_FILTER, D3DRTYPE_TEXTURE, D3DFMT_A8R8G8B8) == D3D_OK);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD, D3DRTYPE_TEXTURE, D3DFMT_DXT5) == D3D_OK);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBWRITE | D3DUSAGE_RENDERTARGET, D3DRTYPE_TEXTURE, D3DFMT_X8R8G8B8) == D3D_OK);
    CHECK(check(d3d, D3DUSAGE_QUERY_SRGBREAD, D3DRTYPE_TEXTURE, D3DFMT_L8) == D3DERR_NOTAVAILABLE);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
