// A resource the plugin cannot make, though the frontend's video-memory accounting let it through,
// is refused by the creation call (ABI 9): D3DERR_OUTOFVIDEOMEMORY in D3DPOOL_DEFAULT, E_OUTOFMEMORY
// in D3DPOOL_MANAGED and on D3D9Ex devices. Nothing is made, the video memory it took is given back,
// and the device goes on: a normal creation and a draw work.
//
// The real drivers: llvmpipe's GL refuses a texture past 2 GiB (a 16384x16384 A16B16G16R16F texture
// with its mips is 2.7 GiB, within the 4 GiB GL's adapter reports where the machine has 16 GiB of
// memory). lavapipe's limits (2 GiB per allocation and 2 GiB of heap) are its whole video memory, so
// the accounting refuses first whatever the size; NOVEM_VK_MAX_ALLOCATION plays a driver with a
// 32 MiB maxMemoryAllocationSize instead, through the same check in the plugin, or (4 MiB) one
// whose memory is nearly spent.
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

#include "api_fixture.hpp"
#include "counting_device.hpp"
#include "novem/statistics.h"

using namespace api_fixture;

namespace {

struct Vertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};

uint64_t creation_failures(IDirect3DDevice9 *device) {
  auto get = reinterpret_cast<nv_get_statistics_fn>(dlsym(RTLD_DEFAULT, NV_STATISTICS_ENTRY_NAME));
  REQUIRE(get != nullptr);
  nv_statistics stats{};
  REQUIRE(get(device, &stats) == 0);
  return stats.creation_failures;
}

// The back buffer's texel (x, y), through GetRenderTargetData.
D3DCOLOR back_buffer_texel(IDirect3DDevice9 *device, UINT x, UINT y) {
  IDirect3DSurface9 *back = nullptr, *mem = nullptr;
  REQUIRE(device->GetRenderTarget(0, &back) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(back->GetDesc(&desc) == D3D_OK);
  REQUIRE(device->CreateOffscreenPlainSurface(desc.Width, desc.Height, desc.Format, D3DPOOL_SYSTEMMEM, &mem, nullptr) ==
          D3D_OK);
  REQUIRE(device->GetRenderTargetData(back, mem) == D3D_OK);
  D3DLOCKED_RECT lr;
  REQUIRE(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
  D3DCOLOR c;
  std::memcpy(&c, static_cast<const uint8_t *>(lr.pBits) + y * UINT(lr.Pitch) + x * 4, 4);
  REQUIRE(mem->UnlockRect() == D3D_OK);
  mem->Release();
  back->Release();
  return c;
}

// After the refusals: a texture and a vertex buffer are made, and a quad drawn from the buffer
// covers the left half of the cleared back buffer.
void device_goes_on(IDirect3DDevice9 *device) {
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(device->CreateTexture(256, 256, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
  IDirect3DVertexBuffer9 *vb = nullptr;
  const DWORD fvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
  REQUIRE(device->CreateVertexBuffer(6 * sizeof(Vertex), D3DUSAGE_WRITEONLY, fvf, D3DPOOL_DEFAULT, &vb, nullptr) ==
          D3D_OK);
  const D3DCOLOR green = 0xff00ff00;
  const Vertex quad[6] = {{0, 0, 0.5f, 1, green},  {32, 0, 0.5f, 1, green},  {0, 64, 0.5f, 1, green},
                          {32, 0, 0.5f, 1, green}, {32, 64, 0.5f, 1, green}, {0, 64, 0.5f, 1, green}};
  void *bytes = nullptr;
  REQUIRE(vb->Lock(0, 0, &bytes, 0) == D3D_OK);
  std::memcpy(bytes, quad, sizeof quad);
  REQUIRE(vb->Unlock() == D3D_OK);
  REQUIRE(device->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff0000ff, 1.0f, 0) == D3D_OK);
  REQUIRE(device->SetRenderState(D3DRS_LIGHTING, FALSE) == D3D_OK);
  REQUIRE(device->SetFVF(fvf) == D3D_OK);
  REQUIRE(device->SetStreamSource(0, vb, 0, sizeof(Vertex)) == D3D_OK);
  REQUIRE(device->BeginScene() == D3D_OK);
  REQUIRE(device->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 2) == D3D_OK);
  REQUIRE(device->EndScene() == D3D_OK);
  CHECK(back_buffer_texel(device, 8, 32) == green);
  CHECK(back_buffer_texel(device, 56, 32) == 0xff0000ff);
  REQUIRE(device->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(vb->Release() == 0);
  CHECK(texture->Release() == 0);
}

// A device of the backend now chosen, or nullptr (with a warning) where it cannot start.
IDirect3DDevice9 *make_device(IDirect3D9 *d3d, const char *name) {
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) != D3D_OK) {
    WARN(name << " cannot start here: skipped");
    return nullptr;
  }
  return device;
}

struct ScopedEnv {
  const char *name;
  ScopedEnv(const char *n, const char *value) : name(n) { setenv(n, value, 1); }
  ~ScopedEnv() { unsetenv(name); }
};

} // namespace

