// Depth textures and sRGB on every backend, probed against what D3D9 defines: a shadow map
// (D16, D24X8, D24S8) sampled by texld/texldp returns the depth comparison (1 lit, 0 shadowed,
// PCF-filtered with LINEAR), INTZ the depth value; SRGBWRITEENABLE encodes (linear 0.5 is
// written as 188) after blending in linear space, SRGBTEXTURE decodes (188 reads 0.5).
#include <catch2/catch.hpp>

#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DFORMAT kINTZ = D3DFORMAT(MAKEFOURCC('I', 'N', 'T', 'Z'));

struct ClipVertex {
  float x, y, z, w;     // clip space (vs20_pass_texcoord_v1 passes it through)
  float u, v, r, q;     // texcoord 0: (u, v) the map position, r the depth reference, q the projection
};

constexpr D3DVERTEXELEMENT9 kClipElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// A quad over clip x in [x0, x1], y in [y1, y0] (y up) at depth z; its texcoords run u0..u1
// left to right and v0..v1 top to bottom, all four components multiplied by q (what texldp divides
// back out), with the reference r.
void clip_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, float u0, float v0, float u1,
               float v1, float r, float q) {
  const ClipVertex v[4] = {{x0, y0, z, 1, u0 * q, v0 * q, r * q, q}, {x1, y0, z, 1, u1 * q, v0 * q, r * q, q},
                           {x0, y1, z, 1, u0 * q, v1 * q, r * q, q}, {x1, y1, z, 1, u1 * q, v1 * q, r * q, q}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(ClipVertex)));
}

// Renders depth 0.5 into the left half of a 64 x 64 depth texture whose right half stays 1.0,
// then binds the back buffer again with no depth-stencil surface.
void render_shadow_map(IDirect3DDevice9 *dev, IDirect3DTexture9 *map, ShaderSet &shaders) {
  IDirect3DSurface9 *back = nullptr, *level = nullptr;
  HR(dev->GetRenderTarget(0, &back));
  HR(map->GetSurfaceLevel(0, &level));
  HR(dev->SetDepthStencilSurface(level));
  HR(dev->Clear(0, nullptr, D3DCLEAR_ZBUFFER, 0, 1.0f, 0));
  HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
  HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, TRUE));
  HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));
  HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0));
  HR(dev->SetVertexDeclaration(shaders.decl));
  HR(dev->SetVertexShader(shaders.vs));
  HR(dev->SetPixelShader(shaders.ps));
  clip_quad(dev, -1, 1, 0, -1, 0.5f, 0, 0, 1, 1, 0, 1);
  HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE, 0xF));
  HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
  HR(dev->SetDepthStencilSurface(nullptr));
  HR(dev->SetRenderTarget(0, back));
  level->Release();
  back->Release();
}

