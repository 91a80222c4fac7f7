// Cube and volume textures, and UpdateTexture, sampled by ps_2_0 shaders on every backend: texels written through
// LockRect / LockBox (and a cube face's surface), pixels probed against the texel D3D9's face
// selection and coordinates pick.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct DirVertex {
  float x, y, z, w;
  float u, v, s;
};

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// A quad over the 8 x 8 cell n of the 64 x 64 target (8 cells a row), every vertex with the same
// texture coordinate (u, v, s).
void cell(IDirect3DDevice9 *dev, UINT n, float u, float v, float s) {
  const float x0 = float(n % 8) * 8, y0 = float(n / 8) * 8;
  auto cx = [](float px) { return px / 32.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 32.0f; };
  DirVertex q[4] = {{cx(x0), cy(y0), 0.5f, 1, u, v, s},
                    {cx(x0 + 8), cy(y0), 0.5f, 1, u, v, s},
                    {cx(x0), cy(y0 + 8), 0.5f, 1, u, v, s},
                    {cx(x0 + 8), cy(y0 + 8), 0.5f, 1, u, v, s}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, q, sizeof(DirVertex)));
}

void probe_cell(const Rendered &r, UINT n, D3DCOLOR expected) { probe(r, (n % 8) * 8 + 4, (n / 8) * 8 + 4, expected, 0); }

D3DCOLOR face_texel(UINT face, UINT i, UINT j) {
  return D3DCOLOR(0xff000000u | (40 * face + 20) << 16 | (100 * i + 50) << 8 | (100 * j + 50));
}

// The direction that reaches texel (i, j) of a 2 x 2 face: D3D9's cube-map table (sc, tc on the
// face, ma the major axis), with sc, tc = ±0.5 at the texel centres.
void direction(UINT face, UINT i, UINT j, float d[3]) {
  cube_direction(face, i ? 0.5f : -0.5f, j ? 0.5f : -0.5f, d);
}

} // namespace

