// The fixed-function pipeline beyond 2D textures, drawn on every backend: stages sampling cube
// textures (camera-space normals, reflection vectors, explicit 3-component coordinates with and
// without a COUNT3 transform), volume textures, sphere-map coordinates, vertex tweening and
// D3DTOP_PREMODULATE. Every expected pixel is worked out here from D3D9's formulas (the cube face
// from the major axis of the direction, the texel from the coordinates).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

DWORD fbits(float f) { return std::bit_cast<DWORD>(f); }

constexpr D3DCOLOR kClear = 0xff102030;

// A vertex with a normal and a 3-component texture coordinate.
struct NormalTex3 {
  float x, y, z;
  float nx, ny, nz;
  float s, t, r;
};
constexpr DWORD kNormalTex3FVF = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0);

// A quad over the 16 x 16 cell n of the 64 x 64 target (4 cells a row), drawn with identity
// transforms (its x, y are clip space), every vertex with the same normal and coordinate.
void cell(IDirect3DDevice9 *dev, UINT n, const float normal[3], const float tc[3]) {
  const float x0 = float(n % 4) * 16, y0 = float(n / 4) * 16;
  auto cx = [](float px) { return px / 32.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 32.0f; };
  const float xs[2] = {cx(x0), cx(x0 + 16)}, ys[2] = {cy(y0), cy(y0 + 16)};
  NormalTex3 v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = {xs[i & 1], ys[i >> 1], 0.5f, normal[0], normal[1], normal[2], tc[0], tc[1], tc[2]};
  HR(dev->SetFVF(kNormalTex3FVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(NormalTex3)));
}

void probe_cell(const Rendered &r, UINT n, D3DCOLOR expected, uint32_t tolerance = 1) {
  probe(r, (n % 4) * 16 + 8, (n / 4) * 16 + 8, expected, tolerance);
}

D3DCOLOR face_color(UINT face) { return D3DCOLOR(0xff000000u | (40 * face + 20) << 16 | (230 - 35 * face) << 8 | (face * 50)); }

// D3D9's cube-map face selection: the axis of the largest magnitude, its sign.
UINT cube_face(const float d[3]) {
  const float ax = std::fabs(d[0]), ay = std::fabs(d[1]), az = std::fabs(d[2]);
  if (ax >= ay && ax >= az) return d[0] >= 0 ? D3DCUBEMAP_FACE_POSITIVE_X : D3DCUBEMAP_FACE_NEGATIVE_X;
  if (ay >= az) return d[1] >= 0 ? D3DCUBEMAP_FACE_POSITIVE_Y : D3DCUBEMAP_FACE_NEGATIVE_Y;
  return d[2] >= 0 ? D3DCUBEMAP_FACE_POSITIVE_Z : D3DCUBEMAP_FACE_NEGATIVE_Z;
}

// A row vector times a D3D matrix (x, y, z, w) * m, on three components with the given w.
void row_times(const float v[3], float w, const D3DMATRIX &m, float out[3]) {
  for (int j = 0; j < 3; ++j) out[j] = v[0] * m.m[0][j] + v[1] * m.m[1][j] + v[2] * m.m[2][j] + w * m.m[3][j];
}

D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

void normalize(float v[3]) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; ++i) v[i] /= l;
}

// R = I - 2 (N.I) N with the non-local viewer's I = (0, 0, 1).
void reflect_z(const float n[3], float r[3]) {
  const float d = n[2];
  const float in[3] = {0, 0, 1};
  for (int i = 0; i < 3; ++i) r[i] = in[i] - 2 * d * n[i];
}

void set_stage(IDirect3DDevice9 *dev, DWORD stage, DWORD op, DWORD a1, DWORD a2, DWORD aop, DWORD aa1, DWORD aa2) {
  HR(dev->SetTextureStageState(stage, D3DTSS_COLOROP, op));
  HR(dev->SetTextureStageState(stage, D3DTSS_COLORARG1, a1));
  HR(dev->SetTextureStageState(stage, D3DTSS_COLORARG2, a2));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAOP, aop));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAARG1, aa1));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAARG2, aa2));
}

