// IDirect3DDevice9::ProcessVertices: the fixed-function transform on the CPU for software vertex
// processing (null plugin: the frontend computes everything). Outputs are compared with values
// worked out by hand from D3D9's transform and viewport formulas; invalid calls are refused.
#include "api_fixture.hpp"

#include <bit>
#include <cstring>
#include <vector>

using namespace api_fixture;

namespace {

struct Source {
  float x, y, z;
  D3DCOLOR diffuse;
  float u, v;
};
constexpr DWORD kSourceFVF = D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1;

struct Screen {
  float x, y, z, rhw;
  D3DCOLOR diffuse;
  float u, v;
};
constexpr DWORD kScreenFVF = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;

// A device of software vertex processing on the null plugin, lighting off.
struct SoftwareDevice : NullDevice {
  explicit SoftwareDevice(DWORD behaviour = D3DCREATE_SOFTWARE_VERTEXPROCESSING) : NullDevice(behaviour) {
    REQUIRE(device->SetRenderState(D3DRS_LIGHTING, FALSE) == D3D_OK);
  }
};

IDirect3DVertexBuffer9 *make_buffer(IDirect3DDevice9 *dev, const void *data, UINT size, DWORD fvf) {
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(size, 0, fvf, D3DPOOL_SYSTEMMEM, &vb, nullptr) == D3D_OK);
  void *p = nullptr;
  REQUIRE(vb->Lock(0, 0, &p, 0) == D3D_OK);
  std::memcpy(p, data, size);
  REQUIRE(vb->Unlock() == D3D_OK);
  return vb;
}

template <class T> std::vector<T> read_buffer(IDirect3DVertexBuffer9 *vb, UINT count) {
  void *p = nullptr;
  REQUIRE(vb->Lock(0, 0, &p, D3DLOCK_READONLY) == D3D_OK);
  std::vector<T> out(count);
  std::memcpy(out.data(), p, count * sizeof(T));
  REQUIRE(vb->Unlock() == D3D_OK);
  return out;
}

D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

// World: scale 0.5; view: translate z by +1; projection: perspective with zn = 1, zf = 3
// (_33 = zf / (zf - zn) = 1.5, _34 = 1, _43 = -zn zf / (zf - zn) = -1.5).
void set_transforms(IDirect3DDevice9 *dev) {
  D3DMATRIX world = identity(), view = identity(), proj{};
  world._11 = world._22 = world._33 = 0.5f;
  view._43 = 1.0f;
  proj._11 = proj._22 = 1.0f;
  proj._33 = 1.5f, proj._34 = 1.0f, proj._43 = -1.5f;
  REQUIRE(dev->SetTransform(D3DTS_WORLD, &world) == D3D_OK);
  REQUIRE(dev->SetTransform(D3DTS_VIEW, &view) == D3D_OK);
  REQUIRE(dev->SetTransform(D3DTS_PROJECTION, &proj) == D3D_OK);
}

// Vertex (-1, 1, 2): view (-0.5, 0.5, 2), clip (-0.5, 0.5, 1.5, 2).
// Vertex (2, -2, 0): view (1, -1, 1), clip (1, -1, 0, 1).
const Source kSource[2] = {{-1, 1, 2, 0xff102030, 0.25f, 0.75f}, {2, -2, 0, 0x80405060, 0.5f, 0.125f}};

void check_close(float got, float want) { CHECK(got == Approx(want).margin(1e-4)); }

} // namespace

