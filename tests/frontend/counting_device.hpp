// A headless device on the counting plugin (counting_plugin.cpp), and the count of each opcode its
// thread executed: what the API tests use to prove what the frontend sends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <dlfcn.h>

#include "api_fixture.hpp"
#include "counting_log.hpp"

#include <novem/commands.h>

namespace api_fixture {

struct CountingDevice {
  CountingDevice() {
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp = headless(16, 16);
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
    plugin = dlopen(NOVEM_COUNTING_PLUGIN, RTLD_NOW | RTLD_NOLOAD); // the copy the frontend loaded
    REQUIRE(plugin);
    executed_fn = reinterpret_cast<uint64_t (*)(uint32_t)>(dlsym(plugin, "novem_counting_plugin_executed"));
    REQUIRE(executed_fn);
    updates_fn = reinterpret_cast<CountingUpdatesFn>(dlsym(plugin, "novem_counting_plugin_updates"));
    forget_fn = reinterpret_cast<CountingForgetFn>(dlsym(plugin, "novem_counting_plugin_forget_updates"));
    REQUIRE(updates_fn);
    REQUIRE(forget_fn);
    forget_fn(); // the log is the plugin file's, shared by the devices of a test run
    REQUIRE(device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr) == D3D_OK);
    REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back_buffer) == D3D_OK);
  }
  ~CountingDevice() {
    back_buffer->Release();
    readback->Release();
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
    dlclose(plugin);
  }
  // Commands of `opcode` executed so far: every command sent has executed once the readback returns.
  uint64_t executed(uint32_t opcode) {
    REQUIRE(device->GetRenderTargetData(back_buffer, readback) == D3D_OK);
    return executed_fn(opcode);
  }
  // Commands of `opcode` executed since the last call of sent() for it.
  uint64_t sent(uint32_t opcode) {
    const uint64_t now = executed(opcode), delta = now - seen[opcode];
    seen[opcode] = now;
    return delta;
  }
  // The buffer and image updates executed since the last call (every command sent has executed
  // once the readback returns).
  std::vector<CountingUpdate> updates() {
    executed(NV_OP_UPDATE_BUFFER);
    std::vector<CountingUpdate> log(updates_fn(nullptr, 0));
    log.resize(std::min<uint64_t>(log.size(), updates_fn(log.data(), log.size())));
    forget_fn();
    return log;
  }
  // A pre-transformed triangle with a colour and one texture coordinate set.
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
  CountingUpdatesFn updates_fn = nullptr;
  CountingForgetFn forget_fn = nullptr;
  IDirect3DSurface9 *readback = nullptr, *back_buffer = nullptr;
  uint64_t seen[NV_OP_COUNT] = {};
};

} // namespace api_fixture
