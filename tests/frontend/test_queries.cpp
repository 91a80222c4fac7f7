// IDirect3DQuery9 and the surface copies as the frontend answers them, on the null plugin: which
// query types exist, the Issue/GetData state machine (S_FALSE until the answer's fence has
// completed, never a wait), and the calls D3D9 refuses.
#include <thread>

#include "api_fixture.hpp"

using api_fixture::NullDevice;

namespace {

template <class T> HRESULT poll(IDirect3DQuery9 *q, T &value) {
  HRESULT hr;
  for (uint64_t polls = 0; (hr = q->GetData(&value, sizeof value, D3DGETDATA_FLUSH)) == S_FALSE; ++polls) {
    if (polls > 1000000000ull) break;
    std::this_thread::yield();
  }
  return hr;
}

} // namespace

TEST_CASE("CreateQuery answers which types exist", "[api][queries]") {
  NullDevice f;
  for (D3DQUERYTYPE type : {D3DQUERYTYPE_EVENT, D3DQUERYTYPE_OCCLUSION, D3DQUERYTYPE_TIMESTAMP,
                            D3DQUERYTYPE_TIMESTAMPDISJOINT, D3DQUERYTYPE_TIMESTAMPFREQ}) {
    INFO("type " << type);
    CHECK(f.device->CreateQuery(type, nullptr) == D3D_OK);
    IDirect3DQuery9 *q = nullptr;
    REQUIRE(f.device->CreateQuery(type, &q) == D3D_OK);
    CHECK(q->GetType() == type);
    IDirect3DDevice9 *dev = nullptr;
    CHECK(q->GetDevice(&dev) == D3D_OK);
    CHECK(dev == f.device);
    dev->Release();
    CHECK(q->Release() == 0);
  }
  IDirect3DQuery9 *q = reinterpret_cast<IDirect3DQuery9 *>(0x1);
  for (D3DQUERYTYPE type : {D3DQUERYTYPE_VCACHE, D3DQUERYTYPE_RESOURCEMANAGER, D3DQUERYTYPE_VERTEXSTATS,
                            D3DQUERYTYPE_PIPELINETIMINGS, D3DQUERYTYPE_CACHEUTILIZATION}) {
    INFO("type " << type);
    CHECK(f.device->CreateQuery(type, nullptr) == D3DERR_NOTAVAILABLE);
    CHECK(f.device->CreateQuery(type, &q) == D3DERR_NOTAVAILABLE);
    CHECK(q == nullptr);
  }
}

TEST_CASE("Query data sizes, Issue flags and GetData refusals", "[api][queries]") {
  NullDevice f;
  IDirect3DQuery9 *event = nullptr, *occlusion = nullptr, *timestamp = nullptr, *freq = nullptr, *disjoint = nullptr;
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_EVENT, &event) == D3D_OK);
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_OCCLUSION, &occlusion) == D3D_OK);
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_TIMESTAMP, &timestamp) == D3D_OK);
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_TIMESTAMPFREQ, &freq) == D3D_OK);
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_TIMESTAMPDISJOINT, &disjoint) == D3D_OK);
  CHECK(event->GetDataSize() == sizeof(BOOL));
  CHECK(occlusion->GetDataSize() == sizeof(DWORD));
  CHECK(timestamp->GetDataSize() == sizeof(UINT64));
  CHECK(freq->GetDataSize() == sizeof(UINT64));
  CHECK(disjoint->GetDataSize() == sizeof(BOOL));

  // Never issued: the initial state is signaled.
  BOOL signaled = FALSE;
  CHECK(event->GetData(&signaled, sizeof signaled, 0) == S_OK);
  CHECK(signaled == TRUE);
  DWORD samples = 7;
  CHECK(occlusion->GetData(&samples, sizeof samples, 0) == S_OK);
  CHECK(samples == 0);
  CHECK(occlusion->GetData(nullptr, 0, 0) == S_OK);

  // Refusals: no buffer for a size, a buffer too small, unknown flags.
  CHECK(occlusion->GetData(nullptr, sizeof samples, 0) == D3DERR_INVALIDCALL);
  WORD small = 0;
  CHECK(timestamp->GetData(&small, sizeof small, 0) == D3DERR_INVALIDCALL);
  CHECK(event->GetData(&signaled, sizeof signaled, 0x80) == D3DERR_INVALIDCALL);
  CHECK(event->Issue(0) == D3DERR_INVALIDCALL);
  CHECK(event->Issue(D3DISSUE_BEGIN | D3DISSUE_END) == D3DERR_INVALIDCALL);

  // Building: S_FALSE until END, whatever the flags.
  REQUIRE(occlusion->Issue(D3DISSUE_BEGIN) == D3D_OK);
  CHECK(occlusion->GetData(&samples, sizeof samples, D3DGETDATA_FLUSH) == S_FALSE);
  REQUIRE(occlusion->Issue(D3DISSUE_END) == D3D_OK);
  CHECK(poll(occlusion, samples) == S_OK);
  CHECK(samples == 0); // the null plugin draws nothing

  // BEGIN is ignored by types without one.
  CHECK(event->Issue(D3DISSUE_BEGIN) == D3D_OK);
  CHECK(event->GetData(&signaled, sizeof signaled, 0) == S_OK);

  for (IDirect3DQuery9 *q : {event, occlusion, timestamp, freq, disjoint}) CHECK(q->Release() == 0);
}

