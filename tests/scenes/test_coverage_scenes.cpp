// Scenes for areas no other scene file covers: viewport depth ranges and offsets, clip-space z
// clipping, clears of several rectangles, filtering at a texel boundary and on minification,
// SetLOD, explicit and biased mip selection, MIPFILTER NONE, four samplers in one shader, lines
// with depth and blending, degenerate triangles, indexed fans and strips with offsets, index
// buffer updates, perspective-correct RHW interpolation, specular of pre-transformed vertices,
// DESTALPHA on X8 and A8 targets, SRCALPHASAT, oDepth, pixel shader boolean and integer
// constants, call/callnz, per-vertex if_gt, gradients, semantic linkage of up to ten inputs,
// relative constant addressing and arithmetic instructions of vs_1_1, vs_2_0 and ps_2_0. Every
// probe is a value computed from D3D9's documented rules.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kBlack = 0xff000000;
constexpr D3DCOLOR kWhite = 0xffffffff, kYellow = 0xffffff00;

// A vertex in clip space (or object space with identity transforms) with a colour and a 2D
// texture coordinate; usable as FVF (kClipFVF) and through kClipElements.
struct ClipVertex {
  float x, y, z;
  D3DCOLOR color;
  float u, v;
};
constexpr DWORD kClipFVF = D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1;
const D3DVERTEXELEMENT9 kClipElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    {0, 16, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// A quad covering viewport pixels [px0, px1) x [py0, py1) of a `w` x `h` viewport at clip z `z`
// (w = 1), with texture coordinates (u0, v0) at its top left and (u1, v1) at its bottom right.
void clip_quad(IDirect3DDevice9 *dev, float px0, float py0, float px1, float py1, float z, D3DCOLOR c,
               float u0 = 0, float v0 = 0, float u1 = 1, float v1 = 1, float w = 64, float h = 64) {
  auto cx = [w](float px) { return px / w * 2.0f - 1.0f; };
  auto cy = [h](float py) { return 1.0f - py / h * 2.0f; };
  ClipVertex v[4] = {{cx(px0), cy(py0), z, c, u0, v0},
                     {cx(px1), cy(py0), z, c, u1, v0},
                     {cx(px0), cy(py1), z, c, u0, v1},
                     {cx(px1), cy(py1), z, c, u1, v1}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ClipVertex)));
}

// A pre-transformed quad (clockwise strip) with texture coordinates.
struct TLTexVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
  float u, v;
};
constexpr DWORD kTLTexFVF = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;

void tl_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR c, float z = 0.5f,
             float u0 = 0, float v0 = 0, float u1 = 1, float v1 = 1) {
  TLTexVertex v[4] = {{x0, y0, z, 1, c, u0, v0}, {x1, y0, z, 1, c, u1, v0}, {x0, y1, z, 1, c, u0, v1},
                      {x1, y1, z, 1, c, u1, v1}};
  HR(dev->SetFVF(kTLTexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLTexVertex)));
}

// Fills level `level` of an A8R8G8B8 texture texel by texel through LockRect.
void fill(IDirect3DTexture9 *tex, UINT level, const std::function<D3DCOLOR(UINT, UINT)> &texel) {
  D3DSURFACE_DESC d;
  HR(tex->GetLevelDesc(level, &d));
  D3DLOCKED_RECT lr;
  HR(tex->LockRect(level, &lr, nullptr, 0));
  for (UINT j = 0; j < d.Height; ++j)
    for (UINT i = 0; i < d.Width; ++i) {
      D3DCOLOR c = texel(i, j);
      std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
    }
  HR(tex->UnlockRect(level));
}

// A managed A8R8G8B8 texture whose level k is the solid colour colours[k].
IDirect3DTexture9 *solid_levels(IDirect3DDevice9 *dev, UINT size, const std::vector<D3DCOLOR> &colours) {
  IDirect3DTexture9 *tex = nullptr;
  HR(dev->CreateTexture(size, size, UINT(colours.size()), 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
  for (UINT k = 0; k < colours.size(); ++k) fill(tex, k, [&](UINT, UINT) { return colours[k]; });
  return tex;
}

void point_sampling(IDirect3DDevice9 *dev, D3DTEXTUREFILTERTYPE mip) {
  HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, mip));
}

template <class T> void fill_buffer(IDirect3DVertexBuffer9 *vb, const std::vector<T> &data) {
  void *p = nullptr;
  HR(vb->Lock(0, 0, &p, 0));
  std::memcpy(p, data.data(), data.size() * sizeof(T));
  HR(vb->Unlock());
}

template <class T> void fill_buffer(IDirect3DIndexBuffer9 *ib, const std::vector<T> &data) {
  void *p = nullptr;
  HR(ib->Lock(0, 0, &p, 0));
  std::memcpy(p, data.data(), data.size() * sizeof(T));
  HR(ib->Unlock());
}

} // namespace

