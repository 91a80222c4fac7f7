// State blocks: what CreateStateBlock's three types hold, recording between BeginStateBlock and
// EndStateBlock, Capture, Apply, reference counts and the calls Windows refuses.
#include <cstring>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

DWORD render_state(IDirect3DDevice9 *device, D3DRENDERSTATETYPE state) {
  DWORD value = 0xdeadbeef;
  REQUIRE(device->GetRenderState(state, &value) == D3D_OK);
  return value;
}

DWORD sampler_state(IDirect3DDevice9 *device, DWORD sampler, D3DSAMPLERSTATETYPE state) {
  DWORD value = 0xdeadbeef;
  REQUIRE(device->GetSamplerState(sampler, state, &value) == D3D_OK);
  return value;
}

DWORD stage_state(IDirect3DDevice9 *device, DWORD stage, D3DTEXTURESTAGESTATETYPE state) {
  DWORD value = 0xdeadbeef;
  REQUIRE(device->GetTextureStageState(stage, state, &value) == D3D_OK);
  return value;
}

D3DMATRIX scale(float s) {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = s;
  m._44 = 1.0f;
  return m;
}

float world_scale(IDirect3DDevice9 *device, D3DTRANSFORMSTATETYPE state) {
  D3DMATRIX m;
  REQUIRE(device->GetTransform(state, &m) == D3D_OK);
  return m._11;
}

} // namespace

TEST_CASE("state blocks: invalid calls", "[api][stateblock]") {
  NullDevice d;
  IDirect3DStateBlock9 *block = nullptr;
  CHECK(d.device->CreateStateBlock(D3DSBT_ALL, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->CreateStateBlock(D3DSTATEBLOCKTYPE(0), &block) == D3DERR_INVALIDCALL);
  CHECK(block == nullptr);
  CHECK(d.device->CreateStateBlock(D3DSTATEBLOCKTYPE(4), &block) == D3DERR_INVALIDCALL);
  CHECK(d.device->EndStateBlock(&block) == D3DERR_INVALIDCALL); // not recording

  IDirect3DStateBlock9 *all = nullptr;
  REQUIRE(d.device->CreateStateBlock(D3DSBT_ALL, &all) == D3D_OK);
  REQUIRE(d.device->BeginStateBlock() == D3D_OK);
  CHECK(d.device->BeginStateBlock() == D3DERR_INVALIDCALL); // no nesting
  CHECK(d.device->CreateStateBlock(D3DSBT_ALL, &block) == D3DERR_INVALIDCALL);
  CHECK(all->Apply() == D3DERR_INVALIDCALL);   // documented: not in record mode
  CHECK(all->Capture() == D3DERR_INVALIDCALL);
  CHECK(d.device->EndStateBlock(nullptr) == D3DERR_INVALIDCALL);
  REQUIRE(d.device->EndStateBlock(&block) == D3D_OK); // still recording after the refused call
  REQUIRE(block != nullptr);
  CHECK(d.device->EndStateBlock(&block) == D3DERR_INVALIDCALL);
  CHECK(all->Apply() == D3D_OK);
  CHECK(block->Release() == 0);
  CHECK(all->Release() == 0);
}

TEST_CASE("state blocks: reference counts and GetDevice", "[api][stateblock]") {
  NullDevice d;
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(d.device->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr) == D3D_OK);
  REQUIRE(d.device->SetTexture(0, texture) == D3D_OK);
  CHECK(refcount(d.device) == 2);

  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(d.device->CreateStateBlock(D3DSBT_ALL, &block) == D3D_OK);
  CHECK(refcount(d.device) == 3); // a state block holds its device
  CHECK(refcount(block) == 1);
  CHECK(refcount(texture) == 1); // and the texture, privately, as binding does
  IDirect3DDevice9 *owner = nullptr;
  REQUIRE(block->GetDevice(&owner) == D3D_OK);
  CHECK(owner == d.device);
  owner->Release();
  CHECK(block->GetDevice(nullptr) == D3DERR_INVALIDCALL);
  IUnknown *unknown = nullptr;
  REQUIRE(block->QueryInterface(IID_IDirect3DStateBlock9, reinterpret_cast<void **>(&unknown)) == D3D_OK);
  CHECK(unknown == block);
  unknown->Release();

  // The application lets go of the texture and unbinds it: the block keeps it alive, and Apply
  // binds it again.
  REQUIRE(d.device->SetTexture(0, nullptr) == D3D_OK);
  CHECK(texture->Release() == 0);
  REQUIRE(block->Apply() == D3D_OK);
  IDirect3DBaseTexture9 *bound = nullptr;
  REQUIRE(d.device->GetTexture(0, &bound) == D3D_OK);
  CHECK(bound == texture);
  CHECK(bound->Release() == 0);
  REQUIRE(d.device->SetTexture(0, nullptr) == D3D_OK);
  CHECK(block->Release() == 0);
  CHECK(refcount(d.device) == 1);

  // A device released while a block is being recorded is still destroyed (the fixture checks
  // that Release returns 0): recording holds no reference on the device.
  REQUIRE(d.device->BeginStateBlock() == D3D_OK);
  CHECK(refcount(d.device) == 1);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  REQUIRE(d.device->EndStateBlock(&block) == D3D_OK);
  CHECK(refcount(d.device) == 2);
  CHECK(block->Release() == 0);
  REQUIRE(d.device->BeginStateBlock() == D3D_OK);
}

