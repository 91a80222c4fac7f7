// Pixel shader inputs that the vertex stage does not write, drawn on every backend: each case is a
// quad in a cell of its own whose pixel shader shows the input's w in red (.wyzx) and its y, z in
// green and blue. An unwritten COLOR input reads (0, 0, 0, 1) and any other (0, 0, 0, 0), as
// docs/d3d9-behaviour.md ("Inputs nothing feeds") says; on Vulkan the validation layer sees no
// input that nothing writes (InputNotProduced fails the test like a validation error).
#include <catch2/catch.hpp>

#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kClear = 0xff0000ff;
constexpr UINT kCell = 16, kColumns = 4, kRows = 3;

struct Position {
  float x, y, z;
};

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    D3DDECL_END()};

struct Case {
  const char *what;
  const char *vs, *ps;   // "" for the fixed-function stage
  D3DCOLOR expected;
};

const Case kCases[] = {
    {"vs_1_1 without oD1, ps_1_1 v1.a", "vs11_position", "ps11_specular_alpha", 0xffffffff},
    {"vs_1_1 without oT2, ps_1_1 texcoord t2", "vs11_position", "ps11_texcoord2", 0xff000000},
    {"vs_2_0 without oD0, ps_2_0 v0", "vs20_position", "ps20_color0_wyzx", 0xffff0000},
    {"vs_2_0 without oT3, ps_2_0 t3", "vs20_position", "ps20_texcoord3_wyzx", 0xff000000},
    {"vs_3_0 without COLOR1, ps_3_0 dcl_color1", "vs30_position", "ps30_color1_wyzx", 0xffff0000},
    {"vs_3_0 without TEXCOORD5, ps_3_0 dcl_texcoord5", "vs30_position", "ps30_texcoord5_wyzx", 0xff000000},
    {"vs_3_0 without NORMAL, ps_3_0 dcl_normal", "vs30_position", "ps30_normal_wyzx", 0xff000000},
    {"fixed-function vertices, ps_3_0 dcl_normal", "", "ps30_normal_wyzx", 0xff000000},
    {"vs_1_1 without oD0, fixed-function stage: the diffuse alpha", "vs11_position", "", 0xffffffff},
    {"vs_1_1 without oD0, fixed-function stage: the diffuse colour", "vs11_position", "", 0xff000000},
};
static_assert(std::size(kCases) <= kColumns * kRows);

void draw_case(IDirect3DDevice9 *dev, const Case &c, UINT cell) {
  const float w = float(kColumns * kCell), h = float(kRows * kCell);
  const UINT col = cell % kColumns, row = cell / kColumns;
  const float x0 = -1 + 2 * float(col * kCell) / w, x1 = -1 + 2 * float((col + 1) * kCell) / w;
  const float y0 = 1 - 2 * float(row * kCell) / h, y1 = 1 - 2 * float((row + 1) * kCell) / h;
  const Position v[4] = {{x0, y0, 0.5f}, {x1, y0, 0.5f}, {x0, y1, 0.5f}, {x1, y1, 0.5f}};
  // The fixed-function stage shows the diffuse colour, or its alpha in every channel.
  const bool alpha = std::string(c.what).ends_with("alpha");
  HR(dev->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1));
  HR(dev->SetTextureStageState(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE | (alpha ? D3DTA_ALPHAREPLICATE : 0)));
  ShaderSet s(dev, c.vs, c.ps, kElements);
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Position)));
  s.release(dev);
}

} // namespace

TEST_CASE("scene: pixel shader inputs the vertex stage does not write", "[scene][varyings]") {
  SceneSetup setup;
  setup.width = kColumns * kCell, setup.height = kRows * kCell;
  auto images = render_all("uninitialized_varyings", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    for (UINT i = 0; i < std::size(kCases); ++i) draw_case(dev, kCases[i], i);
    HR(dev->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_MODULATE));
    HR(dev->SetTextureStageState(0, D3DTSS_COLORARG1, D3DTA_TEXTURE));
  }, 1);
  for (const auto &r : images) {
    for (UINT i = 0; i < std::size(kCases); ++i) {
      INFO(kCases[i].what);
      probe(r, (i % kColumns) * kCell + kCell / 2, (i / kColumns) * kCell + kCell / 2, kCases[i].expected, 1);
    }
  }
}
