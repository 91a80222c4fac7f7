// 2D textures sampled by shaders, drawn on every backend: textures filled with LockRect, sampler
// states, and pixels probed against the texels D3D9 defines.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <functional>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct TexVertex {
  float x, y, z, w;
  float u, v, s, q;
};

const D3DVERTEXELEMENT9 kTexVertexElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

constexpr float kSize = 64.0f; // the target is 64 x 64

// A quad covering target pixels [px0, px1) x [py0, py1) (D3D9 pixel centres at integers), with
// texture coordinates (u0, v0) at its top left and (u1, v1) at its bottom right; `q` scales the
// coordinates and goes into w, for texldp.
void tex_quad(IDirect3DDevice9 *dev, float px0, float py0, float px1, float py1, float u0, float v0, float u1,
              float v1, float q = 1.0f) {
  auto cx = [](float px) { return px / kSize * 2.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / kSize * 2.0f; };
  TexVertex v[4] = {{cx(px0), cy(py0), 0.5f, 1, u0 * q, v0 * q, 0, q},
                    {cx(px1), cy(py0), 0.5f, 1, u1 * q, v0 * q, 0, q},
                    {cx(px0), cy(py1), 0.5f, 1, u0 * q, v1 * q, 0, q},
                    {cx(px1), cy(py1), 0.5f, 1, u1 * q, v1 * q, 0, q}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TexVertex)));
}

// Shaders (by name, "" for fixed function) bound with this file's vertex declaration.
struct Shaders : ShaderSet {
  Shaders(IDirect3DDevice9 *dev, const std::string &vs_name, const std::string &ps_name)
      : ShaderSet(dev, vs_name, ps_name, kTexVertexElements) {}
};

const char *kVS2 = "vs20_pass_texcoord_v1";

const char *kPS2 = "ps20_texld";

const char *kVS3 = "vs30_pass_texcoord";

const char *kPS3 = "ps30_texld";

// Level 0 texel (i, j) and level 1 texel (i, j) of the test textures.
D3DCOLOR texel0(UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i * 60 + 20) << 16 | (j * 60 + 20) << 8 | 0x10); }
D3DCOLOR texel1(UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i * 50 + 30) << 16 | 0x40u << 8 | (j * 50 + 30)); }

// Fills a level through LockRect, texel by texel.
void fill(IDirect3DTexture9 *tex, UINT level, const std::function<D3DCOLOR(UINT, UINT)> &texel) {
  D3DSURFACE_DESC d;
  HR(tex->GetLevelDesc(level, &d));
  D3DLOCKED_RECT lr;
  HR(tex->LockRect(level, &lr, nullptr, 0));
  for (UINT j = 0; j < d.Height; ++j)
    for (UINT i = 0; i < d.Width; ++i) {
      D3DCOLOR c = texel(i, j);
      std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
    }
  HR(tex->UnlockRect(level));
}

// Paints a rectangle of level 0 (nullptr: all of it) in one colour through LockRect with `flags`.
void paint(IDirect3DTexture9 *tex, const RECT *rect, DWORD flags, D3DCOLOR colour) {
  D3DSURFACE_DESC d;
  HR(tex->GetLevelDesc(0, &d));
  const RECT whole{0, 0, LONG(d.Width), LONG(d.Height)};
  const RECT &r = rect ? *rect : whole;
  D3DLOCKED_RECT lr;
  HR(tex->LockRect(0, &lr, rect, flags));
  for (LONG j = 0; j < r.bottom - r.top; ++j)
    for (LONG i = 0; i < r.right - r.left; ++i) std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * lr.Pitch + i * 4, &colour, 4);
  HR(tex->UnlockRect(0));
}

IDirect3DTexture9 *make_texture(IDirect3DDevice9 *dev, UINT size, UINT levels, D3DFORMAT format = D3DFMT_A8R8G8B8) {
  IDirect3DTexture9 *tex = nullptr;
  HR(dev->CreateTexture(size, size, levels, 0, format, D3DPOOL_MANAGED, &tex, nullptr));
  fill(tex, 0, texel0);
  if (levels > 1) fill(tex, 1, texel1);
  return tex;
}

