// One scene or more per shader version (vs_1_1 … vs_3_0, ps_1_1 … ps_3_0), drawn on every backend:
// D3D9 assembly from shaders/*.asm (assembled at build time), pixels probed against the values
// D3D9 defines (worked out by hand in the comments: a channel value v becomes round(v · 255)) and images compared across plugins.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

using Vertex = ShaderVertex;

// A quad given in clip space, (x0, y0) top left and (x1, y1) bottom right, coloured `c`, with
// texture coordinates (u0, v0) at the top left and (u1, v1) at the bottom right (z 0, w 1).
// Clockwise (front facing under D3D9's rules) unless `ccw`.
void clip_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR c, float u0 = 0,
               float v0 = 0, float u1 = 1, float v1 = 1, bool ccw = false) {
  Vertex v[4] = {{x0, y0, 0.5f, 1, c, u0, v0, 0, 1},
                 {x1, y0, 0.5f, 1, c, u1, v0, 0, 1},
                 {x0, y1, 0.5f, 1, c, u0, v1, 0, 1},
                 {x1, y1, 0.5f, 1, c, u1, v1, 0, 1}};
  if (ccw) {
    std::swap(v[0], v[1]);
    std::swap(v[2], v[3]);
  }
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
}

// The same over target pixels [px0, px1) x [py0, py1) of the 64 x 64 target.
void quad(IDirect3DDevice9 *dev, float px0, float py0, float px1, float py1, D3DCOLOR c, float u0 = 0, float v0 = 0,
          float u1 = 1, float v1 = 1, bool ccw = false) {
  auto cx = [](float px) { return px / 32.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 32.0f; };
  clip_quad(dev, cx(px0), cy(py0), cx(px1), cy(py1), c, u0, v0, u1, v1, ccw);
}

// Shaders (by name, "" for fixed function) bound with this file's vertex declaration.
struct Shaders : ShaderSet {
  Shaders(IDirect3DDevice9 *dev, const std::string &vs_name, const std::string &ps_name)
      : ShaderSet(dev, vs_name, ps_name, kShaderVertexElements) {}
};

// Whether the device samples A8R8G8B8 textures in the vertex stage (vs_3_0 texldl).
bool samples_vertex_textures(IDirect3DDevice9 *dev) {
  IDirect3D9 *d3d = nullptr;
  HR(dev->GetDirect3D(&d3d));
  const HRESULT vtf = d3d->CheckDeviceFormat(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8,
                                             D3DUSAGE_QUERY_VERTEXTEXTURE, D3DRTYPE_TEXTURE, D3DFMT_A8R8G8B8);
  d3d->Release();
  return vtf == D3D_OK;
}

// Red, green / blue, white.
D3DCOLOR primaries(UINT i, UINT j) {
  const D3DCOLOR t[2][2] = {{0xffff0000, 0xff00ff00}, {0xff0000ff, 0xffffffff}};
  return t[j][i];
}

// Texels no channel swap or missing channel could fake.
D3DCOLOR ramp(UINT i, UINT j) {
  const D3DCOLOR t[2][2] = {{0xff102030, 0xff405060}, {0xff708090, 0xffa0b0c0}};
  return t[j][i];
}

// vs_1_1 and vs_2_0 pass-throughs: position, colour and texture coordinate 0.
const char *kPassVS11 = "vs11_pass_color_texcoord";

const char *kPassVS3 = "vs30_pass_color_texcoord";

const char *kColorPS2 = "ps20_pass_color";

const float kIdentity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

} // namespace

TEST_CASE("scene: vs_1_1 m4x4 and oD0 with ps_1_1 tex and mul", "[scene][shader][versions]") {
  auto images = render_all("versions_vs11_ps11", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff203040, 1.0f, 0));
    Shaders s(dev, "vs11_m4x4_color_texcoord", "ps11_tex_mul");
    // Rows of the matrix: x' = 0.5 x + 0.5, y' = y, z' = z, w' = w. A full-target quad lands on
    // the right half (clip x 0..1, pixels 32..63); the left half keeps the clear colour.
    const float m[16] = {0.5f, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    HR(dev->SetVertexShaderConstantF(0, m, 4));
    IDirect3DTexture9 *tex = filled_texture(dev, 2, primaries);
    HR(dev->SetTexture(0, tex));
    clip_quad(dev, -1, 1, 1, -1, 0xff80ff40);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 1);
  probe(images, {{16, 32, 0xff203040, 0},
                 // texel × (0x80, 0xff, 0x40) / 255 per channel: primaries keep the diffuse's channel.
                 {40, 16, 0xff800000, 1}, // red
                 {56, 16, 0xff00ff00, 1}, // green
                 {40, 48, 0xff000040, 1}, // blue
                 {56, 48, 0xff80ff40, 1}}); // white
}

