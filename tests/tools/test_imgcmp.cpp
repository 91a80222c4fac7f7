// Tests of the novem-imgcmp executable: output lines and exit codes 0/1/2.
#include <catch2/catch.hpp>

#include "novem/image.hpp"
#include "tools_test_util.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

using novem::image::Image;
using novem_test::quote;
using novem_test::RunResult;
using novem_test::TempDir;

namespace {

// Runs novem-imgcmp with the given (already quoted) arguments.
RunResult imgcmp(const std::string &args) {
  RunResult r = novem_test::run_command(quote(NOVEM_IMGCMP_PATH) + " " + args);
  REQUIRE(r.exit_code >= 0);
  return r;
}

bool has_line(const std::string &output, const std::string &line) {
  size_t pos = 0;
  while (pos <= output.size()) {
    size_t end = output.find('\n', pos);
    if (end == std::string::npos) end = output.size();
    if (output.compare(pos, end - pos, line) == 0) return true;
    pos = end + 1;
  }
  return false;
}

bool contains(const std::string &output, const std::string &text) {
  return output.find(text) != std::string::npos;
}

// Two 16x16 images: b has one pixel off by 3 and one off by 20 (in alpha).
struct Fixture {
  TempDir dir{"imgcmp"};
  std::string a, b, a_copy, small;
  Fixture() {
    Image ia(16, 16, 40, 80, 120, 255);
    for (uint32_t y = 0; y < 16; ++y)
      for (uint32_t x = 0; x < 16; ++x) ia.at(x, y)[0] = uint8_t(x * 16 + y);
    Image ib = ia;
    ib.at(5, 2)[1] = 83;
    ib.at(9, 11)[3] = 235;
    a = (dir / "a.png").string();
    b = (dir / "b.png").string();
    a_copy = (dir / "a copy.png").string(); // a space in the name
    small = (dir / "small.png").string();
    REQUIRE(novem::image::write_png(a, ia));
    REQUIRE(novem::image::write_png(b, ib));
    REQUIRE(novem::image::write_png(a_copy, ia));
    REQUIRE(novem::image::write_png(small, Image(8, 16)));
  }
};

} // namespace

TEST_CASE("novem-imgcmp: identical images exit 0", "[tools][imgcmp]") {
  Fixture f;
  const auto r = imgcmp(quote(f.a) + " " + quote(f.a_copy));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(has_line(r.output, "max channel difference: 0"));
  CHECK(has_line(r.output, "pixels over tolerance 0: 0 of 256"));
  CHECK(has_line(r.output, "PSNR: inf (identical)"));
}

TEST_CASE("novem-imgcmp: differing images exit 1 unless within tolerance", "[tools][imgcmp]") {
  Fixture f;
  {
    const auto r = imgcmp(quote(f.a) + " " + quote(f.b));
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(has_line(r.output, "max channel difference: 20"));
    CHECK(has_line(r.output, "pixels over tolerance 0: 2 of 256"));
    CHECK(has_line(r.output, "first pixel over tolerance: (5, 2)"));
    // MSE = (9 + 400) / 1024
    char psnr[64];
    std::snprintf(psnr, sizeof psnr, "PSNR: %.2f dB", 10.0 * std::log10(65025.0 / (409.0 / 1024.0)));
    CHECK(has_line(r.output, psnr));
  }
  {
    const auto r = imgcmp(quote(f.a) + " " + quote(f.b) + " --tolerance 3");
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(has_line(r.output, "pixels over tolerance 3: 1 of 256"));
    CHECK(has_line(r.output, "first pixel over tolerance: (9, 11)"));
  }
  {
    const auto r = imgcmp("--tolerance=20 " + quote(f.a) + " " + quote(f.b));
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(has_line(r.output, "max channel difference: 20"));
    CHECK(has_line(r.output, "pixels over tolerance 20: 0 of 256"));
    CHECK_FALSE(contains(r.output, "first pixel"));
  }
}

TEST_CASE("novem-imgcmp: --diff writes a diff image", "[tools][imgcmp]") {
  Fixture f;
  const std::string d = (f.dir / "diff.png").string();
  const auto r = imgcmp(quote(f.a) + " " + quote(f.b) + " --tolerance 3 --diff " + quote(d));
  INFO(r.output);
  CHECK(r.exit_code == 1);
  std::string error;
  const auto diff = novem::image::read_png(d, &error);
  INFO(error);
  REQUIRE(diff);
  REQUIRE(diff->width == 16);
  REQUIRE(diff->height == 16);
  const uint8_t *red = diff->at(9, 11);
  CHECK((red[0] == 255 && red[1] == 0 && red[2] == 0 && red[3] == 255));
  const uint8_t *within = diff->at(5, 2); // off by 3: within tolerance, so grey
  CHECK((within[0] == within[1] && within[1] == within[2] && within[0] < 255 / 3 + 1));

  // An unwritable diff path is an error (2).
  const auto bad = imgcmp(quote(f.a) + " " + quote(f.b) + " --diff " +
                          quote((f.dir / "no-such-dir" / "d.png").string()));
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.output, "cannot write diff image"));
}

TEST_CASE("novem-imgcmp: file errors exit 2", "[tools][imgcmp]") {
  Fixture f;
  {
    const auto r = imgcmp(quote(f.a) + " " + quote(f.small));
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "size mismatch"));
    CHECK(contains(r.output, "16x16"));
    CHECK(contains(r.output, "8x16"));
  }
  {
    const std::string missing = (f.dir / "missing.png").string();
    const auto r = imgcmp(quote(f.a) + " " + quote(missing));
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "cannot read"));
    CHECK(contains(r.output, "missing.png"));
  }
  {
    const std::string text = (f.dir / "text.png").string();
    std::ofstream(text) << "not a png";
    const auto r = imgcmp(quote(text) + " " + quote(f.a));
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "not a PNG"));
  }
}

TEST_CASE("novem-imgcmp: usage errors exit 2, --help exits 0", "[tools][imgcmp]") {
  Fixture f;
  const std::string two = quote(f.a) + " " + quote(f.b);
  struct Case {
    std::string args;
    std::string says;
  };
  const Case cases[] = {
      {"", "expected two PNG files, got 0"},
      {quote(f.a), "expected two PNG files, got 1"},
      {two + " " + quote(f.a), "expected two PNG files, got 3"},
      {two + " --tolerance", "--tolerance needs a value"},
      {two + " --tolerance abc", "bad tolerance 'abc'"},
      {two + " --tolerance 256", "bad tolerance '256'"},
      {two + " --tolerance -1", "bad tolerance '-1'"},
      {two + " --tolerance=", "bad tolerance ''"},
      {two + " --diff", "--diff needs a file name"},
      {two + " --frobnicate", "unknown option '--frobnicate'"},
  };
  for (const auto &c : cases) {
    const auto r = imgcmp(c.args);
    INFO("args: " << c.args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, c.says));
    CHECK(contains(r.output, "novem-imgcmp:"));
  }

  const auto help = imgcmp("--help");
  CHECK(help.exit_code == 0);
  CHECK(contains(help.output, "usage: novem-imgcmp A.png B.png [--tolerance N] [--diff D.png]"));
  CHECK(imgcmp("-h").exit_code == 0);
}
