// Surfaces and copies on every backend: DEFAULT-pool offscreen plain surfaces and lockable render
// targets (LockRect reads the GPU's texels, UnlockRect writes them), UpdateSurface into render
// targets, StretchRect within one surface, from texture levels and from a multisampled surface
// with scaling, D3DLOCK_DISCARD / NOOVERWRITE on dynamic textures between draws, and a DXT1
// memory plain surface sent into a texture by UpdateSurface. Probed against the texels D3D9
// defines.
#include <catch2/catch.hpp>

#include <cstring>
#include <utility>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kWhite = 0xffffffff,
                   kBlack = 0xff000000, kYellow = 0xffffff00, kMagenta = 0xffff00ff, kCyan = 0xff00ffff;

RECT rect(LONG l, LONG t, LONG r, LONG b) { return RECT{l, t, r, b}; }

// Writes `c` into every texel of r of a locked 32-bit surface (lr points at r's top left).
void paint(const D3DLOCKED_RECT &lr, UINT width, UINT height, D3DCOLOR c) {
  for (UINT y = 0; y < height; ++y)
    for (UINT x = 0; x < width; ++x) std::memcpy(static_cast<uint8_t *>(lr.pBits) + y * UINT(lr.Pitch) + x * 4, &c, 4);
}

D3DCOLOR texel_at(const D3DLOCKED_RECT &lr, UINT x, UINT y) {
  D3DCOLOR c;
  std::memcpy(&c, static_cast<const uint8_t *>(lr.pBits) + y * UINT(lr.Pitch) + x * 4, 4);
  return c;
}

struct TexVertex {
  float x, y, z, w;
  float u, v, s, q;
};

const D3DVERTEXELEMENT9 kTexVertexElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// A quad over target pixels [px0, px1) x [py0, py1) of the 64 x 64 target, sampling u in [u0, u1].
void tex_quad(IDirect3DDevice9 *dev, float px0, float py0, float px1, float py1, float u0, float u1) {
  auto cx = [](float px) { return px / 64.0f * 2.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 64.0f * 2.0f; };
  TexVertex v[4] = {{cx(px0), cy(py0), 0.5f, 1, u0, 0, 0, 1},
                    {cx(px1), cy(py0), 0.5f, 1, u1, 0, 0, 1},
                    {cx(px0), cy(py1), 0.5f, 1, u0, 1, 0, 1},
                    {cx(px1), cy(py1), 0.5f, 1, u1, 1, 0, 1}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TexVertex)));
}

} // namespace

TEST_CASE("DEFAULT offscreen plain surfaces lock, fill and copy", "[scenes][copies]") {
  auto rendered = render_all("copy_plain_surface", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *plain = nullptr, *plain2 = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr));
    HR(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &plain2, nullptr));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // Written through LockRect: red everywhere, then a green rectangle through a second lock.
    D3DLOCKED_RECT lr;
    HR(plain->LockRect(&lr, nullptr, 0));
    paint(lr, 16, 16, kRed);
    HR(plain->UnlockRect());
    RECT part = rect(8, 0, 16, 8);
    HR(plain->LockRect(&lr, &part, 0));
    CHECK((texel_at(lr, 0, 0) & 0xffffff) == (kRed & 0xffffff)); // the first lock's texels, read back
    paint(lr, 8, 8, kGreen);
    HR(plain->UnlockRect());
    // ColorFill of a rectangle, then a read-only lock sees every write.
    RECT bottom = rect(0, 8, 16, 16);
    HR(dev->ColorFill(plain, &bottom, kBlue));
    HR(plain->LockRect(&lr, nullptr, D3DLOCK_READONLY));
    CHECK((texel_at(lr, 0, 0) & 0xffffff) == (kRed & 0xffffff));
    CHECK((texel_at(lr, 15, 0) & 0xffffff) == (kGreen & 0xffffff));
    CHECK((texel_at(lr, 5, 12) & 0xffffff) == (kBlue & 0xffffff));
    HR(plain->UnlockRect());
    // Plain to plain (unstretched), then plain to the back buffer, magnified.
    HR(dev->StretchRect(plain, nullptr, plain2, nullptr, D3DTEXF_NONE));
    RECT dst = rect(0, 0, 32, 32);
    HR(dev->StretchRect(plain2, nullptr, back, &dst, D3DTEXF_POINT));
    CHECK(plain->Release() == 0);
    CHECK(plain2->Release() == 0);
    CHECK(back->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 0, 0, kRed, 0);
    probe(r, 15, 15, kRed, 0);
    probe(r, 16, 0, kGreen, 0);
    probe(r, 31, 15, kGreen, 0);
    probe(r, 0, 16, kBlue, 0);
    probe(r, 31, 31, kBlue, 0);
    probe(r, 40, 40, kBlack, 0);
  }
}