// Untransformed state the scenes share: no lighting, no culling, identity transforms.
void plain_state(IDirect3DDevice9 *dev) {
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
  HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
}

// Light 0: a white directional light along +z (L = (0, 0, -1)), enabled.
void white_light_along_z(IDirect3DDevice9 *dev) {
  D3DLIGHT9 light{};
  light.Type = D3DLIGHT_DIRECTIONAL;
  light.Diffuse = {1, 1, 1, 1};
  light.Direction = {0, 0, 1};
  HR(dev->SetLight(0, &light));
  HR(dev->LightEnable(0, TRUE));
}

// Rotation by 90 degrees about y as D3D's row-vector matrix: (x, y, z) * R = (z, y, -x).
D3DMATRIX rotation_y90() {
  D3DMATRIX m{};
  m._13 = -1.0f, m._22 = 1.0f, m._31 = 1.0f, m._44 = 1.0f;
  return m;
}

D3DMATRIX transpose(const D3DMATRIX &a) {
  D3DMATRIX r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r.m[i][j] = a.m[j][i];
  return r;
}

struct Color {
  float r, g, b, a;
};
Color from_d3d(D3DCOLOR c) {
  return {float((c >> 16) & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f, float(c & 0xff) / 255.0f,
          float(c >> 24) / 255.0f};
}
D3DCOLOR to_d3d(Color c) {
  auto q = [](float x) { return DWORD(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); };
  return D3DCOLOR(q(c.a) << 24 | q(c.r) << 16 | q(c.g) << 8 | q(c.b));
}

} // namespace

TEST_CASE("scene: fixed-function cube texture from camera-space normals, reflection vectors and COUNT3 coordinates",
          "[scene][ff][cube]") {
  // Row 0: CAMERASPACENORMAL with View = R (90 degrees about y) and Projection = R^T, so that the
  // quads stay where they are drawn while their camera-space normals are n * R = (nz, ny, -nx).
  const float normals0[4][3] = {{1, 0.3f, 0.2f}, {0, -1, 0.4f}, {0.1f, 0.2f, 1}, {-1, 0, 0.5f}};
  // Row 1: CAMERASPACEREFLECTIONVECTOR (identity view, LOCALVIEWER off): R = I - 2 (N.I) N.
  float normals1[4][3] = {{1, 0, -1}, {0, 1, -1}, {0, 0, -1}, {-0.3f, -1, -1}};
  for (auto &n : normals1) normalize(n);
  // Row 2: explicit (s, t, r), COUNT3 through T: (s, t, r, 1) * T = (r, s, t - 0.5).
  const float coords2[4][3] = {{0.3f, 0.2f, -1}, {1, 0.1f, 0.2f}, {0.1f, 1.2f, 0.3f}, {-0.2f, -0.1f, 0.1f}};
  D3DMATRIX t{};
  t._12 = 1, t._23 = 1, t._31 = 1, t._43 = -0.5f, t._44 = 1;
  // Row 3: explicit (s, t, r) passed through.
  const float coords3[4][3] = {{-1, 0.2f, 0.3f}, {0.1f, 0.3f, -0.9f}, {0.2f, 1, -0.1f}, {0.5f, -0.4f, 0.6f}};
  const float none[3] = {0, 0, 0};
  auto images = render_all("ff_cube", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    IDirect3DCubeTexture9 *cube = nullptr;
    HR(dev->CreateCubeTexture(2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &cube, nullptr));
    for (UINT f = 0; f < 6; ++f) {
      D3DLOCKED_RECT lr;
      HR(cube->LockRect(D3DCUBEMAP_FACES(f), 0, &lr, nullptr, 0));
      for (UINT j = 0; j < 2; ++j)
        for (UINT i = 0; i < 2; ++i) {
          const D3DCOLOR c = face_color(f);
          std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
        }
      HR(cube->UnlockRect(D3DCUBEMAP_FACES(f), 0));
    }
    HR(dev->SetTexture(0, cube));
    const D3DMATRIX r = rotation_y90(), rt = transpose(r), id = identity();
    HR(dev->SetTransform(D3DTS_VIEW, &r));
    HR(dev->SetTransform(D3DTS_PROJECTION, &rt));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACENORMAL));
    for (UINT i = 0; i < 4; ++i) cell(dev, i, normals0[i], none);
    HR(dev->SetTransform(D3DTS_VIEW, &id));
    HR(dev->SetTransform(D3DTS_PROJECTION, &id));
    HR(dev->SetRenderState(D3DRS_LOCALVIEWER, FALSE));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR));
    for (UINT i = 0; i < 4; ++i) cell(dev, 4 + i, normals1[i], none);
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 0));
    HR(dev->SetTransform(D3DTS_TEXTURE0, &t));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT3));
    for (UINT i = 0; i < 4; ++i) cell(dev, 8 + i, none, coords2[i]);
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
    for (UINT i = 0; i < 4; ++i) cell(dev, 12 + i, none, coords3[i]);
    HR(dev->SetTexture(0, nullptr));
    CHECK(cube->Release() == 0);
  }, 1);
  for (const auto &img : images) {
    for (UINT i = 0; i < 4; ++i) {
      const float *n = normals0[i];
      const float camera[3] = {n[2], n[1], -n[0]};
      probe_cell(img, i, face_color(cube_face(camera)));
      float refl[3];
      reflect_z(normals1[i], refl);
      probe_cell(img, 4 + i, face_color(cube_face(refl)));
      float moved[3];
      row_times(coords2[i], 1.0f, t, moved);
      probe_cell(img, 8 + i, face_color(cube_face(moved)));
      probe_cell(img, 12 + i, face_color(cube_face(coords3[i])));
    }
  }
  // The faces the rows hit (so that the scene covers several faces, not one by accident).
  const float camera0[3] = {normals0[0][2], normals0[0][1], -normals0[0][0]};
  CHECK(cube_face(camera0) == D3DCUBEMAP_FACE_NEGATIVE_Z);
  float refl0[3];
  reflect_z(normals1[0], refl0);
  CHECK(cube_face(refl0) == D3DCUBEMAP_FACE_POSITIVE_X);
}

