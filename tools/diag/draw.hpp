// Drawing on novem-diag's pictures: filled rectangles and text in a 3x5 pixel font drawn 2x (no font
// files: the tool has no dependency but the image library).
#pragma once

#include <novem/image.hpp>

#include <cstdint>
#include <string>

namespace novem::diag {

// Glyphs are 6x10 pixels, 8 pixels apart.
inline constexpr std::int64_t kGlyphWidth = 8, kGlyphHeight = 10;

// Fills [x0, x1) x [y0, y1), clipped to the image.
void fill_rect(novem::image::Image &img, std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1,
               const std::uint8_t rgb[3]);

// Draws `text` with its top left at (x, y): digits, letters (lower case drawn as capitals), space and
// . - : / ( ) % _ = + , # < > [ ] ' " * |; any other character is a blank. Returns the x after it.
std::int64_t draw_text(novem::image::Image &img, std::int64_t x, std::int64_t y, const std::string &text,
                       const std::uint8_t rgb[3]);

// The first 1, 2 or 5 x 10^n (ns) that gives at most `ticks` intervals over `duration` (ns).
std::uint64_t tick_step(std::uint64_t duration, std::uint64_t ticks);
// A tick's label: `ns` in milliseconds, shortest form.
std::string tick_label(std::uint64_t ns);

} // namespace novem::diag