TEST_CASE("scene: viewport MinZ and MaxZ map clip-space depth into a sub-range", "[scene][coverage]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto images = render_all("coverage_viewport_depth_range", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetFVF(kClipFVF));
    // Depth = MinZ + z * (MaxZ - MinZ): z = 0 lands at 0.5 here.
    D3DVIEWPORT9 upper{0, 0, 64, 64, 0.5f, 1.0f};
    HR(dev->SetViewport(&upper));
    clip_quad(dev, 0, 0, 64, 64, 0.0f, kRed);
    D3DVIEWPORT9 full{0, 0, 64, 64, 0.0f, 1.0f};
    HR(dev->SetViewport(&full));
    clip_quad(dev, 0, 0, 32, 48, 0.4f, kGreen); // 0.4 < 0.5: passes LESSEQUAL
    clip_quad(dev, 32, 0, 64, 48, 0.6f, kBlue); // 0.6 > 0.5: fails
    // z = 0.8 in [0, 0.25] is 0.2: in front of green's 0.4 and red's 0.5.
    D3DVIEWPORT9 lower{0, 0, 64, 64, 0.0f, 0.25f};
    HR(dev->SetViewport(&lower));
    clip_quad(dev, 0, 48, 64, 64, 0.8f, kYellow);
    clip_quad(dev, 0, 0, 16, 16, 0.8f, kWhite);
  }, 0);
  probe(images, {{24, 24, kGreen, 0},
                 {48, 24, kRed, 0},
                 {16, 56, kYellow, 0},
                 {48, 56, kYellow, 0},
                 {8, 8, kWhite, 0}});
}

TEST_CASE("scene: a viewport offset within the target places and clips transformed geometry", "[scene][coverage]") {
  auto images = render_all("coverage_viewport_offset", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetFVF(kClipFVF));
    // Screen x = X + (x + 1) * Width / 2, screen y = Y + (1 - y) * Height / 2.
    D3DVIEWPORT9 vp{16, 8, 32, 40, 0.0f, 1.0f};
    HR(dev->SetViewport(&vp));
    clip_quad(dev, 0, 0, 32, 40, 0.5f, kBlue, 0, 0, 1, 1, 32, 40);  // the whole viewport
    clip_quad(dev, 0, 0, 16, 20, 0.5f, kGreen, 0, 0, 1, 1, 32, 40); // its top-left quarter
    // Reaching past the viewport's right and bottom edges: clipped to them.
    clip_quad(dev, 24, 30, 60, 60, 0.5f, kRed, 0, 0, 1, 1, 32, 40);
  }, 0);
  probe(images, {{17, 9, kGreen, 0},  // viewport (1, 1)
                 {30, 26, kGreen, 0}, // viewport (14, 18)
                 {33, 9, kBlue, 0},   // right of the quarter
                 {17, 29, kBlue, 0},  // below it
                 {41, 39, kRed, 0},   // viewport (25, 31)
                 {47, 47, kRed, 0},   // the viewport's last pixel
                 {15, 9, kBlack, 0},
                 {17, 7, kBlack, 0},
                 {49, 47, kBlack, 0},
                 {47, 49, kBlack, 0},
                 {56, 56, kBlack, 0}});
}

TEST_CASE("scene: clip-space z is clipped to [0, w], not [-w, w]", "[scene][coverage]") {
  auto images = render_all("coverage_depth_clipping", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->SetFVF(kClipFVF));
    // Top band: z runs from -0.5 (left) to 0.5 (right); D3D9 clips z < 0, the left half.
    ClipVertex near_band[4] = {{-1, 1, -0.5f, kGreen, 0, 0}, {1, 1, 0.5f, kGreen, 0, 0},
                               {-1, 0, -0.5f, kGreen, 0, 0}, {1, 0, 0.5f, kGreen, 0, 0}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, near_band, sizeof(ClipVertex)));
    // Bottom band: z runs from 0.5 to 1.5; z > w = 1 is clipped, the right half.
    ClipVertex far_band[4] = {{-1, 0, 0.5f, kBlue, 0, 0}, {1, 0, 1.5f, kBlue, 0, 0},
                              {-1, -1, 0.5f, kBlue, 0, 0}, {1, -1, 1.5f, kBlue, 0, 0}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, far_band, sizeof(ClipVertex)));
  }, 0);
  probe(images, {{6, 16, kBlack, 0},
                 {26, 16, kBlack, 0},
                 {38, 16, kGreen, 0},
                 {58, 16, kGreen, 0},
                 {6, 48, kBlue, 0},
                 {26, 48, kBlue, 0},
                 {38, 48, kBlack, 0},
                 {58, 48, kBlack, 0}});
}

TEST_CASE("scene: one Clear of several rectangles clears colour and depth inside them only", "[scene][coverage]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto images = render_all("coverage_clear_several_rects", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    D3DRECT rects[3] = {{0, 0, 16, 16}, {24, 8, 40, 24}, {48, 40, 64, 64}};
    HR(dev->Clear(3, rects, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kRed, 0.25f, 0));
    tl_quad(dev, 0, 0, 64, 64, kGreen, 0.5f); // fails the depth test inside the rectangles only
  }, 0);
  probe(images, {{0, 0, kRed, 0},
                 {15, 15, kRed, 0},
                 {16, 16, kGreen, 0}, // x2 and y2 are exclusive
                 {24, 8, kRed, 0},
                 {39, 23, kRed, 0},
                 {40, 8, kGreen, 0},
                 {32, 24, kGreen, 0},
                 {48, 40, kRed, 0},
                 {63, 63, kRed, 0},
                 {47, 63, kGreen, 0},
                 {20, 40, kGreen, 0}});
}