// Probes the centre of each texel of a `texels` x `texels` grid drawn over [x0, x0 + size)².
void probe_grid(const Rendered &r, UINT x0, UINT y0, UINT size, UINT texels, const std::function<D3DCOLOR(UINT, UINT)> &texel) {
  const UINT step = size / texels;
  for (UINT j = 0; j < texels; ++j)
    for (UINT i = 0; i < texels; ++i) probe(r, x0 + i * step + step / 2, y0 + j * step + step / 2, texel(i, j), 0);
}

} // namespace

TEST_CASE("scene: ps_2_0 texld with point filtering reads exact texels", "[scene][texture]") {
  auto images = render_all("texture_ps2_point", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS2, kPS2);
    IDirect3DTexture9 *tex = make_texture(dev, 4, 1);
    HR(dev->SetTexture(0, tex));
    tex_quad(dev, 0, 0, 64, 64, 0, 0, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) probe_grid(r, 0, 0, 64, 4, texel0);
}

TEST_CASE("scene: ps_3_0 texld, texldp, and X8R8G8B8 alpha", "[scene][texture]") {
  auto images = render_all("texture_ps3_texldp", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    IDirect3DTexture9 *tex = make_texture(dev, 4, 1);
    HR(dev->SetTexture(0, tex));
    {
      Shaders s(dev, kVS3, kPS3);
      tex_quad(dev, 0, 0, 32, 32, 0, 0, 1, 1);
      s.release(dev);
    }
    {
      // texldp divides by w: coordinates scaled by 2 with w = 2 read the same texels.
      Shaders s(dev, kVS2, "ps20_texldp");
      tex_quad(dev, 32, 0, 64, 32, 0, 0, 1, 1, 2.0f);
      s.release(dev);
    }
    {
      // An X8R8G8B8 texture samples alpha as 1 whatever its X bytes hold; A8R8G8B8 keeps alpha.
      IDirect3DTexture9 *x8 = nullptr, *a8 = nullptr;
      HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_X8R8G8B8, D3DPOOL_MANAGED, &x8, nullptr));
      HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &a8, nullptr));
      fill(x8, 0, [](UINT, UINT) { return D3DCOLOR(0x00102030); });
      fill(a8, 0, [](UINT, UINT) { return D3DCOLOR(0x40102030); });
      Shaders s(dev, kVS3, "ps30_texld_alpha");
      HR(dev->SetTexture(0, x8));
      tex_quad(dev, 0, 32, 32, 64, 0, 0, 1, 1);
      HR(dev->SetTexture(0, a8));
      tex_quad(dev, 32, 32, 64, 64, 0, 0, 1, 1);
      s.release(dev);
      HR(dev->SetTexture(0, nullptr));
      CHECK(x8->Release() == 0);
      CHECK(a8->Release() == 0);
    }
    CHECK(tex->Release() == 0);
  }, 0);
  for (const auto &r : images) {
    probe_grid(r, 0, 0, 32, 4, texel0);
    probe_grid(r, 32, 0, 32, 4, texel0);
    probe(r, 16, 48, 0xffffffff, 0);
    probe(r, 48, 48, 0xff404040, 0);
  }
}