TEST_CASE("state blocks: D3DSBT_ALL captures everything and Apply restores it", "[api][stateblock]") {
  NullDevice d;
  IDirect3DVertexBuffer9 *vb = nullptr;
  IDirect3DIndexBuffer9 *ib = nullptr;
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateIndexBuffer(64, 0, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, nullptr) == D3D_OK);

  const D3DMATRIX world = scale(2.0f);
  const D3DVIEWPORT9 viewport{4, 8, 16, 32, 0.25f, 0.75f};
  const RECT scissor{1, 2, 3, 4};
  D3DMATERIAL9 material{};
  material.Power = 7.0f;
  D3DLIGHT9 light{};
  light.Type = D3DLIGHT_DIRECTIONAL;
  light.Direction = {0, -1, 0};
  const float plane[4] = {1, 2, 3, 4};
  const float constant[4] = {5, 6, 7, 8};
  REQUIRE(d.device->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &world) == D3D_OK);
  REQUIRE(d.device->SetViewport(&viewport) == D3D_OK);
  REQUIRE(d.device->SetScissorRect(&scissor) == D3D_OK);
  REQUIRE(d.device->SetMaterial(&material) == D3D_OK);
  REQUIRE(d.device->SetLight(3, &light) == D3D_OK);
  REQUIRE(d.device->LightEnable(3, TRUE) == D3D_OK);
  REQUIRE(d.device->SetClipPlane(2, plane) == D3D_OK);
  REQUIRE(d.device->SetVertexShaderConstantF(10, constant, 1) == D3D_OK);
  REQUIRE(d.device->SetPixelShaderConstantF(11, constant, 1) == D3D_OK);
  REQUIRE(d.device->SetStreamSource(1, vb, 4, 12) == D3D_OK);
  REQUIRE(d.device->SetIndices(ib) == D3D_OK);
  REQUIRE(d.device->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE) == D3D_OK);
  REQUIRE(d.device->SetSamplerState(2, D3DSAMP_MINFILTER, D3DTEXF_LINEAR) == D3D_OK);
  REQUIRE(d.device->SetTextureStageState(1, D3DTSS_COLOROP, D3DTOP_ADD) == D3D_OK);

  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(d.device->CreateStateBlock(D3DSBT_ALL, &block) == D3D_OK);

  // Change everything.
  const D3DMATRIX other = scale(3.0f);
  const D3DVIEWPORT9 other_viewport{0, 0, 8, 8, 0.0f, 1.0f};
  const RECT other_scissor{0, 0, 1, 1};
  D3DMATERIAL9 other_material{};
  const float zero[4] = {};
  REQUIRE(d.device->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_CW) == D3D_OK);
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &other) == D3D_OK);
  REQUIRE(d.device->SetViewport(&other_viewport) == D3D_OK);
  REQUIRE(d.device->SetScissorRect(&other_scissor) == D3D_OK);
  REQUIRE(d.device->SetMaterial(&other_material) == D3D_OK);
  REQUIRE(d.device->LightEnable(3, FALSE) == D3D_OK);
  REQUIRE(d.device->SetClipPlane(2, zero) == D3D_OK);
  REQUIRE(d.device->SetVertexShaderConstantF(10, zero, 1) == D3D_OK);
  REQUIRE(d.device->SetPixelShaderConstantF(11, zero, 1) == D3D_OK);
  REQUIRE(d.device->SetStreamSource(1, nullptr, 0, 0) == D3D_OK);
  REQUIRE(d.device->SetIndices(nullptr) == D3D_OK);
  REQUIRE(d.device->SetFVF(D3DFVF_XYZRHW) == D3D_OK);
  REQUIRE(d.device->SetSamplerState(2, D3DSAMP_MINFILTER, D3DTEXF_POINT) == D3D_OK);
  REQUIRE(d.device->SetTextureStageState(1, D3DTSS_COLOROP, D3DTOP_DISABLE) == D3D_OK);

  REQUIRE(block->Apply() == D3D_OK);
  CHECK(render_state(d.device, D3DRS_ZENABLE) == D3DZB_FALSE);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_NONE);
  CHECK(world_scale(d.device, D3DTS_WORLD) == 2.0f);
  D3DVIEWPORT9 vp;
  REQUIRE(d.device->GetViewport(&vp) == D3D_OK);
  CHECK(std::memcmp(&vp, &viewport, sizeof vp) == 0);
  RECT rect;
  REQUIRE(d.device->GetScissorRect(&rect) == D3D_OK);
  CHECK(std::memcmp(&rect, &scissor, sizeof rect) == 0);
  D3DMATERIAL9 m;
  REQUIRE(d.device->GetMaterial(&m) == D3D_OK);
  CHECK(m.Power == 7.0f);
  WINBOOL enabled = FALSE;
  REQUIRE(d.device->GetLightEnable(3, &enabled) == D3D_OK);
  CHECK(enabled != FALSE);
  float got[4];
  REQUIRE(d.device->GetClipPlane(2, got) == D3D_OK);
  CHECK(got[3] == 4.0f);
  REQUIRE(d.device->GetVertexShaderConstantF(10, got, 1) == D3D_OK);
  CHECK(got[0] == 5.0f);
  REQUIRE(d.device->GetPixelShaderConstantF(11, got, 1) == D3D_OK);
  CHECK(got[3] == 8.0f);
  IDirect3DVertexBuffer9 *bound_vb = nullptr;
  UINT offset = 0, stride = 0;
  REQUIRE(d.device->GetStreamSource(1, &bound_vb, &offset, &stride) == D3D_OK);
  CHECK((bound_vb == vb && offset == 4 && stride == 12));
  if (bound_vb) bound_vb->Release();
  IDirect3DIndexBuffer9 *bound_ib = nullptr;
  REQUIRE(d.device->GetIndices(&bound_ib) == D3D_OK);
  CHECK(bound_ib == ib);
  if (bound_ib) bound_ib->Release();
  DWORD fvf = 0;
  REQUIRE(d.device->GetFVF(&fvf) == D3D_OK);
  CHECK(fvf == (D3DFVF_XYZ | D3DFVF_DIFFUSE));
  CHECK(sampler_state(d.device, 2, D3DSAMP_MINFILTER) == D3DTEXF_LINEAR);
  CHECK(stage_state(d.device, 1, D3DTSS_COLOROP) == D3DTOP_ADD);

  CHECK(block->Release() == 0);
  REQUIRE(d.device->SetStreamSource(1, nullptr, 0, 0) == D3D_OK);
  REQUIRE(d.device->SetIndices(nullptr) == D3D_OK);
  CHECK(vb->Release() == 0);
  CHECK(ib->Release() == 0);
}