TEST_CASE("scene: cube texture faces sampled by direction", "[scene][texture][cube]") {
  auto images = render_all("cube_faces", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    IDirect3DCubeTexture9 *cube = nullptr;
    HR(dev->CreateCubeTexture(2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr));
    for (UINT f = 0; f < 6; ++f) {
      D3DLOCKED_RECT lr;
      if (f == D3DCUBEMAP_FACE_NEGATIVE_Y) {
        // One face through its surface: the same level of the same face.
        IDirect3DSurface9 *s = nullptr;
        HR(cube->GetCubeMapSurface(D3DCUBEMAP_FACES(f), 0, &s));
        HR(s->LockRect(&lr, nullptr, 0));
        for (UINT j = 0; j < 2; ++j)
          for (UINT i = 0; i < 2; ++i) {
            const D3DCOLOR c = face_texel(f, i, j);
            std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
          }
        HR(s->UnlockRect());
        CHECK(s->Release() == 1); // counts on the cube texture
        continue;
      }
      HR(cube->LockRect(D3DCUBEMAP_FACES(f), 0, &lr, nullptr, 0));
      for (UINT j = 0; j < 2; ++j)
        for (UINT i = 0; i < 2; ++i) {
          const D3DCOLOR c = face_texel(f, i, j);
          std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
        }
      HR(cube->UnlockRect(D3DCUBEMAP_FACES(f), 0));
    }
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_cube", kElements);
    HR(dev->SetTexture(0, cube));
    for (UINT f = 0; f < 6; ++f)
      for (UINT t = 0; t < 4; ++t) {
        float d[3];
        direction(f, t % 2, t / 2, d);
        cell(dev, f * 4 + t, d[0], d[1], d[2]);
      }
    // A 2D texture where the shader declares a cube reads as D3D9's missing texture: (0, 0, 0, 1).
    IDirect3DTexture9 *flat = nullptr;
    HR(dev->CreateTexture(1, 1, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &flat, nullptr));
    HR(dev->SetTexture(0, flat));
    cell(dev, 24, 1, 0, 0);
    HR(dev->SetTexture(0, nullptr));
    CHECK(flat->Release() == 0);
    CHECK(cube->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    for (UINT f = 0; f < 6; ++f)
      for (UINT t = 0; t < 4; ++t) probe_cell(r, f * 4 + t, face_texel(f, t % 2, t / 2));
    probe_cell(r, 24, 0xff000000);
    probe_cell(r, 25, 0xffffffff); // untouched
  }
}

namespace {

D3DCOLOR volume_texel(UINT i, UINT j, UINT k) {
  return D3DCOLOR(0xff000000u | (100 * i + 30) << 16 | (100 * j + 40) << 8 | (100 * k + 50));
}

void write_slice(const D3DLOCKED_BOX &lb, UINT k) {
  for (UINT j = 0; j < 2; ++j)
    for (UINT i = 0; i < 2; ++i) {
      const D3DCOLOR c = volume_texel(i, j, k);
      std::memcpy(static_cast<uint8_t *>(lb.pBits) + j * UINT(lb.RowPitch) + i * 4, &c, 4);
    }
}

} // namespace

TEST_CASE("scene: volume texture texels sampled by (u, v, w)", "[scene][texture][volume]") {
  auto images = render_all("volume_texels", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    IDirect3DVolumeTexture9 *tex = nullptr;
    HR(dev->CreateVolumeTexture(2, 2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    // Slice 0 through the texture's LockBox, slice 1 through the level's volume.
    D3DLOCKED_BOX lb;
    const D3DBOX front{0, 0, 2, 2, 0, 1};
    HR(tex->LockBox(0, &lb, &front, 0));
    write_slice(lb, 0);
    HR(tex->UnlockBox(0));
    IDirect3DVolume9 *level = nullptr;
    HR(tex->GetVolumeLevel(0, &level));
    const D3DBOX back{0, 0, 2, 2, 1, 2};
    HR(level->LockBox(&lb, &back, 0));
    write_slice(lb, 1);
    HR(level->UnlockBox());
    CHECK(level->Release() == 1); // counts on the texture
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_volume", kElements);
    HR(dev->SetTexture(0, tex));
    for (UINT n = 0; n < 8; ++n)
      cell(dev, n, (n % 2) ? 0.75f : 0.25f, ((n / 2) % 2) ? 0.75f : 0.25f, (n / 4) ? 0.75f : 0.25f);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    for (UINT n = 0; n < 8; ++n) probe_cell(r, n, volume_texel(n % 2, (n / 2) % 2, n / 4));
    probe_cell(r, 8, 0xffffffff);
  }
}

TEST_CASE("scene: UpdateTexture copies SYSTEMMEM texels into a DEFAULT texture, then only a dirty rect", "[scene][texture]") {
  auto images = render_all("update_texture", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    IDirect3DTexture9 *sys = nullptr, *gpu = nullptr;
    HR(dev->CreateTexture(2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr));
    HR(dev->CreateTexture(2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &gpu, nullptr));
    D3DLOCKED_RECT lr;
    HR(sys->LockRect(0, &lr, nullptr, 0));
    for (UINT j = 0; j < 2; ++j)
      for (UINT i = 0; i < 2; ++i) {
        const D3DCOLOR c = volume_texel(i, j, 0);
        std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
      }
    HR(sys->UnlockRect(0));
    HR(dev->UpdateTexture(sys, gpu));
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld", kElements);
    HR(dev->SetTexture(0, gpu));
    for (UINT n = 0; n < 4; ++n) cell(dev, n, (n % 2) ? 0.75f : 0.25f, (n / 2) ? 0.75f : 0.25f, 0);
    // Texel (1, 1) changes through a rectangle lock; the next UpdateTexture carries it.
    RECT one{1, 1, 2, 2};
    HR(sys->LockRect(0, &lr, &one, 0));
    const D3DCOLOR red = 0xffff0000;
    std::memcpy(lr.pBits, &red, 4);
    HR(sys->UnlockRect(0));
    HR(dev->UpdateTexture(sys, gpu));
    for (UINT n = 0; n < 4; ++n) cell(dev, 8 + n, (n % 2) ? 0.75f : 0.25f, (n / 2) ? 0.75f : 0.25f, 0);
    HR(dev->SetTexture(0, nullptr));
    CHECK(sys->Release() == 0);
    CHECK(gpu->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images)
    for (UINT n = 0; n < 4; ++n) {
      probe_cell(r, n, volume_texel(n % 2, n / 2, 0));
      probe_cell(r, 8 + n, n == 3 ? 0xffff0000 : volume_texel(n % 2, n / 2, 0));
    }
}

TEST_CASE("scene: UpdateSurface writes a SYSTEMMEM rectangle into a DEFAULT texture level", "[scene][texture]") {
  auto images = render_all("update_surface", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    IDirect3DSurface9 *sys = nullptr;
    HR(dev->CreateOffscreenPlainSurface(2, 2, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr));
    D3DLOCKED_RECT lr;
    HR(sys->LockRect(&lr, nullptr, 0));
    for (UINT j = 0; j < 2; ++j)
      for (UINT i = 0; i < 2; ++i) {
        const D3DCOLOR c = volume_texel(i, j, 1);
        std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
      }
    HR(sys->UnlockRect());
    IDirect3DTexture9 *gpu = nullptr;
    HR(dev->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &gpu, nullptr));
    IDirect3DSurface9 *level = nullptr;
    HR(gpu->GetSurfaceLevel(0, &level));
    // The source's right column lands at texels (2, 1) and (2, 2).
    const RECT column{1, 0, 2, 2};
    const POINT at{2, 1};
    HR(dev->UpdateSurface(sys, &column, level, &at));
    level->Release();
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld", kElements);
    HR(dev->SetTexture(0, gpu));
    cell(dev, 0, 2.5f / 4, 1.5f / 4, 0);
    cell(dev, 1, 2.5f / 4, 2.5f / 4, 0);
    HR(dev->SetTexture(0, nullptr));
    CHECK(sys->Release() == 0);
    CHECK(gpu->Release() == 0);
    s.release(dev);
  }, 0);
  for (const auto &r : images) {
    probe_cell(r, 0, volume_texel(1, 0, 1));
    probe_cell(r, 1, volume_texel(1, 1, 1));
  }
}

TEST_CASE("scene: a render-target texture drawn into, then sampled", "[scene][texture][target]") {
  auto images = render_all("render_target_texture", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DTexture9 *rt = nullptr;
    HR(dev->CreateTexture(2, 2, 1, D3DUSAGE_RENDERTARGET, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &rt, nullptr));
    IDirect3DSurface9 *level = nullptr;
    HR(rt->GetSurfaceLevel(0, &level));
    // Four texels, each cleared to its own colour.
    HR(dev->SetRenderTarget(0, level));
    for (UINT n = 0; n < 4; ++n) {
      const D3DRECT r{LONG(n % 2), LONG(n / 2), LONG(n % 2 + 1), LONG(n / 2 + 1)};
      HR(dev->Clear(1, &r, D3DCLEAR_TARGET, volume_texel(n % 2, n / 2, 2) & 0x00ffffffu, 1.0f, 0));
    }
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffffffff, 1.0f, 0));
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld", kElements);
    HR(dev->SetTexture(0, rt));
    for (UINT n = 0; n < 4; ++n) cell(dev, n, (n % 2) ? 0.75f : 0.25f, (n / 2) ? 0.75f : 0.25f, 0);
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    level->Release();
    back->Release();
    CHECK(rt->Release() == 0);
  }, 0);
  for (const auto &r : images)
    for (UINT n = 0; n < 4; ++n) probe_cell(r, n, volume_texel(n % 2, n / 2, 2));
}

