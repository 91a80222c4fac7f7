// Fog with shaders and fog's edge cases, drawn on every backend: each case is a quad in a cell of
// its own, probed against D3D9's fog factor f (colour = f * diffuse + (1 - f) * FOGCOLOR).
// Windows' answers are those of Wine's fog_with_shader_test (NVIDIA and AMD drivers): a vertex
// shader that does not write oFog gives a fully fogged quad, table fog ignores oFog and reads the
// depth, and oFog is clamped to [0, 1]; FOGSTART == FOGEND fogs everything (wined3d records it
// too). docs/d3d9-behaviour.md ("Fog with shaders") says what Novem chose where no driver was
// measured.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kDiffuse = 0xffff0000, kFogColor = 0xff00ff00, kClear = 0xff0000ff;
constexpr UINT kCell = 16, kColumns = 5, kRows = 5;

DWORD fbits(float f) { return std::bit_cast<DWORD>(f); }

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END()};

enum class Vertices { Shader, FixedFunction, Pretransformed };

struct Case {
  const char *what;
  Vertices vertices;
  const char *vs;       // with Vertices::Shader
  const char *ps;       // "" for the fixed-function pixel stage
  DWORD vertex_mode, table_mode;
  float start, end, density;
  float z;              // the quad's z (clip space = view space: identity transforms)
  float ofog;           // c0.x, which the *_fog_c0 vertex shaders write to oFog
  float projection_43;  // PROJECTION _43: clip z = view z + _43 (fixed function)
  float factor;         // D3D9's fog factor
};

const Case kCases[] = {
    {"vs_1_1 without oFog, vertex fog LINEAR", Vertices::Shader, "vs11_pass_color", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.0f},
    {"vs_1_1 without oFog, ps_1_1, no fog mode", Vertices::Shader, "vs11_pass_color", "ps11_pass_color", D3DFOG_NONE, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.0f},
    {"vs_2_0 without oFog, ps_2_0, vertex fog EXP", Vertices::Shader, "vs20_pass_color", "ps20_pass_color", D3DFOG_EXP, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.0f},
    {"vs_3_0 without FOG, ps_2_0", Vertices::Shader, "vs30_pass_color", "ps20_pass_color", D3DFOG_LINEAR, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.0f},
    {"vs_1_1 oFog 0.25, ps_1_1", Vertices::Shader, "vs11_fog_c0", "ps11_pass_color", D3DFOG_NONE, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0.25f, 0, 0.25f},
    {"vs_1_1 oFog -0.5 is clamped to 0", Vertices::Shader, "vs11_fog_c0", "ps11_pass_color", D3DFOG_LINEAR, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, -0.5f, 0, 0.0f},
    {"vs_1_1 oFog 1.5 is clamped to 1", Vertices::Shader, "vs11_fog_c0", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 1.5f, 0, 1.0f},
    {"vs_3_0 FOG 0.25, ps_2_0", Vertices::Shader, "vs30_fog_c0", "ps20_pass_color", D3DFOG_NONE, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0.25f, 0, 0.25f},
    {"table fog LINEAR ignores oFog (vs_1_1, ps_2_0)", Vertices::Shader, "vs11_fog_c0", "ps20_pass_color", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.5f, 0.25f, 0, 0.5f},
    {"table fog LINEAR, vs_1_1 without oFog", Vertices::Shader, "vs11_pass_color", "", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.5f},
    {"table fog EXP with ps_2_0", Vertices::FixedFunction, "", "ps20_pass_color", D3DFOG_NONE, D3DFOG_EXP, 0.2f, 0.8f, 1, 0.5f, 0, 0, std::exp(-0.5f)},
    {"vertex fog LINEAR, FOGSTART == FOGEND", Vertices::FixedFunction, "", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.7f, 0.7f, 1, 0.5f, 0, 0, 0.0f},
    {"table fog LINEAR, FOGSTART == FOGEND", Vertices::FixedFunction, "", "", D3DFOG_NONE, D3DFOG_LINEAR, 0.7f, 0.7f, 1, 0.5f, 0, 0, 0.0f},
    {"table fog LINEAR, FOGSTART == FOGEND, ps_2_0", Vertices::FixedFunction, "", "ps20_pass_color", D3DFOG_NONE, D3DFOG_LINEAR, 0.7f, 0.7f, 1, 0.5f, 0, 0, 0.0f},
    {"pre-transformed, table fog LINEAR", Vertices::Pretransformed, "", "", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.5f},
    {"pre-transformed, table fog LINEAR, ps_2_0", Vertices::Pretransformed, "", "ps20_pass_color", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.5f, 0, 0, 0.5f},
    {"vertex fog LINEAR, a negative view z fogs by its magnitude", Vertices::FixedFunction, "", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0.85f, 0.75f},
    {"vertex fog EXP, a negative view z fogs by its magnitude", Vertices::FixedFunction, "", "", D3DFOG_EXP, D3DFOG_NONE, 0.2f, 0.8f, 1, 0.5f, 0, 0.85f, std::exp(-0.35f)},
    {"vertex fog LINEAR, FOGSTART > FOGEND", Vertices::FixedFunction, "", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.8f, 0.2f, 1, 0.35f, 0, 0, 0.25f},
    {"table fog LINEAR nearer FOGSTART", Vertices::FixedFunction, "", "", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.35f, 0, 0, 0.75f},
    {"table fog LINEAR with ps_1_1", Vertices::FixedFunction, "", "ps11_pass_color", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.35f, 0, 0, 0.75f},
    {"pre-transformed, table fog LINEAR nearer FOGEND", Vertices::Pretransformed, "", "", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.65f, 0, 0, 0.25f},
    {"vertex fog LINEAR, view z past FOGEND", Vertices::FixedFunction, "", "", D3DFOG_LINEAR, D3DFOG_NONE, 0.1f, 0.3f, 1, 0.5f, 0, 0, 0.0f},
    {"ps_3_0 does its own fog: table fog LINEAR adds none", Vertices::Shader, "vs30_fog_c0", "ps30_pass_color", D3DFOG_NONE, D3DFOG_LINEAR, 0.2f, 0.8f, 1, 0.5f, 0.25f, 0, 1.0f},
};
static_assert(std::size(kCases) <= kColumns * kRows);

