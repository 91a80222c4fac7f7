// D3DCREATE_MULTITHREADED: several threads calling the device and its resources at once. Each
// thread works on its own objects and its own slots of the device's state, so every answer it
// reads back is defined; without the device's lock the shared containers (lights, the FVF
// declarations, the command ring) are corrupted and the checks or the sanitizers fail.
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

constexpr int kThreads = 4;

// One thread's work; returns the number of calls that did not answer as expected.
// With `vary_fvf` each thread sets an FVF of its own (the null plugin draws nothing, so a draw
// may use another thread's).
int hammer(IDirect3DDevice9 *device, int id, int iterations, bool vary_fvf) {
  int failures = 0;
  auto expect = [&](bool ok) { failures += ok ? 0 : 1; };
  for (int n = 0; n < iterations; ++n) {
    const DWORD light_index = DWORD(id * 100000 + n); // a new light each time: the map grows
    D3DLIGHT9 light{};
    light.Type = D3DLIGHT_DIRECTIONAL;
    light.Direction = {float(id), float(n), 1.0f};
    expect(device->SetLight(light_index, &light) == D3D_OK);
    D3DLIGHT9 back{};
    expect(device->GetLight(light_index, &back) == D3D_OK && back.Direction.y == float(n));

    const float constant[4] = {float(id), float(n), 0, 1};
    expect(device->SetVertexShaderConstantF(UINT(id), constant, 1) == D3D_OK);
    float got[4];
    expect(device->GetVertexShaderConstantF(UINT(id), got, 1) == D3D_OK);

    IDirect3DVertexBuffer9 *vb = nullptr;
    expect(device->CreateVertexBuffer(256, 0, 0, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
    if (!vb) continue;
    void *p = nullptr;
    if (vb->Lock(0, 3 * sizeof(TLVertex), &p, 0) == D3D_OK) {
      const TLVertex v[3] = {{0, 0, 0.5f, 1, 0xffffffff}, {8, 0, 0.5f, 1, 0xffffffff}, {0, 8, 0.5f, 1, 0xffffffff}};
      std::memcpy(p, v, sizeof v);
      expect(vb->Unlock() == D3D_OK);
    } else {
      ++failures;
    }
    // Draws share the device's stream 0 and FVF with the other threads: whatever the interleaving,
    // each draw reads a buffer and an FVF some thread set.
    expect(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | (vary_fvf ? DWORD(id) << D3DFVF_TEXCOUNT_SHIFT : 0)) == D3D_OK);
    expect(device->SetStreamSource(0, vb, 0, sizeof(TLVertex)) == D3D_OK);
    device->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1); // another thread may have changed the FVF
    const TLVertex up[3] = {{0, 0, 0.5f, 1, 0xff00ff00}, {8, 0, 0.5f, 1, 0xff00ff00}, {0, 8, 0.5f, 1, 0xff00ff00}};
    device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, up, sizeof(TLVertex));

    IDirect3DStateBlock9 *block = nullptr;
    expect(device->CreateStateBlock(D3DSBT_ALL, &block) == D3D_OK);
    if (block) {
      expect(block->Apply() == D3D_OK);
      expect(block->Release() == 0);
    }
    expect(vb->Release() == 0);
  }
  return failures;
}

void run_threads(const char *backend_name) {
  Backend backend(backend_name);
  const bool null = std::string(backend_name) == "null";
  const bool vary_fvf = null;
  const int iterations = null ? 2000 : 200; // the null plugin draws nothing: more calls to interleave
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  HRESULT hr = d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr,
                                 D3DCREATE_HARDWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp, &device);
  if (hr != D3D_OK) {
    d3d->Release();
    WARN(std::string(backend_name) + " cannot start here");
    return;
  }
  std::atomic<int> failures{0}, waiting{kThreads};
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id)
    threads.emplace_back([&, id] {
      // All start together, so that their calls interleave from the first.
      --waiting;
      while (waiting.load() > 0) std::this_thread::yield();
      failures += hammer(device, id, iterations, vary_fvf);
    });
  for (std::thread &t : threads) t.join();
  CHECK(failures.load() == 0);
  REQUIRE(device->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  // Every light each thread set is there.
  D3DLIGHT9 light{};
  for (int id = 0; id < kThreads; ++id)
    for (int n = 0; n < iterations; n += 37) {
      REQUIRE(device->GetLight(DWORD(id * 100000 + n), &light) == D3D_OK);
      CHECK(light.Direction.x == float(id));
    }
  CHECK(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

// One thread creates, issues and polls event queries (GetData with FLUSH) while another draws
// with DrawPrimitiveUP: Issue and GetData push to the ring the draws push to, under the device's
// lock, and every query completes. Returns the queries that never did (a wait of 20 s each
// stands for never: a lost fence leaves GetData at S_FALSE for good). The drawer draws up to 64
// draws per query, so that a software rasteriser is not buried under draws queued ahead of it.
int queries_beside_draws(IDirect3DDevice9 *device, int queries) {
  std::atomic<bool> done{false};
  std::atomic<int> budget{0};
  std::thread drawer([&] {
    const TLVertex v[3] = {{0, 0, 0.5f, 1, 0xff00ff00}, {8, 0, 0.5f, 1, 0xff00ff00}, {0, 8, 0.5f, 1, 0xff00ff00}};
    while (!done.load()) {
      if (budget.load() <= 0) {
        std::this_thread::yield();
        continue;
      }
      --budget;
      device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex));
    }
  });
  int never = 0;
  for (int n = 0; n < queries; ++n) {
    budget += 64;
    IDirect3DQuery9 *query = nullptr;
    if (device->CreateQuery(D3DQUERYTYPE_EVENT, &query) != D3D_OK) {
      ++never;
      continue;
    }
    query->Issue(D3DISSUE_END);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    HRESULT hr;
    while ((hr = query->GetData(nullptr, 0, D3DGETDATA_FLUSH)) == S_FALSE && std::chrono::steady_clock::now() < give_up)
      std::this_thread::yield();
    never += hr == S_OK ? 0 : 1;
    query->Release();
  }
  done = true;
  drawer.join();
  return never;
}

