// The HUD (NOVEM_HUD) on every backend: drawn through the same commands on each, it looks the
// same on each; it covers its panel alone, where the application's frame is otherwise untouched;
// and the application's state survives it (a draw after Present renders as without the HUD).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include <dlfcn.h>

#include <novem/statistics.h>

#include "scene_harness.hpp"

namespace {

using novem::image::Image;

constexpr UINT kWidth = 256, kHeight = 192;
constexpr D3DCOLOR kClear = 0xff406080;

// The panel of NOVEM_HUD=full at scale 1, top-left (frontend/src/hud.hpp): 4 pixels from the
// corner, 132 wide, 2 of padding, lines 10 apart (fps, frame, the 26 of the graph, draws,
// pipelines, memory, backend, version).
constexpr uint32_t kPanelX = 4, kPanelY = 4, kPanelWidth = 132, kPanelHeight = 100;
constexpr uint32_t kPipelinesLine = 62, kBackendLine = 82, kVersionLine = 92, kLineHeight = 10;

struct Vertex {
  float x, y, z;
  D3DCOLOR color;
  float u, v;
};

// The application's frame: a half-transparent textured quad that fills a viewport on the right.
void draw_quad(IDirect3DDevice9 *dev) {
  const Vertex quad[4] = {{-1, 1, 0.5f, 0x80ffffff, 0, 0}, {1, 1, 0.5f, 0x80ffffff, 1, 0},
                          {-1, -1, 0.5f, 0x80ffffff, 0, 1}, {1, -1, 0.5f, 0x80ffffff, 1, 1}};
  HR(dev->BeginScene());
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof(Vertex)));
  HR(dev->EndScene());
}

struct Frames {
  Image first;  // the front buffer after the first Present: the application's frame with the HUD on it
  Image back;   // the back buffer after that Present: the application's frame alone
  Image second; // the next frame's draw, made with no state set after that Present
  nv_statistics counters{}; // once both are read back
};

Image read_back(IDirect3DSurface9 *readback) {
  D3DLOCKED_RECT locked;
  HR(readback->LockRect(&locked, nullptr, D3DLOCK_READONLY));
  Image image = novem::image::from_bgra8(locked.pBits, kWidth, kHeight, size_t(locked.Pitch), true);
  HR(readback->UnlockRect());
  return image;
}

// Sets (or unsets, with nullptr) an environment variable.
void set_env(const char *name, const char *value) {
  if (value) setenv(name, value, 1);
  else unsetenv(name);
}

