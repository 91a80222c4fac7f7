// Rendering into textures beyond level 0 of a 2D render target: the six faces of a cube render
// target drawn one by one and sampled by direction (a dynamic environment map), a level above 0
// drawn with a larger depth-stencil surface and sampled with texldl at that level, level 1
// drawn from level 0 of the same texture while it is bound (a downsample), and an
// AUTOGENMIPMAP render target whose sub-levels follow what was rendered into level 0, and
// ColorFill/StretchRect into and between a cube render target's faces and levels. Every
// probe is the colour D3D9's rules give.
#include <catch2/catch.hpp>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kBlue = 0xff0000ff, kBlack = 0xff000000, kYellow = 0xffffff00,
                   kGreen = 0xff00ff00;

// Draws a pre-transformed quad [x0, x1) x [y0, y1) (clockwise strip) with the fixed-function
// pipeline: no shaders, no texture, the vertex colour.
void tl_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR c, float z = 0.5f) {
  HR(dev->SetVertexShader(nullptr));
  HR(dev->SetPixelShader(nullptr));
  HR(dev->SetTexture(0, nullptr));
  HR(dev->SetFVF(kTLVertexFVF));
  TLVertex v[4] = {{x0, y0, z, 1, c}, {x1, y0, z, 1, c}, {x0, y1, z, 1, c}, {x1, y1, z, 1, c}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

// A clip-space vertex with a texture coordinate of up to three components.
struct TexVertex {
  float x, y, z, w;
  float u, v, s;
};
const D3DVERTEXELEMENT9 kCubeElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};
const D3DVERTEXELEMENT9 kLevelElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// Binds the set's shaders and declaration (the fixed-function draws above unbind them).
void bind(IDirect3DDevice9 *dev, const ShaderSet &s) {
  HR(dev->SetVertexShader(s.vs));
  HR(dev->SetPixelShader(s.ps));
  HR(dev->SetVertexDeclaration(s.decl));
}

// A quad over the 8 x 8 cell n of the 64 x 64 back buffer (8 cells a row), every vertex with the
// texture coordinate (u, v, s).
void cell(IDirect3DDevice9 *dev, UINT n, float u, float v, float s) {
  const float x0 = float(n % 8) * 8, y0 = float(n / 8) * 8;
  auto cx = [](float px) { return px / 32.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 32.0f; };
  TexVertex q[4] = {{cx(x0), cy(y0), 0.5f, 1, u, v, s},
                    {cx(x0 + 8), cy(y0), 0.5f, 1, u, v, s},
                    {cx(x0), cy(y0 + 8), 0.5f, 1, u, v, s},
                    {cx(x0 + 8), cy(y0 + 8), 0.5f, 1, u, v, s}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, q, sizeof(TexVertex)));
}

void probe_cell(const Rendered &r, UINT n, D3DCOLOR expected, uint32_t tolerance = 0) {
  probe(r, (n % 8) * 8 + 4, (n / 8) * 8 + 4, expected, tolerance);
}

// texldl at level `lod` of the texture at (u, v) into cell n (ps30_texldl_c0 reads the level
// from c0.w).
void cell_at_level(IDirect3DDevice9 *dev, UINT n, float lod, float u, float v) {
  const float c0[4] = {0, 0, 0, lod};
  HR(dev->SetPixelShaderConstantF(0, c0, 1));
  cell(dev, n, u, v, 0);
}

void point_sampling(IDirect3DDevice9 *dev) {
  HR(dev->SetSamplerState(0, D3DSAMP_MINFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_POINT));
  HR(dev->SetSamplerState(0, D3DSAMP_MIPFILTER, D3DTEXF_POINT));
}

// The colours face f of the environment map is cleared to, and drawn with in its middle.
D3DCOLOR face_clear(UINT f) { return D3DCOLOR(0xff000000u | (40 * f + 20) << 16 | 0x2010); }
D3DCOLOR face_drawn(UINT f) { return D3DCOLOR(0xff300000u | (40 * f + 20) << 8 | 0xc0); }

} // namespace