TEST_CASE("state blocks: D3DSBT_PIXELSTATE and D3DSBT_VERTEXSTATE hold the documented lists", "[api][stateblock]") {
  NullDevice d;
  IDirect3DStateBlock9 *pixel = nullptr, *vertex = nullptr;
  const D3DMATRIX world = scale(2.0f);
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &world) == D3D_OK);
  REQUIRE(d.device->CreateStateBlock(D3DSBT_PIXELSTATE, &pixel) == D3D_OK);
  REQUIRE(d.device->CreateStateBlock(D3DSBT_VERTEXSTATE, &vertex) == D3D_OK);

  // Change a pixel state, a vertex state, one of each kind that is in both lists and one in neither.
  const D3DMATRIX other = scale(3.0f);
  REQUIRE(d.device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA) == D3D_OK);     // pixel
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);          // vertex
  REQUIRE(d.device->SetRenderState(D3DRS_SHADEMODE, D3DSHADE_FLAT) == D3D_OK);        // both
  REQUIRE(d.device->SetRenderState(D3DRS_FOGEND, 0) == D3D_OK);                       // both
  REQUIRE(d.device->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR) == D3D_OK); // pixel
  REQUIRE(d.device->SetSamplerState(0, D3DSAMP_DMAPOFFSET, 5) == D3D_OK);             // vertex
  REQUIRE(d.device->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_ADD) == D3D_OK);   // pixel
  REQUIRE(d.device->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 3) == D3D_OK);      // both
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &other) == D3D_OK);                     // neither

  REQUIRE(pixel->Apply() == D3D_OK);
  CHECK(render_state(d.device, D3DRS_SRCBLEND) == D3DBLEND_ONE);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_NONE);
  CHECK(render_state(d.device, D3DRS_SHADEMODE) == D3DSHADE_GOURAUD);
  CHECK(render_state(d.device, D3DRS_FOGEND) != 0);
  CHECK(sampler_state(d.device, 0, D3DSAMP_MAGFILTER) == D3DTEXF_POINT);
  CHECK(sampler_state(d.device, 0, D3DSAMP_DMAPOFFSET) == 5);
  CHECK(stage_state(d.device, 0, D3DTSS_COLOROP) == D3DTOP_MODULATE);
  CHECK(stage_state(d.device, 0, D3DTSS_TEXCOORDINDEX) == 0);
  CHECK(world_scale(d.device, D3DTS_WORLD) == 3.0f);

  REQUIRE(d.device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_SHADEMODE, D3DSHADE_FLAT) == D3D_OK);
  REQUIRE(d.device->SetTextureStageState(0, D3DTSS_COLOROP, D3DTOP_ADD) == D3D_OK);
  REQUIRE(d.device->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 3) == D3D_OK);
  REQUIRE(d.device->SetSamplerState(0, D3DSAMP_MAGFILTER, D3DTEXF_LINEAR) == D3D_OK);
  REQUIRE(vertex->Apply() == D3D_OK);
  CHECK(render_state(d.device, D3DRS_SRCBLEND) == D3DBLEND_SRCALPHA);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_CCW);
  CHECK(render_state(d.device, D3DRS_SHADEMODE) == D3DSHADE_GOURAUD);
  CHECK(sampler_state(d.device, 0, D3DSAMP_MAGFILTER) == D3DTEXF_LINEAR);
  CHECK(sampler_state(d.device, 0, D3DSAMP_DMAPOFFSET) == 0);
  CHECK(stage_state(d.device, 0, D3DTSS_COLOROP) == D3DTOP_ADD);
  CHECK(stage_state(d.device, 0, D3DTSS_TEXCOORDINDEX) == 0);
  CHECK(world_scale(d.device, D3DTS_WORLD) == 3.0f); // transforms are only in D3DSBT_ALL

  CHECK(pixel->Release() == 0);
  CHECK(vertex->Release() == 0);
}