TEST_CASE("scene: fixed-function volume texture with 3-component coordinates", "[scene][ff][volume]") {
  auto texel = [](UINT i, UINT j, UINT k) { return D3DCOLOR(0xff000000u | (60 + 150 * i) << 16 | (40 + 170 * j) << 8 | (30 + 190 * k)); };
  auto centre = [](UINT i) { return i ? 0.75f : 0.25f; };
  const float none[3] = {0, 0, 0};
  auto images = render_all("ff_volume", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    IDirect3DVolumeTexture9 *vol = nullptr;
    HR(dev->CreateVolumeTexture(2, 2, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &vol, nullptr));
    D3DLOCKED_BOX lb;
    HR(vol->LockBox(0, &lb, nullptr, 0));
    for (UINT k = 0; k < 2; ++k)
      for (UINT j = 0; j < 2; ++j)
        for (UINT i = 0; i < 2; ++i) {
          const D3DCOLOR c = texel(i, j, k);
          std::memcpy(static_cast<uint8_t *>(lb.pBits) + k * UINT(lb.SlicePitch) + j * UINT(lb.RowPitch) + i * 4, &c, 4);
        }
    HR(vol->UnlockBox(0));
    HR(dev->SetTexture(0, vol));
    // Cells 0..7: every texel's centre, passed through.
    for (UINT n = 0; n < 8; ++n) {
      const float tc[3] = {centre(n & 1), centre(n >> 1 & 1), centre(n >> 2 & 1)};
      cell(dev, n, none, tc);
    }
    // Cells 8..15: the same through COUNT3 with w + 0.5 (WRAP: 0.75 + 0.5 = 1.25 reads 0.25).
    D3DMATRIX t = identity();
    t._43 = 0.5f;
    HR(dev->SetTransform(D3DTS_TEXTURE0, &t));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT3));
    for (UINT n = 0; n < 8; ++n) {
      const float tc[3] = {centre(n & 1), centre(n >> 1 & 1), centre(n >> 2 & 1)};
      cell(dev, 8 + n, none, tc);
    }
    HR(dev->SetTexture(0, nullptr));
    CHECK(vol->Release() == 0);
  }, 1);
  for (const auto &img : images)
    for (UINT n = 0; n < 8; ++n) {
      const UINT i = n & 1, j = n >> 1 & 1, k = n >> 2 & 1;
      probe_cell(img, n, texel(i, j, k));
      probe_cell(img, 8 + n, texel(i, j, 1 - k));
    }
}

