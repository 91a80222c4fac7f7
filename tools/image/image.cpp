// novem_image: RGBA8 image type, PNG I/O through libpng, comparison, BGRA conversion.
#include "novem/image.hpp"

#include <png.h>

#include <cassert>
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <system_error>

namespace novem::image {

Image::Image(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
    : width(w), height(h), rgba(size_t(w) * h * 4) {
  for (size_t i = 0; i < rgba.size(); i += 4) {
    rgba[i + 0] = r;
    rgba[i + 1] = g;
    rgba[i + 2] = b;
    rgba[i + 3] = a;
  }
}

uint8_t *Image::at(uint32_t x, uint32_t y) {
  assert(x < width && y < height);
  return rgba.data() + (size_t(y) * width + x) * 4;
}

const uint8_t *Image::at(uint32_t x, uint32_t y) const {
  assert(x < width && y < height);
  return rgba.data() + (size_t(y) * width + x) * 4;
}

void Image::set(uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  uint8_t *p = at(x, y);
  p[0] = r;
  p[1] = g;
  p[2] = b;
  p[3] = a;
}

namespace {

// libpng reports errors by calling the error callback, which must not return. It records the
// message and longjmps back to the setjmp in whichever helper below is running. Those helpers
// hold only trivially destructible locals, so the longjmp skips no destructor; every C++ object
// (vectors, strings, the RAII guards) lives in their callers.
struct PngError {
  char message[256] = {};
};

void on_png_error(png_structp png, png_const_charp message) {
  auto *err = static_cast<PngError *>(png_get_error_ptr(png));
  if (err) std::snprintf(err->message, sizeof err->message, "%s", message ? message : "?");
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

// The largest width or height read_png accepts (libpng's own default is 1,000,000).
constexpr png_uint_32 kMaxDimension = 65536;

struct FileCloser {
  FILE *f = nullptr;
  ~FileCloser() {
    if (f) std::fclose(f);
  }
};

struct ReadStructs {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~ReadStructs() {
    if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
  }
};

struct WriteStructs {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~WriteStructs() {
    if (png) png_destroy_write_struct(&png, info ? &info : nullptr);
  }
};

// Reads the header and sets up the transforms that turn any PNG into 8-bit RGBA rows.
bool read_header(png_structp png, png_infop info, FILE *f, png_uint_32 *out_w,
                 png_uint_32 *out_h, png_size_t *out_rowbytes) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, kMaxDimension, kMaxDimension);
  png_read_info(png, info);

  png_uint_32 w = 0, h = 0;
  int depth = 0, color = 0;
  png_get_IHDR(png, info, &w, &h, &depth, &color, nullptr, nullptr, nullptr);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_strip_16(png);
  if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  // Adds an opaque alpha to rows that have none (after tRNS expansion, RGB without alpha).
  png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);

  *out_w = w;
  *out_h = h;
  *out_rowbytes = png_get_rowbytes(png, info);
  return true;
}

bool read_rows(png_structp png, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  return true;
}

bool write_all(png_structp png, png_infop info, FILE *f, png_uint_32 w, png_uint_32 h,
               png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

void set_error(std::string *error, const std::filesystem::path &path, const std::string &why) {
  if (error) *error = path.string() + ": " + why;
}

} // namespace

std::optional<Image> read_png(const std::filesystem::path &path, std::string *error) {
  try {
    FileCloser file;
    file.f = std::fopen(path.c_str(), "rb");
    if (!file.f) {
      set_error(error, path, std::strerror(errno));
      return std::nullopt;
    }
    png_byte sig[8] = {};
    if (std::fread(sig, 1, sizeof sig, file.f) != sizeof sig || png_sig_cmp(sig, 0, sizeof sig)) {
      set_error(error, path, "not a PNG file");
      return std::nullopt;
    }

    PngError perr;
    ReadStructs rs;
    rs.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &perr, on_png_error, on_png_warning);
    if (rs.png) rs.info = png_create_info_struct(rs.png);
    if (!rs.png || !rs.info) {
      set_error(error, path, "out of memory creating the libpng reader");
      return std::nullopt;
    }

    png_uint_32 w = 0, h = 0;
    png_size_t rowbytes = 0;
    if (!read_header(rs.png, rs.info, file.f, &w, &h, &rowbytes)) {
      set_error(error, path, std::string("bad PNG: ") + perr.message);
      return std::nullopt;
    }
    if (rowbytes != png_size_t(w) * 4) {
      set_error(error, path, "unsupported PNG layout (could not convert to 8-bit RGBA)");
      return std::nullopt;
    }

    Image img;
    img.width = w;
    img.height = h;
    img.rgba.resize(size_t(w) * h * 4);
    std::vector<png_bytep> rows(h);
    for (png_uint_32 y = 0; y < h; ++y) rows[y] = img.rgba.data() + size_t(y) * w * 4;
    if (!read_rows(rs.png, rows.data())) {
      set_error(error, path, std::string("bad PNG: ") + perr.message);
      return std::nullopt;
    }
    return img;
  } catch (const std::bad_alloc &) {
    set_error(error, path, "out of memory");
    return std::nullopt;
  }
}

