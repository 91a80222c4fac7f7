// Back-buffer chains on the null plugin: BackBufferCount back buffers per swap chain (the implicit
// one and additional ones), what GetBackBuffer answers for each index and type, their reference
// counts, the counts CreateDevice, Reset and CreateAdditionalSwapChain accept, and that a FLIP
// Present keeps the surface objects (their contents are checked on the real drivers in
// tests/scenes/test_back_buffer_chain_scenes.cpp).
#include <utility>
#include <vector>

#include "api_fixture.hpp"
#include "counting_device.hpp"

using namespace api_fixture;

namespace {

D3DPRESENT_PARAMETERS chain_parameters(UINT count, D3DSWAPEFFECT effect) {
  D3DPRESENT_PARAMETERS pp = headless(32, 16);
  pp.BackBufferCount = count;
  pp.SwapEffect = effect;
  return pp;
}

IDirect3DDevice9 *create_device(IDirect3D9 *d3d, D3DPRESENT_PARAMETERS pp) {
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
  return device;
}

// The container a surface answers for IID_IDirect3DSwapChain9 (released: only compared).
IDirect3DSwapChain9 *container_of(IDirect3DSurface9 *surface) {
  IDirect3DSwapChain9 *chain = nullptr;
  REQUIRE(surface->GetContainer(IID_IDirect3DSwapChain9, reinterpret_cast<void **>(&chain)) == D3D_OK);
  chain->Release();
  return chain;
}

// Every back buffer of `chain` (expected: `count` of them) through the swap chain, checked against
// the device's answers when the chain is the implicit one (`device_index` 0), and the failures
// past the end: the device's GetBackBuffer writes NULL, the swap chain's leaves the pointer as it
// was (Wine's test_swapchain records both on Windows).
std::vector<IDirect3DSurface9 *> check_back_buffers(IDirect3DDevice9 *device, IDirect3DSwapChain9 *chain, UINT count,
                                                    bool implicit) {
  std::vector<IDirect3DSurface9 *> buffers;
  for (UINT i = 0; i < count; ++i) {
    INFO("back buffer " << i);
    IDirect3DSurface9 *surface = nullptr;
    REQUIRE(chain->GetBackBuffer(i, D3DBACKBUFFER_TYPE_MONO, &surface) == D3D_OK);
    for (IDirect3DSurface9 *other : buffers) CHECK(other != surface);
    D3DSURFACE_DESC desc{};
    REQUIRE(surface->GetDesc(&desc) == D3D_OK);
    CHECK((desc.Width == 32 && desc.Height == 16 && desc.Format == D3DFMT_A8R8G8B8));
    CHECK(desc.Usage == D3DUSAGE_RENDERTARGET);
    CHECK(desc.Pool == D3DPOOL_DEFAULT);
    CHECK(container_of(surface) == chain);
    // The type is ignored, as Windows ignores it (no stereo back buffers).
    for (D3DBACKBUFFER_TYPE type : {D3DBACKBUFFER_TYPE_LEFT, D3DBACKBUFFER_TYPE_RIGHT, D3DBACKBUFFER_TYPE(3)}) { // 3: no such type, within the enum (UBSan checks)
      IDirect3DSurface9 *typed = nullptr;
      REQUIRE(chain->GetBackBuffer(i, type, &typed) == D3D_OK);
      CHECK(typed == surface);
      typed->Release();
      if (implicit) {
        REQUIRE(device->GetBackBuffer(0, i, type, &typed) == D3D_OK);
        CHECK(typed == surface);
        typed->Release();
      }
    }
    if (implicit) {
      IDirect3DSurface9 *from_device = nullptr;
      REQUIRE(device->GetBackBuffer(0, i, D3DBACKBUFFER_TYPE_MONO, &from_device) == D3D_OK);
      CHECK(from_device == surface);
      from_device->Release();
    }
    buffers.push_back(surface);
  }
  auto *sentinel = reinterpret_cast<IDirect3DSurface9 *>(0xdeadbeef);
  for (UINT past : {count, count + 1, 30u}) {
    IDirect3DSurface9 *surface = sentinel;
    CHECK(chain->GetBackBuffer(past, D3DBACKBUFFER_TYPE_MONO, &surface) == D3DERR_INVALIDCALL);
    CHECK(surface == sentinel);
    if (implicit) {
      CHECK(device->GetBackBuffer(0, past, D3DBACKBUFFER_TYPE_MONO, &surface) == D3DERR_INVALIDCALL);
      CHECK(surface == nullptr);
    }
  }
  CHECK(chain->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, nullptr) == D3DERR_INVALIDCALL);
  return buffers;
}

