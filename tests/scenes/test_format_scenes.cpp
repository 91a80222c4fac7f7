// Texture formats sampled by a ps_2_0 shader on every backend: each format's texels are written
// through LockRect in D3D9's memory layout, and the pixels are probed against what D3D9 defines
// for sampling them (missing channels read 1, luminance replicated, A8 reads (0, 0, 0, A), signed
// formats in [-1, 1], DXTn and 3Dc decoded as the formats define), or against what Windows
// returns where D3D9 defines nothing (YUV conversion, the mixed bump-map formats). Each texel covers 8 x 8 pixels; the
// top row of cells shows the texels' RGB, the row below (y 32..) their alpha.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct TexVertex {
  float x, y, z, w;
  float u, v;
};

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT2, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

constexpr UINT kCell = 8;     // pixels per texel
constexpr UINT kAlphaRow = 32; // the alpha quad's top row

using Rgba = std::array<float, 4>;

struct FormatCase {
  D3DFORMAT format;
  UINT width, height;
  bool is_signed; // shown as 0.5 * v + 0.5
  // Writes the level's texels (rows `pitch` bytes apart, as LockRect hands them out).
  std::function<void(uint8_t *bits, INT pitch)> fill;
  // What sampling texel (i, j) gives, by D3D9's definition.
  std::function<Rgba(UINT i, UINT j)> expect;
  uint32_t tolerance = 1;
};

// A format whose texel (i, j) is `bytes` bytes that write() fills from texel index k = 2j + i.
FormatCase per_texel(D3DFORMAT format, UINT bytes, bool is_signed, std::function<void(uint8_t *, UINT)> write,
                     std::function<Rgba(UINT)> expect, uint32_t tolerance = 1) {
  return FormatCase{format, 2, 2, is_signed,
                    [=](uint8_t *bits, INT pitch) {
                      for (UINT j = 0; j < 2; ++j)
                        for (UINT i = 0; i < 2; ++i) write(bits + j * pitch + i * bytes, 2 * j + i);
                    },
                    [=](UINT i, UINT j) { return expect(2 * j + i); }, tolerance};
}

template <typename T> void put(uint8_t *p, T v) { std::memcpy(p, &v, sizeof v); }

// IEEE half of a float that has an exact half (the test values: multiples of 1/4 up to 2).
uint16_t half(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if (f == 0.0f) return 0;
  const uint32_t sign = (b >> 16) & 0x8000u;
  const int exp = int((b >> 23) & 0xff) - 127 + 15;
  return uint16_t(sign | uint32_t(exp) << 10 | ((b >> 13) & 0x3ffu));
}

// DXT colour endpoints: RGB565 expanded to 8 bits as the format defines (bit replication).
Rgba rgb565(uint16_t c) {
  const uint32_t r = c >> 11, g = (c >> 5) & 63, b = c & 31;
  return {float((r << 3) | (r >> 2)) / 255, float((g << 2) | (g >> 4)) / 255, float((b << 3) | (b >> 2)) / 255, 1};
}

Rgba mix(const Rgba &a, const Rgba &b, float wa, float wb, float d) {
  return {(a[0] * wa + b[0] * wb) / d, (a[1] * wa + b[1] * wb) / d, (a[2] * wa + b[2] * wb) / d, 1};
}

// The palette of a DXT colour block; `four` forces the 4-colour mode (DXT3/5 always use it).
std::array<Rgba, 4> palette(uint16_t c0, uint16_t c1, bool four) {
  const Rgba a = rgb565(c0), b = rgb565(c1);
  if (four || c0 > c1) return {a, b, mix(a, b, 2, 1, 3), mix(a, b, 1, 2, 3)};
  return {a, b, mix(a, b, 1, 1, 2), Rgba{0, 0, 0, 0}}; // DXT1's transparent black
}

// The two blocks of the DXTn test textures (8 x 4 texels): block 0 red → blue, block 1 green →
// white (c0 < c1: DXT1's three-colour mode with transparent black); texel (x, y) of a block
// uses palette index (x + y) % 4.
constexpr uint16_t kC0[2] = {0xF800, 0x07E0}, kC1[2] = {0x001F, 0xFFFF};
UINT colour_index(UINT x, UINT y) { return (x + y) % 4; }

