// Scenes rendered through every backend that can start: images compared across backends and
// probed at pixels whose colour D3D9 defines.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kBlack = 0xff000000;
constexpr D3DCOLOR kWhite = 0xffffffff, kYellow = 0xffffff00, kGrey = 0xff808080;

D3DMATRIX perspective_lh(float fov_y, float aspect, float zn, float zf) {
  float ys = 1.0f / std::tan(fov_y / 2), xs = ys / aspect;
  D3DMATRIX m{};
  m._11 = xs, m._22 = ys, m._33 = zf / (zf - zn), m._34 = 1.0f, m._43 = -zn * zf / (zf - zn);
  return m;
}

// A quad as a clockwise triangle strip (top-left, top-right, bottom-left, bottom-right).
void quad_rhw(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR c, float z = 0.5f) {
  TLVertex v[4] = {{x0, y0, z, 1, c}, {x1, y0, z, 1, c}, {x0, y1, z, 1, c}, {x1, y1, z, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

} // namespace

TEST_CASE("scene: clear with rectangles and viewport", "[scene]") {
  SceneSetup setup;
  auto images = render_all("clear_rects", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    D3DRECT rects[2] = {{4, 4, 20, 20}, {30, 10, 60, 40}};
    HR(dev->Clear(1, &rects[0], D3DCLEAR_TARGET, kRed, 1.0f, 0));
    HR(dev->Clear(1, &rects[1], D3DCLEAR_TARGET, kGreen, 1.0f, 0));
    // A clear without rectangles covers the viewport only; rectangles are clipped to it.
    D3DVIEWPORT9 vp{40, 44, 20, 16, 0.0f, 1.0f};
    HR(dev->SetViewport(&vp));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kYellow, 1.0f, 0));
    D3DRECT corner{50, 50, 64, 64};
    HR(dev->Clear(1, &corner, D3DCLEAR_TARGET, kWhite, 1.0f, 0));
    // Clearing depth without a depth buffer is refused.
    CHECK(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER, 0, 1.0f, 0) == D3DERR_INVALIDCALL);
  }, 0);
  probe(images, {{3, 3, kBlue, 0},
                 {4, 4, kRed, 0},
                 {19, 19, kRed, 0},
                 {20, 20, kBlue, 0}, // D3DRECT's x2, y2 are exclusive
                 {45, 20, kGreen, 0},
                 {41, 45, kYellow, 0},
                 {55, 55, kWhite, 0},
                 {59, 59, kWhite, 0},
                 {60, 60, kBlue, 0}, // outside the viewport: untouched
                 {39, 45, kBlue, 0}});
}

// A rectangle count without rectangles clears as no rectangles do (the whole viewport), and
// rectangles with a count of 0 clear nothing, as Windows (wined3d: the latter "ignoring clear").
TEST_CASE("scene: Clear(1, NULL) clears the viewport and Clear(0, rects) nothing", "[scene]") {
  auto images = render_all("clear_counts", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    D3DVIEWPORT9 vp{0, 0, 32, 64, 0.0f, 1.0f};
    HR(dev->SetViewport(&vp));
    CHECK(dev->Clear(1, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0) == D3D_OK);
    const D3DRECT everything{0, 0, 64, 64};
    CHECK(dev->Clear(0, &everything, D3DCLEAR_TARGET, kGreen, 1.0f, 0) == D3D_OK);
  }, 0);
  probe(images, {{4, 4, kRed, 0}, {31, 60, kRed, 0}, {32, 4, kBlue, 0}, {60, 60, kBlue, 0}});
}

