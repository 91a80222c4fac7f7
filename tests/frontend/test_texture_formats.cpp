// Texture formats through the API: what CheckDeviceFormat answers per resource type and usage,
// that it agrees with CreateTexture on every backend, and DXTn locks in 4x4 blocks.
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

constexpr D3DFORMAT kATI1 = D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '1')), kATI2 = D3DFORMAT(MAKEFOURCC('A', 'T', 'I', '2'));
constexpr D3DFORMAT kNull = D3DFORMAT(MAKEFOURCC('N', 'U', 'L', 'L'));

// Every format Novem takes as a 2D texture (docs/d3d9-behaviour.md).
const std::vector<D3DFORMAT> kTextureFormats = {
    D3DFMT_A8R8G8B8, D3DFMT_X8R8G8B8, D3DFMT_R5G6B5, D3DFMT_X1R5G5B5, D3DFMT_A1R5G5B5, D3DFMT_A4R4G4B4,
    D3DFMT_A8, D3DFMT_L8, D3DFMT_A8L8, D3DFMT_A4L4, D3DFMT_DXT1, D3DFMT_DXT2, D3DFMT_DXT3, D3DFMT_DXT4,
    D3DFMT_DXT5, D3DFMT_V8U8, D3DFMT_Q8W8V8U8, D3DFMT_L16, D3DFMT_G16R16, D3DFMT_A16B16G16R16, D3DFMT_R16F,
    D3DFMT_G16R16F, D3DFMT_A16B16G16R16F, D3DFMT_R32F, D3DFMT_G32R32F, D3DFMT_A32B32G32R32F,
    D3DFMT_A2R10G10B10, D3DFMT_A2B10G10R10, D3DFMT_V16U16, D3DFMT_Q16W16V16U16, D3DFMT_L6V5U5, D3DFMT_X8L8V8U8,
    D3DFMT_YUY2, D3DFMT_UYVY, kATI1, kATI2};

HRESULT check_texture(IDirect3D9 *d3d, DWORD usage, D3DFORMAT format) {
  return d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, usage, D3DRTYPE_TEXTURE, format);
}

} // namespace