TEST_CASE("state blocks: recording stores what is set without changing the device", "[api][stateblock]") {
  NullDevice d;
  const D3DMATRIX world = scale(2.0f);
  REQUIRE(d.device->BeginStateBlock() == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL) == D3D_OK); // same value: still recorded
  REQUIRE(d.device->SetTransform(D3DTS_WORLD, &world) == D3D_OK);
  REQUIRE(d.device->LightEnable(5, TRUE) == D3D_OK); // a light never set: the default one
  REQUIRE(d.device->SetSamplerState(1, D3DSAMP_ADDRESSU, D3DTADDRESS_CLAMP) == D3D_OK);
  CHECK(d.device->SetTransform(D3DTS_WORLD, nullptr) == D3DERR_INVALIDCALL); // still validated
  // The device did not change.
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_CCW);
  CHECK(world_scale(d.device, D3DTS_WORLD) == 1.0f);
  D3DLIGHT9 light;
  CHECK(d.device->GetLight(5, &light) == D3DERR_INVALIDCALL);
  CHECK(sampler_state(d.device, 1, D3DSAMP_ADDRESSU) == D3DTADDRESS_WRAP);
  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(d.device->EndStateBlock(&block) == D3D_OK);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_CCW);

  // Apply sets exactly what was recorded.
  REQUIRE(d.device->SetRenderState(D3DRS_ZFUNC, D3DCMP_ALWAYS) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA) == D3D_OK); // not recorded
  REQUIRE(block->Apply() == D3D_OK);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_NONE);
  CHECK(render_state(d.device, D3DRS_ZFUNC) == D3DCMP_LESSEQUAL);
  CHECK(render_state(d.device, D3DRS_SRCBLEND) == D3DBLEND_SRCALPHA);
  CHECK(world_scale(d.device, D3DTS_WORLD) == 2.0f);
  REQUIRE(d.device->GetLight(5, &light) == D3D_OK);
  CHECK(light.Type == D3DLIGHT_DIRECTIONAL);
  WINBOOL enabled = FALSE;
  REQUIRE(d.device->GetLightEnable(5, &enabled) == D3D_OK);
  CHECK(enabled != FALSE);
  CHECK(sampler_state(d.device, 1, D3DSAMP_ADDRESSU) == D3DTADDRESS_CLAMP);
  CHECK(block->Release() == 0);
}

