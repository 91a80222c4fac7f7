// Render states that shape the pipeline (stencil, scissor, depth, depth bias, fill mode,
// blending) and instancing, rendered through every backend that can start: images compared
// across backends and probed against what D3D9 defines.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kBlack = 0xff000000;
constexpr D3DCOLOR kYellow = 0xffffff00, kWhite = 0xffffffff;

DWORD bits(float f) { return std::bit_cast<DWORD>(f); }

// A pre-transformed rectangle from (x0, y0) to (x1, y1) at depth z: clockwise on screen, or
// counter-clockwise with `ccw`.
void rect(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR c, bool ccw = false) {
  TLVertex cw[4] = {{x0, y0, z, 1, c}, {x1, y0, z, 1, c}, {x0, y1, z, 1, c}, {x1, y1, z, 1, c}};
  TLVertex rev[4] = {cw[0], cw[2], cw[1], cw[3]};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, ccw ? rev : cw, sizeof(TLVertex)));
}

void full(IDirect3DDevice9 *dev, D3DCOLOR c, float z = 0.5f) { rect(dev, 0, 0, 64, 64, z, c); }

// The centres of the four 32 x 32 quadrants, top-left, top-right, bottom-left, bottom-right.
void probe_quadrants(const Rendered &r, D3DCOLOR tl, D3DCOLOR tr, D3DCOLOR bl, D3DCOLOR br, uint32_t tolerance = 0) {
  probe(r, 16, 16, tl, tolerance);
  probe(r, 48, 16, tr, tolerance);
  probe(r, 16, 48, bl, tolerance);
  probe(r, 48, 48, br, tolerance);
}

SceneSetup with_depth(D3DFORMAT depth = D3DFMT_D24S8, D3DFORMAT back_buffer = D3DFMT_X8R8G8B8) {
  SceneSetup s;
  s.depth = depth;
  s.back_buffer = back_buffer;
  return s;
}

// Whole-target clears of one aspect at a time, each either the first command after a target
// change (new_passes) or in the middle of a pass. A plugin may turn such a clear into the load
// operations of a render pass instance it begins (the Vulkan plugin does): what the clear leaves
// out must keep its contents, aspect by aspect. Expected quadrants: red, black, green, blue.
void clear_aspects_scene(IDirect3DDevice9 *dev, bool new_passes) {
  IDirect3DTexture9 *other = nullptr;
  HR(dev->CreateTexture(64, 64, 1, D3DUSAGE_RENDERTARGET, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &other, nullptr));
  IDirect3DSurface9 *other_surface = nullptr, *back = nullptr;
  HR(other->GetSurfaceLevel(0, &other_surface));
  HR(dev->GetRenderTarget(0, &back));
  // Rendering into another target and back ends the pass.
  auto before_clear = [&] {
    if (!new_passes) return;
    HR(dev->SetRenderTarget(0, other_surface));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kWhite, 1.0f, 0));
    HR(dev->SetRenderTarget(0, back));
  };
  // Stencil 1 on the left half; depth 0.5 on the top half and 1 on the bottom.
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, kBlack, 1.0f, 0));
  HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0));
  HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
  HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_REPLACE));
  HR(dev->SetRenderState(D3DRS_STENCILREF, 1));
  HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
  rect(dev, 0, 0, 32, 64, 0.5f, kWhite);
  HR(dev->SetRenderState(D3DRS_STENCILENABLE, FALSE));
  HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_ALWAYS));
  rect(dev, 0, 0, 64, 32, 0.5f, kWhite);
  HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0xf));
  HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
  HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
  HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_KEEP));
  HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL));
  // Colour alone: depth and stencil stay. Green where stencil is 1 and 0.75 is nearer than
  // the depth: bottom left.
  before_clear();
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 0.0f, 7));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
  full(dev, kGreen, 0.75f);
  // Depth alone, to 0: the stencil stays. Red on the top half where stencil is 1: top left.
  before_clear();
  HR(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER, kWhite, 0.0f, 7));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER));
  rect(dev, 0, 0, 64, 32, 0.1f, kRed);
  // Stencil alone, to 1: the depth stays 0. Blue on the bottom-right quadrant.
  before_clear();
  HR(dev->Clear(0, nullptr, D3DCLEAR_STENCIL, kWhite, 1.0f, 1));
  rect(dev, 32, 32, 64, 64, 0.1f, kBlue);
  back->Release();
  other_surface->Release();
  other->Release();
}

} // namespace