void shadow_scene(D3DFORMAT format) {
  const std::string name = format == D3DFMT_D16 ? "d16" : format == D3DFMT_D24X8 ? "d24x8" : "d24s8";
  auto rendered = render_all("shadow_map_" + name, SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DTexture9 *map = nullptr;
    HR(dev->CreateTexture(64, 64, 1, D3DUSAGE_DEPTHSTENCIL, format, D3DPOOL_DEFAULT, &map, nullptr));
    ShaderSet texld(dev, "vs20_pass_texcoord_v1", "ps20_texld", kClipElements);
    ShaderSet texldp(dev, "vs20_pass_texcoord_v1", "ps20_texldp", kClipElements);
    render_shadow_map(dev, map, texld);
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0));
    HR(dev->SetTexture(0, map));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_CLAMP));
    // Rows 0..31: texld, reference 0.7, LINEAR. Pixel x samples u = x / 64, the corner between
    // texels x - 1 and x: left of column 32 both are 0.5 (0.7 > 0.5: shadowed, 0), right of it
    // both 1.0 (lit, 1), and column 32 averages one of each (PCF: 0.5).
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR));
    clip_quad(dev, -1, 1, 1, 0, 0, 0, 0, 1, 0.5f, 0.7f, 1);
    // Rows 32..47: texldp, POINT, at texel centres, everything multiplied by q = 2: (u, v) and the
    // reference are divided by it, so the left half is shadowed (0.7) and the right half lit.
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
    HR(dev->SetVertexShader(texldp.vs));
    HR(dev->SetPixelShader(texldp.ps));
    const float half = 0.5f / 64;
    clip_quad(dev, -1, 0, 1, -0.5f, 0, half, 0.5f + half, 1 + half, 0.75f + half, 0.7f, 2);
    // Rows 48..63: texldp with reference 0.3 (0.6 / 2): lit everywhere (0.3 <= 0.5).
    clip_quad(dev, -1, -0.5f, 1, -1, 0, half, 0.75f + half, 1 + half, 1 + half, 0.3f, 2);
    // A texld with reference 1.2 is clamped to 1.0 (fixed-point depth): lit where 1.0 is stored.
    // Drawn over rows 0..7 of the (shadowed) left half, reading the map's right half.
    HR(dev->SetVertexShader(texld.vs));
    HR(dev->SetPixelShader(texld.ps));
    clip_quad(dev, -1, 1, 0, 0.75f, 0, 0.5f + half, half, 1 + half, 0.125f + half, 1.2f, 1);
    HR(dev->SetTexture(0, nullptr));
    texld.release(dev);
    texldp.release(dev);
    CHECK(map->Release() == 0);
  }, 2);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend << ", format " << name);
    probe(r, 4, 12, 0xff000000, 0);
    probe(r, 30, 20, 0xff000000, 0);
    probe(r, 10, 4, 0xffffffff, 0); // the clamped reference
    probe(r, 32, 10, 0xff808080, 4); // PCF: half of the four texels pass
    probe(r, 34, 20, 0xffffffff, 0);
    probe(r, 60, 4, 0xffffffff, 0);
    probe(r, 10, 40, 0xff000000, 0);
    probe(r, 24, 40, 0xff000000, 0); // (u, v) divided by q: still the left half
    probe(r, 40, 40, 0xffffffff, 0);
    probe(r, 10, 52, 0xffffffff, 0); // the reference divided by q
    probe(r, 50, 52, 0xffffffff, 0);
  }
}

} // namespace

TEST_CASE("Depth textures sample the depth comparison (hardware shadow maps)", "[scenes][depth_srgb]") {
  for (D3DFORMAT f : {D3DFMT_D24S8, D3DFMT_D16, D3DFMT_D24X8}) shadow_scene(f);
}

TEST_CASE("A fixed-function stage samples a depth texture with the depth comparison", "[scenes][depth_srgb]") {
  // As NVIDIA's and AMD's drivers: the stage's texture coordinate z is the reference.
  struct TLTex {
    float x, y, z, rhw;
    float u, v, r;
  };
  auto rendered = render_all("shadow_map_ff", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DTexture9 *map = nullptr;
    HR(dev->CreateTexture(64, 64, 1, D3DUSAGE_DEPTHSTENCIL, D3DFMT_D24S8, D3DPOOL_DEFAULT, &map, nullptr));
    ShaderSet texld(dev, "vs20_pass_texcoord_v1", "ps20_texld", kClipElements);
    render_shadow_map(dev, map, texld);
    texld.release(dev);
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0));
    HR(dev->SetVertexShader(nullptr));
    HR(dev->SetPixelShader(nullptr));
    HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0)));
    HR(dev->SetTexture(0, map));
    HR(dev->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1));
    HR(dev->SetTextureStageState(0, D3DTSS_COLORARG1, D3DTA_TEXTURE));
    HR(dev->SetTextureStageState(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1));
    HR(dev->SetTextureStageState(0, D3DTSS_ALPHAARG1, D3DTA_TEXTURE));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP));
    HR(dev->SetSamplerState(0, D3DSAMP_ADDRESSV, D3DTADDRESS_CLAMP));
    HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_LINEAR));
    HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR));
    // Rows 0..31, reference 0.7: pixel x samples u = x / 64 (D3D9's pixel centres), so the left
    // half is shadowed (0.7 > 0.5), the right half lit, column 32 half of each (PCF).
    const TLTex top[4] = {{0, 0, 0, 1, 0, 0, 0.7f}, {64, 0, 0, 1, 1, 0, 0.7f}, {0, 32, 0, 1, 0, 0.5f, 0.7f},
                          {64, 32, 0, 1, 1, 0.5f, 0.7f}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, top, sizeof(TLTex)));
    // Rows 32..63, reference 0.3: lit everywhere (0.3 <= 0.5).
    const TLTex bottom[4] = {{0, 32, 0, 1, 0, 0.5f, 0.3f}, {64, 32, 0, 1, 1, 0.5f, 0.3f}, {0, 64, 0, 1, 0, 1, 0.3f},
                             {64, 64, 0, 1, 1, 1, 0.3f}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, bottom, sizeof(TLTex)));
    HR(dev->SetTexture(0, nullptr));
    CHECK(map->Release() == 0);
  }, 2);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 4, 12, 0xff000000, 0);
    probe(r, 30, 20, 0xff000000, 0);
    probe(r, 32, 10, 0xff808080, 4);
    probe(r, 34, 20, 0xffffffff, 0);
    probe(r, 10, 40, 0xffffffff, 0);
    probe(r, 50, 52, 0xffffffff, 0);
  }
}