TEST_CASE("scene: ps_1_2 mad with co-issue and ps_1_3 dp3 then cnd on r0.a", "[scene][shader][versions]") {
  // The ps_1_3 texture: red channel 1, 0, 0xa0 / 255, 0xe0 / 255.
  auto reds = [](UINT i, UINT j) {
    const D3DCOLOR t[2][2] = {{0xffff0000, 0xff00ff00}, {0xffa00000, 0xffe00000}};
    return t[j][i];
  };
  auto images = render_all("versions_ps12_ps13", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    IDirect3DTexture9 *prim = filled_texture(dev, 2, primaries);
    IDirect3DTexture9 *red = filled_texture(dev, 2, reds);
    {
      Shaders s(dev, kPassVS11, "ps12_mad_coissue");
      HR(dev->SetTexture(0, prim));
      quad(dev, 0, 0, 32, 64, 0xffffffff);
      s.release(dev);
    }
    {
      // dp3 writes the dot product to all four channels, r0.a included; cnd (whose first source
      // must be r0.a in ps_1_1-1_3) picks t0 where it is > 0.5, else blue.
      Shaders s(dev, kPassVS11, "ps13_dp3_cnd");
      HR(dev->SetTexture(0, red));
      quad(dev, 32, 0, 64, 64, 0xffffffff);
      s.release(dev);
    }
    HR(dev->SetTexture(0, nullptr));
    CHECK(prim->Release() == 0);
    CHECK(red->Release() == 0);
  }, 1);
  probe(images, {// ps_1_2: t0 · 0.75 + (0.25, 0, 0.125).
                 {8, 16, 0xffff0020, 1}, // red:   (1, 0, 0.125)
                 {24, 16, 0xff40bf20, 1}, // green: (0.25, 0.75, 0.125)
                 {8, 48, 0xff4000df, 1}, // blue:  (0.25, 0, 0.875)
                 {24, 48, 0xffffbfdf, 1}, // white: (1, 0.75, 0.875)
                 // ps_1_3: dp3 = 2 r - 1: 1 (> 0.5: t0), -1 (blue), 0.255 (blue), 0.757 (> 0.5: t0).
                 {40, 16, 0xffff0000, 1},
                 {56, 16, 0xff0000ff, 1},
                 {40, 48, 0xff0000ff, 1},
                 {56, 48, 0xffe00000, 1}});
}

TEST_CASE("scene: ps_1_4 texld, phase and a dependent texld", "[scene][shader][versions]") {
  // Texture 0 holds coordinates into texture 1: texel (i, j) points at texel (1 - i, 1 - j)
  // (0xc0 / 255 = 0.753 → texel 1 of 2, 0x40 / 255 = 0.251 → texel 0).
  auto coords = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i ? 0x40u : 0xc0u) << 16 | (j ? 0x40u : 0xc0u) << 8); };
  auto target = [](UINT i, UINT j) { return D3DCOLOR(0xff0000ffu | (i ? 0xffu : 0u) << 16 | (j ? 0xffu : 0u) << 8); };
  auto images = render_all("versions_ps14", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kPassVS11, "ps14_texld_phase");
    IDirect3DTexture9 *t0 = filled_texture(dev, 2, coords);
    IDirect3DTexture9 *t1 = filled_texture(dev, 2, target);
    HR(dev->SetTexture(0, t0));
    HR(dev->SetTexture(1, t1));
    quad(dev, 0, 0, 64, 64, 0xff80ff40);
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(t0->Release() == 0);
    CHECK(t1->Release() == 0);
    s.release(dev);
  }, 1);
  probe(images, {// Texture 1 texel (1 - i, 1 - j) × (0x80, 0xff, 0x40).
                 {16, 16, 0xff80ff40, 1}, // texel (1, 1) = white
                 {48, 16, 0xff00ff40, 1}, // texel (0, 1) = (0, 1, 1)
                 {16, 48, 0xff800040, 1}, // texel (1, 0) = (1, 0, 1)
                 {48, 48, 0xff000040, 1}}); // texel (0, 0) = (0, 0, 1)
}

