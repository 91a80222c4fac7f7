// Software vertex processing's constant files reach the shaders: on a device of software (or
// mixed) vertex processing a vertex shader reads c256..c8191 (c2048 and up D3DSPR_CONST2..4 in the
// bytecode), i and b registers past 15, and c[a0.x + n] across the whole file; a hardware device
// refuses such a shader. Drawn and probed on every backend.
#include <catch2/catch.hpp>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

// Clip-space position; TEXCOORD0 weighs c300, c2100, c8191 and c[a0.x + 250]; TEXCOORD1 is
// (a0.x, weight of the rep/if part, 0, 0) (shaders/vs20_swvp_constants.asm).
struct SwvpVertex {
  float x, y, z, w;
  float weights[4];
  float a0, flow, pad[2];
};

const D3DVERTEXELEMENT9 kSwvpElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    {0, 32, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 1},
    D3DDECL_END()};

// Column `column` (of eight, 8 pixels wide on the 64-pixel target), full height.
void column_quad(IDirect3DDevice9 *dev, int column, const float (&weights)[4], float a0, float flow) {
  const float x0 = -1.0f + 0.25f * float(column), x1 = x0 + 0.25f;
  SwvpVertex v[4] = {{x0, 1, 0.5f, 1, {}, a0, flow, {}}, {x1, 1, 0.5f, 1, {}, a0, flow, {}},
                     {x0, -1, 0.5f, 1, {}, a0, flow, {}}, {x1, -1, 0.5f, 1, {}, a0, flow, {}}};
  for (auto &vertex : v)
    for (int i = 0; i < 4; ++i) vertex.weights[i] = weights[i];
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(SwvpVertex)));
}

void set_f(IDirect3DDevice9 *dev, UINT reg, float r, float g, float b) {
  const float v[4] = {r, g, b, 1};
  HR(dev->SetVertexShaderConstantF(reg, v, 1));
}

// The scene every device of software vertex processing draws with `vs` (and `ps`).
void draw_swvp_columns(IDirect3DDevice9 *dev, const std::string &vs, const std::string &ps) {
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
  ShaderSet s(dev, vs, ps, kSwvpElements);
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  set_f(dev, 300, 1, 0, 0);   // red
  set_f(dev, 2100, 0, 1, 0);  // green, D3DSPR_CONST2
  set_f(dev, 8191, 1, 1, 1);  // white, replaced below
  set_f(dev, 255, 0, 1, 1);   // cyan: c[a0.x + 250] with a0.x = 5, below the hardware file's end
  set_f(dev, 260, 1, 1, 0);   // yellow: with a0.x = 10, past it
  set_f(dev, 8190, 1, 0, 1);  // magenta: with a0.x = 7940
  set_f(dev, 1, 0.25f, 0, 0); // rep i20 (4 times): red 1
  set_f(dev, 2, 0, 0, 0.5f);  // if b300: blue 0.5
  const int i20[4] = {4, 0, 1, 0};
  HR(dev->SetVertexShaderConstantI(20, i20, 1));
  const WINBOOL b300 = TRUE, b12 = FALSE;
  HR(dev->SetVertexShaderConstantB(300, &b300, 1));
  HR(dev->SetVertexShaderConstantB(12, &b12, 1));
  column_quad(dev, 0, {1, 0, 0, 0}, 0, 0);
  column_quad(dev, 1, {0, 1, 0, 0}, 0, 0);
  column_quad(dev, 2, {0, 0, 1, 0}, 0, 0); // white, drawn over next
  // One register changes between draws: the next draw reads the new value.
  set_f(dev, 8191, 0, 0, 1);
  column_quad(dev, 2, {0, 0, 1, 0}, 0, 0); // blue, D3DSPR_CONST4
  column_quad(dev, 3, {0, 0, 0, 1}, 10, 0);
  column_quad(dev, 4, {0, 0, 0, 1}, 5, 0);
  column_quad(dev, 5, {0, 0, 0, 1}, 7940, 0);
  column_quad(dev, 6, {0, 0, 0, 0}, 0, 1);
  column_quad(dev, 7, {0, 0, 0, 1}, 8000, 0); // c8250: past the file, reads 0
  s.release(dev);
}

void probe_swvp_columns(const std::vector<Rendered> &images) {
  probe(images, {{4, 32, 0xffff0000},
                 {12, 32, 0xff00ff00},
                 {20, 32, 0xff0000ff},
                 {28, 32, 0xffffff00},
                 {36, 32, 0xff00ffff},
                 {44, 32, 0xffff00ff},
                 {52, 32, 0xffff0080, 2},
                 {60, 32, 0xff000000}});
}

} // namespace

TEST_CASE("scene: a software vertex-processing device's vs_2_0 reads c256..c8191, c[a0.x + n] past c255, i20 and b300",
          "[scene][shader][swvp]") {
  SceneSetup setup;
  setup.behavior = D3DCREATE_SOFTWARE_VERTEXPROCESSING;
  auto images = render_all("swvp_vs20", setup, [](IDirect3DDevice9 *dev) { draw_swvp_columns(dev, "vs20_swvp_constants", ""); }, 2);
  probe_swvp_columns(images);
}

TEST_CASE("scene: a mixed vertex-processing device in software mode runs the same vs_3_0", "[scene][shader][swvp]") {
  SceneSetup setup;
  setup.behavior = D3DCREATE_MIXED_VERTEXPROCESSING;
  auto images = render_all("swvp_mixed_vs30", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->SetSoftwareVertexProcessing(TRUE));
    draw_swvp_columns(dev, "vs30_swvp_constants", "ps30_pass_color");
  }, 2);
  probe_swvp_columns(images);
}

TEST_CASE("scene: a hardware vertex-processing device refuses a vertex shader reading c256 and above",
          "[scene][shader][swvp]") {
  auto images = render_all("swvp_hardware_refuses", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    for (const char *name : {"vs20_swvp_constants", "vs30_swvp_constants"}) {
      INFO(name);
      IDirect3DVertexShader9 *vs = reinterpret_cast<IDirect3DVertexShader9 *>(uintptr_t(1));
      CHECK(dev->CreateVertexShader(shader(name).data(), &vs) == D3DERR_INVALIDCALL);
      CHECK(vs == nullptr);
    }
    // Its files end at c255, i15 and b15.
    const float f[4] = {};
    const int i[4] = {};
    const WINBOOL b = TRUE;
    CHECK(dev->SetVertexShaderConstantF(256, f, 1) == D3DERR_INVALIDCALL);
    CHECK(dev->SetVertexShaderConstantI(16, i, 1) == D3DERR_INVALIDCALL);
    CHECK(dev->SetVertexShaderConstantB(16, &b, 1) == D3DERR_INVALIDCALL);
  }, 0);
  probe(images, {{32, 32, 0xff000000}});
}
