// Interface pointers that are not Novem's objects (an object the program wrapped, or whose
// memory it overwrote): every call that takes one answers D3DERR_INVALIDCALL without calling
// through it. The poisoned object's vtable holds null pointers: any call through it crashes.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

struct Poisoned {
  void *const *vtable;
};
void *const kNullVtable[64] = {};

template <class Iface> Iface *poisoned() {
  static Poisoned object{kNullVtable};
  return reinterpret_cast<Iface *>(&object);
}

} // namespace

TEST_CASE("foreign objects: calls taking an object that is not Novem's refuse it", "[api][foreign]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  IDirect3DSurface9 *rt = nullptr, *sys = nullptr;
  REQUIRE(dev->GetRenderTarget(0, &rt) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr) == D3D_OK);
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(dev->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
  auto *surface = poisoned<IDirect3DSurface9>();
  const std::vector<std::pair<std::string, std::function<HRESULT()>>> calls = {
      {"SetTexture", [&] { return dev->SetTexture(0, poisoned<IDirect3DBaseTexture9>()); }},
      {"UpdateTexture source", [&] { return dev->UpdateTexture(poisoned<IDirect3DBaseTexture9>(), texture); }},
      {"UpdateTexture destination", [&] { return dev->UpdateTexture(texture, poisoned<IDirect3DBaseTexture9>()); }},
      {"SetRenderTarget", [&] { return dev->SetRenderTarget(1, surface); }},
      {"SetDepthStencilSurface", [&] { return dev->SetDepthStencilSurface(surface); }},
      {"SetStreamSource", [&] { return dev->SetStreamSource(0, poisoned<IDirect3DVertexBuffer9>(), 0, 16); }},
      {"SetIndices", [&] { return dev->SetIndices(poisoned<IDirect3DIndexBuffer9>()); }},
      {"SetVertexShader", [&] { return dev->SetVertexShader(poisoned<IDirect3DVertexShader9>()); }},
      {"SetPixelShader", [&] { return dev->SetPixelShader(poisoned<IDirect3DPixelShader9>()); }},
      {"SetVertexDeclaration", [&] { return dev->SetVertexDeclaration(poisoned<IDirect3DVertexDeclaration9>()); }},
      {"StretchRect", [&] { return dev->StretchRect(surface, nullptr, rt, nullptr, D3DTEXF_NONE); }},
      {"UpdateSurface", [&] { return dev->UpdateSurface(surface, nullptr, rt, nullptr); }},
      {"ColorFill", [&] { return dev->ColorFill(surface, nullptr, 0); }},
      {"GetRenderTargetData", [&] { return dev->GetRenderTargetData(rt, surface); }},
      {"GetFrontBufferData", [&] { return dev->GetFrontBufferData(0, surface); }},
      {"SetCursorProperties", [&] { return dev->SetCursorProperties(0, 0, surface); }},
      {"ProcessVertices",
       [&] { return dev->ProcessVertices(0, 0, 1, poisoned<IDirect3DVertexBuffer9>(), nullptr, 0); }},
  };
  for (const auto &[name, call] : calls) {
    CAPTURE(name);
    CHECK(call() == D3DERR_INVALIDCALL);
  }
  // The state the refused calls would have changed is as it was.
  IDirect3DBaseTexture9 *bound = reinterpret_cast<IDirect3DBaseTexture9 *>(0x1);
  CHECK(dev->GetTexture(0, &bound) == D3D_OK);
  CHECK(bound == nullptr);
  CHECK(texture->Release() == 0);
  CHECK(sys->Release() == 0);
  rt->Release();
}