TEST_CASE("scene: vs_2_0 rep over i0 and if b0 from the API", "[scene][shader][versions]") {
  auto images = render_all("versions_vs20", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs20_rep_if", kColorPS2);
    const int three[4] = {3, 0, 0, 0}, two[4] = {2, 0, 0, 0};
    const BOOL yes = TRUE, no = FALSE;
    HR(dev->SetVertexShaderConstantI(0, three, 1));
    HR(dev->SetVertexShaderConstantB(0, &yes, 1));
    quad(dev, 0, 0, 32, 64, 0);
    HR(dev->SetVertexShaderConstantI(0, two, 1));
    HR(dev->SetVertexShaderConstantB(0, &no, 1));
    quad(dev, 32, 0, 64, 64, 0);
    s.release(dev);
  }, 1);
  probe(images, {{16, 32, 0xff60bf80, 1}, // 3 × (0.125, 0.25) = (0.375, 0.75); if: z = 0.5
                 {48, 32, 0xff4080ff, 1}}); // 2 × (0.125, 0.25) = (0.25, 0.5); else: z = 1
}

TEST_CASE("scene: vs_2_x predication and call/ret", "[scene][shader][versions]") {
  auto images = render_all("versions_vs2x", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs2x_predication_call", kColorPS2);
    // p0 = (T, F, T, F): r0 = (0.25, 0, 0.75, 0); x stays; the subroutine adds 0.25 to y.
    const float a[4] = {1, -1, 1, 0};
    HR(dev->SetVertexShaderConstantF(2, a, 1));
    quad(dev, 0, 0, 32, 64, 0);
    // p0 = (F, T, F, F): r0 = (0, 0.5, 0, 0); !p0.x: x = 1; then y = 0.75.
    const float b[4] = {-1, 1, -1, 0};
    HR(dev->SetVertexShaderConstantF(2, b, 1));
    quad(dev, 32, 0, 64, 64, 0);
    s.release(dev);
  }, 1);
  probe(images, {{16, 32, 0xff4040bf, 1},
                 {48, 32, 0xffffbf00, 1}});
}

TEST_CASE("scene: ps_2_0 texkill discards pixels with a negative coordinate", "[scene][shader][versions]") {
  auto images = render_all("versions_ps20_texkill", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0));
    Shaders s(dev, "vs20_pass_texcoord_v2", "ps20_texkill");
    IDirect3DTexture9 *tex = filled_texture(dev, 2, ramp);
    HR(dev->SetTexture(0, tex));
    // u from -1 to 1: negative on the left half, which keeps the clear colour; on the right half
    // u runs 0..1 over 32 pixels (16 per texel).
    quad(dev, 0, 0, 64, 64, 0, -1, 0, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {{8, 16, 0xff0000ff, 0},
                 {24, 48, 0xff0000ff, 0},
                 {40, 16, ramp(0, 0), 0},
                 {56, 16, ramp(1, 0), 0},
                 {40, 48, ramp(0, 1), 0},
                 {56, 48, ramp(1, 1), 0}});
}

TEST_CASE("scene: ps_2_x predication per pixel and sincos", "[scene][shader][versions]") {
  auto images = render_all("versions_ps2x", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs20_pass_texcoord_v2", "ps2x_predication_sincos");
    quad(dev, 0, 0, 64, 64, 0);
    s.release(dev);
  }, 1);
  probe(images, {// atan(3 / 4): cos 0.8 → 204, sin 0.6 → 153; blue 1 where u < 0.5 (left), else 0.25 → 64.
                 {16, 32, 0xffcc99ff, 1},
                 {48, 32, 0xffcc9940, 1}});
}

