// IDirect3DSurface9::GetDC and ReleaseDC as Windows answers them (Microsoft's documentation and
// Wine's test_getdc): which formats and surfaces hand out a DC, and the DC as an implicit lock
// of the surface. There is no GDI to draw through the HDC; these are the D3D9 rules around it.
#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

enum class Kind { SysmemPlain, ScratchPlain, DefaultPlain, LockableTarget, Target, ManagedLevel, DynamicLevel, DefaultLevel };

struct KindCase {
  Kind kind;
  const char *name;
  bool takes_dc; // for a format GDI draws into
};

const KindCase kKinds[] = {
    {Kind::SysmemPlain, "SYSTEMMEM plain surface", true},
    {Kind::ScratchPlain, "SCRATCH plain surface", false},
    {Kind::DefaultPlain, "DEFAULT plain surface", true},
    {Kind::LockableTarget, "lockable render target", true},
    {Kind::Target, "render target, not lockable", false},
    {Kind::ManagedLevel, "MANAGED texture level", true},
    {Kind::DynamicLevel, "DEFAULT dynamic texture level", true},
    {Kind::DefaultLevel, "DEFAULT texture level, not dynamic", false},
};

struct FormatCase {
  D3DFORMAT format;
  bool gdi;
};

const FormatCase kFormats[] = {
    {D3DFMT_X8R8G8B8, true}, {D3DFMT_A8R8G8B8, true}, {D3DFMT_R5G6B5, true}, {D3DFMT_X1R5G5B5, true},
    {D3DFMT_A1R5G5B5, true}, {D3DFMT_A2R10G10B10, false}, {D3DFMT_A8B8G8R8, false}, {D3DFMT_L8, false},
    {D3DFMT_V8U8, false}, {D3DFMT_DXT1, false},
};

// The surface of that kind and format, or nullptr where the device does not make one.
IDirect3DSurface9 *make(IDirect3DDevice9 *dev, Kind kind, D3DFORMAT format, IDirect3DTexture9 **tex) {
  IDirect3DSurface9 *s = nullptr;
  *tex = nullptr;
  switch (kind) {
  case Kind::SysmemPlain: dev->CreateOffscreenPlainSurface(16, 16, format, D3DPOOL_SYSTEMMEM, &s, nullptr); break;
  case Kind::ScratchPlain: dev->CreateOffscreenPlainSurface(16, 16, format, D3DPOOL_SCRATCH, &s, nullptr); break;
  case Kind::DefaultPlain: dev->CreateOffscreenPlainSurface(16, 16, format, D3DPOOL_DEFAULT, &s, nullptr); break;
  case Kind::LockableTarget: dev->CreateRenderTarget(16, 16, format, D3DMULTISAMPLE_NONE, 0, TRUE, &s, nullptr); break;
  case Kind::Target: dev->CreateRenderTarget(16, 16, format, D3DMULTISAMPLE_NONE, 0, FALSE, &s, nullptr); break;
  case Kind::ManagedLevel: dev->CreateTexture(16, 16, 1, 0, format, D3DPOOL_MANAGED, tex, nullptr); break;
  case Kind::DynamicLevel: dev->CreateTexture(16, 16, 1, D3DUSAGE_DYNAMIC, format, D3DPOOL_DEFAULT, tex, nullptr); break;
  case Kind::DefaultLevel: dev->CreateTexture(16, 16, 1, 0, format, D3DPOOL_DEFAULT, tex, nullptr); break;
  }
  if (*tex) (*tex)->GetSurfaceLevel(0, &s);
  return s;
}

} // namespace

TEST_CASE("GetDC: the formats GDI draws into, on surfaces that lock, never SCRATCH", "[api][surface][dc]") {
  NullDevice d;
  int made = 0;
  for (const KindCase &k : kKinds)
    for (const FormatCase &f : kFormats) {
      IDirect3DTexture9 *tex = nullptr;
      IDirect3DSurface9 *s = make(d.device, k.kind, f.format, &tex);
      if (!s) continue;
      ++made;
      INFO(k.name << ", format " << f.format);
      HDC dc = reinterpret_cast<HDC>(uintptr_t(0x1234));
      const bool takes = k.takes_dc && f.gdi;
      CHECK(s->GetDC(&dc) == (takes ? D3D_OK : D3DERR_INVALIDCALL));
      if (takes) {
        CHECK(dc != nullptr);
        CHECK(s->ReleaseDC(dc) == D3D_OK);
      }
      s->Release();
      if (tex) CHECK(tex->Release() == 0);
    }
  CHECK(made >= 40); // most kinds of most formats exist on the null plugin
}

TEST_CASE("GetDC is a lock of the surface until ReleaseDC", "[api][surface][dc]") {
  NullDevice d;
  for (const KindCase &k : kKinds) {
    if (!k.takes_dc) continue;
    INFO(k.name);
    IDirect3DTexture9 *tex = nullptr;
    IDirect3DSurface9 *s = make(d.device, k.kind, D3DFMT_X8R8G8B8, &tex);
    REQUIRE(s);
    CHECK(s->GetDC(nullptr) == D3DERR_INVALIDCALL);
    HDC dc = nullptr, second = nullptr;
    REQUIRE(s->GetDC(&dc) == D3D_OK);
    CHECK(s->GetDC(&second) == D3DERR_INVALIDCALL); // one DC at a time
    D3DLOCKED_RECT lr{};
    CHECK(s->LockRect(&lr, nullptr, 0) == D3DERR_INVALIDCALL); // the DC holds the lock
    CHECK(s->UnlockRect() == D3DERR_INVALIDCALL);               // which only ReleaseDC ends
    CHECK(s->ReleaseDC(reinterpret_cast<HDC>(uintptr_t(0x1234))) == D3DERR_INVALIDCALL);
    CHECK(s->ReleaseDC(dc) == D3D_OK);
    CHECK(s->ReleaseDC(dc) == D3DERR_INVALIDCALL); // released already
    REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
    CHECK(s->GetDC(&dc) == D3DERR_INVALIDCALL); // no DC of a locked surface
    CHECK(s->UnlockRect() == D3D_OK);
    REQUIRE(s->GetDC(&dc) == D3D_OK); // and again once it is unlocked
    CHECK(s->ReleaseDC(dc) == D3D_OK);
    s->Release();
    if (tex) CHECK(tex->Release() == 0);
  }
}
