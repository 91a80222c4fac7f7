// State blocks in a frame: Apply restores what the next draw uses (through the same dirty
// tracking as the Set* calls), and recording a block leaves what is drawn alone.
#include <catch2/catch.hpp>

#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kRed = 0xffff0000, kGreen = 0xff00ff00, kBlue = 0xff0000ff, kBlack = 0xff000000;

// Three quads as triangle strips of four vertices: top left red, top right green, bottom blue.
void quads(TLVertex out[12]) {
  const float rects[3][4] = {{0, 0, 32, 32}, {32, 0, 64, 32}, {0, 32, 64, 64}};
  const D3DCOLOR colors[3] = {kRed, kGreen, kBlue};
  for (int q = 0; q < 3; ++q) {
    const float *r = rects[q];
    out[q * 4 + 0] = {r[0], r[1], 0.5f, 1.0f, colors[q]};
    out[q * 4 + 1] = {r[2], r[1], 0.5f, 1.0f, colors[q]};
    out[q * 4 + 2] = {r[0], r[3], 0.5f, 1.0f, colors[q]};
    out[q * 4 + 3] = {r[2], r[3], 0.5f, 1.0f, colors[q]};
  }
}

} // namespace

TEST_CASE("scene: state blocks restore the drawing state, recording changes nothing", "[scene][stateblock]") {
  SceneSetup setup;
  auto images = render_all("state_blocks", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    TLVertex vertices[12];
    quads(vertices);
    IDirect3DVertexBuffer9 *vb = nullptr;
    HR(dev->CreateVertexBuffer(sizeof vertices, D3DUSAGE_WRITEONLY, kTLVertexFVF, D3DPOOL_MANAGED, &vb, nullptr));
    void *p = nullptr;
    HR(vb->Lock(0, 0, &p, 0));
    std::memcpy(p, vertices, sizeof vertices);
    HR(vb->Unlock());
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->SetStreamSource(0, vb, 0, sizeof(TLVertex)));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    IDirect3DStateBlock9 *drawing = nullptr;
    HR(dev->CreateStateBlock(D3DSBT_ALL, &drawing));
    HR(vb->Release()); // the block and the binding keep it

    // Break everything the draw needs: no stream, another FVF, blending that keeps the target.
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    HR(dev->SetFVF(D3DFVF_XYZ));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_CW));
    HR(drawing->Apply());
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 0, 2)); // red

    // Recording a block that keeps the target does not change the device.
    HR(dev->BeginStateBlock());
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ZERO));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    IDirect3DStateBlock9 *keep = nullptr;
    HR(dev->EndStateBlock(&keep));
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 4, 2)); // green

    // Applied, it does: the blue quad leaves the bottom black.
    HR(keep->Apply());
    HR(dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, 8, 2));
    HR(drawing->Apply()); // back to no blending, for the harness's cleanup
    HR(dev->SetStreamSource(0, nullptr, 0, 0));
    CHECK(keep->Release() == 0);
    CHECK(drawing->Release() == 0);
  }, 0);
  for (const Rendered &r : images) {
    probe(r, 16, 16, kRed, 0);
    probe(r, 48, 16, kGreen, 0);
    probe(r, 16, 48, kBlack, 0);
    probe(r, 48, 48, kBlack, 0);
  }
}
