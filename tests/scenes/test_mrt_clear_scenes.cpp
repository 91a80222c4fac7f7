// Multiple render targets on every backend: a target the pixel stage does not write keeps its
// texels, whatever COLORWRITEENABLE1..3 say (the pixel shader's outputs are part of the write
// mask: Vulkan and GL leave an unwritten output undefined), COLORWRITEENABLE1 masking what it
// does write, and Clear over targets of different sizes clears each to its own size when it
// covers the whole of target 0, as Windows does (Wine's test_clear_different_size_surfaces); a viewport or rectangles narrower than target 0
// clear the same rectangle of every target.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kGrey = 0xff404040;

// Pixel (x, y) of a render target, read back through a system-memory surface (X8R8G8B8 or
// A8R8G8B8), alpha dropped.
D3DCOLOR read_pixel(IDirect3DDevice9 *dev, IDirect3DSurface9 *rt, UINT x, UINT y) {
  D3DSURFACE_DESC desc;
  HR(rt->GetDesc(&desc));
  IDirect3DSurface9 *mem = nullptr;
  HR(dev->CreateOffscreenPlainSurface(desc.Width, desc.Height, desc.Format, D3DPOOL_SYSTEMMEM, &mem, nullptr));
  HR(dev->GetRenderTargetData(rt, mem));
  D3DLOCKED_RECT lr;
  HR(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY));
  const D3DCOLOR c = static_cast<const DWORD *>(lr.pBits)[size_t(y) * (UINT(lr.Pitch) / 4) + x] | 0xff000000u;
  HR(mem->UnlockRect());
  CHECK(mem->Release() == 0);
  return c;
}

struct MaskCase {
  const char *name;
  const char *vs, *ps; // "" for fixed function
  D3DCOLOR written[4]; // what each target holds after the draw
  DWORD write_enable1 = 0xf; // D3DRS_COLORWRITEENABLE1
};

} // namespace

TEST_CASE("A render target the pixel stage does not write keeps its texels", "[scenes][mrt]") {
  const D3DCOLOR white = 0xffffffff, red = 0xffff0000, green = 0xff00ff00, blue = 0xff0000ff, yellow = 0xffffff00;
  const MaskCase cases[] = {
      {"fixed function", "", "", {white, kGrey, kGrey, kGrey}},
      {"ps_1_1 (r0 only)", "vs20_color_from_v1", "ps11_pass_color", {white, kGrey, kGrey, kGrey}},
      {"ps_2_0 writing oC0", "vs20_color_from_v1", "ps20_pass_color", {white, kGrey, kGrey, kGrey}},
      {"ps_2_0 writing oC0 and oC2", "vs20_color_from_v1", "ps20_oc0_oc2", {red, kGrey, blue, kGrey}},
      {"ps_2_0 writing oC0 to oC3", "vs20_color_from_v1", "ps20_mrt", {red, green, blue, yellow}},
      {"ps_2_0 writing oC0 to oC3, COLORWRITEENABLE1 0", "vs20_color_from_v1", "ps20_mrt", {red, kGrey, blue, yellow}, 0},
      {"ps_2_0 writing oC0 to oC3, COLORWRITEENABLE1 red and blue", "vs20_color_from_v1", "ps20_mrt",
       {red, 0xff004000, blue, yellow}, D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_BLUE},
  };
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
      D3DDECL_END()};
  for (const MaskCase &c : cases)
    for (const std::string &backend : available_backends()) {
      INFO(backend << ": " << c.name);
      D3DCOLOR got[4] = {};
      render(backend, SceneSetup{32, 32}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *rt[4] = {};
        HR(dev->GetRenderTarget(0, &rt[0]));
        for (DWORD i = 1; i < 4; ++i) {
          HR(dev->CreateRenderTarget(32, 32, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt[i], nullptr));
          HR(dev->SetRenderTarget(i, rt[i]));
        }
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kGrey, 1.0f, 0));
        HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
        HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE1, c.write_enable1));
        std::optional<ShaderSet> shaders;
        if (*c.ps) shaders.emplace(dev, c.vs, c.ps, elements);
        else HR(dev->SetFVF(kColorVertexFVF));
        const ColorVertex quad[4] = {{-1, 1, 0.5f, white}, {1, 1, 0.5f, white}, {-1, -1, 0.5f, white}, {1, -1, 0.5f, white}};
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof quad[0]));
        if (shaders) shaders->release(dev);
        for (DWORD i = 1; i < 4; ++i) HR(dev->SetRenderTarget(i, nullptr));
        for (DWORD i = 0; i < 4; ++i) got[i] = read_pixel(dev, rt[i], 16, 16);
        rt[0]->Release();
        for (DWORD i = 1; i < 4; ++i) CHECK(rt[i]->Release() == 0);
      });
      for (int i = 0; i < 4; ++i) {
        INFO("target " << i);
        CHECK(got[i] == c.written[i]);
      }
    }
}