TEST_CASE("Lockable render targets read back on LockRect and upload on UnlockRect", "[scenes][copies]") {
  auto rendered = render_all("copy_lockable_target", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *rt = nullptr, *sys = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateRenderTarget(32, 32, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, TRUE, &rt, nullptr));
    HR(dev->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // Drawn into: cleared yellow while bound, then read through LockRect.
    HR(dev->SetRenderTarget(0, rt));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kYellow, 1.0f, 0));
    HR(dev->SetRenderTarget(0, back));
    D3DLOCKED_RECT lr;
    HR(rt->LockRect(&lr, nullptr, 0));
    CHECK(texel_at(lr, 0, 0) == kYellow);
    CHECK(texel_at(lr, 31, 31) == kYellow);
    HR(rt->UnlockRect());
    // A rectangle written through a lock goes back to the GPU; the rest keeps its texels.
    RECT part = rect(0, 0, 16, 16);
    HR(rt->LockRect(&lr, &part, 0));
    paint(lr, 16, 16, kMagenta);
    HR(rt->UnlockRect());
    // UpdateSurface from system memory into the render target (a SYSTEMMEM source, a DEFAULT
    // render-target destination).
    HR(sys->LockRect(&lr, nullptr, 0));
    paint(lr, 8, 8, kCyan);
    HR(sys->UnlockRect());
    POINT at{24, 24};
    HR(dev->UpdateSurface(sys, nullptr, rt, &at));
    HR(dev->StretchRect(rt, nullptr, back, nullptr, D3DTEXF_POINT)); // 32 x 32 to 64 x 64
    CHECK(rt->Release() == 0);
    CHECK(sys->Release() == 0);
    CHECK(back->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 0, 0, kMagenta, 0);
    probe(r, 31, 31, kMagenta, 0);
    probe(r, 32, 0, kYellow, 0);
    probe(r, 40, 40, kYellow, 0);
    probe(r, 48, 48, kCyan, 0);
    probe(r, 63, 63, kCyan, 0);
  }
}