TEST_CASE("INTZ depth textures sample the depth value", "[scenes][depth_srgb]") {
  auto rendered = render_all("intz", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DTexture9 *map = nullptr;
    HR(dev->CreateTexture(64, 64, 1, D3DUSAGE_DEPTHSTENCIL, kINTZ, D3DPOOL_DEFAULT, &map, nullptr));
    ShaderSet texld(dev, "vs20_pass_texcoord_v1", "ps20_texld", kClipElements);
    render_shadow_map(dev, map, texld);
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0));
    HR(dev->SetTexture(0, map));
    const float half = 0.5f / 64;
    clip_quad(dev, -1, 1, 1, -1, 0, half, half, 1 + half, 1 + half, 0.7f, 1);
    HR(dev->SetTexture(0, nullptr));
    texld.release(dev);
    CHECK(map->Release() == 0);
  }, 2);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 10, 10, 0xff808080, 2); // depth 0.5 in every channel
    probe(r, 50, 50, 0xffffffff, 0); // depth 1.0
  }
}

// The soft-particle pattern: an INTZ texture stays the depth-stencil surface, with depth writes
// off, while the draws that it depth-tests also sample it (what INTZ is used for; D3D9 drivers
// allow it while nothing writes depth).
TEST_CASE("An INTZ texture is sampled while it is the depth-stencil surface, depth writes off", "[scenes][depth_srgb]") {
  auto rendered = render_all("intz_bound", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DTexture9 *map = nullptr;
    IDirect3DSurface9 *level = nullptr;
    HR(dev->CreateTexture(64, 64, 1, D3DUSAGE_DEPTHSTENCIL, kINTZ, D3DPOOL_DEFAULT, &map, nullptr));
    HR(map->GetSurfaceLevel(0, &level));
    ShaderSet texld(dev, "vs20_pass_texcoord_v1", "ps20_texld", kClipElements);
    render_shadow_map(dev, map, texld); // depth 0.5 on the left, 1.0 on the right
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0));
    HR(dev->SetDepthStencilSurface(level));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));
    HR(dev->SetTexture(0, map));
    const float half = 0.5f / 64;
    // Rows 0..31 at depth 0.25 pass everywhere and show the stored depth.
    clip_quad(dev, -1, 1, 1, 0, 0.25f, half, half, 1 + half, 0.5f + half, 0.7f, 1);
    // Rows 32..63 at depth 0.75 pass only where 1.0 is stored, and show one left texel (0.5).
    clip_quad(dev, -1, 0, 1, -1, 0.75f, half, half, half, half, 0.7f, 1);
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetDepthStencilSurface(nullptr));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    texld.release(dev);
    level->Release();
    CHECK(map->Release() == 0);
  }, 2);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 10, 10, 0xff808080, 2); // depth 0.5
    probe(r, 50, 10, 0xffffffff, 0); // depth 1.0
    probe(r, 10, 50, 0xff0000ff, 0); // failed the depth test
    probe(r, 50, 50, 0xff808080, 2); // passed, the left texel
  }
}