TEST_CASE("scene: a cube render target drawn face by face and sampled along the six axes", "[scene][rtt][cube]") {
  auto images = render_all("rtt_cube_faces", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DCubeTexture9 *cube = nullptr;
    HR(dev->CreateCubeTexture(8, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr));
    // Each face: cleared, then its middle 4 x 4 texels drawn, as an environment map's faces are.
    for (UINT f = 0; f < 6; ++f) {
      IDirect3DSurface9 *face = nullptr;
      HR(cube->GetCubeMapSurface(D3DCUBEMAP_FACES(f), 0, &face));
      HR(dev->SetRenderTarget(0, face));
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, face_clear(f), 1.0f, 0));
      tl_quad(dev, 2, 2, 6, 6, face_drawn(f));
      face->Release();
    }
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_cube", kCubeElements);
    bind(dev, s);
    HR(dev->SetTexture(0, cube));
    for (UINT f = 0; f < 6; ++f) {
      float d[3];
      cube_direction(f, 0, 0, d); // the axis: the face's middle
      cell(dev, 2 * f, d[0], d[1], d[2]);
      // Texel x's centre is at (2x + 1) / 8 - 1.
      cube_direction(f, 0.875f, 0.875f, d); // texel (7, 7), cleared only
      cell(dev, 2 * f + 1, d[0], d[1], d[2]);
      cube_direction(f, -0.875f, 0.375f, d); // texel (0, 5), cleared only
      cell(dev, 16 + f, d[0], d[1], d[2]);
      cube_direction(f, -0.125f, 0.375f, d); // texel (3, 5), drawn
      cell(dev, 24 + f, d[0], d[1], d[2]);
    }
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    CHECK(cube->Release() == 0);
    back->Release();
  }, 0);
  for (const auto &r : images) {
    for (UINT f = 0; f < 6; ++f) {
      INFO("face " << f);
      probe_cell(r, 2 * f, face_drawn(f));
      probe_cell(r, 2 * f + 1, face_clear(f));
      probe_cell(r, 16 + f, face_clear(f));
      probe_cell(r, 24 + f, face_drawn(f));
    }
    probe_cell(r, 40, kBlack); // untouched
  }
}

TEST_CASE("scene: level 1 of a render-target texture drawn with depth, sampled at level 1", "[scene][rtt]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8; // 64 x 64: larger than the levels, as D3D9 allows
  auto images = render_all("rtt_level1", setup, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *level0 = nullptr, *level1 = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr));
    HR(tex->GetSurfaceLevel(0, &level0));
    HR(tex->GetSurfaceLevel(1, &level1));
    D3DVIEWPORT9 vp{};
    HR(dev->SetRenderTarget(0, level0));
    HR(dev->GetViewport(&vp));
    CHECK(vp.Width == 16);
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0));
    // Level 1 (8 x 8): SetRenderTarget resets the viewport to it. The left half is drawn at depth
    // 0.5, then the whole level at 0.75, which the depth test keeps out of the left half.
    HR(dev->SetRenderTarget(0, level1));
    HR(dev->GetViewport(&vp));
    CHECK((vp.Width == 8 && vp.Height == 8));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    tl_quad(dev, 0, 0, 4, 8, kBlue, 0.5f);
    tl_quad(dev, 0, 0, 8, 8, kYellow, 0.75f);
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_texcoord", "ps30_texldl_c0", kLevelElements);
    bind(dev, s);
    HR(dev->SetTexture(0, tex));
    point_sampling(dev);
    cell_at_level(dev, 0, 1, 0.25f, 0.5f);  // level 1, left: blue
    cell_at_level(dev, 1, 1, 0.75f, 0.5f);  // level 1, right: yellow
    cell_at_level(dev, 2, 1, 0.75f, 0.05f); // level 1, right top row
    cell_at_level(dev, 3, 0, 0.75f, 0.5f);  // level 0: red
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    level0->Release();
    level1->Release();
    CHECK(tex->Release() == 0);
    back->Release();
  }, 0);
  for (const auto &r : images) {
    probe_cell(r, 0, kBlue);
    probe_cell(r, 1, kYellow);
    probe_cell(r, 2, kYellow);
    probe_cell(r, 3, kRed);
    probe_cell(r, 4, kBlack);
  }
}

