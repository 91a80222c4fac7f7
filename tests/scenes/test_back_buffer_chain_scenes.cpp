// Back-buffer chains on every backend: each back buffer of a chain is drawn into with a colour of
// its own, the chain is presented, and every back buffer and the front buffer are read back and
// probed against a model of what D3D9 defines for the swap effect:
//  - FLIP: the buffers form a ring with the front buffer; Present turns it by one, so back buffer
//    0 becomes the front buffer, back buffer i takes i + 1's contents and the last one the old
//    front buffer's (D3DSWAPEFFECT's documentation). The surface objects stay: render target 0
//    is still back buffer 0, drawing into what was back buffer 1's memory.
//  - COPY: Present leaves the back buffer as it was and the front buffer shows a copy of it.
//  - DISCARD: undefined contents; Novem keeps them as COPY does (docs/d3d9-behaviour.md).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr UINT kWidth = 32, kHeight = 16;
constexpr D3DCOLOR kBlack = 0xff000000; // a front buffer never presented to

// What a chain's buffers hold: each a left and a right half of one colour.
struct Contents {
  D3DCOLOR left, right;
};

// One step of a scene, done to the device and to the model alike.
enum class Step {
  kFill,        // each back buffer i drawn whole in colours[i], then back buffer 0 set as render target 0
  kDrawLeft,    // a quad over the left half of render target 0 (not set again) in colours[4]
  kClearWhole,  // a clear of the whole of render target 0 in colours[5]
  kPresent,
  kCheck,       // every back buffer and the front buffer read back and probed
};

const D3DCOLOR colours[] = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffff00, 0xff00ffff, 0xffff00ff};

struct Case {
  const char *name;
  D3DSWAPEFFECT effect;
  UINT count;
  bool additional; // an additional swap chain rather than the device's implicit one
  D3DMULTISAMPLE_TYPE multisample;
};

const Case kCases[] = {
    {"flip_1", D3DSWAPEFFECT_FLIP, 1, false, D3DMULTISAMPLE_NONE},
    {"flip_2", D3DSWAPEFFECT_FLIP, 2, false, D3DMULTISAMPLE_NONE},
    {"flip_3", D3DSWAPEFFECT_FLIP, 3, false, D3DMULTISAMPLE_NONE},
    {"flip_2_additional", D3DSWAPEFFECT_FLIP, 2, true, D3DMULTISAMPLE_NONE},
    {"copy_1", D3DSWAPEFFECT_COPY, 1, false, D3DMULTISAMPLE_NONE},
    {"discard_1", D3DSWAPEFFECT_DISCARD, 1, false, D3DMULTISAMPLE_NONE},
    {"discard_3", D3DSWAPEFFECT_DISCARD, 3, false, D3DMULTISAMPLE_NONE},
    {"discard_3_additional", D3DSWAPEFFECT_DISCARD, 3, true, D3DMULTISAMPLE_NONE},
    {"discard_2_multisampled", D3DSWAPEFFECT_DISCARD, 2, false, D3DMULTISAMPLE_4_SAMPLES},
};

// Two presents in a row, a frame that begins with a draw of a part, one that begins with a whole
// clear (which DISCARD and COPY answer by exchanging images instead of copying the frame).
const Step kScript[] = {Step::kFill,      Step::kCheck,   Step::kPresent,    Step::kCheck,
                        Step::kDrawLeft,  Step::kCheck,   Step::kPresent,    Step::kPresent,
                        Step::kCheck,     Step::kClearWhole, Step::kPresent, Step::kCheck,
                        Step::kDrawLeft,  Step::kPresent, Step::kCheck};

// The model: back buffers 0..n-1, then the front buffer.
struct Model {
  std::vector<Contents> ring;
  bool flip;
  void present() {
    const size_t n = ring.size() - 1;
    if (flip) {
      const Contents first = ring[0];
      ring.erase(ring.begin());
      ring.push_back(first); // [B0, ..., Bn-1, F] -> [B1, ..., Bn-1, F, B0]
    } else {
      ring[n] = ring[0];
    }
  }
};

