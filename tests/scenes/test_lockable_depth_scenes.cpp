// The lockable depth formats, D16_LOCKABLE and D32F_LOCKABLE: LockRect of the depth-stencil
// surface reads the depth that clears and draws left, on every backend (D16's 16-bit words,
// D32F's floats, rows top first), and what the lock writes is the depth the next draws test.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

// The depth at (x, y) of a locked D16_LOCKABLE or D32F_LOCKABLE surface, in [0, 1].
float depth_at(const D3DLOCKED_RECT &lr, D3DFORMAT format, UINT x, UINT y) {
  const auto *row = static_cast<const uint8_t *>(lr.pBits) + size_t(y) * UINT(lr.Pitch);
  if (format == D3DFMT_D16_LOCKABLE) {
    uint16_t v;
    std::memcpy(&v, row + x * 2, 2);
    return float(v) / 65535.0f;
  }
  float v;
  std::memcpy(&v, row + x * 4, 4);
  return v;
}

// Writes `depth` at (x, y) of a locked D16_LOCKABLE or D32F_LOCKABLE surface.
void set_depth(const D3DLOCKED_RECT &lr, D3DFORMAT format, UINT x, UINT y, float depth) {
  auto *row = static_cast<uint8_t *>(lr.pBits) + size_t(y) * UINT(lr.Pitch);
  if (format == D3DFMT_D16_LOCKABLE) {
    const auto v = uint16_t(std::lround(depth * 65535.0f));
    std::memcpy(row + x * 2, &v, 2);
  } else {
    std::memcpy(row + x * 4, &depth, 4);
  }
}

} // namespace

TEST_CASE("scene: lockable depth-stencil surfaces read back their depth", "[scene][format][depth]") {
  for (D3DFORMAT format : {D3DFMT_D16_LOCKABLE, D3DFMT_D32F_LOCKABLE}) {
    DYNAMIC_SECTION("format " << format) {
      render_all("lockable_depth_" + std::to_string(format), SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *ds = nullptr;
        HR(dev->CreateDepthStencilSurface(64, 64, format, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
        HR(dev->SetDepthStencilSurface(ds));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff000000, 0.5f, 0));
        HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
        HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_ALWAYS));
        // The left half at depth 0.25 (pixel centres in x 0..31).
        TLVertex v[4] = {{-0.5f, -0.5f, 0.25f, 1, 0xffffffff}, {31.5f, -0.5f, 0.25f, 1, 0xffffffff},
                         {-0.5f, 63.5f, 0.25f, 1, 0xffffffff}, {31.5f, 63.5f, 0.25f, 1, 0xffffffff}};
        HR(dev->SetFVF(kTLVertexFVF));
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));

        D3DLOCKED_RECT lr;
        HR(ds->LockRect(&lr, nullptr, D3DLOCK_READONLY));
        const float tolerance = format == D3DFMT_D16_LOCKABLE ? 1.5f / 65535.0f : 1e-6f;
        for (UINT y : {0u, 31u, 63u}) {
          CHECK(std::abs(depth_at(lr, format, 0, y) - 0.25f) <= tolerance);
          CHECK(std::abs(depth_at(lr, format, 31, y) - 0.25f) <= tolerance);
          CHECK(std::abs(depth_at(lr, format, 32, y) - 0.5f) <= tolerance);
          CHECK(std::abs(depth_at(lr, format, 63, y) - 0.5f) <= tolerance);
        }
        HR(ds->UnlockRect());
        // A rectangle locks at its first texel.
        RECT r{32, 10, 40, 20};
        HR(ds->LockRect(&lr, &r, D3DLOCK_READONLY));
        CHECK(std::abs(depth_at(lr, format, 0, 0) - 0.5f) <= tolerance);
        HR(ds->UnlockRect());

        HR(dev->SetDepthStencilSurface(nullptr));
        CHECK(ds->Release() == 0);
      }, 0);
    }
  }
}

TEST_CASE("other depth-stencil surfaces do not lock", "[scene][format][depth]") {
  render_all("unlockable_depth", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    // A new back buffer's texels are undefined (on Vulkan, whatever the driver's memory held):
    // the image compared across plugins is a cleared one.
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    for (D3DFORMAT format : {D3DFMT_D16, D3DFMT_D24S8, D3DFMT_D32}) {
      IDirect3DSurface9 *ds = nullptr;
      HR(dev->CreateDepthStencilSurface(16, 16, format, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
      D3DLOCKED_RECT lr;
      CHECK(ds->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3DERR_INVALIDCALL);
      CHECK(ds->Release() == 0);
    }
  }, 0);
}

TEST_CASE("scene: what a lock of a lockable depth-stencil surface writes is the depth draws test",
          "[scene][format][depth]") {
  for (D3DFORMAT format : {D3DFMT_D16_LOCKABLE, D3DFMT_D32F_LOCKABLE}) {
    DYNAMIC_SECTION("format " << format) {
      auto images = render_all("lockable_depth_write_" + std::to_string(format), SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *ds = nullptr;
        HR(dev->CreateDepthStencilSurface(64, 64, format, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
        HR(dev->SetDepthStencilSurface(ds));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff00ff00, 0.5f, 0));
        // Depth 0.1 written into the rectangle (0, 0)-(32, 64) through a lock of it.
        D3DLOCKED_RECT lr;
        RECT r{0, 0, 32, 64};
        HR(ds->LockRect(&lr, &r, 0));
        for (UINT y = 0; y < 64; ++y)
          for (UINT x = 0; x < 32; ++x) set_depth(lr, format, x, y, 0.1f);
        HR(ds->UnlockRect());
        // A red quad at 0.3 over the whole target, LESS: only where the depth is still 0.5.
        HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
        HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
        TLVertex v[4] = {{-0.5f, -0.5f, 0.3f, 1, 0xffff0000}, {63.5f, -0.5f, 0.3f, 1, 0xffff0000},
                         {-0.5f, 63.5f, 0.3f, 1, 0xffff0000}, {63.5f, 63.5f, 0.3f, 1, 0xffff0000}};
        HR(dev->SetFVF(kTLVertexFVF));
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
        // A read-only lock reads what the write left, and what the draw left beside it.
        HR(ds->LockRect(&lr, nullptr, D3DLOCK_READONLY));
        const float tolerance = format == D3DFMT_D16_LOCKABLE ? 1.5f / 65535.0f : 1e-6f;
        CHECK(std::abs(depth_at(lr, format, 10, 10) - 0.1f) <= tolerance);
        CHECK(std::abs(depth_at(lr, format, 50, 10) - 0.3f) <= tolerance);
        HR(ds->UnlockRect());
        HR(dev->SetDepthStencilSurface(nullptr));
        CHECK(ds->Release() == 0);
      }, 0);
      probe(images, {{16, 32, 0xff00ff00, 0}, {48, 32, 0xffff0000, 0}});
    }
  }
}