TEST_CASE("scene: texture address modes wrap, clamp, mirror and border", "[scene][texture]") {
  auto images = render_all("texture_address", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = make_texture(dev, 4, 1);
    HR(dev->SetTexture(0, tex));
    // Coordinates 0..2 over 32 pixels: 4 pixels per texel. WRAP is the default.
    tex_quad(dev, 0, 0, 32, 32, 0, 0, 2, 2);
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_CLAMP));
    tex_quad(dev, 32, 0, 64, 32, 0, 0, 2, 2);
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_MIRROR));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_MIRROR));
    tex_quad(dev, 0, 32, 32, 64, 0, 0, 2, 2);
    // Opaque white: a border colour every backend has exactly.
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_BORDER));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_BORDER));
    HR(dev->SetSamplerState(0, D3DSAMP_BORDERCOLOR, 0xffffffff));
    tex_quad(dev, 32, 32, 64, 64, 0, 0, 2, 2);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    probe_grid(r, 0, 0, 32, 8, [](UINT i, UINT j) { return texel0(i % 4, j % 4); });
    probe_grid(r, 32, 0, 32, 8, [](UINT i, UINT j) { return texel0(i < 3 ? i : 3, j < 3 ? j : 3); });
    probe_grid(r, 0, 32, 32, 8, [](UINT i, UINT j) { return texel0(i < 4 ? i : 7 - i, j < 4 ? j : 7 - j); });
    probe_grid(r, 32, 32, 32, 8, [](UINT i, UINT j) { return i < 4 && j < 4 ? texel0(i, j) : D3DCOLOR(0xffffffff); });
  }
}

TEST_CASE("scene: two mip levels: MIPFILTER POINT reads level 1 on a smaller quad", "[scene][texture]") {
  auto images = render_all("texture_mip_levels", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = make_texture(dev, 8, 2); // 8x8 and 4x4
    HR(dev->SetTexture(0, tex));
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
    // One texel per pixel: level 0 (8x8 pixels). Coordinates start half a texel in, so each pixel
    // centre falls on a texel centre.
    tex_quad(dev, 0, 0, 8, 8, 0.5f / 8, 0.5f / 8, 1 + 0.5f / 8, 1 + 0.5f / 8);
    // Two texels per pixel: level 1 (4x4 pixels).
    tex_quad(dev, 16, 0, 20, 4, 0.5f / 4, 0.5f / 4, 1 + 0.5f / 4, 1 + 0.5f / 4);
    // MIPFILTER NONE samples level 0 whatever the size.
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_NONE));
    tex_quad(dev, 32, 0, 36, 4, 0.5f / 4, 0.5f / 4, 1 + 0.5f / 4, 1 + 0.5f / 4);
    // Without a mip filter MAXMIPLEVEL is ignored: level 0 on a large quad (Wine's maxmip_test).
    HR(dev->SetSamplerState(0, D3DSAMP_MAXMIPLEVEL, 1));
    tex_quad(dev, 32, 32, 64, 64, 0, 0, 1, 1);
    // The texture's LOD still counts without one: level 1.
    REQUIRE(tex->SetLOD(1) == 0);
    tex_quad(dev, 48, 0, 64, 16, 0, 0, 1, 1);
    REQUIRE(tex->SetLOD(0) == 1);
    // With a mip filter, MAXMIPLEVEL 1 keeps to level 1 on a large quad.
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
    tex_quad(dev, 0, 32, 32, 64, 0, 0, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    for (UINT i = 0; i < 8; ++i) probe(r, i, i, texel0(i, i), 0);
    for (UINT i = 0; i < 4; ++i) probe(r, 16 + i, i, texel1(i, i), 0);
    // Level 0 at every other texel: pixel i reads u = (i + 0.5) / 4, texel 2i + 1 of 8.
    for (UINT i = 0; i < 4; ++i) probe(r, 32 + i, i, texel0(2 * i + 1, 2 * i + 1), 0);
    probe_grid(r, 0, 32, 32, 4, texel1);
    probe_grid(r, 32, 32, 32, 8, texel0);
    probe_grid(r, 48, 0, 16, 4, texel1);
  }
}

