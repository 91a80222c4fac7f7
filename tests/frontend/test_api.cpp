#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include <d3d9.h>

#include "api_fixture.hpp"
#include "novem/image.hpp"

using namespace api_fixture;

TEST_CASE("NOVEM_BACKEND=nonsense fails CreateDevice cleanly with D3DERR_NOTAVAILABLE", "[api]") {
  Backend backend("nonsense");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d != nullptr);
  CHECK(d3d->GetAdapterCount() == 1);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = reinterpret_cast<IDirect3DDevice9 *>(0x1);
  CHECK(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device) ==
        D3DERR_NOTAVAILABLE);
  CHECK(device == nullptr);
  D3DCAPS9 caps;
  CHECK(d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("the adapter identifier names the backend's device", "[api]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DADAPTER_IDENTIFIER9 id;
  REQUIRE(d3d->GetAdapterIdentifier(0, 0, &id) == D3D_OK);
  CHECK(std::string(id.Description) == "Novem null device (Novem null)");
  CHECK(d3d->GetAdapterIdentifier(1, 0, &id) == D3DERR_INVALIDCALL);
  d3d->Release();
}

TEST_CASE("Direct3DCreate9Ex gives IDirect3D9Ex", "[api]") {
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  IDirect3D9 *plain = nullptr;
  REQUIRE(d3d->QueryInterface(IID_IDirect3D9, reinterpret_cast<void **>(&plain)) == S_OK);
  CHECK(refcount(d3d) == 2);
  plain->Release();
  CHECK(d3d->Release() == 0);
}

TEST_CASE("format checks answer for what is implemented", "[api]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, D3DFMT_A8R8G8B8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE, D3DFMT_D24S8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DEPTHSTENCIL, D3DRTYPE_SURFACE, D3DFMT_A8R8G8B8) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_TEXTURE, D3DFMT_A8R8G8B8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DYNAMIC, D3DRTYPE_TEXTURE, D3DFMT_X8R8G8B8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_TEXTURE, D3DFMT_D16) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_TEXTURE, D3DFMT_A8R8G8B8) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_CUBETEXTURE, D3DFMT_A8R8G8B8) == D3D_OK);
  // Compressed plain surfaces exist in every pool (CreateOffscreenPlainSurface), as on Windows.
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, D3DFMT_DXT1) == D3D_OK);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_RENDERTARGET, D3DRTYPE_SURFACE, D3DFMT_DXT1) ==
        D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_SURFACE, D3DFMT_D16) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDepthStencilMatch(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_X8R8G8B8, D3DFMT_D16) == D3D_OK);
  CHECK(d3d->CheckDepthStencilMatch(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_D16, D3DFMT_D16) == D3DERR_NOTAVAILABLE);
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DFMT_A8R8G8B8, TRUE) == D3D_OK);
  CHECK(d3d->CheckDeviceType(0, D3DDEVTYPE_REF, D3DFMT_X8R8G8B8, D3DFMT_A8R8G8B8, TRUE) == D3DERR_NOTAVAILABLE);
  d3d->Release();
}

TEST_CASE("reference counts follow native d3d9", "[api]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  CHECK(refcount(nd.d3d) == 2); // the device holds its IDirect3D9
  CHECK(refcount(dev) == 1);

  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  CHECK(refcount(dev) == 2); // a resource holds its device
  REQUIRE(dev->SetStreamSource(0, vb, 0, 16) == D3D_OK);
  CHECK(refcount(vb) == 1); // binding does not add a public reference
  CHECK(vb->Release() == 0);
  CHECK(refcount(dev) == 1);
  IDirect3DVertexBuffer9 *bound = nullptr;
  UINT offset, stride;
  REQUIRE(dev->GetStreamSource(0, &bound, &offset, &stride) == D3D_OK); // still alive while bound
  CHECK(bound == vb);
  CHECK(stride == 16);
  CHECK(bound->Release() == 0);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);

  IDirect3DSurface9 *back = nullptr, *back2 = nullptr;
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  CHECK(refcount(dev) == 2); // holding an implicit surface holds the device
  REQUIRE(dev->GetRenderTarget(0, &back2) == D3D_OK);
  CHECK(back == back2);
  CHECK(refcount(dev) == 2);
  // The back buffer's container is its swap chain.
  IDirect3DSwapChain9 *chain = nullptr, *container = nullptr;
  REQUIRE(dev->GetSwapChain(0, &chain) == D3D_OK);
  REQUIRE(back->GetContainer(IID_IDirect3DSwapChain9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container == chain);
  container->Release();
  chain->Release();
  void *none = nullptr;
  CHECK(back->GetContainer(IID_IDirect3DTexture9, &none) == E_NOINTERFACE);
  CHECK(back2->Release() == 1);
  CHECK(back->Release() == 0);
  CHECK(refcount(dev) == 1);
  CHECK(back->Release() == 0); // one Release too many changes nothing, as native d3d9
  CHECK(refcount(dev) == 1);
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  CHECK(refcount(back) == 1);
  CHECK(back->Release() == 0);

  IDirect3DDevice9 *from_surface = nullptr;
  IDirect3DSurface9 *ds = nullptr;
  REQUIRE(dev->GetDepthStencilSurface(&ds) == D3D_OK);
  REQUIRE(ds->GetDevice(&from_surface) == D3D_OK);
  CHECK(from_surface == dev);
  CHECK(refcount(dev) == 3);
  from_surface->Release();
  ds->Release();
  IDirect3D9 *d3d = nullptr;
  REQUIRE(dev->GetDirect3D(&d3d) == D3D_OK);
  CHECK(d3d == nd.d3d);
  d3d->Release();
}

