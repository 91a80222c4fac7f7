// Palettes, patches, D3D9Ex's text API (ComposeRects, SetConvolutionMonoKernel) and instance
// dividers: what the frontend answers (docs/d3d9-behaviour.md, "Palettes, patches and the text
// API"). On the null plugin, except the [backends] cases, which ask the real drivers.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

void fill_palette(PALETTEENTRY (&p)[256], BYTE seed) {
  for (UINT i = 0; i < 256; ++i) p[i] = PALETTEENTRY{BYTE(i + seed), BYTE(255 - i), BYTE(i ^ seed), 0xFF};
}

} // namespace

TEST_CASE("palettes are stored and answered with Windows' validation", "[api][palette]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  PALETTEENTRY p0[256], p1[256], out[256];
  fill_palette(p0, 3);
  fill_palette(p1, 0x5a);

  // Nothing set yet: no current palette (0xFFFF), no entries to answer, none to make current.
  UINT current = 0;
  CHECK(dev->GetCurrentTexturePalette(&current) == D3D_OK);
  CHECK(current == 0xFFFF);
  CHECK(dev->GetPaletteEntries(0, out) == D3DERR_INVALIDCALL);
  CHECK(dev->SetCurrentTexturePalette(0) == D3DERR_INVALIDCALL);

  CHECK(dev->SetPaletteEntries(0, p0) == D3D_OK);
  CHECK(dev->SetPaletteEntries(0xFFFF, p1) == D3D_OK);
  std::memset(out, 0xcc, sizeof out);
  CHECK(dev->GetPaletteEntries(0, out) == D3D_OK);
  CHECK(std::memcmp(out, p0, sizeof out) == 0);
  CHECK(dev->GetPaletteEntries(0xFFFF, out) == D3D_OK);
  CHECK(std::memcmp(out, p1, sizeof out) == 0);
  CHECK(dev->GetPaletteEntries(1, out) == D3DERR_INVALIDCALL);

  CHECK(dev->SetCurrentTexturePalette(0xFFFF) == D3D_OK);
  CHECK(dev->GetCurrentTexturePalette(&current) == D3D_OK);
  CHECK(current == 0xFFFF);
  CHECK(dev->SetCurrentTexturePalette(0) == D3D_OK);
  CHECK(dev->GetCurrentTexturePalette(&current) == D3D_OK);
  CHECK(current == 0);

  // Refused: NULL pointers, a number above 0xFFFF, and (no D3DPTEXTURECAPS_ALPHAPALETTE) an
  // entry that is not opaque; a refused set leaves the stored palette as it was.
  D3DCAPS9 caps{};
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  CHECK_FALSE(caps.TextureCaps & D3DPTEXTURECAPS_ALPHAPALETTE);
  CHECK(dev->SetPaletteEntries(0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->GetPaletteEntries(0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->GetCurrentTexturePalette(nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->SetPaletteEntries(0x10000, p0) == D3DERR_INVALIDCALL);
  PALETTEENTRY translucent[256];
  fill_palette(translucent, 9);
  translucent[200].peFlags = 0x80;
  CHECK(dev->SetPaletteEntries(0, translucent) == D3DERR_INVALIDCALL);
  CHECK(dev->GetPaletteEntries(0, out) == D3D_OK);
  CHECK(std::memcmp(out, p0, sizeof out) == 0);
}

TEST_CASE("Reset drops the palettes", "[api][palette]") {
  NullDevice d;
  PALETTEENTRY p[256], out[256];
  fill_palette(p, 1);
  REQUIRE(d.device->SetPaletteEntries(7, p) == D3D_OK);
  REQUIRE(d.device->SetCurrentTexturePalette(7) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = headless();
  REQUIRE(d.device->Reset(&pp) == D3D_OK);
  UINT current = 0;
  CHECK(d.device->GetCurrentTexturePalette(&current) == D3D_OK);
  CHECK(current == 0xFFFF);
  CHECK(d.device->GetPaletteEntries(7, out) == D3DERR_INVALIDCALL);
}

TEST_CASE("patches are refused on a device without patch caps", "[api][patch]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  D3DCAPS9 caps{};
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  CHECK_FALSE(caps.DevCaps & (D3DDEVCAPS_RTPATCHES | D3DDEVCAPS_QUINTICRTPATCHES | D3DDEVCAPS_NPATCHES));
  const float segments[4] = {2, 2, 2, 2};
  D3DRECTPATCH_INFO rect{0, 0, 4, 4, 4, D3DBASIS_BEZIER, D3DDEGREE_CUBIC};
  D3DTRIPATCH_INFO tri{0, 10, D3DBASIS_BEZIER, D3DDEGREE_CUBIC};
  CHECK(dev->DrawRectPatch(1, segments, &rect) == D3DERR_INVALIDCALL);
  CHECK(dev->DrawRectPatch(1, segments, nullptr) == D3DERR_INVALIDCALL); // a cached handle
  CHECK(dev->DrawTriPatch(2, segments, &tri) == D3DERR_INVALIDCALL);
  CHECK(dev->DrawTriPatch(0, segments, &tri) == D3DERR_INVALIDCALL);
  CHECK(dev->DeletePatch(1) == D3DERR_INVALIDCALL);
  CHECK(dev->DeletePatch(0) == D3DERR_INVALIDCALL);
}

TEST_CASE("ComposeRects and SetConvolutionMonoKernel validate as documented", "[api][text_api]") {
  Backend backend{"null"};
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9Ex *dev = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &dev) == D3D_OK);

  // D3DFMT_A1, the text API's format, is not a format Novem has.
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, D3DFMT_A1) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_TEXTURE, D3DFMT_A1) == D3DERR_NOTAVAILABLE);

  IDirect3DSurface9 *a = nullptr, *b = nullptr;
  REQUIRE(dev->CreateRenderTarget(16, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &a, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(16, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &b, nullptr) == D3D_OK);
  IDirect3DVertexBuffer9 *src_descs = nullptr, *dst_descs = nullptr;
  REQUIRE(dev->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &src_descs, nullptr) == D3D_OK);
  REQUIRE(dev->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &dst_descs, nullptr) == D3D_OK);
  CHECK(dev->ComposeRects(nullptr, b, src_descs, 1, dst_descs, D3DCOMPOSERECTS_COPY, 0, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->ComposeRects(a, nullptr, src_descs, 1, dst_descs, D3DCOMPOSERECTS_COPY, 0, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->ComposeRects(a, a, src_descs, 1, dst_descs, D3DCOMPOSERECTS_COPY, 0, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->ComposeRects(a, b, src_descs, 1, dst_descs, D3DCOMPOSERECTSOP(0), 0, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->ComposeRects(a, b, nullptr, 1, dst_descs, D3DCOMPOSERECTS_OR, 0, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->ComposeRects(a, b, src_descs, 0x10000, dst_descs, D3DCOMPOSERECTS_AND, 0, 0) == D3DERR_INVALIDCALL);
  // Well formed but not D3DFMT_A1: refused as well.
  CHECK(dev->ComposeRects(a, b, src_descs, 1, dst_descs, D3DCOMPOSERECTS_NEG, 0, 0) == D3DERR_INVALIDCALL);

  float weights[7] = {1, 1, 1, 1, 1, 1, 1};
  CHECK(dev->SetConvolutionMonoKernel(1, 1, nullptr, nullptr) == D3D_OK);
  CHECK(dev->SetConvolutionMonoKernel(7, 7, nullptr, nullptr) == D3D_OK);
  CHECK(dev->SetConvolutionMonoKernel(0, 1, nullptr, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->SetConvolutionMonoKernel(1, 8, nullptr, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->SetConvolutionMonoKernel(3, 3, weights, nullptr) == D3DERR_INVALIDCALL); // weights must be NULL
  CHECK(dev->SetConvolutionMonoKernel(3, 3, nullptr, weights) == D3DERR_INVALIDCALL);

  src_descs->Release();
  dst_descs->Release();
  a->Release();
  b->Release();
  CHECK(dev->Release() == 0);
  CHECK(d3d->Release() == 0);
}

// What the drivers' adapters answer: no palettized formats (as modern Windows drivers), no
// D3DFMT_A1, no patch caps, no alpha palettes.
TEST_CASE("the real drivers report no palettized formats and no patches", "[api][palette][backends]") {
  for (const char *name : {"vulkan", "opengl"}) {
    INFO(name);
    Backend backend{name};
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    REQUIRE(d3d);
    D3DCAPS9 caps{};
    const HRESULT hr = d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps);
    const char *required = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
    if (hr != D3D_OK && !(required && std::string(required).find(name) != std::string::npos)) {
      d3d->Release();
      continue; // this driver cannot start here
    }
    REQUIRE(hr == D3D_OK);
    for (D3DFORMAT f : {D3DFMT_P8, D3DFMT_A8P8, D3DFMT_A1}) {
      CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_TEXTURE, f) == D3DERR_NOTAVAILABLE);
      CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, f) == D3DERR_NOTAVAILABLE);
    }
    CHECK_FALSE(caps.TextureCaps & D3DPTEXTURECAPS_ALPHAPALETTE);
    CHECK_FALSE(caps.DevCaps & (D3DDEVCAPS_RTPATCHES | D3DDEVCAPS_QUINTICRTPATCHES | D3DDEVCAPS_NPATCHES));
    CHECK(d3d->Release() == 0);
  }
}

namespace {

// An instanced DrawIndexedPrimitive whose stream 1 advances every `divider` instances.
HRESULT draw_with_divider(IDirect3DDevice9 *dev, UINT divider) {
  const D3DVERTEXELEMENT9 elements[] = {{0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
                                        {1, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
                                        D3DDECL_END()};
  IDirect3DVertexDeclaration9 *decl = nullptr;
  IDirect3DVertexBuffer9 *geometry = nullptr, *colours = nullptr;
  IDirect3DIndexBuffer9 *ib = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(elements, &decl) == D3D_OK);
  REQUIRE(dev->CreateVertexBuffer(3 * 12, 0, 0, D3DPOOL_DEFAULT, &geometry, nullptr) == D3D_OK);
  REQUIRE(dev->CreateVertexBuffer(4 * 4, 0, 0, D3DPOOL_DEFAULT, &colours, nullptr) == D3D_OK);
  REQUIRE(dev->CreateIndexBuffer(3 * 2, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(decl) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, geometry, 0, 12) == D3D_OK);
  REQUIRE(dev->SetStreamSource(1, colours, 0, 4) == D3D_OK);
  REQUIRE(dev->SetIndices(ib) == D3D_OK);
  REQUIRE(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 4) == D3D_OK);
  REQUIRE(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | divider) == D3D_OK);
  const HRESULT hr = dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 3, 0, 1);
  REQUIRE(dev->SetStreamSourceFreq(0, 1) == D3D_OK);
  REQUIRE(dev->SetStreamSourceFreq(1, 1) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetStreamSource(1, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetIndices(nullptr) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  ib->Release();
  colours->Release();
  geometry->Release();
  decl->Release();
  return hr;
}

} // namespace

// Dividers above 1 draw where the plugin reports instance divisors (nv_adapter_info
// .max_instance_divisor: the null plugin any, the counting plugin none).
TEST_CASE("instance dividers above 1 draw where the plugin has instance divisors", "[api][instancing]") {
  {
    NullDevice d;
    CHECK(draw_with_divider(d.device, 1) == D3D_OK);
    CHECK(draw_with_divider(d.device, 3) == D3D_OK);
  }
  Backend backend{NOVEM_COUNTING_PLUGIN};
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *dev = nullptr;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) == D3D_OK);
  CHECK(draw_with_divider(dev, 1) == D3D_OK);
  CHECK(draw_with_divider(dev, 2) == D3DERR_INVALIDCALL);
  CHECK(dev->Release() == 0);
  CHECK(d3d->Release() == 0);
}
