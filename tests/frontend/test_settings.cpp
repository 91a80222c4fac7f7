// The library's settings as a user sets them: a config file beside the executable with a section
// for it, the adapter's ids reported as configured, and the frame limiter's waits (an algorithm on
// given times: tests never measure the clock). The settings are read once per process, so the
// programs here run as children: novem-demo copied under another name, and this test binary
// running the hidden case below.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "../support/run_child.hpp"
#include "api_fixture.hpp"
#include "frame_limiter.hpp"

using namespace api_fixture;
namespace fs = std::filesystem;

TEST_CASE("settings child: prints the adapter identifier", "[.settings-child]") {
  if (!std::getenv("NOVEM_TEST_SETTINGS_CHILD")) return;
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DADAPTER_IDENTIFIER9 id{};
  if (d3d->GetAdapterIdentifier(0, 0, &id) != D3D_OK) std::exit(3);
  std::printf("vendor %#lx device %#lx\n", static_cast<unsigned long>(id.VendorId), static_cast<unsigned long>(id.DeviceId));
  d3d->Release();
  std::exit(0);
}

TEST_CASE("settings child: prints the frame latency before and after the program sets 5", "[.settings-child]") {
  if (!std::getenv("NOVEM_TEST_SETTINGS_CHILD")) return;
  IDirect3D9Ex *d3d = nullptr;
  if (Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) != D3D_OK) std::exit(3);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9Ex *device = nullptr;
  if (d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &device) !=
      D3D_OK)
    std::exit(3);
  UINT before = 0, after = 0;
  device->GetMaximumFrameLatency(&before);
  const HRESULT set = device->SetMaximumFrameLatency(5);
  device->GetMaximumFrameLatency(&after);
  std::printf("latency %u, set %s, then %u\n", before, set == D3D_OK ? "ok" : "refused", after);
  device->Release();
  d3d->Release();
  std::exit(0);
}

TEST_CASE("settings: NOVEM_MAX_FRAME_LATENCY is the frame latency whatever the program sets", "[api][settings]") {
  struct Case {
    const char *setting; // nullptr: unset
    const char *expected;
  };
  const Case cases[] = {{nullptr, "latency 3, set ok, then 5"}, {"1", "latency 1, set ok, then 1"},
                        {"16", "latency 16, set ok, then 16"}, {"17", "latency 3, set ok, then 5"}};
  for (const Case &c : cases) {
    std::map<std::string, std::string> env = {{"NOVEM_BACKEND", "null"},
                                              {"NOVEM_TEST_SETTINGS_CHILD", "1"},
                                              {"NOVEM_CONFIG", "/nonexistent/novem.conf"}};
    if (c.setting) env["NOVEM_MAX_FRAME_LATENCY"] = c.setting;
    const novem::test::ChildRun child = novem::test::run_child(
        {"/proc/self/exe", "settings child: prints the frame latency before and after the program sets 5"}, env,
        c.setting ? std::vector<std::string>{} : std::vector<std::string>{"NOVEM_MAX_FRAME_LATENCY"});
    INFO("NOVEM_MAX_FRAME_LATENCY=" << (c.setting ? c.setting : "(unset)") << "\n" << child.output);
    REQUIRE(child.status == 0);
    CHECK(child.output.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("settings: NOVEM_VENDOR_ID and NOVEM_DEVICE_ID are what GetAdapterIdentifier reports", "[api][settings]") {
  const novem::test::ChildRun child = novem::test::run_child(
      {"/proc/self/exe", "settings child: prints the adapter identifier"},
      {{"NOVEM_BACKEND", "null"}, {"NOVEM_TEST_SETTINGS_CHILD", "1"}, {"NOVEM_VENDOR_ID", "0x10de"},
       {"NOVEM_DEVICE_ID", "4660"}, {"NOVEM_CONFIG", "/nonexistent/novem.conf"}});
  INFO(child.output);
  REQUIRE(child.status == 0);
  CHECK(child.output.find("vendor 0x10de device 0x1234") != std::string::npos);
}

TEST_CASE("settings: novem.conf beside the executable, its section, and one line per mistake", "[api][settings]") {
  const fs::path dir = fs::temp_directory_path() / ("novem-settings-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path program = dir / "my-game";
  fs::copy_file(NOVEM_DEMO_PATH, program, fs::copy_options::overwrite_existing);
  std::ofstream(dir / "novem.conf") << "NOVEM_BACKEND = vulkan\n"
                                       "NOVEM_FRAME_RATE = fast\n"
                                       "[my-game]\n"
                                       "NOVEM_BACKEND = null   # this program's section wins\n"
                                       "NOVEM_LOG = info\n"
                                       "NOVEM_LOG_SPEED = 3\n"
                                       "[novem-demo]\n"
                                       "NOVEM_LOG = error\n";
  const novem::test::ChildRun child = novem::test::run_child(
      {program.string(), "--frames", "2", "--size", "64x48", "--out", (dir / "frame.png").string()}, {},
      {"NOVEM_CONFIG", "NOVEM_BACKEND", "NOVEM_LOG", "NOVEM_FRAME_RATE"});
  fs::remove_all(dir);
  INFO(child.output);
  CHECK(child.status == 0);
  CHECK(child.output.find("novem: backend 'null' from ") != std::string::npos); // NOVEM_LOG=info, NOVEM_BACKEND=null
  const std::string conf = (dir / "novem.conf").string();
  CHECK(child.output.find("novem: " + conf + ":6: unknown setting NOVEM_LOG_SPEED\n") != std::string::npos);
  CHECK(child.output.find("novem: " + conf + ":2: NOVEM_FRAME_RATE=fast is not a whole number from 0 to 1000; ignored\n") !=
        std::string::npos);
}

TEST_CASE("settings: the frame limiter spaces frames by the period, and never makes up for a late one", "[settings]") {
  using Clock = novem::FrameLimiter::Clock;
  using std::chrono::milliseconds;
  const Clock::time_point t0 = Clock::now();
  struct Step {
    int at_ms;   // when the frame is presented
    int wait_ms; // how long it waits
  };
  // 50 frames a second: a period of 20 ms.
  const Step steps[] = {{0, 0}, {5, 15}, {20, 20}, {100, 0}, {101, 19}, {140, 0}};
  novem::FrameLimiter limiter(50);
  for (const Step &s : steps) {
    INFO("at " << s.at_ms << " ms");
    CHECK(limiter.wait(t0 + milliseconds(s.at_ms)) == milliseconds(s.wait_ms));
  }
  novem::FrameLimiter off(0);
  CHECK(off.wait(t0) == Clock::duration::zero());
  CHECK(off.wait(t0) == Clock::duration::zero());
}