TEST_CASE("ProcessVertices transforms to the viewport and copies colours and coordinates", "[api][process_vertices]") {
  SoftwareDevice d;
  IDirect3DDevice9 *dev = d.device;
  set_transforms(dev);
  IDirect3DVertexBuffer9 *src = make_buffer(dev, kSource, sizeof kSource, kSourceFVF);
  IDirect3DVertexBuffer9 *dst = nullptr;
  REQUIRE(dev->CreateVertexBuffer(4 * sizeof(Screen), 0, kScreenFVF, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
  REQUIRE(dev->SetFVF(kSourceFVF) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Source)) == D3D_OK);

  // Default viewport (0, 0, 64, 64, 0..1): x = (1 + x/w) 32, y = (1 - y/w) 32, z = z/w, rhw = 1/w.
  REQUIRE(dev->ProcessVertices(0, 0, 2, dst, nullptr, 0) == D3D_OK);
  auto out = read_buffer<Screen>(dst, 2);
  check_close(out[0].x, 24.0f), check_close(out[0].y, 24.0f), check_close(out[0].z, 0.75f), check_close(out[0].rhw, 0.5f);
  check_close(out[1].x, 64.0f), check_close(out[1].y, 64.0f), check_close(out[1].z, 0.0f), check_close(out[1].rhw, 1.0f);
  CHECK(out[0].diffuse == 0xff102030);
  CHECK(out[1].diffuse == 0x80405060);
  check_close(out[0].u, 0.25f), check_close(out[0].v, 0.75f);
  check_close(out[1].u, 0.5f), check_close(out[1].v, 0.125f);

  // Viewport (8, 4, 32 x 16, 0.5..1), source vertex 1 into destination vertex 3:
  // x = 8 + (1 + 1) 16 = 40, y = 4 + (1 + 1) 8 = 20, z = 0.5 + 0 * 0.5 = 0.5.
  D3DVIEWPORT9 vp{8, 4, 32, 16, 0.5f, 1.0f};
  REQUIRE(dev->SetViewport(&vp) == D3D_OK);
  REQUIRE(dev->ProcessVertices(1, 3, 1, dst, nullptr, 0) == D3D_OK);
  out = read_buffer<Screen>(dst, 4);
  check_close(out[3].x, 40.0f), check_close(out[3].y, 20.0f), check_close(out[3].z, 0.5f), check_close(out[3].rhw, 1.0f);
  CHECK(out[3].diffuse == 0x80405060);
  // Vertex 0 there: x = 8 + 0.75 * 16 = 20, y = 4 + 0.75 * 8 = 10, z = 0.5 + 0.75 * 0.5 = 0.875.
  REQUIRE(dev->ProcessVertices(0, 2, 1, dst, nullptr, 0) == D3D_OK);
  out = read_buffer<Screen>(dst, 4);
  check_close(out[2].x, 20.0f), check_close(out[2].y, 10.0f), check_close(out[2].z, 0.875f), check_close(out[2].rhw, 0.5f);

  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
}

TEST_CASE("ProcessVertices with D3DPV_DONOTCOPYDATA writes only what the transform produces", "[api][process_vertices]") {
  SoftwareDevice d;
  IDirect3DDevice9 *dev = d.device;
  set_transforms(dev);
  IDirect3DVertexBuffer9 *src = make_buffer(dev, kSource, sizeof kSource, kSourceFVF);
  const Screen sentinel[2] = {{-7, -7, -7, -7, 0x11223344, -7, -7}, {-7, -7, -7, -7, 0x11223344, -7, -7}};
  IDirect3DVertexBuffer9 *dst = make_buffer(dev, sentinel, sizeof sentinel, kScreenFVF);
  REQUIRE(dev->SetFVF(kSourceFVF) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Source)) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 2, dst, nullptr, D3DPV_DONOTCOPYDATA) == D3D_OK);
  auto out = read_buffer<Screen>(dst, 2);
  check_close(out[0].x, 24.0f), check_close(out[0].rhw, 0.5f);
  CHECK(out[0].diffuse == 0x11223344);   // not affected by the vertex operation: left alone
  check_close(out[0].u, -7.0f);

  // A texture transform affects the coordinates: stage 0, COUNT2, (u, v, 1, 0) * M with
  // _11 = 2, _22 = 1, _31 = 0.5 (translation in u), _32 = -0.25: (2u + 0.5, v - 0.25).
  D3DMATRIX tm = identity();
  tm._11 = 2.0f, tm._31 = 0.5f, tm._32 = -0.25f;
  REQUIRE(dev->SetTransform(D3DTS_TEXTURE0, &tm) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT2) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 2, dst, nullptr, D3DPV_DONOTCOPYDATA) == D3D_OK);
  out = read_buffer<Screen>(dst, 2);
  check_close(out[0].u, 1.0f), check_close(out[0].v, 0.5f);
  check_close(out[1].u, 1.5f), check_close(out[1].v, -0.125f);
  CHECK(out[1].diffuse == 0x11223344);

  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
}