// NOVEM_HUD, NOVEM_HUD_SCALE and NOVEM_HUD_POSITION as given (nullptr: unset) for the device.
Frames render(const std::string &backend, const char *hud, const char *scale = nullptr, const char *position = nullptr) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  set_env("NOVEM_HUD", hud);
  set_env("NOVEM_HUD_SCALE", scale);
  set_env("NOVEM_HUD_POSITION", position);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d != nullptr);
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = kWidth, pp.BackBufferHeight = kHeight, pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.BackBufferCount = 1;
  pp.SwapEffect = D3DSWAPEFFECT_COPY; // the back buffer keeps the frame presented, without the HUD
  pp.Windowed = TRUE;
  IDirect3DDevice9 *dev = nullptr;
  HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev));
  for (const char *name : {"NOVEM_HUD", "NOVEM_HUD_SCALE", "NOVEM_HUD_POSITION"}) unsetenv(name);

  // State the HUD's own draw also sets: viewport, pipeline (blending, FVF), texture and sampler.
  IDirect3DTexture9 *texture = nullptr;
  HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr));
  D3DLOCKED_RECT locked;
  HR(texture->LockRect(0, &locked, nullptr, 0));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      static_cast<DWORD *>(locked.pBits)[y * locked.Pitch / 4 + x] = (x + y) % 2 ? 0xffff2000 : 0xff0020ff;
  HR(texture->UnlockRect(0));
  HR(dev->SetTexture(0, texture));
  HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
  HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
  HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
  HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
  HR(dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1));
  IDirect3DSurface9 *back = nullptr, *readback = nullptr;
  HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
  HR(dev->CreateOffscreenPlainSurface(kWidth, kHeight, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr));
  IDirect3DSurface9 *front = nullptr; // GetFrontBufferData writes A8R8G8B8
  HR(dev->CreateOffscreenPlainSurface(kWidth, kHeight, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr));
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
  const D3DVIEWPORT9 viewport{144, 8, 104, 176, 0.0f, 1.0f};
  HR(dev->SetViewport(&viewport));
  draw_quad(dev);
  HR(dev->Present(nullptr, nullptr, nullptr, nullptr));
  Frames frames;
  HR(dev->GetFrontBufferData(0, front));
  frames.first = read_back(front);
  HR(dev->GetRenderTargetData(back, readback));
  frames.back = read_back(readback);
  draw_quad(dev);
  HR(dev->GetRenderTargetData(back, readback));
  frames.second = read_back(readback);
  auto statistics = reinterpret_cast<nv_get_statistics_fn>(dlsym(RTLD_DEFAULT, NV_STATISTICS_ENTRY_NAME));
  REQUIRE(statistics);
  REQUIRE(statistics(dev, &frames.counters) == 0);

  CHECK(readback->Release() == 0);
  CHECK(front->Release() == 0);
  CHECK(back->Release() == 0);
  HR(dev->SetTexture(0, nullptr));
  CHECK(texture->Release() == 0);
  CHECK(dev->Release() == 0);
  CHECK(d3d->Release() == 0);
  return frames;
}

bool in_panel(uint32_t x, uint32_t y) {
  return x >= kPanelX && x < kPanelX + kPanelWidth && y >= kPanelY && y < kPanelY + kPanelHeight;
}

// The largest channel difference of two images over the pixels `where` takes.
template <class Where> uint32_t max_difference(const Image &a, const Image &b, Where where) {
  uint32_t worst = 0;
  for (uint32_t y = 0; y < a.height; ++y)
    for (uint32_t x = 0; x < a.width; ++x)
      if (where(x, y))
        for (int c = 0; c < 3; ++c) worst = std::max<uint32_t>(worst, uint32_t(std::abs(a.at(x, y)[c] - b.at(x, y)[c])));
  return worst;
}

void save(const Image &image, const std::string &name) {
  const std::filesystem::path dir = std::filesystem::path(NOVEM_BUILD_DIR) / "test-output";
  std::filesystem::create_directories(dir);
  novem::image::write_png(dir / (name + ".png"), image);
}

} // namespace