void quad(IDirect3DDevice9 *dev, float x0, float x1, D3DCOLOR c) {
  const TLVertex v[4] = {{x0, 0, 0.5f, 1, c}, {x1, 0, 0.5f, 1, c}, {x0, float(kHeight), 0.5f, 1, c},
                         {x1, float(kHeight), 0.5f, 1, c}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

// The texel at (x, 8) of a locked 32-bit surface as D3DCOLOR, alpha made opaque.
D3DCOLOR texel(const D3DLOCKED_RECT &lr, UINT x) {
  D3DCOLOR c;
  std::memcpy(&c, static_cast<const uint8_t *>(lr.pBits) + 8 * UINT(lr.Pitch) + x * 4, 4);
  return c | 0xff000000;
}

void probe_halves(IDirect3DSurface9 *readback, const Contents &want, const std::string &what) {
  D3DLOCKED_RECT lr{};
  HR(readback->LockRect(&lr, nullptr, D3DLOCK_READONLY));
  const D3DCOLOR left = texel(lr, 4), right = texel(lr, kWidth - 4);
  HR(readback->UnlockRect());
  INFO(what << ": left 0x" << std::hex << left << " (want 0x" << want.left << "), right 0x" << right << " (want 0x"
            << want.right << ")");
  CHECK(left == want.left);
  CHECK(right == want.right);
}

struct Scene {
  IDirect3DDevice9 *device = nullptr;
  IDirect3DSwapChain9 *chain = nullptr; // the additional one, or the implicit one
  std::vector<IDirect3DSurface9 *> back;
  IDirect3DSurface9 *readback = nullptr, *front = nullptr, *resolved = nullptr;
  bool multisampled = false;

  void check(const Model &model) {
    for (size_t i = 0; i < back.size(); ++i) {
      IDirect3DSurface9 *source = back[i];
      if (multisampled) { // a multisampled surface is read through a resolve (D3D9's rule)
        HR(device->StretchRect(back[i], nullptr, resolved, nullptr, D3DTEXF_NONE));
        source = resolved;
      }
      HR(device->GetRenderTargetData(source, readback));
      probe_halves(readback, model.ring[i], "back buffer " + std::to_string(i));
    }
    HR(chain->GetFrontBufferData(front));
    probe_halves(front, model.ring.back(), "front buffer");
  }
};

void run(const std::string &backend, const Case &c) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d != nullptr);
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = kWidth;
  pp.BackBufferHeight = kHeight;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.BackBufferCount = c.count;
  pp.SwapEffect = c.effect;
  pp.MultiSampleType = c.multisample;
  pp.Windowed = TRUE;
  D3DPRESENT_PARAMETERS device_pp = pp;
  if (c.additional) device_pp.BackBufferCount = 1, device_pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  Scene s;
  s.multisampled = c.multisample != D3DMULTISAMPLE_NONE;
  HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &device_pp, &s.device));
  IDirect3DDevice9 *dev = s.device;
  if (c.additional) HR(dev->CreateAdditionalSwapChain(&pp, &s.chain));
  else HR(dev->GetSwapChain(0, &s.chain));
  for (UINT i = 0; i < c.count; ++i) {
    IDirect3DSurface9 *surface = nullptr;
    HR(s.chain->GetBackBuffer(i, D3DBACKBUFFER_TYPE_MONO, &surface));
    s.back.push_back(surface);
  }
  HR(dev->CreateOffscreenPlainSurface(kWidth, kHeight, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &s.readback, nullptr));
  HR(dev->CreateOffscreenPlainSurface(kWidth, kHeight, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &s.front, nullptr));
  if (s.multisampled)
    HR(dev->CreateRenderTarget(kWidth, kHeight, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &s.resolved, nullptr));
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
  HR(dev->SetFVF(kTLVertexFVF));

  Model model{std::vector<Contents>(c.count + 1, Contents{kBlack, kBlack}), c.effect == D3DSWAPEFFECT_FLIP};
  int step_number = 0;
  for (Step step : kScript) {
    INFO("step " << step_number++);
    switch (step) {
    case Step::kFill:
      for (UINT i = 0; i < c.count; ++i) {
        HR(dev->SetRenderTarget(0, s.back[i]));
        HR(dev->BeginScene());
        quad(dev, 0, float(kWidth), colours[i]);
        HR(dev->EndScene());
        model.ring[i] = Contents{colours[i], colours[i]};
      }
      HR(dev->SetRenderTarget(0, s.back[0]));
      break;
    case Step::kDrawLeft:
      HR(dev->BeginScene());
      quad(dev, 0, float(kWidth / 2), colours[4]);
      HR(dev->EndScene());
      model.ring[0].left = colours[4];
      break;
    case Step::kClearWhole:
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, colours[5], 1.0f, 0));
      model.ring[0] = Contents{colours[5], colours[5]};
      break;
    case Step::kPresent:
      HR(s.chain->Present(nullptr, nullptr, nullptr, nullptr, 0));
      model.present();
      break;
    case Step::kCheck: s.check(model); break;
    }
  }
  // Render target 0 is still back buffer 0's surface object.
  IDirect3DSurface9 *target = nullptr;
  HR(dev->GetRenderTarget(0, &target));
  CHECK(target == s.back[0]);
  target->Release();

  for (IDirect3DSurface9 *surface : s.back) surface->Release();
  CHECK(s.readback->Release() == 0);
  CHECK(s.front->Release() == 0);
  if (s.resolved) CHECK(s.resolved->Release() == 0);
  if (c.additional) {
    IDirect3DSurface9 *implicit = nullptr; // render target 0 must not keep the chain's buffer alive
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &implicit));
    HR(dev->SetRenderTarget(0, implicit));
    implicit->Release();
  }
  CHECK(s.chain->Release() == 0);
  CHECK(dev->Release() == 0);
  CHECK(d3d->Release() == 0);
}

} // namespace

TEST_CASE("back-buffer chains: what Present leaves in each back buffer and the front buffer, per swap effect",
          "[scenes][present][chain]") {
  for (const std::string &backend : available_backends()) {
    for (const Case &c : kCases) {
      INFO("backend " << backend << ", " << c.name);
      setenv("NOVEM_BACKEND", backend.c_str(), 1);
      IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
      const bool multisample_ok =
          c.multisample == D3DMULTISAMPLE_NONE ||
          d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, c.multisample, nullptr) == D3D_OK;
      d3d->Release();
      if (!multisample_ok) {
        WARN(backend << " has no " << c.multisample << "-sample back buffers: " << c.name << " skipped");
        continue;
      }
      run(backend, c);
    }
  }
}