D3DCOLOR fogged(float f) {
  f = std::fmin(std::fmax(f, 0.0f), 1.0f);
  auto mix = [&](int shift) {
    const float d = float(kDiffuse >> shift & 0xff), c = float(kFogColor >> shift & 0xff);
    return DWORD(std::lround(f * d + (1 - f) * c)) << shift;
  };
  return 0xff000000u | mix(16) | mix(8) | mix(0);
}

void draw_case(IDirect3DDevice9 *dev, const Case &c, UINT cell) {
  const UINT col = cell % kColumns, row = cell / kColumns;
  const float w = float(kColumns * kCell), h = float(kRows * kCell);
  HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, c.vertex_mode));
  HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, c.table_mode));
  HR(dev->SetRenderState(D3DRS_FOGSTART, fbits(c.start)));
  HR(dev->SetRenderState(D3DRS_FOGEND, fbits(c.end)));
  HR(dev->SetRenderState(D3DRS_FOGDENSITY, fbits(c.density)));
  if (c.vertices == Vertices::Pretransformed) {
    const float x0 = float(col * kCell), y0 = float(row * kCell), x1 = x0 + kCell, y1 = y0 + kCell;
    TLVertex v[4] = {{x0, y0, c.z, 1, kDiffuse}, {x1, y0, c.z, 1, kDiffuse}, {x0, y1, c.z, 1, kDiffuse}, {x1, y1, c.z, 1, kDiffuse}};
    IDirect3DPixelShader9 *ps = nullptr;
    if (*c.ps) HR(dev->CreatePixelShader(shader(c.ps).data(), &ps));
    HR(dev->SetPixelShader(ps));
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
    HR(dev->SetPixelShader(nullptr));
    if (ps) CHECK(ps->Release() == 0);
    return;
  }
  const float x0 = -1 + 2 * float(col * kCell) / w, x1 = -1 + 2 * float((col + 1) * kCell) / w;
  const float y0 = 1 - 2 * float(row * kCell) / h, y1 = 1 - 2 * float((row + 1) * kCell) / h;
  const float z = c.z - c.projection_43;   // view z, which the projection moves back to c.z
  ColorVertex v[4] = {{x0, y0, z, kDiffuse}, {x1, y0, z, kDiffuse}, {x0, y1, z, kDiffuse}, {x1, y1, z, kDiffuse}};
  D3DMATRIX projection{};
  projection._11 = projection._22 = projection._33 = projection._44 = 1;
  projection._43 = c.projection_43;
  HR(dev->SetTransform(D3DTS_PROJECTION, &projection));
  ShaderSet s(dev, c.vertices == Vertices::Shader ? c.vs : "", c.ps, kElements);
  const float ofog[4] = {c.ofog, 0, 0, 0};
  HR(dev->SetVertexShaderConstantF(0, ofog, 1));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ColorVertex)));
  s.release(dev);
  projection._43 = 0;
  HR(dev->SetTransform(D3DTS_PROJECTION, &projection));
}

} // namespace

TEST_CASE("scene: fog with shaders, table fog with every vertex kind, and fog's edge cases", "[scene][fog]") {
  SceneSetup setup;
  setup.width = kColumns * kCell, setup.height = kRows * kCell;
  auto images = render_all("fog_shaders", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetRenderState(D3DRS_FOGENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_FOGCOLOR, kFogColor));
    for (UINT i = 0; i < std::size(kCases); ++i) draw_case(dev, kCases[i], i);
  }, 2);
  for (const auto &r : images) {
    for (UINT i = 0; i < std::size(kCases); ++i) {
      INFO(kCases[i].what);
      probe(r, (i % kColumns) * kCell + kCell / 2, (i / kColumns) * kCell + kCell / 2, fogged(kCases[i].factor), 3);
    }
  }
}
