// Multisampling on every backend: each multisample type and quality CheckDeviceMultiSampleType
// claims renders with that many samples (resolved edge pixels take only that many coverage
// steps); StretchRect resolves whole and partial rectangles, with and without scaling, into
// render targets and render-target textures; Clear, ColorFill and depth testing on multisampled
// targets; and render targets and depth-stencil surfaces of different sample counts (Wine's
// test_multisample_mismatch: Windows clears and draws the colour).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kBlack = 0xff000000, kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff,
                   kWhite = 0xffffffff;
constexpr UINT kSize = 64;

// A headless device on `backend` with a kSize x kSize back buffer, single-sampled unless asked.
IDirect3DDevice9 *make_device(IDirect3D9 *d3d, D3DMULTISAMPLE_TYPE type = D3DMULTISAMPLE_NONE, DWORD quality = 0,
                              HRESULT *result = nullptr) {
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = kSize;
  pp.BackBufferHeight = kSize;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  pp.MultiSampleType = type;
  pp.MultiSampleQuality = quality;
  pp.EnableAutoDepthStencil = TRUE;
  pp.AutoDepthStencilFormat = D3DFMT_D24S8;
  IDirect3DDevice9 *dev = nullptr;
  const HRESULT hr = d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev);
  if (result) *result = hr;
  else HR(hr);
  return dev;
}

IDirect3D9 *make_d3d(const std::string &backend) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d);
  return d3d;
}

// A pre-transformed quad over the pixels whose centres lie in [x0, x1) x [y0, y1).
void quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR c) {
  TLVertex v[4] = {{x0 - 0.5f, y0 - 0.5f, z, 1, c}, {x1 - 0.5f, y0 - 0.5f, z, 1, c},
                   {x0 - 0.5f, y1 - 0.5f, z, 1, c}, {x1 - 0.5f, y1 - 0.5f, z, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

// A white triangle whose long edges cross the target at slopes that are no simple fractions, so
// that its edge pixels take every coverage a pattern of N samples can give.
void slanted_triangle(IDirect3DDevice9 *dev) {
  TLVertex v[3] = {{1.3f, 2.1f, 0.5f, 1, kWhite}, {61.7f, 23.9f, 0.5f, 1, kWhite}, {9.1f, 62.3f, 0.5f, 1, kWhite}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex)));
}

// Every pixel of a single-sampled render target, read back (rows of its width, X8R8G8B8 bits).
std::vector<DWORD> read_back(IDirect3DDevice9 *dev, IDirect3DSurface9 *target) {
  IDirect3DSurface9 *mem = nullptr;
  D3DSURFACE_DESC d;
  HR(target->GetDesc(&d));
  HR(dev->CreateOffscreenPlainSurface(d.Width, d.Height, d.Format, D3DPOOL_SYSTEMMEM, &mem, nullptr));
  HR(dev->GetRenderTargetData(target, mem));
  D3DLOCKED_RECT lr;
  HR(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY));
  std::vector<DWORD> pixels;
  for (UINT y = 0; y < d.Height; ++y)
    for (UINT x = 0; x < d.Width; ++x) pixels.push_back(static_cast<const DWORD *>(lr.pBits)[size_t(y) * (UINT(lr.Pitch) / 4) + x]);
  HR(mem->UnlockRect());
  mem->Release();
  return pixels;
}

// The red channel of every pixel of a single-sampled render target.
std::vector<uint32_t> red_channel(IDirect3DDevice9 *dev, IDirect3DSurface9 *target) {
  std::vector<uint32_t> red;
  for (DWORD p : read_back(dev, target)) red.push_back((p >> 16) & 0xff);
  return red;
}

// The colour (without alpha) of pixel (x, y) of a single-sampled render target.
DWORD pixel(IDirect3DDevice9 *dev, IDirect3DSurface9 *target, UINT x, UINT y) {
  D3DSURFACE_DESC d;
  HR(target->GetDesc(&d));
  return read_back(dev, target)[size_t(y) * d.Width + x] & 0x00ffffff;
}

// Checks that the resolved edge pixels of slanted_triangle took coverage steps of exactly
// `samples`: every value is k * 255 / samples for some k, and the partial steps show (all of
// them up to 4 samples).
void check_coverage_steps(const std::vector<uint32_t> &red, uint32_t samples) {
  std::set<uint32_t> partial;
  for (uint32_t v : red) {
    if (v == 0 || v == 255) continue;
    const uint32_t k = (v * samples + 127) / 255;
    INFO("resolved value " << v << " with " << samples << " samples");
    CHECK(k > 0);
    CHECK(k < samples);
    const int64_t step = int64_t(k) * 255 / samples;
    CHECK(std::llabs(int64_t(v) - step) <= 1);
    partial.insert(k);
  }
  CHECK(partial.size() >= std::min(samples - 1, 3u));
}