TEST_CASE("scene: pre-transformed vertex colours in every primitive type", "[scene]") {
  SceneSetup setup;
  setup.width = 96;
  setup.height = 64;
  auto images = render_all("primitives", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(kTLVertexFVF));
    // Points sit on pixel centres, which D3D9 puts on integer coordinates.
    TLVertex points[3] = {{4, 4, 0.5f, 1, kRed}, {8, 4, 0.5f, 1, kGreen}, {12, 6, 0.5f, 1, kBlue}};
    HR(dev->DrawPrimitiveUP(D3DPT_POINTLIST, 3, points, sizeof(TLVertex)));
    TLVertex lines[4] = {{36, 8, 0.5f, 1, kGreen}, {60, 8, 0.5f, 1, kGreen}, {36, 20, 0.5f, 1, kRed}, {60, 20, 0.5f, 1, kRed}};
    HR(dev->DrawPrimitiveUP(D3DPT_LINELIST, 2, lines, sizeof(TLVertex)));
    TLVertex strip[3] = {{70, 4, 0.5f, 1, kBlue}, {70, 28, 0.5f, 1, kBlue}, {90, 28, 0.5f, 1, kBlue}};
    HR(dev->DrawPrimitiveUP(D3DPT_LINESTRIP, 2, strip, sizeof(TLVertex)));

    // Triangles come from a vertex buffer: list, strip and fan, all clockwise on screen.
    TLVertex tri[] = {
        {2, 34, 0.5f, 1, kRed}, {30, 34, 0.5f, 1, kGreen}, {2, 62, 0.5f, 1, kBlue},                              // list
        {34, 34, 0.5f, 1, kWhite}, {62, 34, 0.5f, 1, kWhite}, {34, 62, 0.5f, 1, kYellow}, {62, 62, 0.5f, 1, kYellow}, // strip
        {80, 48, 0.5f, 1, kWhite}, {66, 34, 0.5f, 1, kRed}, {94, 34, 0.5f, 1, kRed}, {94, 62, 0.5f, 1, kGreen},
        {66, 62, 0.5f, 1, kGreen}, {66, 34, 0.5f, 1, kRed}, // fan
    };
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(sizeof tri, D3DUSAGE_WRITEONLY, kTLVertexFVF, D3DPOOL_DEFAULT, &vb, nullptr));
    void *data = nullptr;
    HR(vb->Lock(0, 0, &data, 0));
    std::memcpy(data, tri, sizeof tri);
    HR(vb->Unlock());
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 3, 2));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLEFAN, 7, 4));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(vb->Release() == 0);
  }, 2);
  probe(images, {{4, 4, kRed, 0},
                 {8, 4, kGreen, 0},
                 {12, 6, kBlue, 0},
                 {5, 5, kBlack, 0},      // a point covers one pixel
                 {48, 8, kGreen, 0},
                 {48, 20, kRed, 0},
                 {70, 16, kBlue, 0},
                 {80, 28, kBlue, 0},
                 {3, 35, kRed, 24},      // near the red corner of the list triangle
                 {28, 60, kBlack, 0},    // outside it
                 {48, 35, kWhite, 12},   // the strip's top edge is white
                 {48, 61, kYellow, 12},  // and its bottom yellow
                 {80, 35, kRed, 24},     // the fan's top triangle
                 {80, 61, kGreen, 24}}); // and its bottom one
}

TEST_CASE("scene: depth-tested geometry through world, view and projection", "[scene]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto images = render_all("depth", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    D3DMATRIX proj = perspective_lh(float(M_PI) / 2, 1.0f, 0.5f, 10.0f);
    HR(dev->SetTransform(D3DTS_PROJECTION, &proj));
    HR(dev->SetFVF(kColorVertexFVF));
    auto quad = [&](float x0, float x1, float y0, float y1, float z, D3DCOLOR c, float shift_z = 0) {
      // World translation moves the quad along z, to check the world matrix too.
      D3DMATRIX world{};
      world._11 = world._22 = world._33 = world._44 = 1.0f;
      world._43 = shift_z;
      HR(dev->SetTransform(D3DTS_WORLD, &world));
      ColorVertex v[4] = {{x0, y1, z, c}, {x1, y1, z, c}, {x0, y0, z, c}, {x1, y0, z, c}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ColorVertex)));
    };
    quad(-1.5f, 0.5f, -1.0f, 1.0f, 1.0f, kRed, 1.0f);  // near: z = 2
    quad(-1.0f, 3.0f, -2.0f, 2.0f, 4.0f, kGreen);      // far: z = 4, drawn after, hidden where red is
    // Without depth writes the blue quad leaves the depth buffer alone: yellow behind it wins.
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    quad(-1.8f, 1.8f, 1.5f, 1.8f, 2.0f, kBlue);
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, TRUE));
    quad(-2.7f, 2.7f, 2.25f, 2.7f, 3.0f, kYellow); // the same rows on screen at z = 3
  }, 1);
  probe(images, {{12, 32, kRed, 0},     // near only
                 {32, 32, kRed, 0},     // both: the near one wins
                 {50, 32, kGreen, 0},   // far only
                 {32, 60, kBlack, 0},   // neither
                 {32, 5, kYellow, 0}}); // the top band: yellow over a blue that wrote no depth
}