TEST_CASE("StretchRect copies within one surface, from texture levels and from a multisampled surface with scaling",
          "[scenes][copies]") {
  auto rendered = render_all("copy_stretch_sources", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *ms = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // Within the back buffer: a 16 x 16 red square at (0, 0) with a green top-left 8 x 8 quadrant,
    // copied onto itself 8 texels right and down (the rectangles overlap: the source is read
    // whole first).
    RECT red_sq = rect(0, 0, 16, 16), green_sq = rect(0, 0, 8, 8);
    HR(dev->ColorFill(back, &red_sq, kRed));
    HR(dev->ColorFill(back, &green_sq, kGreen));
    RECT to = rect(8, 8, 24, 24);
    HR(dev->StretchRect(back, &red_sq, back, &to, D3DTEXF_NONE));

    // From a DEFAULT texture's levels (not a render target), filled through UpdateTexture.
    IDirect3DTexture9 *sys = nullptr, *tex = nullptr;
    HR(dev->CreateTexture(8, 8, 2, 0, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr));
    HR(dev->CreateTexture(8, 8, 2, 0, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr));
    D3DLOCKED_RECT lr;
    HR(sys->LockRect(0, &lr, nullptr, 0));
    paint(lr, 8, 8, kBlue);
    HR(sys->UnlockRect(0));
    HR(sys->LockRect(1, &lr, nullptr, 0));
    paint(lr, 4, 4, kWhite);
    HR(sys->UnlockRect(1));
    HR(dev->UpdateTexture(sys, tex));
    IDirect3DSurface9 *level0 = nullptr, *level1 = nullptr;
    HR(tex->GetSurfaceLevel(0, &level0));
    HR(tex->GetSurfaceLevel(1, &level1));
    RECT dst0 = rect(32, 0, 48, 16), dst1 = rect(48, 0, 52, 4);
    HR(dev->StretchRect(level0, nullptr, back, &dst0, D3DTEXF_LINEAR)); // magnified twice
    HR(dev->StretchRect(level1, nullptr, back, &dst1, D3DTEXF_NONE));

    // A multisampled target, cleared in four quadrants, resolved and magnified in one call.
    HR(dev->CreateRenderTarget(16, 16, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->SetRenderTarget(0, ms));
    D3DRECT quads[4] = {{0, 0, 8, 8}, {8, 0, 16, 8}, {0, 8, 8, 16}, {8, 8, 16, 16}};
    const D3DCOLOR colours[4] = {kRed, kGreen, kBlue, kWhite};
    for (int i = 0; i < 4; ++i) HR(dev->Clear(1, &quads[i], D3DCLEAR_TARGET, colours[i], 1.0f, 0));
    HR(dev->SetRenderTarget(0, back));
    RECT dst_ms = rect(32, 32, 64, 64);
    HR(dev->StretchRect(ms, nullptr, back, &dst_ms, D3DTEXF_POINT));
    level0->Release();
    level1->Release();
    CHECK(tex->Release() == 0);
    CHECK(sys->Release() == 0);
    CHECK(ms->Release() == 0);
    CHECK(back->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 0, 0, kGreen, 0);   // the source's untouched corner
    probe(r, 7, 12, kRed, 0);    // left of the copy: the old red square
    probe(r, 8, 8, kGreen, 0);   // the copy's green quadrant (the source before the copy)
    probe(r, 15, 15, kGreen, 0);
    probe(r, 16, 8, kRed, 0);    // the copy's red part
    probe(r, 23, 23, kRed, 0);
    probe(r, 24, 24, kBlack, 0);
    probe(r, 32, 0, kBlue, 0); // texture level 0, magnified
    probe(r, 47, 15, kBlue, 0);
    probe(r, 48, 0, kWhite, 0); // texture level 1
    probe(r, 51, 3, kWhite, 0);
    probe(r, 52, 0, kBlack, 0);
    probe(r, 32, 32, kRed, 0); // the resolved quadrants, each 16 x 16 now
    probe(r, 47, 47, kRed, 0);
    probe(r, 48, 32, kGreen, 0);
    probe(r, 32, 48, kBlue, 0);
    probe(r, 63, 63, kWhite, 0);
  }
}

TEST_CASE("DISCARD and NOOVERWRITE locks of dynamic textures keep each draw's texels", "[scenes][copies]") {
  auto rendered = render_all("copy_dynamic_texture_locks", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    ShaderSet shaders(dev, "vs20_pass_texcoord_v1", "ps20_texld", kTexVertexElements);
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(2, 1, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr));
    HR(dev->SetTexture(0, tex));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    D3DLOCKED_RECT lr;
    // Draw 1 samples red texels; a DISCARD lock then gives the texture green ones for draw 2, while
    // draw 1, already queued, keeps its red.
    HR(tex->LockRect(0, &lr, nullptr, D3DLOCK_DISCARD));
    paint(lr, 2, 1, kRed);
    HR(tex->UnlockRect(0));
    tex_quad(dev, 0, 0, 16, 64, 0.25f, 0.25f);
    HR(tex->LockRect(0, &lr, nullptr, D3DLOCK_DISCARD));
    paint(lr, 2, 1, kGreen);
    HR(tex->UnlockRect(0));
    tex_quad(dev, 16, 0, 32, 64, 0.25f, 0.25f); // the left texel
    // NOOVERWRITE: only the right texel, which no queued draw samples, becomes blue.
    RECT right = rect(1, 0, 2, 1);
    HR(tex->LockRect(0, &lr, &right, D3DLOCK_NOOVERWRITE));
    paint(lr, 1, 1, kBlue);
    HR(tex->UnlockRect(0));
    tex_quad(dev, 32, 0, 48, 64, 0.75f, 0.75f); // the right texel
    tex_quad(dev, 48, 0, 64, 64, 0.25f, 0.25f); // the left texel, still green
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    shaders.release(dev);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 8, 32, kRed, 0);
    probe(r, 24, 32, kGreen, 0);
    probe(r, 40, 32, kBlue, 0);
    probe(r, 56, 32, kGreen, 0);
  }
}

