// Tests of novem_image: PNG round trip and colour-type conversion, compare(), PSNR, BGRA input.
#include <catch2/catch.hpp>

#include "novem/image.hpp"
#include "tools_test_util.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

using novem::image::Image;
using novem_test::TempDir;

namespace {

// A PNG described at the level of the file format, written with libpng's low-level API so that
// every colour type and bit depth can be produced. data holds the rows exactly as they go into the
// file: packed, big-endian for 16-bit, rowbytes each.
struct RawPng {
  uint32_t width = 0;
  uint32_t height = 0;
  int depth = 8;
  int color = PNG_COLOR_TYPE_RGB_ALPHA;
  bool interlaced = false;
  std::vector<uint8_t> data;
  std::vector<png_color> palette;
  std::vector<uint8_t> palette_alpha; // tRNS for palette images
  bool has_trns_color = false;        // tRNS for gray/RGB images
  png_color_16 trns_color{};
};

void on_error(png_structp png, png_const_charp) { png_longjmp(png, 1); }

// POD-only, so the longjmp skips no destructor.
bool write_raw_impl(FILE *f, const RawPng *p, png_bytepp rows) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, on_error, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, p->width, p->height, p->depth, p->color,
               p->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!p->palette.empty()) {
    png_set_PLTE(png, info, p->palette.data(), int(p->palette.size()));
  }
  if (!p->palette_alpha.empty()) {
    png_set_tRNS(png, info, p->palette_alpha.data(), int(p->palette_alpha.size()), nullptr);
  }
  if (p->has_trns_color) png_set_tRNS(png, info, nullptr, 0, &p->trns_color);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

void write_raw(const std::filesystem::path &path, RawPng p) {
  const size_t rowbytes = p.data.size() / p.height;
  REQUIRE(rowbytes * p.height == p.data.size());
  std::vector<png_bytep> rows(p.height);
  for (uint32_t y = 0; y < p.height; ++y) rows[y] = p.data.data() + y * rowbytes;
  FILE *f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  const bool ok = write_raw_impl(f, &p, rows.data());
  std::fclose(f);
  REQUIRE(ok);
}

Image read_ok(const std::filesystem::path &path) {
  std::string error;
  auto img = novem::image::read_png(path, &error);
  INFO(error);
  REQUIRE(img.has_value());
  REQUIRE(img->rgba.size() == size_t(img->width) * img->height * 4);
  return *img;
}

std::vector<uint8_t> px(const Image &img, uint32_t x, uint32_t y) {
  const uint8_t *p = img.at(x, y);
  return {p[0], p[1], p[2], p[3]};
}

using V = std::vector<uint8_t>;

// A deterministic pattern with every channel, alpha included, varying.
Image pattern(uint32_t w, uint32_t h) {
  Image img(w, h);
  uint32_t s = 12345;
  for (auto &b : img.rgba) {
    s = s * 1664525u + 1013904223u;
    b = uint8_t(s >> 24);
  }
  return img;
}

} // namespace

TEST_CASE("Image constructor fills and set/at address pixels", "[tools][image]") {
  Image img(3, 2, 10, 20, 30, 40);
  CHECK(img.width == 3);
  CHECK(img.height == 2);
  CHECK(img.pixel_count() == 6);
  CHECK(img.rgba.size() == 24);
  CHECK(px(img, 2, 1) == V{10, 20, 30, 40});
  img.set(1, 1, 1, 2, 3);
  CHECK(px(img, 1, 1) == V{1, 2, 3, 255});
  CHECK(img.rgba[(1 * 3 + 1) * 4] == 1);
  CHECK(Image().empty());
  CHECK(Image(0, 5).empty());
}

TEST_CASE("PNG write then read gives back the same RGBA8 image", "[tools][image][png]") {
  TempDir dir("image-roundtrip");
  for (auto [w, h] : {std::pair<uint32_t, uint32_t>{1, 1}, {37, 19}, {256, 3}}) {
    const Image src = pattern(w, h);
    const auto path = dir / ("rt-" + std::to_string(w) + "x" + std::to_string(h) + ".png");
    std::string error;
    REQUIRE(novem::image::write_png(path, src, &error));
    CHECK(error.empty());
    const Image back = read_ok(path);
    CHECK(back.width == w);
    CHECK(back.height == h);
    CHECK(back.rgba == src.rgba);
  }
}