TEST_CASE("scene: render-target textures of every target format, drawn into and sampled", "[scene][texture][target]") {
  // Each texture is drawn into with the constant (0.25, 0.75, 0.5, 1), then sampled into the back
  // buffer: a channel the format lacks reads 1.
  struct Target {
    D3DFORMAT format;
    bool g, b; // has the channel
    uint32_t tolerance;
  };
  const Target targets[] = {
      {D3DFMT_A8R8G8B8, true, true, 1},      {D3DFMT_X8R8G8B8, true, true, 1},     {D3DFMT_R5G6B5, true, true, 5},
      {D3DFMT_A1R5G5B5, true, true, 5},      {D3DFMT_X1R5G5B5, true, true, 5},     {D3DFMT_A2R10G10B10, true, true, 1},
      {D3DFMT_A2B10G10R10, true, true, 1},   {D3DFMT_A16B16G16R16, true, true, 1}, {D3DFMT_G16R16, true, false, 1},
      {D3DFMT_R16F, false, false, 1},        {D3DFMT_G16R16F, true, false, 1},     {D3DFMT_A16B16G16R16F, true, true, 1},
      {D3DFMT_R32F, false, false, 1},        {D3DFMT_G32R32F, true, false, 1},     {D3DFMT_A32B32G32R32F, true, true, 1}};
  for (const Target &t : targets) {
    DYNAMIC_SECTION("format " << t.format) {
      auto images = render_all("render_target_format_" + std::to_string(t.format), SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *back = nullptr;
        HR(dev->GetRenderTarget(0, &back));
        IDirect3DTexture9 *rt = nullptr;
        HR(dev->CreateTexture(8, 8, 1, D3DUSAGE_RENDERTARGET, t.format, D3DPOOL_DEFAULT, &rt, nullptr));
        IDirect3DSurface9 *level = nullptr;
        HR(rt->GetSurfaceLevel(0, &level));
        HR(dev->SetRenderTarget(0, level));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        {
          ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_const_c0", kElements);
          const float c0[4] = {0.25f, 0.75f, 0.5f, 1.0f};
          HR(dev->SetPixelShaderConstantF(0, c0, 1));
          DirVertex q[4] = {{-1, 1, 0.5f, 1, 0, 0, 0}, {1, 1, 0.5f, 1, 1, 0, 0}, {-1, -1, 0.5f, 1, 0, 1, 0},
                            {1, -1, 0.5f, 1, 1, 1, 0}};
          HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, q, sizeof(DirVertex)));
          s.release(dev);
        }
        HR(dev->SetRenderTarget(0, back));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld", kElements);
        HR(dev->SetTexture(0, rt));
        cell(dev, 0, 0.5f, 0.5f, 0);
        HR(dev->SetTexture(0, nullptr));
        s.release(dev);
        level->Release();
        back->Release();
        CHECK(rt->Release() == 0);
      }, t.tolerance);
      const D3DCOLOR expected = D3DCOLOR(0xff000000u | 64u << 16 | (t.g ? 191u : 255u) << 8 | (t.b ? 128u : 255u));
      for (const auto &r : images) probe(r, 4, 4, expected, t.tolerance);
    }
  }
}

