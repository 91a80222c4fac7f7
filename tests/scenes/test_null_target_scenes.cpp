// The NULL render-target format (FOURCC 'NULL', NVIDIA's and AMD's): a render target without
// memory, so that a depth-only pass (shadow maps, a depth pre-pass) writes the depth-stencil
// surface alone. Probed on every backend through a second pass that tests against that depth.
#include <catch2/catch.hpp>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DFORMAT kNull = D3DFORMAT(MAKEFOURCC('N', 'U', 'L', 'L'));

// A quad over the pixels whose centres lie in [x0, x1) x [y0, y1).
void quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR c) {
  TLVertex v[4] = {{x0 - 0.5f, y0 - 0.5f, z, 1, c}, {x1 - 0.5f, y0 - 0.5f, z, 1, c},
                   {x0 - 0.5f, y1 - 0.5f, z, 1, c}, {x1 - 0.5f, y1 - 0.5f, z, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

} // namespace

TEST_CASE("scene: draws into a NULL render target write only depth", "[scene][format][targets]") {
  const D3DCOLOR blue = 0xff0000ff, red = 0xffff0000, green = 0xff00ff00;
  auto images = render_all("null_target", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *null_rt = nullptr, *depth = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    HR(dev->CreateRenderTarget(64, 64, kNull, D3DMULTISAMPLE_NONE, 0, FALSE, &null_rt, nullptr));
    HR(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &depth, nullptr));
    HR(dev->SetDepthStencilSurface(depth));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, blue, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));

    // The depth-only pass: the left half at depth 0.25, in green that must land nowhere. A clear
    // of the colour it does not have clears nothing either.
    HR(dev->SetRenderTarget(0, null_rt));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, green, 1.0f, 0));
    quad(dev, 0, 0, 32, 64, 0.25f, green);

    // The colour pass, without writing depth: red where the depth pass left the far plane.
    HR(dev->SetRenderTarget(0, back));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    quad(dev, 0, 0, 64, 64, 0.5f, red);

    HR(dev->SetDepthStencilSurface(nullptr));
    CHECK(depth->Release() == 0);
    CHECK(null_rt->Release() == 0);
    back->Release();
  }, 0);
  for (const Rendered &r : images) {
    INFO(r.backend);
    probe(r, 8, 32, blue);  // depth 0.25 from the NULL target's pass hides the red quad
    probe(r, 31, 10, blue);
    probe(r, 32, 10, red);  // the far plane: red passes
    probe(r, 60, 60, red);
  }
}