void run_queries(const char *backend_name) {
  Backend backend(backend_name);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp,
                        &device) != D3D_OK) {
    d3d->Release();
    WARN(std::string(backend_name) + " cannot start here");
    return;
  }
  REQUIRE(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE) == D3D_OK);
  CHECK(queries_beside_draws(device, std::string(backend_name) == "null" ? 1000 : 100) == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

} // namespace

TEST_CASE("D3DCREATE_MULTITHREADED: event queries beside draws on the null plugin", "[api][multithread][query]") {
  run_queries("null");
}

TEST_CASE("D3DCREATE_MULTITHREADED: event queries beside draws on Vulkan and OpenGL",
          "[api][multithread][query][backends]") {
  run_queries("vulkan");
  run_queries("opengl");
}

TEST_CASE("D3DCREATE_MULTITHREADED: concurrent calls on the null plugin", "[api][multithread]") {
  run_threads("null");
}

TEST_CASE("D3DCREATE_MULTITHREADED: concurrent calls and draws on Vulkan", "[api][multithread][backends]") {
  run_threads("vulkan");
}

// A texture's level objects are made on first use: threads asking for them at once each get the
// one object of a level (and no level is made twice and leaked), and the texture's other setters
// take the lock too.
TEST_CASE("D3DCREATE_MULTITHREADED: first GetSurfaceLevel, GetCubeMapSurface and GetVolumeLevel from several threads",
          "[api][multithread]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED,
                            &pp, &device) == D3D_OK);
  for (int round = 0; round < 20; ++round) {
    IDirect3DTexture9 *tex = nullptr;
    IDirect3DCubeTexture9 *cube = nullptr;
    IDirect3DVolumeTexture9 *volume = nullptr;
    REQUIRE(device->CreateTexture(64, 64, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
    REQUIRE(device->CreateCubeTexture(16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr) == D3D_OK);
    REQUIRE(device->CreateVolumeTexture(8, 8, 8, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &volume, nullptr) == D3D_OK);
    const UINT levels = tex->GetLevelCount();
    std::vector<std::vector<void *>> got(kThreads);
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; ++id)
      threads.emplace_back([&, id] {
        for (UINT level = 0; level < levels; ++level) {
          IDirect3DSurface9 *s = nullptr;
          tex->GetSurfaceLevel(level, &s);
          got[id].push_back(s);
          if (s) s->Release();
        }
        IDirect3DSurface9 *face = nullptr;
        cube->GetCubeMapSurface(D3DCUBEMAP_FACE_POSITIVE_Y, 1, &face);
        got[id].push_back(face);
        if (face) face->Release();
        IDirect3DVolume9 *v = nullptr;
        volume->GetVolumeLevel(1, &v);
        got[id].push_back(v);
        if (v) v->Release();
        tex->SetPriority(DWORD(id));
        tex->SetAutoGenFilterType(id % 2 ? D3DTEXF_POINT : D3DTEXF_LINEAR);
      });
    for (std::thread &t : threads) t.join();
    for (int id = 1; id < kThreads; ++id) CHECK(got[id] == got[0]);
    for (void *p : got[0]) CHECK(p != nullptr);
    CHECK(tex->Release() == 0);
    CHECK(cube->Release() == 0);
    CHECK(volume->Release() == 0);
  }
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}
