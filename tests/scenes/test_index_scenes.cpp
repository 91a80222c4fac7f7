// Index buffers, indexed draws and several vertex streams, rendered through every backend that
// can start: images compared across backends and probed where D3D9 defines the colour.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kBlack = 0xff000000;
constexpr D3DCOLOR kYellow = 0xffffff00;

// A 5 x 5 grid of pre-transformed vertices 16 pixels apart covering a 64 x 64 target, all of
// one colour; vertex (i, j) is at index j * 5 + i.
std::vector<TLVertex> grid(D3DCOLOR c) {
  std::vector<TLVertex> v;
  for (int j = 0; j <= 4; ++j)
    for (int i = 0; i <= 4; ++i) v.push_back({16.0f * float(i), 16.0f * float(j), 0.5f, 1.0f, c});
  return v;
}

// Indices of the checkerboard's cells ((i + j) even) as two clockwise triangles each.
template <class Index> std::vector<Index> checkerboard() {
  std::vector<Index> out;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      if ((i + j) % 2) continue;
      Index tl = Index(j * 5 + i), tr = Index(tl + 1), bl = Index(tl + 5), br = Index(tl + 6);
      for (Index k : {tl, tr, bl, tr, br, bl}) out.push_back(k);
    }
  return out;
}

template <class T> void fill(IDirect3DVertexBuffer9 *vb, const std::vector<T> &data) {
  void *p = nullptr;
  HR(vb->Lock(0, 0, &p, 0));
  std::memcpy(p, data.data(), data.size() * sizeof(T));
  HR(vb->Unlock());
}

template <class T> void fill(IDirect3DIndexBuffer9 *ib, const std::vector<T> &data) {
  void *p = nullptr;
  HR(ib->Lock(0, 0, &p, 0));
  std::memcpy(p, data.data(), data.size() * sizeof(T));
  HR(ib->Unlock());
}

void probe_checkerboard(const Rendered &r, D3DCOLOR on, D3DCOLOR off) {
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) probe(r, uint32_t(16 * i + 8), uint32_t(16 * j + 8), (i + j) % 2 ? off : on, 0);
}

} // namespace

TEST_CASE("scene: indexed quad grid with 16-bit indices", "[scene][index]") {
  SceneSetup setup;
  auto images = render_all("index16_grid", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    auto vertices = grid(kGreen);
    auto indices = checkerboard<uint16_t>();
    IDirect3DVertexBuffer9 *vb = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(UINT(vertices.size() * sizeof(TLVertex)), D3DUSAGE_WRITEONLY, kTLVertexFVF,
                               D3DPOOL_DEFAULT, &vb, nullptr));
    HR(dev->CreateIndexBuffer(UINT(indices.size() * 2), D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    fill(vb, vertices);
    fill(ib, indices);
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetIndices(ib));
    // Two draws: the first four cells, then the rest from StartIndex 24.
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 25, 0, 8));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 25, 24, 8));
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(ib->Release() == 0);
    CHECK(vb->Release() == 0);
  }, 0);
  for (const auto &r : images) probe_checkerboard(r, kGreen, kBlack);
}

TEST_CASE("scene: 32-bit indices with a non-zero BaseVertexIndex", "[scene][index]") {
  SceneSetup setup;
  auto images = render_all("index32_base_vertex", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // 25 red vertices the draw must not read, then the blue grid.
    std::vector<TLVertex> vertices = grid(kRed);
    auto blue = grid(kBlue);
    vertices.insert(vertices.end(), blue.begin(), blue.end());
    // Six indices of padding (a red cell) skipped by StartIndex.
    std::vector<uint32_t> indices = {0, 1, 5, 1, 6, 5};
    auto cells = checkerboard<uint32_t>();
    indices.insert(indices.end(), cells.begin(), cells.end());
    IDirect3DVertexBuffer9 *vb = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(UINT(vertices.size() * sizeof(TLVertex)), 0, 0, D3DPOOL_DEFAULT, &vb, nullptr));
    HR(dev->CreateIndexBuffer(UINT(indices.size() * 4), 0, D3DFMT_INDEX32, D3DPOOL_DEFAULT, &ib, nullptr));
    fill(vb, vertices);
    fill(ib, indices);
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetIndices(ib));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 25, 0, 25, 6, 16));
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(ib->Release() == 0);
    CHECK(vb->Release() == 0);
  }, 0);
  for (const auto &r : images) probe_checkerboard(r, kBlue, kBlack);
}

