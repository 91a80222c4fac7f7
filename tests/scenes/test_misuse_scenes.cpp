// Legal D3D9 calls that are easy to get wrong, and calls D3D9 refuses: each gets D3D9's answer,
// the device keeps drawing, and nothing invalid reaches the plugin (every Vulkan run here is
// under the validation layer, and a validation message fails the test).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlack = 0xff000000;

struct Vertex {
  float x, y, z;
  D3DCOLOR color;
};

const D3DVERTEXELEMENT9 kPositionColor[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    D3DDECL_END()};
const D3DVERTEXELEMENT9 kPositionOnly[] = {
    {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0}, D3DDECL_END()};

// A clip-space quad over the whole viewport.
void quad(IDirect3DDevice9 *dev, D3DCOLOR c) {
  const Vertex v[4] = {{-1, 1, 0.5f, c}, {1, 1, 0.5f, c}, {-1, -1, 0.5f, c}, {1, -1, 0.5f, c}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
}

void tl_quad(IDirect3DDevice9 *dev, D3DCOLOR c) {
  const TLVertex v[4] = {{0, 0, 0.5f, 1, c}, {64, 0, 0.5f, 1, c}, {0, 64, 0.5f, 1, c}, {64, 64, 0.5f, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

} // namespace

TEST_CASE("scene: a vertex shader that writes no position draws nothing", "[scene][misuse]") {
  auto images = render_all("misuse_no_position", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    {
      ShaderSet s(dev, "vs20_no_position", "", kPositionColor);
      quad(dev, kRed); // D3D9 leaves oPos undefined: nothing the test relies on is drawn
      s.release(dev);
    }
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    tl_quad(dev, kGreen); // the device still draws
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}

// D3D9 leaves such an input undefined; Novem reads (0, 0, 0, 0), as a zeroed stream gives.
TEST_CASE("scene: a vertex shader input the declaration lacks reads 0", "[scene][misuse]") {
  auto images = render_all("misuse_missing_input", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0));
    ShaderSet s(dev, "vs20_color_from_v1", "", kPositionOnly);
    quad(dev, kRed); // v1 (COLOR0) is not in the declaration
    s.release(dev);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kBlack, 0);
}

TEST_CASE("scene: user clip planes are ignored by pre-transformed draws", "[scene][misuse]") {
  auto images = render_all("misuse_clip_pretransformed", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    const float plane[4] = {0, 0, 0, -1}; // clips everything it applies to
    HR(dev->SetClipPlane(0, plane));
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, 1));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    tl_quad(dev, kGreen);
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, 0));
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}

// D3D9 documents vs_3_0 for ps_3_0 only; wined3d and DXVK draw the pair anyway, linking by
// semantic, and so does Novem: COLOR0 reaches v0, TEXCOORD0 t0.
TEST_CASE("scene: vs_3_0 with a ps_1_x pixel shader", "[scene][misuse]") {
  auto images = render_all("misuse_vs30_ps11", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    ShaderSet s(dev, "vs30_pass_color_texcoord", "ps11_tex_mul", kPositionColor);
    const Vertex v[4] = {{-1, 1, 0.5f, kRed}, {1, 1, 0.5f, kRed}, {-1, -1, 0.5f, kRed}, {1, -1, 0.5f, kRed}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex))); // no texture: t0 samples (0, 0, 0, 1)
    s.release(dev);
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    tl_quad(dev, kGreen);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}

TEST_CASE("scene: stream strides past MaxStreamStride and unaligned offsets are refused", "[scene][misuse]") {
  auto images = render_all("misuse_streams", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    D3DCAPS9 caps;
    HR(dev->GetDeviceCaps(&caps));
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(4096, 0, 0, D3DPOOL_MANAGED, &vb, nullptr));
    CHECK(dev->SetStreamSource(0, vb, 0, caps.MaxStreamStride + 4) == D3DERR_INVALIDCALL);
    CHECK(dev->SetStreamSource(0, vb, 2, sizeof(Vertex)) == D3DERR_INVALIDCALL); // not 4-byte aligned
    const TLVertex wide[3] = {};
    CHECK(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, wide, caps.MaxStreamStride + 4) == D3DERR_INVALIDCALL);
    Vertex *p = nullptr;
    HR(vb->Lock(0, 0, reinterpret_cast<void **>(&p), 0));
    // Four vertices 4 bytes into the buffer, drawn at that offset.
    auto *bytes = reinterpret_cast<unsigned char *>(p) + 4;
    const Vertex v[4] = {{-1, 1, 0.5f, kGreen}, {1, 1, 0.5f, kGreen}, {-1, -1, 0.5f, kGreen}, {1, -1, 0.5f, kGreen}};
    std::memcpy(bytes, v, sizeof v);
    HR(vb->Unlock());
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    HR(dev->SetStreamSource(0, vb, 4, sizeof(Vertex)));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(vb->Release() == 0);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}