TEST_CASE("scene: stencil reference, masks and the fail and pass operations", "[scene][render_state][stencil]") {
  auto images = render_all("rs_stencil_ops", with_depth(), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
    // Left half: REPLACE with reference 3 through write mask 1 stores 1.
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_REPLACE));
    HR(dev->SetRenderState(D3DRS_STENCILREF, 3));
    HR(dev->SetRenderState(D3DRS_STENCILWRITEMASK, 1));
    rect(dev, 0, 0, 32, 64, 0.5f, kRed);
    // Top half: INCRSAT adds one: top-left 2, top-right 1.
    HR(dev->SetRenderState(D3DRS_STENCILWRITEMASK, 0xff));
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_INCRSAT));
    rect(dev, 0, 0, 64, 32, 0.5f, kRed);
    // Bottom-right: the test never passes, FAIL replaces with 3 and nothing is drawn.
    HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_NEVER));
    HR(dev->SetRenderState(D3DRS_STENCILFAIL, D3DSTENCILOP_REPLACE));
    rect(dev, 32, 32, 64, 64, 0.5f, kYellow);
    // Stored: top-left 2, top-right 1, bottom-left 1, bottom-right 3. Colour cleared again.
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_STENCILFAIL, D3DSTENCILOP_KEEP));
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_KEEP));
    HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL));
    HR(dev->SetRenderState(D3DRS_STENCILREF, 1));
    full(dev, kGreen); // where 1 is stored
    // Reference 6 under compare mask 2 is 2: equal where the stored value has bit 1 (2 and 3).
    HR(dev->SetRenderState(D3DRS_STENCILREF, 6));
    HR(dev->SetRenderState(D3DRS_STENCILMASK, 2));
    full(dev, kBlue);
    HR(dev->SetRenderState(D3DRS_STENCILMASK, 0xff));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, FALSE));
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kBlue, kGreen, kGreen, kBlue);
}

TEST_CASE("scene: two-sided stencil with the depth-fail operations", "[scene][render_state][stencil]") {
  auto images = render_all("rs_stencil_two_sided", with_depth(), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, kBlack, 0.5f, 0));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_TWOSIDEDSTENCILMODE, TRUE));
    HR(dev->SetRenderState(D3DRS_STENCILREF, 7));
    // Clockwise: pass REPLACE, depth fail ZERO. Counter-clockwise: pass INCR, depth fail DECR (wraps).
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_REPLACE));
    HR(dev->SetRenderState(D3DRS_STENCILZFAIL, D3DSTENCILOP_ZERO));
    HR(dev->SetRenderState(D3DRS_CCW_STENCILPASS, D3DSTENCILOP_INCR));
    HR(dev->SetRenderState(D3DRS_CCW_STENCILZFAIL, D3DSTENCILOP_DECR));
    rect(dev, 0, 0, 32, 32, 0.25f, kRed);                 // cw, depth passes: 7
    rect(dev, 32, 0, 64, 32, 0.25f, kRed, true);          // ccw, depth passes: 1
    rect(dev, 0, 32, 32, 64, 0.75f, kRed);                // cw, depth fails: 0
    rect(dev, 32, 32, 64, 64, 0.75f, kRed, true);         // ccw, depth fails: 255
    HR(dev->SetRenderState(D3DRS_TWOSIDEDSTENCILMODE, FALSE));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_KEEP));
    HR(dev->SetRenderState(D3DRS_STENCILZFAIL, D3DSTENCILOP_KEEP));
    HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL));
    const std::pair<DWORD, D3DCOLOR> passes[] = {{7, kRed}, {1, kGreen}, {0, kBlue}, {255, kYellow}};
    for (auto [ref, colour] : passes) {
      HR(dev->SetRenderState(D3DRS_STENCILREF, ref));
      full(dev, colour);
    }
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kRed, kGreen, kBlue, kYellow);
}

