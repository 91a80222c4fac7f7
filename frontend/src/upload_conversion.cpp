#include "upload_conversion.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "novem/image_layout.hpp"

namespace novem {

namespace {

uint8_t clamp_byte(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 255.0f))); }

// Full-range BT.601 (JFIF), which Windows' drivers use for YUY2 and UYVY: Wine's yuv_color_test
// records, among others, Y 255 with U = V = 0 as (0x4b, 0xff, 0x1c) and Y 0 with U = V = 0 as
// (0, 0x87, 0). Both texels of a pair read the pair's U and V.
void yuv_to_bgra(uint8_t y, uint8_t u, uint8_t v, uint8_t *out) {
  const float cb = float(u) - 128.0f, cr = float(v) - 128.0f;
  out[0] = clamp_byte(float(y) + 1.772f * cb);
  out[1] = clamp_byte(float(y) - 0.344136f * cb - 0.714136f * cr);
  out[2] = clamp_byte(float(y) + 1.402f * cr);
  out[3] = 255;
}

// A value in [-1, 1] as a 16-bit signed normalized word (n / 32767).
int16_t snorm16(float v) { return int16_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f)); }

void put_uvl1(uint8_t *out, float u, float v, float l) {
  const int16_t words[4] = {snorm16(u), snorm16(v), snorm16(l), 32767};
  std::memcpy(out, words, sizeof words);
}

// The eight (or six, plus 0 and 255) values of a BC4 block (DXT5's alpha), by 3-bit index.
void bc4_palette(const uint8_t *block, uint8_t values[8]) {
  const int a0 = block[0], a1 = block[1];
  values[0] = uint8_t(a0), values[1] = uint8_t(a1);
  if (a0 > a1) {
    for (int i = 2; i < 8; ++i) values[i] = uint8_t(((8 - i) * a0 + (i - 1) * a1 + 3) / 7);
  } else {
    for (int i = 2; i < 6; ++i) values[i] = uint8_t(((6 - i) * a0 + (i - 1) * a1 + 2) / 5);
    values[6] = 0, values[7] = 255;
  }
}

// Texel t (0..15, row-major) of a BC4 block.
uint8_t bc4_texel(const uint8_t *block, const uint8_t values[8], int t) {
  uint64_t bits = 0;
  std::memcpy(&bits, block + 2, 6);
  return values[(bits >> (3 * t)) & 7];
}

// A BC1 colour block's 16 texels as B, G, R, A; `four` forces the four-colour mode (DXT2-5).
void bc1_texels(const uint8_t *block, bool four, uint8_t out[16][4]) {
  uint16_t c[2];
  std::memcpy(c, block, 4);
  uint8_t palette[4][4]; // B, G, R, A; endpoints widened by repeating their high bits
  for (int i = 0; i < 2; ++i) {
    const uint32_t r = c[i] >> 11, g = (c[i] >> 5) & 63, b = c[i] & 31;
    palette[i][0] = uint8_t(b << 3 | b >> 2), palette[i][1] = uint8_t(g << 2 | g >> 4);
    palette[i][2] = uint8_t(r << 3 | r >> 2), palette[i][3] = 255;
  }
  const bool four_colours = four || c[0] > c[1];
  for (int k = 0; k < 4; ++k) {
    const int p0 = palette[0][k], p1 = palette[1][k];
    palette[2][k] = uint8_t(four_colours ? (2 * p0 + p1 + 1) / 3 : (p0 + p1 + 1) / 2);
    palette[3][k] = uint8_t(four_colours ? (p0 + 2 * p1 + 1) / 3 : 0); // DXT1's transparent black
  }
  uint32_t indices;
  std::memcpy(&indices, block + 4, 4);
  for (int t = 0; t < 16; ++t) std::memcpy(out[t], palette[(indices >> (2 * t)) & 3], 4);
}

// One 4x4 block of a block format decoded to B, G, R, A texels.
void decode_block(Upload upload, const uint8_t *block, uint8_t out[16][4]) {
  uint8_t values[8], second[8];
  switch (upload) {
  case Upload::DecodeBC1: bc1_texels(block, false, out); break;
  case Upload::DecodeBC2:
    bc1_texels(block + 8, true, out);
    for (int t = 0; t < 16; ++t) out[t][3] = uint8_t(((block[t / 2] >> (4 * (t & 1))) & 15) * 17);
    break;
  case Upload::DecodeBC3:
    bc1_texels(block + 8, true, out);
    bc4_palette(block, values);
    for (int t = 0; t < 16; ++t) out[t][3] = bc4_texel(block, values, t);
    break;
  case Upload::DecodeATI1:
    bc4_palette(block, values);
    for (int t = 0; t < 16; ++t) std::memset(out[t], bc4_texel(block, values, t), 4);
    break;
  default: // ATI2: X in the first 8 bytes, read in G; Y in the next 8, read in R
    bc4_palette(block, values);
    bc4_palette(block + 8, second);
    for (int t = 0; t < 16; ++t) {
      out[t][0] = 255, out[t][1] = bc4_texel(block, values, t);
      out[t][2] = bc4_texel(block + 8, second, t), out[t][3] = 255;
    }
    break;
  }
}

