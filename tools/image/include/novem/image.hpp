// novem_image (Novem::image): the RGBA8 image type the tools and the scene tests share, PNG
// read/write through libpng, image comparison, and the conversion of D3D9 A8R8G8B8/X8R8G8B8
// surface memory (bytes B,G,R,A) into RGBA8.
//
// Everything here is plain host code: no D3D9 or graphics-API types, no global state, safe to
// use from several threads at once on different images.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace novem::image {

// An 8-bit-per-channel RGBA image, rows top to bottom, no padding: pixel (x, y) starts at byte
// (y * width + x) * 4 of rgba, channels in the order R, G, B, A. Alpha is straight (not
// premultiplied).
struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba; // width * height * 4 bytes

  Image() = default;
  // A width x height image filled with one colour (opaque black by default).
  Image(uint32_t w, uint32_t h, uint8_t r = 0, uint8_t g = 0, uint8_t b = 0, uint8_t a = 255);

  bool empty() const { return width == 0 || height == 0; }
  size_t pixel_count() const { return size_t(width) * height; }
  // The 4 bytes (R, G, B, A) of pixel (x, y). No bounds check beyond an assert.
  uint8_t *at(uint32_t x, uint32_t y);
  const uint8_t *at(uint32_t x, uint32_t y) const;
  void set(uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255);
};

// Reads a PNG file into RGBA8. Accepts every PNG colour type (gray, gray+alpha, RGB, RGBA,
// palette, with or without tRNS transparency) and bit depth: depths below 8 are expanded,
// 16-bit channels are stripped to their high 8 bits (no gamma or colour-space conversion);
// missing alpha becomes 255. Interlaced files are de-interlaced.
// On failure returns std::nullopt and, when error is given, a one-line reason.
std::optional<Image> read_png(const std::filesystem::path &path, std::string *error = nullptr);

// Writes an 8-bit RGBA PNG (non-interlaced). Returns false and, when error is given, a one-line
// reason on failure (empty or inconsistent image, file not writable, libpng error).
bool write_png(const std::filesystem::path &path, const Image &image,
               std::string *error = nullptr);

// What compare() found.
struct CompareResult {
  // The largest |a - b| over every channel (R, G, B and A) of every pixel, 0..255.
  uint32_t max_channel_diff = 0;
  // Pixels whose largest channel difference is strictly greater than the tolerance.
  uint64_t pixels_over_tolerance = 0;
  // width * height.
  uint64_t pixel_count = 0;
  // Peak signal-to-noise ratio in dB, 10 * log10(255^2 / MSE), MSE taken over all four channels
  // of all pixels. +infinity when the images are identical.
  double psnr = 0.0;
  // Where the first pixel over tolerance is (row-major order); meaningful only when
  // pixels_over_tolerance > 0.
  uint32_t first_over_x = 0;
  uint32_t first_over_y = 0;

  bool identical() const { return max_channel_diff == 0; }
  bool within_tolerance() const { return pixels_over_tolerance == 0; }
};

// Compares two images of the same size; throws std::invalid_argument when the sizes differ (or an
// image's rgba does not hold width * height * 4 bytes). A pixel is "over tolerance" when its
// largest channel difference exceeds tolerance; tolerance 0 counts every differing pixel.
// When diff is given it receives a visual diff of the same size, fully opaque: pixels over
// tolerance in pure red (255, 0, 0), every other pixel as a's luminance darkened to a third,
// in grey, so the red stands out.
CompareResult compare(const Image &a, const Image &b, uint32_t tolerance = 0,
                      Image *diff = nullptr);

// Converts D3D9 A8R8G8B8 surface memory (little-endian, so bytes B, G, R, A per pixel) into RGBA8.
// data points at the first row; pitch is the distance in bytes between the starts of two rows
// (>= width * 4; as D3DLOCKED_RECT::Pitch reports it). With ignore_alpha (X8R8G8B8 and other
// formats whose fourth byte is unused) every alpha becomes 255.
Image from_bgra8(const void *data, uint32_t width, uint32_t height, size_t pitch,
                 bool ignore_alpha = false);

} // namespace novem::image