TEST_CASE("scene: alpha blending", "[scene]") {
  SceneSetup setup;
  auto images = render_all("blending", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
    quad_rhw(dev, 0, 0, 32, 32, 0x80ff0000); // red at alpha 128/255 over blue
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    quad_rhw(dev, 32, 0, 64, 32, kGreen); // additive
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_SRCCOLOR));
    quad_rhw(dev, 0, 32, 32, 64, kGrey); // modulate: blue * 128/255
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_REVSUBTRACT));
    quad_rhw(dev, 32, 32, 64, 64, 0xff000040); // dest - src: blue 255 - 64
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_ADD));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
  }, 1);
  probe(images, {{16, 16, 0xff80007f, 1},
                 {48, 16, 0xff00ffff, 0},
                 {16, 48, 0xff000080, 1},
                 {48, 48, 0xff0000bf, 0}});
}

TEST_CASE("scene: culling by winding", "[scene]") {
  SceneSetup setup;
  auto images = render_all("culling", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(kTLVertexFVF));
    auto tris = [&](float y, D3DCOLOR c) {
      TLVertex cw[3] = {{2, y, 0.5f, 1, c}, {30, y, 0.5f, 1, c}, {2, y + 18, 0.5f, 1, c}};
      TLVertex ccw[3] = {{34, y, 0.5f, 1, c}, {34, y + 18, 0.5f, 1, c}, {62, y, 0.5f, 1, c}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, cw, sizeof(TLVertex)));
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, ccw, sizeof(TLVertex)));
    };
    tris(1, kRed); // default D3DCULL_CCW: counter-clockwise triangles are culled
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_CW));
    tris(22, kGreen);
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    tris(43, kBlue);
  }, 0);
  probe(images, {{6, 4, kRed, 0},
                 {38, 4, kBlack, 0},
                 {6, 25, kBlack, 0},
                 {38, 25, kGreen, 0},
                 {6, 46, kBlue, 0},
                 {38, 46, kBlue, 0}});
}

TEST_CASE("scene: fixed-function lighting without lights gives ambient and emissive", "[scene]") {
  SceneSetup setup;
  auto images = render_all("lighting", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(kColorVertexFVF));
    D3DMATERIAL9 material{};
    material.Ambient = {1.0f, 0.5f, 0.25f, 1.0f};
    material.Emissive = {0.0f, 0.0f, 0.25f, 1.0f};
    HR(dev->SetMaterial(&material));
    HR(dev->SetRenderState(D3DRS_AMBIENT, 0x00808080));
    // Identity transforms: x, y in [-1, 1] cover the viewport.
    ColorVertex lit[4] = {{-1, 1, 0.5f, kWhite}, {0, 1, 0.5f, kWhite}, {-1, -1, 0.5f, kWhite}, {0, -1, 0.5f, kWhite}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, lit, sizeof(ColorVertex))); // LIGHTING defaults to TRUE
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    ColorVertex unlit[4] = {{0, 1, 0.5f, kYellow}, {1, 1, 0.5f, kYellow}, {0, -1, 0.5f, kYellow}, {1, -1, 0.5f, kYellow}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, unlit, sizeof(ColorVertex)));
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 32, 0xff804060, 1); // ambient (0.502) * (1, 0.5, 0.25) + emissive (0, 0, 0.25)
    probe(r, 48, 32, kYellow, 0);
  }
}