void write_colour_block(uint8_t *p, UINT block) {
  put(p, kC0[block]);
  put(p + 2, kC1[block]);
  uint32_t indices = 0;
  for (UINT y = 0; y < 4; ++y)
    for (UINT x = 0; x < 4; ++x) indices |= colour_index(x, y) << (2 * (4 * y + x));
  put(p + 4, indices);
}

Rgba colour_of(UINT i, UINT j, bool four) {
  const UINT block = i / 4;
  return palette(kC0[block], kC1[block], four)[colour_index(i % 4, j)];
}

// DXT5 alpha: block 0 has a0 = 255 > a1 = 0 (eight values), block 1 a0 = 40 < a1 = 240 (six
// values, then 0 and 255); texel (x, y) uses index (x + 2y) % 8.
constexpr uint8_t kA0[2] = {255, 40}, kA1[2] = {0, 240};
UINT alpha_index(UINT x, UINT y) { return (x + 2 * y) % 8; }

float dxt5_alpha(UINT block, UINT index) {
  const float a0 = kA0[block], a1 = kA1[block];
  if (index == 0) return a0 / 255;
  if (index == 1) return a1 / 255;
  if (a0 > a1) return ((8 - index) * a0 + (index - 1) * a1) / 7 / 255;
  if (index == 6) return 0;
  if (index == 7) return 1;
  return ((6 - index) * a0 + (index - 1) * a1) / 5 / 255;
}

FormatCase dxt(D3DFORMAT format) {
  FormatCase c{format, 8, 4, false, nullptr, nullptr, 3};
  const bool dxt1 = format == D3DFMT_DXT1, dxt5 = format == D3DFMT_DXT4 || format == D3DFMT_DXT5;
  c.fill = [=](uint8_t *bits, INT) {
    for (UINT b = 0; b < 2; ++b) {
      uint8_t *block = bits + b * (dxt1 ? 8 : 16);
      if (dxt5) {
        block[0] = kA0[b], block[1] = kA1[b];
        uint64_t indices = 0;
        for (UINT y = 0; y < 4; ++y)
          for (UINT x = 0; x < 4; ++x) indices |= uint64_t(alpha_index(x, y)) << (3 * (4 * y + x));
        std::memcpy(block + 2, &indices, 6);
      } else if (!dxt1) {
        uint64_t alpha = 0; // DXT2/3: 4 bits per texel, row-major
        for (UINT t = 0; t < 16; ++t) alpha |= uint64_t((t + 5 * b) % 16) << (4 * t);
        put(block, alpha);
      }
      write_colour_block(dxt1 ? block : block + 8, b);
    }
  };
  c.expect = [=](UINT i, UINT j) {
    Rgba v = colour_of(i, j, !dxt1);
    const UINT b = i / 4, x = i % 4;
    if (dxt5) v[3] = dxt5_alpha(b, alpha_index(x, j));
    else if (!dxt1) v[3] = float((4 * j + x + 5 * b) % 16) / 15;
    return v;
  };
  return c;
}

// ATI1 and ATI2 (3Dc): BC4 blocks, whose values decode like DXT5's alpha. ATI1 (8 x 4, the two
// DXT5 alpha blocks above) reads its value in every channel, as AMD's Direct3D 10-class drivers
// return it; ATI2 (8 x 4) stores a channel X in each block's first 8 bytes and Y in the next 8
// and reads (Y, X, 1, 1) (Wine's test_3dc_formats on Windows, every vendor).
UINT ati2_y_index(UINT x, UINT y) { return (alpha_index(x, y) + 3) % 8; }

void write_bc4_block(uint8_t *p, UINT block, UINT (*index)(UINT, UINT)) {
  p[0] = kA0[block], p[1] = kA1[block];
  uint64_t indices = 0;
  for (UINT y = 0; y < 4; ++y)
    for (UINT x = 0; x < 4; ++x) indices |= uint64_t(index(x, y)) << (3 * (4 * y + x));
  std::memcpy(p + 2, &indices, 6);
}