void release_all(const std::vector<IDirect3DSurface9 *> &surfaces) {
  for (IDirect3DSurface9 *s : surfaces) s->Release();
}

} // namespace

TEST_CASE("BackBufferCount back buffers: GetBackBuffer for each index and type, on the device and its swap chain",
          "[api][present][chain]") {
  struct Case {
    UINT count;
    D3DSWAPEFFECT effect;
  };
  const Case cases[] = {{0, D3DSWAPEFFECT_DISCARD}, {1, D3DSWAPEFFECT_DISCARD}, {2, D3DSWAPEFFECT_DISCARD},
                        {3, D3DSWAPEFFECT_DISCARD}, {1, D3DSWAPEFFECT_FLIP},    {2, D3DSWAPEFFECT_FLIP},
                        {3, D3DSWAPEFFECT_FLIP},    {0, D3DSWAPEFFECT_COPY},    {1, D3DSWAPEFFECT_COPY}};
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  for (const Case &c : cases) {
    INFO("BackBufferCount " << c.count << ", swap effect " << c.effect);
    D3DPRESENT_PARAMETERS pp = chain_parameters(c.count, c.effect);
    IDirect3DDevice9 *device = nullptr;
    REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) == D3D_OK);
    const UINT count = c.count ? c.count : 1;
    CHECK(pp.BackBufferCount == count); // 0 is written back as the 1 it means
    IDirect3DSwapChain9 *chain = nullptr;
    REQUIRE(device->GetSwapChain(0, &chain) == D3D_OK);
    D3DPRESENT_PARAMETERS got{};
    REQUIRE(chain->GetPresentParameters(&got) == D3D_OK);
    CHECK(got.BackBufferCount == count);

    std::vector<IDirect3DSurface9 *> buffers = check_back_buffers(device, chain, count, true);
    // A bad swap chain index: D3DERR_INVALIDCALL and NULL, whatever the back buffer index.
    IDirect3DSurface9 *surface = reinterpret_cast<IDirect3DSurface9 *>(0xdeadbeef);
    CHECK(device->GetBackBuffer(1, 0, D3DBACKBUFFER_TYPE_MONO, &surface) == D3DERR_INVALIDCALL);
    CHECK(surface == nullptr);
    // Back buffer 0 is render target 0 of a new device.
    REQUIRE(device->GetRenderTarget(0, &surface) == D3D_OK);
    CHECK(surface == buffers[0]);
    surface->Release();
    release_all(buffers);
    CHECK(chain->Release() == 0);
    CHECK(device->Release() == 0);
  }
  CHECK(d3d->Release() == 0);
}