TEST_CASE("scene: point and linear magnification around a texel boundary", "[scene][coverage][texture]") {
  auto images = render_all("coverage_filter_boundary", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    // Two texel columns: black, then red. Pixel x samples u = x / 64 (D3D9 pixel centres are
    // integers), so texel space 2u - 0.5 puts the texel centres at pixels 16 and 48.
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    fill(tex, 0, [](UINT i, UINT) { return i ? kRed : kBlack; });
    HR(dev->SetTexture(0, tex));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_CLAMP));
    point_sampling(dev, D3DTEXF_NONE);
    tl_quad(dev, 0, 0, 64, 32, kWhite, 0.5f, 0, 0, 1, 0.5f);
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR));
    tl_quad(dev, 0, 32, 64, 64, kWhite, 0.5f, 0, 0.5f, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 2);
  probe(images, {{4, 16, kBlack, 0},
                 {30, 16, kBlack, 0},
                 {34, 16, kRed, 0},
                 {60, 16, kRed, 0},
                 {8, 48, kBlack, 2},      // clamped below the first texel centre
                 {16, 48, kBlack, 2},     // the first texel centre
                 {24, 48, 0xff400000, 2}, // a quarter of the way: 63.75
                 {32, 48, 0xff800000, 2}, // half way: 127.5
                 {40, 48, 0xffbf0000, 2}, // three quarters: 191.25
                 {56, 48, kRed, 2}});
}

TEST_CASE("scene: SetLOD makes a lower level the most detailed one", "[scene][coverage][texture]") {
  auto images = render_all("coverage_set_lod", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DTexture9 *tex = solid_levels(dev, 8, {kRed, kGreen, kBlue});
    HR(dev->SetTexture(0, tex));
    point_sampling(dev, D3DTEXF_POINT);
    CHECK(tex->GetLOD() == 0);
    tl_quad(dev, 0, 0, 32, 32, kWhite); // magnified: level 0
    CHECK(tex->SetLOD(1) == 0);         // returns the previous LOD
    tl_quad(dev, 32, 0, 64, 32, kWhite);
    CHECK(tex->SetLOD(2) == 1);
    CHECK(tex->GetLOD() == 2);
    tl_quad(dev, 0, 32, 32, 64, kWhite);
    CHECK(tex->SetLOD(0) == 2);
    tl_quad(dev, 32, 32, 64, 64, kWhite);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 0);
  probe(images, {{16, 16, kRed, 0},
                 {48, 16, kGreen, 0},
                 {16, 48, kBlue, 0},
                 {48, 48, kRed, 0}});
}

TEST_CASE("scene: ps_3_0 texldl picks a level, MIPFILTER LINEAR blends two", "[scene][coverage][texture]") {
  auto images = render_all("coverage_texldl", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_color_texcoord", "ps30_texldl_c0", kClipElements);
    IDirect3DTexture9 *tex = solid_levels(dev, 8, {kRed, kGreen, kBlue});
    HR(dev->SetTexture(0, tex));
    point_sampling(dev, D3DTEXF_LINEAR);
    auto draw = [&](float lod, float x0, float y0) {
      const float c0[4] = {0, 0, 0, lod}; // texldl reads the level of detail from .w
      HR(dev->SetPixelShaderConstantF(0, c0, 1));
      clip_quad(dev, x0, y0, x0 + 32, y0 + 32, 0.5f, kWhite);
    };
    draw(0.0f, 0, 0);
    draw(1.0f, 32, 0);
    draw(0.5f, 0, 32);  // half level 0, half level 1
    draw(1.25f, 32, 32); // three quarters level 1, a quarter level 2
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 2);
  probe(images, {{16, 16, kRed, 0},
                 {48, 16, kGreen, 0},
                 {16, 48, 0xff808000, 2},
                 {48, 48, 0xff00bf40, 2}});
}

TEST_CASE("scene: ps_2_0 texldb adds its bias to the computed level of detail", "[scene][coverage][texture]") {
  auto images = render_all("coverage_texldb", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    ShaderSet s(dev, "", "ps20_texldb_c0", kClipElements);
    // 64 texels over 64 pixels: level of detail 0 before the bias.
    IDirect3DTexture9 *tex = solid_levels(dev, 64, {kRed, kGreen, kBlue});
    HR(dev->SetTexture(0, tex));
    point_sampling(dev, D3DTEXF_POINT);
    auto draw = [&](float bias, float y0) {
      const float c0[4] = {0, 0, 0, bias}; // texldb reads the bias from .w
      HR(dev->SetPixelShaderConstantF(0, c0, 1));
      clip_quad(dev, 0, y0, 64, y0 + 16, 0.5f, kWhite, 0, y0 / 64, 1, (y0 + 16) / 64);
    };
    draw(0.0f, 0);
    draw(1.0f, 16);
    draw(2.0f, 32);
    draw(-1.0f, 48); // below level 0: level 0
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {{32, 8, kRed, 0},
                 {32, 24, kGreen, 0},
                 {32, 40, kBlue, 0},
                 {32, 56, kRed, 0}});
}

