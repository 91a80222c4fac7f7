// Render states and instancing at the API: SetStreamSourceFreq's rules, the caps that come with
// the states honoured, and which commands a draw sends after a state change (on a plugin that
// counts what it executed, tests/frontend/counting_plugin.cpp).
#include <bit>
#include <cstdint>

#include "counting_device.hpp"

using namespace api_fixture;

TEST_CASE("SetStreamSourceFreq: Windows' refusals, defaults and GetStreamSourceFreq", "[api][instancing]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  UINT setting = 0;
  for (UINT stream = 0; stream < 16; ++stream) {
    REQUIRE(dev->GetStreamSourceFreq(stream, &setting) == D3D_OK);
    CHECK(setting == 1);
  }
  CHECK(dev->GetStreamSourceFreq(16, &setting) == D3DERR_INVALIDCALL);
  CHECK(dev->GetStreamSourceFreq(0, nullptr) == D3DERR_INVALIDCALL);
  CHECK(dev->SetStreamSourceFreq(16, 1) == D3DERR_INVALIDCALL);
  CHECK(dev->SetStreamSourceFreq(1, 0) == D3DERR_INVALIDCALL);
  CHECK(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INSTANCEDATA | 1) == D3DERR_INVALIDCALL);
  CHECK(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | D3DSTREAMSOURCE_INDEXEDDATA | 1) == D3DERR_INVALIDCALL);
  REQUIRE(dev->GetStreamSourceFreq(0, &setting) == D3D_OK);
  CHECK(setting == 1); // a refused call changes nothing

  REQUIRE(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 5) == D3D_OK);
  REQUIRE(dev->SetStreamSourceFreq(3, D3DSTREAMSOURCE_INSTANCEDATA | 1) == D3D_OK);
  REQUIRE(dev->GetStreamSourceFreq(0, &setting) == D3D_OK);
  CHECK(setting == (D3DSTREAMSOURCE_INDEXEDDATA | 5));
  REQUIRE(dev->GetStreamSourceFreq(3, &setting) == D3D_OK);
  CHECK(setting == (D3DSTREAMSOURCE_INSTANCEDATA | 1));
  // SetStreamSource keeps the frequency.
  REQUIRE(dev->SetStreamSource(3, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->GetStreamSourceFreq(3, &setting) == D3D_OK);
  CHECK(setting == (D3DSTREAMSOURCE_INSTANCEDATA | 1));
}

TEST_CASE("caps: stencil, scissor, depth bias, blend factor, separate alpha", "[api][render_state]") {
  NullDevice d;
  D3DCAPS9 caps;
  REQUIRE(d.device->GetDeviceCaps(&caps) == D3D_OK);
  const DWORD all_ops = D3DSTENCILCAPS_KEEP | D3DSTENCILCAPS_ZERO | D3DSTENCILCAPS_REPLACE | D3DSTENCILCAPS_INCRSAT |
                        D3DSTENCILCAPS_DECRSAT | D3DSTENCILCAPS_INVERT | D3DSTENCILCAPS_INCR | D3DSTENCILCAPS_DECR;
  CHECK((caps.StencilCaps & all_ops) == all_ops);
  CHECK((caps.StencilCaps & D3DSTENCILCAPS_TWOSIDED) != 0);
  CHECK((caps.RasterCaps & D3DPRASTERCAPS_SCISSORTEST) != 0);
  CHECK((caps.RasterCaps & D3DPRASTERCAPS_DEPTHBIAS) != 0);
  CHECK((caps.RasterCaps & D3DPRASTERCAPS_SLOPESCALEDEPTHBIAS) != 0);
  CHECK((caps.RasterCaps & D3DPRASTERCAPS_WBUFFER) == 0); // USEW draws as TRUE
  CHECK((caps.PrimitiveMiscCaps & D3DPMISCCAPS_SEPARATEALPHABLEND) != 0);
  CHECK((caps.SrcBlendCaps & D3DPBLENDCAPS_BLENDFACTOR) != 0);
  CHECK((caps.DestBlendCaps & D3DPBLENDCAPS_BLENDFACTOR) != 0);
  CHECK(caps.MaxStreamStride == 508);
  CHECK((caps.LineCaps & D3DLINECAPS_ANTIALIAS) == 0);
}

namespace {

// What each of the state commands was sent since the last call. `pipeline` counts both
// SET_PIPELINE and SET_RENDER_STATES (a new pipeline either way).
struct Sent {
  uint64_t pipeline, dynamic, viewport, scissor;
};

} // namespace

TEST_CASE("a draw sends only the state commands whose state changed", "[api][render_state]") {
  CountingDevice d;
  IDirect3DDevice9 *dev = d.device;
  Sent before{};
  auto sent_since = [&]() {
    Sent now{d.executed(NV_OP_SET_PIPELINE) + d.executed(NV_OP_SET_RENDER_STATES), d.executed(NV_OP_SET_DYNAMIC_STATE), d.executed(NV_OP_SET_VIEWPORT),
             d.executed(NV_OP_SET_SCISSOR)};
    Sent delta{now.pipeline - before.pipeline, now.dynamic - before.dynamic, now.viewport - before.viewport,
               now.scissor - before.scissor};
    before = now;
    return delta;
  };
  d.draw();
  Sent s = sent_since();
  CHECK(s.pipeline == 1);
  CHECK(s.dynamic == 1);
  CHECK(s.viewport == 1);
  CHECK(s.scissor == 1);

  SECTION("a state the draw path ignores, or the same value again, sends nothing") {
    REQUIRE(dev->SetRenderState(D3DRS_DITHERENABLE, TRUE) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_STENCILREF, 0) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 0);
    CHECK(s.dynamic == 0);
    CHECK(s.viewport == 0);
    CHECK(s.scissor == 0);
  }
  SECTION("stencil: reference and masks are dynamic; ops matter only while the test is on") {
    REQUIRE(dev->SetRenderState(D3DRS_STENCILREF, 5) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_STENCILWRITEMASK, 0x0f) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 0);
    CHECK(s.dynamic == 1);
    REQUIRE(dev->SetRenderState(D3DRS_STENCILFUNC, D3DCMP_EQUAL) == D3D_OK); // the test is off
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 0);
    REQUIRE(dev->SetRenderState(D3DRS_STENCILENABLE, TRUE) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 1);
    CHECK(s.dynamic == 0);
  }
  SECTION("blend factor and depth bias") {
    REQUIRE(dev->SetRenderState(D3DRS_BLENDFACTOR, 0x80808080) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 0);
    CHECK(s.dynamic == 1);
    REQUIRE(dev->SetRenderState(D3DRS_DEPTHBIAS, std::bit_cast<DWORD>(0.01f)) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 1); // bias turns on
    CHECK(s.dynamic == 1);
    REQUIRE(dev->SetRenderState(D3DRS_DEPTHBIAS, std::bit_cast<DWORD>(0.02f)) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.pipeline == 0); // still on
    CHECK(s.dynamic == 1);
  }
  SECTION("scissor: the rect matters only while the test is on") {
    RECT r{2, 2, 8, 8};
    REQUIRE(dev->SetScissorRect(&r) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.scissor == 0);
    CHECK(s.viewport == 0);
    REQUIRE(dev->SetRenderState(D3DRS_SCISSORTESTENABLE, TRUE) == D3D_OK);
    d.draw();
    s = sent_since();
    CHECK(s.scissor == 1);
    CHECK(s.viewport == 0);
    CHECK(s.pipeline == 0);
  }
}
