// Shader constants as the frontend sends them (issue 6): a shader change resends nothing, a
// changed register goes alone (UPDATE_CONSTANTS), and the block comes back whole after the
// fixed-function pipeline used the stage's block. Every case is drawn and probed on every backend.
#include <catch2/catch.hpp>

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

// A full-height quad in clip space from x0 to x1, clockwise.
void clip_quad(IDirect3DDevice9 *dev, float x0, float x1, D3DCOLOR c) {
  ClipVertex v[4] = {{x0, 1, 0.5f, 1, c}, {x1, 1, 0.5f, 1, c}, {x0, -1, 0.5f, 1, c}, {x1, -1, 0.5f, 1, c}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ClipVertex)));
}

} // namespace

TEST_CASE("scene: constants survive shader switches, partial updates and fixed function", "[scene][shader]") {
  SceneSetup setup;
  auto images = render_all("constants_partial", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    ShaderSet a(dev, "vs30_transform_color", "ps30_tint_c0", kClipVertexElements);
    IDirect3DPixelShader9 *tint_c5 = nullptr;
    HR(dev->CreatePixelShader(shader("ps30_tint_c5").data(), &tint_c5));
    const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    HR(dev->SetVertexShaderConstantF(0, identity, 4));
    const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
    HR(dev->SetPixelShaderConstantF(0, red, 1));
    HR(dev->SetPixelShaderConstantF(5, green, 1));
    clip_quad(dev, -1.0f, -0.5f, 0xffffffff); // c0: red
    // Another pixel shader, no constant set: it reads c5 as set before.
    HR(dev->SetPixelShader(tint_c5));
    clip_quad(dev, -0.5f, 0.0f, 0xffffffff); // c5: green
    // One register changes: the next draw sees it, c0 is untouched.
    HR(dev->SetPixelShaderConstantF(5, blue, 1));
    clip_quad(dev, 0.0f, 0.5f, 0xffffffff); // c5: blue
    // Fixed function uses the vertex stage's block for its own constants; back on the shader,
    // its matrix must be there again (and the pixel shader's c0 still red).
    HR(dev->SetVertexShader(nullptr));
    HR(dev->SetPixelShader(nullptr));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    clip_quad(dev, 0.5f, 1.0f, 0xffffff00); // fixed function: yellow, overdrawn next
    HR(dev->SetVertexShader(a.vs));
    HR(dev->SetPixelShader(a.ps));
    clip_quad(dev, 0.5f, 1.0f, 0xffffffff); // c0: red, at the right place
    HR(dev->SetPixelShader(nullptr));
    CHECK(tint_c5->Release() == 0);
    a.release(dev);
  }, 1);
  probe(images, {{8, 32, 0xffff0000},
                 {24, 32, 0xff00ff00},
                 {40, 32, 0xff0000ff},
                 {56, 32, 0xffff0000}});
}