TEST_CASE("scene: indexed triangle fan and line strip with StartIndex, BaseVertexIndex and MinVertexIndex", "[scene][coverage][index]") {
  auto images = render_all("coverage_indexed_fan_strip", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    // Red vertices covering the target would show wherever an offset is ignored.
    std::vector<TLVertex> v = {
        {0, 0, 0.5f, 1, kRed}, {64, 0, 0.5f, 1, kRed}, {0, 64, 0.5f, 1, kRed}, {64, 64, 0.5f, 1, kRed},
        // 4..9: a fan over [0, 32) x [0, 32)
        {16, 16, 0.5f, 1, kGreen}, {0, 0, 0.5f, 1, kGreen}, {32, 0, 0.5f, 1, kGreen}, {32, 32, 0.5f, 1, kGreen},
        {0, 32, 0.5f, 1, kGreen}, {0, 0, 0.5f, 1, kGreen},
        // 10..12: a line strip
        {40, 8, 0.5f, 1, kBlue}, {60, 8, 0.5f, 1, kBlue}, {60, 40, 0.5f, 1, kBlue},
        // 13..16: a quad over [0, 32) x [32, 64)
        {0, 32, 0.5f, 1, kYellow}, {32, 32, 0.5f, 1, kYellow}, {0, 64, 0.5f, 1, kYellow}, {32, 64, 0.5f, 1, kYellow}};
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(UINT(v.size() * sizeof(TLVertex)), D3DUSAGE_WRITEONLY, kTLVertexFVF, D3DPOOL_DEFAULT, &vb, nullptr));
    fill_buffer(vb, v);
    IDirect3DIndexBuffer9 *ib16 = nullptr, *ib32 = nullptr;
    HR(dev->CreateIndexBuffer(14 * 2, D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib16, nullptr));
    fill_buffer(ib16, std::vector<uint16_t>{0, 3, 0, 1, 2, 3, 4, 5, 2, 3, 4, 3, 5, 4});
    HR(dev->CreateIndexBuffer(4 * 4, D3DUSAGE_WRITEONLY, D3DFMT_INDEX32, D3DPOOL_DEFAULT, &ib32, nullptr));
    fill_buffer(ib32, std::vector<uint32_t>{3, 0, 1, 2});
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetIndices(ib16));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLEFAN, 4, 0, 6, 2, 4)); // indices 2..7, vertices 4..9
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 11, 2, 4, 8, 2)); // indices 8..13 from 2: vertices 13..16
    HR(dev->SetIndices(ib32));
    HR(dev->DrawIndexedPrimitive(D3DPT_LINESTRIP, 10, 0, 3, 1, 2)); // indices 1..3, vertices 10..12
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(ib16->Release() == 0);
    CHECK(ib32->Release() == 0);
    CHECK(vb->Release() == 0);
  }, 0);
  probe(images, {{4, 16, kGreen, 0},
                 {16, 4, kGreen, 0},
                 {28, 16, kGreen, 0},
                 {16, 28, kGreen, 0},
                 {16, 48, kYellow, 0},
                 {50, 8, kBlue, 0},  // the strip's first segment, mid-way
                 {60, 24, kBlue, 0}, // its second
                 {50, 24, kBlack, 0},
                 {48, 56, kBlack, 0}});
}

TEST_CASE("scene: index buffer updates are ordered with draws", "[scene][coverage][index]") {
  auto images = render_all("coverage_index_updates", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // Four bands of four vertices each: red, green, blue, white from the top.
    const D3DCOLOR colours[4] = {kRed, kGreen, kBlue, kWhite};
    std::vector<TLVertex> v;
    for (int b = 0; b < 4; ++b) {
      float y0 = 16.0f * float(b), y1 = y0 + 16;
      for (TLVertex t : {TLVertex{0, y0, 0.5f, 1, colours[b]}, TLVertex{64, y0, 0.5f, 1, colours[b]},
                         TLVertex{0, y1, 0.5f, 1, colours[b]}, TLVertex{64, y1, 0.5f, 1, colours[b]}})
        v.push_back(t);
    }
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(UINT(v.size() * sizeof(TLVertex)), D3DUSAGE_WRITEONLY, kTLVertexFVF, D3DPOOL_DEFAULT, &vb, nullptr));
    fill_buffer(vb, v);
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateIndexBuffer(12 * 2, D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetIndices(ib));
    auto band = [&](UINT first_index, DWORD flags, uint16_t b) {
      void *p = nullptr;
      HR(ib->Lock(first_index * 2, 12, &p, flags));
      const uint16_t q = uint16_t(4 * b);
      const uint16_t idx[6] = {q, uint16_t(q + 1), uint16_t(q + 2), uint16_t(q + 1), uint16_t(q + 3), uint16_t(q + 2)};
      std::memcpy(p, idx, sizeof idx);
      HR(ib->Unlock());
      HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 16, first_index, 2));
    };
    band(0, D3DLOCK_DISCARD, 0);
    band(6, D3DLOCK_NOOVERWRITE, 1); // appended while the first draw is pending
    band(0, D3DLOCK_DISCARD, 2);     // replaces what the first draw read
    band(0, 0, 3);                   // a plain lock: still ordered
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(ib->Release() == 0);
    CHECK(vb->Release() == 0);
  }, 0);
  probe(images, {{32, 8, kRed, 0},
                 {32, 24, kGreen, 0},
                 {32, 40, kBlue, 0},
                 {32, 56, kWhite, 0}});
}

