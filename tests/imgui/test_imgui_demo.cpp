// Dear ImGui, a real D3D9 client: novem-imgui-demo renders ImGui's demo window and a small window
// of its own through imgui_impl_dx9.cpp, unchanged, on Vulkan and OpenGL (validation on). The two
// images must agree, and the windows must be where the tool puts them, with ImGui's dark style's
// colours and with text drawn.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "novem/image.hpp"
#include "run_child.hpp"

namespace {

namespace fs = std::filesystem;
using novem::image::Image;

// ImGui's dark style (StyleColorsDark): TitleBgActive (0.16, 0.29, 0.48), TitleBg (0.04, 0.04, 0.04);
// the tool clears to (114, 140, 153).
constexpr uint8_t kTitleActive[3] = {41, 74, 122}, kTitleInactive[3] = {10, 10, 10}, kClear[3] = {114, 140, 153};
// Translucent colours, blended SRCALPHA / INVSRCALPHA by imgui_impl_dx9 with the vertex colour's
// alpha modulating the font texture's white (fixed-function ALPHAOP MODULATE): WindowBg
// (15, 15, 15, 240 of 255) over the clear colour gives (21, 22, 23); Header (66, 150, 250, 79)
// over that, (35, 62, 93) (the collapsed section headers of the demo window).
constexpr uint8_t kWindowBg[3] = {21, 22, 23}, kHeader[3] = {35, 62, 93};

Image render(const std::string &backend) {
  const fs::path out = fs::path(NOVEM_BUILD_DIR) / "test-output" / ("imgui_demo_" + backend + ".png");
  fs::create_directories(out.parent_path());
  fs::remove(out);
  auto run = novem::test::run_child({NOVEM_IMGUI_DEMO_PATH, "--backend", backend, "--out", out.string()},
                                    {{"VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation"}, {"NOVEM_VK_VALIDATION", "1"}});
  INFO(run.output);
  REQUIRE(run.status == 0);
  CHECK(run.output.find("validation:") == std::string::npos);
  std::string error;
  auto image = novem::image::read_png(out, &error);
  INFO(error);
  REQUIRE(image);
  return *image;
}

void probe(const Image &image, uint32_t x, uint32_t y, const uint8_t expected[3], int tolerance) {
  const uint8_t *p = image.at(x, y);
  INFO("pixel (" << x << ", " << y << ") is " << int(p[0]) << ", " << int(p[1]) << ", " << int(p[2]) << "; expected "
                 << int(expected[0]) << ", " << int(expected[1]) << ", " << int(expected[2]));
  for (int c = 0; c < 3; ++c) CHECK(std::abs(int(p[c]) - int(expected[c])) <= tolerance);
}

// Pixels of the rectangle [x0, x1) x [y0, y1) brighter than 200 in every channel: ImGui's white text.
int bright_pixels(const Image &image, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  int n = 0;
  for (uint32_t y = y0; y < y1; ++y)
    for (uint32_t x = x0; x < x1; ++x) {
      const uint8_t *p = image.at(x, y);
      n += p[0] > 200 && p[1] > 200 && p[2] > 200;
    }
  return n;
}

void check_layout(const Image &image) {
  REQUIRE((image.width == 900 && image.height == 600));
  probe(image, 5, 590, kClear, 0);            // outside every window
  probe(image, 850, 28, kTitleActive, 2);     // the demo window's title bar, focused
  probe(image, 300, 28, kTitleInactive, 2);   // "Novem"'s title bar
  probe(image, 500, 300, kClear, 0);          // between the windows
  probe(image, 300, 140, kWindowBg, 1);       // "Novem"'s background, below its text
  probe(image, 870, 500, kWindowBg, 1);       // the demo window's, below its sections
  probe(image, 850, 97, kHeader, 1);          // the "Help" section's header
  CHECK(bright_pixels(image, 20, 20, 340, 40) > 20);    // "Novem" in its title bar
  CHECK(bright_pixels(image, 20, 40, 340, 64) > 100);   // its first line of text
  CHECK(bright_pixels(image, 650, 60, 900, 85) > 100);  // "dear imgui says hello. (1.86)"
  CHECK(bright_pixels(image, 340, 40, 650, 600) == 0);  // nothing drawn between the windows
}

} // namespace

TEST_CASE("Dear ImGui's D3D9 demo renders the same on Vulkan and OpenGL", "[imgui]") {
  const Image vulkan = render("vulkan");
  const Image opengl = render("opengl");
  check_layout(vulkan);
  check_layout(opengl);
  // Both rasterise the same triangles with the same texture; filtered glyph edges may round
  // differently (2 at most when this was written): every pixel within 4 per channel.
  Image diff;
  const auto result = novem::image::compare(vulkan, opengl, 4, &diff);
  novem::image::write_png(fs::path(NOVEM_BUILD_DIR) / "test-output" / "imgui_demo_diff.png", diff);
  INFO("max channel difference " << result.max_channel_diff << ", " << result.pixels_over_tolerance
                                 << " pixels over 4, PSNR " << result.psnr << " dB");
  CHECK(result.within_tolerance());
}