TEST_CASE("scene: MIPMAPLODBIAS moves the level MIPFILTER POINT picks", "[scene][texture]") {
  // One texel per pixel is level 0's size (lod 0): a bias of 1 reads level 1. Two texels per
  // pixel is level 1's (lod 1): a bias of -1 reads level 0. Without a mip filter the bias moves
  // nothing.
  auto bits = [](float f) { return std::bit_cast<DWORD>(f); };
  auto images = render_all("texture_lod_bias", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = make_texture(dev, 8, 2); // 8x8 and 4x4
    HR(dev->SetTexture(0, tex));
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
    HR(dev->SetSamplerState(0, D3DSAMP_MIPMAPLODBIAS, bits(1.0f)));
    tex_quad(dev, 0, 0, 8, 8, 0.5f / 8, 0.5f / 8, 1 + 0.5f / 8, 1 + 0.5f / 8);
    HR(dev->SetSamplerState(0, D3DSAMP_MIPMAPLODBIAS, bits(-1.0f)));
    tex_quad(dev, 16, 0, 20, 4, 0.5f / 4, 0.5f / 4, 1 + 0.5f / 4, 1 + 0.5f / 4);
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_NONE));
    HR(dev->SetSamplerState(0, D3DSAMP_MIPMAPLODBIAS, bits(1.0f)));
    tex_quad(dev, 32, 0, 40, 8, 0.5f / 8, 0.5f / 8, 1 + 0.5f / 8, 1 + 0.5f / 8);
    HR(dev->SetSamplerState(0, D3DSAMP_MIPMAPLODBIAS, 0));
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    // Level 1 at every other pixel: pixel i reads u = (i + 0.5) / 8, texel i / 2 of 4.
    for (UINT i = 0; i < 8; ++i) probe(r, i, i, texel1(i / 2, i / 2), 0);
    // Level 0 at every other texel: pixel i reads u = (i + 0.5) / 4, texel 2i + 1 of 8.
    for (UINT i = 0; i < 4; ++i) probe(r, 16 + i, i, texel0(2 * i + 1, 2 * i + 1), 0);
    for (UINT i = 0; i < 8; ++i) probe(r, 32 + i, i, texel0(i, i), 0);
  }
}

TEST_CASE("scene: a texture updated between two draws", "[scene][texture]") {
  auto images = render_all("texture_update", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(4, 4, 1, D3DUSAGE_DYNAMIC, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr));
    fill(tex, 0, texel0);
    HR(dev->SetTexture(0, tex));
    tex_quad(dev, 0, 0, 32, 64, 0, 0, 1, 1);
    // Only a rectangle changes; the draw before it keeps the old texels.
    const RECT r{1, 1, 3, 3};
    paint(tex, &r, 0, 0xffff0000);
    tex_quad(dev, 32, 0, 64, 64, 0, 0, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {// Texels are 8 x 16 pixels on each half.
                 {12, 24, texel0(1, 1), 0},
                 {20, 40, texel0(2, 2), 0},
                 {32 + 12, 24, 0xffff0000, 0},
                 {32 + 20, 40, 0xffff0000, 0},
                 {32 + 4, 8, texel0(0, 0), 0},
                 {32 + 28, 56, texel0(3, 3), 0}});
}

