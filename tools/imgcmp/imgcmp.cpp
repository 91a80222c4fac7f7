// novem-imgcmp A.png B.png [--tolerance N] [--diff D.png]
//
// Compares two PNG images of the same size and prints, one line each, the largest channel
// difference, how many pixels differ by more than the tolerance, and the PSNR. Exit status:
// 0 when no pixel is over tolerance, 1 when some are, 2 on a usage error, an unreadable file,
// a size mismatch or an unwritable diff image.
#include "novem/image.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: novem-imgcmp A.png B.png [--tolerance N] [--diff D.png]\n"
    "\n"
    "Compares two PNG images of the same size (any PNG colour type, read as 8-bit RGBA).\n"
    "\n"
    "  --tolerance N   a pixel counts as different when one of its channels (R, G, B or A)\n"
    "                  differs by more than N (0..255, default 0)\n"
    "  --diff D.png    writes a diff image: pixels over tolerance in red, the others as A's\n"
    "                  greyscale, darkened\n"
    "  -h, --help      prints this help\n"
    "\n"
    "Prints the max channel difference, the pixels over tolerance and the PSNR (dB over all\n"
    "RGBA channels; inf when identical).\n"
    "Exit status: 0 no pixel over tolerance, 1 some pixels over tolerance,\n"
    "             2 usage error, unreadable file, size mismatch or unwritable diff image.\n";

constexpr int kExitSame = 0;
constexpr int kExitDifferent = 1;
constexpr int kExitError = 2;

int usage_error(const std::string &message) {
  std::fprintf(stderr, "novem-imgcmp: %s (see --help)\n", message.c_str());
  return kExitError;
}

bool parse_tolerance(std::string_view text, uint32_t *out) {
  unsigned value = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value > 255) return false;
  *out = value;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> files;
  uint32_t tolerance = 0;
  std::string diff_path;
  bool options_done = false;

  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      files.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return kExitSame;
    } else if (arg == "--tolerance" || arg.starts_with("--tolerance=")) {
      std::string_view value;
      if (arg == "--tolerance") {
        if (i + 1 >= argc) return usage_error("--tolerance needs a value");
        value = argv[++i];
      } else {
        value = arg.substr(std::string_view("--tolerance=").size());
      }
      if (!parse_tolerance(value, &tolerance)) {
        return usage_error("bad tolerance '" + std::string(value) + "': expected 0..255");
      }
    } else if (arg == "--diff" || arg.starts_with("--diff=")) {
      if (arg == "--diff") {
        if (i + 1 >= argc) return usage_error("--diff needs a file name");
        diff_path = argv[++i];
      } else {
        diff_path = std::string(arg.substr(std::string_view("--diff=").size()));
      }
      if (diff_path.empty()) return usage_error("--diff needs a file name");
    } else {
      return usage_error("unknown option '" + std::string(arg) + "'");
    }
  }
  if (files.size() != 2) {
    return usage_error("expected two PNG files, got " + std::to_string(files.size()));
  }

  novem::image::Image images[2];
  for (int k = 0; k < 2; ++k) {
    std::string error;
    auto img = novem::image::read_png(files[size_t(k)], &error);
    if (!img) {
      std::fprintf(stderr, "novem-imgcmp: cannot read %s\n", error.c_str());
      return kExitError;
    }
    images[k] = std::move(*img);
  }
  const auto &a = images[0];
  const auto &b = images[1];
  if (a.width != b.width || a.height != b.height) {
    std::fprintf(stderr, "novem-imgcmp: size mismatch: %s is %ux%u, %s is %ux%u\n",
                 files[0].c_str(), a.width, a.height, files[1].c_str(), b.width, b.height);
    return kExitError;
  }

  novem::image::Image diff;
  const auto r = novem::image::compare(a, b, tolerance, diff_path.empty() ? nullptr : &diff);

  std::printf("max channel difference: %u\n", r.max_channel_diff);
  std::printf("pixels over tolerance %u: %llu of %llu\n", tolerance,
              static_cast<unsigned long long>(r.pixels_over_tolerance),
              static_cast<unsigned long long>(r.pixel_count));
  if (std::isinf(r.psnr)) {
    std::printf("PSNR: inf (identical)\n");
  } else {
    std::printf("PSNR: %.2f dB\n", r.psnr);
  }
  if (r.pixels_over_tolerance > 0) {
    std::printf("first pixel over tolerance: (%u, %u)\n", r.first_over_x, r.first_over_y);
  }
  std::fflush(stdout);

  if (!diff_path.empty()) {
    std::string error;
    if (!novem::image::write_png(diff_path, diff, &error)) {
      std::fprintf(stderr, "novem-imgcmp: cannot write diff image %s\n", error.c_str());
      return kExitError;
    }
  }
  return r.pixels_over_tolerance == 0 ? kExitSame : kExitDifferent;
}