TEST_CASE("scene: the scissor test clips draws and clears", "[scene][render_state][scissor]") {
  auto images = render_all("rs_scissor", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    RECT inner{16, 16, 48, 48};
    HR(dev->SetScissorRect(&inner));
    full(dev, kRed); // the test is off: the rect does nothing yet
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_SCISSORTESTENABLE, TRUE));
    full(dev, kGreen);
    // D3D9's scissor test also clips Clear (its "Scissor Test" page).
    RECT left{0, 0, 8, 64};
    HR(dev->SetScissorRect(&left));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_SCISSORTESTENABLE, FALSE));
    rect(dev, 56, 0, 64, 64, 0.5f, kYellow);
  }, 0);
  probe(images, {{4, 4, kBlue, 0},
                 {4, 60, kBlue, 0},
                 {12, 4, kBlack, 0},
                 {20, 8, kBlack, 0},
                 {32, 32, kGreen, 0},
                 {16, 16, kGreen, 0},
                 {47, 47, kGreen, 0},
                 {48, 32, kBlack, 0},
                 {32, 48, kBlack, 0},
                 {60, 32, kYellow, 0}});
}

TEST_CASE("scene: depth functions, write mask, ZENABLE and USEW", "[scene][render_state][depth]") {
  auto images = render_all("rs_depth", with_depth(), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 0.5f, 0));
    // Top-left: GREATER fails for 0.25 and passes for 0.75.
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER));
    rect(dev, 0, 0, 32, 32, 0.25f, kRed);
    rect(dev, 0, 0, 32, 32, 0.75f, kGreen);
    // Top-right: with writes off a nearer quad leaves the depth at 0.5: LESS then passes at 0.4.
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    rect(dev, 32, 0, 64, 32, 0.1f, kRed);
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, TRUE));
    rect(dev, 32, 0, 64, 32, 0.4f, kBlue);
    // Bottom-left: ZENABLE FALSE draws whatever the depth.
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    rect(dev, 0, 32, 32, 64, 0.9f, kYellow);
    // Bottom-right: D3DZB_USEW tests as D3DZB_TRUE (Novem has no w-buffer): 0.9 fails LESS.
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_USEW));
    rect(dev, 32, 32, 64, 64, 0.3f, kWhite);
    rect(dev, 32, 32, 64, 64, 0.9f, kRed);
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kGreen, kBlue, kYellow, kWhite);
}

// DEPTHBIAS in depth units on D24S8 and D16, and SLOPESCALEDEPTHBIAS on a sloped quad.
void depth_bias_scene(const char *name, D3DFORMAT depth) {
  auto images = render_all(name, with_depth(depth), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 0.5f, 0));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    rect(dev, 0, 0, 32, 32, 0.5f, kRed); // 0.5 < 0.5 fails
    HR(dev->SetRenderState(D3DRS_DEPTHBIAS, bits(-0.1f)));
    rect(dev, 0, 0, 32, 32, 0.55f, kGreen); // 0.45 passes
    // 0.65 fails (test_vertex_misc_scenes.cpp shows where exactly the bias flips the test).
    rect(dev, 32, 0, 64, 32, 0.75f, kRed);
    HR(dev->SetRenderState(D3DRS_DEPTHBIAS, bits(0.0f)));
    // Bottom: z grows 0.01 a pixel from 0.3 at x = 0, so LESS passes left of x = 20; a slope bias
    // of 10 adds 0.1 and moves the edge to x = 10.
    auto sloped = [&](float y0, float y1, D3DCOLOR c) {
      TLVertex v[4] = {{0, y0, 0.3f, 1, c}, {64, y0, 0.94f, 1, c}, {0, y1, 0.3f, 1, c}, {64, y1, 0.94f, 1, c}};
      HR(dev->SetFVF(kTLVertexFVF));
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
    };
    sloped(32, 48, kBlue);
    HR(dev->SetRenderState(D3DRS_SLOPESCALEDEPTHBIAS, bits(10.0f)));
    sloped(48, 64, kYellow);
    HR(dev->SetRenderState(D3DRS_SLOPESCALEDEPTHBIAS, bits(0.0f)));
  }, 0);
  probe(images, {{16, 16, kGreen, 0},
                 {48, 16, kBlack, 0},
                 {5, 40, kBlue, 0},
                 {15, 40, kBlue, 0},
                 {25, 40, kBlack, 0},
                 {5, 56, kYellow, 0},
                 {15, 56, kBlack, 0}});
}

