// The draw path's shortcuts send what a full rebuild would change: a render-state change sends
// the new render states (SET_RENDER_STATES, ABI 7), a change of shaders or vertex input the
// whole pipeline, a texture of the same kind only a new binding, one of another kind a new
// pipeline too (on the plugin that counts what it executed, counting_plugin.cpp).
#include "counting_device.hpp"

using namespace api_fixture;

TEST_CASE("a blend change per draw sends its render states per draw, and returning to it sends them again", "[api][draw_path]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  REQUIRE(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE) == D3D_OK);
  c.draw();
  c.sent(NV_OP_SET_PIPELINE);
  for (int i = 0; i < 4; ++i) {
    REQUIRE(dev->SetRenderState(D3DRS_SRCBLEND, (i & 1) ? D3DBLEND_ONE : D3DBLEND_SRCALPHA) == D3D_OK);
    c.draw();
    CHECK(c.sent(NV_OP_SET_RENDER_STATES) == 1);
    CHECK(c.sent(NV_OP_SET_PIPELINE) == 0); // shaders and vertex input still hold
  }
  // A render-state change, then a change of the fixed-function shader: one whole pipeline
  // carries both.
  REQUIRE(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_SELECTARG2) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 1);
  CHECK(c.sent(NV_OP_SET_RENDER_STATES) == 0);
  // Changed and changed back before a draw: nothing to send.
  REQUIRE(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 0);
  CHECK(c.sent(NV_OP_SET_RENDER_STATES) == 0);
}

TEST_CASE("a texture of the same kind sends a binding, one of another kind a pipeline as well", "[api][draw_path]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DTexture9 *a = nullptr, *b = nullptr;
  IDirect3DCubeTexture9 *cube = nullptr;
  REQUIRE(dev->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &a, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &b, nullptr) == D3D_OK);
  REQUIRE(dev->CreateCubeTexture(8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3D_OK);
  REQUIRE(dev->SetTexture(0, a) == D3D_OK);
  c.draw();
  c.sent(NV_OP_SET_PIPELINE);
  c.sent(NV_OP_SET_TEXTURE);

  REQUIRE(dev->SetTexture(0, b) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 0);
  CHECK(c.sent(NV_OP_SET_TEXTURE) == 1);

  REQUIRE(dev->SetTexture(0, cube) == D3D_OK); // the fixed-function shader samples a cube now
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 1);
  CHECK(c.sent(NV_OP_SET_TEXTURE) == 1);

  REQUIRE(dev->SetTexture(0, nullptr) == D3D_OK); // and nothing at all now
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 1);

  a->Release();
  b->Release();
  cube->Release();
}