TEST_CASE("scene: texture coordinates of pre-transformed vertices interpolate with RHW", "[scene][coverage]") {
  auto images = render_all("coverage_rhw_perspective", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_texcoord_color").data(), &ps));
    HR(dev->SetPixelShader(ps));
    // Left vertices rhw 1, right ones rhw 1/3, drawn as two triangles split along the diagonal
    // from (64, 0) to (0, 64). Within a triangle with screen-space weights b_i, D3D9 interpolates
    // u = sum(b_i u_i rhw_i) / sum(b_i rhw_i).
    const float r = 1.0f / 3.0f;
    TLTexVertex v[4] = {{0, 0, 0.5f, 1, kWhite, 0, 0}, {64, 0, 0.5f, r, kWhite, 1, 0},
                        {0, 64, 0.5f, 1, kWhite, 0, 1}, {64, 64, 0.5f, r, kWhite, 1, 1}};
    HR(dev->SetFVF(kTLTexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLTexVertex)));
    HR(dev->SetPixelShader(nullptr));
    CHECK(ps->Release() == 0);
  }, 2);
  for (const auto &r : images) {
    // Top-left triangle, weights x / 64 of (64, 0) and y / 64 of (0, 64):
    probe(r, 16, 16, 0xff1a4d00, 2); // u = 0.25 / 2.5 = 0.1 (25.5), v = 0.25 / (5 / 6) = 0.3 (76.5)
    probe(r, 32, 16, 0xff406000, 2); // u = 0.5 / 2 = 0.25, v = 0.25 / (2 / 3) = 0.375 (95.6)
    // Bottom-right triangle, weights 0.25 of (64, 0), 0.5 of (64, 64), 0.25 of (0, 64):
    probe(r, 48, 48, 0xff80d500, 2); // u = (0.75 / 3) / 0.5 = 0.5, v = (0.5 / 3 + 0.25) / 0.5 = 0.833 (212.5)
  }
}

TEST_CASE("scene: SPECULARENABLE adds the specular colour of pre-transformed vertices", "[scene][coverage][ff]") {
  struct Vertex {
    float x, y, z, rhw;
    D3DCOLOR diffuse, specular;
  };
  auto images = render_all("coverage_tl_specular", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR));
    auto quad = [&](float x0, float y0, D3DCOLOR d, D3DCOLOR s) {
      Vertex v[4] = {{x0, y0, 0.5f, 1, d, s}, {x0 + 32, y0, 0.5f, 1, d, s}, {x0, y0 + 32, 0.5f, 1, d, s},
                     {x0 + 32, y0 + 32, 0.5f, 1, d, s}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
    };
    quad(0, 0, 0xff402000, 0xff204080); // SPECULARENABLE defaults to FALSE
    HR(dev->SetRenderState(D3DRS_SPECULARENABLE, TRUE));
    quad(32, 0, 0xff402000, 0xff204080);
    quad(0, 32, 0xffc0c0c0, 0xff80ff10); // the sum saturates per channel
    HR(dev->SetRenderState(D3DRS_SPECULARENABLE, FALSE));
    quad(32, 32, 0xffc0c0c0, 0xff80ff10);
  }, 0);
  probe(images, {{16, 16, 0xff402000, 0},
                 {48, 16, 0xff606080, 0},
                 {16, 48, 0xffffffd0, 0},
                 {48, 48, 0xffc0c0c0, 0}});
}

namespace {

// Blends white with DESTALPHA and the destination with INVDESTALPHA over a clear whose alpha is
// 0x40: an X8R8G8B8 target has no alpha and reads a destination alpha of 1.
std::vector<Rendered> render_dest_alpha(const char *name, D3DFORMAT format) {
  SceneSetup setup;
  setup.back_buffer = format;
  return render_all(name, setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0x40102030, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_DESTALPHA));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ZERO));
    tl_quad(dev, 0, 0, 32, 64, kWhite);
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVDESTALPHA));
    tl_quad(dev, 32, 0, 64, 64, kWhite);
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
  }, 1);
}

} // namespace

TEST_CASE("scene: DESTALPHA reads the alpha of A8R8G8B8 and 1 on X8R8G8B8", "[scene][coverage][blend]") {
  for (const auto &r : render_dest_alpha("coverage_dest_alpha_a8", D3DFMT_A8R8G8B8)) {
    probe(r, 16, 32, 0xff404040, 1);
    probe(r, 48, 32, 0xff0c1824, 1); // (0x10, 0x20, 0x30) * 0xbf / 255
  }
  for (const auto &r : render_dest_alpha("coverage_dest_alpha_x8", D3DFMT_X8R8G8B8)) {
    probe(r, 16, 32, kWhite, 0);
    probe(r, 48, 32, kBlack, 0);
  }
}

TEST_CASE("scene: ps_2_0 oDepth replaces the interpolated depth", "[scene][coverage][shader]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto images = render_all("coverage_odepth", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_odepth").data(), &ps)); // writes depth 0.25
    HR(dev->SetPixelShader(ps));
    tl_quad(dev, 0, 0, 64, 64, kRed, 0.75f);
    HR(dev->SetPixelShader(nullptr));
    tl_quad(dev, 0, 0, 32, 64, kGreen, 0.5f); // behind 0.25: hidden
    tl_quad(dev, 32, 0, 64, 64, kBlue, 0.125f);
    CHECK(ps->Release() == 0);
  }, 0);
  for (const auto &r : images) {
    probe(r, 16, 32, kRed, 0);
    probe(r, 48, 32, kBlue, 0);
  }
}

// Without a depth-stencil surface the depth a pixel shader writes goes nowhere (the frontend draws
// a variant without the write: lavapipe crashes on a depth write with no depth attachment); bound
// again, the same shader writes depth.
TEST_CASE("scene: ps_2_0 oDepth with no depth-stencil surface bound draws its colour", "[scene][coverage][shader]") {
  auto images = render_all("coverage_odepth_no_depth", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_odepth").data(), &ps)); // writes depth 0.25
    HR(dev->SetPixelShader(ps));
    tl_quad(dev, 0, 0, 64, 32, kRed, 0.75f);
    IDirect3DSurface9 *ds = nullptr;
    HR(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
    HR(dev->SetDepthStencilSurface(ds));
    HR(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER, 0, 1.0f, 0));
    tl_quad(dev, 0, 32, 64, 64, kRed, 0.75f);
    HR(dev->SetPixelShader(nullptr));
    tl_quad(dev, 0, 32, 32, 64, kGreen, 0.5f); // behind 0.25: hidden
    HR(dev->SetDepthStencilSurface(nullptr));
    CHECK(ds->Release() == 0);
    CHECK(ps->Release() == 0);
  }, 0);
  for (const auto &r : images) {
    probe(r, 32, 16, kRed, 0);
    probe(r, 16, 48, kRed, 0);
    probe(r, 48, 48, kRed, 0);
  }
}