TEST_CASE("state blocks: Capture refreshes only what the block holds", "[api][stateblock]") {
  NullDevice d;
  REQUIRE(d.device->BeginStateBlock() == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(d.device->EndStateBlock(&block) == D3D_OK);

  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_CW) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA) == D3D_OK);
  REQUIRE(block->Capture() == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_CULLMODE, D3DCULL_CCW) == D3D_OK);
  REQUIRE(d.device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE) == D3D_OK);
  REQUIRE(block->Apply() == D3D_OK);
  CHECK(render_state(d.device, D3DRS_CULLMODE) == D3DCULL_CW);
  CHECK(render_state(d.device, D3DRS_SRCBLEND) == D3DBLEND_ONE); // not in the block: untouched

  // A D3DSBT_ALL block captures shaders and textures with their references.
  IDirect3DStateBlock9 *all = nullptr;
  REQUIRE(d.device->CreateStateBlock(D3DSBT_ALL, &all) == D3D_OK);
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(d.device->CreateTexture(4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr) == D3D_OK);
  REQUIRE(d.device->SetTexture(D3DVERTEXTEXTURESAMPLER0, texture) == D3D_OK);
  REQUIRE(all->Capture() == D3D_OK);
  REQUIRE(d.device->SetTexture(D3DVERTEXTEXTURESAMPLER0, nullptr) == D3D_OK);
  CHECK(texture->Release() == 0); // the block keeps it
  REQUIRE(all->Apply() == D3D_OK);
  IDirect3DBaseTexture9 *bound = nullptr;
  REQUIRE(d.device->GetTexture(D3DVERTEXTEXTURESAMPLER0, &bound) == D3D_OK);
  CHECK(bound == texture);
  if (bound) bound->Release();
  REQUIRE(d.device->SetTexture(D3DVERTEXTEXTURESAMPLER0, nullptr) == D3D_OK);
  CHECK(all->Release() == 0); // the last reference to the texture goes with it
  CHECK(block->Release() == 0);
}

