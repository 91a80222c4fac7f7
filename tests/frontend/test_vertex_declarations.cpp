// Vertex declarations at the API, as Windows answers: the declaration SetFVF makes for every FVF
// bit, the FVF GetFVF reports after SetVertexDeclaration, CreateVertexDeclaration's refusals,
// the vertex size of an FVF, and the declaration types the caps report. Windows' answers are the
// ones Wine's d3d9 tests record (device.c: test_fvf_decl_conversion, test_fvf_decl_management,
// test_vertex_declaration_alignment, test_unused_declaration_type).
#include <cstring>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

D3DVERTEXELEMENT9 el(WORD offset, BYTE type, BYTE usage, BYTE index = 0) {
  return D3DVERTEXELEMENT9{0, offset, type, D3DDECLMETHOD_DEFAULT, usage, index};
}

// The declaration bound now, without its end marker.
std::vector<D3DVERTEXELEMENT9> bound_elements(IDirect3DDevice9 *dev) {
  IDirect3DVertexDeclaration9 *decl = nullptr;
  REQUIRE(dev->GetVertexDeclaration(&decl) == D3D_OK);
  REQUIRE(decl != nullptr);
  UINT count = 0;
  REQUIRE(decl->GetDeclaration(nullptr, &count) == D3D_OK);
  std::vector<D3DVERTEXELEMENT9> out(count);
  REQUIRE(decl->GetDeclaration(out.data(), &count) == D3D_OK);
  decl->Release();
  const D3DVERTEXELEMENT9 end = D3DDECL_END();
  REQUIRE(!out.empty());
  CHECK(std::memcmp(&out.back(), &end, sizeof end) == 0);
  out.pop_back();
  return out;
}

bool same(const std::vector<D3DVERTEXELEMENT9> &a, const std::vector<D3DVERTEXELEMENT9> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) == 0;
}

struct FvfCase {
  DWORD fvf;
  std::vector<D3DVERTEXELEMENT9> elements;
};

const std::vector<FvfCase> &fvf_cases() {
  static const std::vector<FvfCase> c = {
      {D3DFVF_XYZ, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION)}},
      {D3DFVF_XYZW, {el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITION)}},
      {D3DFVF_XYZRHW, {el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT)}},
      // Five betas: four weights, and the fifth is the indices even without a LASTBETA flag.
      {D3DFVF_XYZB5, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
                      el(28, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB5 | D3DFVF_LASTBETA_UBYTE4,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
        el(28, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB5 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
        el(28, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDINDICES)}},
      // UBYTE4 wins when both LASTBETA flags are set.
      {D3DFVF_XYZB5 | D3DFVF_LASTBETA_UBYTE4 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
        el(28, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB1, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_BLENDWEIGHT)}},
      {D3DFVF_XYZB1 | D3DFVF_LASTBETA_UBYTE4,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB1 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB2, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_BLENDWEIGHT)}},
      {D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_BLENDWEIGHT),
        el(16, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      // Windows' odd one: a D3DCOLOR weight and UBYTE4 indices.
      {D3DFVF_XYZB2 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDWEIGHT),
        el(16, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB3, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_BLENDWEIGHT)}},
      {D3DFVF_XYZB3 | D3DFVF_LASTBETA_UBYTE4,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_BLENDWEIGHT),
        el(20, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB3 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_BLENDWEIGHT),
        el(20, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB4, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT)}},
      {D3DFVF_XYZB4 | D3DFVF_LASTBETA_UBYTE4,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_BLENDWEIGHT),
        el(24, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}},
      {D3DFVF_XYZB4 | D3DFVF_LASTBETA_D3DCOLOR,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_BLENDWEIGHT),
        el(24, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDINDICES)}},
      // LASTBETA flags mean nothing without blend weights.
      {D3DFVF_XYZ | D3DFVF_LASTBETA_UBYTE4, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION)}},
      // No position: the elements start at 0.
      {D3DFVF_NORMAL, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL)}},
      {D3DFVF_PSIZE, {el(0, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE)}},
      {D3DFVF_DIFFUSE, {el(0, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR)}},
      {D3DFVF_SPECULAR, {el(0, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1)}},
      {D3DFVF_TEXCOORDSIZE1(0) | D3DFVF_TEX1, {el(0, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_TEXCOORD)}},
      {D3DFVF_TEXCOORDSIZE2(0) | D3DFVF_TEX1, {el(0, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD)}},
      {D3DFVF_TEXCOORDSIZE3(0) | D3DFVF_TEX1, {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_TEXCOORD)}},
      {D3DFVF_TEXCOORDSIZE4(0) | D3DFVF_TEX1, {el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_TEXCOORD)}},
      {D3DFVF_TEXCOORDSIZE1(0) | D3DFVF_TEXCOORDSIZE3(1) | D3DFVF_TEXCOORDSIZE2(2) | D3DFVF_TEXCOORDSIZE4(3) | D3DFVF_TEX4,
       {el(0, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_TEXCOORD, 0), el(4, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_TEXCOORD, 1),
        el(16, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 2), el(24, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_TEXCOORD, 3)}},
      {D3DFVF_XYZB4 | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEXCOORDSIZE2(0) | D3DFVF_TEXCOORDSIZE3(1) | D3DFVF_TEX2,
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
        el(28, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 0), el(32, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1),
        el(36, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 0), el(44, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_TEXCOORD, 1)}},
      {D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_PSIZE | D3DFVF_SPECULAR | D3DFVF_TEX2 | D3DFVF_TEXCOORDSIZE1(0) |
           D3DFVF_TEXCOORDSIZE4(1),
       {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL),
        el(24, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE), el(28, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1),
        el(32, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_TEXCOORD, 0), el(36, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_TEXCOORD, 1)}},
      // Eight texture coordinate sets, default size 2 (TEXCOORDSIZE2 is 0).
      {D3DFVF_XYZRHW | D3DFVF_TEX8,
       {el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT), el(16, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 0),
        el(24, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 1), el(32, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 2),
        el(40, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 3), el(48, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 4),
        el(56, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 5), el(64, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 6),
        el(72, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 7)}},
  };
  return c;
}

} // namespace