TEST_CASE("scene: ps_3_0 rep over i0 and if b0 set with SetPixelShaderConstantI and B", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps30_bool_int", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_color_texcoord", "ps30_bool_int_consts", kClipElements);
    auto draw = [&](int count, BOOL b, float x0, float y0, float x1, float y1) {
      const int i0[4] = {count, 0, 0, 0};
      HR(dev->SetPixelShaderConstantI(0, i0, 1));
      HR(dev->SetPixelShaderConstantB(0, &b, 1));
      clip_quad(dev, x0, y0, x1, y1, 0.5f, kWhite);
    };
    // r0 = (0.25 * i0.x, b0 ? 1 : 0, b0 ? 0 : 1, 1)
    draw(2, TRUE, 0, 0, 32, 32);
    draw(3, FALSE, 32, 0, 64, 32);
    draw(0, TRUE, 0, 32, 64, 64);
    s.release(dev);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 16, 0xff80ff00, 1);
    probe(r, 48, 16, 0xffbf00ff, 1);
    probe(r, 32, 48, kGreen, 0);
  }
}

TEST_CASE("scene: ps_3_0 dsx and dsy of a linear texture coordinate", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps30_gradients", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_color_texcoord", "ps30_derivatives", kClipElements);
    // u grows 1/64 per pixel to the right, v 2/64 per pixel downwards (D3D9's screen y points
    // down): red = dsx(u) * 32 = 0.5, green = dsy(v) * 8 = 0.25, blue = dsx(v) = 0.
    clip_quad(dev, 0, 0, 64, 64, 0.5f, kWhite, 0, 0, 1, 2);
    s.release(dev);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 16, 0xff804000, 1);
    probe(r, 47, 40, 0xff804000, 1);
  }
}

TEST_CASE("scene: vs_3_0 outputs reach ps_3_0 inputs by usage and index, not register", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps30_semantics", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // The vertex shader writes TEXCOORD0 = 0.25 in o1 and TEXCOORD2 = 0.75 in o3; the pixel
    // shader reads TEXCOORD2 in v0 and TEXCOORD0 in v1.
    ShaderSet s(dev, "vs30_semantic_out", "ps30_semantic_in", kClipElements);
    clip_quad(dev, 0, 0, 64, 64, 0.5f, kWhite);
    s.release(dev);
  }, 1);
  for (const auto &r : images) probe(r, 32, 32, 0xffbf4000, 1);
}

TEST_CASE("scene: vs_2_0 mova and relative constant addressing", "[scene][coverage][shader]") {
  struct Vertex {
    float x, y, z, index;
  };
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_FLOAT1, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
      D3DDECL_END()};
  auto images = render_all("coverage_vs20_relative", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs20_relative_color", "ps20_pass_color", elements);
    const float colours[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}};
    HR(dev->SetVertexShaderConstantF(4, &colours[0][0], 4)); // the shader reads c4[a0.x]
    auto quad = [&](float x0, float y0, float index) {
      float cx0 = x0 / 32 - 1, cy0 = 1 - y0 / 32;
      Vertex v[4] = {{cx0, cy0, 0.5f, index}, {cx0 + 1, cy0, 0.5f, index}, {cx0, cy0 - 1, 0.5f, index},
                     {cx0 + 1, cy0 - 1, 0.5f, index}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
    };
    quad(0, 0, 0.0f);
    quad(32, 0, 1.0f);
    quad(0, 32, 2.0f);
    quad(32, 32, 2.75f); // mova rounds to the nearest integer: 3
    s.release(dev);
  }, 0);
  probe(images, {{16, 16, kRed, 0},
                 {48, 16, kGreen, 0},
                 {16, 48, kBlue, 0},
                 {48, 48, kYellow, 0}});
}

TEST_CASE("scene: MIPFILTER NONE keeps to level 0 on a minified quad", "[scene][coverage][texture]") {
  auto images = render_all("coverage_mipfilter_none", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // 64 texels over 16 pixels: level of detail 2.
    IDirect3DTexture9 *tex = solid_levels(dev, 64, {kRed, kGreen, kBlue});
    HR(dev->SetTexture(0, tex));
    point_sampling(dev, D3DTEXF_NONE);
    tl_quad(dev, 8, 24, 24, 40, kWhite);
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
    tl_quad(dev, 40, 24, 56, 40, kWhite);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 0);
  for (const auto &r : images) {
    probe(r, 16, 32, kRed, 0);
    probe(r, 48, 32, kBlue, 0);
  }
}