TEST_CASE("scene: DEPTHBIAS and SLOPESCALEDEPTHBIAS on D24S8", "[scene][render_state][depth]") {
  depth_bias_scene("rs_depth_bias_d24s8", D3DFMT_D24S8);
}

TEST_CASE("scene: DEPTHBIAS and SLOPESCALEDEPTHBIAS on D16", "[scene][render_state][depth]") {
  depth_bias_scene("rs_depth_bias_d16", D3DFMT_D16);
}

TEST_CASE("scene: FILLMODE wireframe and point", "[scene][render_state][fill]") {
  auto images = render_all("rs_fill_mode", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_FILLMODE, D3DFILL_WIREFRAME));
    rect(dev, 8, 8, 24, 56, 0.5f, kGreen);
    // Where a line ends, GL and Vulkan may light different last pixels: the corners are cleared.
    const D3DRECT corners[4] = {{6, 6, 11, 11}, {21, 6, 26, 11}, {6, 53, 11, 58}, {21, 53, 26, 58}};
    HR(dev->Clear(4, corners, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_FILLMODE, D3DFILL_POINT));
    rect(dev, 40, 8, 56, 56, 0.5f, kRed);
    HR(dev->SetRenderState(D3DRS_FILLMODE, D3DFILL_SOLID));
  }, 0);
  probe(images, {{8, 30, kGreen, 0},  // the left edge
                 {12, 20, kBlack, 0}, // inside, off the diagonal
                 {20, 48, kBlack, 0},
                 {40, 8, kRed, 0},    // a corner point
                 {48, 30, kBlack, 0}, // no edges, no inside
                 {40, 30, kBlack, 0}});
}

TEST_CASE("scene: blend factor, separate alpha, BOTH factors, ops and write mask", "[scene][render_state][blend]") {
  auto images = render_all("rs_blend", with_depth(D3DFMT_UNKNOWN, D3DFMT_A8R8G8B8), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0x40204080, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    // Column 0: source × BLENDFACTOR.
    HR(dev->SetRenderState(D3DRS_BLENDFACTOR, 0xff336699));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_BLENDFACTOR));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ZERO));
    rect(dev, 0, 0, 16, 16, 0.5f, kWhite);
    // Column 1: destination × (1 - BLENDFACTOR): 0x40204080 scaled by 1 - 0x80/255.
    HR(dev->SetRenderState(D3DRS_BLENDFACTOR, 0x80808080));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVBLENDFACTOR));
    rect(dev, 16, 0, 32, 16, 0.5f, kWhite);
    // Column 2: BOTHSRCALPHA sets source SRCALPHA and destination INVSRCALPHA, whatever DESTBLEND.
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_BOTHSRCALPHA));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    rect(dev, 32, 0, 48, 16, 0.5f, 0x80ff0000);
    // Column 3: BOTHINVSRCALPHA: source INVSRCALPHA, destination SRCALPHA.
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_BOTHINVSRCALPHA));
    rect(dev, 48, 0, 64, 16, 0.5f, 0x40ff0000);
    // Row 1: separate alpha: colour ONE/ZERO, alpha ZERO/ONE keeps the cleared 0x40 alpha ...
    HR(dev->SetRenderState(D3DRS_SEPARATEALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_SRCBLENDALPHA, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLENDALPHA, D3DBLEND_ONE));
    rect(dev, 0, 16, 64, 32, 0.5f, 0xffffffff);
    // ... which a DESTALPHA pass then shows as grey (0x40).
    HR(dev->SetRenderState(D3DRS_SEPARATEALPHABLENDENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_DESTALPHA));
    rect(dev, 0, 16, 16, 32, 0.5f, kWhite);
    // Row 2: REVSUBTRACT (dest - src), MIN and MAX, each over the cleared colour.
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_REVSUBTRACT));
    rect(dev, 0, 32, 16, 48, 0.5f, 0xff102030);
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_MIN));
    rect(dev, 16, 32, 32, 48, 0.5f, 0xff306010);
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_MAX));
    rect(dev, 32, 32, 48, 48, 0.5f, 0xff306010);
    HR(dev->SetRenderState(D3DRS_BLENDOP, D3DBLENDOP_ADD));
    // Row 3: COLORWRITEENABLE red and blue only, blending off.
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_BLUE));
    rect(dev, 0, 48, 64, 64, 0.5f, kWhite);
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0xf));
  }, 1);
  probe(images, {{8, 8, 0xff336699, 1},
                 {24, 8, 0xff102040, 1}, // 0x20, 0x40, 0x80 × 127/255
                 {40, 8, 0xff902040, 1}, // red × 0x80/255 + dest × 0x7f/255
                 {56, 8, 0xffc71020, 1}, // red × 0xbf/255 + dest × 0x40/255
                 {8, 24, 0xff404040, 1},
                 {24, 24, kWhite, 0},
                 {8, 40, 0xff102050, 1}, // 0x204080 - 0x102030
                 {24, 40, 0xff204010, 1},
                 {40, 40, 0xff306080, 1},
                 {8, 56, 0xffff40ff, 0}});
}