// The counts 2..16 CheckDeviceMultiSampleType claims for the format, smallest first.
std::vector<uint32_t> claimed_counts(IDirect3D9 *d3d, D3DFORMAT format) {
  std::vector<uint32_t> counts;
  for (uint32_t n = 2; n <= 16; ++n) {
    DWORD levels = 0;
    const HRESULT hr = d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, format, TRUE, D3DMULTISAMPLE_TYPE(n), &levels);
    if (hr == D3D_OK) {
      CHECK(levels == 1);
      counts.push_back(n);
    } else {
      CHECK(hr == D3DERR_NOTAVAILABLE);
      CHECK(levels == 0);
    }
  }
  return counts;
}

} // namespace

TEST_CASE("Every multisample type and quality CheckDeviceMultiSampleType claims renders that many samples",
          "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = make_d3d(backend);
    const std::vector<uint32_t> counts = claimed_counts(d3d, D3DFMT_X8R8G8B8);
    CHECK(claimed_counts(d3d, D3DFMT_D24S8) == counts);
    REQUIRE(!counts.empty()); // lavapipe and llvmpipe render 4 samples
    DWORD nonmaskable = 0;
    CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_NONMASKABLE,
                                          &nonmaskable) == D3D_OK);
    CHECK(nonmaskable == counts.size());

    // Each claimed (type, quality): its count, NONMASKABLE's qualities the counts in order.
    struct Case {
      D3DMULTISAMPLE_TYPE type;
      DWORD quality;
      uint32_t samples;
    };
    std::vector<Case> cases;
    for (uint32_t n : counts) cases.push_back({D3DMULTISAMPLE_TYPE(n), 0, n});
    for (DWORD q = 0; q < nonmaskable; ++q) cases.push_back({D3DMULTISAMPLE_NONMASKABLE, q, counts[q]});

    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *resolved = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
    for (const Case &c : cases) {
      INFO("type " << c.type << ", quality " << c.quality);
      IDirect3DSurface9 *ms = nullptr, *ms_depth = nullptr;
      HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, c.type, c.quality, FALSE, &ms, nullptr));
      HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, c.type, c.quality, FALSE, &ms_depth, nullptr));
      D3DSURFACE_DESC desc;
      HR(ms->GetDesc(&desc));
      CHECK(desc.MultiSampleType == c.type);
      CHECK(desc.MultiSampleQuality == c.quality);
      HR(dev->SetRenderTarget(0, ms));
      HR(dev->SetDepthStencilSurface(ms_depth));
      HR(dev->BeginScene());
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
      slanted_triangle(dev);
      HR(dev->EndScene());
      HR(dev->StretchRect(ms, nullptr, resolved, nullptr, D3DTEXF_NONE));
      check_coverage_steps(red_channel(dev, resolved), c.samples);
      HR(dev->SetRenderTarget(0, resolved));
      HR(dev->SetDepthStencilSurface(nullptr));
      ms->Release();
      ms_depth->Release();
    }

    // Past the claimed levels: an invalid call; a count not claimed: not available.
    IDirect3DSurface9 *none = nullptr;
    CHECK(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONMASKABLE, nonmaskable, FALSE, &none,
                                  nullptr) == D3DERR_INVALIDCALL);
    CHECK(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_TYPE(counts[0]), 1, FALSE, &none,
                                         nullptr) == D3DERR_INVALIDCALL);
    for (uint32_t n = 2; n <= 16; ++n) {
      if (std::find(counts.begin(), counts.end(), n) != counts.end()) continue;
      INFO("unclaimed count " << n);
      CHECK(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_TYPE(n), 0, FALSE, &none, nullptr) ==
            D3DERR_NOTAVAILABLE);
      CHECK(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_TYPE(n), 0, FALSE, &none,
                                           nullptr) == D3DERR_NOTAVAILABLE);
      HRESULT hr = D3D_OK;
      CHECK(make_device(d3d, D3DMULTISAMPLE_TYPE(n), 0, &hr) == nullptr);
      CHECK(hr == D3DERR_NOTAVAILABLE);
    }
    CHECK(none == nullptr);
    resolved->Release();
    CHECK(dev->Release() == 0);

    // Multisampled back buffers (with their automatic depth-stencil surface) of each case.
    for (const Case &c : cases) {
      INFO("back buffer type " << c.type << ", quality " << c.quality);
      IDirect3DDevice9 *ms_dev = make_device(d3d, c.type, c.quality);
      IDirect3DSurface9 *back = nullptr, *target = nullptr;
      HR(ms_dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
      HR(ms_dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr));
      HR(ms_dev->BeginScene());
      HR(ms_dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
      slanted_triangle(ms_dev);
      HR(ms_dev->EndScene());
      HR(ms_dev->StretchRect(back, nullptr, target, nullptr, D3DTEXF_NONE));
      check_coverage_steps(red_channel(ms_dev, target), c.samples);
      back->Release();
      target->Release();
      CHECK(ms_dev->Release() == 0);
    }
    CHECK(d3d->Release() == 0);
  }
}

