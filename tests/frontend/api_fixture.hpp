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

// A device on the null plugin, of Direct3DCreate9 (NullDevice) or Direct3DCreate9Ex (NullExDevice).
template <class D3D, class Dev, bool kExtended> struct NullDeviceOf {
  explicit NullDeviceOf(DWORD behaviour = D3DCREATE_HARDWARE_VERTEXPROCESSING) {
    D3DPRESENT_PARAMETERS pp = headless();
    if constexpr (kExtended) {
      REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
      REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, behaviour, &pp, nullptr, &device) == D3D_OK);
    } else {
      d3d = Direct3DCreate9(D3D_SDK_VERSION);
      REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, behaviour, &pp, &device) == D3D_OK);
    }
  }
  ~NullDeviceOf() {
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
  Backend backend{"null"};
  D3D *d3d = nullptr;
  Dev *device = nullptr;
};
using NullDevice = NullDeviceOf<IDirect3D9, IDirect3DDevice9, false>;
using NullExDevice = NullDeviceOf<IDirect3D9Ex, IDirect3DDevice9Ex, true>;

} // namespace api_fixture