TEST_CASE("CheckDeviceFormat: texture formats, usages and resource types", "[api][texture][format]") {
  Backend backend("null"); // reports every backend format as supported: the frontend's own answers
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  for (D3DFORMAT f : kTextureFormats) {
    INFO("format " << f);
    CHECK(check_texture(d3d, 0, f) == D3D_OK);
    CHECK(check_texture(d3d, D3DUSAGE_QUERY_FILTER | D3DUSAGE_QUERY_WRAPANDMIP, f) == D3D_OK);
    CHECK(check_texture(d3d, D3DUSAGE_DYNAMIC, f) == D3D_OK);
    // Render-target textures of the render-target formats only; not implemented yet, so not
    // claimed: sRGB textures.
    const bool target = f != D3DFMT_A4R4G4B4 && f != D3DFMT_A8 && f != D3DFMT_L8 && f != D3DFMT_A8L8 &&
                        f != D3DFMT_A4L4 && f != D3DFMT_V8U8 && f != D3DFMT_Q8W8V8U8 && f != D3DFMT_L16 &&
                        f != D3DFMT_DXT1 && f != D3DFMT_DXT2 && f != D3DFMT_DXT3 && f != D3DFMT_DXT4 &&
                        f != D3DFMT_DXT5 && f != D3DFMT_V16U16 && f != D3DFMT_Q16W16V16U16 && f != D3DFMT_L6V5U5 &&
                        f != D3DFMT_X8L8V8U8 && f != D3DFMT_YUY2 && f != D3DFMT_UYVY && f != kATI1 && f != kATI2;
    CHECK(check_texture(d3d, D3DUSAGE_RENDERTARGET, f) == (target ? D3D_OK : D3DERR_NOTAVAILABLE));
    CHECK(check_texture(d3d, D3DUSAGE_AUTOGENMIPMAP, f) == D3D_OK); // the null plugin generates every format's
    // sRGB reads of the formats the plugins read as sRGB (test_depth_srgb.cpp checks more).
    const bool srgb = f == D3DFMT_A8R8G8B8 || f == D3DFMT_X8R8G8B8 || f == D3DFMT_DXT1 || f == D3DFMT_DXT2 ||
                      f == D3DFMT_DXT3 || f == D3DFMT_DXT4 || f == D3DFMT_DXT5;
    CHECK(check_texture(d3d, D3DUSAGE_QUERY_SRGBREAD, f) == (srgb ? D3D_OK : D3DERR_NOTAVAILABLE));
  }
  // Depth formats are textures only with D3DUSAGE_DEPTHSTENCIL, and formats Novem lacks are refused.
  for (D3DFORMAT f : {D3DFMT_D16, D3DFMT_D24S8, D3DFMT_D24X8, D3DFMT_A8R3G3B2, D3DFMT_R8G8B8, D3DFMT_P8, kNull})
    CHECK(check_texture(d3d, 0, f) == D3DERR_NOTAVAILABLE);
  // Texture-only formats are no render targets; DXTn are plain surfaces (in every pool), no targets.
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE,
                               D3DFMT_L8) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, D3DFMT_DXT5) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE,
                               D3DFMT_DXT5) == D3DERR_NOTAVAILABLE);
  // Depth formats, and render-target formats with them.
  for (D3DFORMAT f : {D3DFMT_D16, D3DFMT_D24X8, D3DFMT_D24S8, D3DFMT_D32, D3DFMT_D32F_LOCKABLE, D3DFMT_D16_LOCKABLE}) {
    CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE, f) == D3D_OK);
    CHECK(d3d->CheckDepthStencilMatch(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_A16B16G16R16F, f) == D3D_OK);
  }
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE,
                               D3DFMT_D15S1) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDepthStencilMatch(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_L8, D3DFMT_D16) == D3DERR_NOTAVAILABLE);
  d3d->Release();
}