// A downsample: level 1 drawn while the texture, sampled at level 0, is bound. D3D9 allows
// rendering into one level of a texture while sampling another; only sampling the level being
// drawn is undefined.
TEST_CASE("scene: level 1 of a render-target texture drawn from its level 0", "[scene][rtt]") {
  auto images = render_all("rtt_downsample", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *level0 = nullptr, *level1 = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(16, 16, 2, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr));
    HR(tex->GetSurfaceLevel(0, &level0));
    HR(tex->GetSurfaceLevel(1, &level1));
    HR(dev->SetRenderTarget(0, level0));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0));
    tl_quad(dev, 0, 0, 8, 16, kBlue); // level 0: left half blue, right half red
    ShaderSet s(dev, "vs30_pass_texcoord", "ps30_texldl_c0", kLevelElements);
    HR(dev->SetRenderTarget(0, level1));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    bind(dev, s);
    HR(dev->SetTexture(0, tex));
    point_sampling(dev);
    const float level0_lod[4] = {0, 0, 0, 0};
    HR(dev->SetPixelShaderConstantF(0, level0_lod, 1));
    TexVertex whole[4] = {{-1, 1, 0.5f, 1, 0, 0, 0}, {1, 1, 0.5f, 1, 1, 0, 0}, {-1, -1, 0.5f, 1, 0, 1, 0},
                          {1, -1, 0.5f, 1, 1, 1, 0}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, whole, sizeof(TexVertex)));
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    cell_at_level(dev, 0, 1, 0.25f, 0.5f); // level 1, left: blue
    cell_at_level(dev, 1, 1, 0.75f, 0.5f); // level 1, right: red
    cell_at_level(dev, 2, 0, 0.75f, 0.5f); // level 0 as drawn: red
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    level0->Release();
    level1->Release();
    CHECK(tex->Release() == 0);
    back->Release();
  }, 0);
  for (const auto &r : images) {
    probe_cell(r, 0, kBlue);
    probe_cell(r, 1, kRed);
    probe_cell(r, 2, kRed);
    probe_cell(r, 3, kBlack);
  }
}

TEST_CASE("scene: an AUTOGENMIPMAP render target's smallest level is the average colour", "[scene][rtt][autogen]") {
  auto images = render_all("rtt_autogen", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *level0 = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8,
                          D3DPOOL_DEFAULT, &tex, nullptr));
    CHECK(tex->GetLevelCount() == 1);
    HR(tex->GetSurfaceLevel(0, &level0));
    ShaderSet s(dev, "vs30_pass_texcoord", "ps30_texldl_c0", kLevelElements);
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    // First all red; sampled at level 4 (1 x 1) once it is no longer the target.
    HR(dev->SetRenderTarget(0, level0));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0));
    HR(dev->SetRenderTarget(0, back));
    bind(dev, s);
    HR(dev->SetTexture(0, tex));
    point_sampling(dev);
    cell_at_level(dev, 0, 4, 0.5f, 0.5f);
    // Then the left half red and the right half blue: the levels follow the new level 0.
    HR(dev->SetRenderTarget(0, level0));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    tl_quad(dev, 0, 0, 8, 16, kRed);
    HR(dev->SetRenderTarget(0, back));
    bind(dev, s);
    HR(dev->SetTexture(0, tex));
    cell_at_level(dev, 1, 4, 0.5f, 0.5f);   // 1 x 1: the average
    cell_at_level(dev, 2, 3, 0.25f, 0.5f);  // 2 x 2: left texel red
    cell_at_level(dev, 3, 3, 0.75f, 0.5f);  // right texel blue
    cell_at_level(dev, 4, 0, 0.75f, 0.5f);  // level 0, right: blue
    // A ColorFill of level 0 (not a target now) regenerates them too.
    HR(dev->ColorFill(level0, nullptr, kYellow));
    cell_at_level(dev, 6, 4, 0.5f, 0.5f);
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    level0->Release();
    CHECK(tex->Release() == 0);
    back->Release();
  }, 2);
  for (const auto &r : images) {
    probe_cell(r, 0, kRed);
    probe_cell(r, 1, 0xff800080, 2);
    probe_cell(r, 2, kRed);
    probe_cell(r, 3, kBlue);
    probe_cell(r, 4, kBlue);
    probe_cell(r, 5, kBlack);
    probe_cell(r, 6, kYellow);
  }
}

