// Vertex input and rasteriser details (issue 5): instance data with a divider above 1, DEPTHBIAS
// exactly in depth units, rendered through every backend that can start; images compared across
// backends and probed against what D3D9 defines.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr D3DCOLOR kBlack = 0xff000000;

DWORD bits(float f) { return std::bit_cast<DWORD>(f); }

// A pre-transformed 16-pixel-wide column from x0, rows y0..y1, at depth z.
void column(IDirect3DDevice9 *dev, float x0, float y0, float y1, float z, D3DCOLOR c) {
  const struct {
    float x, y, z, rhw;
    D3DCOLOR color;
  } v[4] = {{x0, y0, z, 1, c}, {x0 + 16, y0, z, 1, c}, {x0, y1, z, 1, c}, {x0 + 16, y1, z, 1, c}};
  HR(dev->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
}

// DEPTHBIAS is a depth difference added to z (D3D9), whatever the depth format and driver: the
// depth is cleared to 0.5 and tested LESS; columns at 0.5 + d and 0.5 - d, d = 100 steps of the
// format (2^-24 or 2^-16), are biased by 0.9 d and 1.1 d towards the cleared depth, so the test
// flips between the two: 0.9 d leaves them 10 steps short of crossing 0.5, 1.1 d 10 steps past it.
// A driver that applied twice the bias (llvmpipe's own unit) would pass the 0.9 d column too.
void depth_bias_flip_scene(const char *name, D3DFORMAT depth, float step) {
  SceneSetup setup;
  setup.depth = depth;
  auto images = render_all(name, setup, [step](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kBlack, 0.5f, 0));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESS));
    HR(dev->SetRenderState(D3DRS_ZWRITEENABLE, FALSE));
    const float d = 100 * step;
    const struct {
      float z, bias;
    } columns[4] = {{0.5f + d, -0.9f * d}, {0.5f + d, -1.1f * d}, {0.5f - d, 0.9f * d}, {0.5f - d, 1.1f * d}};
    // Top half: biased. Bottom half: the same depths unbiased, blue.
    for (int i = 0; i < 4; ++i) {
      HR(dev->SetRenderState(D3DRS_DEPTHBIAS, bits(columns[i].bias)));
      column(dev, 16.0f * float(i), 0, 32, columns[i].z, 0xff00ff00);
    }
    HR(dev->SetRenderState(D3DRS_DEPTHBIAS, bits(0.0f)));
    for (int i = 0; i < 4; ++i) column(dev, 16.0f * float(i), 32, 64, columns[i].z, 0xff0000ff);
  }, 0);
  probe(images, {{8, 16, kBlack, 0}, // 0.5 + 0.1 d fails
                 {24, 16, 0xff00ff00, 0}, // 0.5 - 0.1 d passes
                 {40, 16, 0xff00ff00, 0}, // 0.5 - 0.1 d passes
                 {56, 16, kBlack, 0}, // 0.5 + 0.1 d fails
                 {8, 48, kBlack, 0}, // unbiased 0.5 + d fails
                 {40, 48, 0xff0000ff, 0}}); // unbiased 0.5 - d passes
}

// A D3DPOOL_DEFAULT vertex buffer holding `bytes`.
IDirect3DVertexBuffer9 *vertex_buffer(IDirect3DDevice9 *dev, const void *data, UINT bytes) {
  IDirect3DVertexBuffer9 *vb = nullptr;
  HR(dev->CreateVertexBuffer(bytes, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr));
  void *p = nullptr;
  HR(vb->Lock(0, 0, &p, 0));
  std::memcpy(p, data, bytes);
  HR(vb->Unlock());
  return vb;
}

} // namespace