TEST_CASE("PNG read converts every colour type to RGBA8", "[tools][image][png]") {
  TempDir dir("image-formats");

  SECTION("gray 8") {
    write_raw(dir / "g8.png", {.width = 3, .height = 1, .depth = 8, .color = PNG_COLOR_TYPE_GRAY,
                               .data = {0, 100, 255}});
    const Image img = read_ok(dir / "g8.png");
    CHECK(px(img, 0, 0) == V{0, 0, 0, 255});
    CHECK(px(img, 1, 0) == V{100, 100, 100, 255});
    CHECK(px(img, 2, 0) == V{255, 255, 255, 255});
  }
  SECTION("gray 1-bit expands to 0/255") {
    // 8 pixels in one byte, MSB first: 1 0 1 1 0 0 0 1
    write_raw(dir / "g1.png", {.width = 8, .height = 1, .depth = 1, .color = PNG_COLOR_TYPE_GRAY,
                               .data = {0xB1}});
    const Image img = read_ok(dir / "g1.png");
    const int bits[8] = {1, 0, 1, 1, 0, 0, 0, 1};
    for (uint32_t x = 0; x < 8; ++x) {
      const uint8_t v = bits[x] ? 255 : 0;
      CHECK(px(img, x, 0) == V{v, v, v, 255});
    }
  }
  SECTION("gray + alpha 8") {
    write_raw(dir / "ga8.png", {.width = 2, .height = 1, .depth = 8,
                                .color = PNG_COLOR_TYPE_GRAY_ALPHA, .data = {50, 60, 200, 0}});
    const Image img = read_ok(dir / "ga8.png");
    CHECK(px(img, 0, 0) == V{50, 50, 50, 60});
    CHECK(px(img, 1, 0) == V{200, 200, 200, 0});
  }
  SECTION("RGB 8 gets opaque alpha") {
    write_raw(dir / "rgb8.png", {.width = 2, .height = 2, .depth = 8, .color = PNG_COLOR_TYPE_RGB,
                                 .data = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}});
    const Image img = read_ok(dir / "rgb8.png");
    CHECK(px(img, 0, 0) == V{1, 2, 3, 255});
    CHECK(px(img, 1, 0) == V{4, 5, 6, 255});
    CHECK(px(img, 0, 1) == V{7, 8, 9, 255});
    CHECK(px(img, 1, 1) == V{10, 11, 12, 255});
  }
  SECTION("RGB 8 with a tRNS colour key") {
    RawPng p{.width = 2, .height = 1, .depth = 8, .color = PNG_COLOR_TYPE_RGB,
             .data = {10, 20, 30, 40, 50, 60}};
    p.has_trns_color = true;
    p.trns_color.red = 40;
    p.trns_color.green = 50;
    p.trns_color.blue = 60;
    write_raw(dir / "rgbkey.png", p);
    const Image img = read_ok(dir / "rgbkey.png");
    CHECK(px(img, 0, 0) == V{10, 20, 30, 255});
    CHECK(px(img, 1, 0) == V{40, 50, 60, 0});
  }
  SECTION("palette 8-bit with tRNS") {
    RawPng p{.width = 3, .height = 1, .depth = 8, .color = PNG_COLOR_TYPE_PALETTE,
             .data = {2, 0, 1}};
    p.palette = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    p.palette_alpha = {128, 64}; // entry 2 has no alpha entry: opaque
    write_raw(dir / "pal8.png", p);
    const Image img = read_ok(dir / "pal8.png");
    CHECK(px(img, 0, 0) == V{0, 0, 255, 255});
    CHECK(px(img, 1, 0) == V{255, 0, 0, 128});
    CHECK(px(img, 2, 0) == V{0, 255, 0, 64});
  }
  SECTION("palette 2-bit without tRNS") {
    RawPng p{.width = 4, .height = 1, .depth = 2, .color = PNG_COLOR_TYPE_PALETTE,
             .data = {0x1B}}; // indices 0 1 2 3
    p.palette = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
    write_raw(dir / "pal2.png", p);
    const Image img = read_ok(dir / "pal2.png");
    CHECK(px(img, 0, 0) == V{1, 2, 3, 255});
    CHECK(px(img, 1, 0) == V{4, 5, 6, 255});
    CHECK(px(img, 2, 0) == V{7, 8, 9, 255});
    CHECK(px(img, 3, 0) == V{10, 11, 12, 255});
  }
  SECTION("RGBA 16 is stripped to the high byte") {
    write_raw(dir / "rgba16.png",
              {.width = 1, .height = 1, .depth = 16, .color = PNG_COLOR_TYPE_RGB_ALPHA,
               .data = {0xAB, 0xCD, 0x12, 0xFF, 0x00, 0x80, 0x7F, 0x01}});
    const Image img = read_ok(dir / "rgba16.png");
    CHECK(px(img, 0, 0) == V{0xAB, 0x12, 0x00, 0x7F});
  }
  SECTION("gray 16 is stripped to the high byte") {
    write_raw(dir / "g16.png", {.width = 2, .height = 1, .depth = 16,
                                .color = PNG_COLOR_TYPE_GRAY, .data = {0x80, 0xFF, 0x01, 0x00}});
    const Image img = read_ok(dir / "g16.png");
    CHECK(px(img, 0, 0) == V{0x80, 0x80, 0x80, 255});
    CHECK(px(img, 1, 0) == V{0x01, 0x01, 0x01, 255});
  }
  SECTION("interlaced RGBA 8") {
    const Image src = pattern(13, 11);
    RawPng p{.width = 13, .height = 11, .depth = 8, .color = PNG_COLOR_TYPE_RGB_ALPHA,
             .interlaced = true, .data = src.rgba};
    write_raw(dir / "adam7.png", p);
    CHECK(read_ok(dir / "adam7.png").rgba == src.rgba);
  }
}