TEST_CASE("scene: fixed-function sphere-map coordinates", "[scene][ff][spheremap]") {
  // D3D9 does not write the formula down; the pipeline uses OpenGL's (as wined3d does, see
  // frontend/shader/ff/README.md): R = I - 2 (N.I) N with I = (0, 0, 1) without LOCALVIEWER,
  // m = 2 sqrt(Rx^2 + Ry^2 + (Rz + 1)^2), (u, v) = R.xy / m + 0.5. The normals keep (u, v) away
  // from the texel edges of the 4 x 4 texture.
  auto texel = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (30 + 60 * i) << 16 | (200 - 50 * j) << 8 | (20 + 30 * (i + j))); };
  float normals[5][3] = {{0.6f, -0.6f, 0.3f}, {0.8f, 0.5f, 0.2f}, {-0.4f, 0.1f, 0.3f}, {0.1f, 0.6f, 0.4f}, {-0.2f, -0.7f, 0.5f}};
  for (auto &n : normals) normalize(n);
  const float none[3] = {0, 0, 0};
  auto images = render_all("ff_spheremap", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    IDirect3DTexture9 *tex = filled_texture(dev, 4, texel);
    HR(dev->SetTexture(0, tex));
    HR(dev->SetRenderState(D3DRS_LOCALVIEWER, FALSE));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_SPHEREMAP));
    for (UINT n = 0; n < 5; ++n) cell(dev, n, normals[n], none);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 1);
  for (UINT n = 0; n < 5; ++n) {
    float r[3];
    reflect_z(normals[n], r);
    const float m = 2.0f * std::sqrt(r[0] * r[0] + r[1] * r[1] + (r[2] + 1) * (r[2] + 1));
    const float u = r[0] / m + 0.5f, v = r[1] / m + 0.5f;
    // Away from the texel edges, so that rounding cannot pick the neighbour.
    REQUIRE(std::fabs(u * 4 - std::round(u * 4)) > 0.05f);
    REQUIRE(std::fabs(v * 4 - std::round(v * 4)) > 0.05f);
    for (const auto &img : images) probe_cell(img, n, texel(UINT(u * 4), UINT(v * 4)));
  }
}