TEST_CASE("ProcessVertices: generated coordinates, a destination declaration and tweening", "[api][process_vertices]") {
  SoftwareDevice d;
  IDirect3DDevice9 *dev = d.device;
  set_transforms(dev);
  // Source: POSITION0, POSITION1 and NORMAL0.
  struct Tween {
    float x0, y0, z0, x1, y1, z1, nx, ny, nz;
  };
  const Tween src_data[1] = {{-1, 1, 2, 3, -3, 2, 0, 0, -2}};
  const D3DVERTEXELEMENT9 src_elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 1},
      {0, 24, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_NORMAL, 0}, D3DDECL_END()};
  // Destination (a buffer without FVF, described by a declaration): POSITIONT and a 3-component
  // TEXCOORD0.
  struct Out {
    float x, y, z, rhw, s, t, r;
  };
  const D3DVERTEXELEMENT9 dst_elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITIONT, 0},
      {0, 16, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0}, D3DDECL_END()};
  IDirect3DVertexDeclaration9 *src_decl = nullptr, *dst_decl = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(src_elements, &src_decl) == D3D_OK);
  REQUIRE(dev->CreateVertexDeclaration(dst_elements, &dst_decl) == D3D_OK);
  IDirect3DVertexBuffer9 *src = make_buffer(dev, src_data, sizeof src_data, 0);
  IDirect3DVertexBuffer9 *dst = nullptr;
  REQUIRE(dev->CreateVertexBuffer(sizeof(Out), 0, 0, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(src_decl) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Tween)) == D3D_OK);
  // A buffer without an FVF needs the declaration.
  CHECK(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3DERR_INVALIDCALL);

  // Tweening with factor 0.25: position (-1, 1, 2) + 0.25 ((3, -3, 2) - (-1, 1, 2)) = (0, 0, 2);
  // view (0, 0, 2), clip (0, 0, 1.5, 2): x = y = 32, z = 0.75, rhw = 0.5.
  // CAMERASPACEPOSITION on stage 0: the view position (0, 0, 2).
  REQUIRE(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_TWEENING) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_TWEENFACTOR, std::bit_cast<DWORD>(0.25f)) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACEPOSITION) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, dst_decl, 0) == D3D_OK);
  auto out = read_buffer<Out>(dst, 1);
  check_close(out[0].x, 32.0f), check_close(out[0].y, 32.0f), check_close(out[0].z, 0.75f), check_close(out[0].rhw, 0.5f);
  check_close(out[0].s, 0.0f), check_close(out[0].t, 0.0f), check_close(out[0].r, 2.0f);

  // CAMERASPACENORMAL: the normal (0, 0, -2) through the inverse transpose of World * View
  // (scale 0.5, so the inverse transpose scales by 2): (0, 0, -4); NORMALIZENORMALS: (0, 0, -1).
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACENORMAL) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, dst_decl, 0) == D3D_OK);
  out = read_buffer<Out>(dst, 1);
  check_close(out[0].s, 0.0f), check_close(out[0].t, 0.0f), check_close(out[0].r, -4.0f);
  REQUIRE(dev->SetRenderState(D3DRS_NORMALIZENORMALS, TRUE) == D3D_OK);
  // CAMERASPACEREFLECTIONVECTOR without LOCALVIEWER: I = (0, 0, 1), N = (0, 0, -1),
  // R = I - 2 (N.I) N = (0, 0, 1) - 2 (-1) (0, 0, -1) = (0, 0, -1).
  REQUIRE(dev->SetRenderState(D3DRS_LOCALVIEWER, FALSE) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, dst_decl, 0) == D3D_OK);
  out = read_buffer<Out>(dst, 1);
  check_close(out[0].s, 0.0f), check_close(out[0].t, 0.0f), check_close(out[0].r, -1.0f);

  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
  CHECK(src_decl->Release() == 0);
  CHECK(dst_decl->Release() == 0);
}