TEST_CASE("scene: instancing with SetStreamSourceFreq", "[scene][render_state][instancing]") {
  auto images = render_all("rs_instancing", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    struct Corner {
      float x, y, z, w;
    };
    struct Instance {
      D3DCOLOR color;
      float dx, dy;
    };
    // One quad (the top-left quarter of clip space) drawn three times, each instance moving it
    // to another quarter and giving it its colour; the bottom-right quarter stays empty.
    const Corner quad[4] = {{-1, 1, 0.5f, 1}, {0, 1, 0.5f, 1}, {-1, 0, 0.5f, 1}, {0, 0, 0.5f, 1}};
    const uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
    const Instance instances[3] = {{kRed, 0, 0}, {kGreen, 1, 0}, {kBlue, 0, -1}};
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {1, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        {1, 4, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        D3DDECL_END()};
    ShaderSet s(dev, "vs30_instance_offset", "ps30_pass_color", elements);
    IDirect3DVertexBuffer9 *geometry = nullptr, *per_instance = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(sizeof quad, 0, 0, D3DPOOL_DEFAULT, &geometry, nullptr));
    HR(dev->CreateVertexBuffer(sizeof instances, 0, 0, D3DPOOL_DEFAULT, &per_instance, nullptr));
    HR(dev->CreateIndexBuffer(sizeof indices, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    void *p = nullptr;
    HR(geometry->Lock(0, 0, &p, 0));
    std::memcpy(p, quad, sizeof quad);
    HR(geometry->Unlock());
    HR(per_instance->Lock(0, 0, &p, 0));
    std::memcpy(p, instances, sizeof instances);
    HR(per_instance->Unlock());
    HR(ib->Lock(0, 0, &p, 0));
    std::memcpy(p, indices, sizeof indices);
    HR(ib->Unlock());
    HR(dev->SetStreamSource(0, geometry, 0, sizeof(Corner)));
    HR(dev->SetStreamSource(1, per_instance, 0, sizeof(Instance)));
    HR(dev->SetIndices(ib));
    HR(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 3));
    HR(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | 1));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2));
    HR(dev->SetStreamSourceFreq(0, 1));
    HR(dev->SetStreamSourceFreq(1, 1));
    HR(dev->SetIndices(nullptr));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    HR(dev->SetStreamSource(1, nullptr, 0, 0));
    s.release(dev);
    CHECK(ib->Release() == 0);
    CHECK(per_instance->Release() == 0);
    CHECK(geometry->Release() == 0);
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kRed, kGreen, kBlue, kBlack);
}

TEST_CASE("scene: a whole-target Clear keeps the aspects it does not clear, first in a pass or within one", "[scene][render_state][stencil]") {
  for (bool new_passes : {true, false}) {
    auto images = render_all(new_passes ? "rs_clear_keeps_aspects_new_pass" : "rs_clear_keeps_aspects_mid_pass",
                             with_depth(), [&](IDirect3DDevice9 *dev) { clear_aspects_scene(dev, new_passes); }, 0);
    for (const auto &r : images) probe_quadrants(r, kRed, kBlack, kGreen, kBlue);
  }
}

