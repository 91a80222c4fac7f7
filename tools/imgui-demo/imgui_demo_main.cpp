// novem-imgui-demo: Dear ImGui's own Direct3D 9 renderer (backends/imgui_impl_dx9.cpp) and demo
// window (imgui_demo.cpp), compiled unchanged against Novem's <d3d9.h>, rendering a few frames
// headless and writing the last one as a PNG. There is no window and no input: the display size
// and the time step are set by hand, as a platform backend would.
//
//   novem-imgui-demo [--backend vulkan|opengl|null|PATH] [--frames N] [--size WxH] [--out FILE.png]
//
// The scene: a small "Novem" window at (20, 20), 320 x 140, with a few lines of text, then
// ImGui::ShowDemoWindow(), which places itself at (650, 20), 550 x 680, and is focused (created
// last), so its title bar has the style's active title colour. tests/imgui probes both.
#include <d3d9.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "imgui.h"
#include "imgui_impl_dx9.h"
#include "novem/image.hpp"

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "novem-imgui-demo: %s\nusage: novem-imgui-demo [--backend NAME|PATH] [--frames N] [--size WxH] "
               "[--out FILE.png]\n",
               why);
  return 2;
}

#define CHECK_HR(call)                                                                     \
  do {                                                                                     \
    HRESULT hr_ = (call);                                                                  \
    if (FAILED(hr_)) {                                                                     \
      std::fprintf(stderr, "novem-imgui-demo: %s failed: 0x%08x\n", #call, unsigned(hr_)); \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

void build_frame(int frame) {
  ImGui::SetNextWindowPos(ImVec2(20, 20), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(320, 140), ImGuiCond_Always);
  ImGui::Begin("Novem");
  ImGui::Text("Dear ImGui %s through Novem's D3D9", ImGui::GetVersion());
  ImGui::Text("frame %d", frame);
  ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.2f, 1.0f), "imgui_impl_dx9.cpp, unchanged");
  ImGui::Button("A button");
  ImGui::End();

  ImGui::ShowDemoWindow(); // places itself at (650, 20), 550 x 680, on first use
}

} // namespace

int main(int argc, char **argv) {
  std::string out = "novem-imgui-demo.png";
  int frames = 4;
  UINT width = 900, height = 600;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--backend") {
      const char *v = value();
      if (!v) return usage("--backend needs a value");
      setenv("NOVEM_BACKEND", v, 1);
    } else if (arg == "--frames") {
      const char *v = value();
      if (!v || (frames = std::atoi(v)) <= 0) return usage("--frames needs a positive number");
    } else if (arg == "--size") {
      const char *v = value();
      if (!v || std::sscanf(v, "%ux%u", &width, &height) != 2 || !width || !height) return usage("--size needs WxH");
    } else if (arg == "--out") {
      const char *v = value();
      if (!v) return usage("--out needs a file name");
      out = v;
    } else if (arg == "--help" || arg == "-h") {
      usage("renders Dear ImGui's demo window headless through Novem and writes the last frame as a PNG");
      return 0;
    } else {
      return usage(("unknown argument " + arg).c_str());
    }
  }

  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  if (!d3d) return usage("Direct3DCreate9 failed");
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = width;
  pp.BackBufferHeight = height;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE; // and no window: headless
  IDirect3DDevice9 *device = nullptr;
  CHECK_HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device));

  ImGui::CreateContext();
  ImGuiIO &io = ImGui::GetIO();
  io.IniFilename = nullptr; // no imgui.ini: every run starts the same
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DeltaTime = 1.0f / 60.0f;
  ImGui::StyleColorsDark();
  if (!ImGui_ImplDX9_Init(device)) return usage("ImGui_ImplDX9_Init failed");

  for (int frame = 0; frame < frames; ++frame) {
    ImGui_ImplDX9_NewFrame();
    ImGui::NewFrame();
    build_frame(frame);
    ImGui::EndFrame();
    CHECK_HR(device->Clear(0, nullptr, D3DCLEAR_TARGET, D3DCOLOR_XRGB(114, 140, 153), 1.0f, 0));
    CHECK_HR(device->BeginScene());
    ImGui::Render();
    ImGui_ImplDX9_RenderDrawData(ImGui::GetDrawData());
    CHECK_HR(device->EndScene());
    CHECK_HR(device->Present(nullptr, nullptr, nullptr, nullptr));
  }

  IDirect3DSurface9 *back = nullptr, *readback = nullptr;
  CHECK_HR(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
  CHECK_HR(device->CreateOffscreenPlainSurface(width, height, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr));
  CHECK_HR(device->GetRenderTargetData(back, readback));
  D3DLOCKED_RECT locked;
  CHECK_HR(readback->LockRect(&locked, nullptr, D3DLOCK_READONLY));
  novem::image::Image image = novem::image::from_bgra8(locked.pBits, width, height, size_t(locked.Pitch), true);
  CHECK_HR(readback->UnlockRect());
  readback->Release();
  back->Release();
  std::string error;
  if (!novem::image::write_png(out, image, &error)) {
    std::fprintf(stderr, "novem-imgui-demo: %s\n", error.c_str());
    return 1;
  }

  ImGui_ImplDX9_Shutdown();
  ImGui::DestroyContext();
  const ULONG left = device->Release();
  d3d->Release();
  if (left != 0) {
    std::fprintf(stderr, "novem-imgui-demo: the device still has %lu references at exit\n", (unsigned long)left);
    return 1;
  }
  std::printf("rendered %d frames of %ux%u, wrote %s\n", frames, width, height, out.c_str());
  return 0;
}