// Uploads into textures that no draw of the frame has sampled yet may run ahead of the frame's
// draws (the Vulkan plugin records them in an upload command buffer that runs first): they must
// still land in order, and a DISCARD of a texture drawn earlier in the frame must leave those
// draws their texels.
TEST_CASE("scene: texture uploads between draws, to a texture not drawn yet and with DISCARD", "[scene][texture]") {
  auto images = render_all("texture_upload_order", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *first = nullptr, *second = nullptr;
    HR(dev->CreateTexture(4, 4, 1, D3DUSAGE_DYNAMIC, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &first, nullptr));
    HR(dev->CreateTexture(4, 4, 1, D3DUSAGE_DYNAMIC, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &second, nullptr));
    fill(first, 0, texel0);
    HR(dev->SetTexture(0, first));
    tex_quad(dev, 0, 0, 16, 64, 0, 0, 1, 1);
    // Drawn already, and still bound: a DISCARD gives the next draw all-blue texels and the
    // first draw its own.
    paint(first, nullptr, D3DLOCK_DISCARD, 0xff0000ff);
    tex_quad(dev, 48, 0, 64, 64, 0, 0, 1, 1);
    // Not drawn yet: filled whole, then a rectangle of it turned red; the second write wins.
    fill(second, 0, texel0);
    const RECT r{1, 1, 3, 3};
    paint(second, &r, 0, 0xffff0000);
    HR(dev->SetTexture(0, second));
    tex_quad(dev, 16, 0, 48, 64, 0, 0, 1, 1);
    HR(dev->SetTexture(0, nullptr));
    CHECK(first->Release() == 0);
    CHECK(second->Release() == 0);
    s.release(dev);
  }, 0);
  probe(images, {// The first quad's texels are 4 x 16 pixels, the second's 8 x 16, the third's 4 x 16.
                 {2, 8, texel0(0, 0), 0},
                 {14, 56, texel0(3, 3), 0},
                 {16 + 4, 8, texel0(0, 0), 0},
                 {16 + 12, 24, 0xffff0000, 0},
                 {16 + 20, 40, 0xffff0000, 0},
                 {16 + 28, 56, texel0(3, 3), 0},
                 {50, 8, 0xff0000ff, 0},
                 {62, 56, 0xff0000ff, 0}});
}

TEST_CASE("scene: an unbound sampler reads (0, 0, 0, 1)", "[scene][texture]") {
  auto images = render_all("texture_unbound", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    Shaders s(dev, kVS3, "ps30_texld_add_c0");
    tex_quad(dev, 0, 0, 64, 64, 0, 0, 1, 1);
    s.release(dev);
  }, 1);
  for (const auto &r : images) probe(r, 32, 32, 0xff4080bf, 1);
}

TEST_CASE("scene: fixed function modulates the diffuse colour by texture stage 0", "[scene][texture][ff]") {
  struct V {
    float x, y, z, rhw;
    D3DCOLOR color;
    float u, v;
  };
  auto quad = [](IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR c) {
    V v[4] = {{x0, y0, 0.5f, 1, c, 0, 0}, {x1, y0, 0.5f, 1, c, 1, 0}, {x0, y1, 0.5f, 1, c, 0, 1}, {x1, y1, 0.5f, 1, c, 1, 1}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(V)));
  };
  auto images = render_all("texture_fixed_function", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    IDirect3DTexture9 *tex = make_texture(dev, 4, 1);
    HR(dev->SetTexture(0, tex));
    // Pre-transformed: pixel centres at integers, so pixel x samples u = x / 32 on a 32-pixel quad.
    quad(dev, 0, 0, 32, 32, 0xffffffff);
    quad(dev, 32, 0, 64, 32, 0xff80ff40);
    HR(dev->SetTexture(0, nullptr));
    quad(dev, 0, 32, 64, 64, 0xff3060a0); // no texture: the diffuse colour alone
    CHECK(tex->Release() == 0);
  }, 1);
  auto modulate = [](D3DCOLOR t, D3DCOLOR c) {
    auto ch = [&](int shift) { return ((t >> shift & 0xff) * (c >> shift & 0xff) + 127) / 255 << shift; };
    return D3DCOLOR(0xff000000u | ch(16) | ch(8) | ch(0));
  };
  for (const auto &r : images) {
    probe_grid(r, 0, 0, 32, 4, texel0);
    for (UINT j = 0; j < 4; ++j)
      for (UINT i = 0; i < 4; ++i) probe(r, 32 + i * 8 + 4, j * 8 + 4, modulate(texel0(i, j), 0xff80ff40), 1);
    probe(r, 16, 48, 0xff3060a0, 0);
  }
}