TEST_CASE("ProcessVertices lights the colours with D3D9's lighting", "[api][process_vertices]") {
  SoftwareDevice d;
  IDirect3DDevice9 *dev = d.device;
  set_transforms(dev);
  struct Lit {
    float x, y, z, nx, ny, nz;
    D3DCOLOR diffuse;
  };
  const Lit src_data[1] = {{-1, 1, 2, 0, 0, -2, 0xff00ff00}};
  IDirect3DVertexBuffer9 *src = make_buffer(dev, src_data, sizeof src_data, D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE);
  struct Out {
    float x, y, z, rhw;
    D3DCOLOR diffuse, specular;
  };
  const Out sentinel = {0, 0, 0, 0, 0x11111111, 0x22222222};
  IDirect3DVertexBuffer9 *dst = make_buffer(dev, &sentinel, sizeof sentinel, D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR);
  REQUIRE(dev->SetFVF(D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Lit)) == D3D_OK);
  // A directional light along +z (L = (0, 0, -1)); the normal (0, 0, -2) through the inverse
  // transpose of World * View is (0, 0, -4), normalised (0, 0, -1): N.L = 1. Material diffuse
  // (128, 64, 255)/255 (COLORVERTEX off), ambient material white with D3DRS_AMBIENT 0x202020:
  // diffuse = Ca Ga + Cd (N.L) = (160, 96, 255 + 32 -> 255)/255, alpha Cd.a = 1.
  D3DLIGHT9 light{};
  light.Type = D3DLIGHT_DIRECTIONAL;
  light.Diffuse = {1, 1, 1, 1};
  light.Direction = {0, 0, 1};
  REQUIRE(dev->SetLight(0, &light) == D3D_OK);
  REQUIRE(dev->LightEnable(0, TRUE) == D3D_OK);
  D3DMATERIAL9 material{};
  material.Diffuse = {128 / 255.0f, 64 / 255.0f, 1, 1};
  material.Ambient = {1, 1, 1, 1};
  REQUIRE(dev->SetMaterial(&material) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_AMBIENT, 0x00202020) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_COLORVERTEX, FALSE) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_NORMALIZENORMALS, TRUE) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_LIGHTING, TRUE) == D3D_OK);
  // The lit colours are affected by the vertex operation: written even with DONOTCOPYDATA.
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, nullptr, D3DPV_DONOTCOPYDATA) == D3D_OK);
  auto out = read_buffer<Out>(dst, 1);
  check_close(out[0].x, 24.0f), check_close(out[0].rhw, 0.5f);
  CHECK(out[0].diffuse == 0xffa060ff);
  CHECK(out[0].specular == 0x00000000);   // SPECULARENABLE off: no specular
  // COLORVERTEX with the default DIFFUSEMATERIALSOURCE COLOR1: Cd is the vertex's green.
  REQUIRE(dev->SetRenderState(D3DRS_COLORVERTEX, TRUE) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3D_OK);
  out = read_buffer<Out>(dst, 1);
  CHECK(out[0].diffuse == 0xff20ff20);
  // SPECULARENABLE (non-local viewer V = (0, 0, -1)): H = normalize(L + V) = (0, 0, -1), N.H = 1,
  // specular = Cs Ls 1^Power = (0.5, 0.25, 1) with Cs (128, 64, 255)/255, alpha Cs.a = 1.
  light.Specular = {1, 1, 1, 1};
  REQUIRE(dev->SetLight(0, &light) == D3D_OK);
  material.Specular = {128 / 255.0f, 64 / 255.0f, 1, 1};
  material.Power = 8;
  REQUIRE(dev->SetMaterial(&material) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_COLORVERTEX, FALSE) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_LOCALVIEWER, FALSE) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_SPECULARENABLE, TRUE) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3D_OK);
  out = read_buffer<Out>(dst, 1);
  CHECK(out[0].diffuse == 0xffa060ff);
  CHECK(out[0].specular == 0xff8040ff);

  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
}

