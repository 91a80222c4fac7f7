// The draw path's shortcuts send the same commands as a full rebuild would: a render-state
// change sends the new pipeline, a texture of the same kind only a new binding, one of another
// kind a new pipeline too (on the plugin that counts what it executed, counting_plugin.cpp).
#include <cstdint>

#include <dlfcn.h>

#include "api_fixture.hpp"

#include <novem/commands.h>

using namespace api_fixture;

namespace {

struct Counting {
  Counting() {
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless(16, 16);
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
    plugin = dlopen(NOVEM_COUNTING_PLUGIN, RTLD_NOW | RTLD_NOLOAD); // the copy the frontend loaded
    REQUIRE(plugin);
    executed_fn = reinterpret_cast<uint64_t (*)(uint32_t)>(dlsym(plugin, "novem_counting_plugin_executed"));
    REQUIRE(executed_fn);
    REQUIRE(device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr) == D3D_OK);
    REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back_buffer) == D3D_OK);
  }
  ~Counting() {
    back_buffer->Release();
    readback->Release();
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
    dlclose(plugin);
  }
  // Commands of `opcode` executed since the last call for it; every command sent so far has
  // executed once the readback returns.
  uint64_t sent(uint32_t opcode) {
    REQUIRE(device->GetRenderTargetData(back_buffer, readback) == D3D_OK);
    const uint64_t now = executed_fn(opcode), delta = now - seen[opcode];
    seen[opcode] = now;
    return delta;
  }
  void draw() {
    struct V {
      float x, y, z, rhw;
      D3DCOLOR c;
      float u, v;
    } v[3] = {{0, 0, 0.5f, 1, 0xffffffff, 0, 0}, {16, 0, 0.5f, 1, 0xffffffff, 1, 0}, {0, 16, 0.5f, 1, 0xffffffff, 0, 1}};
    REQUIRE(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1) == D3D_OK);
    REQUIRE(device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(V)) == D3D_OK);
  }

  Backend backend{NOVEM_COUNTING_PLUGIN};
  IDirect3D9 *d3d = nullptr;
  IDirect3DDevice9 *device = nullptr;
  void *plugin = nullptr;
  uint64_t (*executed_fn)(uint32_t) = nullptr;
  IDirect3DSurface9 *readback = nullptr, *back_buffer = nullptr;
  uint64_t seen[NV_OP_COUNT] = {};
};

} // namespace

TEST_CASE("a blend change per draw sends a pipeline per draw, and returning to it sends it again", "[api][draw_path]") {
  Counting c;
  IDirect3DDevice9 *dev = c.device;
  REQUIRE(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE) == D3D_OK);
  c.draw();
  c.sent(NV_OP_SET_PIPELINE);
  for (int i = 0; i < 4; ++i) {
    REQUIRE(dev->SetRenderState(D3DRS_SRCBLEND, (i & 1) ? D3DBLEND_ONE : D3DBLEND_SRCALPHA) == D3D_OK);
    c.draw();
    CHECK(c.sent(NV_OP_SET_PIPELINE) == 1);
  }
  // A render-state change, then a change of the fixed-function shader: both reach the pipeline.
  REQUIRE(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_SELECTARG2) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 1);
  // Changed and changed back before a draw: nothing to send.
  REQUIRE(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_SET_PIPELINE) == 0);
}

TEST_CASE("a texture of the same kind sends a binding, one of another kind a pipeline as well", "[api][draw_path]") {
  Counting c;
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