FormatCase ati(bool two) {
  FormatCase c{D3DFORMAT(two ? MAKEFOURCC('A', 'T', 'I', '2') : MAKEFOURCC('A', 'T', 'I', '1')), 8, 4, false, nullptr,
               nullptr, 3};
  c.fill = [two](uint8_t *bits, INT) {
    for (UINT b = 0; b < 2; ++b) {
      uint8_t *block = bits + b * (two ? 16 : 8);
      write_bc4_block(block, b, alpha_index);
      if (two) write_bc4_block(block + 8, 1 - b, ati2_y_index);
    }
  };
  c.expect = [two](UINT i, UINT j) {
    const UINT b = i / 4, x = i % 4;
    const float v = dxt5_alpha(b, alpha_index(x, j));
    if (!two) return Rgba{v, v, v, v};
    return Rgba{dxt5_alpha(1 - b, ati2_y_index(x, j)), v, 1, 1};
  };
  return c;
}

// YUY2 and UYVY, 4 x 2 texels (two pairs a row): inputs and the RGB that Wine's yuv_color_test
// records on Windows for each pair's two texels (full-range BT.601, both texels of a pair reading
// its U and V), chosen where the drivers it lists agree within 2.
struct YuvPair {
  uint32_t in;
  D3DCOLOR left, right;
};
constexpr YuvPair kUyvy[4] = {{0x4cff4c54, 0xff0000, 0xff0000},
                              {0xff000000, 0x008700, 0x4bff1c},
                              {0x1c6b1cff, 0x0000fd, 0x0000fd},
                              {0xff80ff80, 0xffffff, 0xffffff}};
constexpr YuvPair kYuy2[4] = {{0x4cff4c54, 0x0b8b00, 0xb6ffa3},
                              {0xff000000, 0xb30000, 0xb30000},
                              {0x00800080, 0x00ff00, 0x00ff00},
                              {0xff80ff80, 0xff00ff, 0xff00ff}};

Rgba rgb_of(D3DCOLOR c) { return {((c >> 16) & 0xff) / 255.0f, ((c >> 8) & 0xff) / 255.0f, (c & 0xff) / 255.0f, 1}; }

FormatCase yuv(D3DFORMAT format) {
  const YuvPair *pairs = format == D3DFMT_YUY2 ? kYuy2 : kUyvy;
  FormatCase c{format, 4, 2, false, nullptr, nullptr, 2};
  c.fill = [pairs](uint8_t *bits, INT pitch) {
    for (UINT k = 0; k < 4; ++k) put(bits + (k / 2) * pitch + (k % 2) * 4, pairs[k].in);
  };
  c.expect = [pairs](UINT i, UINT j) {
    const YuvPair &p = pairs[2 * j + i / 2];
    return rgb_of(i % 2 ? p.right : p.left);
  };
  return c;
}

// The bump-map formats, 4 x 4: texels and the colours (0.5 * v + 0.5) that Wine's
// test_signed_formats records on Windows, shared by every format; a format without a third
// channel reads 1 there, and every one reads alpha 1. X8L8V8U8 and L6V5U5 read their unsigned L
// in the third channel; L6V5U5's 5-bit U and V read 15 as 1 and -16 as -1, each sign over its own
// range (12 reads 0.8, -12 reads -0.75).
constexpr D3DCOLOR kSignedColours[4][4] = {
    {0x00808080, 0x00fefeff, 0x00010780, 0x008080ff},
    {0x00018080, 0x00800180, 0x0080fe80, 0x00fe8080},
    {0x00ba98a0, 0x004767a8, 0x00888881, 0x007878ff},
    {0x00c3c3c0, 0x003f3f80, 0x00e51fe1, 0x005fa2c8},
};
constexpr uint32_t kV16U16[4][4] = {{0x00000000, 0x7fff7fff, 0x88008000, 0x00000000},
                                    {0x00008000, 0x80000000, 0x7fff0000, 0x00007fff},
                                    {0x19993bbb, 0xe800c800, 0x08880888, 0xf800f800},
                                    {0x44444444, 0xc000c000, 0xa0006666, 0x2222e000}};
