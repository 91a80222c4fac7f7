// The viewport's depth range and the clipping of z on every backend. Transformed vertices land at
// MinZ + z (MaxZ - MinZ), MinZ == MaxZ and MinZ > MaxZ included, and are clipped outside
// 0 <= z <= w; MinZ and MaxZ outside [0, 1] are clamped (never reaching Vulkan as they are).
// Pre-transformed vertices (XYZRHW) carry their final depth whatever the viewport's range, and
// since Novem does not report D3DPMISCCAPS_CLIPTLVERTS their z is clamped to [0, 1] rather than
// clipped, as Windows' drivers without that cap do (Wine's z_range_test and depth_clamp_test),
// with or without a depth test. Each case draws into its own 8 x 16 tile; the depth it left is
// bracketed by two probes drawn through the left half of the tile.
#include <catch2/catch.hpp>

#include <algorithm>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr UINT kTileW = 8, kTileH = 16;
constexpr float kClearDepth = 0.1f;
constexpr D3DCOLOR kClear = 0xff000000, kDrawn = 0xff00ff00, kLow = 0xffff0000, kHigh = 0xff0000ff;

struct DepthCase {
  const char *name;
  bool pretransformed;
  float min_z, max_z; // the viewport's
  float z;            // the quad's: clip-space z (w = 1) or, pre-transformed, screen z
  bool depth_test;    // ZENABLE during the draw
  bool drawn;
  float depth; // what the depth buffer holds after it (the clear's value where nothing was drawn)
};

void set_viewport(IDirect3DDevice9 *dev, UINT tile, float min_z, float max_z) {
  const D3DVIEWPORT9 vp{tile * kTileW, 0, kTileW, kTileH, min_z, max_z};
  HR(dev->SetViewport(&vp));
}

// A quad over clip-space [x0, x1] x [y1, y0] at z (w = 1), identity transforms.
void clip_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR c) {
  const ColorVertex v[4] = {{x0, y0, z, c}, {x1, y0, z, c}, {x0, y1, z, c}, {x1, y1, z, c}};
  HR(dev->SetFVF(kColorVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
}

void draw_case(IDirect3DDevice9 *dev, UINT tile, const DepthCase &c) {
  set_viewport(dev, tile, c.min_z, c.max_z);
  HR(dev->SetRenderState(D3DRS_ZENABLE, c.depth_test ? D3DZB_TRUE : D3DZB_FALSE));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_ALWAYS));
  HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, TRUE));
  if (c.pretransformed) {
    const float x0 = float(tile * kTileW) - 0.5f, x1 = x0 + kTileW, y0 = -0.5f, y1 = y0 + kTileH;
    const TLVertex v[4] = {{x0, y0, c.z, 1, kDrawn}, {x1, y0, c.z, 1, kDrawn}, {x0, y1, c.z, 1, kDrawn},
                           {x1, y1, c.z, 1, kDrawn}};
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
  } else {
    clip_quad(dev, -1, 1, 1, -1, c.z, kDrawn);
  }
}

// Two probes through the viewport's full range bracket the depth left: the top-left quarter
// passes where the depth is at least depth - 0.02, the bottom-left one where it is at most
// depth + 0.02.
void probe_depth(IDirect3DDevice9 *dev, UINT tile, float depth) {
  set_viewport(dev, tile, 0.0f, 1.0f);
  HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
  HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));
  clip_quad(dev, -1, 1, 0, 0, std::max(depth - 0.02f, 0.0f), kLow);
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATEREQUAL));
  clip_quad(dev, -1, 0, 0, -1, std::min(depth + 0.02f, 1.0f), kHigh);
}

void run(const char *scene, D3DFORMAT depth_format, const std::vector<DepthCase> &cases) {
  SceneSetup setup;
  setup.width = kTileW * UINT(cases.size());
  setup.height = kTileH;
  setup.depth = depth_format;
  auto rendered = render_all(scene, setup, [&](IDirect3DDevice9 *dev) {
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | (depth_format ? D3DCLEAR_ZBUFFER : 0), kClear, kClearDepth, 0));
    for (UINT i = 0; i < cases.size(); ++i) {
      draw_case(dev, i, cases[i]);
      if (depth_format && cases[i].depth_test) probe_depth(dev, i, cases[i].depth);
    }
  }, 0);
  for (const Rendered &r : rendered)
    for (UINT i = 0; i < cases.size(); ++i) {
      const DepthCase &c = cases[i];
      INFO(r.backend << ": " << c.name);
      const UINT x = i * kTileW;
      probe(r, x + 6, 8, c.drawn ? kDrawn : kClear, 0);
      if (depth_format && c.depth_test) {
        probe(r, x + 1, 3, kLow, 0);
        probe(r, x + 1, 12, kHigh, 0);
      } else {
        probe(r, x + 1, 8, c.drawn ? kDrawn : kClear, 0);
      }
    }
}

} // namespace