TEST_CASE("PNG read and write report errors", "[tools][image][png]") {
  TempDir dir("image-errors");
  std::string error;

  CHECK_FALSE(novem::image::read_png(dir / "missing.png", &error));
  CHECK(error.find("missing.png") != std::string::npos);
  CHECK(error.find("No such file") != std::string::npos);

  {
    std::ofstream(dir / "text.png") << "this is not a png at all";
  }
  error.clear();
  CHECK_FALSE(novem::image::read_png(dir / "text.png", &error));
  CHECK(error.find("not a PNG") != std::string::npos);

  // A valid PNG cut in half.
  REQUIRE(novem::image::write_png(dir / "whole.png", pattern(64, 64)));
  {
    std::ifstream in(dir / "whole.png", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    REQUIRE(bytes.size() > 100);
    std::ofstream out(dir / "half.png", std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size() / 2));
  }
  error.clear();
  CHECK_FALSE(novem::image::read_png(dir / "half.png", &error));
  CHECK(error.find("bad PNG") != std::string::npos);

  // No error pointer: still fails cleanly.
  CHECK_FALSE(novem::image::read_png(dir / "half.png"));

  error.clear();
  CHECK_FALSE(novem::image::write_png(dir / "no-such-dir" / "x.png", pattern(2, 2), &error));
  CHECK_FALSE(error.empty());
  error.clear();
  CHECK_FALSE(novem::image::write_png(dir / "empty.png", Image(), &error));
  CHECK(error.find("empty") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "empty.png"));
  Image bad(2, 2);
  bad.rgba.pop_back();
  CHECK_FALSE(novem::image::write_png(dir / "bad.png", bad));
}

TEST_CASE("compare of identical images", "[tools][image][compare]") {
  const Image a = pattern(17, 9);
  const auto r = novem::image::compare(a, a);
  CHECK(r.max_channel_diff == 0);
  CHECK(r.pixels_over_tolerance == 0);
  CHECK(r.pixel_count == 17 * 9);
  CHECK(std::isinf(r.psnr));
  CHECK(r.psnr > 0);
  CHECK(r.identical());
  CHECK(r.within_tolerance());
}

