// The 3x5 font and rectangles of draw.hpp.
#include "draw.hpp"

#include <algorithm>
#include <cstdio>

namespace novem::diag {

namespace {

struct Glyph {
  char c;
  std::uint8_t rows[5]; // 3 bits each, the left column = 4
};

constexpr Glyph kGlyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'A', {2, 5, 7, 5, 5}}, {'B', {6, 5, 6, 5, 6}},
    {'C', {3, 4, 4, 4, 3}}, {'D', {6, 5, 5, 5, 6}}, {'E', {7, 4, 6, 4, 7}}, {'F', {7, 4, 6, 4, 4}},
    {'G', {3, 4, 5, 5, 3}}, {'H', {5, 5, 7, 5, 5}}, {'I', {7, 2, 2, 2, 7}}, {'J', {1, 1, 1, 5, 2}},
    {'K', {5, 5, 6, 5, 5}}, {'L', {4, 4, 4, 4, 7}}, {'M', {5, 7, 7, 5, 5}}, {'N', {6, 5, 5, 5, 5}},
    {'O', {2, 5, 5, 5, 2}}, {'P', {6, 5, 6, 4, 4}}, {'Q', {2, 5, 5, 6, 3}}, {'R', {6, 5, 6, 5, 5}},
    {'S', {3, 4, 2, 1, 6}}, {'T', {7, 2, 2, 2, 2}}, {'U', {5, 5, 5, 5, 7}}, {'V', {5, 5, 5, 5, 2}},
    {'W', {5, 5, 7, 7, 5}}, {'X', {5, 5, 2, 5, 5}}, {'Y', {5, 5, 2, 2, 2}}, {'Z', {7, 1, 2, 4, 7}},
    {'.', {0, 0, 0, 0, 2}}, {'-', {0, 0, 7, 0, 0}}, {':', {0, 2, 0, 2, 0}}, {'/', {1, 1, 2, 4, 4}},
    {'(', {1, 2, 2, 2, 1}}, {')', {4, 2, 2, 2, 4}}, {'%', {5, 1, 2, 4, 5}}, {'_', {0, 0, 0, 0, 7}},
    {'=', {0, 7, 0, 7, 0}}, {'+', {0, 2, 7, 2, 0}}, {',', {0, 0, 0, 2, 4}}, {'#', {5, 7, 5, 7, 5}},
    {'<', {1, 2, 4, 2, 1}}, {'>', {4, 2, 1, 2, 4}}, {'[', {3, 2, 2, 2, 3}}, {']', {6, 2, 2, 2, 6}},
    {'\'', {2, 2, 0, 0, 0}}, {'"', {5, 5, 0, 0, 0}}, {'*', {0, 5, 2, 5, 0}}, {'|', {2, 2, 2, 2, 2}},
};

const Glyph *glyph(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (const Glyph &g : kGlyphs)
    if (g.c == c) return &g;
  return nullptr;
}

} // namespace

void fill_rect(novem::image::Image &img, std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1,
               const std::uint8_t rgb[3]) {
  x0 = std::max<std::int64_t>(x0, 0);
  y0 = std::max<std::int64_t>(y0, 0);
  x1 = std::min<std::int64_t>(x1, img.width);
  y1 = std::min<std::int64_t>(y1, img.height);
  for (std::int64_t y = y0; y < y1; ++y)
    for (std::int64_t x = x0; x < x1; ++x)
      img.set(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), rgb[0], rgb[1], rgb[2]);
}

std::uint64_t tick_step(std::uint64_t duration, std::uint64_t ticks) {
  for (std::uint64_t p = 1;; p *= 10)
    for (std::uint64_t m : {1, 2, 5})
      if (duration / (m * p) <= ticks) return m * p;
}

std::string tick_label(std::uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(ns) / 1e6);
  return buf;
}

std::int64_t draw_text(novem::image::Image &img, std::int64_t x, std::int64_t y, const std::string &text,
                       const std::uint8_t rgb[3]) {
  for (char c : text) {
    if (const Glyph *g = glyph(c))
      for (int row = 0; row < 5; ++row)
        for (int col = 0; col < 3; ++col)
          if (g->rows[row] & (4 >> col)) fill_rect(img, x + 2 * col, y + 2 * row, x + 2 * col + 2, y + 2 * row + 2, rgb);
    x += kGlyphWidth;
  }
  return x;
}

} // namespace novem::diag