TEST_CASE("CheckDeviceFormat agrees with CreateTexture on every backend", "[api][texture][format][backends]") {
  for (const char *name : {"null", "vulkan", "opengl"}) {
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    IDirect3DDevice9 *dev = nullptr;
    if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) != D3D_OK) {
      WARN(name << " cannot start here: skipped");
      d3d->Release();
      continue;
    }
    for (D3DFORMAT f : kTextureFormats) {
      INFO(name << ": format " << f);
      IDirect3DTexture9 *tex = nullptr;
      const HRESULT created = dev->CreateTexture(8, 8, 0, 0, f, D3DPOOL_MANAGED, &tex, nullptr);
      CHECK((check_texture(d3d, 0, f) == D3D_OK) == (created == D3D_OK));
      if (tex) CHECK(tex->Release() == 0);
      if (created != D3D_OK) continue;
      // AUTOGENMIPMAP: D3D_OK where the backend generates the levels, D3DOK_NOAUTOGEN where it
      // does not and the texture then has a single level; the application sees one either way.
      const HRESULT autogen = check_texture(d3d, D3DUSAGE_AUTOGENMIPMAP, f);
      CHECK((autogen == D3D_OK || autogen == D3DOK_NOAUTOGEN));
      REQUIRE(dev->CreateTexture(8, 8, 0, D3DUSAGE_AUTOGENMIPMAP, f, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
      CHECK(tex->GetLevelCount() == 1);
      CHECK(tex->Release() == 0);
    }
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("DXTn textures lock in 4x4 blocks", "[api][texture][format]") {
  NullDevice d;
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(d.device->CreateTexture(16, 8, 0, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  REQUIRE(tex->GetLevelCount() == 5);
  D3DLOCKED_RECT lr;
  REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 4 * 8); // four blocks of 8 bytes a row
  auto *base = static_cast<uint8_t *>(lr.pBits);
  REQUIRE(tex->UnlockRect(0) == D3D_OK);

  // A rectangle of whole blocks points at its first block.
  RECT blocks{4, 4, 12, 8};
  REQUIRE(tex->LockRect(0, &lr, &blocks, 0) == D3D_OK);
  CHECK(static_cast<uint8_t *>(lr.pBits) == base + 1 * 32 + 1 * 8);
  REQUIRE(tex->UnlockRect(0) == D3D_OK);
  // Edges inside a block lock outside DEFAULT (at the block holding the corner); test_lock_rects.cpp
  // has DEFAULT, which refuses them.
  for (RECT partial : {RECT{1, 0, 4, 4}, RECT{0, 2, 4, 4}, RECT{0, 0, 5, 4}, RECT{0, 0, 4, 3}}) {
    REQUIRE(tex->LockRect(0, &lr, &partial, 0) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits) == base);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
  }
  // Level 3 is 2 x 1 texels in one block: its pitch is one block, and (0, 0, 2, 1) is whole.
  RECT whole{0, 0, 2, 1};
  REQUIRE(tex->LockRect(3, &lr, &whole, 0) == D3D_OK);
  CHECK(lr.Pitch == 8);
  REQUIRE(tex->UnlockRect(3) == D3D_OK);
  CHECK(tex->Release() == 0);

  REQUIRE(d.device->CreateTexture(8, 8, 1, 0, D3DFMT_DXT5, D3DPOOL_SYSTEMMEM, &tex, nullptr) == D3D_OK);
  REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 2 * 16);
  REQUIRE(tex->UnlockRect(0) == D3D_OK);
  CHECK(tex->Release() == 0);
}

TEST_CASE("texture pitches hold a row of texels of the format", "[api][texture][format]") {
  NullDevice d;
  const struct {
    D3DFORMAT format;
    INT bytes;
  } sizes[] = {{D3DFMT_L8, 1}, {D3DFMT_A8L8, 2}, {D3DFMT_R5G6B5, 2}, {D3DFMT_A16B16G16R16F, 8}, {D3DFMT_A32B32G32R32F, 16}};
  for (const auto &s : sizes) {
    IDirect3DTexture9 *tex = nullptr;
    REQUIRE(d.device->CreateTexture(5, 3, 1, 0, s.format, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
    D3DLOCKED_RECT lr;
    REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
    CHECK(lr.Pitch >= 5 * s.bytes);
    CHECK(lr.Pitch % 4 == 0);
    auto *base = static_cast<uint8_t *>(lr.pBits);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    RECT r{2, 1, 5, 3};
    REQUIRE(tex->LockRect(0, &lr, &r, D3DLOCK_READONLY) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits) == base + lr.Pitch + 2 * s.bytes);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    CHECK(tex->Release() == 0);
  }
}

TEST_CASE("3Dc textures lock in 4x4 blocks and take any size", "[api][texture][format]") {
  NullDevice d;
  IDirect3DTexture9 *tex = nullptr;
  // Unlike DXTn, Windows takes a level 0 that is not whole blocks (Wine's test_surface_blocks).
  CHECK(d.device->CreateTexture(6, 6, 1, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  for (D3DFORMAT f : {kATI1, kATI2}) {
    INFO("format " << f);
    REQUIRE(d.device->CreateTexture(6, 6, 1, 0, f, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
    CHECK(tex->Release() == 0);
    REQUIRE(d.device->CreateTexture(16, 8, 0, 0, f, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
    D3DLOCKED_RECT lr;
    REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
    CHECK(lr.Pitch == 4 * (f == kATI1 ? 8 : 16)); // a row of four blocks
    auto *base = static_cast<uint8_t *>(lr.pBits);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    RECT blocks{4, 4, 12, 8};
    REQUIRE(tex->LockRect(0, &lr, &blocks, 0) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits) == base + lr.Pitch + (f == kATI1 ? 8 : 16));
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    CHECK(tex->Release() == 0);
  }
}

TEST_CASE("YUY2, UYVY and the bump-map formats lock in D3D9's layout", "[api][texture][format]") {
  NullDevice d;
  const struct {
    D3DFORMAT format;
    INT bytes;
  } sizes[] = {{D3DFMT_YUY2, 2}, {D3DFMT_UYVY, 2}, {D3DFMT_L6V5U5, 2}, {D3DFMT_X8L8V8U8, 4}, {D3DFMT_V16U16, 4},
               {D3DFMT_Q16W16V16U16, 8}};
  for (const auto &s : sizes) {
    INFO("format " << s.format);
    IDirect3DTexture9 *tex = nullptr;
    REQUIRE(d.device->CreateTexture(6, 3, 1, 0, s.format, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
    D3DLOCKED_RECT lr;
    REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
    CHECK(lr.Pitch == (6 * s.bytes + 3) / 4 * 4);
    auto *base = static_cast<uint8_t *>(lr.pBits);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    RECT r{2, 1, 6, 3};
    REQUIRE(tex->LockRect(0, &lr, &r, 0) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits) == base + lr.Pitch + 2 * s.bytes);
    REQUIRE(tex->UnlockRect(0) == D3D_OK);
    CHECK(tex->Release() == 0);
  }
}

TEST_CASE("the NULL format is a render target without memory", "[api][format][targets]") {
  NullDevice d;
  IDirect3D9 *d3d = nullptr;
  REQUIRE(d.device->GetDirect3D(&d3d) == D3D_OK);
  // What NVIDIA's and AMD's drivers answer: a render-target surface, with any depth format.
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, kNull) ==
        D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, kNull) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_TEXTURE, kNull) ==
        D3DERR_NOTAVAILABLE);
  for (D3DFORMAT ds : {D3DFMT_D16, D3DFMT_D24X8, D3DFMT_D24S8})
    CHECK(d3d->CheckDepthStencilMatch(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, kNull, ds) == D3D_OK);
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, kNull, TRUE, D3DMULTISAMPLE_NONE, nullptr) == D3D_OK);
  d3d->Release();

  const UINT memory = d.device->GetAvailableTextureMem();
  IDirect3DSurface9 *rt = nullptr;
  REQUIRE(d.device->CreateRenderTarget(2048, 2048, kNull, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  CHECK(d.device->GetAvailableTextureMem() == memory);
  D3DSURFACE_DESC desc;
  REQUIRE(rt->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Format == kNull);
  CHECK(desc.Usage == D3DUSAGE_RENDERTARGET);
  CHECK(desc.Pool == D3DPOOL_DEFAULT);
  CHECK((desc.Width == 2048 && desc.Height == 2048));
  // It has no texels: no lock, no copy from it, no fill.
  D3DLOCKED_RECT lr;
  CHECK(rt->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(d.device->ColorFill(rt, nullptr, 0) == D3DERR_INVALIDCALL);
  IDirect3DSurface9 *mem = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(2048, 2048, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &mem, nullptr) == D3D_OK);
  CHECK(d.device->GetRenderTargetData(rt, mem) == D3DERR_INVALIDCALL);
  CHECK(mem->Release() == 0);
  // It is a render target like any other: setting it resets the viewport to its size.
  REQUIRE(d.device->SetRenderTarget(0, rt) == D3D_OK);
  D3DVIEWPORT9 vp;
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK((vp.Width == 2048 && vp.Height == 2048));
  // Only render-target surfaces are of this format.
  IDirect3DSurface9 *other = nullptr;
  CHECK(d.device->CreateOffscreenPlainSurface(16, 16, kNull, D3DPOOL_DEFAULT, &other, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateDepthStencilSurface(16, 16, kNull, D3DMULTISAMPLE_NONE, 0, FALSE, &other, nullptr) ==
        D3DERR_INVALIDCALL);
  IDirect3DTexture9 *tex = nullptr;
  CHECK(d.device->CreateTexture(16, 16, 1, D3DUSAGE_RENDERTARGET, kNull, D3DPOOL_DEFAULT, &tex, nullptr) ==
        D3DERR_INVALIDCALL);
  IDirect3DSurface9 *back = nullptr;
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  REQUIRE(d.device->SetRenderTarget(0, back) == D3D_OK);
  back->Release();
  CHECK(rt->Release() == 0);
}

TEST_CASE("YUY2 and UYVY plain surfaces keep their texels and StretchRect converts them", "[api][format][copies]") {
  NullDevice d;
  for (D3DFORMAT f : {D3DFMT_YUY2, D3DFMT_UYVY}) {
    INFO("format " << f);
    CHECK(d.d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, f) == D3D_OK);
    CHECK(d.d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, f) ==
          D3DERR_NOTAVAILABLE);
    // Into render targets of the RGB format they are converted to; nothing else.
    CHECK(d.d3d->CheckDeviceFormatConversion(0, D3DDEVTYPE_HAL, f, D3DFMT_X8R8G8B8) == D3D_OK);
    CHECK(d.d3d->CheckDeviceFormatConversion(0, D3DDEVTYPE_HAL, f, D3DFMT_A8R8G8B8) == D3D_OK);
    CHECK(d.d3d->CheckDeviceFormatConversion(0, D3DDEVTYPE_HAL, f, D3DFMT_R5G6B5) == D3DERR_NOTAVAILABLE);
    CHECK(d.d3d->CheckDeviceFormatConversion(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, f) == D3DERR_NOTAVAILABLE);
    CHECK(d.d3d->CheckDeviceFormatConversion(0, D3DDEVTYPE_HAL, f, f) == D3DERR_NOTAVAILABLE);

    IDirect3DSurface9 *s = nullptr, *mem = nullptr, *rt = nullptr, *other = nullptr;
    REQUIRE(d.device->CreateOffscreenPlainSurface(6, 2, f, D3DPOOL_DEFAULT, &s, nullptr) == D3D_OK);
    REQUIRE(d.device->CreateOffscreenPlainSurface(6, 2, f, D3DPOOL_SYSTEMMEM, &mem, nullptr) == D3D_OK);
    REQUIRE(d.device->CreateRenderTarget(6, 2, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
    REQUIRE(d.device->CreateOffscreenPlainSurface(6, 2, f, D3DPOOL_DEFAULT, &other, nullptr) == D3D_OK);
    // A DEFAULT surface locks the bytes last written, in D3D9's layout (not read back converted).
    D3DLOCKED_RECT lr;
    REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
    CHECK(lr.Pitch == 12);
    static_cast<uint8_t *>(lr.pBits)[lr.Pitch + 5] = 0x5a;
    REQUIRE(s->UnlockRect() == D3D_OK);
    REQUIRE(s->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits)[lr.Pitch + 5] == 0x5a);
    REQUIRE(s->UnlockRect() == D3D_OK);
    // UpdateSurface from system memory writes them too.
    REQUIRE(mem->LockRect(&lr, nullptr, 0) == D3D_OK);
    static_cast<uint8_t *>(lr.pBits)[0] = 0xa5;
    REQUIRE(mem->UnlockRect() == D3D_OK);
    REQUIRE(d.device->UpdateSurface(mem, nullptr, s, nullptr) == D3D_OK);
    REQUIRE(s->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits)[0] == 0xa5);
    REQUIRE(s->UnlockRect() == D3D_OK);
    CHECK(d.device->StretchRect(s, nullptr, rt, nullptr, D3DTEXF_POINT) == D3D_OK);
    CHECK(d.device->StretchRect(s, nullptr, other, nullptr, D3DTEXF_POINT) == D3DERR_INVALIDCALL);
    CHECK(d.device->StretchRect(rt, nullptr, s, nullptr, D3DTEXF_POINT) == D3DERR_INVALIDCALL);
    CHECK(d.device->ColorFill(s, nullptr, 0) == D3DERR_INVALIDCALL); // narrower than Windows
    CHECK(other->Release() == 0);
    CHECK(rt->Release() == 0);
    CHECK(mem->Release() == 0);
    CHECK(s->Release() == 0);
  }
}
