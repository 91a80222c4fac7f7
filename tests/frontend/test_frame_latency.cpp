// Frame latency: the application waits for the plugin's thread at Present, when the maximum frame
// latency's frames are in flight (D3D9Ex's SetMaximumFrameLatency, 3 by default) or when the
// command ring has no room left for another frame like the last one; never inside a draw (unless
// one frame alone is larger than the ring). The counting plugin holds its thread at PRESENT, so
// nothing the application sends is executed, and the test sees where the application stops.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <dlfcn.h>

#include "api_fixture.hpp"
#include "novem/statistics.h"

using namespace api_fixture;

namespace {

constexpr size_t kRingBytes = 1 << 20; // NOVEM_RING_SIZE's smallest ring

struct HeldExDevice {
  HeldExDevice() {
    setenv("NOVEM_RING_SIZE", std::to_string(kRingBytes).c_str(), 1);
    REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
    D3DPRESENT_PARAMETERS pp = headless(16, 16);
    REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr,
                                &device) == D3D_OK);
    plugin = dlopen(NOVEM_COUNTING_PLUGIN, RTLD_NOW | RTLD_NOLOAD); // the copy the frontend loaded
    REQUIRE(plugin);
    hold = reinterpret_cast<void (*)(int)>(dlsym(plugin, "novem_counting_plugin_hold_presents"));
    statistics_fn = reinterpret_cast<nv_get_statistics_fn>(dlsym(RTLD_DEFAULT, NV_STATISTICS_ENTRY_NAME));
    REQUIRE(hold);
    REQUIRE(statistics_fn);
    REQUIRE(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE) == D3D_OK);
  }
  ~HeldExDevice() {
    hold(0);
    CHECK(device->Release() == 0);
    CHECK(d3d->Release() == 0);
    dlclose(plugin);
    unsetenv("NOVEM_RING_SIZE");
  }
  nv_statistics statistics() {
    nv_statistics s{};
    REQUIRE(statistics_fn(device, &s) == 0);
    return s;
  }
  void draw() {
    const TLVertex v[3] = {{0, 0, 0.5f, 1, 0xffffffff}, {16, 0, 0.5f, 1, 0xffffffff}, {0, 16, 0.5f, 1, 0xffffffff}};
    REQUIRE(device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof v[0]) == D3D_OK);
  }

  Backend backend{NOVEM_COUNTING_PLUGIN};
  IDirect3D9Ex *d3d = nullptr;
  IDirect3DDevice9Ex *device = nullptr;
  void *plugin = nullptr;
  void (*hold)(int) = nullptr;
  nv_get_statistics_fn statistics_fn = nullptr;
};

} // namespace

TEST_CASE("frame latency: Present waits when the worker is that many frames behind, never a draw",
          "[api][present][latency]") {
  struct Case {
    UINT latency;            // SetMaximumFrameLatency (0: the default, 3)
    double frame_share;      // a frame's bytes in the ring, as a share of the ring
    int waits_in_present;    // the Present (1 = the first frame's) the application stops in
  };
  const Case cases[] = {
      {1, 0.0, 1}, {2, 0.0, 2}, {0, 0.0, 3}, {3, 0.0, 3}, // frames in flight
      {16, 0.3, 3}, {16, 0.45, 2}, {3, 0.3, 3}, {2, 0.3, 2}, // the ring's room for the next frame
  };
  for (const Case &c : cases) {
    CAPTURE(c.latency, c.frame_share);
    HeldExDevice d;
    REQUIRE(d.device->SetMaximumFrameLatency(c.latency) == D3D_OK);
    // How many bytes a draw takes in the ring: a frame of 1000, measured.
    const uint64_t before = d.statistics().ring_bytes;
    for (int i = 0; i < 1000; ++i) d.draw();
    REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    const double draw_bytes = double(d.statistics().ring_bytes - before) / 1000.0;
    const int draws_per_frame = c.frame_share > 0 ? int(c.frame_share * double(kRingBytes) / draw_bytes) : 1;
    IDirect3DSurface9 *back = nullptr, *readback = nullptr;
    REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    REQUIRE(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr) == D3D_OK);
    REQUIRE(d.device->GetRenderTargetData(back, readback) == D3D_OK); // the ring is empty
    const nv_statistics start = d.statistics();

    // The plugin's thread stops at an empty frame's PRESENT: that frame stays in flight, and
    // nothing after it is executed (or freed from the ring).
    d.hold(1);
    REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    constexpr int kFrames = 8;
    std::atomic<int> draws{0}, presents{0};
    std::thread application([&] {
      for (int f = 0; f < kFrames; ++f) {
        for (int i = 0; i < draws_per_frame; ++i, ++draws) d.draw();
        d.device->Present(nullptr, nullptr, nullptr, nullptr);
        ++presents;
      }
    });
    // Every frame up to the one whose Present waits is drawn and, but that one, presented.
    const int frames_drawn = c.waits_in_present;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while ((draws < frames_drawn * draws_per_frame || presents < frames_drawn - 1) &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // time to run further, if it could
    CHECK(draws == frames_drawn * draws_per_frame);
    CHECK(presents == frames_drawn - 1);
    d.hold(0);
    application.join();
    CHECK(presents == kFrames);
    const nv_statistics end = d.statistics();
    CHECK(end.ring_full_waits == start.ring_full_waits); // never inside a draw
    if (c.latency == 16) CHECK(end.ring_room_waits > start.ring_room_waits);
    readback->Release();
    back->Release();
  }
}