TEST_CASE("scene: ps_3_0 vFace and vPos on front and back faces", "[scene][shader][versions]") {
  auto images = render_all("versions_ps30_face", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kPassVS3, "ps30_vface_vpos");
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    quad(dev, 0, 0, 32, 64, 0);                      // clockwise: front, vFace = +1
    quad(dev, 32, 0, 64, 64, 0, 0, 0, 1, 1, true); // counter-clockwise: back, vFace = -1
    s.release(dev);
  }, 1);
  probe(images, {// red 0.25 · vFace + 0.5; green, blue: vPos (integer pixel centres) / 64.
                 {16, 40, 0xffbf409f, 1}, // 0.75, 16 / 64 = 0.25, 40 / 64 = 0.625 → 191, 64, 159
                 {48, 20, 0xff40bf50, 1}}); // 0.25, 48 / 64 = 0.75, 20 / 64 = 0.3125 → 64, 191, 80
}

TEST_CASE("scene: ps_3_0 loop ended by breakc", "[scene][shader][versions]") {
  auto images = render_all("versions_ps30_breakc", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kPassVS3, "ps30_loop_breakc");
    const float half[4] = {0.5f, 0, 0, 0}, quarter[4] = {0.25f, 0, 0, 0}, never[4] = {100, 0, 0, 0};
    HR(dev->SetPixelShaderConstantF(2, half, 1));
    quad(dev, 0, 0, 32, 32, 0);
    HR(dev->SetPixelShaderConstantF(2, quarter, 1));
    quad(dev, 32, 0, 64, 32, 0);
    HR(dev->SetPixelShaderConstantF(2, never, 1));
    quad(dev, 0, 32, 64, 64, 0);
    s.release(dev);
  }, 1);
  probe(images, {// Each pass adds (0.1875, 0.0625) until x >= c2.x.
                 {16, 16, 0xff8f3000, 1}, // 3 passes: (0.5625, 0.1875) → 143, 48
                 {48, 16, 0xff602000, 1}, // 2 passes: (0.375, 0.125) → 96, 32
                 {32, 48, 0xffff9f00, 1}}); // all 10: (1.875 → 1, 0.625) → 255, 159
}

