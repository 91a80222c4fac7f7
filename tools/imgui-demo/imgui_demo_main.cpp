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
#include "headless.hpp"

namespace {

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
  constexpr const char *kTool = "novem-imgui-demo";
  novem::headless::Options o{"novem-imgui-demo.png", 4, 900, 600};
  if (int status = novem::headless::parse(
          kTool, "renders Dear ImGui's demo window headless through Novem and writes the last frame as a PNG", argc,
          argv, o);
      status >= 0)
    return status;
  const UINT width = o.width, height = o.height;
  const int frames = o.frames;

  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  if (!d3d) return novem::headless::usage(kTool, "Direct3DCreate9 failed");
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
  if (!ImGui_ImplDX9_Init(device)) return novem::headless::usage(kTool, "ImGui_ImplDX9_Init failed");

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

  if (!novem::headless::write_front_buffer(kTool, device, width, height, o.out)) return 1;

  ImGui_ImplDX9_Shutdown();
  ImGui::DestroyContext();
  const ULONG left = device->Release();
  d3d->Release();
  if (left != 0) {
    std::fprintf(stderr, "novem-imgui-demo: the device still has %lu references at exit\n", (unsigned long)left);
    return 1;
  }
  std::printf("rendered %d frames of %ux%u, wrote %s\n", frames, width, height, o.out.c_str());
  return 0;
}