TEST_CASE("scene: a 1024x1024 texture uploads in several records", "[scene][texture]") {
  // 4 MiB of texels: more than one command record holds, so the upload is split.
  auto block = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i / 8 * 2) << 16 | (j / 8 * 2) << 8 | 0x55); };
  auto images = render_all("texture_large", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(1024, 1024, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    fill(tex, 0, block);
    HR(dev->SetTexture(0, tex));
    // Pixel x samples u = (x + 0.5) / 64: texel 16x + 8, the middle of block 2x + 1.
    const float half = 0.5f / 64;
    tex_quad(dev, 0, 0, 64, 64, half, half, 1 + half, 1 + half);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images)
    for (UINT y : {0u, 17u, 40u, 63u})
      for (UINT x : {0u, 5u, 33u, 63u}) probe(r, x, y, block(16 * x + 8, 16 * y + 8), 0);
}

// A texture whose level 0 is one-texel columns, alternately white and black, and whose smaller
// levels are grey: drawn 16 times denser along v than along u, isotropic filtering picks level 4
// (grey), anisotropic filtering with 16 samples stays on level 0 (the columns).
TEST_CASE("scene: D3DTEXF_ANISOTROPIC keeps the detail of a squeezed axis, up to MAXANISOTROPY", "[scene][texture]") {
  auto images = render_all("texture_anisotropic", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    D3DCAPS9 caps;
    HR(dev->GetDeviceCaps(&caps));
    REQUIRE(caps.MaxAnisotropy == 16); // lavapipe and llvmpipe filter with up to 16
    REQUIRE((caps.TextureFilterCaps & D3DPTFILTERCAPS_MINFANISOTROPIC) != 0);
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    Shaders s(dev, kVS3, kPS3);
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(64, 64, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    fill(tex, 0, [](UINT i, UINT) { return i % 2 ? 0xff000000u : 0xffffffffu; });
    for (UINT level = 1; level < tex->GetLevelCount(); ++level) fill(tex, level, [](UINT, UINT) { return 0xff808080u; });
    HR(dev->SetTexture(0, tex));
    for (D3DSAMPLERSTATETYPE state : {D3DSAMP_MINFILTER, D3DSAMP_MAGFILTER, D3DSAMP_MIPFILTER}) HR(dev->SetSamplerState(0, state, D3DTEXF_LINEAR));
    // Each band: 64 x 16 pixels over u in one texture width (a texel per pixel, centres on
    // centres) and v in four heights (16 texels per pixel).
    auto band = [&](UINT row) { tex_quad(dev, 0, float(16 * row), 64, float(16 * row + 16), 0.5f / 64, 0, 1 + 0.5f / 64, 4); };
    HR(dev->SetSamplerState(0, D3DSAMP_MAXANISOTROPY, 16));
    band(0); // LINEAR: MAXANISOTROPY alone changes nothing
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_ANISOTROPIC));
    HR(dev->SetSamplerState(0, D3DSAMP_MAXANISOTROPY, 1));
    band(1); // ANISOTROPIC with one sample: as LINEAR
    HR(dev->SetSamplerState(0, D3DSAMP_MAXANISOTROPY, 16));
    band(2);
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_ANISOTROPIC));
    band(3); // ANISOTROPIC as MAGFILTER turns the sampler's anisotropy on too
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 2);
  // How sharp anisotropic filtering keeps the columns is the driver's (llvmpipe blends in some
  // of level 1: 155 and 100); isotropic filtering leaves none of them.
  for (const auto &r : images) {
    for (UINT x : {10u, 30u}) {
      probe(r, x, 8, 0x808080, 2);
      probe(r, x + 1, 8, 0x808080, 2);
      probe(r, x, 24, 0x808080, 2);
      probe(r, x + 1, 24, 0x808080, 2);
      for (UINT y : {40u, 56u}) {
        const int white = r.image.at(x, y)[0], black = r.image.at(x + 1, y)[0];
        INFO(r.backend << " columns " << x << " and " << x + 1 << " at row " << y << ": " << white << ", " << black);
        CHECK(white - 128 >= 20);
        CHECK(128 - black >= 20);
      }
    }
  }
}