// SetAutoGenFilterType(POINT): each sub-level takes texels of the level above, never their
// average (which texel of each 2 x 2 is the filter's; the same on every backend).
TEST_CASE("scene: an AUTOGENMIPMAP render target with the POINT filter has texels, not averages, below",
          "[scene][rtt][autogen]") {
  auto images = render_all("rtt_autogen_point", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *level0 = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(16, 16, 0, D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP, D3DFMT_A8R8G8B8,
                          D3DPOOL_DEFAULT, &tex, nullptr));
    HR(tex->SetAutoGenFilterType(D3DTEXF_POINT));
    HR(tex->GetSurfaceLevel(0, &level0));
    ShaderSet s(dev, "vs30_pass_texcoord", "ps30_texldl_c0", kLevelElements);
    HR(dev->SetRenderTarget(0, back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderTarget(0, level0));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlue, 1.0f, 0));
    tl_quad(dev, 0, 0, 8, 16, kRed);
    HR(dev->SetRenderTarget(0, back));
    bind(dev, s);
    HR(dev->SetTexture(0, tex));
    point_sampling(dev);
    cell_at_level(dev, 0, 4, 0.5f, 0.5f);  // 1 x 1
    cell_at_level(dev, 1, 3, 0.25f, 0.5f); // 2 x 2: left texel red
    cell_at_level(dev, 2, 3, 0.75f, 0.5f); // right texel blue
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    level0->Release();
    CHECK(tex->Release() == 0);
    back->Release();
  }, 0);
  for (const auto &r : images) {
    const uint8_t *p = r.image.at(4, 4);
    INFO(r.backend << ": level 4 is (" << int(p[0]) << ", " << int(p[1]) << ", " << int(p[2]) << ")");
    CHECK(((p[0] == 0xff && p[2] == 0) || (p[0] == 0 && p[2] == 0xff)));
    probe_cell(r, 1, kRed);
    probe_cell(r, 2, kBlue);
  }
}