// Windows' two Capture quirks (Wine's tests record them): a recorded block does not capture the
// vertex declaration again, and a CreateStateBlock block captures stream buffers and strides again
// but keeps the offsets it was made with.
TEST_CASE("state blocks: Capture's quirks, as Windows", "[api][stateblock]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  const D3DVERTEXELEMENT9 one[] = {{0, 0, D3DDECLTYPE_FLOAT3, 0, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};
  const D3DVERTEXELEMENT9 two[] = {{0, 0, D3DDECLTYPE_FLOAT4, 0, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};
  IDirect3DVertexDeclaration9 *first = nullptr, *second = nullptr, *got = nullptr;
  REQUIRE(dev->CreateVertexDeclaration(one, &first) == D3D_OK);
  REQUIRE(dev->CreateVertexDeclaration(two, &second) == D3D_OK);
  REQUIRE(dev->BeginStateBlock() == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(first) == D3D_OK);
  IDirect3DStateBlock9 *recorded = nullptr;
  REQUIRE(dev->EndStateBlock(&recorded) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(second) == D3D_OK);
  REQUIRE(recorded->Capture() == D3D_OK); // keeps `first`
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  REQUIRE(recorded->Apply() == D3D_OK);
  REQUIRE(dev->GetVertexDeclaration(&got) == D3D_OK);
  CHECK(got == first);
  if (got) got->Release();
  CHECK(recorded->Release() == 0);

  IDirect3DVertexBuffer9 *a = nullptr, *b = nullptr, *buffer = nullptr;
  REQUIRE(dev->CreateVertexBuffer(256, 0, 0, D3DPOOL_MANAGED, &a, nullptr) == D3D_OK);
  REQUIRE(dev->CreateVertexBuffer(256, 0, 0, D3DPOOL_MANAGED, &b, nullptr) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, a, 16, 16) == D3D_OK);
  IDirect3DStateBlock9 *all = nullptr;
  REQUIRE(dev->CreateStateBlock(D3DSBT_ALL, &all) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, b, 32, 20) == D3D_OK);
  REQUIRE(all->Capture() == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(all->Apply() == D3D_OK);
  UINT offset = 0, stride = 0;
  REQUIRE(dev->GetStreamSource(0, &buffer, &offset, &stride) == D3D_OK);
  CHECK(buffer == b);
  CHECK(stride == 20);
  CHECK(offset == 16);
  if (buffer) buffer->Release();
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetVertexDeclaration(nullptr) == D3D_OK);
  CHECK(all->Release() == 0);
  CHECK(a->Release() == 0);
  CHECK(b->Release() == 0);
  CHECK(first->Release() == 0);
  CHECK(second->Release() == 0);
}