TEST_CASE("scene: vertex buffer updates are ordered with draws", "[scene]") {
  SceneSetup setup;
  auto images = render_all("buffer_updates", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(kTLVertexFVF));
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(8 * sizeof(TLVertex), D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, kTLVertexFVF,
                               D3DPOOL_DEFAULT, &vb, nullptr));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    auto write_quad = [&](UINT first, DWORD flags, float x0, D3DCOLOR c) {
      void *data = nullptr;
      HR(vb->Lock(first * sizeof(TLVertex), 4 * sizeof(TLVertex), &data, flags));
      TLVertex v[4] = {{x0, 0, 0.5f, 1, c}, {x0 + 16, 0, 0.5f, 1, c}, {x0, 64, 0.5f, 1, c}, {x0 + 16, 64, 0.5f, 1, c}};
      std::memcpy(data, v, sizeof v);
      HR(vb->Unlock());
    };
    write_quad(0, D3DLOCK_DISCARD, 0, kRed);
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    write_quad(4, D3DLOCK_NOOVERWRITE, 16, kGreen); // appended while the first draw is pending
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 4, 2));
    write_quad(0, D3DLOCK_DISCARD, 32, kBlue); // replaces what the first draw read
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    write_quad(0, 0, 48, kWhite); // a plain lock: still ordered
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(vb->Release() == 0);
  }, 0);
  probe(images, {{8, 32, kRed, 0},
                 {24, 32, kGreen, 0},
                 {40, 32, kBlue, 0},
                 {56, 32, kWhite, 0}});
}

TEST_CASE("scene: a second render target, and a viewport larger than the target", "[scene]") {
  SceneSetup setup;
  auto images = render_all("render_target", setup, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *target = nullptr, *copy = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    HR(dev->CreateRenderTarget(32, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr));
    HR(dev->SetRenderTarget(0, target));
    D3DVIEWPORT9 vp;
    HR(dev->GetViewport(&vp));
    CHECK((vp.X == 0 && vp.Y == 0 && vp.Width == 32 && vp.Height == 16)); // reset to the new target
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kGreen, 1.0f, 0));
    quad_rhw(dev, 8, 4, 24, 12, kRed);
    HR(dev->CreateOffscreenPlainSurface(32, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &copy, nullptr));
    HR(dev->GetRenderTargetData(target, copy));
    D3DLOCKED_RECT locked;
    HR(copy->LockRect(&locked, nullptr, D3DLOCK_READONLY));
    auto pixel = [&](int x, int y) {
      return static_cast<const DWORD *>(locked.pBits)[y * locked.Pitch / 4 + x] & 0xffffff;
    };
    CHECK(pixel(1, 1) == (kGreen & 0xffffff));
    CHECK(pixel(8, 4) == (kRed & 0xffffff));
    CHECK(pixel(23, 11) == (kRed & 0xffffff));
    CHECK(pixel(24, 12) == (kGreen & 0xffffff));
    HR(copy->UnlockRect());
    CHECK(copy->Release() == 0);

    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // d3d9 accepts a viewport reaching past the target; clears and draws stop at its edge.
    D3DVIEWPORT9 big{32, 32, 64, 64, 0.0f, 1.0f};
    HR(dev->SetViewport(&big));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    quad_rhw(dev, 40, 40, 200, 200, kYellow);
    CHECK(back->Release() == 0); // binding holds no public reference; the device keeps it alive
    CHECK(target->Release() == 0);
  }, 0);
  probe(images, {{31, 31, kBlack, 0},
                 {32, 32, kBlue, 0},
                 {39, 39, kBlue, 0},
                 {40, 40, kYellow, 0},
                 {63, 63, kYellow, 0}});
}
