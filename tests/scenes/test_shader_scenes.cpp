// Programmable shaders drawn on every backend: D3D9 assembly from shaders/*.asm, assembled at
// build time, created with CreateVertexShader/CreatePixelShader, pixels probed against the
// values D3D9 defines.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct ClipVertex {
  float x, y, z, w;
  D3DCOLOR color;
};

const D3DVERTEXELEMENT9 kClipVertexElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END()};

// A quad in clip space from x0 to x1 (full height), clockwise.
void clip_quad(IDirect3DDevice9 *dev, float x0, float x1, D3DCOLOR c) {
  ClipVertex v[4] = {{x0, 1, 0.5f, 1, c}, {x1, 1, 0.5f, 1, c}, {x0, -1, 0.5f, 1, c}, {x1, -1, 0.5f, 1, c}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ClipVertex)));
}

// Shaders (by name, "" for fixed function) bound with this file's vertex declaration.
struct Shaders : ShaderSet {
  Shaders(IDirect3DDevice9 *dev, const std::string &vs_name, const std::string &ps_name)
      : ShaderSet(dev, vs_name, ps_name, kClipVertexElements) {}
};

const char *kPassVS3 = "vs30_transform_color";

} // namespace

TEST_CASE("scene: vs_3_0 and ps_3_0 with constants", "[scene][shader]") {
  SceneSetup setup;
  auto images = render_all("shader_sm3", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kPassVS3, "ps30_tint_c0");
    const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    HR(dev->SetVertexShaderConstantF(0, identity, 4));
    const float tint[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    HR(dev->SetPixelShaderConstantF(0, tint, 1));
    clip_quad(dev, -1, 0, 0xffffffff);
    // A later constant change reaches the next draw only.
    const float green[4] = {0, 1, 0, 1};
    HR(dev->SetPixelShaderConstantF(0, green, 1));
    clip_quad(dev, 0, 1, 0xffffffff);
    s.release(dev);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 32, 0xffff8040, 1);
    probe(r, 48, 32, 0xff00ff00, 0);
  }
}

TEST_CASE("scene: ps_2_0 arithmetic gives D3D9's values", "[scene][shader]") {
  SceneSetup setup;
  auto images = render_all("shader_ps2_math", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs20_pass_position", "ps20_rcp_rsq_cmp");
    clip_quad(dev, -1, 1, 0xffffffff);
    s.release(dev);
  }, 1);
  for (const auto &r : images) probe(r, 32, 32, 0xff808080, 1); // rcp 2 = rsq 4 = 0.5
}

TEST_CASE("scene: vs_3_0 loop over integer constants with aL", "[scene][shader]") {
  SceneSetup setup;
  auto images = render_all("shader_loop", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, "vs30_loop_al", "ps30_pass_color");
    // The loop adds c4, c5 and c6 (start 4, count 3).
    const float adds[12] = {0.25f, 0, 0, 1, 0.25f, 0.5f, 0, 0, 0, 0, 0.75f, 0};
    HR(dev->SetVertexShaderConstantF(4, adds, 3));
    clip_quad(dev, -1, 1, 0);
    s.release(dev);
  }, 1);
  for (const auto &r : images) probe(r, 32, 32, 0xff8080bf, 1);
}

TEST_CASE("scene: fixed function and shaders link through COLOR0", "[scene][shader]") {
  SceneSetup setup;
  auto images = render_all("shader_mixed", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    // A shader vertex stage with the fixed-function pixel stage ...
    {
      Shaders s(dev, kPassVS3, "");
      const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
      HR(dev->SetVertexShaderConstantF(0, identity, 4));
      clip_quad(dev, -1, 0, 0xff00ff00);
      s.release(dev);
    }
    // ... and the fixed-function vertex stage (pre-transformed) with a shader pixel stage.
    IDirect3DPixelShader9 *ps = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_double_color").data(), &ps));
    HR(dev->SetPixelShader(ps));
    HR(dev->SetFVF(kTLVertexFVF));
    TLVertex v[4] = {{32, 0, 0.5f, 1, 0xff402000}, {64, 0, 0.5f, 1, 0xff402000}, {32, 64, 0.5f, 1, 0xff402000},
                     {64, 64, 0.5f, 1, 0xff402000}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
    HR(dev->SetPixelShader(nullptr));
    CHECK(ps->Release() == 0);
  }, 1);
  for (const auto &r : images) {
    probe(r, 16, 32, 0xff00ff00, 0);
    probe(r, 48, 32, 0xff804000, 1);
  }
}