TEST_CASE("Depth lands where the viewport's range and D3D9's clipping put it", "[scenes][depth_range]") {
  run("depth_range", D3DFMT_D24S8,
      {
          {"transformed through [0.25, 0.75]", false, 0.25f, 0.75f, 0.5f, true, true, 0.5f},
          {"transformed, MinZ == MaxZ", false, 0.6f, 0.6f, 0.2f, true, true, 0.6f},
          {"transformed, MinZ > MaxZ", false, 0.8f, 0.2f, 0.25f, true, true, 0.65f},
          {"transformed, MaxZ past 1 clamped to 1", false, 0.0f, 7.5f, 0.5f, true, true, 0.5f},
          {"transformed, MinZ below 0 clamped to 0", false, -1.0f, 0.5f, 0.5f, true, true, 0.25f},
          {"transformed z past w clipped", false, 0.0f, 1.0f, 1.5f, true, false, kClearDepth},
          {"transformed z below 0 clipped", false, 0.0f, 1.0f, -0.5f, true, false, kClearDepth},
          {"pre-transformed inside the range", true, 0.25f, 0.75f, 0.3f, true, true, 0.3f},
          {"pre-transformed outside the range", true, 0.25f, 0.5f, 0.9f, true, true, 0.9f},
          {"pre-transformed, MinZ == MaxZ", true, 0.6f, 0.6f, 0.3f, true, true, 0.3f},
          {"pre-transformed, MinZ > MaxZ", true, 0.8f, 0.2f, 0.3f, true, true, 0.3f},
          {"pre-transformed, MaxZ past 1", true, 0.0f, 7.5f, 0.3f, true, true, 0.3f},
          {"pre-transformed z past 1 clamped", true, 0.0f, 1.0f, 1.5f, true, true, 1.0f},
          {"pre-transformed z below 0 clamped", true, 0.0f, 1.0f, -0.5f, true, true, 0.0f},
          {"pre-transformed z past 1, ZENABLE off", true, 0.0f, 1.0f, 1.5f, false, true, kClearDepth},
          {"transformed z past w, ZENABLE off", false, 0.0f, 1.0f, 1.5f, false, false, kClearDepth},
      });
}

TEST_CASE("Depth clipping without a depth buffer", "[scenes][depth_range]") {
  run("depth_range_no_buffer", D3DFMT_UNKNOWN,
      {
          {"pre-transformed z past 1", true, 0.0f, 1.0f, 1.5f, true, true, 0},
          {"pre-transformed z below 0", true, 0.0f, 1.0f, -0.5f, true, true, 0},
          {"pre-transformed, MinZ > MaxZ", true, 0.8f, 0.2f, 0.3f, true, true, 0},
          {"transformed z past w", false, 0.0f, 1.0f, 1.5f, true, false, 0},
          {"transformed, MaxZ past 1", false, 0.0f, 7.5f, 0.5f, true, true, 0},
      });
}

// Drivers without D3DPMISCCAPS_CLIPTLVERTS clamp a pre-transformed triangle's depth per pixel,
// after interpolation: a quad whose z runs from -1 (left) to 2 (right) holds depth 0 over its
// left third and 1 over its right third, where a clamp of each vertex's z would give a ramp from
// 0 to 1. A probe at z 0.1 (LESS, top half) and one at z 0.9 (GREATER, bottom half) tell them
// apart at a fifth and four fifths of the width.
TEST_CASE("Pre-transformed depth is clamped per pixel", "[scenes][depth_range]") {
  constexpr UINT kW = 64, kH = 16;
  constexpr D3DCOLOR kRamp = 0xff00ff00, kAbove = 0xffff0000, kBelow = 0xff0000ff;
  SceneSetup setup;
  setup.width = kW, setup.height = kH, setup.depth = D3DFMT_D24S8;
  auto quad = [](IDirect3DDevice9 *dev, float y0, float y1, float z_left, float z_right, D3DCOLOR c) {
    const float x0 = -0.5f, x1 = kW - 0.5f;
    const TLVertex v[4] = {{x0, y0, z_left, 1, c}, {x1, y0, z_right, 1, c}, {x0, y1, z_left, 1, c}, {x1, y1, z_right, 1, c}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
  };
  auto rendered = render_all("depth_clamp_per_pixel", setup, [&](IDirect3DDevice9 *dev) {
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kClear, 0.5f, 0));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_ALWAYS));
    quad(dev, -0.5f, kH - 0.5f, -1.0f, 2.0f, kRamp);
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
    quad(dev, -0.5f, kH / 2 - 0.5f, 0.1f, 0.1f, kAbove);
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER));
    quad(dev, kH / 2 - 0.5f, kH - 0.5f, 0.9f, 0.9f, kBelow);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO(r.backend);
    probe(r, kW / 5, 4, kRamp, 0);      // depth 0: not behind z 0.1
    probe(r, kW / 5, 12, kBelow, 0);    // in front of z 0.9
    probe(r, kW * 4 / 5, 4, kAbove, 0); // depth 1: behind z 0.1
    probe(r, kW * 4 / 5, 12, kRamp, 0); // and not in front of z 0.9
  }
}