TEST_CASE("Clear over targets of different sizes clears each to its own size", "[scenes][mrt]") {
  const D3DCOLOR red = 0xffff0000, blue = 0xff0000ff, green = 0xff00ff00;
  struct ClearCase {
    const char *name;
    D3DVIEWPORT9 viewport; // after binding the 16 x 16 target 0
    bool rect;             // Clear with one rectangle, (0, 0)-(8, 8)
    bool whole;            // target 1 and the depth buffer cleared beyond target 0's size
  };
  const ClearCase cases[] = {
      {"whole viewport", {0, 0, 16, 16, 0, 1}, false, true},
      {"viewport larger than target 0", {0, 0, 48, 48, 0, 1}, false, true},
      {"smaller viewport", {0, 0, 8, 8, 0, 1}, false, false},
      {"a rectangle", {0, 0, 16, 16, 0, 1}, true, false},
  };
  for (const ClearCase &c : cases)
    for (const std::string &backend : available_backends()) {
      INFO(backend << ": " << c.name);
      D3DCOLOR target1_inside = 0, target1_beyond = 0, depth_beyond = 0;
      SceneSetup setup;
      setup.depth = D3DFMT_D24S8;
      render(backend, setup, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *back = nullptr, *small = nullptr, *large = nullptr;
        HR(dev->GetRenderTarget(0, &back));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, blue, 1.0f, 0));
        HR(dev->CreateRenderTarget(16, 16, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &small, nullptr));
        HR(dev->CreateRenderTarget(32, 32, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &large, nullptr));
        HR(dev->ColorFill(large, nullptr, blue));
        HR(dev->SetRenderTarget(0, small));
        HR(dev->SetRenderTarget(1, large));
        HR(dev->SetViewport(&c.viewport));
        const D3DRECT r{0, 0, 8, 8};
        HR(dev->Clear(c.rect ? 1 : 0, c.rect ? &r : nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, red, 0.5f, 0));
        HR(dev->SetRenderTarget(1, nullptr));
        HR(dev->SetRenderTarget(0, back));
        target1_inside = read_pixel(dev, large, 4, 4);
        target1_beyond = read_pixel(dev, large, 24, 24);
        // The depth at (40, 40): a quad at 0.75 passes GREATER only where the clear left 0.5.
        HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
        HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_GREATER));
        const TLVertex quad[4] = {{-0.5f, -0.5f, 0.75f, 1, green}, {63.5f, -0.5f, 0.75f, 1, green},
                                  {-0.5f, 63.5f, 0.75f, 1, green}, {63.5f, 63.5f, 0.75f, 1, green}};
        HR(dev->SetFVF(kTLVertexFVF));
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof quad[0]));
        depth_beyond = read_pixel(dev, back, 40, 40);
        back->Release();
        CHECK(small->Release() == 0);
        CHECK(large->Release() == 0);
      });
      CHECK(target1_inside == red);
      CHECK(target1_beyond == (c.whole ? red : blue));
      CHECK(depth_beyond == (c.whole ? green : blue));
    }
}

// D3D9 requires every render target to have target 0's multisample type; a target that has
// another is left out of draws and clears (as a depth-stencil surface of another is), so it keeps
// its texels, and nothing invalid reaches the plugin.
TEST_CASE("A render target of another sample count than target 0 is left out of draws and clears", "[scenes][mrt]") {
  const D3DCOLOR red = 0xffff0000, blue = 0xff0000ff;
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
      D3DDECL_END()};
  for (const bool multisampled_first : {false, true})
    for (const std::string &backend : available_backends()) {
      INFO(backend << (multisampled_first ? ": multisampled target 0" : ": multisampled target 1"));
      D3DCOLOR got[2] = {};
      render(backend, SceneSetup{32, 32}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *single = nullptr, *multi = nullptr, *resolved = nullptr;
        HR(dev->CreateRenderTarget(32, 32, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &single, nullptr));
        HR(dev->CreateRenderTarget(32, 32, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &multi, nullptr));
        HR(dev->CreateRenderTarget(32, 32, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
        HR(dev->ColorFill(single, nullptr, kGrey));
        HR(dev->ColorFill(multi, nullptr, kGrey));
        IDirect3DSurface9 *const first = multisampled_first ? multi : single, *const second = multisampled_first ? single : multi;
        HR(dev->SetRenderTarget(0, first));
        HR(dev->SetRenderTarget(1, second));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, blue, 1.0f, 0));
        HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
        ShaderSet shaders(dev, "vs20_color_from_v1", "ps20_mrt", elements);
        const ColorVertex quad[4] = {{-1, 1, 0.5f, red}, {0, 1, 0.5f, red}, {-1, -1, 0.5f, red}, {0, -1, 0.5f, red}};
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof quad[0]));
        shaders.release(dev);
        HR(dev->SetRenderTarget(1, nullptr));
        HR(dev->StretchRect(multi, nullptr, resolved, nullptr, D3DTEXF_NONE));
        IDirect3DSurface9 *const drawn = multisampled_first ? resolved : single, *const left = multisampled_first ? single : resolved;
        got[0] = read_pixel(dev, drawn, 8, 16);   // under the quad
        got[1] = read_pixel(dev, left, 8, 16);
        CHECK(read_pixel(dev, drawn, 24, 16) == blue); // cleared, beside the quad
        IDirect3DSurface9 *back = nullptr;
        HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
        HR(dev->SetRenderTarget(0, back));
        back->Release();
        for (IDirect3DSurface9 *s : {single, multi, resolved}) CHECK(s->Release() == 0);
      });
      CHECK(got[0] == red);
      CHECK(got[1] == kGrey);
    }
}