TEST_CASE("render states start at Windows' defaults and getters read back what was set", "[api]") {
  NullDevice nd;
  DWORD v = 0;
  auto get = [&](D3DRENDERSTATETYPE s) {
    REQUIRE(nd.device->GetRenderState(s, &v) == D3D_OK);
    return v;
  };
  CHECK(get(D3DRS_ZENABLE) == D3DZB_TRUE); // with an automatic depth buffer
  CHECK(get(D3DRS_ZWRITEENABLE) == TRUE);
  CHECK(get(D3DRS_ZFUNC) == D3DCMP_LESSEQUAL);
  CHECK(get(D3DRS_CULLMODE) == D3DCULL_CCW);
  CHECK(get(D3DRS_ALPHABLENDENABLE) == FALSE);
  CHECK(get(D3DRS_SRCBLEND) == D3DBLEND_ONE);
  CHECK(get(D3DRS_DESTBLEND) == D3DBLEND_ZERO);
  CHECK(get(D3DRS_LIGHTING) == TRUE);
  CHECK(get(D3DRS_COLORWRITEENABLE) == 0xf);
  float one;
  get(D3DRS_FOGEND);
  std::memcpy(&one, &v, 4);
  CHECK(one == 1.0f);
  REQUIRE(nd.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  CHECK(get(D3DRS_CULLMODE) == D3DCULL_NONE);
  CHECK(nd.device->GetRenderState(D3DRS_CULLMODE, nullptr) == D3DERR_INVALIDCALL);

  D3DVIEWPORT9 vp;
  REQUIRE(nd.device->GetViewport(&vp) == D3D_OK);
  CHECK((vp.X == 0 && vp.Y == 0 && vp.Width == 64 && vp.Height == 64 && vp.MinZ == 0.0f && vp.MaxZ == 1.0f));
  D3DVIEWPORT9 too_big{0, 0, 65, 64, 0.0f, 1.0f}; // d3d9 accepts it (d3d8 did not)
  CHECK(nd.device->SetViewport(&too_big) == D3D_OK);
  D3DVIEWPORT9 empty{0, 0, 0, 64, 0.0f, 1.0f};
  CHECK(nd.device->SetViewport(&empty) == D3DERR_INVALIDCALL);

  D3DMATRIX m{}, back{};
  m._11 = 2, m._22 = 3, m._33 = 4, m._44 = 1;
  REQUIRE(nd.device->SetTransform(D3DTS_VIEW, &m) == D3D_OK);
  REQUIRE(nd.device->GetTransform(D3DTS_VIEW, &back) == D3D_OK);
  CHECK(std::memcmp(&m, &back, sizeof m) == 0);
  REQUIRE(nd.device->GetTransform(D3DTS_WORLD, &back) == D3D_OK);
  CHECK((back._11 == 1 && back._22 == 1 && back._12 == 0));
}

TEST_CASE("CreateDevice asks for exactly one way of processing vertices", "[api]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless();
  for (DWORD flags : {DWORD(0), DWORD(D3DCREATE_MULTITHREADED),
                      DWORD(D3DCREATE_HARDWARE_VERTEXPROCESSING | D3DCREATE_SOFTWARE_VERTEXPROCESSING),
                      DWORD(D3DCREATE_MIXED_VERTEXPROCESSING | D3DCREATE_HARDWARE_VERTEXPROCESSING)}) {
    CAPTURE(flags);
    IDirect3DDevice9 *device = reinterpret_cast<IDirect3DDevice9 *>(0x1);
    CHECK(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, flags, &pp, &device) == D3DERR_INVALIDCALL);
    CHECK(device == nullptr);
  }
  CHECK(d3d->Release() == 0);
}

TEST_CASE("invalid calls return D3DERR_INVALIDCALL", "[api]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  CHECK(dev->EndScene() == D3DERR_INVALIDCALL);
  REQUIRE(dev->BeginScene() == D3D_OK);
  CHECK(dev->BeginScene() == D3DERR_INVALIDCALL);
  REQUIRE(dev->EndScene() == D3D_OK);
  CHECK(dev->Clear(1, nullptr, D3DCLEAR_TARGET, 0, 1.0f, 0) == D3D_OK); // clears all, as Windows
  CHECK(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0, 1.0f, 0) == D3D_OK);
  CHECK(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1) == D3DERR_INVALIDCALL); // no stream
  CHECK(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, nullptr, 16) == D3DERR_INVALIDCALL);
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(64, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  // More primitives than MaxPrimitiveCount is refused (3 vertices asked to draw 2^31 triangles).
  D3DCAPS9 caps;
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, vb, 0, 16) == D3D_OK);
  CHECK(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 0x7FFFFFFF) == D3DERR_INVALIDCALL);
  CHECK(dev->DrawPrimitive(D3DPT_POINTLIST, 0, caps.MaxPrimitiveCount + 1) == D3DERR_INVALIDCALL);
  CHECK(dev->DrawPrimitive(D3DPT_POINTLIST, 0, 3) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  void *data = nullptr;
  CHECK(vb->Lock(60, 8, &data, 0) == D3DERR_INVALIDCALL);
  CHECK(vb->Unlock() == D3DERR_INVALIDCALL);
  REQUIRE(vb->Lock(0, 0, &data, 0) == D3D_OK);
  REQUIRE(vb->Unlock() == D3D_OK);
  vb->Release();
  IDirect3DSurface9 *surface = nullptr;
  CHECK(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &surface, nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &surface, nullptr) == D3D_OK);
  IDirect3DSurface9 *back = nullptr;
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  CHECK(dev->GetRenderTargetData(back, surface) == D3DERR_INVALIDCALL); // sizes differ
  D3DLOCKED_RECT lr;
  RECT outside{0, 0, 17, 16};
  CHECK(surface->LockRect(&lr, &outside, 0) == D3DERR_INVALIDCALL);
  back->Release();
  surface->Release();
  // A method that is not implemented yet fails instead of crashing.
  const float segments[4] = {1, 1, 1, 0};
  CHECK(dev->DrawRectPatch(1, segments, nullptr) == D3DERR_INVALIDCALL);
}