constexpr uint32_t kX8L8V8U8[4][4] = {{0x00000000, 0x00ff7f7f, 0x00008880, 0x00ff0000},
                                      {0x00000080, 0x00008000, 0x00007f00, 0x0000007f},
                                      {0x0041193b, 0x0051e8c8, 0x00040808, 0x00fff8f8},
                                      {0x00824444, 0x0000c0c0, 0x00c2a066, 0x009222e0}};
constexpr uint16_t kL6V5U5[4][4] = {{0x0000, 0xfdef, 0x0230, 0xfc00},
                                    {0x0010, 0x0200, 0x01e0, 0x000f},
                                    {0x4067, 0x53b9, 0x0421, 0xffff},
                                    {0x8108, 0x0318, 0xc28c, 0x909c}};

template <typename T, size_t N> FormatCase bump(D3DFORMAT format, const T (&texels)[N][N], bool third) {
  FormatCase c{format, 4, 4, true, nullptr, nullptr, 2};
  c.fill = [&texels](uint8_t *bits, INT pitch) {
    for (UINT j = 0; j < 4; ++j) std::memcpy(bits + j * pitch, texels[j], sizeof texels[j]);
  };
  c.expect = [third](UINT i, UINT j) {
    const D3DCOLOR shown = kSignedColours[j][i] | (third ? 0 : 0xff);
    auto value = [](uint32_t byte) { return (float(byte) / 255.0f - 0.5f) * 2.0f; };
    return Rgba{value((shown >> 16) & 0xff), value((shown >> 8) & 0xff), value(shown & 0xff), 1};
  };
  return c;
}