TEST_CASE("scene: vs_3_0 texldl reads a vertex texture", "[scene][shader][versions]") {
  bool sampled = false;
  auto images = render_all("versions_vs30_texldl", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    if (!(sampled = samples_vertex_textures(dev))) return;
    Shaders s(dev, "vs30_texldl", "ps30_pass_color");
    IDirect3DTexture9 *tex = filled_texture(dev, 2, ramp);
    HR(dev->SetTexture(D3DVERTEXTEXTURESAMPLER0, tex));
    // Every vertex of a quad reads the same texel, so the quad is that texel's colour.
    quad(dev, 0, 0, 32, 64, 0, 0.75f, 0.25f, 0.75f, 0.25f); // texel (1, 0)
    quad(dev, 32, 0, 64, 64, 0, 0.25f, 0.75f, 0.25f, 0.75f); // texel (0, 1)
    HR(dev->SetTexture(D3DVERTEXTEXTURESAMPLER0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 1);
  if (!sampled) {
    WARN("vertex textures of A8R8G8B8 are not available: texldl not drawn");
    return;
  }
  probe(images, {{16, 32, ramp(1, 0), 1},
                 {48, 32, ramp(0, 1), 1}});
}

TEST_CASE("scene: pixel shaders sampling s0 and s9 take turns while a vertex texture stays bound",
          "[scene][shader][versions][texture]") {
  // The Vulkan plugin binds pixel textures through sets as wide as the pixel shader needs (1 slot
  // for s0, 16 for s9; PipelineLayout::pixel_width): each turn changes the pipeline layout within
  // one command buffer, and the vertex texture's set, bound after the pixel one, is bound again.
  bool sampled = false;
  auto images = render_all("versions_texture_set_widths", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    if (!(sampled = samples_vertex_textures(dev))) return;
    IDirect3DTexture9 *vertex = filled_texture(dev, 2, primaries);
    IDirect3DTexture9 *white = filled_texture(dev, 2, [](UINT, UINT) { return D3DCOLOR(0xffffffff); });
    IDirect3DTexture9 *half = filled_texture(dev, 2, [](UINT, UINT) { return D3DCOLOR(0xff808080); });
    HR(dev->SetTexture(D3DVERTEXTEXTURESAMPLER0, vertex));
    HR(dev->SetTexture(0, white));
    HR(dev->SetTexture(9, half));
    Shaders s0(dev, "vs30_texldl", "ps30_color_times_s0");
    Shaders s9(dev, "vs30_texldl", "ps30_color_times_s9");
    // Every vertex of a quad reads the same vertex texel; the pixel shader multiplies it by its
    // own texture's colour.
    auto draw = [&](Shaders &s, float px, float py, float u, float v) {
      HR(dev->SetVertexShader(s.vs));
      HR(dev->SetPixelShader(s.ps));
      quad(dev, px, py, px + 32, py + 32, 0, u, v, u, v);
    };
    draw(s0, 0, 0, 0.25f, 0.25f);   // red × white
    draw(s9, 32, 0, 0.75f, 0.25f);  // green × half
    draw(s0, 0, 32, 0.75f, 0.75f);  // white × white
    draw(s9, 32, 32, 0.25f, 0.75f); // blue × half
    for (DWORD slot : {DWORD(D3DVERTEXTEXTURESAMPLER0), DWORD(0), DWORD(9)}) HR(dev->SetTexture(slot, nullptr));
    for (IDirect3DTexture9 *t : {vertex, white, half}) CHECK(t->Release() == 0);
    s9.release(dev);
    s0.release(dev);
  }, 1);
  if (!sampled) {
    WARN("vertex textures of A8R8G8B8 are not available: nothing drawn");
    return;
  }
  probe(images, {{16, 16, 0xffff0000, 1},
                 {48, 16, 0xff008000, 1}, // 255 × 128 / 255
                 {16, 48, 0xffffffff, 1},
                 {48, 48, 0xff000080, 1}});
}

TEST_CASE("scene: ps_1_1 texbem perturbs the coordinates of the next stage", "[scene][shader][versions]") {
  // Stage 0 holds the perturbation (du, dv) = (R, G), stage 1 the ramp. TEXCOORD1 is TEXCOORD0 / 2,
  // so without perturbation every pixel reads ramp texel (0, 0). BUMPENVMAT of stage 1:
  // M00 = 0.5, M01 = 0.5, M10 = 0, M11 = 0.5, so (u', v') = (u + 0.5 R, v + 0.5 R + 0.5 G).
  auto perturb = [](UINT i, UINT j) {
    const D3DCOLOR t[2][2] = {{0xffff0000, 0xff00ff00}, {0xff000000, 0xff000000}};
    return t[j][i];
  };
  auto images = render_all("versions_ps11_texbem", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs11_texcoord_half", "ps11_texbem");
    IDirect3DTexture9 *t0 = filled_texture(dev, 2, perturb);
    IDirect3DTexture9 *t1 = filled_texture(dev, 2, ramp);
    HR(dev->SetTexture(0, t0));
    HR(dev->SetTexture(1, t1));
    for (DWORD stage : {DWORD(0), DWORD(1)}) {
      HR(dev->SetSamplerState(stage, D3DSAMP_MINFILTER, D3DTEXF_POINT));
      HR(dev->SetSamplerState(stage, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
    }
    const float m[4] = {0.5f, 0.5f, 0.0f, 0.5f};
    const D3DTEXTURESTAGESTATETYPE states[4] = {D3DTSS_BUMPENVMAT00, D3DTSS_BUMPENVMAT01, D3DTSS_BUMPENVMAT10,
                                                D3DTSS_BUMPENVMAT11};
    for (int k = 0; k < 4; ++k) {
      DWORD bits;
      std::memcpy(&bits, &m[k], 4);
      HR(dev->SetTextureStageState(1, states[k], bits));
    }
    quad(dev, 0, 0, 64, 64, 0xffffffff);
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(t0->Release() == 0);
    CHECK(t1->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {// Pixel (16, 16): (u, v) = (0.125, 0.125), R = 1 → (0.625, 0.625) → texel (1, 1).
                 {16, 16, ramp(1, 1), 0},
                 // Pixel (48, 16): (0.375, 0.125), G = 1 → (0.375, 0.625) → texel (0, 1).
                 // (A transposed matrix would give texels (1, 0) and (1, 1) for these two.)
                 {48, 16, ramp(0, 1), 0},
                 // Bottom half: no perturbation, (0.125 | 0.375, 0.375) → texel (0, 0).
                 {16, 48, ramp(0, 0), 0},
                 {48, 48, ramp(0, 0), 0}});
}