TEST_CASE("a frame of draws runs on the null plugin", "[api]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  struct V { float x, y, z, rhw; DWORD c; } tri[3] = {{0, 0, 0, 1, 0}, {10, 0, 0, 1, 0}, {0, 10, 0, 1, 0}};
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE) == D3D_OK);
  REQUIRE(dev->BeginScene() == D3D_OK);
  for (int i = 0; i < 100; ++i) REQUIRE(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, tri, sizeof(V)) == D3D_OK);
  REQUIRE(dev->EndScene() == D3D_OK);
  REQUIRE(dev->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  CHECK(dev->TestCooperativeLevel() == D3D_OK);
}

TEST_CASE("index buffers: reference counts, GetIndices, GetDesc", "[api][index]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  IDirect3DIndexBuffer9 *ib = nullptr;
  REQUIRE(dev->CreateIndexBuffer(64, D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr) == D3D_OK);
  CHECK(refcount(dev) == 2); // a resource holds its device
  CHECK(ib->GetType() == D3DRTYPE_INDEXBUFFER);
  D3DINDEXBUFFER_DESC desc{};
  REQUIRE(ib->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Format == D3DFMT_INDEX16);
  CHECK(desc.Type == D3DRTYPE_INDEXBUFFER);
  CHECK(desc.Usage == D3DUSAGE_WRITEONLY);
  CHECK(desc.Pool == D3DPOOL_DEFAULT);
  CHECK(desc.Size == 64);
  IDirect3DResource9 *resource = nullptr;
  REQUIRE(ib->QueryInterface(IID_IDirect3DResource9, reinterpret_cast<void **>(&resource)) == S_OK);
  CHECK(resource->Release() == 1);

  IDirect3DIndexBuffer9 *got = reinterpret_cast<IDirect3DIndexBuffer9 *>(1);
  REQUIRE(dev->GetIndices(&got) == D3D_OK);
  CHECK(got == nullptr); // none bound
  REQUIRE(dev->SetIndices(ib) == D3D_OK);
  CHECK(refcount(ib) == 1); // binding does not add a public reference
  REQUIRE(dev->GetIndices(&got) == D3D_OK);
  CHECK(got == ib);
  CHECK(refcount(ib) == 2); // GetIndices does
  CHECK(got->Release() == 1);
  CHECK(ib->Release() == 0);
  CHECK(refcount(dev) == 1);
  REQUIRE(dev->GetIndices(&got) == D3D_OK); // still alive while bound
  CHECK(got == ib);
  CHECK(refcount(dev) == 2);
  CHECK(got->Release() == 0);
  REQUIRE(dev->SetIndices(nullptr) == D3D_OK);
  CHECK(dev->GetIndices(nullptr) == D3DERR_INVALIDCALL);

  IDirect3DIndexBuffer9 *ib32 = nullptr;
  REQUIRE(dev->CreateIndexBuffer(12, D3DUSAGE_DYNAMIC, D3DFMT_INDEX32, D3DPOOL_SYSTEMMEM, &ib32, nullptr) == D3D_OK);
  REQUIRE(ib32->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Format == D3DFMT_INDEX32);
  CHECK(desc.Pool == D3DPOOL_SYSTEMMEM);
  CHECK(ib32->Release() == 0);
}