std::vector<FormatCase> format_cases() {
  std::vector<FormatCase> cases;
  // 16-bit RGB(A): the channels of texel k.
  static constexpr uint32_t r5[4] = {31, 0, 10, 20}, g5[4] = {0, 31, 5, 25}, b5[4] = {5, 10, 31, 0}, a1[4] = {1, 0, 1, 0};
  static constexpr uint32_t g6[4] = {0, 63, 21, 40};
  for (D3DFORMAT f : {D3DFMT_A1R5G5B5, D3DFMT_X1R5G5B5})
    cases.push_back(per_texel(
        f, 2, false, [](uint8_t *p, UINT k) { put(p, uint16_t(a1[k] << 15 | r5[k] << 10 | g5[k] << 5 | b5[k])); },
        [f](UINT k) { return Rgba{r5[k] / 31.0f, g5[k] / 31.0f, b5[k] / 31.0f, f == D3DFMT_X1R5G5B5 ? 1.0f : float(a1[k])}; }));
  cases.push_back(per_texel(
      D3DFMT_R5G6B5, 2, false, [](uint8_t *p, UINT k) { put(p, uint16_t(r5[k] << 11 | g6[k] << 5 | b5[k])); },
      [](UINT k) { return Rgba{r5[k] / 31.0f, g6[k] / 63.0f, b5[k] / 31.0f, 1}; }));
  static constexpr uint32_t r4[4] = {15, 0, 3, 8}, g4[4] = {0, 15, 7, 4}, b4[4] = {6, 9, 15, 1}, a4[4] = {15, 0, 5, 10};
  cases.push_back(per_texel(
      D3DFMT_A4R4G4B4, 2, false, [](uint8_t *p, UINT k) { put(p, uint16_t(a4[k] << 12 | r4[k] << 8 | g4[k] << 4 | b4[k])); },
      [](UINT k) { return Rgba{r4[k] / 15.0f, g4[k] / 15.0f, b4[k] / 15.0f, a4[k] / 15.0f}; }));
  // Alpha and luminance.
  static constexpr uint8_t l8[4] = {0, 50, 200, 255}, al8[4] = {255, 128, 64, 0};
  cases.push_back(per_texel(D3DFMT_A8, 1, false, [](uint8_t *p, UINT k) { *p = l8[k]; },
                            [](UINT k) { return Rgba{0, 0, 0, l8[k] / 255.0f}; }));
  cases.push_back(per_texel(D3DFMT_L8, 1, false, [](uint8_t *p, UINT k) { *p = l8[k]; },
                            [](UINT k) { return Rgba{l8[k] / 255.0f, l8[k] / 255.0f, l8[k] / 255.0f, 1}; }));
  cases.push_back(per_texel(
      D3DFMT_A8L8, 2, false, [](uint8_t *p, UINT k) { p[0] = l8[k], p[1] = al8[k]; },
      [](UINT k) { return Rgba{l8[k] / 255.0f, l8[k] / 255.0f, l8[k] / 255.0f, al8[k] / 255.0f}; }));
  cases.push_back(per_texel(
      D3DFMT_A4L4, 1, false, [](uint8_t *p, UINT k) { *p = uint8_t(a4[k] << 4 | r4[k]); },
      [](UINT k) { return Rgba{r4[k] / 15.0f, r4[k] / 15.0f, r4[k] / 15.0f, a4[k] / 15.0f}; }));
  static constexpr uint16_t l16[4] = {0, 1000, 30000, 65535};
  cases.push_back(per_texel(D3DFMT_L16, 2, false, [](uint8_t *p, UINT k) { put(p, l16[k]); }, [](UINT k) {
    const float l = l16[k] / 65535.0f;
    return Rgba{l, l, l, 1};
  }));
  // Signed: V8U8 reads (U, V, 1, 1).
  static constexpr int8_t u8[4] = {127, -127, 64, 0}, v8[4] = {0, 64, -64, 127}, w8[4] = {-32, 100, 0, -127},
                          q8[4] = {127, 0, -127, 64};
  cases.push_back(per_texel(D3DFMT_V8U8, 2, true, [](uint8_t *p, UINT k) { put(p, u8[k]), put(p + 1, v8[k]); },
                            [](UINT k) { return Rgba{u8[k] / 127.0f, v8[k] / 127.0f, 1, 1}; }));
  cases.push_back(per_texel(
      D3DFMT_Q8W8V8U8, 4, true, [](uint8_t *p, UINT k) { put(p, u8[k]), put(p + 1, v8[k]), put(p + 2, w8[k]), put(p + 3, q8[k]); },
      [](UINT k) { return Rgba{u8[k] / 127.0f, v8[k] / 127.0f, w8[k] / 127.0f, q8[k] / 127.0f}; }));
  // 16 bits per channel.
  static constexpr uint16_t r16[4] = {65535, 0, 20000, 40000}, g16[4] = {0, 65535, 50000, 10000},
                            b16[4] = {30000, 5000, 65535, 0}, a16[4] = {65535, 32768, 0, 16384};
  cases.push_back(per_texel(D3DFMT_G16R16, 4, false, [](uint8_t *p, UINT k) { put(p, r16[k]), put(p + 2, g16[k]); },
                            [](UINT k) { return Rgba{r16[k] / 65535.0f, g16[k] / 65535.0f, 1, 1}; }));
  cases.push_back(per_texel(
      D3DFMT_A16B16G16R16, 8, false,
      [](uint8_t *p, UINT k) { put(p, r16[k]), put(p + 2, g16[k]), put(p + 4, b16[k]), put(p + 6, a16[k]); },
      [](UINT k) { return Rgba{r16[k] / 65535.0f, g16[k] / 65535.0f, b16[k] / 65535.0f, a16[k] / 65535.0f}; }));
  // Floats: missing channels read 1.
  static constexpr float rf[4] = {0.25f, 1.0f, 0.0f, 0.5f}, gf[4] = {0.75f, 0.0f, 0.5f, 1.0f},
                         bf[4] = {0.0f, 0.5f, 1.0f, 0.25f}, af[4] = {1.0f, 0.25f, 0.75f, 0.0f};
  cases.push_back(per_texel(D3DFMT_R16F, 2, false, [](uint8_t *p, UINT k) { put(p, half(rf[k])); },
                            [](UINT k) { return Rgba{rf[k], 1, 1, 1}; }));
  cases.push_back(per_texel(D3DFMT_G16R16F, 4, false, [](uint8_t *p, UINT k) { put(p, half(rf[k])), put(p + 2, half(gf[k])); },
                            [](UINT k) { return Rgba{rf[k], gf[k], 1, 1}; }));
  cases.push_back(per_texel(
      D3DFMT_A16B16G16R16F, 8, false,
      [](uint8_t *p, UINT k) { put(p, half(rf[k])), put(p + 2, half(gf[k])), put(p + 4, half(bf[k])), put(p + 6, half(af[k])); },
      [](UINT k) { return Rgba{rf[k], gf[k], bf[k], af[k]}; }));
  cases.push_back(per_texel(D3DFMT_R32F, 4, false, [](uint8_t *p, UINT k) { put(p, rf[k]); },
                            [](UINT k) { return Rgba{rf[k], 1, 1, 1}; }));
  cases.push_back(per_texel(D3DFMT_G32R32F, 8, false, [](uint8_t *p, UINT k) { put(p, rf[k]), put(p + 4, gf[k]); },
                            [](UINT k) { return Rgba{rf[k], gf[k], 1, 1}; }));
  cases.push_back(per_texel(
      D3DFMT_A32B32G32R32F, 16, false,
      [](uint8_t *p, UINT k) { put(p, rf[k]), put(p + 4, gf[k]), put(p + 8, bf[k]), put(p + 12, af[k]); },
      [](UINT k) { return Rgba{rf[k], gf[k], bf[k], af[k]}; }));
  // 10-bit channels and 2-bit alpha.
  static constexpr uint32_t r10[4] = {1023, 0, 512, 256}, g10[4] = {0, 1023, 768, 100}, b10[4] = {300, 600, 1023, 0},
                            a2[4] = {3, 0, 1, 2};
  cases.push_back(per_texel(
      D3DFMT_A2R10G10B10, 4, false, [](uint8_t *p, UINT k) { put(p, a2[k] << 30 | r10[k] << 20 | g10[k] << 10 | b10[k]); },
      [](UINT k) { return Rgba{r10[k] / 1023.0f, g10[k] / 1023.0f, b10[k] / 1023.0f, a2[k] / 3.0f}; }));
  cases.push_back(per_texel(
      D3DFMT_A2B10G10R10, 4, false, [](uint8_t *p, UINT k) { put(p, a2[k] << 30 | b10[k] << 20 | g10[k] << 10 | r10[k]); },
      [](UINT k) { return Rgba{r10[k] / 1023.0f, g10[k] / 1023.0f, b10[k] / 1023.0f, a2[k] / 3.0f}; }));
  for (D3DFORMAT f : {D3DFMT_DXT1, D3DFMT_DXT2, D3DFMT_DXT3, D3DFMT_DXT4, D3DFMT_DXT5}) cases.push_back(dxt(f));
  cases.push_back(ati(false));
  cases.push_back(ati(true));
  cases.push_back(yuv(D3DFMT_YUY2));
  cases.push_back(yuv(D3DFMT_UYVY));
  cases.push_back(bump(D3DFMT_V16U16, kV16U16, false));
  cases.push_back(bump(D3DFMT_X8L8V8U8, kX8L8V8U8, true));
  cases.push_back(bump(D3DFMT_L6V5U5, kL6V5U5, true));
  // Q16W16V16U16: four signed words, read (U, V, W, Q) like Q8W8V8U8.
  static constexpr int16_t u16[4] = {32767, -32767, 16384, 0}, v16[4] = {0, 16384, -16384, 32767},
                           w16[4] = {-8192, 25600, 0, -32767}, q16[4] = {32767, 0, -32767, 16384};
  cases.push_back(per_texel(
      D3DFMT_Q16W16V16U16, 8, true,
      [](uint8_t *p, UINT k) { put(p, u16[k]), put(p + 2, v16[k]), put(p + 4, w16[k]), put(p + 6, q16[k]); },
      [](UINT k) { return Rgba{u16[k] / 32767.0f, v16[k] / 32767.0f, w16[k] / 32767.0f, q16[k] / 32767.0f}; }));
  return cases;
}