TEST_CASE("SetFVF: the declaration GetVertexDeclaration answers for every FVF bit", "[api][vertex]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  const D3DVERTEXELEMENT9 other[] = {{0, 0, D3DDECLTYPE_D3DCOLOR, 0, D3DDECLUSAGE_COLOR, 0},
                                     {0, 4, D3DDECLTYPE_D3DCOLOR, 0, D3DDECLUSAGE_COLOR, 1}, D3DDECL_END()};
  IDirect3DVertexDeclaration9 *default_decl = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(other, &default_decl) == D3D_OK);
  for (const FvfCase &c : fvf_cases()) {
    INFO("FVF 0x" << std::hex << c.fvf);
    REQUIRE(dev->SetVertexDeclaration(default_decl) == D3D_OK);
    REQUIRE(dev->SetFVF(c.fvf) == D3D_OK);
    CHECK(same(bound_elements(dev), c.elements));
    DWORD fvf = 0;
    REQUIRE(dev->GetFVF(&fvf) == D3D_OK);
    CHECK(fvf == c.fvf);
  }
  // FVF 0 leaves the declaration bound.
  REQUIRE(dev->SetVertexDeclaration(default_decl) == D3D_OK);
  REQUIRE(dev->SetFVF(0) == D3D_OK);
  IDirect3DVertexDeclaration9 *bound = nullptr;
  REQUIRE(dev->GetVertexDeclaration(&bound) == D3D_OK);
  CHECK(bound == default_decl);
  bound->Release();
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  CHECK(default_decl->Release() == 0);
}

