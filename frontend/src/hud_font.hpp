// The HUD's font: 8x8 glyphs of printable ASCII (32..126), and one solid block (127) that the
// HUD's panel and graph bars sample.
#pragma once

#include <cstdint>

namespace novem::hud {

inline constexpr uint32_t kGlyphSize = 8;                 // pixels, square
inline constexpr uint32_t kFirstGlyph = 32, kGlyphCount = 96; // ' ' .. 127
inline constexpr uint32_t kSolidGlyph = 127;

// Row r of glyph c (kFirstGlyph <= c < kFirstGlyph + kGlyphCount): bit x (bit 0 first) is pixel
// x of that row, from the left.
extern const uint8_t kFont[kGlyphCount][kGlyphSize];

} // namespace novem::hud
