// The HUD (NOVEM_HUD) as the plugin sees it: its draws reach the plugin marked as the frontend's
// own (NV_CMD_OVERLAY), so the application's draw counters do not include them; and NOVEM_HUD
// works from the config file too. What it looks like, and that the application's state survives
// it, are scene tests (tests/scenes/test_hud_scenes.cpp).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <dlfcn.h>
#include <unistd.h>

#include "../support/run_child.hpp"
#include "counting_device.hpp"

#include <novem/statistics.h>

using namespace api_fixture;
namespace fs = std::filesystem;

namespace {

nv_statistics statistics(IDirect3DDevice9 *device) {
  auto get = reinterpret_cast<nv_get_statistics_fn>(dlsym(RTLD_DEFAULT, NV_STATISTICS_ENTRY_NAME));
  REQUIRE(get);
  nv_statistics s{};
  REQUIRE(get(device, &s) == 0);
  return s;
}

// Sets (or unsets, with nullptr) an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const char *value) : name(n) {
    if (value) setenv(n, value, 1);
    else unsetenv(n);
  }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

} // namespace

TEST_CASE("HUD: the application's draw counters do not count the HUD's draws", "[api][hud]") {
  struct Case {
    const char *hud; // NOVEM_HUD; nullptr: unset
    uint64_t hud_draws_per_present;
  };
  const Case cases[] = {{nullptr, 0}, {"full", 1}, {"fps", 1}, {"draws,version", 1}, {"fps,bogus", 0}};
  for (const Case &c : cases) {
    INFO("NOVEM_HUD=" << (c.hud ? c.hud : "(unset)"));
    ScopedEnv hud("NOVEM_HUD", c.hud);
    CountingDevice d;
    const uint64_t draws_before = d.executed(NV_OP_DRAW);
    for (int i = 0; i < 3; ++i) d.draw();
    REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    for (int i = 0; i < 2; ++i) d.draw();
    REQUIRE(d.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
    CHECK(d.executed(NV_OP_DRAW) - draws_before == 5); // what the plugin counted as executed
    const nv_statistics s = statistics(d.device);
    CHECK(s.draws == 5);
    CHECK(s.overlay_draws == 2 * c.hud_draws_per_present);
  }
}

TEST_CASE("hud child: prints the HUD's draws after one Present", "[.hud-child]") {
  if (!std::getenv("NOVEM_TEST_HUD_CHILD")) return;
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless(64, 64);
  IDirect3DDevice9 *device = nullptr;
  if (!d3d || d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) != D3D_OK)
    std::exit(3);
  IDirect3DSurface9 *back = nullptr, *readback = nullptr;
  if (device->Present(nullptr, nullptr, nullptr, nullptr) != D3D_OK ||
      device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) != D3D_OK ||
      device->CreateOffscreenPlainSurface(64, 64, pp.BackBufferFormat, D3DPOOL_SYSTEMMEM, &readback, nullptr) != D3D_OK ||
      device->GetRenderTargetData(back, readback) != D3D_OK) // waits until the plugin has executed the Present
    std::exit(4);
  std::printf("hud draws %llu\n", static_cast<unsigned long long>(statistics(device).overlay_draws));
  back->Release();
  readback->Release();
  device->Release();
  d3d->Release();
  std::exit(0);
}

TEST_CASE("HUD: NOVEM_HUD, NOVEM_HUD_SCALE and NOVEM_HUD_POSITION from the config file, a bad value one line",
          "[api][hud][settings]") {
  struct Case {
    const char *lines;    // the config file
    const char *expected; // in the child's output
  };
  const Case cases[] = {
      {"", "hud draws 0"},
      {"NOVEM_HUD = full\nNOVEM_HUD_SCALE = 2\nNOVEM_HUD_POSITION = bottom-right\n", "hud draws 1"},
      {"NOVEM_HUD = fps,frametimes\n", "hud draws 1"},
      {"NOVEM_HUD = fps;draws\n", "NOVEM_HUD=fps;draws is not a comma-separated list of fps, frametimes, draws, "
                                  "pipelines, memory, backend, version or full; ignored"},
      {"NOVEM_HUD = fps;draws\n", "hud draws 0"},
      {"NOVEM_HUD = full\nNOVEM_HUD_POSITION = middle\n", "NOVEM_HUD_POSITION=middle is not one of top-left, "
                                                          "top-right, bottom-left or bottom-right; ignored"},
      {"NOVEM_HUD = full\nNOVEM_HUD_POSITION = middle\n", "hud draws 1"}, // the HUD still, in its default corner
      {"NOVEM_HUD = full\nNOVEM_HUD_SCALE = 0\n", "NOVEM_HUD_SCALE=0 is not a whole number from 1 to 8; ignored"},
  };
  const fs::path dir = fs::temp_directory_path() / ("novem-hud-" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const Case &c : cases) {
    const fs::path conf = dir / "novem.conf";
    std::ofstream(conf) << c.lines;
    const std::map<std::string, std::string> env = {
        {"NOVEM_BACKEND", NOVEM_COUNTING_PLUGIN}, {"NOVEM_TEST_HUD_CHILD", "1"}, {"NOVEM_CONFIG", conf.string()}};
    const novem::test::ChildRun child =
        novem::test::run_child({"/proc/self/exe", "hud child: prints the HUD's draws after one Present"}, env,
                               {"NOVEM_HUD", "NOVEM_HUD_SCALE", "NOVEM_HUD_POSITION"});
    INFO(c.lines << "\n" << child.output);
    REQUIRE(child.status == 0);
    CHECK(child.output.find(c.expected) != std::string::npos);
  }
  fs::remove_all(dir);
}