TEST_CASE("SetVertexDeclaration: the FVF GetFVF answers", "[api][vertex]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  struct DeclCase {
    std::vector<D3DVERTEXELEMENT9> elements;
    DWORD fvf;
  };
  // A lone FLOAT3 POSITION or FLOAT4 POSITIONT converts, elements without a position do not
  // (Windows, Wine's test); whole FVF layouts with a position convert (DXVK, from Windows' WHQL
  // test); a layout no FVF has does not.
  const std::vector<DeclCase> cases = {
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR)},
       D3DFVF_XYZ | D3DFVF_DIFFUSE},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT),
        el(28, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 0), el(32, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1),
        el(36, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD, 0), el(44, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_TEXCOORD, 1)},
       D3DFVF_XYZB4 | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEXCOORDSIZE2(0) | D3DFVF_TEXCOORDSIZE3(1) | D3DFVF_TEX2},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_BLENDWEIGHT),
        el(16, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)},
       D3DFVF_XYZB2 | D3DFVF_LASTBETA_D3DCOLOR},
      {{el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT), el(16, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR),
        el(20, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD)},
       D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1},
      // Padding, the wrong order, a FLOAT4 POSITION, another stream: no FVF.
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(16, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR),
        el(16, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL)},
       0},
      {{el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITION)}, 0},
      {{{1, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0}}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(12, D3DDECLTYPE_SHORT2, D3DDECLUSAGE_TEXCOORD)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION)}, D3DFVF_XYZ},
      {{el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT)}, D3DFVF_XYZRHW},
      {{el(0, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_BLENDWEIGHT)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_BLENDWEIGHT)}, 0},
      {{el(0, D3DDECLTYPE_UBYTE4, D3DDECLUSAGE_BLENDINDICES)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE)}, 0},
      {{el(0, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR)}, 0},
      {{el(0, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION, 1)}, 0},
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL, 1)}, 0},
      {{}, 0},
      {{el(0, D3DDECLTYPE_FLOAT2, D3DDECLUSAGE_TEXCOORD)}, 0},
      // POSITIONT with FLOAT3 is accepted, and converts to nothing.
      {{el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITIONT), el(12, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL),
        el(24, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE), el(28, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1),
        el(32, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_TEXCOORD, 0), el(44, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_TEXCOORD, 1)},
       0},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    REQUIRE(dev->SetFVF(D3DFVF_DIFFUSE | D3DFVF_SPECULAR) == D3D_OK);
    std::vector<D3DVERTEXELEMENT9> elements = cases[i].elements;
    elements.push_back(D3DDECL_END());
    IDirect3DVertexDeclaration9 *decl = nullptr;
    REQUIRE(dev->CreateVertexDeclaration(elements.data(), &decl) == D3D_OK);
    REQUIRE(dev->SetVertexDeclaration(decl) == D3D_OK);
    DWORD fvf = 0xdeadbeef;
    REQUIRE(dev->GetFVF(&fvf) == D3D_OK);
    CHECK(fvf == cases[i].fvf);
    REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
    CHECK(decl->Release() == 0);
  }
  // The declaration an FVF made gives that FVF back when it is set again.
  REQUIRE(dev->SetFVF(D3DFVF_XYZB2 | D3DFVF_NORMAL) == D3D_OK);
  IDirect3DVertexDeclaration9 *made = nullptr;
  REQUIRE(dev->GetVertexDeclaration(&made) == D3D_OK);
  REQUIRE(dev->SetFVF(D3DFVF_XYZ) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(made) == D3D_OK);
  DWORD fvf = 0;
  REQUIRE(dev->GetFVF(&fvf) == D3D_OK);
  CHECK(fvf == (D3DFVF_XYZB2 | D3DFVF_NORMAL));
  made->Release();
}

TEST_CASE("SetFVF: one declaration per FVF, shared and counted as Windows", "[api][vertex]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  IDirect3DVertexDeclaration9 *d1 = nullptr, *d2 = nullptr, *d3 = nullptr, *d4 = nullptr;
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW) == D3D_OK);
  REQUIRE(dev->GetVertexDeclaration(&d1) == D3D_OK);
  REQUIRE(dev->GetVertexDeclaration(&d2) == D3D_OK);
  CHECK(d1 == d2);
  REQUIRE(dev->SetFVF(D3DFVF_NORMAL) == D3D_OK);
  REQUIRE(dev->GetVertexDeclaration(&d3) == D3D_OK);
  CHECK(d3 != d1);
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW) == D3D_OK);
  REQUIRE(dev->GetVertexDeclaration(&d4) == D3D_OK);
  CHECK(d4 == d1);
  // Public references only: the device's own hold does not show (Windows: 3 and 1).
  CHECK(refcount(d1) == 3);
  CHECK(refcount(d3) == 1);
  d4->Release();
  d3->Release();
  d2->Release();
  d1->Release();
}

