// A program that exits with its device alive (no Release): the plugin stops its submission thread
// before the driver's own exit handlers run (novem/device_thread.hpp), so the process exits
// cleanly instead of crashing in the driver while the thread is still inside it. The child is
// this test program, running the hidden case below with NOVEM_TEST_EXIT_CHILD set (a tag filter
// such as "~[backends]" runs hidden cases too: without the variable the case does nothing).
#include <cstdlib>
#include <string>

#include "../support/run_child.hpp"
#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("exit child: draws, then exits with the device alive", "[.exit-child]") {
  if (!std::getenv("NOVEM_TEST_EXIT_CHILD")) return;
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) != D3D_OK)
    std::exit(3);
  device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
  const TLVertex v[3] = {{0, 0, 0.5f, 1, 0xffff0000}, {64, 0, 0.5f, 1, 0xffff0000}, {0, 64, 0.5f, 1, 0xffff0000}};
  for (int frame = 0; frame < 3; ++frame) {
    device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0);
    for (int n = 0; n < 200; ++n) device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex));
    device->Present(nullptr, nullptr, nullptr, nullptr);
  }
  for (int n = 0; n < 500; ++n) device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex)); // still queued
  std::exit(0);
}

TEST_CASE("exit: a program exiting with a live device exits cleanly", "[api][exit][backends]") {
  for (const char *backend : {"opengl", "vulkan"}) {
    for (int run = 0; run < 6; ++run) {
      CAPTURE(backend, run);
      const novem::test::ChildRun child =
          novem::test::run_child({"/proc/self/exe", "exit child: draws, then exits with the device alive"},
                                 {{"NOVEM_BACKEND", backend}, {"NOVEM_TEST_EXIT_CHILD", "1"}});
      if (child.status == 3 && !std::getenv("NOVEM_TEST_REQUIRE_BACKENDS")) break; // this backend cannot start here
      INFO(child.output);
      CHECK(child.status == 0);
    }
  }
}