std::string format_name(D3DFORMAT f) {
  switch (f) {
  case D3DFMT_A1R5G5B5: return "A1R5G5B5";
  case D3DFMT_X1R5G5B5: return "X1R5G5B5";
  case D3DFMT_R5G6B5: return "R5G6B5";
  case D3DFMT_A4R4G4B4: return "A4R4G4B4";
  case D3DFMT_A8: return "A8";
  case D3DFMT_L8: return "L8";
  case D3DFMT_A8L8: return "A8L8";
  case D3DFMT_A4L4: return "A4L4";
  case D3DFMT_L16: return "L16";
  case D3DFMT_V8U8: return "V8U8";
  case D3DFMT_Q8W8V8U8: return "Q8W8V8U8";
  case D3DFMT_G16R16: return "G16R16";
  case D3DFMT_A16B16G16R16: return "A16B16G16R16";
  case D3DFMT_R16F: return "R16F";
  case D3DFMT_G16R16F: return "G16R16F";
  case D3DFMT_A16B16G16R16F: return "A16B16G16R16F";
  case D3DFMT_R32F: return "R32F";
  case D3DFMT_G32R32F: return "G32R32F";
  case D3DFMT_A32B32G32R32F: return "A32B32G32R32F";
  case D3DFMT_A2R10G10B10: return "A2R10G10B10";
  case D3DFMT_A2B10G10R10: return "A2B10G10R10";
  case D3DFMT_V16U16: return "V16U16";
  case D3DFMT_Q16W16V16U16: return "Q16W16V16U16";
  case D3DFMT_X8L8V8U8: return "X8L8V8U8";
  case D3DFMT_L6V5U5: return "L6V5U5";
  default: // DXTn, ATIn, YUY2, UYVY: the FOURCC
    return std::string{char(f & 0xff), char((f >> 8) & 0xff), char((f >> 16) & 0xff), char(f >> 24)};
  }
}