namespace {

// StretchRect from a 4-sample target holding four quadrants (red, green, blue, white: top left,
// top right, bottom left, bottom right) into a single-sampled surface cleared black.
struct ResolveCase {
  const char *name;
  bool into_texture; // a render-target texture's level 0, else a render target
  RECT src, dst;     // right == 0: NULL (the whole surface)
  D3DTEXTUREFILTERTYPE filter;
  struct Probe {
    UINT x, y;
    DWORD colour;
  } probes[4];
};

const ResolveCase kResolveCases[] = {
    {"whole", false, {}, {}, D3DTEXF_NONE, {{16, 16, 0xff0000}, {48, 16, 0x00ff00}, {16, 48, 0x0000ff}, {48, 48, 0xffffff}}},
    {"whole into a texture", true, {}, {}, D3DTEXF_POINT,
     {{16, 16, 0xff0000}, {48, 16, 0x00ff00}, {16, 48, 0x0000ff}, {48, 48, 0xffffff}}},
    {"a quadrant moved", false, {32, 32, 64, 64}, {0, 0, 32, 32}, D3DTEXF_NONE,
     {{16, 16, 0xffffff}, {48, 16, 0x000000}, {16, 48, 0x000000}, {48, 48, 0x000000}}},
    {"a part into a texture", true, {16, 16, 48, 48}, {16, 16, 48, 48}, D3DTEXF_NONE,
     {{20, 20, 0xff0000}, {44, 20, 0x00ff00}, {20, 44, 0x0000ff}, {8, 8, 0x000000}}},
    {"a quadrant magnified", false, {32, 0, 64, 32}, {}, D3DTEXF_POINT,
     {{2, 2, 0x00ff00}, {60, 2, 0x00ff00}, {2, 60, 0x00ff00}, {60, 60, 0x00ff00}}},
    {"the whole minified", false, {}, {0, 0, 32, 32}, D3DTEXF_LINEAR,
     {{4, 4, 0xff0000}, {28, 4, 0x00ff00}, {4, 28, 0x0000ff}, {48, 48, 0x000000}}},
    {"the whole minified into a texture", true, {}, {32, 32, 64, 64}, D3DTEXF_POINT,
     {{36, 36, 0xff0000}, {60, 36, 0x00ff00}, {36, 60, 0x0000ff}, {60, 60, 0xffffff}}},
};

} // namespace