TEST_CASE("scene: fixed-function vertex tweening of positions and normals", "[scene][ff][tween]") {
  // POSITION = POSITION0 (1 - f) + POSITION1 f, the normals likewise (D3DVBF_TWEENING).
  struct TweenVertex {
    float x0, y0, z0;
    float nx0, ny0, nz0;
    float x1, y1, z1;
    float nx1, ny1, nz1;
    D3DCOLOR color;
  };
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_NORMAL, 0},
      {0, 24, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 1},
      {0, 36, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_NORMAL, 1},
      {0, 48, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0}, D3DDECL_END()};
  // Quad A: pixels x 0..16 at POSITION0, 32..48 at POSITION1 (clip x -1..-0.5 and 0..0.5), rows
  // 0..16; with f = 0.25 it covers x 8..24. Quad B (lit): rows 32..48, x 0..32 at both
  // positions, normal (0, 0, -1) tweened towards (1, 0, 0): 0.75 (0, 0, -1) + 0.25 (1, 0, 0).
  const float f = 0.25f;
  auto quad = [](float x0, float x1, float y0, float y1, float dx, const float n0[3], const float n1[3], D3DCOLOR c,
                 TweenVertex out[4]) {
    const float xs[2] = {x0, x1}, ys[2] = {y0, y1};
    for (int i = 0; i < 4; ++i)
      out[i] = {xs[i & 1], ys[i >> 1], 0.5f, n0[0], n0[1], n0[2], xs[i & 1] + dx, ys[i >> 1], 0.5f, n1[0], n1[1], n1[2], c};
  };
  const float facing[3] = {0, 0, -1}, side[3] = {1, 0, 0};
  TweenVertex a[4], b[4];
  quad(-1.0f, -0.5f, 1.0f, 0.5f, 1.0f, facing, facing, 0xff40c080, a);
  quad(-1.0f, 0.0f, 0.0f, -0.5f, 0.0f, facing, side, 0xffffffff, b);
  auto images = render_all("ff_tween", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    IDirect3DVertexDeclaration9 *decl = nullptr;
    HR(dev->CreateVertexDeclaration(elements, &decl));
    HR(dev->SetVertexDeclaration(decl));
    HR(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_TWEENING));
    HR(dev->SetRenderState(D3DRS_TWEENFACTOR, fbits(f)));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, a, sizeof(TweenVertex)));
    // Lit: a white directional light along +z (L = (0, 0, -1)), material diffuse white, no
    // ambient: diffuse = max(N.L, 0) with N = (0.25, 0, -0.75) (not normalised): 0.75.
    white_light_along_z(dev);
    D3DMATERIAL9 material{};
    material.Diffuse = {1, 1, 1, 1};
    HR(dev->SetMaterial(&material));
    HR(dev->SetRenderState(D3DRS_COLORVERTEX, FALSE));
    HR(dev->SetRenderState(D3DRS_LIGHTING, TRUE));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, b, sizeof(TweenVertex)));
    HR(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_DISABLE));
    HR(dev->SetVertexDeclaration(nullptr));
    CHECK(decl->Release() == 0);
  }, 1);
  for (const auto &img : images) {
    probe(img, 4, 8, kClear, 0);         // left of the tweened quad (POSITION0 alone would cover it)
    probe(img, 16, 8, 0xff40c080, 0);    // inside x 8..24
    probe(img, 28, 8, kClear, 0);        // right of it
    probe(img, 36, 8, kClear, 0);        // POSITION1 alone would cover it
    const DWORD lit = DWORD(std::lround(0.75f * 255.0f));
    probe(img, 16, 40, 0xff000000u | lit << 16 | lit << 8 | lit, 1);
  }
}