// A quad over pixels [x0, x0 + w) x [y0, y0 + h) showing the whole texture.
void quad(IDirect3DDevice9 *dev, float x0, float y0, float w, float h) {
  auto cx = [](float px) { return px / 32.0f - 1.0f; };
  auto cy = [](float py) { return 1.0f - py / 32.0f; };
  TexVertex v[4] = {{cx(x0), cy(y0), 0.5f, 1, 0, 0},
                    {cx(x0 + w), cy(y0), 0.5f, 1, 1, 0},
                    {cx(x0), cy(y0 + h), 0.5f, 1, 0, 1},
                    {cx(x0 + w), cy(y0 + h), 0.5f, 1, 1, 1}};
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TexVertex)));
}

D3DCOLOR to_color(float r, float g, float b) {
  auto q = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return D3DCOLOR(0xff000000u | q(r) << 16 | q(g) << 8 | q(b));
}

} // namespace

TEST_CASE("scene: every texture format samples as D3D9 defines", "[scene][texture][format]") {
  for (const FormatCase &fc : format_cases()) {
    const std::string name = format_name(fc.format);
    DYNAMIC_SECTION(name) {
      auto images = render_all("format_" + name, SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        IDirect3DTexture9 *tex = nullptr;
        HR(dev->CreateTexture(fc.width, fc.height, 1, 0, fc.format, D3DPOOL_MANAGED, &tex, nullptr));
        D3DLOCKED_RECT lr;
        HR(tex->LockRect(0, &lr, nullptr, 0));
        fc.fill(static_cast<uint8_t *>(lr.pBits), lr.Pitch);
        HR(tex->UnlockRect(0));
        HR(dev->SetTexture(0, tex));
        // Signed formats are shown as 0.5 * v + 0.5, so that negative values are visible.
        const float scale = fc.is_signed ? 0.5f : 1.0f, bias = fc.is_signed ? 0.5f : 0.0f;
        const float c[8] = {scale, scale, scale, scale, bias, bias, bias, bias};
        HR(dev->SetPixelShaderConstantF(0, c, 2));
        const float w = float(fc.width * kCell), h = float(fc.height * kCell);
        {
          ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_scale_bias", kElements);
          quad(dev, 0, 0, w, h);
          s.release(dev);
        }
        {
          ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_alpha_scale_bias", kElements);
          quad(dev, 0, float(kAlphaRow), w, h);
          s.release(dev);
        }
        HR(dev->SetTexture(0, nullptr));
        CHECK(tex->Release() == 0);
      }, fc.tolerance);
      const float scale = fc.is_signed ? 0.5f : 1.0f, bias = fc.is_signed ? 0.5f : 0.0f;
      for (const auto &r : images)
        for (UINT j = 0; j < fc.height; ++j)
          for (UINT i = 0; i < fc.width; ++i) {
            const Rgba v = fc.expect(i, j);
            const UINT x = i * kCell + kCell / 2, y = j * kCell + kCell / 2;
            probe(r, x, y, to_color(v[0] * scale + bias, v[1] * scale + bias, v[2] * scale + bias), fc.tolerance);
            const float a = v[3] * scale + bias;
            probe(r, x, kAlphaRow + y, to_color(a, a, a), fc.tolerance);
          }
    }
  }
}