TEST_CASE("SRGBWRITEENABLE encodes what draws write, after blending in linear space", "[scenes][depth_srgb]") {
  auto rendered = render_all("srgb_write", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    auto quad = [&](float x0, float x1, D3DCOLOR c) {
      TLVertex v[4] = {{x0, 0, 0, 1, c}, {x1, 0, 0, 1, c}, {x0, 64, 0, 1, c}, {x1, 64, 0, 1, c}};
      HR(dev->SetFVF(kTLVertexFVF));
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
    };
    quad(0, 16, 0xff808080); // written as it is: 128
    HR(dev->SetRenderState(D3DRS_SRGBWRITEENABLE, TRUE));
    quad(16, 32, 0xff808080); // linear 0.502 written as sRGB 188
    // 0.25 added to 0.25: the sum (0.5) is encoded, 188, as D3D10-class hardware blends; blending
    // the encoded texel (137) would give 0.79.
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    quad(32, 48, 0xff404040);
    quad(32, 48, 0xff404040);
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_SRGBWRITEENABLE, FALSE));
    quad(48, 64, 0xff404040); // off again: 64
  }, 1);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 8, 32, 0xff808080, 0);
    probe(r, 24, 32, 0xffbcbcbc, 1);
    probe(r, 40, 32, 0xffbcbcbc, 2);
    probe(r, 56, 32, 0xff404040, 0);
  }
}

TEST_CASE("SRGBTEXTURE decodes what textures read", "[scenes][depth_srgb]") {
  auto rendered = render_all("srgb_read", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    D3DLOCKED_RECT locked{};
    HR(tex->LockRect(0, &locked, nullptr, 0));
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x)
        reinterpret_cast<DWORD *>(static_cast<BYTE *>(locked.pBits) + y * locked.Pitch)[x] = 0xffbcbcbc;
    HR(tex->UnlockRect(0));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    HR(dev->SetTexture(0, tex));
    struct V {
      float x, y, z, rhw, u, v;
    };
    auto quad = [&](float x0, float x1) {
      V v[4] = {{x0, 0, 0, 1, 0, 0}, {x1, 0, 0, 1, 1, 0}, {x0, 64, 0, 1, 0, 1}, {x1, 64, 0, 1, 1, 1}};
      HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_TEX1));
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(V)));
    };
    // The fixed-function stage 0 (MODULATE of the texture and diffuse white: the texel).
    quad(0, 32);                                            // as stored: 188
    HR(dev->SetSamplerState(0, D3DSAMP_SRGBTEXTURE, TRUE)); // decoded: 0.503, written 128
    quad(32, 48);
    // DXT1 decodes too: one block of colour 0 = RGB565 (23, 47, 23), which reads (189, 190, 189)
    // and decodes to (0.509, 0.515, 0.509).
    IDirect3DTexture9 *dxt = nullptr;
    HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &dxt, nullptr));
    HR(dxt->LockRect(0, &locked, nullptr, 0));
    const BYTE block[8] = {0xF7, 0xBD, 0xF7, 0xBD, 0, 0, 0, 0};
    std::memcpy(locked.pBits, block, sizeof block);
    HR(dxt->UnlockRect(0));
    HR(dev->SetTexture(0, dxt));
    quad(48, 64);
    HR(dev->SetTexture(0, nullptr));
    CHECK(dxt->Release() == 0);
    CHECK(tex->Release() == 0);
  }, 1);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 16, 32, 0xffbcbcbc, 0);
    probe(r, 40, 32, 0xff808080, 1);
    probe(r, 56, 32, 0xff828382, 2);
  }
}