// Six instances of a 16 x 16 quad, added together (blend ONE + ONE): the colour stream advances
// every 3 instances (D3DSTREAMSOURCE_INSTANCEDATA | 3) and the offset stream every 2 (| 2), so
// instance i is colour[i / 3] at offset[i / 2]. Offset 0 gets colour 0 twice, offset 1 colours 0
// and 1, offset 2 colour 1 twice; offset 3 is never read.
TEST_CASE("scene: instance data with dividers 2 and 3", "[scene][vertex_misc][instancing]") {
  auto images = render_all("vm_instance_dividers", SceneSetup{}, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    struct Corner {
      float x, y, z, w;
    };
    struct Offset {
      float dx, dy;
    };
    // The quad covers clip x -1..-0.5, y 1..0.5: pixels 0..16 of the 64 x 64 target.
    const Corner quad[4] = {{-1, 1, 0.5f, 1}, {-0.5f, 1, 0.5f, 1}, {-1, 0.5f, 0.5f, 1}, {-0.5f, 0.5f, 0.5f, 1}};
    const uint16_t indices[6] = {0, 1, 2, 1, 3, 2};
    const D3DCOLOR colours[2] = {0xff400000, 0xff004000};
    const Offset offsets[4] = {{0, 0}, {0.5f, 0}, {1.0f, 0}, {0, -0.5f}};
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {1, 0, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        {2, 0, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        D3DDECL_END()};
    ShaderSet s(dev, "vs30_instance_offset", "ps30_pass_color", elements);
    IDirect3DVertexBuffer9 *geometry = vertex_buffer(dev, quad, sizeof quad);
    IDirect3DVertexBuffer9 *colour_stream = vertex_buffer(dev, colours, sizeof colours);
    IDirect3DVertexBuffer9 *offset_stream = vertex_buffer(dev, offsets, sizeof offsets);
    IDirect3DIndexBuffer9 *ib = nullptr;
    HR(dev->CreateIndexBuffer(sizeof indices, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr));
    void *p = nullptr;
    HR(ib->Lock(0, 0, &p, 0));
    std::memcpy(p, indices, sizeof indices);
    HR(ib->Unlock());
    HR(dev->SetStreamSource(0, geometry, 0, sizeof(Corner)));
    HR(dev->SetStreamSource(1, colour_stream, 0, sizeof(D3DCOLOR)));
    HR(dev->SetStreamSource(2, offset_stream, 0, sizeof(Offset)));
    HR(dev->SetIndices(ib));
    HR(dev->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    HR(dev->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ONE));
    HR(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 6));
    HR(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | 3));
    HR(dev->SetStreamSourceFreq(2, D3DSTREAMSOURCE_INSTANCEDATA | 2));
    UINT setting = 0;
    HR(dev->GetStreamSourceFreq(2, &setting));
    CHECK(setting == (D3DSTREAMSOURCE_INSTANCEDATA | 2));
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2));
    // The same streams with divider 1 each, two instances, one row lower: each instance reads
    // its own element (the pipeline changes back).
    HR(dev->SetStreamSourceFreq(0, D3DSTREAMSOURCE_INDEXEDDATA | 2));
    HR(dev->SetStreamSourceFreq(1, D3DSTREAMSOURCE_INSTANCEDATA | 1));
    HR(dev->SetStreamSourceFreq(2, D3DSTREAMSOURCE_INSTANCEDATA | 1));
    HR(dev->SetStreamSource(2, offset_stream, 2 * sizeof(Offset), sizeof(Offset))); // offsets 2 and 3
    HR(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 2));
    for (UINT stream = 0; stream < 3; ++stream) {
      HR(dev->SetStreamSourceFreq(stream, 1));
      HR(dev->SetStreamSource(stream, nullptr, 0, 0));
    }
    HR(dev->SetIndices(nullptr));
    ib->Release();
    geometry->Release();
    colour_stream->Release();
    offset_stream->Release();
    s.release(dev);
  }, 0);
  probe(images, {{8, 8, 0xff800000, 0}, // offset 0: instances 0 and 1, colour 0 twice
                 {24, 8, 0xff404000, 0}, // offset 1: instance 2 (colour 0) and 3 (colour 1)
                 {40, 8, 0xff408000, 0}, // offset 2: instances 4 and 5 (colour 1 twice), then the second draw's colour 0
                 {56, 8, kBlack, 0},
                 {8, 24, 0xff004000, 0}, // offset 3, read only by the second draw (colour 1)
                 {24, 24, kBlack, 0}});
}