TEST_CASE("scene: viewports with NaN or past the target", "[scene][misuse]") {
  auto images = render_all("misuse_viewports", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    D3DVIEWPORT9 vp{0, 0, 64, 64, nan, 1.0f};
    CHECK(dev->SetViewport(&vp) == D3DERR_INVALIDCALL);
    vp = D3DVIEWPORT9{0, 0, 64, 64, 0.0f, nan};
    CHECK(dev->SetViewport(&vp) == D3DERR_INVALIDCALL);
    // Past what any device places: refused.
    vp = D3DVIEWPORT9{0, 0, 100000, 100000, 0.0f, 1.0f};
    CHECK(dev->SetViewport(&vp) == D3DERR_INVALIDCALL);
    // Larger than the target: accepted, drawing is clipped to the target. Depths outside [0, 1]
    // are accepted and clamped.
    vp = D3DVIEWPORT9{0, 0, 256, 256, -1.0f, 2.0f};
    HR(dev->SetViewport(&vp));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    quad(dev, kRed);
    vp = D3DVIEWPORT9{0, 0, 64, 64, 0.0f, 1.0f};
    HR(dev->SetViewport(&vp));
    quad(dev, kGreen);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}

// D3D9 leaves a pixel shader input no vertex stage writes undefined; Novem reads (0, 0, 0, 0).
TEST_CASE("scene: a pixel shader input the vertex shader does not write reads 0", "[scene][misuse]") {
  auto images = render_all("misuse_missing_varying", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kRed, 1.0f, 0));
    ShaderSet s(dev, "vs20_pass_position", "ps20_texcoord_color", kPositionColor); // t0 is never written
    quad(dev, kRed);
    s.release(dev);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kBlack, 0);
}

// Windows' runtime does not check a draw's vertex range against the streams' buffers: a draw
// that reads past a buffer's end answers D3D_OK; the plugins read zeros or the buffer's own
// vertices there (Vulkan's robustBufferAccess), never other memory, and the device draws on.
TEST_CASE("scene: draws that read past the vertex buffer's end answer D3D_OK and draw on", "[scene][misuse]") {
  auto images = render_all("misuse_past_the_buffer", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    IDirect3DVertexBuffer9 *vb = nullptr;
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateVertexBuffer(4 * sizeof(Vertex), 0, 0, D3DPOOL_MANAGED, &vb, nullptr));
    HR(dev->CreateIndexBuffer(6 * sizeof(WORD), 0, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib, nullptr));
    Vertex *p = nullptr;
    HR(vb->Lock(0, 0, reinterpret_cast<void **>(&p), 0));
    const Vertex v[4] = {{-1, 1, 0.5f, kGreen}, {1, 1, 0.5f, kGreen}, {-1, -1, 0.5f, kGreen}, {1, -1, 0.5f, kGreen}};
    std::memcpy(p, v, sizeof v);
    HR(vb->Unlock());
    WORD *i = nullptr;
    HR(ib->Lock(0, 0, reinterpret_cast<void **>(&i), 0));
    const WORD indices[6] = {0, 1, 2, 2, 1, 3};
    std::memcpy(i, indices, sizeof indices);
    HR(ib->Unlock());
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(Vertex)));
    HR(dev->SetIndices(ib));
    CHECK(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 1000, 1) == D3D_OK);
    CHECK(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 2, 20) == D3D_OK);
    CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 5000, 0, 4, 0, 2) == D3D_OK);
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2));
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    HR(dev->SetIndices(nullptr));
    CHECK(vb->Release() == 0);
    CHECK(ib->Release() == 0);
  }, 0);
  for (const auto &r : images) probe(r, 32, 32, kGreen, 0);
}
