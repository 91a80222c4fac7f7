// The implicit swap chain and what a display answers on a headless device; the states that are
// stored and answered without changing drawing (clip status, software vertex processing,
// N-patch mode, ValidateDevice).
#include <cstring>

#include "api_fixture.hpp"
#include "counting_device.hpp"

using namespace api_fixture;

TEST_CASE("GetSwapChain: the implicit swap chain, its back buffer, parameters and Present", "[api][present]") {
  NullDevice d;
  IDirect3DSwapChain9 *chain = nullptr, *again = nullptr;
  CHECK(d.device->GetNumberOfSwapChains() == 1);
  CHECK(d.device->GetSwapChain(1, &chain) == D3DERR_INVALIDCALL);
  CHECK(chain == nullptr);
  CHECK(d.device->GetSwapChain(0, nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->GetSwapChain(0, &chain) == D3D_OK);
  REQUIRE(d.device->GetSwapChain(0, &again) == D3D_OK);
  CHECK(chain == again); // one object, counted
  CHECK(refcount(chain) == 2);
  again->Release();

  IDirect3DDevice9 *owner = nullptr;
  REQUIRE(chain->GetDevice(&owner) == D3D_OK);
  CHECK(owner == d.device);
  owner->Release();

  IDirect3DSurface9 *from_chain = nullptr, *from_device = nullptr;
  REQUIRE(chain->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, &from_chain) == D3D_OK);
  REQUIRE(d.device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &from_device) == D3D_OK);
  CHECK(from_chain == from_device);
  from_chain->Release();
  from_device->Release();

  D3DPRESENT_PARAMETERS pp{};
  REQUIRE(chain->GetPresentParameters(&pp) == D3D_OK);
  CHECK(pp.BackBufferWidth == 64);
  CHECK(pp.BackBufferFormat == D3DFMT_A8R8G8B8);

  IDirect3DSwapChain9Ex *ex = nullptr;
  CHECK(chain->QueryInterface(IID_IDirect3DSwapChain9Ex, reinterpret_cast<void **>(&ex)) == E_NOINTERFACE);
  CHECK(chain->Present(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  CHECK(chain->Release() == 0);
}

TEST_CASE("D3D9Ex: the swap chain counts presents, and PresentEx, frame latency, thread priority, residency", "[api][present]") {
  Backend backend("null");
  IDirect3D9Ex *d3d = nullptr;
  REQUIRE(Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d) == D3D_OK);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9Ex *device = nullptr;
  REQUIRE(d3d->CreateDeviceEx(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, nullptr, &device) == D3D_OK);

  IDirect3DSwapChain9 *chain = nullptr;
  REQUIRE(device->GetSwapChain(0, &chain) == D3D_OK);
  IDirect3DSwapChain9Ex *ex = nullptr;
  REQUIRE(chain->QueryInterface(IID_IDirect3DSwapChain9Ex, reinterpret_cast<void **>(&ex)) == S_OK);
  UINT count = 99;
  REQUIRE(ex->GetLastPresentCount(&count) == D3D_OK);
  CHECK(count == 0);
  CHECK(device->PresentEx(nullptr, nullptr, nullptr, nullptr, 0) == D3D_OK);
  CHECK(device->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  REQUIRE(ex->GetLastPresentCount(&count) == D3D_OK);
  CHECK(count == 2);
  D3DPRESENTSTATS stats{};
  CHECK(ex->GetPresentStats(&stats) == D3DERR_INVALIDCALL); // only for FLIPEX swap chains
  D3DDISPLAYMODEEX mode{};
  mode.Size = sizeof mode;
  D3DDISPLAYROTATION rotation{};
  REQUIRE(ex->GetDisplayModeEx(&mode, &rotation) == D3D_OK);
  CHECK(mode.Width == 1920);
  CHECK(rotation == D3DDISPLAYROTATION_IDENTITY);
  ex->Release();
  chain->Release();

  UINT latency = 0;
  REQUIRE(device->GetMaximumFrameLatency(&latency) == D3D_OK);
  CHECK(latency == 3);
  CHECK(device->SetMaximumFrameLatency(17) == D3DERR_INVALIDCALL);
  CHECK(device->SetMaximumFrameLatency(1) == D3D_OK);
  REQUIRE(device->GetMaximumFrameLatency(&latency) == D3D_OK);
  CHECK(latency == 1);
  CHECK(device->SetMaximumFrameLatency(0) == D3D_OK); // back to the default
  REQUIRE(device->GetMaximumFrameLatency(&latency) == D3D_OK);
  CHECK(latency == 3);

  INT priority = 99;
  CHECK(device->SetGPUThreadPriority(8) == D3DERR_INVALIDCALL);
  CHECK(device->SetGPUThreadPriority(-7) == D3D_OK);
  REQUIRE(device->GetGPUThreadPriority(&priority) == D3D_OK);
  CHECK(priority == -7);

  CHECK(device->CheckResourceResidency(nullptr, 0) == D3D_OK);
  CHECK(device->CheckResourceResidency(nullptr, 1) == D3DERR_INVALIDCALL);
  CHECK(device->CheckDeviceState(nullptr) == D3D_OK);
  CHECK(device->WaitForVBlank(1) == D3DERR_INVALIDCALL);
  CHECK(device->WaitForVBlank(0) == D3D_OK);

  // The Ex surface calls are the plain ones.
  IDirect3DSurface9 *target = nullptr, *depth = nullptr;
  REQUIRE(device->CreateRenderTargetEx(16, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr, 0) == D3D_OK);
  D3DSURFACE_DESC desc{};
  REQUIRE(target->GetDesc(&desc) == D3D_OK);
  CHECK((desc.Width == 16 && desc.Usage == D3DUSAGE_RENDERTARGET));
  REQUIRE(device->CreateDepthStencilSurfaceEx(16, 8, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &depth, nullptr, 0) == D3D_OK);
  IDirect3DSurface9 *refused = nullptr;
  CHECK(device->CreateRenderTargetEx(16, 8, D3DFMT_D24S8, D3DMULTISAMPLE_NONE, 0, FALSE, &refused, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(refused == nullptr);
  target->Release();
  depth->Release();

  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

TEST_CASE("raster status and gamma ramp of the virtual display", "[api][present]") {
  NullDevice d;
  D3DRASTER_STATUS status{};
  CHECK(d.device->GetRasterStatus(1, &status) == D3DERR_INVALIDCALL);
  CHECK(d.device->GetRasterStatus(0, nullptr) == D3DERR_INVALIDCALL);
  for (int i = 0; i < 100; ++i) {
    REQUIRE(d.device->GetRasterStatus(0, &status) == D3D_OK);
    CHECK(status.ScanLine < 1080);
    if (status.InVBlank) CHECK(status.ScanLine == 0);
  }
  D3DGAMMARAMP ramp{};
  d.device->GetGammaRamp(0, &ramp);
  CHECK(ramp.red[0] == 0);
  CHECK(ramp.green[128] == 128 * 257);
  CHECK(ramp.blue[255] == 0xffff);
  ramp.red[10] = 1234;
  d.device->SetGammaRamp(0, D3DSGR_NO_CALIBRATION, &ramp);
  D3DGAMMARAMP back{};
  d.device->GetGammaRamp(0, &back);
  CHECK(back.red[10] == 1234);
}

TEST_CASE("clip status, software vertex processing, N-patch mode and ValidateDevice", "[api][state]") {
  NullDevice d;
  D3DCLIPSTATUS9 status{D3DCS_LEFT, D3DCS_TOP};
  CHECK(d.device->SetClipStatus(nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->SetClipStatus(&status) == D3D_OK);
  D3DCLIPSTATUS9 back{};
  REQUIRE(d.device->GetClipStatus(&back) == D3D_OK);
  CHECK((back.ClipUnion == D3DCS_LEFT && back.ClipIntersection == D3DCS_TOP));

  // A hardware vertex-processing device has no software mode.
  CHECK(d.device->GetSoftwareVertexProcessing() == FALSE);
  CHECK(d.device->SetSoftwareVertexProcessing(TRUE) == D3DERR_INVALIDCALL);
  CHECK(d.device->SetSoftwareVertexProcessing(FALSE) == D3D_OK);

  REQUIRE(d.device->SetNPatchMode(3.0f) == D3D_OK);
  CHECK(d.device->GetNPatchMode() == 3.0f);

  DWORD passes = 0;
  CHECK(d.device->ValidateDevice(nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->ValidateDevice(&passes) == D3D_OK);
  CHECK(passes == 1);
}

TEST_CASE("a mixed vertex-processing device switches to software and back", "[api][state]") {
  Backend backend("null");
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = headless();
  IDirect3DDevice9 *device = nullptr;
  REQUIRE(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_MIXED_VERTEXPROCESSING, &pp, &device) == D3D_OK);
  CHECK(device->GetSoftwareVertexProcessing() == FALSE);
  REQUIRE(device->SetSoftwareVertexProcessing(TRUE) == D3D_OK);
  CHECK(device->GetSoftwareVertexProcessing() == TRUE);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
}

// Present owes the front image a copy of the frame; a frame that begins with a clear of the whole
// back buffer exchanges the images instead (Surface::defer_front_copy). Counted on the counting
// plugin: GetRenderTargetData of the back buffer (how sent() waits) makes an owed copy itself.
TEST_CASE("Present copies the frame to the front image only when the next frame does not clear it whole", "[api][present]") {
  CountingDevice c;
  IDirect3DDevice9 *d = c.device;
  c.sent(NV_OP_BLIT_IMAGE);
  for (int frame = 0; frame < 3; ++frame) {
    REQUIRE(d->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff203040, 1.0f, 0) == D3D_OK);
    c.draw();
    REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  }
  // A frame that renders into a texture first and then binds the back buffer again.
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(d->CreateTexture(16, 16, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &texture, nullptr) == D3D_OK);
  IDirect3DSurface9 *level = nullptr;
  REQUIRE(texture->GetSurfaceLevel(0, &level) == D3D_OK);
  REQUIRE(d->SetRenderTarget(0, level) == D3D_OK);
  REQUIRE(d->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0) == D3D_OK);
  c.draw();
  REQUIRE(d->SetRenderTarget(0, c.back_buffer) == D3D_OK);
  REQUIRE(d->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff203040, 1.0f, 0) == D3D_OK);
  CHECK(c.sent(NV_OP_BLIT_IMAGE) == 0);

  // A frame that begins with a draw, or with a clear of a part, needs the copy first.
  REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  c.draw();
  CHECK(c.sent(NV_OP_BLIT_IMAGE) == 1);
  REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  const D3DRECT half{0, 0, 8, 16};
  REQUIRE(d->Clear(1, &half, D3DCLEAR_TARGET, 0xff203040, 1.0f, 0) == D3D_OK);
  CHECK(c.sent(NV_OP_BLIT_IMAGE) == 1);
  // Reading the presented back buffer copies too: the front image must not lose the frame.
  REQUIRE(d->Present(nullptr, nullptr, nullptr, nullptr) == D3D_OK);
  CHECK(c.sent(NV_OP_BLIT_IMAGE) == 1);
  level->Release();
  texture->Release();
}