TEST_CASE("scene: DrawIndexedPrimitiveUP, and what it leaves unset", "[scene][index]") {
  SceneSetup setup;
  auto images = render_all("index_up", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DVertexBuffer9 *vb = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(4 * sizeof(TLVertex), 0, 0, D3DPOOL_DEFAULT, &vb, nullptr));
    HR(dev->CreateIndexBuffer(12, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetIndices(ib));
    HR(dev->SetFVF(kTLVertexFVF));
    // Two vertices before MinVertexIndex; the indices count from the start of the array.
    const TLVertex v[] = {{0, 0, 0.5f, 1, kRed},      {64, 64, 0.5f, 1, kRed},      {0, 0, 0.5f, 1, kYellow},
                          {32, 0, 0.5f, 1, kYellow},  {0, 32, 0.5f, 1, kYellow},    {32, 32, 0.5f, 1, kYellow}};
    const uint16_t i16[] = {2, 3, 4, 3, 5, 4};
    HR(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 2, 4, 2, i16, D3DFMT_INDEX16, v, sizeof(TLVertex)));
    // The bottom-right cell as a strip with 32-bit indices.
    const TLVertex w[] = {{32, 32, 0.5f, 1, kGreen}, {64, 32, 0.5f, 1, kGreen}, {32, 64, 0.5f, 1, kGreen}, {64, 64, 0.5f, 1, kGreen}};
    const uint32_t i32[] = {0, 1, 2, 3};
    HR(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLESTRIP, 0, 4, 2, i32, D3DFMT_INDEX32, w, sizeof(TLVertex)));
    IDirect3DVertexBuffer9 *bound = reinterpret_cast<IDirect3DVertexBuffer9 *>(1);
    UINT offset = 1, stride = 1;
    HR(dev->GetStreamSource(0, &bound, &offset, &stride));
    CHECK(bound == nullptr);
    IDirect3DIndexBuffer9 *indices = reinterpret_cast<IDirect3DIndexBuffer9 *>(1);
    HR(dev->GetIndices(&indices));
    CHECK(indices == nullptr);
    CHECK(ib->Release() == 0);
    CHECK(vb->Release() == 0);
  }, 0);
  probe(images, {{16, 16, kYellow, 0},
                 {48, 48, kGreen, 0},
                 {48, 16, kBlack, 0},
                 {16, 48, kBlack, 0}});
}

TEST_CASE("scene: two streams through a vertex declaration", "[scene][index]") {
  SceneSetup setup;
  auto images = render_all("two_streams", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    struct Position { float x, y, z, rhw; };
    // Left half as a strip (vertices 0..3), right half as indexed corners (4..7).
    const std::vector<Position> positions = {{0, 0, 0.5f, 1},  {32, 0, 0.5f, 1},  {0, 64, 0.5f, 1},  {32, 64, 0.5f, 1},
                                             {32, 0, 0.5f, 1}, {64, 0, 0.5f, 1}, {32, 64, 0.5f, 1}, {64, 64, 0.5f, 1}};
    // Red for the first eight vertices, blue for the next eight (read through a stream offset).
    std::vector<D3DCOLOR> colors(8, kRed);
    colors.insert(colors.end(), 8, kBlue);
    const std::vector<uint16_t> indices = {0, 1, 2, 1, 3, 2};
    IDirect3DVertexBuffer9 *pb = nullptr, *cb = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(UINT(positions.size() * sizeof(Position)), 0, 0, D3DPOOL_DEFAULT, &pb, nullptr));
    HR(dev->CreateVertexBuffer(UINT(colors.size() * 4), 0, 0, D3DPOOL_DEFAULT, &cb, nullptr));
    HR(dev->CreateIndexBuffer(UINT(indices.size() * 2), 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    fill(pb, positions);
    fill(cb, colors);
    fill(ib, indices);
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITIONT, 0},
        {1, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        D3DDECL_END()};
    IDirect3DVertexDeclaration9 *decl = nullptr;
    HR(dev->CreateVertexDeclaration(elements, &decl));
    HR(dev->SetVertexDeclaration(decl));
    HR(dev->SetStreamSource(0, pb, 0, sizeof(Position)));
    HR(dev->SetStreamSource(1, cb, 0, sizeof(D3DCOLOR)));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    HR(dev->SetStreamSource(1, cb, 8 * sizeof(D3DCOLOR), sizeof(D3DCOLOR)));
    HR(dev->SetIndices(ib));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 4, 4, 4, 0, 2));
    // Without stream 1 the declaration cannot be fed.
    HR(dev->SetStreamSource(1, nullptr, 0, 0));
    CHECK(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2) == D3DERR_INVALIDCALL);
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    HR(dev->SetVertexDeclaration(nullptr));
    CHECK(decl->Release() == 0);
    CHECK(ib->Release() == 0);
    CHECK(cb->Release() == 0);
    CHECK(pb->Release() == 0);
  }, 0);
  probe(images, {{16, 32, kRed, 0},
                 {48, 32, kBlue, 0},
                 {2, 2, kRed, 0},
                 {61, 61, kBlue, 0}});
}