TEST_CASE("scene: AUTOGENMIPMAP generates the levels below level 0", "[scene][texture][mipmap]") {
  auto images = render_all("autogen_mipmap", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xffff0000, 1.0f, 0));
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(4, 4, 0, D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    REQUIRE(tex->GetLevelCount() == 1);
    // A checkerboard of white and black texels: every generated level is mid grey.
    D3DLOCKED_RECT lr;
    HR(tex->LockRect(0, &lr, nullptr, 0));
    for (UINT j = 0; j < 4; ++j)
      for (UINT i = 0; i < 4; ++i) {
        const D3DCOLOR c = (i + j) % 2 ? 0xff000000 : 0xffffffff;
        std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
      }
    HR(tex->UnlockRect(0));
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld", kElements);
    HR(dev->SetTexture(0, tex));
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
    // The whole texture on 2 x 2 pixels (level 1), and on one pixel (level 2).
    auto quad = [&](float x0, float size) {
      auto cx = [](float px) { return px / 32.0f - 1.0f; };
      auto cy = [](float py) { return 1.0f - py / 32.0f; };
      DirVertex q[4] = {{cx(x0), cy(0), 0.5f, 1, 0, 0, 0},
                        {cx(x0 + size), cy(0), 0.5f, 1, 1, 0, 0},
                        {cx(x0), cy(size), 0.5f, 1, 0, 1, 0},
                        {cx(x0 + size), cy(size), 0.5f, 1, 1, 1, 0}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, q, sizeof(DirVertex)));
    };
    quad(0, 2);
    quad(8, 1);
    HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_NONE));
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
    s.release(dev);
  }, 2);
  for (const auto &r : images) {
    for (UINT y = 0; y < 2; ++y)
      for (UINT x = 0; x < 2; ++x) probe(r, x, y, 0xff808080, 2);
    probe(r, 8, 0, 0xff808080, 2);
  }
}

TEST_CASE("scene: every depth format tests depth", "[scene][depth][format]") {
  for (D3DFORMAT f : {D3DFMT_D16, D3DFMT_D24X8, D3DFMT_D24S8, D3DFMT_D32, D3DFMT_D32F_LOCKABLE}) {
    DYNAMIC_SECTION("format " << f) {
      auto images = render_all("depth_format_" + std::to_string(f), SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        IDirect3DSurface9 *ds = nullptr;
        HR(dev->CreateDepthStencilSurface(64, 64, f, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr));
        HR(dev->SetDepthStencilSurface(ds));
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff000000, 0.5f, 0));
        HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
        HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
        HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
        HR(dev->SetFVF(kTLVertexFVF));
        auto quad = [&](float x0, float x1, float z, D3DCOLOR c) {
          TLVertex v[4] = {{x0, 0, z, 1, c}, {x1, 0, z, 1, c}, {x0, 64, z, 1, c}, {x1, 64, z, 1, c}};
          HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
        };
        quad(0, 32, 0.25f, 0xffff0000);  // nearer than the cleared 0.5: drawn
        quad(32, 64, 0.75f, 0xff00ff00); // farther: hidden
        quad(0, 16, 0.3f, 0xff0000ff);   // farther than the red it overlaps: hidden
        HR(dev->SetDepthStencilSurface(nullptr));
        CHECK(ds->Release() == 0);
      }, 0);
      for (const auto &r : images) {
        probe(r, 8, 32, 0xffff0000, 0);
        probe(r, 24, 32, 0xffff0000, 0);
        probe(r, 48, 32, 0xff000000, 0);
      }
    }
  }
}