TEST_CASE("scene: fixed-function D3DTOP_PREMODULATE modulates with the next stage's texture", "[scene][ff][premodulate]") {
  // The reference rasterizer's PREMODULATE: the stage selects ARG1; the next stage multiplies
  // CURRENT by its own texel (colour for COLOROP PREMODULATE, alpha for ALPHAOP) before its op.
  struct TL {
    float x, y, z, rhw;
    D3DCOLOR diffuse;
    float u, v;
  };
  const D3DCOLOR diffuse = 0xc080ff40, tex0 = 0x80ff8020, tex1 = 0x6040c0a0;
  const Color d = from_d3d(diffuse), t0 = from_d3d(tex0), t1 = from_d3d(tex1), clear = from_d3d(kClear);
  auto quad = [](IDirect3DDevice9 *dev, float x0, float x1, D3DCOLOR c) {
    TL v[4] = {{x0, 0, 0.5f, 1, c, 0, 0}, {x1, 0, 0.5f, 1, c, 1, 0}, {x0, 16, 0.5f, 1, c, 0, 1}, {x1, 16, 0.5f, 1, c, 1, 1}};
    HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TL)));
  };
  auto solid = [](IDirect3DDevice9 *dev, D3DCOLOR c) {
    IDirect3DTexture9 *tex = nullptr;
    HR(dev->CreateTexture(1, 1, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
    D3DLOCKED_RECT lr;
    HR(tex->LockRect(0, &lr, nullptr, 0));
    std::memcpy(lr.pBits, &c, 4);
    HR(tex->UnlockRect(0));
    return tex;
  };
  auto images = render_all("ff_premodulate", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    IDirect3DTexture9 *a = solid(dev, tex0), *b = solid(dev, tex1);
    HR(dev->SetTexture(0, a));
    HR(dev->SetTexture(1, b));
    HR(dev->SetTextureStageState(1, D3DTSS_TEXCOORDINDEX, 0));
    // x 0..16: stage 0 PREMODULATE(diffuse), stage 1 SELECTARG1(CURRENT): diffuse * tex1.
    set_stage(dev, 0, D3DTOP_PREMODULATE, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    set_stage(dev, 1, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE);
    quad(dev, 0, 16, diffuse);
    // x 16..32: stage 0 PREMODULATE(texture 0), stage 1 ADD(TEXTURE, CURRENT): tex0 * tex1 + tex1.
    set_stage(dev, 0, D3DTOP_PREMODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    set_stage(dev, 1, D3DTOP_ADD, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE);
    quad(dev, 16, 32, diffuse);
    // x 32..48: ALPHAOP PREMODULATE too, blended over the clear colour with the result's alpha:
    // colour diffuse * tex1, alpha diffuse.a * tex1.a.
    set_stage(dev, 0, D3DTOP_PREMODULATE, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_PREMODULATE, D3DTA_DIFFUSE, D3DTA_CURRENT);
    set_stage(dev, 1, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE);
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
    quad(dev, 32, 48, diffuse);
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    // x 48..64: the next stage has no texture: CURRENT stays tex0 (what the project does for a
    // stage without a texture).
    HR(dev->SetTexture(1, nullptr));
    set_stage(dev, 0, D3DTOP_PREMODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    set_stage(dev, 1, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_TEXTURE);
    quad(dev, 48, 64, diffuse);
    set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(a->Release() == 0);
    CHECK(b->Release() == 0);
  }, 2);
  const Color mod{d.r * t1.r, d.g * t1.g, d.b * t1.b, 1};
  const Color add{t0.r * t1.r + t1.r, t0.g * t1.g + t1.g, t0.b * t1.b + t1.b, 1};
  const float alpha = d.a * t1.a;
  const Color blended{mod.r * alpha + clear.r * (1 - alpha), mod.g * alpha + clear.g * (1 - alpha),
                      mod.b * alpha + clear.b * (1 - alpha), 1};
  for (const auto &img : images) {
    probe(img, 8, 8, to_d3d(mod), 2);
    probe(img, 24, 8, to_d3d(add), 2);
    probe(img, 40, 8, to_d3d(blended), 2);
    probe(img, 56, 8, tex0, 1);
  }
}

TEST_CASE("scene: fixed-function lighting through a singular world matrix", "[scene][ff][lighting]") {
  // A world matrix without an inverse has no inverse transpose for the normals; Windows lights
  // through the matrix itself (Wine's lighting_test): the normal (0, 0, -1) becomes (-1, 0, -1),
  // which, not normalised, faces the light (0, 0, 1) fully: N.L = 1 and the quad keeps its blue.
  struct NormalColorVertex {
    float x, y, z;
    float nx, ny, nz;
    D3DCOLOR color;
  };
  constexpr DWORD kFVF = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE;
  D3DMATRIX singular{};
  singular._11 = singular._13 = singular._31 = singular._33 = 1;
  singular._22 = 1;
  singular._43 = 0.5f, singular._44 = 1;
  // x in [-0.4, 0.4]: the singular matrix puts z at x + 0.5, inside [0, 1].
  const NormalColorVertex quad[4] = {{-0.4f, 0.5f, 0, 0, 0, -1, 0xff0000ff}, {0.4f, 0.5f, 0, 0, 0, -1, 0xff0000ff},
                                     {-0.4f, -0.5f, 0, 0, 0, -1, 0xff0000ff}, {0.4f, -0.5f, 0, 0, 0, -1, 0xff0000ff}};
  auto images = render_all("ff_singular_world", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    plain_state(dev);
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    white_light_along_z(dev);
    HR(dev->SetTransform(D3DTS_WORLD, &singular));
    HR(dev->SetRenderState(D3DRS_LIGHTING, TRUE));
    HR(dev->SetFVF(kFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, quad, sizeof quad[0]));
  }, 1);
  for (const auto &img : images) probe(img, 32, 32, 0xff0000ff, 1);
}