TEST_CASE("ProcessVertices blends world matrices, indexed or not", "[api][process_vertices]") {
  SoftwareDevice d;
  IDirect3DDevice9 *dev = d.device;
  // Identity view and projection, default viewport: x = (1 + vx) 32, y = (1 - vy) 32.
  D3DMATRIX w0 = identity(), w1 = identity(), w3 = identity();
  w0._41 = 0.4f;    // World(0) moves x by 0.4
  w1._42 = 0.8f;    // World(1) moves y by 0.8
  w3._41 = -0.5f;   // World(3) moves x by -0.5
  REQUIRE(dev->SetTransform(D3DTS_WORLDMATRIX(0), &w0) == D3D_OK);
  REQUIRE(dev->SetTransform(D3DTS_WORLDMATRIX(1), &w1) == D3D_OK);
  REQUIRE(dev->SetTransform(D3DTS_WORLDMATRIX(3), &w3) == D3D_OK);
  struct Blend {
    float x, y, z, weight;
    BYTE indices[4];
  };
  const Blend src_data[1] = {{0, 0, 0.5f, 0.25f, {3, 0, 0, 0}}};
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_FLOAT1, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_BLENDWEIGHT, 0},
      {0, 16, D3DDECLTYPE_UBYTE4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_BLENDINDICES, 0}, D3DDECL_END()};
  IDirect3DVertexDeclaration9 *decl = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(elements, &decl) == D3D_OK);
  IDirect3DVertexBuffer9 *src = make_buffer(dev, src_data, sizeof src_data, 0);
  IDirect3DVertexBuffer9 *dst = nullptr;
  REQUIRE(dev->CreateVertexBuffer(16, 0, D3DFVF_XYZRHW, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(decl) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Blend)) == D3D_OK);
  struct Out {
    float x, y, z, rhw;
  };
  // D3DVBF_1WEIGHTS: 0.25 World(0) + 0.75 World(1): view (0.1, 0.6, 0.5): x = 35.2, y = 12.8.
  REQUIRE(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_1WEIGHTS) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3D_OK);
  auto out = read_buffer<Out>(dst, 1);
  check_close(out[0].x, 35.2f), check_close(out[0].y, 12.8f), check_close(out[0].z, 0.5f), check_close(out[0].rhw, 1.0f);
  // D3DVBF_0WEIGHTS with INDEXEDVERTEXBLENDENABLE: World(3) alone: view (-0.5, 0, 0.5): x = 16, y = 32.
  REQUIRE(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_0WEIGHTS) == D3D_OK);
  REQUIRE(dev->SetRenderState(D3DRS_INDEXEDVERTEXBLENDENABLE, TRUE) == D3D_OK);
  REQUIRE(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3D_OK);
  out = read_buffer<Out>(dst, 1);
  check_close(out[0].x, 16.0f), check_close(out[0].y, 32.0f);

  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
  CHECK(decl->Release() == 0);
}