bool decodes_blocks(Upload upload) {
  return upload == Upload::DecodeBC1 || upload == Upload::DecodeBC2 || upload == Upload::DecodeBC3 ||
         upload == Upload::DecodeATI1 || upload == Upload::DecodeATI2;
}

} // namespace

ConvertedRows convert_upload(Upload upload, const uint8_t *src, size_t src_pitch, int32_t x, uint32_t width,
                             uint32_t height) {
  ConvertedRows out;
  out.x = x;
  out.width = width;
  if (upload == Upload::YUY2 || upload == Upload::UYVY) {
    // Whole pairs are read; the rectangle sent starts at its first texel's pair.
    const int32_t first = x & ~1;
    src -= size_t(x - first) * 2;
    out.x = first;
    out.width = width + uint32_t(x - first);
    out.bytes.resize(size_t(out.width) * height * 4);
    const bool yuy2 = upload == Upload::YUY2;
    for (uint32_t r = 0; r < height; ++r)
      for (uint32_t i = 0; i < out.width; ++i) {
        const uint8_t *pair = src + r * src_pitch + (i / 2) * 4;
        const uint8_t y = yuy2 ? pair[(i & 1) * 2] : pair[(i & 1) * 2 + 1];
        const uint8_t u = yuy2 ? pair[1] : pair[0], v = yuy2 ? pair[3] : pair[2];
        yuv_to_bgra(y, u, v, &out.bytes[(size_t(r) * out.width + i) * 4]);
      }
    return out;
  }
  if (decodes_blocks(upload)) {
    // src points at a block; rows of blocks src_pitch bytes apart; the rectangle's edges may stop
    // inside a block at the level's edge.
    const size_t block_bytes = upload == Upload::DecodeBC1 || upload == Upload::DecodeATI1 ? 8 : 16;
    out.bytes.resize(size_t(width) * height * 4);
    uint8_t texels[16][4];
    for (uint32_t by = 0; by * 4 < height; ++by)
      for (uint32_t bx = 0; bx * 4 < width; ++bx) {
        decode_block(upload, src + by * src_pitch + bx * block_bytes, texels);
        for (uint32_t t = 0; t < 16; ++t) {
          const uint32_t i = bx * 4 + t % 4, r = by * 4 + t / 4;
          if (i < width && r < height) std::memcpy(&out.bytes[(size_t(r) * width + i) * 4], texels[t], 4);
        }
      }
    return out;
  }
  out.bytes.resize(size_t(width) * height * 8);
  for (uint32_t r = 0; r < height; ++r)
    for (uint32_t i = 0; i < width; ++i) {
      uint8_t *texel = &out.bytes[(size_t(r) * width + i) * 8];
      if (upload == Upload::L6V5U5) {
        uint16_t w;
        std::memcpy(&w, src + r * src_pitch + i * 2, 2);
        // 5-bit signed U and V: Windows reads 15 as 1 and -16 as -1, each sign over its own range
        // (Wine's test_signed_formats: 12 reads 0.8, -12 reads -0.75); 6-bit unsigned L.
        auto signed5 = [](uint32_t bits) {
          const int n = int(bits & 31) - ((bits & 16) ? 32 : 0);
          return n >= 0 ? float(n) / 15.0f : float(n) / 16.0f;
        };
        put_uvl1(texel, signed5(w), signed5(w >> 5), float(w >> 10) / 63.0f);
      } else { // X8L8V8U8: signed bytes as V8U8 reads them (-128 and -127 both -1), L unsigned
        const uint8_t *p = src + r * src_pitch + i * 4;
        put_uvl1(texel, float(int8_t(p[0])) / 127.0f, float(int8_t(p[1])) / 127.0f, float(p[2]) / 255.0f);
      }
    }
  return out;
}

void send_texels(CommandStream &commands, const FormatInfo &format, uint32_t image, uint32_t level, uint32_t layer,
                 int32_t x, int32_t y, uint32_t width, uint32_t height, const uint8_t *src, size_t src_pitch,
                 uint32_t flags) {
  if (format.upload == Upload::Copy) {
    commands.update_image(image, format.storage, level, layer, x, y, width, height, src, src_pitch, flags);
    return;
  }
  const ConvertedRows rows = convert_upload(format.upload, src, src_pitch, x, width, height);
  commands.update_image(image, format.storage, level, layer, rows.x, y, rows.width, height, rows.bytes.data(),
                        image_row_bytes(format.storage, rows.width), flags);
}

} // namespace novem
