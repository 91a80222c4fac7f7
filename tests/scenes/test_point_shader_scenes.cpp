// Points with shaders, drawn on every backend: D3DRS_POINTSIZE when the vertex shader writes no
// size, POINTSIZE_MIN/MAX clamping what it writes (a size of 0 too), and POINTSPRITEENABLE replacing the texture
// coordinates that pixel shaders of every model read. Each case is one point in a 16x16 cell,
// centred on the cell's middle (a pixel edge), so that an even size covers whole pixels and the
// probes just inside and outside its edges say its size.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kPoint = 0xffffc020, kClear = 0xff000040;
constexpr UINT kCell = 16, kColumns = 4, kRows = 4;

DWORD fbits(float f) { return std::bit_cast<DWORD>(f); }

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END()};

struct Case {
  const char *what;
  const char *vs, *ps;         // "" for the fixed-function stage
  float size, min, max;        // D3DRS_POINTSIZE, POINTSIZE_MIN, POINTSIZE_MAX
  float written;               // c0.x, which the *_psize_c0 vertex shaders write as the size
  bool sprite;                 // D3DRS_POINTSPRITEENABLE
  UINT expected;               // the point's size in pixels
  bool sprite_colour;          // the pixel shader shows the coordinates: (u, v, 0)
};

const Case kCases[] = {
    {"vs_1_1 without oPts: POINTSIZE", "vs11_pass_color", "", 8, 1, 64, 0, false, 8, false},
    {"vs_1_1 oPts clamped to POINTSIZE_MAX", "vs11_psize_c0", "", 1, 1, 4, 10, false, 4, false},
    {"vs_1_1 oPts clamped to POINTSIZE_MIN", "vs11_psize_c0", "", 1, 6, 64, 2, false, 6, false},
    {"vs_1_1 oPts wins over POINTSIZE", "vs11_psize_c0", "", 2, 1, 64, 8, false, 8, false},
    {"vs_2_0 without oPts, ps_2_0: POINTSIZE", "vs20_pass_color", "ps20_pass_color", 10, 1, 64, 0, false, 10, false},
    {"vs_3_0 without PSIZE, ps_3_0: POINTSIZE", "vs30_pass_color", "ps30_pass_color", 12, 1, 64, 0, false, 12, false},
    {"vs_3_0 PSIZE clamped to POINTSIZE_MAX", "vs30_psize_c0", "ps30_pass_color", 1, 1, 6, 14, false, 6, false},
    {"point sprite, ps_1_1 texcoord t0", "vs11_pass_color", "ps11_texcoord", 16, 1, 64, 0, true, 16, true},
    {"point sprite, ps_2_0 t0", "vs11_pass_color", "ps20_texcoord_color", 16, 1, 64, 0, true, 16, true},
    {"point sprite, ps_3_0 dcl_texcoord0", "vs30_pass_color", "ps30_texcoord_color", 16, 1, 64, 0, true, 16, true},
    {"point sprite, ps_2_0 after fixed-function vertices", "", "ps20_texcoord_color", 16, 1, 64, 0, true, 16, true},
    {"vs_1_1 without oPts: POINTSIZE 0 clamped to POINTSIZE_MIN", "vs11_pass_color", "", 0, 4, 64, 0, false, 4, false},
    {"vs_1_1 oPts 0 clamped to POINTSIZE_MIN", "vs11_psize_c0", "", 8, 2, 64, 0.0f, false, 2, false},
    {"fixed function: POINTSIZE clamped to POINTSIZE_MAX", "", "", 12, 6, 6, 0, false, 6, false},
};
static_assert(std::size(kCases) <= kColumns * kRows);

void draw_case(IDirect3DDevice9 *dev, const Case &c, UINT cell) {
  const float w = float(kColumns * kCell), h = float(kRows * kCell);
  // The cell's middle in D3D9 clip space: window coordinate x0 + 8 is D3D9 pixel x0 + 7.5.
  const float cx = float((cell % kColumns) * kCell + kCell / 2), cy = float((cell / kColumns) * kCell + kCell / 2);
  ColorVertex v{2 * cx / w - 1, 1 - 2 * cy / h, 0.5f, kPoint};
  HR(dev->SetRenderState(D3DRS_POINTSIZE, fbits(c.size)));
  HR(dev->SetRenderState(D3DRS_POINTSIZE_MIN, fbits(c.min)));
  HR(dev->SetRenderState(D3DRS_POINTSIZE_MAX, fbits(c.max)));
  HR(dev->SetRenderState(D3DRS_POINTSPRITEENABLE, c.sprite));
  ShaderSet s(dev, c.vs, c.ps, kElements);
  const float written[4] = {c.written, 0, 0, 0};
  HR(dev->SetVertexShaderConstantF(0, written, 1));
  HR(dev->DrawPrimitiveUP(D3DPT_POINTLIST, 1, &v, sizeof(ColorVertex)));
  s.release(dev);
}

// The sprite coordinate at pixel offset i of a 16-pixel sprite, as a colour channel.
DWORD sprite_channel(UINT i) { return DWORD(std::lround((float(i) + 0.5f) / 16.0f * 255.0f)); }

} // namespace

TEST_CASE("scene: point size and point sprites with vertex and pixel shaders", "[scene][points]") {
  SceneSetup setup;
  setup.width = kColumns * kCell, setup.height = kRows * kCell;
  auto images = render_all("point_shaders", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    for (UINT i = 0; i < std::size(kCases); ++i) draw_case(dev, kCases[i], i);
    HR(dev->SetRenderState(D3DRS_POINTSPRITEENABLE, FALSE));
  }, 4);
  for (const auto &r : images) {
    for (UINT i = 0; i < std::size(kCases); ++i) {
      const Case &c = kCases[i];
      INFO(c.what);
      const UINT x0 = (i % kColumns) * kCell, y0 = (i / kColumns) * kCell;
      const UINT first = kCell / 2 - c.expected / 2, last = kCell / 2 + c.expected / 2 - 1;
      if (c.sprite_colour) {
        probe(r, x0 + 4, y0 + 4, 0xff000000 | sprite_channel(4) << 16 | sprite_channel(4) << 8, 12);
        probe(r, x0 + 12, y0 + 4, 0xff000000 | sprite_channel(12) << 16 | sprite_channel(4) << 8, 12);
        probe(r, x0 + 4, y0 + 12, 0xff000000 | sprite_channel(4) << 16 | sprite_channel(12) << 8, 12);
        continue;
      }
      probe(r, x0 + first, y0 + kCell / 2, kPoint, 0);
      probe(r, x0 + last, y0 + kCell / 2, kPoint, 0);
      probe(r, x0 + kCell / 2, y0 + first, kPoint, 0);
      probe(r, x0 + kCell / 2, y0 + last, kPoint, 0);
      if (first > 0) {
        probe(r, x0 + first - 1, y0 + kCell / 2, kClear, 0);
        probe(r, x0 + last + 1, y0 + kCell / 2, kClear, 0);
        probe(r, x0 + kCell / 2, y0 + first - 1, kClear, 0);
        probe(r, x0 + kCell / 2, y0 + last + 1, kClear, 0);
      }
    }
  }
}