namespace {

// One kind of state: `set` writes value `v` (0 or 1) through the device's Set* call, `get` reads
// which of the two the device has.
struct RecordedSetter {
  const char *name;
  void (*set)(IDirect3DDevice9 *, int v);
  int (*get)(IDirect3DDevice9 *);
};

const D3DVIEWPORT9 kViewports[2] = {{0, 0, 64, 64, 0.0f, 1.0f}, {4, 4, 32, 32, 0.25f, 0.75f}};
const RECT kScissors[2] = {{0, 0, 64, 64}, {2, 3, 20, 30}};
const float kPlanes[2][4] = {{0, 0, 0, 0}, {1, 2, 3, 4}};

const RecordedSetter kRecordedSetters[] = {
    {"render state", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetRenderState(D3DRS_FOGENABLE, DWORD(v)) == D3D_OK); },
     [](IDirect3DDevice9 *d) { return int(render_state(d, D3DRS_FOGENABLE)); }},
    {"transform", [](IDirect3DDevice9 *d, int v) { const D3DMATRIX m = scale(v ? 3.0f : 1.0f); REQUIRE(d->SetTransform(D3DTS_VIEW, &m) == D3D_OK); },
     [](IDirect3DDevice9 *d) { return int(world_scale(d, D3DTS_VIEW) == 3.0f); }},
    {"viewport", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetViewport(&kViewports[v]) == D3D_OK); },
     [](IDirect3DDevice9 *d) { D3DVIEWPORT9 vp; REQUIRE(d->GetViewport(&vp) == D3D_OK); return int(vp.X == 4); }},
    {"scissor rect", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetScissorRect(&kScissors[v]) == D3D_OK); },
     [](IDirect3DDevice9 *d) { RECT r; REQUIRE(d->GetScissorRect(&r) == D3D_OK); return int(r.left == 2); }},
    {"material", [](IDirect3DDevice9 *d, int v) { D3DMATERIAL9 m{}; m.Power = float(v); REQUIRE(d->SetMaterial(&m) == D3D_OK); },
     [](IDirect3DDevice9 *d) { D3DMATERIAL9 m; REQUIRE(d->GetMaterial(&m) == D3D_OK); return int(m.Power == 1.0f); }},
    {"clip plane", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetClipPlane(2, kPlanes[v]) == D3D_OK); },
     [](IDirect3DDevice9 *d) { float p[4]; REQUIRE(d->GetClipPlane(2, p) == D3D_OK); return int(p[3] == 4.0f); }},
    {"vertex shader constant", [](IDirect3DDevice9 *d, int v) { const float c[4] = {float(v), 0, 0, 0}; REQUIRE(d->SetVertexShaderConstantF(7, c, 1) == D3D_OK); },
     [](IDirect3DDevice9 *d) { float c[4]; REQUIRE(d->GetVertexShaderConstantF(7, c, 1) == D3D_OK); return int(c[0]); }},
    {"pixel shader integer constant", [](IDirect3DDevice9 *d, int v) { const int c[4] = {v, 0, 0, 0}; REQUIRE(d->SetPixelShaderConstantI(3, c, 1) == D3D_OK); },
     [](IDirect3DDevice9 *d) { int c[4]; REQUIRE(d->GetPixelShaderConstantI(3, c, 1) == D3D_OK); return c[0]; }},
    {"pixel shader boolean constant", [](IDirect3DDevice9 *d, int v) { const WINBOOL b = v; REQUIRE(d->SetPixelShaderConstantB(9, &b, 1) == D3D_OK); },
     [](IDirect3DDevice9 *d) { WINBOOL b; REQUIRE(d->GetPixelShaderConstantB(9, &b, 1) == D3D_OK); return int(b); }},
    {"stream frequency", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetStreamSourceFreq(1, v ? (D3DSTREAMSOURCE_INSTANCEDATA | 1u) : 1u) == D3D_OK); },
     [](IDirect3DDevice9 *d) { UINT f; REQUIRE(d->GetStreamSourceFreq(1, &f) == D3D_OK); return int(f != 1); }},
    {"FVF", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetFVF(v ? D3DFVF_XYZ | D3DFVF_DIFFUSE : D3DFVF_XYZ) == D3D_OK); },
     [](IDirect3DDevice9 *d) { DWORD f; REQUIRE(d->GetFVF(&f) == D3D_OK); return int(f != D3DFVF_XYZ); }},
    {"sampler state", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetSamplerState(D3DVERTEXTEXTURESAMPLER1, D3DSAMP_MAXMIPLEVEL, DWORD(v)) == D3D_OK); },
     [](IDirect3DDevice9 *d) { return int(sampler_state(d, D3DVERTEXTEXTURESAMPLER1, D3DSAMP_MAXMIPLEVEL)); }},
    {"texture stage state", [](IDirect3DDevice9 *d, int v) { REQUIRE(d->SetTextureStageState(3, D3DTSS_TEXCOORDINDEX, DWORD(v ? 7 : 3)) == D3D_OK); },
     [](IDirect3DDevice9 *d) { return int(stage_state(d, 3, D3DTSS_TEXCOORDINDEX) == 7); }},
};

} // namespace