TEST_CASE("index buffers and streams: invalid calls", "[api][index]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  IDirect3DIndexBuffer9 *ib = reinterpret_cast<IDirect3DIndexBuffer9 *>(1);
  CHECK(dev->CreateIndexBuffer(64, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &ib, nullptr) == D3DERR_INVALIDCALL);
  CHECK(ib == nullptr);
  CHECK(dev->CreateIndexBuffer(0, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateIndexBuffer(64, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, nullptr, nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(dev->CreateIndexBuffer(12, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr) == D3D_OK);

  // Lock ranges as for vertex buffers.
  void *data = nullptr;
  CHECK(ib->Lock(8, 8, &data, 0) == D3DERR_INVALIDCALL);
  CHECK(data == nullptr);
  CHECK(ib->Lock(13, 0, &data, 0) == D3DERR_INVALIDCALL);
  CHECK(ib->Lock(0, 0, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(ib->Unlock() == D3DERR_INVALIDCALL);
  REQUIRE(ib->Lock(0, 0, &data, 0) == D3D_OK);
  const uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
  std::memcpy(data, indices, sizeof indices);
  void *inner = nullptr;
  REQUIRE(ib->Lock(4, 4, &inner, D3DLOCK_READONLY) == D3D_OK); // locks nest
  CHECK(static_cast<uint8_t *>(inner) == static_cast<uint8_t *>(data) + 4);
  REQUIRE(ib->Unlock() == D3D_OK);
  REQUIRE(ib->Unlock() == D3D_OK);
  CHECK(ib->Unlock() == D3DERR_INVALIDCALL);

  struct V { float x, y, z, rhw; DWORD c; } quad[4] = {{0, 0, 0, 1, 0}, {10, 0, 0, 1, 0}, {0, 10, 0, 1, 0}, {10, 10, 0, 1, 0}};
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(sizeof quad, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, vb, 0, sizeof(V)) == D3D_OK);
  REQUIRE(dev->BeginScene() == D3D_OK);
  CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2) == D3DERR_INVALIDCALL); // no indices
  REQUIRE(dev->SetIndices(ib) == D3D_OK);
  CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2) == D3D_OK);
  CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 1, 2) == D3DERR_INVALIDCALL); // past the end
  CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 0) == D3D_OK);           // nothing to draw
  CHECK(dev->DrawIndexedPrimitive(D3DPRIMITIVETYPE(0), 0, 0, 4, 0, 1) == D3DERR_INVALIDCALL);
  CHECK(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 4, 2, indices, D3DFMT_A8R8G8B8, quad, sizeof(V)) ==
        D3DERR_INVALIDCALL);
  CHECK(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 4, 2, nullptr, D3DFMT_INDEX16, quad, sizeof(V)) ==
        D3DERR_INVALIDCALL);
  CHECK(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 4, 2, indices, D3DFMT_INDEX16, quad, sizeof(V)) == D3D_OK);
  IDirect3DIndexBuffer9 *got = reinterpret_cast<IDirect3DIndexBuffer9 *>(1);
  REQUIRE(dev->GetIndices(&got) == D3D_OK);
  CHECK(got == nullptr); // unset by the UP draw, as on Windows
  IDirect3DVertexBuffer9 *stream = reinterpret_cast<IDirect3DVertexBuffer9 *>(1);
  UINT offset = 1, stride = 1;
  REQUIRE(dev->GetStreamSource(0, &stream, &offset, &stride) == D3D_OK);
  CHECK(stream == nullptr);
  REQUIRE(dev->EndScene() == D3D_OK);

  // Streams 0..15.
  CHECK(dev->SetStreamSource(16, vb, 0, sizeof(V)) == D3DERR_INVALIDCALL);
  REQUIRE(dev->SetStreamSource(15, vb, 4, 8) == D3D_OK);
  REQUIRE(dev->GetStreamSource(15, &stream, &offset, &stride) == D3D_OK);
  CHECK(stream == vb);
  CHECK(offset == 4);
  CHECK(stride == 8);
  stream->Release();
  CHECK(dev->GetStreamSource(16, &stream, &offset, &stride) == D3DERR_INVALIDCALL);
  REQUIRE(dev->SetStreamSource(15, nullptr, 0, 0) == D3D_OK);
  CHECK(dev->SetStreamSourceFreq(0, 1) == D3D_OK); // instancing: test_render_states.cpp
  CHECK(vb->Release() == 0);
  CHECK(ib->Release() == 0);
}

TEST_CASE("index formats and stream caps", "[api][index]") {
  NullDevice nd;
  CHECK(nd.d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_INDEXBUFFER, D3DFMT_INDEX16) == D3D_OK);
  CHECK(nd.d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_DYNAMIC, D3DRTYPE_INDEXBUFFER, D3DFMT_INDEX32) == D3D_OK);
  CHECK(nd.d3d->CheckDeviceFormat(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, 0, D3DRTYPE_INDEXBUFFER, D3DFMT_A8R8G8B8) == D3DERR_NOTAVAILABLE);
  D3DCAPS9 caps;
  REQUIRE(nd.device->GetDeviceCaps(&caps) == D3D_OK);
  CHECK(caps.MaxStreams == 16);
  CHECK(caps.MaxVertexIndex == 0xFFFFFF);
}

// The backend is resolved once per process, so each case runs novem-demo in a process of its own
// and reads what it printed.
std::string demo_output(const std::string &env, const std::string &png) {
  std::filesystem::path dir = std::filesystem::path(NOVEM_BUILD_DIR) / "test-output";
  std::filesystem::create_directories(dir);
  std::string command = "env -u NOVEM_BACKEND " + env + " " NOVEM_DEMO_PATH " --frames 1 --size 16x16 --out " +
                        (dir / png).string() + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[512];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  CHECK(pclose(pipe) == 0);
  return output;
}

TEST_CASE("the default backend is Vulkan", "[api][backends]") {
  CHECK_THAT(demo_output("", "default-backend.png"), Catch::Contains("(Novem vulkan)"));
}

TEST_CASE("the default backend falls back to OpenGL when Vulkan cannot start", "[api][backends]") {
  // The Vulkan loader finds no driver, so the Vulkan plugin's probe fails.
  CHECK_THAT(demo_output("VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json",
                              "fallback-backend.png"),
             Catch::Contains("(Novem opengl)"));
}

// Forty frames: past the frames in flight, so each plugin records into command buffers, uniform
// and vertex rings it has already used and recycled by fence. A recycling bug (a range handed out
// while the GPU still reads it, a command buffer reset early) shows in the last frame, which one
// or two frames would not reach. The cube's last pose must come out the same on both plugins.
// Vulkan runs twice: under the validation layer, as every Vulkan run here does, and without it,
// as users run it: the layer wraps the driver's entry points and can hide a fault (a command
// pool's host allocator that lavapipe failed with once rendered right under the layer only).
TEST_CASE("the demo's fortieth frame is the same on Vulkan and OpenGL, with recycled command buffers and rings",
          "[api][backends]") {
  const std::filesystem::path dir = std::filesystem::path(NOVEM_BUILD_DIR) / "test-output";
  std::filesystem::create_directories(dir);
  auto render = [&](const std::string &backend, bool validation) {
    const std::string name = "demo_40_frames_" + backend + (validation ? "_layer" : "");
    const std::filesystem::path png = dir / (name + ".png");
    std::filesystem::remove(png);
    const std::string layers = validation ? "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation NOVEM_VK_VALIDATION=1 " : "";
    const std::string command = "env -u NOVEM_BACKEND " + layers + NOVEM_DEMO_PATH " --backend " + backend +
                                " --frames 40 --size 64x64 --out " + png.string() + " 2>&1";
    FILE *pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[512];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    INFO(name << ": " << output);
    CHECK(pclose(pipe) == 0);
    CHECK(output.find("novem-" + backend + ":") == std::string::npos); // the plugin's error lines
    CHECK(output.find("validation") == std::string::npos);
    std::string error;
    auto image = novem::image::read_png(png, &error);
    INFO(error);
    REQUIRE(image);
    return *image;
  };
  const novem::image::Image opengl = render("opengl", false);
  REQUIRE((opengl.width == 64 && opengl.height == 64));
  // The cube covers the centre, not the corner: something was drawn.
  CHECK(std::memcmp(opengl.at(32, 32), opengl.at(0, 0), 3) != 0);
  for (bool validation : {true, false}) {
    const novem::image::Image vulkan = render("vulkan", validation);
    const auto result = novem::image::compare(vulkan, opengl, 2);
    INFO((validation ? "validation on" : "validation off")
         << ": max channel difference " << result.max_channel_diff << ", " << result.pixels_over_tolerance
         << " pixels over 2");
    CHECK(result.within_tolerance());
  }
}