// Volume textures of the block formats (DXTn, ATI1, ATI2) sample as their 2D twins: the same
// blocks written through LockBox into a one-slice volume, read by a dcl_volume sampler.
TEST_CASE("scene: DXTn and 3Dc volume textures sample as D3D9 defines", "[scene][texture][format]") {
  std::vector<FormatCase> cases;
  for (D3DFORMAT f : {D3DFMT_DXT1, D3DFMT_DXT3, D3DFMT_DXT5}) cases.push_back(dxt(f));
  cases.push_back(ati(false));
  cases.push_back(ati(true));
  for (const FormatCase &fc : cases) {
    const std::string name = format_name(fc.format);
    DYNAMIC_SECTION(name) {
      auto images = render_all("volume_format_" + name, SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        IDirect3DVolumeTexture9 *tex = nullptr;
        HR(dev->CreateVolumeTexture(fc.width, fc.height, 1, 1, 0, fc.format, D3DPOOL_MANAGED, &tex, nullptr));
        D3DLOCKED_BOX lb;
        HR(tex->LockBox(0, &lb, nullptr, 0));
        fc.fill(static_cast<uint8_t *>(lb.pBits), lb.RowPitch);
        HR(tex->UnlockBox(0));
        HR(dev->SetTexture(0, tex));
        const float c[8] = {1, 1, 1, 1, 0, 0, 0, 0};
        HR(dev->SetPixelShaderConstantF(0, c, 2));
        const float w = float(fc.width * kCell), h = float(fc.height * kCell);
        {
          ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_volume_scale_bias", kElements);
          quad(dev, 0, 0, w, h);
          s.release(dev);
        }
        {
          ShaderSet s(dev, "vs20_pass_texcoord_v1", "ps20_texld_volume_alpha_scale_bias", kElements);
          quad(dev, 0, float(kAlphaRow), w, h);
          s.release(dev);
        }
        HR(dev->SetTexture(0, nullptr));
        CHECK(tex->Release() == 0);
      }, fc.tolerance);
      for (const auto &r : images)
        for (UINT j = 0; j < fc.height; ++j)
          for (UINT i = 0; i < fc.width; ++i) {
            const Rgba v = fc.expect(i, j);
            const UINT x = i * kCell + kCell / 2, y = j * kCell + kCell / 2;
            probe(r, x, y, to_color(v[0], v[1], v[2]), fc.tolerance);
            probe(r, x, kAlphaRow + y, to_color(v[3], v[3], v[3]), fc.tolerance);
          }
    }
  }
}
