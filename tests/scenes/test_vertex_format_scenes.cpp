// Every D3DDECLTYPE read from a vertex buffer on every backend: the attribute goes through a
// vs_3_0 or vs_2_0 shader to the colour, and pixels are probed against the values D3DDECLTYPE's
// documentation defines (missing components read as (0, 0, 1) for y, z, w).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

// One declaration type: the attribute's bytes, the (x, y, z, w) D3D9 defines they read as, and
// the colour mapping value * scale + bias that brings them into [0, 1].
struct FormatCase {
  const char *name;
  BYTE type;
  std::vector<uint8_t> bytes;
  float value[4];
  float scale, bias;
};

template <typename T> std::vector<uint8_t> pack(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

// UDEC3/DEC3N: x in bits 9..0, y 19..10, z 29..20, then 2 bits. D3D9 defines w = 1 whatever
// those bits hold (test_vertex_misc_scenes.cpp stores other values there).
std::vector<uint8_t> pack_1010102(int x, int y, int z, int w) {
  uint32_t v = (uint32_t(x) & 0x3ff) | (uint32_t(y) & 0x3ff) << 10 | (uint32_t(z) & 0x3ff) << 20 | (uint32_t(w) & 3) << 30;
  return pack<uint32_t>({v});
}

const std::vector<FormatCase> &cases() {
  static const std::vector<FormatCase> c = {
      {"FLOAT1", D3DDECLTYPE_FLOAT1, pack<float>({0.25f}), {0.25f, 0, 0, 1}, 1, 0},
      {"FLOAT2", D3DDECLTYPE_FLOAT2, pack<float>({0.25f, 0.5f}), {0.25f, 0.5f, 0, 1}, 1, 0},
      {"FLOAT3", D3DDECLTYPE_FLOAT3, pack<float>({0.25f, 0.5f, 0.75f}), {0.25f, 0.5f, 0.75f, 1}, 1, 0},
      {"FLOAT4", D3DDECLTYPE_FLOAT4, pack<float>({0.25f, 0.5f, 0.75f, 0.125f}), {0.25f, 0.5f, 0.75f, 0.125f}, 1, 0},
      // D3DCOLOR 0x20C08040: bytes B, G, R, A read as (R, G, B, A).
      {"D3DCOLOR", D3DDECLTYPE_D3DCOLOR, pack<uint32_t>({0x20C08040u}), {0xC0 / 255.f, 0x80 / 255.f, 0x40 / 255.f, 0x20 / 255.f}, 1, 0},
      // Not normalised: 200 reads 200.0.
      {"UBYTE4", D3DDECLTYPE_UBYTE4, pack<uint8_t>({10, 100, 200, 255}), {10, 100, 200, 255}, 1 / 255.f, 0},
      {"SHORT2", D3DDECLTYPE_SHORT2, pack<int16_t>({-1000, 3000}), {-1000, 3000, 0, 1}, 1 / 8000.f, 0.5f},
      {"SHORT4", D3DDECLTYPE_SHORT4, pack<int16_t>({-1000, 3000, -4000, 2000}), {-1000, 3000, -4000, 2000}, 1 / 8000.f, 0.5f},
      {"UBYTE4N", D3DDECLTYPE_UBYTE4N, pack<uint8_t>({51, 102, 153, 204}), {0.2f, 0.4f, 0.6f, 0.8f}, 1, 0},
      // D3D9: value / 32767 (-32768 reads -1.00003, which the colour clamps like -1).
      {"SHORT2N", D3DDECLTYPE_SHORT2N, pack<int16_t>({-32768, 16384}), {-32768 / 32767.f, 16384 / 32767.f, 0, 1}, 0.5f, 0.5f},
      {"SHORT4N", D3DDECLTYPE_SHORT4N, pack<int16_t>({-16384, 32767, -32767, 8192}),
       {-16384 / 32767.f, 1, -1, 8192 / 32767.f}, 0.5f, 0.5f},
      {"USHORT2N", D3DDECLTYPE_USHORT2N, pack<uint16_t>({65535, 16384}), {1, 16384 / 65535.f, 0, 1}, 1, 0},
      {"USHORT4N", D3DDECLTYPE_USHORT4N, pack<uint16_t>({0, 32768, 65535, 13107}), {0, 32768 / 65535.f, 1, 0.2f}, 1, 0},
      {"UDEC3", D3DDECLTYPE_UDEC3, pack_1010102(100, 500, 1000, 1), {100, 500, 1000, 1}, 1 / 1023.f, 0},
      // D3D9: value / 511.
      {"DEC3N", D3DDECLTYPE_DEC3N, pack_1010102(-511, 256, -128, 1), {-1, 256 / 511.f, -128 / 511.f, 1}, 0.5f, 0.5f},
      // IEEE halves: 0x3400 = 0.25, 0xB800 = -0.5, 0x3C00 = 1, 0x3800 = 0.5, 0xBC00 = -1.
      {"FLOAT16_2", D3DDECLTYPE_FLOAT16_2, pack<uint16_t>({0x3400, 0xB800}), {0.25f, -0.5f, 0, 1}, 0.5f, 0.5f},
      {"FLOAT16_4", D3DDECLTYPE_FLOAT16_4, pack<uint16_t>({0x3C00, 0x3800, 0x0000, 0xBC00}), {1, 0.5f, 0, -1}, 0.5f, 0.5f},
  };
  return c;
}

constexpr UINT kWidth = 128, kHeight = 80, kCell = 16, kColumns = kWidth / kCell;

// Case k draws cell 2k with (x, y, z) as (red, green, blue) and cell 2k + 1 with w as red.
void cell_origin(size_t cell, UINT &x, UINT &y) { x = UINT(cell % kColumns) * kCell, y = UINT(cell / kColumns) * kCell; }

D3DCOLOR expected_color(const FormatCase &c, bool w_cell) {
  auto channel = [&](float v) { return DWORD(std::lround(std::clamp(v * c.scale + c.bias, 0.0f, 1.0f) * 255)); };
  if (w_cell) return channel(c.value[3]) << 16;
  return channel(c.value[0]) << 16 | channel(c.value[1]) << 8 | channel(c.value[2]);
}

// A quad covering one cell, position FLOAT4 in clip space at offset 0 and the attribute at 16.
void draw_cell(IDirect3DDevice9 *dev, size_t cell, const std::vector<uint8_t> &attribute) {
  UINT px, py;
  cell_origin(cell, px, py);
  const float x0 = 2.0f * px / kWidth - 1, x1 = 2.0f * (px + kCell) / kWidth - 1;
  const float y0 = 1 - 2.0f * py / kHeight, y1 = 1 - 2.0f * (py + kCell) / kHeight;
  const float corners[4][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
  uint8_t vertices[4][32] = {};
  for (int i = 0; i < 4; ++i) {
    const float position[4] = {corners[i][0], corners[i][1], 0.5f, 1};
    std::memcpy(vertices[i], position, sizeof position);
    std::memcpy(vertices[i] + 16, attribute.data(), attribute.size());
  }
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, vertices, 32));
}