// Recording and live state share one setter path: each kind of state set while recording leaves
// the device as it was, and Apply sets it, also when the recorded value is the device's already.
TEST_CASE("state blocks: every kind of state set while recording goes into the block only", "[api][stateblock]") {
  NullDevice d;
  for (const RecordedSetter &s : kRecordedSetters) {
    INFO(s.name);
    s.set(d.device, 0);
    REQUIRE(s.get(d.device) == 0);
    REQUIRE(d.device->BeginStateBlock() == D3D_OK);
    s.set(d.device, 1);
    CHECK(s.get(d.device) == 0);
    IDirect3DStateBlock9 *changing = nullptr;
    REQUIRE(d.device->EndStateBlock(&changing) == D3D_OK);
    REQUIRE(d.device->BeginStateBlock() == D3D_OK);
    s.set(d.device, 0); // the device's own value
    IDirect3DStateBlock9 *same = nullptr;
    REQUIRE(d.device->EndStateBlock(&same) == D3D_OK);
    REQUIRE(changing->Apply() == D3D_OK);
    CHECK(s.get(d.device) == 1);
    REQUIRE(same->Apply() == D3D_OK);
    CHECK(s.get(d.device) == 0);
    CHECK(changing->Release() == 0);
    CHECK(same->Release() == 0);
  }
}

// A UP draw unsets the device's stream 0 and index buffer; while a block records, that is still
// the device's, not a state the block records.
TEST_CASE("state blocks: a UP draw while recording unsets the device's stream 0 and indices, not the block's",
          "[api][stateblock]") {
  NullDevice d;
  IDirect3DDevice9 *dev = d.device;
  IDirect3DVertexBuffer9 *vb = nullptr;
  IDirect3DIndexBuffer9 *ib = nullptr;
  REQUIRE(dev->CreateVertexBuffer(256, 0, 0, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
  REQUIRE(dev->CreateIndexBuffer(64, 0, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, nullptr) == D3D_OK);
  REQUIRE(dev->SetFVF(D3DFVF_XYZRHW) == D3D_OK);
  REQUIRE(dev->BeginStateBlock() == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, vb, 0, 16) == D3D_OK);
  REQUIRE(dev->SetIndices(ib) == D3D_OK);
  const float vertices[3][4] = {{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}};
  const WORD indices[3] = {0, 1, 2};
  REQUIRE(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 3, 1, indices, D3DFMT_INDEX16, vertices, 16) == D3D_OK);
  IDirect3DStateBlock9 *block = nullptr;
  REQUIRE(dev->EndStateBlock(&block) == D3D_OK);
  REQUIRE(block->Apply() == D3D_OK);
  IDirect3DVertexBuffer9 *stream = nullptr;
  IDirect3DIndexBuffer9 *bound = nullptr;
  UINT offset = 0, stride = 0;
  REQUIRE(dev->GetStreamSource(0, &stream, &offset, &stride) == D3D_OK);
  CHECK(stream == vb);
  REQUIRE(dev->GetIndices(&bound) == D3D_OK);
  CHECK(bound == ib);
  if (stream) stream->Release();
  if (bound) bound->Release();
  CHECK(block->Release() == 0);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  REQUIRE(dev->SetIndices(nullptr) == D3D_OK);
  CHECK(vb->Release() == 0);
  CHECK(ib->Release() == 0);
}