// A declaration change alone switches the streams a draw reads: the plugins must bind the new
// declaration's streams as its draw needs them although no SetStreamSource came between the
// draws. The stream offsets differ so that a plugin which binds buffers further back and moves
// the draws' first vertex instead (both plugins) needs another shift for each declaration.
TEST_CASE("scene: declarations reading other streams take turns with no SetStreamSource between", "[scene][index]") {
  SceneSetup setup;
  auto images = render_all("declarations_take_turns", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    struct Position { float x, y, z, rhw; };
    // Four positions not drawn, then quadrant q (top left, top right, bottom left, bottom right)
    // as the strip of vertices 4q..4q+3 after them.
    std::vector<Position> positions(4, Position{0, 0, 0.5f, 1});
    for (int q = 0; q < 4; ++q) {
      const float x = 32.0f * float(q % 2), y = 32.0f * float(q / 2);
      for (Position p : {Position{x, y, 0.5f, 1}, Position{x + 32, y, 0.5f, 1}, Position{x, y + 32, 0.5f, 1},
                         Position{x + 32, y + 32, 0.5f, 1}})
        positions.push_back(p);
    }
    // Stream 1, read from its fifth colour on: red where the left quadrants' vertices read it,
    // green four vertices before (what a draw reads with the wrong shift).
    std::vector<D3DCOLOR> reds;
    for (int i = 0; i < 20; ++i) reds.push_back((i / 4) % 2 ? kRed : kGreen);
    IDirect3DVertexBuffer9 *pb = nullptr, *red = nullptr, *blue = nullptr;
    // The colours first: where plugins suballocate buffers in order, stream 1's offset is then the
    // lowest in vertices, and each declaration's draws need their own shift.
    HR(dev->CreateVertexBuffer(UINT(reds.size() * 4), 0, 0, D3DPOOL_DEFAULT, &red, nullptr));
    HR(dev->CreateVertexBuffer(16 * 4, 0, 0, D3DPOOL_DEFAULT, &blue, nullptr));
    HR(dev->CreateVertexBuffer(UINT(positions.size() * sizeof(Position)), 0, 0, D3DPOOL_DEFAULT, &pb, nullptr));
    fill(pb, positions);
    fill(red, reds);
    fill(blue, std::vector<D3DCOLOR>(16, kBlue));
    IDirect3DVertexDeclaration9 *decl[2] = {};
    for (WORD s = 1; s <= 2; ++s) { // colour from stream 1 (red), then from stream 2 (blue)
      const D3DVERTEXELEMENT9 elements[] = {
          {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITIONT, 0},
          {s, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
          D3DDECL_END()};
      HR(dev->CreateVertexDeclaration(elements, &decl[s - 1]));
    }
    HR(dev->SetStreamSource(0, pb, 4 * sizeof(Position), sizeof(Position)));
    HR(dev->SetStreamSource(1, red, 4 * sizeof(D3DCOLOR), sizeof(D3DCOLOR)));
    HR(dev->SetStreamSource(2, blue, 0, sizeof(D3DCOLOR)));
    for (UINT q = 0; q < 4; ++q) {
      HR(dev->SetVertexDeclaration(decl[q % 2]));
      HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 4 * q, 2));
    }
    for (UINT s = 0; s < 3; ++s) HR(dev->SetStreamSource(s, nullptr, 0, 0));
    HR(dev->SetVertexDeclaration(nullptr));
    for (IDirect3DVertexDeclaration9 *d : decl) CHECK(d->Release() == 0);
    CHECK(blue->Release() == 0);
    CHECK(red->Release() == 0);
    CHECK(pb->Release() == 0);
  }, 0);
  probe(images, {{16, 16, kRed, 0},
                 {48, 16, kBlue, 0},
                 {16, 48, kRed, 0},
                 {48, 48, kBlue, 0}});
}