TEST_CASE("StretchRect copies depth and stencil between depth-stencil surfaces outside a scene", "[scenes][copies]") {
  auto rendered = render_all("copy_depth_stencil", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *a = nullptr, *b = nullptr;
    HR(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &a, nullptr));
    HR(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &b, nullptr));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // a: depth 0.2 on the left half and 0.8 on the right; stencil 1 on the top half, 0 below.
    HR(dev->SetDepthStencilSurface(a));
    D3DRECT left{0, 0, 32, 64}, right{32, 0, 64, 64}, top{0, 0, 64, 32}, bottom{0, 32, 64, 64};
    HR(dev->Clear(1, &left, D3DCLEAR_ZBUFFER, 0, 0.2f, 0));
    HR(dev->Clear(1, &right, D3DCLEAR_ZBUFFER, 0, 0.8f, 0));
    HR(dev->Clear(1, &top, D3DCLEAR_STENCIL, 0, 0.0f, 1));
    HR(dev->Clear(1, &bottom, D3DCLEAR_STENCIL, 0, 0.0f, 0));
    // b starts elsewhere (depth 0, stencil 2), then receives a whole; inside a scene D3D9 refuses.
    HR(dev->SetDepthStencilSurface(b));
    HR(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 0.0f, 2));
    HR(dev->SetDepthStencilSurface(nullptr));
    CHECK(dev->StretchRect(a, nullptr, b, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
    HR(dev->EndScene());
    // LINEAR, as Windows takes it: one size, so the texels copy exactly.
    HR(dev->StretchRect(a, nullptr, b, nullptr, D3DTEXF_LINEAR));
    HR(dev->BeginScene());
    // A green quad at depth 0.5 through b: passes LESS where b's depth is 0.8, and EQUAL 1 where
    // its stencil is 1, so only the top right quarter is green.
    HR(dev->SetDepthStencilSurface(b));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL));
    HR(dev->SetRenderState(D3DRS_STENCILREF, 1));
    TLVertex v[4] = {{-0.5f, -0.5f, 0.5f, 1, kGreen}, {63.5f, -0.5f, 0.5f, 1, kGreen},
                     {-0.5f, 63.5f, 0.5f, 1, kGreen}, {63.5f, 63.5f, 0.5f, 1, kGreen}};
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, FALSE));
    HR(dev->SetDepthStencilSurface(nullptr));
    CHECK(a->Release() == 0);
    CHECK(b->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 48, 8, kGreen, 0);
    probe(r, 63, 31, kGreen, 0);
    probe(r, 8, 8, kBlack, 0);   // depth 0.2: the quad fails LESS
    probe(r, 48, 48, kBlack, 0); // stencil 0: fails EQUAL 1
    probe(r, 8, 48, kBlack, 0);
  }
}

TEST_CASE("UpdateSurface sends a DXT1 SYSTEMMEM plain surface's blocks into a texture", "[scenes][copies]") {
  // Four one-colour DXT1 blocks (colour 0 = colour 1, every index 0) written through the plain
  // surface's LockRect, two of them through a lock of their own rectangle; the texture drawn
  // 8x magnified with point sampling.
  auto block = [](uint16_t rgb565) { return uint64_t(rgb565) | uint64_t(rgb565) << 16; };
  const uint64_t red = block(0xf800), green = block(0x07e0), blue = block(0x001f), white = block(0xffff);
  auto rendered = render_all("copy_dxt1_plain_surface", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *plain = nullptr, *level = nullptr;
    IDirect3DTexture9 *tex = nullptr;
    IDirect3DVertexDeclaration9 *decl = nullptr;
    HR(dev->CreateOffscreenPlainSurface(8, 8, D3DFMT_DXT1, D3DPOOL_SYSTEMMEM, &plain, nullptr));
    D3DLOCKED_RECT lr;
    HR(plain->LockRect(&lr, nullptr, 0));
    std::memcpy(lr.pBits, &red, 8);
    std::memcpy(static_cast<uint8_t *>(lr.pBits) + 8, &green, 8);
    HR(plain->UnlockRect());
    for (const auto &[r, b] : {std::pair{rect(0, 4, 4, 8), blue}, std::pair{rect(4, 4, 8, 8), white}}) {
      HR(plain->LockRect(&lr, &r, 0));
      std::memcpy(lr.pBits, &b, 8);
      HR(plain->UnlockRect());
    }
    HR(dev->CreateTexture(8, 8, 1, 0, D3DFMT_DXT1, D3DPOOL_DEFAULT, &tex, nullptr));
    HR(tex->GetSurfaceLevel(0, &level));
    HR(dev->UpdateSurface(plain, nullptr, level, nullptr));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->CreateVertexDeclaration(kTexVertexElements, &decl));
    HR(dev->SetVertexDeclaration(decl));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetTexture(0, tex));
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
    tex_quad(dev, 0, 0, 64, 64, 0, 1);
    HR(dev->SetTexture(0, nullptr));
    level->Release();
    CHECK(tex->Release() == 0);
    CHECK(plain->Release() == 0);
    CHECK(decl->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 2, 2, kRed, 0);
    probe(r, 30, 30, kRed, 0);
    probe(r, 33, 2, kGreen, 0);
    probe(r, 2, 33, kBlue, 0);
    probe(r, 61, 61, kWhite, 0);
  }
}