TEST_CASE("scene: MINFILTER LINEAR averages two texels at 2:1 minification", "[scene][coverage][texture]") {
  auto images = render_all("coverage_minify_linear", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    // 128 columns, odd ones red, over 64 pixels: pixel x samples texel coordinate 2x - 0.5,
    // half-way between column 2x - 1 (red) and 2x (black).
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(128, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    fill(tex, 0, [](UINT i, UINT) { return i % 2 ? kRed : kBlack; });
    HR(dev->SetTexture(0, tex));
    point_sampling(dev, D3DTEXF_NONE);
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    tl_quad(dev, 0, 0, 64, 32, kWhite);
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
    // Point sampling three quarters into a texel pair: pixel x samples column floor(2x + 0.5) = 2x.
    tl_quad(dev, 0, 32, 64, 64, kWhite, 0.5f, 0.25f / 128, 0, 1 + 0.25f / 128, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 1);
  for (const auto &r : images) {
    // 127.5 within the filter's sub-texel precision (lavapipe and llvmpipe weigh in 1/256ths).
    for (uint32_t x : {5u, 20u, 33u, 62u}) probe(r, x, 16, 0xff800000, 2);
    for (uint32_t x : {5u, 20u, 33u, 62u}) probe(r, x, 48, kBlack, 0);
  }
}

TEST_CASE("scene: lines are depth-tested and blended", "[scene][coverage]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto images = render_all("coverage_lines_depth_blend", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    tl_quad(dev, 0, 0, 32, 64, kGreen, 0.5f);
    HR(dev->SetFVF(kTLVertexFVF));
    auto line = [&](float y, float z, D3DCOLOR c) {
      TLVertex v[2] = {{4, y, z, 1, c}, {60, y, z, 1, c}};
      HR(dev->DrawPrimitiveUP(D3DPT_LINELIST, 1, v, sizeof(TLVertex)));
    };
    line(16, 0.75f, kRed);  // behind the green half
    line(40, 0.25f, kBlue); // in front everywhere
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
    line(52, 0.1f, 0x80ffffff);
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
  }, 1);
  probe(images, {{16, 16, kGreen, 0},
                 {48, 16, kRed, 0},
                 {16, 40, kBlue, 0},
                 {48, 40, kBlue, 0},
                 {16, 52, 0xff80ff80, 1}, // white * 128/255 + green * 127/255
                 {48, 52, 0xff808080, 1},
                 {48, 28, kBlack, 0}});
}

TEST_CASE("scene: degenerate and zero-area triangles draw nothing", "[scene][coverage]") {
  auto images = render_all("coverage_degenerate_triangles", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetFVF(kTLVertexFVF));
    // Two quads in one strip, stitched by four triangles that repeat a vertex.
    TLVertex strip[10] = {{0, 0, 0.5f, 1, kRed},    {16, 0, 0.5f, 1, kRed},   {0, 16, 0.5f, 1, kRed},
                          {16, 16, 0.5f, 1, kRed},  {16, 16, 0.5f, 1, kRed},  {40, 0, 0.5f, 1, kGreen},
                          {40, 0, 0.5f, 1, kGreen}, {56, 0, 0.5f, 1, kGreen}, {40, 16, 0.5f, 1, kGreen},
                          {56, 16, 0.5f, 1, kGreen}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 8, strip, sizeof(TLVertex)));
    // Three collinear vertices along row 40.
    TLVertex line[3] = {{0, 40, 0.5f, 1, kBlue}, {32, 40, 0.5f, 1, kBlue}, {64, 40, 0.5f, 1, kBlue}};
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, line, sizeof(TLVertex)));
  }, 0);
  for (const auto &r : images) {
    probe(r, 8, 8, kRed, 0);
    probe(r, 48, 8, kGreen, 0);
    for (uint32_t x : {18u, 28u, 38u}) probe(r, x, 4, kBlack, 0);
    probe(r, 28, 14, kBlack, 0);
    for (uint32_t x : {1u, 16u, 32u, 48u, 62u}) {
      probe(r, x, 39, kBlack, 0);
      probe(r, x, 40, kBlack, 0);
    }
  }
}

TEST_CASE("scene: vs_1_1 lit, frc, dst and expp give D3D9's values", "[scene][coverage][shader]") {
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};
  auto images = render_all("coverage_vs11_lit_dst", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    auto half = [&](const char *vs, float x0) {
      ShaderSet s(dev, vs, "", elements);
      float v[4][3] = {{x0, 1, 0.5f}, {x0 + 1, 1, 0.5f}, {x0, -1, 0.5f}, {x0 + 1, -1, 0.5f}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
      s.release(dev);
    };
    // lit (0.5, 0.5, 0, 2) = (1, 0.5, 0.5^2, 1); frc(2.75) = 0.75.
    half("vs11_lit_frc", -1);
    // dst((_, 0.5), (_, 0.75)).y = 0.375; expp(-1.5) = (2^-2, 0.5, 2^-1.5, 1).
    half("vs11_dst_expp", 0);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 32, 0xff8040bf, 1);
    probe(r, 48, 32, 0xff60405a, 1); // 95.6, 63.75, 90.2
  }
}

TEST_CASE("scene: ten vs_3_0 outputs reach ten ps_3_0 inputs by semantic", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps30_ten_inputs", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // TEXCOORD0-7 carry 0.1 to 0.8, COLOR0 0.9 and COLOR1 0.15, written to shuffled output
    // registers; the pixel shader turns any difference into red and shows COLOR1 in blue.
    ShaderSet s(dev, "vs30_ten_outputs", "ps30_ten_inputs", kClipElements);
    clip_quad(dev, 0, 0, 64, 64, 0.5f, kWhite);
    s.release(dev);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 16, 0xff00ff26, 1);
    probe(r, 48, 48, 0xff00ff26, 1);
  }
}