TEST_CASE("creation answer: Vulkan, resources past the plugin's largest allocation are refused, and the device goes on",
          "[api][limits][backends]") {
  Backend backend("vulkan");
  ScopedEnv limit("NOVEM_VK_MAX_ALLOCATION", "33554432"); // 32 MiB
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  IDirect3DDevice9 *device = make_device(d3d, "vulkan");
  if (device) {
    const UINT start = device->GetAvailableTextureMem();
    REQUIRE(start > (256u << 20)); // every creation below fits the accounting
    const uint64_t failures = creation_failures(device);
    // 64 MiB each: past the plugin's limit, within the adapter's memory.
    IDirect3DTexture9 *texture = reinterpret_cast<IDirect3DTexture9 *>(0x1);
    CHECK(device->CreateTexture(4096, 4096, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) ==
          D3DERR_OUTOFVIDEOMEMORY);
    CHECK(texture == nullptr);
    CHECK(device->CreateTexture(4096, 4096, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr) == E_OUTOFMEMORY);
    IDirect3DCubeTexture9 *cube = nullptr;
    CHECK(device->CreateCubeTexture(2048, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr) ==
          D3DERR_OUTOFVIDEOMEMORY);
    IDirect3DSurface9 *surface = reinterpret_cast<IDirect3DSurface9 *>(0x1);
    CHECK(device->CreateRenderTarget(4096, 4096, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &surface, nullptr) ==
          D3DERR_OUTOFVIDEOMEMORY);
    CHECK(surface == nullptr);
    CHECK(device->CreateDepthStencilSurface(4096, 4096, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &surface,
                                            nullptr) == D3DERR_OUTOFVIDEOMEMORY);
    CHECK(device->CreateOffscreenPlainSurface(4096, 4096, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &surface, nullptr) ==
          D3DERR_OUTOFVIDEOMEMORY);
    IDirect3DVertexBuffer9 *vb = reinterpret_cast<IDirect3DVertexBuffer9 *>(0x1);
    CHECK(device->CreateVertexBuffer(64u << 20, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3DERR_OUTOFVIDEOMEMORY);
    CHECK(vb == nullptr);
    IDirect3DIndexBuffer9 *ib = nullptr;
    CHECK(device->CreateIndexBuffer(64u << 20, 0, D3DFMT_INDEX32, D3DPOOL_SYSTEMMEM, &ib, nullptr) == E_OUTOFMEMORY);
    CHECK(ib == nullptr);
    // The plugin refused each of them, not the accounting, which has all its memory back.
    CHECK(creation_failures(device) == failures + 8);
    CHECK(device->GetAvailableTextureMem() == start);
    // Within the limit, the same kinds are made.
    REQUIRE(device->CreateTexture(2048, 2048, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
    REQUIRE(device->CreateVertexBuffer(16u << 20, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
    CHECK(vb->Release() == 0);
    CHECK(texture->Release() == 0);
    device_goes_on(device);
    CHECK(creation_failures(device) == failures + 8);
    CHECK(device->Release() == 0);
  }
  CHECK(d3d->Release() == 0);
}

// A creation under 32 MiB does not wait for the plugin; if the plugin could not make it, the
// device's memory is spent, and from the next creation on every one waits and answers as Windows
// does. The counting plugin plays a device whose memory runs out and is freed again.
TEST_CASE("creation answer: after a small creation the plugin could not make, every creation is answered",
          "[api][limits]") {
  CountingDevice c;
  auto memory_spent = reinterpret_cast<void (*)(int)>(dlsym(c.plugin, "novem_counting_plugin_memory_spent"));
  REQUIRE(memory_spent);
  IDirect3DDevice9 *device = c.device;
  const uint64_t failures = creation_failures(device);
  memory_spent(1);
  // 1 MiB: not waited for, so D3D_OK, though the plugin does not make it.
  IDirect3DTexture9 *unmade = nullptr, *texture = reinterpret_cast<IDirect3DTexture9 *>(0x1);
  REQUIRE(device->CreateTexture(512, 512, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &unmade, nullptr) == D3D_OK);
  c.executed(NV_OP_CREATE_IMAGE); // the plugin has run it: the next creation sees the failure
  const uint64_t seen = creation_failures(device); // the readback's temporary images failed too
  CHECK(seen > failures);
  CHECK(device->CreateTexture(512, 512, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) ==
        D3DERR_OUTOFVIDEOMEMORY);
  CHECK(texture == nullptr);
  IDirect3DVertexBuffer9 *vb = reinterpret_cast<IDirect3DVertexBuffer9 *>(0x1);
  CHECK(device->CreateVertexBuffer(4096, 0, 0, D3DPOOL_MANAGED, &vb, nullptr) == E_OUTOFMEMORY);
  CHECK(vb == nullptr);
  IDirect3DSurface9 *target = reinterpret_cast<IDirect3DSurface9 *>(0x1);
  CHECK(device->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr) ==
        D3DERR_OUTOFVIDEOMEMORY);
  CHECK(target == nullptr);
  CHECK(creation_failures(device) == seen + 3);
  // The program frees memory and tries again: made, and answered so (it waited).
  CHECK(unmade->Release() == 0);
  memory_spent(0);
  const uint64_t fences = c.executed(NV_OP_FENCE);
  REQUIRE(device->CreateTexture(512, 512, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
  CHECK(c.executed(NV_OP_FENCE) > fences);
  REQUIRE(device->CreateVertexBuffer(4096, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  CHECK(vb->Release() == 0);
  CHECK(texture->Release() == 0);
  CHECK(creation_failures(device) == seen + 3);
}

// Until then, small creations send no fence: they do not wait.
TEST_CASE("creation answer: small creations do not wait while no creation has failed", "[api][limits]") {
  CountingDevice c;
  const uint64_t fences = c.executed(NV_OP_FENCE);
  IDirect3DTexture9 *texture = nullptr;
  for (int i = 0; i < 8; ++i) {
    REQUIRE(c.device->CreateTexture(512, 512, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
    CHECK(texture->Release() == 0);
  }
  // Each creation that waited would have sent a fence (8); executed()'s readbacks send one each,
  // which the plugin may count only after the wait for it returned (so up to 2 here).
  CHECK(c.executed(NV_OP_FENCE) - fences <= 2);
}

TEST_CASE("creation answer: a D3D9Ex device answers E_OUTOFMEMORY in D3DPOOL_DEFAULT too", "[api][limits][backends]") {
  Backend backend("vulkan");
  ScopedEnv limit("NOVEM_VK_MAX_ALLOCATION", "33554432");
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  IDirect3DDevice9 *device = make_device(d3d, "vulkan");
  if (device) {
    // Wine's d3d9ex test_vidmem_accounting: "No D3DERR_OUTOFVIDEOMEMORY in d3d9ex".
    IDirect3DTexture9 *texture = nullptr;
    CHECK(device->CreateTexture(4096, 4096, 1, D3DUSAGE_RENDERTARGET, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &texture,
                                nullptr) == E_OUTOFMEMORY);
    CHECK(texture == nullptr);
    device_goes_on(device);
    CHECK(device->Release() == 0);
  }
  CHECK(d3d->Release() == 0);
}

TEST_CASE("creation answer: OpenGL, a texture llvmpipe cannot make is refused, and the device goes on",
          "[api][limits][backends]") {
  Backend backend("opengl");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  IDirect3DDevice9 *device = make_device(d3d, "opengl");
  if (device) {
    D3DADAPTER_IDENTIFIER9 id{};
    REQUIRE(d3d->GetAdapterIdentifier(0, 0, &id) == D3D_OK);
    const UINT start = device->GetAvailableTextureMem();
    // 16384x16384 texels of 8 bytes with their mips: 2.7 GiB.
    const uint64_t bytes = (uint64_t(16384) * 16384 * 8 * 4 + 2) / 3;
    if (!std::strstr(id.Description, "llvmpipe") || start < bytes + (64u << 20)) {
      WARN("not llvmpipe, or its adapter holds " << (start >> 20) << " MiB: skipped");
    } else {
      const uint64_t failures = creation_failures(device);
      IDirect3DTexture9 *texture = reinterpret_cast<IDirect3DTexture9 *>(0x1);
      CHECK(device->CreateTexture(16384, 16384, 0, 0, D3DFMT_A16B16G16R16F, D3DPOOL_DEFAULT, &texture, nullptr) ==
            D3DERR_OUTOFVIDEOMEMORY);
      CHECK(texture == nullptr);
      CHECK(device->CreateTexture(16384, 16384, 0, 0, D3DFMT_A16B16G16R16F, D3DPOOL_MANAGED, &texture, nullptr) ==
            E_OUTOFMEMORY);
      CHECK(creation_failures(device) == failures + 2);
      CHECK(device->GetAvailableTextureMem() == start);
      device_goes_on(device);
      CHECK(creation_failures(device) == failures + 2);
    }
    CHECK(device->Release() == 0);
  }
  CHECK(d3d->Release() == 0);
}