TEST_CASE("compare counts pixels over tolerance on a crafted image", "[tools][image][compare]") {
  const Image a(4, 4, 100, 100, 100, 200);
  Image b = a;
  b.at(3, 0)[3] = 190;  // alpha -10
  b.at(1, 2)[1] = 103;  // green +3
  b.at(0, 3)[0] = 99;   // red -1
  b.at(2, 2)[2] = 102;  // blue +2, same pixel as ...
  b.at(2, 2)[0] = 101;  // ... red +1: that pixel's max is 2

  const auto r0 = novem::image::compare(a, b, 0);
  CHECK(r0.max_channel_diff == 10);
  CHECK(r0.pixels_over_tolerance == 4);
  CHECK(r0.pixel_count == 16);
  CHECK(r0.first_over_x == 3);
  CHECK(r0.first_over_y == 0);
  CHECK_FALSE(r0.identical());
  // sum of squares 100 + 9 + 1 + 4 + 1 = 115 over 64 channels
  CHECK(r0.psnr == Approx(10.0 * std::log10(255.0 * 255.0 / (115.0 / 64.0))));

  CHECK(novem::image::compare(a, b, 1).pixels_over_tolerance == 3);
  CHECK(novem::image::compare(a, b, 2).pixels_over_tolerance == 2);
  const auto r3 = novem::image::compare(a, b, 3);
  CHECK(r3.pixels_over_tolerance == 1);
  CHECK(r3.first_over_x == 3);
  CHECK(novem::image::compare(a, b, 9).pixels_over_tolerance == 1);
  const auto r10 = novem::image::compare(a, b, 10);
  CHECK(r10.pixels_over_tolerance == 0);
  CHECK(r10.within_tolerance());
  CHECK(r10.max_channel_diff == 10);
  CHECK(r10.psnr == r0.psnr); // PSNR does not depend on the tolerance

  // Symmetric.
  const auto rs = novem::image::compare(b, a, 2);
  CHECK(rs.max_channel_diff == 10);
  CHECK(rs.pixels_over_tolerance == 2);
}

TEST_CASE("compare PSNR of known noise", "[tools][image][compare]") {
  SECTION("every channel off by 5: MSE 25") {
    const Image a(32, 32, 100, 150, 200, 250);
    const Image b(32, 32, 105, 145, 205, 255);
    const auto r = novem::image::compare(a, b);
    CHECK(r.psnr == Approx(20.0 * std::log10(255.0 / 5.0))); // 34.151 dB
    CHECK(r.psnr == Approx(34.1514).epsilon(1e-4));
    CHECK(r.max_channel_diff == 5);
    CHECK(r.pixels_over_tolerance == 32 * 32);
  }
  SECTION("alternating +-8 noise: MSE 64") {
    const Image a(64, 64, 128, 128, 128, 128);
    Image b = a;
    for (size_t i = 0; i < b.rgba.size(); ++i) b.rgba[i] = uint8_t(i % 2 ? 136 : 120);
    const auto r = novem::image::compare(a, b, 7);
    CHECK(r.psnr == Approx(10.0 * std::log10(65025.0 / 64.0))); // 30.069 dB
    CHECK(r.psnr == Approx(30.0692).epsilon(1e-4));
    CHECK(r.pixels_over_tolerance == 64 * 64);
    CHECK(novem::image::compare(a, b, 8).pixels_over_tolerance == 0);
  }
  SECTION("pseudo-random noise matches an independent MSE") {
    const Image a = pattern(50, 40);
    Image b = a;
    uint32_t s = 7;
    double sum_sq = 0;
    for (auto &v : b.rgba) {
      s = s * 1103515245u + 12345u;
      const int noise = int((s >> 16) % 7) - 3; // -3..3
      const int nv = std::clamp(int(v) + noise, 0, 255);
      sum_sq += double(nv - v) * double(nv - v);
      v = uint8_t(nv);
    }
    REQUIRE(sum_sq > 0);
    const double mse = sum_sq / double(b.rgba.size());
    const auto r = novem::image::compare(a, b, 3);
    CHECK(r.psnr == Approx(10.0 * std::log10(65025.0 / mse)));
    CHECK(r.max_channel_diff == 3);
    CHECK(r.pixels_over_tolerance == 0);
  }
  SECTION("black against white: 0 dB") {
    const Image a(8, 8, 0, 0, 0, 0);
    const Image b(8, 8, 255, 255, 255, 255);
    CHECK(novem::image::compare(a, b).psnr == Approx(0.0).margin(1e-9));
  }
}