TEST_CASE("scene: DEPTHBIAS flips the depth test exactly at the D3D9 bias on D24S8", "[scene][vertex_misc][depth]") {
  depth_bias_flip_scene("vm_depth_bias_flip_d24s8", D3DFMT_D24S8, 1.0f / 16777216.0f);
}

TEST_CASE("scene: DEPTHBIAS flips the depth test exactly at the D3D9 bias on D16", "[scene][vertex_misc][depth]") {
  depth_bias_flip_scene("vm_depth_bias_flip_d16", D3DFMT_D16, 1.0f / 65536.0f);
}

// D3DDECLTYPE_UDEC3 and DEC3N read w as 1 whatever the 2 bits above z hold (D3DDECLTYPE's
// documentation: "(value, value, value, 1)"). Cells of 16 x 16: columns 0..3 UDEC3 with those bits
// 0..3, columns 4..7 DEC3N likewise; row 0 through vs_3_0, row 1 through vs_2_0. Each cell shows
// w / 2 as red and x as green (UDEC3 x = 300 / 1023, DEC3N x = 200 / 511 * 0.5 + 0.5).
TEST_CASE("scene: UDEC3 and DEC3N read w as 1", "[scene][vertex_misc][vertex]") {
  SceneSetup setup;
  setup.width = 128, setup.height = 32;
  auto images = render_all("vm_dec3_w", setup, [](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kBlack, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    const struct {
      const char *vs, *ps;
    } stages[2] = {{"vs30_attribute_matrix", "ps30_pass_color"}, {"vs20_attribute_matrix", "ps20_pass_color"}};
    for (int row = 0; row < 2; ++row) {
      for (int column = 0; column < 8; ++column) {
        const bool dec3n = column >= 4;
        const D3DVERTEXELEMENT9 elements[] = {
            {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
            {0, 16, BYTE(dec3n ? D3DDECLTYPE_DEC3N : D3DDECLTYPE_UDEC3), D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
            D3DDECL_END()};
        ShaderSet s(dev, stages[row].vs, stages[row].ps, elements);
        // colour.r = w * 0.5, colour.g = x * (1 / 1023 or 0.5) + (0 or 0.5).
        const float gx = dec3n ? 0.5f : 1.0f / 1023.0f, gb = dec3n ? 0.5f : 0.0f;
        const float m[16] = {0, 0, 0, 0.5f, gx, 0, 0, 0, 0, 0, 0, 0, 0, gb, 0, 1};
        HR(dev->SetVertexShaderConstantF(0, m, 4));
        const uint32_t x = dec3n ? 200u : 300u;
        const uint32_t packed = x | 5u << 10 | 7u << 20 | uint32_t(column % 4) << 30;
        const float x0 = column / 4.0f - 1, x1 = x0 + 0.25f, y0 = 1 - row, y1 = y0 - 1;
        struct {
          float p[4];
          uint32_t attribute;
        } v[4] = {{{x0, y0, 0.5f, 1}, packed}, {{x1, y0, 0.5f, 1}, packed}, {{x0, y1, 0.5f, 1}, packed},
                  {{x1, y1, 0.5f, 1}, packed}};
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof v[0]));
        s.release(dev);
      }
    }
  }, 2);
  for (const auto &r : images)
    for (uint32_t row = 0; row < 2; ++row)
      for (uint32_t column = 0; column < 8; ++column) {
        INFO("row " << row << " column " << column);
        const DWORD green = column >= 4 ? DWORD(std::lround((200.0f / 511.0f * 0.5f + 0.5f) * 255))
                                        : DWORD(std::lround(300.0f / 1023.0f * 255));
        probe(r, column * 16 + 8, row * 16 + 8, 0xff800000 | green << 8, 2);
      }
}