TEST_CASE("StretchRect resolves multisampled targets whole and in parts, scaled or not", "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    IDirect3D9 *d3d = make_d3d(backend);
    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *ms = nullptr, *ms_depth = nullptr, *back = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms_depth, nullptr));
    HR(dev->SetRenderTarget(0, ms));
    HR(dev->SetDepthStencilSurface(ms_depth));
    const D3DRECT quadrants[4] = {{0, 0, 32, 32}, {32, 0, 64, 32}, {0, 32, 32, 64}, {32, 32, 64, 64}};
    const D3DCOLOR colours[4] = {kRed, kGreen, kBlue, kWhite};
    for (int i = 0; i < 4; ++i) HR(dev->Clear(1, &quadrants[i], D3DCLEAR_TARGET, colours[i], 1.0f, 0));
    HR(dev->SetRenderTarget(0, back));
    HR(dev->SetDepthStencilSurface(nullptr));
    for (const ResolveCase &c : kResolveCases) {
      INFO("backend " << backend << ", " << c.name);
      IDirect3DSurface9 *dst = nullptr;
      IDirect3DTexture9 *texture = nullptr;
      if (c.into_texture) {
        HR(dev->CreateTexture(kSize, kSize, 1, D3DUSAGE_RENDERTARGET, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr));
        HR(texture->GetSurfaceLevel(0, &dst));
      } else {
        HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &dst, nullptr));
      }
      HR(dev->ColorFill(dst, nullptr, kBlack));
      HR(dev->StretchRect(ms, c.src.right ? &c.src : nullptr, dst, c.dst.right ? &c.dst : nullptr, c.filter));
      for (const ResolveCase::Probe &p : c.probes) {
        INFO("pixel " << p.x << ", " << p.y);
        CHECK(pixel(dev, dst, p.x, p.y) == p.colour);
      }
      dst->Release();
      if (texture) texture->Release();
    }

    // What cannot be done with a multisampled surface: write it by StretchRect or UpdateSurface,
    // read it by GetRenderTargetData or LockRect (D3D9 resolves through StretchRect only).
    IDirect3DSurface9 *other_ms = nullptr, *lockable_ms = nullptr, *mem = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &other_ms, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, TRUE, &lockable_ms, nullptr));
    HR(dev->CreateOffscreenPlainSurface(kSize, kSize, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &mem, nullptr));
    CHECK(dev->StretchRect(back, nullptr, ms, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
    CHECK(dev->StretchRect(ms, nullptr, other_ms, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
    CHECK(dev->UpdateSurface(mem, nullptr, ms, nullptr) == D3DERR_INVALIDCALL);
    CHECK(dev->GetRenderTargetData(ms, mem) == D3DERR_INVALIDCALL);
    D3DLOCKED_RECT lr;
    CHECK(lockable_ms->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3DERR_INVALIDCALL);
    for (IDirect3DSurface9 *s : {ms, ms_depth, back, other_ms, lockable_ms, mem}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("Clear, ColorFill and depth tests on multisampled targets", "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = make_d3d(backend);
    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *ms = nullptr, *ms_depth = nullptr, *resolved = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms_depth, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
    // ColorFill writes every sample of the rectangle (a resolve reads the colour exactly).
    HR(dev->ColorFill(ms, nullptr, kBlue));
    const RECT left{0, 0, 32, 64};
    HR(dev->ColorFill(ms, &left, kGreen));
    HR(dev->StretchRect(ms, nullptr, resolved, nullptr, D3DTEXF_NONE));
    CHECK(pixel(dev, resolved, 16, 32) == 0x00ff00);
    CHECK(pixel(dev, resolved, 48, 32) == 0x0000ff);

    // Depth: the left half cleared to 0.25, the right to 0.75; a red quad at z 0.5 over all of
    // it passes the depth test (LESSEQUAL) on the right only.
    HR(dev->SetRenderTarget(0, ms));
    HR(dev->SetDepthStencilSurface(ms_depth));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, kBlack, 0.75f, 0));
    const D3DRECT left_half{0, 0, 32, 64};
    HR(dev->Clear(1, &left_half, D3DCLEAR_ZBUFFER, kBlack, 0.25f, 0));
    HR(dev->BeginScene());
    quad(dev, 0, 0, 64, 64, 0.5f, kRed);
    HR(dev->EndScene());
    HR(dev->StretchRect(ms, nullptr, resolved, nullptr, D3DTEXF_NONE));
    CHECK(pixel(dev, resolved, 16, 32) == 0x000000);
    CHECK(pixel(dev, resolved, 48, 32) == 0xff0000);
    HR(dev->SetDepthStencilSurface(nullptr));
    for (IDirect3DSurface9 *s : {ms, ms_depth, resolved}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

namespace {

// Render target and depth-stencil surface of different sample counts (Wine's
// test_multisample_mismatch): Windows clears and draws the colour; what it does to depth differs
// between drivers, and Novem neither tests nor clears that depth-stencil surface (a quad drawn
// with the depth test on, over depth 0 that would fail it, shows).
struct MismatchCase {
  const char *name;
  bool multisampled_target; // else the depth-stencil surface is the multisampled one
  DWORD zenable;
  DWORD clear_flags;
};

const MismatchCase kMismatchCases[] = {
    {"multisampled target, depth test off", true, D3DZB_FALSE, D3DCLEAR_TARGET},
    {"multisampled target, depth test on", true, D3DZB_TRUE, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER},
    {"multisampled depth, depth test off", false, D3DZB_FALSE, D3DCLEAR_TARGET},
    {"multisampled depth, depth test on", false, D3DZB_TRUE, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER},
};

} // namespace

TEST_CASE("Render targets and depth-stencil surfaces of different sample counts clear and draw the colour",
          "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    IDirect3D9 *d3d = make_d3d(backend);
    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *ms = nullptr, *ms_depth = nullptr, *single = nullptr, *single_depth = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms_depth, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &single, nullptr));
    HR(dev->GetDepthStencilSurface(&single_depth));
    for (const MismatchCase &c : kMismatchCases) {
      INFO("backend " << backend << ", " << c.name);
      IDirect3DSurface9 *target = c.multisampled_target ? ms : single;
      // The depth-stencil surface, while matched, holds 0 (every draw at z 0.5 fails LESSEQUAL).
      HR(dev->SetRenderTarget(0, c.multisampled_target ? single : ms));
      HR(dev->SetDepthStencilSurface(c.multisampled_target ? single_depth : ms_depth));
      HR(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER, kBlack, 0.0f, 0));
      HR(dev->SetRenderTarget(0, target));
      HR(dev->SetRenderState(D3DRS_ZENABLE, c.zenable));
      HR(dev->Clear(0, nullptr, c.clear_flags, kGreen, 0.0f, 0));
      HR(dev->BeginScene());
      quad(dev, 0, 0, 32, 64, 0.5f, kBlue);
      HR(dev->EndScene());
      HR(dev->SetRenderTarget(0, single));
      if (c.multisampled_target) HR(dev->StretchRect(ms, nullptr, single, nullptr, D3DTEXF_NONE));
      CHECK(pixel(dev, single, 16, 32) == (kBlue & 0xffffff));
      CHECK(pixel(dev, single, 48, 32) == (kGreen & 0xffffff));
    }
    HR(dev->SetDepthStencilSurface(nullptr));
    for (IDirect3DSurface9 *s : {ms, ms_depth, single, single_depth}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

// StretchRect between two depth-stencil surfaces of one multisample type copies every sample
// (Wine's multisampled_depth_buffer_test); a multisampled one into a single-sampled one is not
// resolved (refused: narrower than Windows).
TEST_CASE("StretchRect copies a multisampled depth-stencil surface into one of its multisample type",
          "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = make_d3d(backend);
    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *target = nullptr, *from = nullptr, *to = nullptr, *single_depth = nullptr, *resolved = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &target, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &from, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &to, nullptr));
    HR(dev->CreateDepthStencilSurface(kSize, kSize, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &single_depth, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
    // `from`: depth 0.2 on the left half, 1 on the right.
    HR(dev->SetRenderTarget(0, target));
    HR(dev->SetDepthStencilSurface(from));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    HR(dev->BeginScene());
    quad(dev, 0, 0, 32, 64, 0.2f, kRed);
    HR(dev->EndScene());
    HR(dev->SetDepthStencilSurface(nullptr));
    CHECK(dev->StretchRect(from, nullptr, single_depth, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
    HR(dev->StretchRect(from, nullptr, to, nullptr, D3DTEXF_NONE));
    // Drawn over `to` at 0.5: only where the copy holds 1.
    HR(dev->SetDepthStencilSurface(to));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kGreen, 0.0f, 0));
    HR(dev->BeginScene());
    quad(dev, 0, 0, 64, 64, 0.5f, kBlue);
    HR(dev->EndScene());
    HR(dev->SetDepthStencilSurface(nullptr));
    HR(dev->StretchRect(target, nullptr, resolved, nullptr, D3DTEXF_NONE));
    CHECK(pixel(dev, resolved, 16, 32) == (kGreen & 0xffffff));
    CHECK(pixel(dev, resolved, 48, 32) == (kBlue & 0xffffff));
    IDirect3DSurface9 *back = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->SetRenderTarget(0, back));
    back->Release();
    for (IDirect3DSurface9 *s : {target, from, to, single_depth, resolved}) CHECK(s->Release() == 0);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("MULTISAMPLEMASK masks maskable targets only: a NONMASKABLE target's samples are all written",
          "[scenes][multisample]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = make_d3d(backend);
    IDirect3DDevice9 *dev = make_device(d3d);
    IDirect3DSurface9 *maskable = nullptr, *nonmaskable = nullptr, *resolved = nullptr;
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &maskable, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONMASKABLE, 0, FALSE, &nonmaskable, nullptr));
    HR(dev->CreateRenderTarget(kSize, kSize, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    HR(dev->SetRenderState(D3DRS_MULTISAMPLEMASK, 0));
    for (IDirect3DSurface9 *target : {maskable, nonmaskable}) {
      HR(dev->SetRenderTarget(0, target));
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
      HR(dev->BeginScene());
      quad(dev, 0, 0, 64, 64, 0.5f, kRed);
      HR(dev->EndScene());
      HR(dev->StretchRect(target, nullptr, resolved, nullptr, D3DTEXF_NONE));
      CHECK(pixel(dev, resolved, 32, 32) == (target == maskable ? 0x000000u : 0xff0000u));
    }
    HR(dev->SetRenderTarget(0, resolved));
    for (IDirect3DSurface9 *s : {maskable, nonmaskable, resolved}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