TEST_CASE("shaders: creation, GetFunction, refusal of bad bytecode, constants", "[api][shader]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  // vs_2_0: mov oPos, v0 (with dcl_position v0)
  const DWORD vs[] = {0xFFFE0200, 0x0200001F, 0x80000000, 0x900F0000, 0x02000001, 0xC00F0000, 0x90E40000, 0x0000FFFF};
  IDirect3DVertexShader9 *shader = nullptr;
  REQUIRE(dev->CreateVertexShader(vs, &shader) == D3D_OK);
  CHECK(refcount(dev) == 2);
  UINT size = 0;
  REQUIRE(shader->GetFunction(nullptr, &size) == D3D_OK);
  CHECK(size == sizeof vs);
  DWORD copy[8] = {};
  REQUIRE(shader->GetFunction(copy, &size) == D3D_OK);
  CHECK(std::memcmp(copy, vs, sizeof vs) == 0);
  REQUIRE(dev->SetVertexShader(shader) == D3D_OK);
  IDirect3DVertexShader9 *current = nullptr;
  REQUIRE(dev->GetVertexShader(&current) == D3D_OK);
  CHECK(current == shader);
  current->Release();
  REQUIRE(dev->SetVertexShader(nullptr) == D3D_OK);
  CHECK(shader->Release() == 0);

  // Malformed bytecode is refused, never crashes.
  const DWORD truncated[] = {0xFFFE0200, 0x02000001, 0xC00F0000}; // no end token within the stream
  const DWORD unknown_op[] = {0xFFFE0200, 0x0000007F, 0x0000FFFF};
  const DWORD bad_version[] = {0xFFFE0400, 0x0000FFFF};
  const DWORD pixel_as_vertex[] = {0xFFFF0200, 0x0000FFFF};
  for (const DWORD *bad : {unknown_op, bad_version, pixel_as_vertex}) {
    IDirect3DVertexShader9 *refused = reinterpret_cast<IDirect3DVertexShader9 *>(0x1);
    CHECK(dev->CreateVertexShader(bad, &refused) == D3DERR_INVALIDCALL);
    CHECK(refused == nullptr);
  }
  (void)truncated; // a stream without an end token is read until one: D3D9 gives no length
  CHECK(dev->CreateVertexShader(nullptr, &shader) == D3DERR_INVALIDCALL);
  IDirect3DPixelShader9 *refused_ps = nullptr;
  CHECK(dev->CreatePixelShader(unknown_op, &refused_ps) == D3DERR_INVALIDCALL);
  CHECK(dev->CreatePixelShader(vs, &refused_ps) == D3DERR_INVALIDCALL); // a vertex shader
  CHECK(refcount(dev) == 1); // a refused shader holds no reference

  const float f[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float back[8] = {};
  REQUIRE(dev->SetVertexShaderConstantF(254, f, 2) == D3D_OK);
  REQUIRE(dev->GetVertexShaderConstantF(254, back, 2) == D3D_OK);
  CHECK(std::memcmp(f, back, sizeof f) == 0);
  CHECK(dev->SetVertexShaderConstantF(255, f, 2) == D3DERR_INVALIDCALL);
  CHECK(dev->SetPixelShaderConstantF(223, f, 2) == D3DERR_INVALIDCALL);
  const int i4[4] = {3, 0, 1, 0};
  CHECK(dev->SetPixelShaderConstantI(15, i4, 1) == D3D_OK);
  CHECK(dev->SetPixelShaderConstantI(16, i4, 1) == D3DERR_INVALIDCALL);
  const WINBOOL b[2] = {TRUE, FALSE};
  WINBOOL bb[2] = {};
  REQUIRE(dev->SetVertexShaderConstantB(3, b, 2) == D3D_OK);
  REQUIRE(dev->GetVertexShaderConstantB(3, bb, 2) == D3D_OK);
  CHECK((bb[0] == TRUE && bb[1] == FALSE));
}

TEST_CASE("vertex declarations: created, read back, and made from an FVF", "[api][shader]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
      D3DDECL_END()};
  IDirect3DVertexDeclaration9 *decl = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(elements, &decl) == D3D_OK);
  UINT count = 0;
  REQUIRE(decl->GetDeclaration(nullptr, &count) == D3D_OK);
  CHECK(count == 3); // with D3DDECL_END
  D3DVERTEXELEMENT9 back[3];
  REQUIRE(decl->GetDeclaration(back, &count) == D3D_OK);
  CHECK(std::memcmp(back, elements, sizeof elements) == 0);
  REQUIRE(dev->SetVertexDeclaration(decl) == D3D_OK);
  DWORD fvf = 1;
  REQUIRE(dev->GetFVF(&fvf) == D3D_OK);
  CHECK(fvf == (D3DFVF_XYZ | D3DFVF_DIFFUSE)); // an FVF layout converts (test_vertex_declarations.cpp)
  CHECK(decl->Release() == 0);

  REQUIRE(dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1) == D3D_OK);
  IDirect3DVertexDeclaration9 *from_fvf = nullptr;
  REQUIRE(dev->GetVertexDeclaration(&from_fvf) == D3D_OK);
  REQUIRE(from_fvf != nullptr);
  D3DVERTEXELEMENT9 made[4];
  REQUIRE(from_fvf->GetDeclaration(made, &count) == D3D_OK);
  REQUIRE(count == 4);
  CHECK((made[0].Usage == D3DDECLUSAGE_POSITION && made[0].Type == D3DDECLTYPE_FLOAT3 && made[0].Offset == 0));
  CHECK((made[1].Usage == D3DDECLUSAGE_COLOR && made[1].Type == D3DDECLTYPE_D3DCOLOR && made[1].Offset == 12));
  CHECK((made[2].Usage == D3DDECLUSAGE_TEXCOORD && made[2].Type == D3DDECLTYPE_FLOAT2 && made[2].Offset == 16));
  from_fvf->Release();

  const D3DVERTEXELEMENT9 misaligned[] = {{0, 2, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
                                          D3DDECL_END()};
  CHECK(dev->CreateVertexDeclaration(misaligned, &decl) == E_FAIL); // Windows (test_vertex_declarations.cpp)
}