TEST_CASE("scene: ColorFill and StretchRect into and between faces and levels of a cube render target", "[scene][rtt][cube]") {
  auto images = render_all("rtt_cube_copies", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr;
    HR(dev->GetRenderTarget(0, &back));
    IDirect3DCubeTexture9 *cube = nullptr;
    HR(dev->CreateCubeTexture(8, 2, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr));
    auto face = [&](UINT f, UINT level) {
      IDirect3DSurface9 *s = nullptr;
      HR(cube->GetCubeMapSurface(D3DCUBEMAP_FACES(f), level, &s));
      return s;
    };
    for (UINT f = 0; f < 6; ++f) {
      IDirect3DSurface9 *s = face(f, 0);
      HR(dev->ColorFill(s, nullptr, face_clear(f)));
      s->Release();
    }
    // A rectangle of +Y.
    IDirect3DSurface9 *py = face(D3DCUBEMAP_FACE_POSITIVE_Y, 0);
    const RECT middle{2, 2, 6, 6};
    HR(dev->ColorFill(py, &middle, kYellow));
    py->Release();
    // A render target (left half blue, right half red) copied whole into -Z.
    IDirect3DSurface9 *rt = nullptr, *nz = face(D3DCUBEMAP_FACE_NEGATIVE_Z, 0);
    HR(dev->CreateRenderTarget(8, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr));
    HR(dev->ColorFill(rt, nullptr, kRed));
    const RECT left{0, 0, 4, 8};
    HR(dev->ColorFill(rt, &left, kBlue));
    HR(dev->StretchRect(rt, nullptr, nz, nullptr, D3DTEXF_POINT));
    nz->Release();
    rt->Release();
    // The top-left quarter of +X into the bottom-right quarter of -X: two faces of one texture.
    IDirect3DSurface9 *px = face(D3DCUBEMAP_FACE_POSITIVE_X, 0), *nx = face(D3DCUBEMAP_FACE_NEGATIVE_X, 0);
    const RECT top_left{0, 0, 4, 4}, bottom_right{4, 4, 8, 8};
    HR(dev->StretchRect(px, &top_left, nx, &bottom_right, D3DTEXF_POINT));
    px->Release();
    nx->Release();
    // Level 1 of +Z: filled black, then a rectangle green; read back as D3D9 stores it.
    IDirect3DSurface9 *pz1 = face(D3DCUBEMAP_FACE_POSITIVE_Z, 1), *mem = nullptr;
    HR(dev->ColorFill(pz1, nullptr, kBlack));
    const RECT corner{0, 0, 2, 2};
    HR(dev->ColorFill(pz1, &corner, kGreen));
    HR(dev->CreateOffscreenPlainSurface(4, 4, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &mem, nullptr));
    HR(dev->GetRenderTargetData(pz1, mem));
    D3DLOCKED_RECT lr;
    HR(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY));
    auto texel = [&](int x, int y) { return static_cast<const D3DCOLOR *>(lr.pBits)[y * lr.Pitch / 4 + x]; };
    CHECK(texel(0, 0) == kGreen);
    CHECK(texel(1, 1) == kGreen);
    CHECK(texel(3, 3) == kBlack);
    CHECK(texel(2, 0) == kBlack);
    HR(mem->UnlockRect());
    mem->Release();
    pz1->Release();

    // Sampled by direction at level 0 (the cells' coordinates are constant: no derivatives).
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_cube", kCubeElements);
    bind(dev, s);
    point_sampling(dev);
    HR(dev->SetTexture(0, cube));
    // Texel x's centre is at (2x + 1) / 8 - 1.
    auto at = [&](UINT n, UINT f, int x, int y) {
      float d[3];
      cube_direction(f, (2 * x + 1) / 8.0f - 1, (2 * y + 1) / 8.0f - 1, d);
      cell(dev, n, d[0], d[1], d[2]);
    };
    at(0, D3DCUBEMAP_FACE_POSITIVE_Y, 3, 3); // the filled rectangle
    at(1, D3DCUBEMAP_FACE_POSITIVE_Y, 7, 7);
    at(2, D3DCUBEMAP_FACE_NEGATIVE_Z, 1, 3); // the copied target's left half
    at(3, D3DCUBEMAP_FACE_NEGATIVE_Z, 6, 3);
    at(4, D3DCUBEMAP_FACE_NEGATIVE_X, 6, 6); // +X's quarter
    at(5, D3DCUBEMAP_FACE_NEGATIVE_X, 1, 1);
    at(6, D3DCUBEMAP_FACE_POSITIVE_X, 1, 1); // the source is unchanged
    HR(dev->SetTexture(0, nullptr));
    s.release(dev);
    CHECK(cube->Release() == 0);
    back->Release();
  }, 0);
  for (const auto &r : images) {
    probe_cell(r, 0, kYellow);
    probe_cell(r, 1, face_clear(D3DCUBEMAP_FACE_POSITIVE_Y));
    probe_cell(r, 2, kBlue);
    probe_cell(r, 3, kRed);
    probe_cell(r, 4, face_clear(D3DCUBEMAP_FACE_POSITIVE_X));
    probe_cell(r, 5, face_clear(D3DCUBEMAP_FACE_NEGATIVE_X));
    probe_cell(r, 6, face_clear(D3DCUBEMAP_FACE_POSITIVE_X));
    probe_cell(r, 40, kBlack);
  }
}