void draw_all_formats(IDirect3DDevice9 *dev, const std::string &vs, const std::string &ps) {
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
  const D3DVERTEXELEMENT9 first[] = {{0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
                                     D3DDECL_END()};
  ShaderSet shaders(dev, vs, ps, first);
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  for (size_t k = 0; k < cases().size(); ++k) {
    const FormatCase &c = cases()[k];
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {0, 16, c.type, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
        D3DDECL_END()};
    IDirect3DVertexDeclaration9 *decl = nullptr;
    HR(dev->CreateVertexDeclaration(elements, &decl));
    HR(dev->SetVertexDeclaration(decl));
    const float s = c.scale, b = c.bias;
    const float xyz[16] = {s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, b, b, b, 1};
    HR(dev->SetVertexShaderConstantF(0, xyz, 4));
    draw_cell(dev, 2 * k, c.bytes);
    const float w[16] = {0, 0, 0, s, 0, 0, 0, 0, 0, 0, 0, 0, b, 0, 0, 1};
    HR(dev->SetVertexShaderConstantF(0, w, 4));
    draw_cell(dev, 2 * k + 1, c.bytes);
    HR(dev->SetVertexDeclaration(shaders.decl));
    CHECK(decl->Release() == 0);
  }
  shaders.release(dev);
}

void probe_all_formats(const std::vector<Rendered> &images) {
  for (const auto &r : images)
    for (size_t k = 0; k < cases().size(); ++k)
      for (int w_cell = 0; w_cell < 2; ++w_cell) {
        INFO(cases()[k].name << (w_cell ? " w" : " xyz"));
        UINT x, y;
        cell_origin(2 * k + size_t(w_cell), x, y);
        probe(r, x + kCell / 2, y + kCell / 2, expected_color(cases()[k], w_cell != 0), 2);
      }
}

} // namespace

TEST_CASE("scene: every D3DDECLTYPE read by a vs_3_0 shader", "[scene][vertex]") {
  SceneSetup setup;
  setup.width = kWidth, setup.height = kHeight;
  auto images = render_all("vertex_formats_vs30", setup,
                           [](IDirect3DDevice9 *dev) { draw_all_formats(dev, "vs30_attribute_matrix", "ps30_pass_color"); }, 2);
  probe_all_formats(images);
}

TEST_CASE("scene: every D3DDECLTYPE read by a vs_2_0 shader", "[scene][vertex]") {
  SceneSetup setup;
  setup.width = kWidth, setup.height = kHeight;
  auto images = render_all("vertex_formats_vs20", setup,
                           [](IDirect3DDevice9 *dev) { draw_all_formats(dev, "vs20_attribute_matrix", "ps20_pass_color"); }, 2);
  probe_all_formats(images);
}