TEST_CASE("CreateVertexDeclaration: Windows' refusals", "[api][vertex]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  IDirect3DVertexDeclaration9 *decl = nullptr;
  // Offsets must be multiples of 4: E_FAIL, not D3DERR_INVALIDCALL.
  for (WORD offset : {16, 17, 18, 19, 20}) {
    INFO("offset " << offset);
    const D3DVERTEXELEMENT9 e[] = {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION),
                                   el(offset, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR), D3DDECL_END()};
    HRESULT hr = dev->CreateVertexDeclaration(e, &decl);
    CHECK(hr == (offset % 4 ? E_FAIL : D3D_OK));
    if (hr == D3D_OK) CHECK(decl->Release() == 0);
  }
  // An UNUSED element that is not the end marker, in any stream, usage or index: E_FAIL.
  const D3DVERTEXELEMENT9 unused[][3] = {
      {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(16, D3DDECLTYPE_UNUSED, D3DDECLUSAGE_COLOR), D3DDECL_END()},
      {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), el(16, D3DDECLTYPE_UNUSED, D3DDECLUSAGE_TEXCOORD, 12), D3DDECL_END()},
      {el(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION), {1, 16, D3DDECLTYPE_UNUSED, 0, D3DDECLUSAGE_NORMAL, 0}, D3DDECL_END()},
  };
  for (const auto &e : unused) CHECK(dev->CreateVertexDeclaration(e, &decl) == E_FAIL);
  // Every real type is accepted, with every usage.
  for (BYTE type = D3DDECLTYPE_FLOAT1; type <= D3DDECLTYPE_FLOAT16_4; ++type) {
    INFO("type " << int(type));
    const D3DVERTEXELEMENT9 e[] = {el(0, type, D3DDECLUSAGE_TEXCOORD, 3), D3DDECL_END()};
    REQUIRE(dev->CreateVertexDeclaration(e, &decl) == D3D_OK);
    CHECK(decl->Release() == 0);
  }
  const D3DVERTEXELEMENT9 bad_type[] = {el(0, D3DDECLTYPE_UNUSED + 1, D3DDECLUSAGE_POSITION), D3DDECL_END()};
  CHECK(dev->CreateVertexDeclaration(bad_type, &decl) == E_FAIL);
  const D3DVERTEXELEMENT9 bad_stream[] = {{16, 0, D3DDECLTYPE_FLOAT3, 0, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};
  CHECK(dev->CreateVertexDeclaration(bad_stream, &decl) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateVertexDeclaration(nullptr, &decl) == D3DERR_INVALIDCALL);
}

TEST_CASE("CreateVertexBuffer: an FVF buffer holds at least one vertex of the FVF's size", "[api][vertex]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  struct SizeCase {
    DWORD fvf;
    UINT size;
  };
  // D3DXGetFVFVertexSize's answers (Wine's d3dx9 tests) for the same FVFs.
  const SizeCase cases[] = {
      {D3DFVF_XYZ, 12},
      {D3DFVF_XYZB3, 24},
      {D3DFVF_XYZB5, 32},
      {D3DFVF_XYZB5 | D3DFVF_LASTBETA_UBYTE4, 32},
      {D3DFVF_XYZW | D3DFVF_NORMAL, 28},
      {D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR, 24},
      {D3DFVF_XYZ | D3DFVF_PSIZE | D3DFVF_TEX2 | D3DFVF_TEXCOORDSIZE1(0) | D3DFVF_TEXCOORDSIZE4(1), 36},
      {D3DFVF_DIFFUSE, 4},
  };
  for (const SizeCase &c : cases) {
    INFO("FVF 0x" << std::hex << c.fvf);
    IDirect3DVertexBuffer9 *vb = nullptr;
    CHECK(dev->CreateVertexBuffer(c.size - 1, 0, c.fvf, D3DPOOL_MANAGED, &vb, nullptr) == D3DERR_INVALIDCALL);
    REQUIRE(dev->CreateVertexBuffer(c.size, 0, c.fvf, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
    CHECK(vb->Release() == 0);
  }
}

TEST_CASE("caps: DeclTypes names the types the plugin reads, UDEC3 and DEC3N included", "[api][vertex][backends]") {
  for (const char *backend : {"vulkan", "opengl"}) {
    Backend b(backend);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    REQUIRE(d3d != nullptr);
    D3DCAPS9 caps{};
    if (d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps) != D3D_OK) {
      WARN(backend << " cannot start here");
      d3d->Release();
      continue;
    }
    INFO(backend);
    const DWORD expected = D3DDTCAPS_UBYTE4 | D3DDTCAPS_UBYTE4N | D3DDTCAPS_SHORT2N | D3DDTCAPS_SHORT4N |
                           D3DDTCAPS_USHORT2N | D3DDTCAPS_USHORT4N | D3DDTCAPS_UDEC3 | D3DDTCAPS_DEC3N |
                           D3DDTCAPS_FLOAT16_2 | D3DDTCAPS_FLOAT16_4;
    CHECK(caps.DeclTypes == expected);
    CHECK(d3d->Release() == 0);
  }
}