TEST_CASE("scene: stencil DECRSAT, INVERT and DECR wrapping", "[scene][render_state][stencil]") {
  auto images = render_all("rs_stencil_decr_invert", with_depth(), [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, kBlack, 1.0f, 1));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    HR(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0)); // stencil only
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_DECRSAT));
    for (int i = 0; i < 2; ++i) rect(dev, 0, 0, 32, 32, 0.5f, kWhite); // 1 -> 0 -> 0
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_INVERT));
    rect(dev, 32, 0, 64, 32, 0.5f, kWhite); // 1 -> 0xfe
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_DECR));
    for (int i = 0; i < 2; ++i) rect(dev, 0, 32, 32, 64, 0.5f, kWhite); // 1 -> 0 -> 0xff
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0xf));
    HR(dev->SetRenderState(D3DRS_STENCILPASS, D3DSTENCILOP_KEEP));
    HR(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL));
    const std::pair<DWORD, D3DCOLOR> passes[] = {{0, kRed}, {0xfe, kGreen}, {0xff, kBlue}, {1, kYellow}};
    for (auto [ref, colour] : passes) {
      HR(dev->SetRenderState(D3DRS_STENCILREF, ref));
      full(dev, colour);
    }
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kRed, kGreen, kBlue, kYellow);
}

TEST_CASE("scene: instancing from two instance streams, and a non-indexed draw draws once", "[scene][render_state][instancing]") {
  auto images = render_all("rs_instancing_streams", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    struct Corner {
      float x, y, z, w;
    };
    struct Offset {
      float dx, dy;
    };
    const Corner quad[4] = {{-1, 1, 0.5f, 1}, {0, 1, 0.5f, 1}, {-1, 0, 0.5f, 1}, {0, 0, 0.5f, 1}};
    const uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
    // Streams 1 (colours) and 2 (offsets): two instances, top-left red and bottom-right green;
    // then four equal elements, read by the non-indexed draw.
    const D3DCOLOR colours[6] = {kRed, kGreen, kBlue, kBlue, kBlue, kBlue};
    const Offset offsets[6] = {{0, 0}, {1, -1}, {1, 0}, {1, 0}, {1, 0}, {1, 0}};
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {1, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        {2, 0, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        D3DDECL_END()};
    ShaderSet s(dev, "vs30_instance_offset", "ps30_pass_color", elements);
    IDirect3DVertexBuffer9 *vb[3] = {};
    const void *data[3] = {quad, colours, offsets};
    const UINT sizes[3] = {sizeof quad, sizeof colours, sizeof offsets};
    void *p = nullptr;
    for (int i = 0; i < 3; ++i) {
      HR(dev->CreateVertexBuffer(sizes[i], 0, 0, D3DPOOL_DEFAULT, &vb[i], nullptr));
      HR(vb[i]->Lock(0, 0, &p, 0));
      std::memcpy(p, data[i], sizes[i]);
      HR(vb[i]->Unlock());
    }
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateIndexBuffer(sizeof indices, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    HR(ib->Lock(0, 0, &p, 0));
    std::memcpy(p, indices, sizeof indices);
    HR(ib->Unlock());
    HR(dev->SetStreamSource(0, vb[0], 0, sizeof(Corner)));
    HR(dev->SetStreamSource(1, vb[1], 0, sizeof(D3DCOLOR)));
    HR(dev->SetStreamSource(2, vb[2], 0, sizeof(Offset)));
    HR(dev->SetIndices(ib));
    HR(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 2));
    HR(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | 1));
    HR(dev->SetStreamSourceFreq(2, D3DSTREAMSOURCE_INSTANCEDATA | 1));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2));
    // DrawPrimitive does not instance (D3D9 instances DrawIndexedPrimitive only): one quad.
    HR(dev->SetStreamSource(1, vb[1], 2 * sizeof(D3DCOLOR), sizeof(D3DCOLOR)));
    HR(dev->SetStreamSource(2, vb[2], 2 * sizeof(Offset), sizeof(Offset)));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    for (UINT i = 0; i < 3; ++i) {
      HR(dev->SetStreamSourceFreq(i, 1));
      HR(dev->SetStreamSource(i, nullptr, 0, 0));
    }
    HR(dev->SetIndices(nullptr));
    s.release(dev);
    CHECK(ib->Release() == 0);
    for (auto *b : vb) CHECK(b->Release() == 0);
  }, 0);
  for (const auto &r : images) probe_quadrants(r, kRed, kBlue, kBlack, kGreen);
}
