// What the API tests share: choosing a backend, a headless device on the null plugin, reference
// counts. The null plugin executes nothing, so these tests check the frontend's answers alone.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>

#include <d3d9.h>

namespace api_fixture {

struct Backend {
  explicit Backend(const char *name) { setenv("NOVEM_BACKEND", name, 1); }
  ~Backend() { unsetenv("NOVEM_BACKEND"); }
};

inline ULONG refcount(IUnknown *object) {
  object->AddRef();
  return object->Release();
}

// A pre-transformed vertex with a colour (D3DFVF_XYZRHW | D3DFVF_DIFFUSE).
struct TLVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};

inline D3DPRESENT_PARAMETERS headless(UINT w = 64, UINT h = 64) {
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = w;
  pp.BackBufferHeight = h;
  pp.BackBufferFormat = D3DFMT_A8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  pp.EnableAutoDepthStencil = TRUE;
  pp.AutoDepthStencilFormat = D3DFMT_D24S8;
  return pp;
}

struct NullDevice {
  explicit NullDevice(DWORD behaviour = D3DCREATE_HARDWARE_VERTEXPROCESSING) {
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless();
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, behaviour, &pp, &device) == D3D_OK);
  }
  ~NullDevice() {
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
  Backend backend{"null"};
  IDirect3D9 *d3d = nullptr;
  IDirect3DDevice9 *device = nullptr;
};

} // namespace api_fixture