TEST_CASE("back buffer counts: at most 3 (30 on D3D9Ex devices), COPY only 1, swap effects past COPY only on D3D9Ex",
          "[api][present][chain]") {
  struct Case {
    UINT count;
    D3DSWAPEFFECT effect;
    HRESULT plain, extended; // CreateDevice's answer on a Direct3DCreate9 and a Direct3DCreate9Ex device
  };
  const Case cases[] = {
      {3, D3DSWAPEFFECT_FLIP, D3D_OK, D3D_OK},
      {4, D3DSWAPEFFECT_FLIP, D3DERR_INVALIDCALL, D3D_OK},
      {4, D3DSWAPEFFECT_DISCARD, D3DERR_INVALIDCALL, D3D_OK},
      {30, D3DSWAPEFFECT_DISCARD, D3DERR_INVALIDCALL, D3D_OK},
      {31, D3DSWAPEFFECT_DISCARD, D3DERR_INVALIDCALL, D3DERR_INVALIDCALL},
      {2, D3DSWAPEFFECT_COPY, D3DERR_INVALIDCALL, D3DERR_INVALIDCALL},
      {1, D3DSWAPEFFECT_OVERLAY, D3DERR_INVALIDCALL, D3D_OK},
      {2, D3DSWAPEFFECT_FLIPEX, D3DERR_INVALIDCALL, D3D_OK},
      {1, D3DSWAPEFFECT(0), D3DERR_INVALIDCALL, D3DERR_INVALIDCALL},
      {1, D3DSWAPEFFECT(6), D3DERR_INVALIDCALL, D3DERR_INVALIDCALL},
  };
  Backend backend("null");
  IDirect3D9Ex *d3d_ex = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d_ex) == D3D_OK);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  IDirect3DDevice9 *device = create_device(d3d, headless(32, 16));
  IDirect3DDevice9Ex *device_ex = nullptr;
  D3DPRESENT_PARAMETERS ex_pp = headless(32, 16);
  REQUIRE(d3d_ex->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &ex_pp, nullptr,
                                 &device_ex) == D3D_OK);
  for (const Case &c : cases) {
    INFO("BackBufferCount " << c.count << ", swap effect " << c.effect);
    D3DPRESENT_PARAMETERS pp = chain_parameters(c.count, c.effect);
    IDirect3DDevice9 *created = nullptr;
    CHECK(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &created) == c.plain);
    if (created) CHECK(created->Release() == 0);
    pp = chain_parameters(c.count, c.effect);
    IDirect3DDevice9Ex *created_ex = nullptr;
    CHECK(d3d_ex->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr,
                                 &created_ex) == c.extended);
    if (created_ex) {
      IDirect3DSurface9 *last = nullptr;
      CHECK(created_ex->GetBackBuffer(0, c.count - 1, D3DBACKBUFFER_TYPE_MONO, &last) == D3D_OK);
      if (last) last->Release();
      CHECK(created_ex->Release() == 0);
    }
    // Reset and CreateAdditionalSwapChain check the same.
    pp = chain_parameters(c.count, c.effect);
    CHECK(device->Reset(&pp) == c.plain);
    pp = chain_parameters(c.count, c.effect);
    CHECK(device_ex->ResetEx(&pp, nullptr) == c.extended);
    pp = chain_parameters(c.count, c.effect);
    IDirect3DSwapChain9 *chain = nullptr;
    CHECK(device->CreateAdditionalSwapChain(&pp, &chain) == c.plain);
    if (chain) CHECK(chain->Release() == 0);
    pp = chain_parameters(c.count, c.effect);
    chain = nullptr;
    CHECK(device_ex->CreateAdditionalSwapChain(&pp, &chain) == c.extended);
    if (chain) CHECK(chain->Release() == 0);
  }
  CHECK(device_ex->Release() == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d_ex->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("every back buffer counts as native d3d9: created at 0, holds the device while held, blocks Reset",
          "[api][present][chain][reset]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  IDirect3DDevice9 *device = create_device(d3d, chain_parameters(3, D3DSWAPEFFECT_FLIP));
  for (UINT i = 0; i < 3; ++i) {
    INFO("back buffer " << i);
    IDirect3DSurface9 *back = nullptr;
    REQUIRE(device->GetBackBuffer(0, i, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    CHECK(refcount(back) == 1);
    CHECK(refcount(device) == 2); // the back buffer holds the device while it is held
    // Reset refuses while the application holds any of them.
    D3DPRESENT_PARAMETERS pp = chain_parameters(2, D3DSWAPEFFECT_FLIP);
    CHECK(device->Reset(&pp) == D3DERR_INVALIDCALL);
    CHECK(back->Release() == 0);
    CHECK(refcount(device) == 1);
    CHECK(back->Release() == 0); // one Release too many changes nothing, as native d3d9
  }

  // Reset makes the new count's buffers.
  D3DPRESENT_PARAMETERS pp = chain_parameters(2, D3DSWAPEFFECT_FLIP);
  REQUIRE(device->Reset(&pp) == D3D_OK);
  IDirect3DSwapChain9 *chain = nullptr;
  REQUIRE(device->GetSwapChain(0, &chain) == D3D_OK);
  release_all(check_back_buffers(device, chain, 2, true));
  pp = chain_parameters(0, D3DSWAPEFFECT_DISCARD);
  REQUIRE(device->Reset(&pp) == D3D_OK);
  CHECK(pp.BackBufferCount == 1);
  release_all(check_back_buffers(device, chain, 1, true));
  pp = chain_parameters(3, D3DSWAPEFFECT_DISCARD);
  REQUIRE(device->Reset(&pp) == D3D_OK);
  release_all(check_back_buffers(device, chain, 3, true));
  CHECK(chain->Release() == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("CreateAdditionalSwapChain makes BackBufferCount back buffers, its own container", "[api][present][chain]") {
  NullDevice d;
  for (UINT count : {0u, 1u, 2u, 3u}) {
    for (D3DSWAPEFFECT effect : {D3DSWAPEFFECT_DISCARD, D3DSWAPEFFECT_FLIP}) {
      INFO("BackBufferCount " << count << ", swap effect " << effect);
      D3DPRESENT_PARAMETERS pp = chain_parameters(count, effect);
      IDirect3DSwapChain9 *chain = nullptr;
      REQUIRE(d.device->CreateAdditionalSwapChain(&pp, &chain) == D3D_OK);
      const UINT made = count ? count : 1;
      CHECK(pp.BackBufferCount == made);
      std::vector<IDirect3DSurface9 *> buffers = check_back_buffers(d.device, chain, made, false);
      IDirect3DSurface9 *implicit = nullptr;
      REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit) == D3D_OK);
      for (IDirect3DSurface9 *s : buffers) CHECK(s != implicit);
      implicit->Release();
      CHECK(refcount(d.device) == 2 + made); // the chain and each held back buffer hold the device
      CHECK(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
      CHECK(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
      // Present keeps the surface objects: back buffer i is the same object after it.
      for (UINT i = 0; i < made; ++i) {
        IDirect3DSurface9 *after = nullptr;
        REQUIRE(chain->GetBackBuffer(i, D3DBACKBUFFER_TYPE_MONO, &after) == D3D_OK);
        CHECK(after == buffers[i]);
        after->Release();
      }
      release_all(buffers);
      CHECK(chain->Release() == 0);
    }
  }
}

// The swap chain goes first; the back buffer the application still holds lives on, a surface of the
// device (no swap chain to answer as its container any more).
TEST_CASE("a back buffer held past its additional swap chain", "[api][present][chain]") {
  NullDevice d;
  D3DPRESENT_PARAMETERS pp = chain_parameters(2, D3DSWAPEFFECT_FLIP);
  IDirect3DSwapChain9 *chain = nullptr;
  REQUIRE(d.device->CreateAdditionalSwapChain(&pp, &chain) == D3D_OK);
  IDirect3DSurface9 *back = nullptr;
  REQUIRE(chain->GetBackBuffer(1, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  CHECK(chain->Release() == 0);
  IDirect3DSwapChain9 *container = nullptr;
  CHECK(back->GetContainer(IID_IDirect3DSwapChain9, reinterpret_cast<void **>(&container)) == E_NOINTERFACE);
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(back->GetContainer(IID_IDirect3DDevice9, reinterpret_cast<void **>(&device)) == D3D_OK);
  CHECK(device == d.device);
  device->Release();
  CHECK(d.device->SetRenderTarget(0, back) == D3D_OK);
  CHECK(d.device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff102030, 1.0f, 0) == D3D_OK);
  CHECK(back->Release() == 0);
}

// After a FLIP Present render target 0 is still the surface object of back buffer 0 (Windows
// rotates the buffers' memory under the surfaces: "Flipping Surfaces"); a back buffer set as
// render target 0 stays it whatever its index.
TEST_CASE("FLIP Present keeps the render targets' surface objects", "[api][present][chain]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  IDirect3DDevice9 *device = create_device(d3d, chain_parameters(3, D3DSWAPEFFECT_FLIP));
  IDirect3DSurface9 *back0 = nullptr, *back2 = nullptr, *target = nullptr;
  REQUIRE(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back0) == D3D_OK);
  REQUIRE(device->GetBackBuffer(0, 2, D3DBACKBUFFER_TYPE_MONO, &back2) == D3D_OK);
  REQUIRE(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  REQUIRE(device->GetRenderTarget(0, &target) == D3D_OK);
  CHECK(target == back0);
  target->Release();
  REQUIRE(device->SetRenderTarget(0, back2) == D3D_OK);
  REQUIRE(device->SetRenderTarget(1, back0) == D3D_OK);
  REQUIRE(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  REQUIRE(device->GetRenderTarget(0, &target) == D3D_OK);
  CHECK(target == back2);
  target->Release();
  REQUIRE(device->GetRenderTarget(1, &target) == D3D_OK);
  CHECK(target == back0);
  target->Release();
  CHECK(device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff102030, 1.0f, 0) == D3D_OK);
  back0->Release();
  back2->Release();
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

// FLIP moves the buffers round instead of copying: no present of a FLIP chain sends a copy, however
// the next frame begins (DISCARD's deferred copy is tested in test_presentation.cpp).
TEST_CASE("FLIP Present rotates images and copies nothing", "[api][present][chain]") {
  CountingDevice c;
  IDirect3DDevice9 *d = c.device;
  D3DPRESENT_PARAMETERS pp = headless(16, 16);
  pp.SwapEffect = D3DSWAPEFFECT_FLIP;
  pp.BackBufferCount = 2;
  c.back_buffer->Release();
  REQUIRE(d->Reset(&pp) == D3D_OK);
  REQUIRE(d->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &c.back_buffer) == D3D_OK);
  c.sent(NV_OP_BLIT_IMAGE);
  for (int frame = 0; frame < 3; ++frame) {
    c.draw(); // a frame that begins with a draw
    REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    const D3DRECT half{0, 0, 8, 16};
    REQUIRE(d->Clear(1, &half, D3DCLEAR_TARGET, 0xff203040, 1.0f, 0) == D3D_OK); // or a clear of a part
    REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  }
  IDirect3DSurface9 *front = nullptr;
  REQUIRE(d->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr) == D3D_OK);
  REQUIRE(d->GetFrontBufferData(0, front) == D3D_OK);
  front->Release();
  CHECK(c.sent(NV_OP_BLIT_IMAGE) == 0);
  CHECK(c.executed(NV_OP_PRESENT) >= 6);
}

// D3DPRESENTFLAG_LOCKABLE_BACKBUFFER makes every back buffer of the chain lockable, an additional
// swap chain's too.
TEST_CASE("a lockable chain's back buffers all lock", "[api][present][chain]") {
  NullDevice d;
  for (bool lockable : {false, true}) {
    INFO("lockable " << lockable);
    D3DPRESENT_PARAMETERS pp = chain_parameters(3, D3DSWAPEFFECT_FLIP);
    if (lockable) pp.Flags |= D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
    IDirect3DSwapChain9 *chain = nullptr;
    REQUIRE(d.device->CreateAdditionalSwapChain(&pp, &chain) == D3D_OK);
    pp = chain_parameters(2, D3DSWAPEFFECT_DISCARD);
    if (lockable) pp.Flags |= D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
    IDirect3DDevice9 *device = create_device(d.d3d, pp);
    IDirect3DSwapChain9 *implicit = nullptr;
    REQUIRE(device->GetSwapChain(0, &implicit) == D3D_OK);
    for (auto [swap_chain, count] : {std::pair{chain, 3u}, std::pair{implicit, 2u}}) {
      for (UINT i = 0; i < count; ++i) {
        IDirect3DSurface9 *back = nullptr;
        REQUIRE(swap_chain->GetBackBuffer(i, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
        D3DLOCKED_RECT lr{};
        CHECK(back->LockRect(&lr, nullptr, 0) == (lockable ? D3D_OK : D3DERR_INVALIDCALL));
        if (lockable) CHECK(back->UnlockRect() == D3D_OK);
        back->Release();
      }
    }
    CHECK(implicit->Release() == 0);
    CHECK(device->Release() == 0);
    CHECK(chain->Release() == 0);
  }
}
