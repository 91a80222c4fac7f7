// Fixed-function state that D3D9 applies to programmable shaders, drawn on every backend:
// D3DTTFF_PROJECTED on the texture stages of ps_1_1-1_3 (`tex`, `texbem`), texbeml's luminance, and SHADEMODE FLAT
// with vertex and pixel shaders of every model. Pixels are probed against D3D9's answers (Wine's
// texture_transform_flags, texbem and shademode tests record what Windows draws).
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

using Vertex = ShaderVertex;

// A 2 x 2 A8R8G8B8 texture, point-sampled wherever it is bound: four distinct texels.
D3DCOLOR texel(UINT i, UINT j) {
  const D3DCOLOR t[2][2] = {{0xffff0000, 0xff00ff00}, {0xff0000ff, 0xffffff00}};
  return t[j][i];
}

void point_sampling(IDirect3DDevice9 *dev, DWORD stage) {
  HR(dev->SetSamplerState(stage, D3DSAMP_MINFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(stage, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
}

// The whole 64 x 64 target as a strip: (x, y) = (-1, 1) top left, texture coordinates
// (u, v, s, q) with u, v from 0 (top left) to `extent` (bottom right).
void full_quad(IDirect3DDevice9 *dev, float extent, float s, float q, D3DCOLOR c = 0xffffffff) {
  const Vertex v[4] = {{-1, 1, 0.5f, 1, c, 0, 0, s, q},
                       {1, 1, 0.5f, 1, c, extent, 0, s, q},
                       {-1, -1, 0.5f, 1, c, 0, extent, s, q},
                       {1, -1, 0.5f, 1, c, extent, extent, s, q}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
}

} // namespace

TEST_CASE("scene: ps_1_1 to ps_1_3 tex divides by the component D3DTTFF_PROJECTED names", "[scene][shader][ps1x]") {
  // Coordinates (u, v, 2, 4) with u = v running 0..2 over the target, the texture wrapping.
  // Along the diagonal, pixel p reads (u, v) = (p + 0.5) / 32: unprojected, pixels 8, 40, 56 read
  // 0.27, 1.27 (wrapped to 0.27), 1.77 (0.77): texels (0,0), (0,0), (1,1). Divided by z = 2:
  // 0.13, 0.63, 0.89: (0,0), (1,1), (1,1). Divided by w = 4: 0.07, 0.32, 0.44: all (0,0).
  struct Case {
    const char *name;
    DWORD flags;
    UINT expected[3]; // texel index (i = j) at pixels 8, 40, 56 of the diagonal
  };
  const Case cases[] = {
      {"disabled", D3DTTFF_DISABLE, {0, 0, 1}},
      {"COUNT3 without PROJECTED", D3DTTFF_COUNT3, {0, 0, 1}},
      {"COUNT3 | PROJECTED divides by z", D3DTTFF_COUNT3 | D3DTTFF_PROJECTED, {0, 1, 1}},
      {"COUNT4 | PROJECTED divides by w", D3DTTFF_COUNT4 | D3DTTFF_PROJECTED, {0, 0, 0}},
      {"PROJECTED alone divides by w", D3DTTFF_PROJECTED, {0, 0, 0}},
  };
  for (const char *ps : {"ps11_tex_mul", "ps12_tex_mul", "ps13_tex_mul"})
  for (const Case &c : cases) {
    SECTION(std::string(ps) + ": " + c.name) {
      auto images = render_all(std::string("ps1x_projected_") + ps + "_" + std::to_string(&c - cases), SceneSetup{},
                               [&](IDirect3DDevice9 *dev) {
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        ShaderSet s(dev, "vs11_pass_color_texcoord", ps, kShaderVertexElements);
        IDirect3DTexture9 *tex = filled_texture(dev, 2, texel);
        HR(dev->SetTexture(0, tex));
        point_sampling(dev, 0);
        HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, c.flags));
        full_quad(dev, 2.0f, 2.0f, 4.0f);
        HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
        HR(dev->SetTexture(0, nullptr));
        CHECK(tex->Release() == 0);
        s.release(dev);
      }, 0);
      const UINT pixels[3] = {8, 40, 56};
      for (const auto &r : images)
        for (int k = 0; k < 3; ++k) probe(r, pixels[k], pixels[k], texel(c.expected[k], c.expected[k]), 0);
    }
  }
}

TEST_CASE("scene: ps_1_1 texbem projects the stage's coordinate before perturbing it", "[scene][shader][ps1x]") {
  // Stage 0 holds the perturbation (du, dv) = (R, G): R = 1 in the top-left quarter, G = 1 in the
  // top-right one. TEXCOORD1 is (u, v, 0, 2) with u, v = 0..1 over the target; COUNT4 | PROJECTED
  // on stage 1 makes it (u / 2, v / 2) before BUMPENVMAT (M00 = M01 = M11 = 0.5, M10 = 0) adds
  // (0.5 R, 0.5 R + 0.5 G). Unprojected, pixels (48, 16) and (16, 48) would read texels (1, 1)
  // and (0, 1).
  auto perturb = [](UINT i, UINT j) -> D3DCOLOR {
    const D3DCOLOR t[2][2] = {{0xffff0000, 0xff00ff00}, {0xff000000, 0xff000000}};
    return t[j][i];
  };
  auto images = render_all("ps1x_projected_texbem", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    ShaderSet s(dev, "vs11_texcoord_w2", "ps11_texbem", kShaderVertexElements);
    IDirect3DTexture9 *t0 = filled_texture(dev, 2, perturb);
    IDirect3DTexture9 *t1 = filled_texture(dev, 2, texel);
    HR(dev->SetTexture(0, t0));
    HR(dev->SetTexture(1, t1));
    point_sampling(dev, 0);
    point_sampling(dev, 1);
    const float m[4] = {0.5f, 0.5f, 0.0f, 0.5f};
    const D3DTEXTURESTAGESTATETYPE states[4] = {D3DTSS_BUMPENVMAT00, D3DTSS_BUMPENVMAT01, D3DTSS_BUMPENVMAT10,
                                                D3DTSS_BUMPENVMAT11};
    for (int k = 0; k < 4; ++k) HR(dev->SetTextureStageState(1, states[k], std::bit_cast<DWORD>(m[k])));
    HR(dev->SetTextureStageState(1, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT4 | D3DTTFF_PROJECTED));
    full_quad(dev, 1.0f, 0.0f, 1.0f);
    HR(dev->SetTextureStageState(1, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(t0->Release() == 0);
    CHECK(t1->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {// (16, 16): (0.13, 0.13) + (0.5, 0.5) → texel (1, 1).
                 {16, 16, texel(1, 1), 0},
                 // (48, 16): (0.38, 0.13) + (0, 0.5) → texel (0, 1).
                 {48, 16, texel(0, 1), 0},
                 // Bottom half: no perturbation, (0.13 | 0.38, 0.38) → texel (0, 0).
                 {16, 48, texel(0, 0), 0},
                 {48, 48, texel(0, 0), 0}});
}

TEST_CASE("scene: SHADEMODE FLAT with shaders takes each triangle's first vertex colour", "[scene][shader][ps1x]") {
  // A strip of four vertices coloured red (top left), green (top right), blue (bottom left) and
  // white (bottom right): triangle 0 (vertices 0, 1, 2) covers the top-left half, triangle 1
  // (1, 2, 3) the bottom-right half. D3D9's flat shading takes the first vertex of each: red and
  // green (Wine's shademode_test, with vertex and pixel shaders of each model).
  struct Case {
    const char *vs, *ps;
  };
  const Case cases[] = {
      {"vs11_pass_color", "ps11_pass_color"}, {"vs20_pass_color", "ps20_pass_color"},
      {"vs30_pass_color", "ps30_pass_color"}, {"", "ps11_pass_color"},
      {"vs11_pass_color", ""},
  };
  for (const Case &c : cases) {
    SECTION(std::string(c.vs) + " + " + c.ps) {
      for (DWORD mode : {DWORD(D3DSHADE_FLAT), DWORD(D3DSHADE_GOURAUD)}) {
        auto images = render_all(std::string("ps1x_flat_") + std::to_string(&c - cases) + "_" + std::to_string(mode),
                                 SceneSetup{}, [&](IDirect3DDevice9 *dev) {
          HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
          HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
          HR(dev->SetRenderState(D3DRS_SHADEMODE, mode));
          ShaderSet s(dev, c.vs, c.ps, kShaderVertexElements);
          const Vertex v[4] = {{-1, 1, 0.5f, 1, 0xffff0000, 0, 0, 0, 1},
                               {1, 1, 0.5f, 1, 0xff00ff00, 0, 0, 0, 1},
                               {-1, -1, 0.5f, 1, 0xff0000ff, 0, 0, 0, 1},
                               {1, -1, 0.5f, 1, 0xffffffff, 0, 0, 0, 1}};
          HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
          HR(dev->SetRenderState(D3DRS_SHADEMODE, D3DSHADE_GOURAUD));
          s.release(dev);
        }, 0);
        for (const auto &r : images) {
          if (mode == D3DSHADE_FLAT) {
            probe(r, 8, 8, 0xffff0000, 0);
            probe(r, 56, 56, 0xff00ff00, 0);
          } else {
            // Interpolated: near the white corner the colour has every channel well above 0.
            const uint8_t *p = r.image.at(60, 60);
            INFO(r.backend << " pixel (60, 60) is (" << int(p[0]) << ", " << int(p[1]) << ", " << int(p[2]) << ")");
            for (int k = 0; k < 3; ++k) CHECK(p[k] > 0x80);
          }
        }
      }
    }
  }
}

TEST_CASE("scene: ps_1_1 texbeml scales by the bump texel's luminance, LSCALE and LOFFSET", "[scene][shader][ps1x]") {
  // Stage 0 is a Q8W8V8U8 bump map with (du, dv) = (0, 0) and W (the luminance texbeml reads from
  // blue) = 64 / 127; stage 1's BUMPENVLSCALE 0.5 and BUMPENVLOFFSET 0.25 make the factor
  // 0.5 * 64 / 127 + 0.25 = 0.502, which scales the texel stage 1 reads at its unperturbed coordinate.
  const float lum = 0.5f * 64.0f / 127.0f + 0.25f;
  auto scaled = [&](D3DCOLOR c) {
    auto ch = [&](int shift) { return D3DCOLOR(int(float((c >> shift) & 0xff) * lum + 0.5f)) << shift; };
    return D3DCOLOR(0xff000000u | ch(16) | ch(8) | ch(0));
  };
  auto images = render_all("ps1x_texbeml", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    ShaderSet s(dev, "vs11_texcoord_half", "ps11_texbeml", kShaderVertexElements);
    IDirect3DTexture9 *bump = nullptr;
    HR(dev->CreateTexture(1, 1, 1, 0, D3DFMT_Q8W8V8U8, D3DPOOL_MANAGED, &bump, nullptr));
    D3DLOCKED_RECT lr;
    HR(bump->LockRect(0, &lr, nullptr, 0));
    const DWORD quvw = 0x7f400000; // Q 127, W 64, V 0, U 0
    std::memcpy(lr.pBits, &quvw, 4);
    HR(bump->UnlockRect(0));
    IDirect3DTexture9 *env = filled_texture(dev, 2, texel);
    HR(dev->SetTexture(0, bump));
    HR(dev->SetTexture(1, env));
    point_sampling(dev, 0);
    point_sampling(dev, 1);
    HR(dev->SetTextureStageState(1, D3DTSS_BUMPENVMAT00, std::bit_cast<DWORD>(1.0f)));
    HR(dev->SetTextureStageState(1, D3DTSS_BUMPENVMAT11, std::bit_cast<DWORD>(1.0f)));
    HR(dev->SetTextureStageState(1, D3DTSS_BUMPENVLSCALE, std::bit_cast<DWORD>(0.5f)));
    HR(dev->SetTextureStageState(1, D3DTSS_BUMPENVLOFFSET, std::bit_cast<DWORD>(0.25f)));
    full_quad(dev, 2.0f, 0.0f, 1.0f); // TEXCOORD1 = TEXCOORD0 / 2: 0..1
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(bump->Release() == 0);
    CHECK(env->Release() == 0);
    s.release(dev);
  }, 1);
  probe(images, {{16, 16, scaled(texel(0, 0)), 1},
                 {48, 16, scaled(texel(1, 0)), 1},
                 {16, 48, scaled(texel(0, 1)), 1},
                 {48, 48, scaled(texel(1, 1)), 1}});
}
