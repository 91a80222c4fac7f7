// D3DRS_DEPTHBIAS on every backend and every depth format a depth-stencil surface can have: the
// bias is added to the depth in [0, 1] units on the integer formats, D32 included (Wine's
// test_depthbias records it on Windows). A quad whose depth runs from 0 at the left edge to 1 at the right one
// is drawn with biases -0.25, 0 and 0.25 against a depth buffer cleared to 0.5 (LESSEQUAL, no
// depth writes): each bias moves the edge where it stops passing by a quarter of the target.
#include <catch2/catch.hpp>

#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

DWORD bits(float f) {
  DWORD d;
  static_assert(sizeof d == sizeof f);
  std::memcpy(&d, &f, sizeof d);
  return d;
}

constexpr D3DFORMAT kINTZ = D3DFORMAT(MAKEFOURCC('I', 'N', 'T', 'Z'));

} // namespace

TEST_CASE("Depth bias moves depth by its value on every depth format", "[scenes][depth_bias]") {
  const D3DCOLOR red = 0xffff0000, green = 0xff00ff00, blue = 0xff0000ff, black = 0xff000000;
  const struct {
    float bias;
    D3DCOLOR colour;
  } draws[] = {{-0.25f, red}, {0.0f, green}, {0.25f, blue}};
  // Pixel column x (its centre at x, depth x / 64) passes bias b where x / 64 + b <= 0.5; the
  // columns where that is an equality (16, 32, 48) are left out.
  const struct {
    UINT x;
    D3DCOLOR colour;
  } expected[] = {{1, blue},  {14, blue}, {15, blue}, {17, green}, {18, green}, {31, green},
                  {33, red},  {34, red},  {47, red},  {49, black}, {50, black}, {62, black}};
  for (D3DFORMAT format : {D3DFMT_D16, D3DFMT_D16_LOCKABLE, D3DFMT_D24X8, D3DFMT_D24S8, D3DFMT_D32, kINTZ}) {
    for (const std::string &backend : available_backends()) {
      setenv("NOVEM_BACKEND", backend.c_str(), 1);
      IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
      const bool supported = d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DEPTHSTENCIL,
                                                    D3DRTYPE_SURFACE, format) == D3D_OK;
      d3d->Release();
      if (!supported) continue;
      INFO(backend << ", format " << format);
      SceneSetup setup;
      setup.height = 8;
      const novem::image::Image image = render(backend, setup, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *ds = nullptr;
        HR(dev->CreateDepthStencilSurface(64, 8, format, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
        HR(dev->SetDepthStencilSurface(ds));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, black, 0.5f, 0));
        HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
        HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
        HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
        HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));
        HR(dev->SetFVF(kColorVertexFVF));
        for (const auto &d : draws) {
          HR(dev->SetRenderState(D3DRS_DEPTHBIAS, bits(d.bias)));
          const ColorVertex quad[4] = {{-1, 1, 0, d.colour}, {1, 1, 1, d.colour}, {-1, -1, 0, d.colour}, {1, -1, 1, d.colour}};
          HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof quad[0]));
        }
        HR(dev->SetDepthStencilSurface(nullptr));
        CHECK(ds->Release() == 0);
      });
      const Rendered r{backend, image};
      for (const auto &e : expected) {
        INFO("x " << e.x);
        probe(r, e.x, 4, e.colour, 0);
      }
    }
  }
}