TEST_CASE("textures: creation, levels and level descriptions", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(dev->CreateTexture(64, 16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  CHECK(tex->GetLevelCount() == 7); // 64x16 .. 1x1
  CHECK(tex->GetType() == D3DRTYPE_TEXTURE);
  D3DSURFACE_DESC d{};
  REQUIRE(tex->GetLevelDesc(2, &d) == D3D_OK);
  CHECK(d.Width == 16);
  CHECK(d.Height == 4);
  CHECK(d.Format == D3DFMT_A8R8G8B8);
  CHECK(d.Pool == D3DPOOL_MANAGED);
  CHECK(d.Type == D3DRTYPE_SURFACE);
  REQUIRE(tex->GetLevelDesc(6, &d) == D3D_OK);
  CHECK(d.Width == 1);
  CHECK(d.Height == 1);
  CHECK(tex->GetLevelDesc(7, &d) == D3DERR_INVALIDCALL);
  tex->Release();

  REQUIRE(dev->CreateTexture(8, 8, 2, 0, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
  CHECK(tex->GetLevelCount() == 2);
  tex->Release();
  CHECK(dev->CreateTexture(8, 8, 5, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(0, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(8, 8, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateTexture(8, 8, 1, 0, D3DFMT_D24S8, D3DPOOL_MANAGED, &tex, nullptr) == D3DERR_INVALIDCALL);
  CHECK(tex == nullptr);
}

TEST_CASE("textures: GetSurfaceLevel's surface counts on the texture", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(dev->CreateTexture(16, 16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  CHECK(refcount(tex) == 1);
  IDirect3DSurface9 *level1 = nullptr;
  REQUIRE(tex->GetSurfaceLevel(1, &level1) == D3D_OK);
  CHECK(refcount(tex) == 2);
  CHECK(level1->AddRef() == 3); // the texture's count
  CHECK(level1->Release() == 2);
  IDirect3DSurface9 *again = nullptr;
  REQUIRE(tex->GetSurfaceLevel(1, &again) == D3D_OK);
  CHECK(again == level1);
  again->Release();
  D3DSURFACE_DESC d{};
  REQUIRE(level1->GetDesc(&d) == D3D_OK);
  CHECK(d.Width == 8);
  IDirect3DTexture9 *container = nullptr;
  REQUIRE(level1->GetContainer(IID_IDirect3DTexture9, reinterpret_cast<void **>(&container)) == D3D_OK);
  CHECK(container == tex);
  container->Release();
  IDirect3DBaseTexture9 *base = nullptr;
  REQUIRE(tex->QueryInterface(IID_IDirect3DBaseTexture9, reinterpret_cast<void **>(&base)) == D3D_OK);
  base->Release();
  // Locking through the surface locks the texture's level.
  D3DLOCKED_RECT lr{};
  REQUIRE(level1->LockRect(&lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch >= 8 * 4);
  CHECK(tex->LockRect(1, &lr, nullptr, 0) == D3DERR_INVALIDCALL); // already locked
  CHECK(level1->UnlockRect() == D3D_OK);
  CHECK(tex->UnlockRect(1) == D3D_OK); // not locked: Windows answers D3D_OK for a 2D texture
  CHECK(level1->Release() == 1);
  // The surface lives as long as the texture: holding it keeps the texture.
  REQUIRE(tex->GetSurfaceLevel(0, &level1) == D3D_OK);
  CHECK(tex->Release() == 1);
  CHECK(level1->Release() == 0);
}

TEST_CASE("textures: LockRect per pool", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  D3DLOCKED_RECT lr{};
  struct Case { D3DPOOL pool; DWORD usage; bool lockable; };
  for (Case c : {Case{D3DPOOL_DEFAULT, 0, false}, Case{D3DPOOL_DEFAULT, D3DUSAGE_DYNAMIC, true},
                 Case{D3DPOOL_MANAGED, 0, true}, Case{D3DPOOL_SYSTEMMEM, 0, true}, Case{D3DPOOL_SCRATCH, 0, true}}) {
    INFO("pool " << c.pool << " usage " << c.usage);
    IDirect3DTexture9 *tex = nullptr;
    REQUIRE(dev->CreateTexture(8, 8, 0, c.usage, D3DFMT_A8R8G8B8, c.pool, &tex, nullptr) == D3D_OK);
    CHECK((tex->LockRect(0, &lr, nullptr, 0) == D3D_OK) == c.lockable);
    if (c.lockable) {
      CHECK(lr.Pitch == 32);
      CHECK(tex->UnlockRect(0) == D3D_OK);
      RECT r{2, 2, 4, 4};
      REQUIRE(tex->LockRect(3, &lr, nullptr, D3DLOCK_READONLY) == D3D_OK); // 1x1
      CHECK(tex->UnlockRect(3) == D3D_OK);
      // Level 2 is 2x2: the texture's own LockRect checks the rectangle in DEFAULT only.
      const bool checked = c.pool == D3DPOOL_DEFAULT;
      CHECK(tex->LockRect(2, &lr, &r, 0) == (checked ? D3DERR_INVALIDCALL : D3D_OK));
      if (!checked) CHECK(tex->UnlockRect(2) == D3D_OK);
      REQUIRE(tex->LockRect(0, &lr, &r, 0) == D3D_OK);
      CHECK(tex->UnlockRect(0) == D3D_OK);
      CHECK(tex->AddDirtyRect(&r) == D3D_OK);
    }
    CHECK(tex->LockRect(4, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
    // A scratch texture cannot be set on the device.
    CHECK((dev->SetTexture(0, tex) == D3D_OK) == (c.pool != D3DPOOL_SCRATCH));
    CHECK(dev->SetTexture(0, nullptr) == D3D_OK);
    CHECK(tex->Release() == 0);
  }
}

TEST_CASE("textures: SetTexture holds a private reference, GetTexture a public one", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(dev->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  REQUIRE(dev->SetTexture(3, tex) == D3D_OK);
  CHECK(refcount(tex) == 1);
  REQUIRE(dev->SetTexture(D3DVERTEXTEXTURESAMPLER1, tex) == D3D_OK);
  CHECK(dev->SetTexture(16, tex) == D3DERR_INVALIDCALL);
  IDirect3DBaseTexture9 *got = nullptr;
  REQUIRE(dev->GetTexture(3, &got) == D3D_OK);
  CHECK(got == tex);
  CHECK(refcount(tex) == 2);
  got->Release();
  REQUIRE(dev->GetTexture(D3DVERTEXTEXTURESAMPLER1, &got) == D3D_OK);
  CHECK(got == tex);
  got->Release();
  REQUIRE(dev->GetTexture(0, &got) == D3D_OK);
  CHECK(got == nullptr);
  // The device keeps the texture alive while it is bound.
  CHECK(tex->Release() == 0);
  REQUIRE(dev->GetTexture(3, &got) == D3D_OK);
  CHECK(got == tex);
  CHECK(got->GetType() == D3DRTYPE_TEXTURE);
  got->Release();
  CHECK(dev->SetTexture(3, nullptr) == D3D_OK);
  CHECK(dev->SetTexture(D3DVERTEXTEXTURESAMPLER1, nullptr) == D3D_OK);
  // SetLOD only counts for managed textures.
  REQUIRE(dev->CreateTexture(16, 16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr) == D3D_OK);
  CHECK(tex->SetLOD(2) == 0);
  CHECK(tex->GetLOD() == 2);
  CHECK(tex->SetLOD(9) == 2);
  CHECK(tex->GetLOD() == 4);
  tex->Release();
  REQUIRE(dev->CreateTexture(16, 16, 0, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
  CHECK(tex->SetLOD(2) == 0);
  CHECK(tex->GetLOD() == 0);
  tex->Release();
}

TEST_CASE("sampler states start at Windows' defaults", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  for (DWORD sampler : {DWORD(0), DWORD(15), DWORD(D3DVERTEXTEXTURESAMPLER0), DWORD(D3DVERTEXTEXTURESAMPLER3)}) {
    INFO("sampler " << sampler);
    DWORD v = 0xdead;
    auto get = [&](D3DSAMPLERSTATETYPE s) {
      REQUIRE(dev->GetSamplerState(sampler, s, &v) == D3D_OK);
      return v;
    };
    CHECK(get(D3DSAMP_ADDRESSU) == D3DTADDRESS_WRAP);
    CHECK(get(D3DSAMP_ADDRESSV) == D3DTADDRESS_WRAP);
    CHECK(get(D3DSAMP_ADDRESSW) == D3DTADDRESS_WRAP);
    CHECK(get(D3DSAMP_BORDERCOLOR) == 0);
    CHECK(get(D3DSAMP_MAGFILTER) == D3DTEXF_POINT);
    CHECK(get(D3DSAMP_MINFILTER) == D3DTEXF_POINT);
    CHECK(get(D3DSAMP_MIPFILTER) == D3DTEXF_NONE);
    CHECK(get(D3DSAMP_MIPMAPLODBIAS) == 0);
    CHECK(get(D3DSAMP_MAXMIPLEVEL) == 0);
    CHECK(get(D3DSAMP_MAXANISOTROPY) == 1);
    CHECK(get(D3DSAMP_SRGBTEXTURE) == 0);
    CHECK(get(D3DSAMP_ELEMENTINDEX) == 0);
    CHECK(get(D3DSAMP_DMAPOFFSET) == 0);
  }
  REQUIRE(dev->SetSamplerState(2, D3DSAMP_MINFILTER, D3DTEXF_LINEAR) == D3D_OK);
  DWORD v = 0;
  REQUIRE(dev->GetSamplerState(2, D3DSAMP_MINFILTER, &v) == D3D_OK);
  CHECK(v == D3DTEXF_LINEAR);
  CHECK(dev->SetSamplerState(16, D3DSAMP_MINFILTER, D3DTEXF_LINEAR) == D3DERR_INVALIDCALL);
  CHECK(dev->GetSamplerState(0, D3DSAMPLERSTATETYPE(0), &v) == D3DERR_INVALIDCALL);
  CHECK(dev->GetSamplerState(0, D3DSAMP_MINFILTER, nullptr) == D3DERR_INVALIDCALL);
}

TEST_CASE("texture stage states start at Windows' defaults and getters read back what was set", "[api][texture]") {
  NullDevice nd;
  IDirect3DDevice9 *dev = nd.device;
  for (DWORD stage = 0; stage < 8; ++stage) {
    INFO("stage " << stage);
    DWORD v = 0xdead;
    auto get = [&](D3DTEXTURESTAGESTATETYPE s) {
      REQUIRE(dev->GetTextureStageState(stage, s, &v) == D3D_OK);
      return v;
    };
    CHECK(get(D3DTSS_COLOROP) == (stage == 0 ? DWORD(D3DTOP_MODULATE) : DWORD(D3DTOP_DISABLE)));
    CHECK(get(D3DTSS_COLORARG1) == D3DTA_TEXTURE);
    CHECK(get(D3DTSS_COLORARG2) == D3DTA_CURRENT);
    CHECK(get(D3DTSS_ALPHAOP) == (stage == 0 ? DWORD(D3DTOP_SELECTARG1) : DWORD(D3DTOP_DISABLE)));
    CHECK(get(D3DTSS_ALPHAARG1) == D3DTA_TEXTURE);
    CHECK(get(D3DTSS_ALPHAARG2) == D3DTA_CURRENT);
    CHECK(get(D3DTSS_BUMPENVMAT00) == 0);
    CHECK(get(D3DTSS_BUMPENVMAT01) == 0);
    CHECK(get(D3DTSS_BUMPENVMAT10) == 0);
    CHECK(get(D3DTSS_BUMPENVMAT11) == 0);
    CHECK(get(D3DTSS_TEXCOORDINDEX) == stage);
    CHECK(get(D3DTSS_BUMPENVLSCALE) == 0);
    CHECK(get(D3DTSS_BUMPENVLOFFSET) == 0);
    CHECK(get(D3DTSS_TEXTURETRANSFORMFLAGS) == D3DTTFF_DISABLE);
    CHECK(get(D3DTSS_COLORARG0) == D3DTA_CURRENT);
    CHECK(get(D3DTSS_ALPHAARG0) == D3DTA_CURRENT);
    CHECK(get(D3DTSS_RESULTARG) == D3DTA_CURRENT);
    CHECK(get(D3DTSS_CONSTANT) == 0);
  }
  const float half = 0.5f;
  DWORD bits;
  std::memcpy(&bits, &half, 4);
  REQUIRE(dev->SetTextureStageState(3, D3DTSS_BUMPENVMAT10, bits) == D3D_OK);
  REQUIRE(dev->SetTextureStageState(7, D3DTSS_COLOROP, D3DTOP_ADD) == D3D_OK);
  DWORD v = 0;
  REQUIRE(dev->GetTextureStageState(3, D3DTSS_BUMPENVMAT10, &v) == D3D_OK);
  CHECK(v == bits);
  REQUIRE(dev->GetTextureStageState(2, D3DTSS_BUMPENVMAT10, &v) == D3D_OK);
  CHECK(v == 0);
  REQUIRE(dev->GetTextureStageState(7, D3DTSS_COLOROP, &v) == D3D_OK);
  CHECK(v == D3DTOP_ADD);
  CHECK(dev->SetTextureStageState(8, D3DTSS_COLOROP, D3DTOP_ADD) == D3DERR_INVALIDCALL);
  CHECK(dev->GetTextureStageState(8, D3DTSS_COLOROP, &v) == D3DERR_INVALIDCALL);
  CHECK(dev->SetTextureStageState(0, D3DTEXTURESTAGESTATETYPE(0), 1) == D3DERR_INVALIDCALL);
  CHECK(dev->SetTextureStageState(0, D3DTEXTURESTAGESTATETYPE(33), 1) == D3DERR_INVALIDCALL);
  CHECK(dev->GetTextureStageState(0, D3DTEXTURESTAGESTATETYPE(12), &v) == D3DERR_INVALIDCALL);
  CHECK(dev->GetTextureStageState(0, D3DTSS_COLOROP, nullptr) == D3DERR_INVALIDCALL);
}

TEST_CASE("texture caps", "[api][texture]") {
  NullDevice nd;
  D3DCAPS9 caps{};
  REQUIRE(nd.device->GetDeviceCaps(&caps) == D3D_OK);
  CHECK((caps.TextureCaps & D3DPTEXTURECAPS_MIPMAP) != 0);
  CHECK((caps.TextureCaps & D3DPTEXTURECAPS_POW2) == 0);
  CHECK((caps.TextureFilterCaps & D3DPTFILTERCAPS_MINFLINEAR) != 0);
  CHECK((caps.TextureFilterCaps & D3DPTFILTERCAPS_MIPFLINEAR) != 0);
  CHECK((caps.TextureAddressCaps & D3DPTADDRESSCAPS_BORDER) != 0);
  CHECK(caps.MaxTextureWidth >= 2048);
  CHECK(caps.MaxTextureHeight >= 2048);
}