TEST_CASE("scene: SRCALPHASAT blends by min(source alpha, 1 - destination alpha)", "[scene][coverage][blend]") {
  SceneSetup setup;
  setup.back_buffer = D3DFMT_A8R8G8B8;
  auto images = render_all("coverage_srcalphasat", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xc0000000, 1.0f, 0)); // destination alpha 0.753
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHASAT));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ZERO));
    tl_quad(dev, 0, 0, 32, 64, 0xffffffff); // min(1, 63/255): 63
    tl_quad(dev, 32, 0, 64, 64, 0x20ffffff); // min(32/255, 63/255): 32
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 32, 0xff3f3f3f, 1);
    probe(r, 48, 32, 0xff202020, 1);
  }
}

TEST_CASE("scene: ps_2_0 reads four samplers, each its own texture", "[scene][coverage][texture]") {
  auto images = render_all("coverage_four_samplers", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_four_samplers").data(), &ps));
    HR(dev->SetPixelShader(ps));
    const D3DCOLOR colours[4] = {kRed, kGreen, kBlue, kWhite};
    IDirect3DTexture9 *tex[4];
    for (DWORD s = 0; s < 4; ++s) {
      tex[s] = solid_levels(dev, 1, {colours[s]});
      HR(dev->SetTexture(s, tex[s]));
    }
    tl_quad(dev, 0, 0, 64, 64, kWhite);
    for (DWORD s = 0; s < 4; ++s) {
      HR(dev->SetTexture(s, nullptr));
      CHECK(tex[s]->Release() == 0);
    }
    HR(dev->SetPixelShader(nullptr));
    CHECK(ps->Release() == 0);
  }, 1);
  // s0 + s1 / 2 + s2 / 4 + s3 / 8 = (1.125 saturated, 0.625, 0.375)
  for (const auto &r : images) probe(r, 32, 32, 0xffff9f60, 1);
}

TEST_CASE("scene: ps_3_0 call and callnz on boolean constants", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps30_callnz", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_color_texcoord", "ps30_callnz", kClipElements);
    // l1 adds 0.25 to red and runs once more unconditionally; l2 adds 0.5 to green.
    auto draw = [&](BOOL b0, BOOL b1, float x0, float y0) {
      const BOOL b[2] = {b0, b1};
      HR(dev->SetPixelShaderConstantB(0, b, 2));
      clip_quad(dev, x0, y0, x0 + 32, y0 + 32, 0.5f, kWhite);
    };
    draw(TRUE, TRUE, 0, 0);
    draw(FALSE, TRUE, 32, 0);
    draw(TRUE, FALSE, 0, 32);
    draw(FALSE, FALSE, 32, 32);
    s.release(dev);
  }, 1);
  probe(images, {{16, 16, 0xff808000, 1},
                 {48, 16, 0xff408000, 1},
                 {16, 48, 0xff800000, 1},
                 {48, 48, 0xff400000, 1}});
}

TEST_CASE("scene: vs_3_0 if_gt branches per vertex on an attribute", "[scene][coverage][shader]") {
  auto images = render_all("coverage_vs30_if_gt", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // Red where the vertex's u > 0.5, else blue.
    ShaderSet s(dev, "vs30_if_gt", "ps30_pass_color", kClipElements);
    clip_quad(dev, 0, 0, 32, 32, 0.5f, kWhite, 1, 0, 1, 0);
    clip_quad(dev, 32, 0, 64, 32, 0.5f, kWhite, 0, 0, 0, 0);
    clip_quad(dev, 0, 32, 64, 64, 0.5f, kWhite, 0, 0, 1, 0); // blue on the left, red on the right
    s.release(dev);
  }, 2);
  probe(images, {{16, 16, kRed, 0},
                 {48, 16, kBlue, 0},
                 {16, 48, 0xff4000bf, 2}, // a quarter of the way from blue to red
                 {48, 48, 0xffbf0040, 2}});
}

TEST_CASE("scene: vs_2_0 sge, slt, exp, log and pow give D3D9's values", "[scene][coverage][shader]") {
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};
  auto images = render_all("coverage_vs20_exp_log", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs20_sge_exp_log_pow", "", elements);
    float v[4][3] = {{-1, 1, 0.5f}, {1, 1, 0.5f}, {-1, -1, 0.5f}, {1, -1, 0.5f}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
    s.release(dev);
  }, 1);
  // red: sge(0.5, 0.25) * 0.5 + slt(0.25, 0.5) * 0.25 = 0.75; green: exp is 2^x: 2^-2 = 0.25;
  // blue: pow(0.25, 0.5) * 0.5 + log2(0.5) * -0.25 = 0.5.
  for (const auto &r : images) probe(r, 32, 32, 0xffbf4080, 1);
}

TEST_CASE("scene: ps_2_0 lrp, dp2add, nrm and crs give D3D9's values", "[scene][coverage][shader]") {
  auto images = render_all("coverage_ps20_lrp_dp2add", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_lrp_dp2add_nrm_crs").data(), &ps));
    HR(dev->SetPixelShader(ps));
    tl_quad(dev, 0, 0, 64, 64, kWhite);
    HR(dev->SetPixelShader(nullptr));
    CHECK(ps->Release() == 0);
  }, 1);
  // red: lrp(0.25, 0.75, 0.5) = 0.5625; green: dp2add((0.25, 0.75), (0.5, 0.5), 0.25) = 0.75;
  // blue: nrm(3, 4, 0).y * crs(x, y).z = 0.8.
  for (const auto &r : images) probe(r, 32, 32, 0xff8fbfcc, 1);
}
