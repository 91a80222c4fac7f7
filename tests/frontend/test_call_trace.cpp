// NOVEM_LOG=trace: each D3D9 call the program makes on IDirect3D9Ex and the device is one line with
// its arguments and its result, calls the implementation makes to itself are not, and without the
// level there is no such line. The program is this test binary, running the hidden case below in a
// child whose environment sets the level and the log file (the logger reads them once per process).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "../support/run_child.hpp"
#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("call trace child: a few calls on a device", "[.call-trace-child]") {
  if (!std::getenv("NOVEM_TEST_TRACE_CHILD")) return;
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  d3d->GetAdapterCount();
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp,
                        &device) != D3D_OK)
    std::exit(3);
  device->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE);
  device->SetStreamSource(16, nullptr, 0, 0); // there are 16 streams
  device->SetRenderState(D3DRS_LIGHTING, FALSE);
  device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff00ff00, 1.0f, 0);
  D3DPRESENT_PARAMETERS again = headless();
  device->Reset(&again); // restores every state through the device's own code: not the program's calls
  device->Release();
  d3d->Release();
  std::exit(0);
}

namespace {

std::string run_traced(const char *level) {
  const std::string log =
      (std::filesystem::temp_directory_path() / ("novem-call-trace-" + std::to_string(getpid()) + ".txt")).string();
  std::filesystem::remove(log);
  const novem::test::ChildRun child =
      novem::test::run_child({"/proc/self/exe", "call trace child: a few calls on a device"},
                             {{"NOVEM_BACKEND", "null"}, {"NOVEM_TEST_TRACE_CHILD", "1"}, {"NOVEM_LOG", level},
                              {"NOVEM_LOG_FILE", log}});
  INFO(child.output);
  REQUIRE(child.status == 0);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(log);
  return text.str();
}

std::size_t count(const std::string &text, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

} // namespace

TEST_CASE("call trace: NOVEM_LOG=trace writes each call of the program with its arguments and result", "[api][log]") {
  const std::string trace = run_traced("trace");
  INFO(trace);
  const char *lines[] = {
      "novem: Direct3DCreate9(SDKVersion 32) = 0x",
      "novem: IDirect3D9Ex::GetAdapterCount() = 1\n",
      // The names are the parameters' names in the d3d9.h the build uses.
      "novem: IDirect3D9Ex::CreateDevice(adapter_idx 0, device_type 1, focus_window NULL, flags 68, parameters 0x",
      "novem: IDirect3DDevice9Ex::SetRenderState(state 7, value 0) = D3D_OK\n",
      "novem: IDirect3DDevice9Ex::SetStreamSource(stream_idx 16, buffer NULL, offset 0, stride 0) = D3DERR_INVALIDCALL\n",
      "novem: IDirect3DDevice9Ex::SetRenderState(state 137, value 0) = D3D_OK\n",
      "novem: IDirect3DDevice9Ex::Clear(rect_count 0, rects NULL, flags 1, colour 0xff00ff00, z 1, stencil 0) = D3D_OK\n",
      "novem: IDirect3DDevice9Ex::Reset(parameters 0x",
  };
  for (const char *line : lines) {
    INFO(line);
    CHECK(count(trace, line) == 1);
  }
  CHECK(count(trace, "::SetRenderState(") == 2); // Reset's own calls are not the program's
}

TEST_CASE("call trace: below NOVEM_LOG=trace no call is written", "[api][log]") {
  for (const char *level : {"warn", "debug"}) {
    const std::string text = run_traced(level);
    INFO(level << ": " << text);
    CHECK(text.find("IDirect3DDevice9Ex::") == std::string::npos);
    CHECK(text.find("Direct3DCreate9") == std::string::npos);
  }
}