TEST_CASE("An issued event answers S_FALSE until its fence completes, and never waits", "[api][queries]") {
  NullDevice f;
  IDirect3DQuery9 *event = nullptr;
  REQUIRE(f.device->CreateQuery(D3DQUERYTYPE_EVENT, &event) == D3D_OK);
  REQUIRE(event->Issue(D3DISSUE_END) == D3D_OK);
  BOOL signaled = FALSE;
  // Without FLUSH nothing carries the work to the plugin: not there, however often asked.
  for (int i = 0; i < 100; ++i) REQUIRE(event->GetData(&signaled, sizeof signaled, 0) == S_FALSE);
  CHECK(poll(event, signaled) == S_OK);
  CHECK(signaled == TRUE);
  // Present submits too: the answer comes without FLUSH.
  REQUIRE(event->Issue(D3DISSUE_END) == D3D_OK);
  REQUIRE(f.device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  HRESULT hr;
  for (uint64_t polls = 0; (hr = event->GetData(&signaled, sizeof signaled, 0)) == S_FALSE && polls < 1000000000ull; ++polls)
    std::this_thread::yield();
  CHECK(hr == S_OK);
  CHECK(event->Release() == 0);
}

TEST_CASE("StretchRect, ColorFill and GetFrontBufferData refuse what D3D9 refuses", "[api][targets]") {
  NullDevice f;
  IDirect3DDevice9 *dev = f.device;
  IDirect3DSurface9 *back = nullptr, *rt = nullptr, *rt565 = nullptr, *sysmem = nullptr, *ds = nullptr;
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_R5G6B5, D3DMULTISAMPLE_NONE, 0, FALSE, &rt565, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sysmem, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) == D3D_OK);

  CHECK(dev->StretchRect(rt, nullptr, back, nullptr, D3DTEXF_LINEAR) == D3D_OK);
  RECT quarter{0, 0, 16, 16};
  CHECK(dev->StretchRect(rt, &quarter, rt, nullptr, D3DTEXF_POINT) == D3DERR_INVALIDCALL);       // stretched in one surface
  CHECK(dev->StretchRect(rt, nullptr, back, nullptr, D3DTEXF_ANISOTROPIC) == D3DERR_INVALIDCALL); // filter
  CHECK(dev->StretchRect(sysmem, nullptr, back, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);    // pool
  CHECK(dev->StretchRect(rt, nullptr, sysmem, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(rt565, nullptr, back, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);     // conversion
  CHECK(dev->StretchRect(nullptr, nullptr, back, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  RECT outside{16, 16, 48, 48}, empty{8, 8, 8, 16}, inside{0, 0, 16, 16};
  CHECK(dev->StretchRect(rt, &outside, back, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(rt, &empty, back, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(dev->StretchRect(rt, &inside, back, &outside, D3DTEXF_NONE) == D3D_OK);
  CHECK(dev->StretchRect(back, &outside, rt, &inside, D3DTEXF_POINT) == D3D_OK);

  CHECK(dev->ColorFill(rt, nullptr, 0xff123456) == D3D_OK);
  CHECK(dev->ColorFill(rt, &inside, 0xff123456) == D3D_OK);
  CHECK(dev->ColorFill(rt, &outside, 0xff123456) == D3DERR_INVALIDCALL);
  CHECK(dev->ColorFill(sysmem, nullptr, 0xff123456) == D3DERR_INVALIDCALL);
  CHECK(dev->ColorFill(ds, nullptr, 0xff123456) == D3DERR_INVALIDCALL);
  CHECK(dev->ColorFill(nullptr, nullptr, 0xff123456) == D3DERR_INVALIDCALL);

  CHECK(dev->GetFrontBufferData(0, sysmem) == D3D_OK);
  CHECK(dev->GetFrontBufferData(1, sysmem) == D3DERR_INVALIDCALL);
  CHECK(dev->GetFrontBufferData(0, rt) == D3DERR_INVALIDCALL); // not system memory
  IDirect3DSurface9 *small = nullptr, *x8 = nullptr;
  REQUIRE(dev->CreateOffscreenPlainSurface(32, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &small, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &x8, nullptr) == D3D_OK);
  CHECK(dev->GetFrontBufferData(0, small) == D3DERR_INVALIDCALL); // not the front buffer's size
  CHECK(dev->GetFrontBufferData(0, x8) == D3DERR_INVALIDCALL);    // not A8R8G8B8

  D3DCAPS9 caps;
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  CHECK(caps.StretchRectFilterCaps == (D3DPTFILTERCAPS_MINFPOINT | D3DPTFILTERCAPS_MAGFPOINT |
                                       D3DPTFILTERCAPS_MINFLINEAR | D3DPTFILTERCAPS_MAGFLINEAR));
  for (IDirect3DSurface9 *s : {back, rt, rt565, sysmem, ds, small, x8}) s->Release();
}

TEST_CASE("SetRenderTarget and GetRenderTarget for render targets 1 to 3", "[api][targets]") {
  NullDevice f;
  IDirect3DDevice9 *dev = f.device;
  D3DCAPS9 caps;
  REQUIRE(dev->GetDeviceCaps(&caps) == D3D_OK);
  CHECK(caps.NumSimultaneousRTs == 4);
  CHECK((caps.PrimitiveMiscCaps & D3DPMISCCAPS_INDEPENDENTWRITEMASKS) != 0);
  IDirect3DSurface9 *rt = nullptr, *ds = nullptr, *got = reinterpret_cast<IDirect3DSurface9 *>(0x1);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_R5G6B5, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  REQUIRE(dev->CreateDepthStencilSurface(32, 32, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &ds, nullptr) == D3D_OK);
  CHECK(dev->GetRenderTarget(1, &got) == D3DERR_NOTFOUND);
  CHECK(got == nullptr);
  CHECK(dev->GetRenderTarget(4, &got) == D3DERR_INVALIDCALL);
  CHECK(dev->SetRenderTarget(4, rt) == D3DERR_INVALIDCALL);
  CHECK(dev->SetRenderTarget(1, ds) == D3DERR_INVALIDCALL);
  CHECK(dev->SetRenderTarget(0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->SetRenderTarget(3, rt) == D3D_OK); // a gap at 1 and 2, another format than target 0
  CHECK(api_fixture::refcount(rt) == 1);          // the device's reference is a private one
  REQUIRE(dev->GetRenderTarget(3, &got) == D3D_OK);
  CHECK(got == rt);
  got->Release();
  D3DVIEWPORT9 vp;
  REQUIRE(dev->GetViewport(&vp) == D3D_OK);
  CHECK(vp.Width == 64); // only target 0 resets the viewport
  CHECK(dev->SetRenderTarget(3, nullptr) == D3D_OK);
  CHECK(dev->GetRenderTarget(3, &got) == D3DERR_NOTFOUND);
  CHECK(dev->SetRenderTarget(2, rt) == D3D_OK);
  CHECK(rt->Release() == 0); // still bound: freed when unbound
  CHECK(dev->SetRenderTarget(2, nullptr) == D3D_OK);
  CHECK(ds->Release() == 0);
}

TEST_CASE("Multisample types: what the plugin reports, and where D3D9 refuses them", "[api][targets]") {
  api_fixture::Backend backend{"null"}; // the null plugin reports 2, 4, 8 and 16 samples
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  DWORD levels = 99;
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_NONE, &levels) == D3D_OK);
  CHECK(levels == 1);
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_4_SAMPLES, &levels) == D3D_OK);
  CHECK(levels == 1);
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_D24S8, TRUE, D3DMULTISAMPLE_4_SAMPLES, nullptr) == D3D_OK);
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_3_SAMPLES, &levels) ==
        D3DERR_NOTAVAILABLE);
  CHECK(levels == 0);
  // NONMASKABLE: one quality level per count the plugin renders, the smallest first.
  CHECK(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_NONMASKABLE, &levels) ==
        D3D_OK);
  CHECK(levels == 4);

  // A multisampled back buffer needs D3DSWAPEFFECT_DISCARD and quality 0.
  D3DPRESENT_PARAMETERS pp = api_fixture::headless();
  pp.MultiSampleType = D3DMULTISAMPLE_4_SAMPLES;
  pp.SwapEffect = D3DSWAPEFFECT_COPY;
  IDirect3DDevice9 *dev = nullptr;
  CHECK(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) == D3DERR_INVALIDCALL);
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.MultiSampleQuality = 1;
  CHECK(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) == D3DERR_INVALIDCALL);
  pp.MultiSampleQuality = 0;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) == D3D_OK);
  IDirect3DSurface9 *back = nullptr, *ms = nullptr, *plain = nullptr, *sysmem = nullptr, *ds = nullptr;
  REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
  D3DSURFACE_DESC desc;
  REQUIRE(back->GetDesc(&desc) == D3D_OK);
  CHECK(desc.MultiSampleType == D3DMULTISAMPLE_4_SAMPLES);
  REQUIRE(dev->GetDepthStencilSurface(&ds) == D3D_OK);
  REQUIRE(ds->GetDesc(&desc) == D3D_OK);
  CHECK(desc.MultiSampleType == D3DMULTISAMPLE_4_SAMPLES);

  CHECK(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_3_SAMPLES, 0, FALSE, &ms, nullptr) == D3DERR_NOTAVAILABLE);
  CHECK(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_2_SAMPLES, 1, FALSE, &ms, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONMASKABLE, 4, FALSE, &ms, nullptr) ==
        D3DERR_INVALIDCALL);
  CHECK(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_NONMASKABLE, 4, FALSE, &ms, nullptr) ==
        D3DERR_INVALIDCALL);
  REQUIRE(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONMASKABLE, 3, FALSE, &ms, nullptr) == D3D_OK);
  REQUIRE(ms->GetDesc(&desc) == D3D_OK);
  CHECK(desc.MultiSampleType == D3DMULTISAMPLE_NONMASKABLE);
  CHECK(desc.MultiSampleQuality == 3);
  ms->Release();
  REQUIRE(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_2_SAMPLES, 0, FALSE, &ms, nullptr) == D3D_OK);
  REQUIRE(dev->CreateRenderTarget(32, 32, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &plain, nullptr) == D3D_OK);
  REQUIRE(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sysmem, nullptr) == D3D_OK);
  CHECK(dev->GetRenderTargetData(back, sysmem) == D3DERR_INVALIDCALL); // resolve first
  RECT quarter{0, 0, 32, 32};
  CHECK(dev->StretchRect(ms, &quarter, plain, nullptr, D3DTEXF_NONE) == D3D_OK); // resolve, one size
  CHECK(dev->StretchRect(ms, nullptr, plain, nullptr, D3DTEXF_LINEAR) == D3D_OK); // resolve, then scale
  CHECK(dev->StretchRect(plain, nullptr, ms, &quarter, D3DTEXF_NONE) == D3DERR_INVALIDCALL);   // into multisampled
  CHECK(dev->GetFrontBufferData(0, sysmem) == D3D_OK);
  for (IDirect3DSurface9 *s : {back, ms, plain, sysmem, ds}) s->Release();
  CHECK(dev->Release() == 0);
  CHECK(d3d->Release() == 0);
}