TEST_CASE("scene: the HUD looks the same on every backend, over its panel alone, and leaves the application's state",
          "[scene][hud]") {
  const auto backends = scenes::available_backends();
  std::vector<Image> with_hud;
  for (const std::string &backend : backends) {
    INFO("backend " << backend);
    const Frames on = render(backend, "full"), off = render(backend, nullptr);
    save(on.first, "hud_full_" + backend);
    save(off.first, "hud_off_" + backend);
    // Without the HUD the panel's place is the application's: the clear colour.
    const uint8_t clear[3] = {0x40, 0x60, 0x80};
    uint32_t not_clear = 0;
    for (uint32_t y = kPanelY; y < kPanelY + kPanelHeight; ++y)
      for (uint32_t x = kPanelX; x < kPanelX + kPanelWidth; ++x)
        not_clear += !(off.first.at(x, y)[0] == clear[0] && off.first.at(x, y)[1] == clear[1] && off.first.at(x, y)[2] == clear[2]);
    CHECK(not_clear == 0);
    // With it, the panel is drawn there and nothing else changes.
    CHECK(max_difference(on.first, off.first, [](uint32_t x, uint32_t y) { return !in_panel(x, y); }) == 0);
    uint32_t changed = 0, white = 0;
    for (uint32_t y = kPanelY; y < kPanelY + kPanelHeight; ++y)
      for (uint32_t x = kPanelX; x < kPanelX + kPanelWidth; ++x) {
        const uint8_t *p = on.first.at(x, y);
        changed += p[0] != off.first.at(x, y)[0] || p[1] != off.first.at(x, y)[1] || p[2] != off.first.at(x, y)[2];
        white += y >= kVersionLine && y < kVersionLine + 8 && p[0] == 255 && p[1] == 255 && p[2] == 255;
      }
    CHECK(changed == kPanelWidth * kPanelHeight); // the panel darkens every pixel it covers
    CHECK(white > 40);                            // "novem 0.1.0" in white
    // The back buffer holds the application's frame alone, and the next draw, with no state set
    // since Present, renders as it does without the HUD.
    const auto everywhere = [](uint32_t, uint32_t) { return true; };
    CHECK(max_difference(on.back, off.back, everywhere) == 0);
    CHECK(max_difference(on.second, off.second, everywhere) == 0);
    // The program's counters are as without the HUD; the HUD's one draw a frame is counted apart.
    CHECK(on.counters.draws == off.counters.draws);
    CHECK(on.counters.api_draw_calls == off.counters.api_draw_calls);
    CHECK(on.counters.overlay_draws == 1);
    CHECK(on.counters.overlay_api_draw_calls == 1);
    CHECK(off.counters.overlay_draws == 0);
    CHECK(off.counters.overlay_api_draw_calls == 0);
    with_hud.push_back(on.first);
  }
  // Across backends: the panel alike, but for the lines whose figures differ by plugin (the
  // plugin's name, and the pipelines its thread has built by the time of the Present).
  for (size_t i = 1; i < with_hud.size(); ++i) {
    INFO(backends[0] << " against " << backends[i]);
    auto compared = [](uint32_t x, uint32_t y) {
      const bool varying = (y >= kPipelinesLine && y < kPipelinesLine + kLineHeight) ||
                           (y >= kBackendLine && y < kBackendLine + kLineHeight);
      return in_panel(x, y) && !varying;
    };
    CHECK(max_difference(with_hud[0], with_hud[i], compared) <= 1);
  }
}

TEST_CASE("scene: NOVEM_HUD_SCALE and NOVEM_HUD_POSITION size the panel and put it in its corner", "[scene][hud]") {
  struct Case {
    const char *hud, *scale, *position;
    uint32_t left, top, right, bottom; // the panel's pixels: 4 (times the scale) from the corner
  };
  // One line is 14 pixels high with its padding, two 24; the panel is 132 wide (hud.hpp).
  const Case cases[] = {
      {"version", nullptr, "bottom-right", kWidth - 4 - 132, kHeight - 4 - 14, kWidth - 4, kHeight - 4},
      {"version", "1", "top-right", kWidth - 4 - 132, 4, kWidth - 4, 4 + 14},
      {"fps,draws", nullptr, "bottom-left", 4, kHeight - 4 - 24, 4 + 132, kHeight - 4},
      {"version", "2", "top-left", 8, 8, kWidth, 8 + 28}, // 264 wide: cut at the back buffer's edge
      {"version", "2", nullptr, 8, 8, kWidth, 8 + 28},     // top-left by default
  };
  for (const std::string &backend : scenes::available_backends()) {
    const Frames off = render(backend, nullptr);
    for (const Case &c : cases) {
      INFO("backend " << backend << ", NOVEM_HUD=" << c.hud << ", NOVEM_HUD_SCALE=" << (c.scale ? c.scale : "(unset)")
                      << ", NOVEM_HUD_POSITION=" << (c.position ? c.position : "(unset)"));
      const Frames on = render(backend, c.hud, c.scale, c.position);
      uint32_t outside = 0, inside_unchanged = 0;
      for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
          const bool changed = std::memcmp(on.first.at(x, y), off.first.at(x, y), 3) != 0;
          const bool inside = x >= c.left && x < c.right && y >= c.top && y < c.bottom;
          outside += changed && !inside;
          inside_unchanged += !changed && inside;
        }
      CHECK(outside == 0);
      CHECK(inside_unchanged == 0);
    }
  }
}