bool write_png(const std::filesystem::path &path, const Image &image, std::string *error) {
  if (image.empty()) {
    set_error(error, path, "cannot write an empty image");
    return false;
  }
  if (image.rgba.size() != image.pixel_count() * 4) {
    set_error(error, path, "image data does not hold width * height * 4 bytes");
    return false;
  }
  try {
    std::vector<png_bytep> rows(image.height);
    auto *base = const_cast<png_bytep>(image.rgba.data()); // libpng does not write to them
    for (uint32_t y = 0; y < image.height; ++y) rows[y] = base + size_t(y) * image.width * 4;

    FileCloser file;
    file.f = std::fopen(path.c_str(), "wb");
    if (!file.f) {
      set_error(error, path, std::strerror(errno));
      return false;
    }
    PngError perr;
    WriteStructs ws;
    ws.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &perr, on_png_error, on_png_warning);
    if (ws.png) ws.info = png_create_info_struct(ws.png);
    bool ok = false;
    std::string why;
    if (!ws.png || !ws.info) {
      why = "out of memory creating the libpng writer";
    } else if (!write_all(ws.png, ws.info, file.f, image.width, image.height, rows.data())) {
      why = std::string("libpng: ") + perr.message;
    } else {
      ok = true;
    }
    FILE *f = file.f;
    file.f = nullptr;
    if (std::fclose(f) != 0 && ok) {
      ok = false;
      why = std::strerror(errno);
    }
    if (!ok) {
      std::error_code ec;
      std::filesystem::remove(path, ec); // no half-written file left behind
      set_error(error, path, why);
    }
    return ok;
  } catch (const std::bad_alloc &) {
    set_error(error, path, "out of memory");
    return false;
  }
}

CompareResult compare(const Image &a, const Image &b, uint32_t tolerance, Image *diff) {
  if (a.width != b.width || a.height != b.height) {
    throw std::invalid_argument("novem::image::compare: sizes differ (" + std::to_string(a.width) +
                                "x" + std::to_string(a.height) + " vs " +
                                std::to_string(b.width) + "x" + std::to_string(b.height) + ")");
  }
  if (a.rgba.size() != a.pixel_count() * 4 || b.rgba.size() != b.pixel_count() * 4) {
    throw std::invalid_argument("novem::image::compare: image data does not hold width * height * 4 bytes");
  }

  CompareResult r;
  r.pixel_count = a.pixel_count();
  if (diff) *diff = Image(a.width, a.height);

  uint64_t sum_sq = 0;
  bool first_found = false;
  const uint8_t *pa = a.rgba.data();
  const uint8_t *pb = b.rgba.data();
  for (uint32_t y = 0; y < a.height; ++y) {
    for (uint32_t x = 0; x < a.width; ++x, pa += 4, pb += 4) {
      uint32_t pixel_max = 0;
      for (int c = 0; c < 4; ++c) {
        const int d = int(pa[c]) - int(pb[c]);
        const uint32_t ad = uint32_t(d < 0 ? -d : d);
        sum_sq += uint64_t(ad) * ad;
        if (ad > pixel_max) pixel_max = ad;
      }
      if (pixel_max > r.max_channel_diff) r.max_channel_diff = pixel_max;
      const bool over = pixel_max > tolerance;
      if (over) {
        ++r.pixels_over_tolerance;
        if (!first_found) {
          first_found = true;
          r.first_over_x = x;
          r.first_over_y = y;
        }
      }
      if (diff) {
        if (over) {
          diff->set(x, y, 255, 0, 0, 255);
        } else {
          // Rec. 601 luma, darkened to a third.
          const uint32_t luma = (77u * pa[0] + 150u * pa[1] + 29u * pa[2]) >> 8;
          const auto grey = uint8_t(luma / 3);
          diff->set(x, y, grey, grey, grey, 255);
        }
      }
    }
  }

  if (sum_sq == 0) {
    r.psnr = std::numeric_limits<double>::infinity();
  } else {
    const double mse = double(sum_sq) / (double(r.pixel_count) * 4.0);
    r.psnr = 10.0 * std::log10((255.0 * 255.0) / mse);
  }
  return r;
}

Image from_bgra8(const void *data, uint32_t width, uint32_t height, size_t pitch,
                 bool ignore_alpha) {
  Image img(width, height);
  if (img.empty()) return img;
  if (!data) throw std::invalid_argument("novem::image::from_bgra8: null data");
  if (pitch < size_t(width) * 4) {
    throw std::invalid_argument("novem::image::from_bgra8: pitch smaller than width * 4");
  }
  const auto *src_base = static_cast<const uint8_t *>(data);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t *src = src_base + size_t(y) * pitch;
    uint8_t *dst = img.rgba.data() + size_t(y) * width * 4;
    for (uint32_t x = 0; x < width; ++x, src += 4, dst += 4) {
      dst[0] = src[2];
      dst[1] = src[1];
      dst[2] = src[0];
      dst[3] = ignore_alpha ? 255 : src[3];
    }
  }
  return img;
}

} // namespace novem::image
