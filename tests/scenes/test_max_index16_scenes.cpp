// 16-bit index 0xffff is a vertex like any other in D3D9 (there is no primitive restart, and
// MaxVertexIndex is past it): quads whose vertices sit at 0xfffc..0xffff of a 65536-vertex
// buffer are drawn whole, through index buffers and DrawIndexedPrimitiveUP, as strips and lists.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr UINT kVertexCount = 0x10000;
constexpr D3DCOLOR kClear = 0xff0000ff, kGreen = 0xff00ff00;

// Every vertex at the origin (degenerate) but the last four: a quad over the whole 64 x 64 target.
std::vector<TLVertex> vertices() {
  std::vector<TLVertex> v(kVertexCount, TLVertex{0, 0, 0.5f, 1, 0xffff0000});
  const float lo = -0.5f, hi = 63.5f;
  v[0xfffc] = {lo, lo, 0.5f, 1, kGreen};
  v[0xfffd] = {hi, lo, 0.5f, 1, kGreen};
  v[0xfffe] = {lo, hi, 0.5f, 1, kGreen};
  v[0xffff] = {hi, hi, 0.5f, 1, kGreen};
  return v;
}

struct IndexCase {
  const char *name;
  D3DPRIMITIVETYPE type;
  std::vector<WORD> indices;
  bool up; // DrawIndexedPrimitiveUP instead of buffers
};

} // namespace

TEST_CASE("16-bit index 0xffff draws its vertex", "[scenes][index16]") {
  const IndexCase cases[] = {
      {"strip from buffers", D3DPT_TRIANGLESTRIP, {0xfffc, 0xfffd, 0xfffe, 0xffff}, false},
      {"list from buffers", D3DPT_TRIANGLELIST, {0xffff, 0xfffe, 0xfffd, 0xfffc, 0xfffd, 0xfffe}, false},
      {"strip, DrawIndexedPrimitiveUP", D3DPT_TRIANGLESTRIP, {0xfffc, 0xfffd, 0xfffe, 0xffff}, true},
      {"list, DrawIndexedPrimitiveUP", D3DPT_TRIANGLELIST, {0xffff, 0xfffe, 0xfffd, 0xfffc, 0xfffd, 0xfffe}, true},
  };
  const std::vector<TLVertex> data = vertices();
  for (const IndexCase &c : cases) {
    auto rendered = render_all("max_index16", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
      HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
      HR(dev->SetFVF(kTLVertexFVF));
      const UINT primitives = c.type == D3DPT_TRIANGLESTRIP ? UINT(c.indices.size()) - 2 : UINT(c.indices.size()) / 3;
      if (c.up) {
        HR(dev->DrawIndexedPrimitiveUP(c.type, 0, kVertexCount, primitives, c.indices.data(), D3DFMT_INDEX16,
                                       data.data(), sizeof(TLVertex)));
        return;
      }
      IDirect3DVertexBuffer9 *vb = nullptr;
      IDirect3DIndexBuffer9 *ib = nullptr;
      HR(dev->CreateVertexBuffer(UINT(data.size() * sizeof(TLVertex)), D3DUSAGE_WRITEONLY, kTLVertexFVF,
                                 D3DPOOL_MANAGED, &vb, nullptr));
      HR(dev->CreateIndexBuffer(UINT(c.indices.size() * sizeof(WORD)), D3DUSAGE_WRITEONLY, D3DFMT_INDEX16,
                                D3DPOOL_MANAGED, &ib, nullptr));
      void *p = nullptr;
      HR(vb->Lock(0, 0, &p, 0));
      std::memcpy(p, data.data(), data.size() * sizeof(TLVertex));
      HR(vb->Unlock());
      HR(ib->Lock(0, 0, &p, 0));
      std::memcpy(p, c.indices.data(), c.indices.size() * sizeof(WORD));
      HR(ib->Unlock());
      HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
      HR(dev->SetIndices(ib));
      HR(dev->DrawIndexedPrimitive(c.type, 0, 0xfffc, 4, 0, primitives));
      HR(dev->SetStreamSource(0, nullptr, 0, 0));
      HR(dev->SetIndices(nullptr));
      CHECK(vb->Release() == 0);
      CHECK(ib->Release() == 0);
    }, 0);
    for (const Rendered &r : rendered) {
      INFO(r.backend << ": " << c.name);
      for (UINT y : {1u, 32u, 62u})
        for (UINT x : {1u, 32u, 62u}) probe(r, x, y, kGreen, 0);
    }
  }
}