TEST_CASE("ProcessVertices refuses invalid calls", "[api][process_vertices]") {
  SECTION("hardware and mixed vertex processing process vertices too") {
    for (DWORD flags : {DWORD(D3DCREATE_HARDWARE_VERTEXPROCESSING), DWORD(D3DCREATE_MIXED_VERTEXPROCESSING)}) {
      CAPTURE(flags);
      SoftwareDevice d(flags);
      IDirect3DVertexBuffer9 *dst = nullptr;
      REQUIRE(d.device->CreateVertexBuffer(2 * sizeof(Screen), 0, kScreenFVF, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
      REQUIRE(d.device->SetFVF(kSourceFVF) == D3D_OK);
      IDirect3DVertexBuffer9 *src = make_buffer(d.device, kSource, sizeof kSource, kSourceFVF);
      REQUIRE(d.device->SetStreamSource(0, src, 0, sizeof(Source)) == D3D_OK);
      set_transforms(d.device);
      CHECK(d.device->ProcessVertices(0, 0, 2, dst, nullptr, 0) == D3D_OK);
      // The same vertices as on a software device.
      const auto out = read_buffer<Screen>(dst, 2);
      check_close(out[0].x, 24.0f), check_close(out[0].y, 24.0f), check_close(out[0].z, 0.75f), check_close(out[0].rhw, 0.5f);
      check_close(out[1].x, 64.0f), check_close(out[1].y, 64.0f), check_close(out[1].z, 0.0f), check_close(out[1].rhw, 1.0f);
      CHECK(out[1].diffuse == 0x80405060);
      REQUIRE(d.device->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
      CHECK(src->Release() == 0);
      CHECK(dst->Release() == 0);
    }
  }
  SECTION("mixed vertex processing, whichever SetSoftwareVertexProcessing") {
    SoftwareDevice d(D3DCREATE_MIXED_VERTEXPROCESSING);
    IDirect3DVertexBuffer9 *dst = nullptr;
    REQUIRE(d.device->CreateVertexBuffer(2 * sizeof(Screen), 0, kScreenFVF, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
    REQUIRE(d.device->SetFVF(kSourceFVF) == D3D_OK);
    IDirect3DVertexBuffer9 *src = make_buffer(d.device, kSource, sizeof kSource, kSourceFVF);
    REQUIRE(d.device->SetStreamSource(0, src, 0, sizeof(Source)) == D3D_OK);
    REQUIRE(d.device->SetSoftwareVertexProcessing(TRUE) == D3D_OK);
    CHECK(d.device->ProcessVertices(0, 0, 2, dst, nullptr, 0) == D3D_OK);
    REQUIRE(d.device->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
    CHECK(src->Release() == 0);
    CHECK(dst->Release() == 0);
  }
  SECTION("destinations, ranges, sources and vertex shaders") {
    SoftwareDevice d;
    IDirect3DDevice9 *dev = d.device;
    IDirect3DVertexBuffer9 *dst = nullptr, *xyz_dst = nullptr;
    REQUIRE(dev->CreateVertexBuffer(2 * sizeof(Screen), 0, kScreenFVF, D3DPOOL_SYSTEMMEM, &dst, nullptr) == D3D_OK);
    REQUIRE(dev->CreateVertexBuffer(2 * sizeof(Source), 0, kSourceFVF, D3DPOOL_SYSTEMMEM, &xyz_dst, nullptr) == D3D_OK);
    REQUIRE(dev->SetFVF(kSourceFVF) == D3D_OK);
    // No stream bound: nothing to read.
    CHECK(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3DERR_INVALIDCALL);
    IDirect3DVertexBuffer9 *src = make_buffer(dev, kSource, sizeof kSource, kSourceFVF);
    REQUIRE(dev->SetStreamSource(0, src, 0, sizeof(Source)) == D3D_OK);
    CHECK(dev->ProcessVertices(0, 0, 1, nullptr, nullptr, 0) == D3DERR_INVALIDCALL);
    CHECK(dev->ProcessVertices(0, 0, 1, xyz_dst, nullptr, 0) == D3DERR_INVALIDCALL);   // no XYZRHW
    CHECK(dev->ProcessVertices(0, 1, 2, dst, nullptr, 0) == D3DERR_INVALIDCALL);       // past the destination
    CHECK(dev->ProcessVertices(1, 0, 2, dst, nullptr, 0) == D3DERR_INVALIDCALL);       // past the source
    CHECK(dev->ProcessVertices(0, 0, 2, dst, nullptr, 0) == D3D_OK);
    // Pre-transformed sources have no position to transform.
    REQUIRE(dev->SetFVF(kScreenFVF) == D3D_OK);
    CHECK(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3DERR_INVALIDCALL);
    REQUIRE(dev->SetFVF(kSourceFVF) == D3D_OK);
    // A vertex shader is not run on the CPU.
    const DWORD vs[] = {0xfffe0101, 0x0000001f, 0x80000000, 0x900f0000, 0x00000001, 0xc00f0000, 0x90e40000, 0x0000ffff};
    IDirect3DVertexShader9 *shader = nullptr;
    REQUIRE(dev->CreateVertexShader(vs, &shader) == D3D_OK);
    REQUIRE(dev->SetVertexShader(shader) == D3D_OK);
    CHECK(dev->ProcessVertices(0, 0, 1, dst, nullptr, 0) == D3DERR_INVALIDCALL);
    REQUIRE(dev->SetVertexShader(nullptr) == D3D_OK);
    CHECK(shader->Release() == 0);
    REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
    CHECK(src->Release() == 0);
    CHECK(dst->Release() == 0);
    CHECK(xyz_dst->Release() == 0);
  }
}