TEST_CASE("compare diff image marks pixels over tolerance in red", "[tools][image][compare]") {
  Image a(3, 2, 255, 255, 255, 255);
  a.set(0, 1, 0, 0, 0);
  a.set(1, 1, 30, 60, 90);
  Image b = a;
  b.at(1, 0)[0] = 250; // 5 off: over tolerance 4
  b.at(2, 0)[2] = 252; // 3 off: within tolerance 4
  Image diff;
  const auto r = novem::image::compare(a, b, 4, &diff);
  CHECK(r.pixels_over_tolerance == 1);
  REQUIRE(diff.width == 3);
  REQUIRE(diff.height == 2);
  CHECK(px(diff, 1, 0) == V{255, 0, 0, 255});
  CHECK(px(diff, 0, 0) == V{85, 85, 85, 255}); // white, darkened to a third
  CHECK(px(diff, 2, 0) == V{85, 85, 85, 255});
  CHECK(px(diff, 0, 1) == V{0, 0, 0, 255});
  const uint8_t g = uint8_t(((77 * 30 + 150 * 60 + 29 * 90) >> 8) / 3);
  CHECK(px(diff, 1, 1) == V{g, g, g, 255});
}

TEST_CASE("compare rejects images of different sizes", "[tools][image][compare]") {
  CHECK_THROWS_AS(novem::image::compare(Image(4, 4), Image(4, 5)), std::invalid_argument);
  CHECK_THROWS_AS(novem::image::compare(Image(4, 4), Image(16, 1)), std::invalid_argument);
  Image short_data(2, 2);
  short_data.rgba.resize(4);
  CHECK_THROWS_AS(novem::image::compare(short_data, Image(2, 2)), std::invalid_argument);
}

TEST_CASE("from_bgra8 converts D3D A8R8G8B8 rows with a pitch", "[tools][image][bgra]") {
  // 3x2 pixels, pitch 16 (4 bytes of padding per row, filled with junk).
  const uint8_t mem[2 * 16] = {
      // B, G, R, A
      1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 0xEE, 0xEE, 0xEE, 0xEE,
      13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0xEE, 0xEE, 0xEE, 0xEE,
  };
  const Image img = novem::image::from_bgra8(mem, 3, 2, 16);
  REQUIRE(img.width == 3);
  REQUIRE(img.height == 2);
  CHECK(px(img, 0, 0) == V{3, 2, 1, 4});
  CHECK(px(img, 1, 0) == V{7, 6, 5, 8});
  CHECK(px(img, 2, 0) == V{11, 10, 9, 12});
  CHECK(px(img, 0, 1) == V{15, 14, 13, 16});
  CHECK(px(img, 2, 1) == V{23, 22, 21, 24});

  const Image x8 = novem::image::from_bgra8(mem, 3, 2, 16, /*ignore_alpha=*/true);
  CHECK(px(x8, 0, 0) == V{3, 2, 1, 255});
  CHECK(px(x8, 2, 1) == V{23, 22, 21, 255});

  // A D3DCOLOR written as a 32-bit value lands as B, G, R, A bytes on little-endian hosts.
  const uint32_t argb = 0x80FF4020; // A=0x80 R=0xFF G=0x40 B=0x20
  const Image one = novem::image::from_bgra8(&argb, 1, 1, 4);
  CHECK(px(one, 0, 0) == V{0xFF, 0x40, 0x20, 0x80});

  // Tight pitch.
  const Image tight = novem::image::from_bgra8(mem, 4, 1, 16);
  CHECK(px(tight, 3, 0) == V{0xEE, 0xEE, 0xEE, 0xEE});

  CHECK_THROWS_AS(novem::image::from_bgra8(mem, 3, 2, 8), std::invalid_argument);
  CHECK_THROWS_AS(novem::image::from_bgra8(nullptr, 3, 2, 16), std::invalid_argument);
  CHECK(novem::image::from_bgra8(nullptr, 0, 0, 0).empty());
}
