// The fixed-function shaders: every vertex key and the pixel shader validate (Vulkan 1.0 and
// OpenGL 4.5 rules), cross-compile to GLSL 450, and compute what D3D9 defines (checked against
// a C++ reference and known numbers by running the SPIR-V on a CPU interpreter).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <unordered_set>

#include "ff_shaders.hpp"
#include "spirv_interp.hpp"
#include "spirv_test_support.hpp"

using novem::FFVertexConstants;
using novem::FFVertexKey;
using Vec4 = std::array<float, 4>;

namespace {

std::vector<FFVertexKey> all_keys() {
  std::vector<FFVertexKey> keys;
  for (uint32_t bits = 0; bits < 8; ++bits) keys.push_back(FFVertexKey::unpack(bits));
  return keys;
}

std::string key_name(const FFVertexKey& k) {
  return std::string(k.pretransformed ? "rhw" : "xyz") + (k.has_color ? "_color" : "") +
         (k.lighting ? "_lit" : "");
}

FFVertexConstants make_constants() {
  FFVertexConstants c{};
  for (int i = 0; i < 4; ++i) c.transform[i * 5] = 1.0f;  // identity
  // a 64x64 viewport at (0, 0)
  c.viewport[0] = 0.0f;
  c.viewport[1] = 0.0f;
  c.viewport[2] = 2.0f / 64.0f;
  c.viewport[3] = -2.0f / 64.0f;
  c.depth[0] = 0.0f;
  c.depth[1] = 1.0f;
  c.lit_color[0] = 0.25f;
  c.lit_color[1] = 0.5f;
  c.lit_color[2] = 0.75f;
  c.lit_color[3] = 0.125f;
  return c;
}

// The reference: what the contract (ff_shaders.hpp) says the vertex shader computes.
struct VsOut {
  Vec4 clip;
  Vec4 color;
};
VsOut reference_vs(const FFVertexKey& k, const FFVertexConstants& c, Vec4 pos, Vec4 color) {
  VsOut o{};
  if (k.pretransformed) {
    const float ndc_x = (pos[0] - c.viewport[0]) * c.viewport[2] - 1.0f;
    const float ndc_y = (pos[1] - c.viewport[1]) * c.viewport[3] + 1.0f;
    const float ndc_z = (pos[2] - c.depth[0]) * c.depth[1];
    const float w = pos[3] == 0.0f ? 1.0f : 1.0f / pos[3];
    o.clip = {ndc_x * w, ndc_y * w, ndc_z * w, w};
  } else {
    const float p[4] = {pos[0], pos[1], pos[2], 1.0f};
    for (int row = 0; row < 4; ++row) {
      float acc = 0.0f;
      for (int col = 0; col < 4; ++col) acc += c.transform[col * 4 + row] * p[col];
      o.clip[row] = acc;
    }
  }
  o.color = k.has_color ? color : Vec4{1.0f, 1.0f, 1.0f, 1.0f};
  if (k.lighting && !k.pretransformed)
    o.color = {c.lit_color[0], c.lit_color[1], c.lit_color[2], k.has_color ? color[3] : c.lit_color[3]};
  return o;
}

// Runs the generated vertex shader on the CPU interpreter.
VsOut run_vs(const FFVertexKey& k, const FFVertexConstants& c, Vec4 pos, Vec4 color, float* point_size = nullptr) {
  const auto words = novem::build_ff_vertex_shader(k);
  novem::test::SpirvInterpreter vm(words);
  REQUIRE(vm.ok());
  vm.set_input(0, pos);
  vm.set_input(1, color);
  vm.set_uniform(0, 0, &c, sizeof c);
  const bool ran = vm.run();
  INFO(vm.error());
  REQUIRE(ran);
  if (point_size) *point_size = vm.point_size();
  return VsOut{vm.position(), vm.output(novem::kFFColorLocation)};
}

void check_close(const Vec4& got, const Vec4& want, float eps = 1e-5f) {
  for (int i = 0; i < 4; ++i) {
    INFO("component " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= eps * std::max(1.0f, std::fabs(want[i])));
  }
}

}  // namespace

TEST_CASE("FFVertexKey packs, compares and hashes", "[shader][ff]") {
  std::unordered_set<FFVertexKey> set;
  std::unordered_set<uint32_t> packed;
  for (const auto& k : all_keys()) {
    CHECK(FFVertexKey::unpack(k.pack()) == k);
    CHECK(k.pack() < 8u);
    CHECK(std::hash<FFVertexKey>{}(k) == std::hash<FFVertexKey>{}(FFVertexKey::unpack(k.pack())));
    set.insert(k);
    packed.insert(k.pack());
  }
  CHECK(set.size() == 8);
  CHECK(packed.size() == 8);
  CHECK(FFVertexKey{true, false, false} != FFVertexKey{false, false, false});
  CHECK(FFVertexKey{true, true, false}.pack() == 3u);
  static_assert(sizeof(FFVertexConstants) == 112);
}

TEST_CASE("FF shaders are deterministic and differ per key", "[shader][ff]") {
  std::vector<std::vector<uint32_t>> modules;
  for (const auto& k : all_keys()) {
    const auto words = novem::build_ff_vertex_shader(k);
    CHECK(words == novem::build_ff_vertex_shader(k));
    modules.push_back(words);
  }
  // Lighting is ignored for pretransformed vertices; every other key gives its own module.
  for (uint32_t x = 0; x < 8; ++x)
    for (uint32_t y = x + 1; y < 8; ++y) {
      const bool same_shader = (x & 1u) && (y & 1u) && ((x & 2u) == (y & 2u));
      INFO("keys " << x << " and " << y);
      CHECK((modules[x] == modules[y]) == same_shader);
    }
  CHECK(novem::build_ff_pixel_shader() == novem::build_ff_pixel_shader());
}

TEST_CASE("FF vertex shaders validate for Vulkan 1.0 and OpenGL 4.5", "[shader][ff]") {
  for (const auto& k : all_keys()) {
    INFO("key " << key_name(k));
    const auto words = novem::build_ff_vertex_shader(k);
    REQUIRE(!words.empty());
    novem::test::dump_module("ff_vs_" + key_name(k), words);
    CHECK(words[1] == 0x00010000u);  // SPIR-V 1.0
    const auto vk = novem::test::validate(words, SPV_ENV_VULKAN_1_0);
    INFO((vk.empty() ? std::string() : vk.front()));
    CHECK(vk.empty());
    const auto gl = novem::test::validate(words, SPV_ENV_OPENGL_4_5);
    INFO((gl.empty() ? std::string() : gl.front()));
    CHECK(gl.empty());
  }
}

TEST_CASE("FF pixel shader validates for Vulkan 1.0 and OpenGL 4.5", "[shader][ff]") {
  const auto words = novem::build_ff_pixel_shader();
  REQUIRE(!words.empty());
  novem::test::dump_module("ff_ps", words);
  const auto vk = novem::test::validate(words, SPV_ENV_VULKAN_1_0);
  INFO((vk.empty() ? std::string() : vk.front()));
  CHECK(vk.empty());
  const auto gl = novem::test::validate(words, SPV_ENV_OPENGL_4_5);
  INFO((gl.empty() ? std::string() : gl.front()));
  CHECK(gl.empty());
}

TEST_CASE("FF shaders cross-compile to GLSL 450 through SPIRV-Cross", "[shader][ff]") {
  for (const auto& k : all_keys()) {
    INFO("key " << key_name(k));
    const auto r = novem::test::cross_to_glsl(novem::build_ff_vertex_shader(k));
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("#version 450") != std::string::npos);
    CHECK(r.text.find("gl_Position") != std::string::npos);
    CHECK(r.text.find("gl_PointSize") != std::string::npos);
    CHECK(r.text.find("FFVertexConstants") != std::string::npos);
    CHECK(r.text.find("layout(location = 0) in vec4") != std::string::npos);
    CHECK((r.text.find("layout(location = 1) in vec4") != std::string::npos) == k.has_color);
    CHECK(r.text.find("layout(location = 16) out vec4") != std::string::npos); // COLOR0
  }
  const auto ps = novem::test::cross_to_glsl(novem::build_ff_pixel_shader());
  INFO(ps.text);
  REQUIRE(ps.ok);
  CHECK(ps.text.find("layout(location = 0) out vec4") != std::string::npos);
  CHECK(ps.text.find("layout(location = 16) in vec4") != std::string::npos); // COLOR0
}

TEST_CASE("FF vertex shader: pretransformed maths, known numbers", "[shader][ff][math]") {
  const FFVertexKey k{true, true, false};
  FFVertexConstants c = make_constants();
  const Vec4 white{1, 1, 1, 1};

  // (0, 0, 0.5, rhw 1) in a 64x64 viewport at (0, 0): the top-left corner, ndc (-1, +1, 0.5).
  check_close(reference_vs(k, c, {0, 0, 0.5f, 1}, white).clip, {-1, 1, 0.5f, 1});
  check_close(run_vs(k, c, {0, 0, 0.5f, 1}, white).clip, {-1, 1, 0.5f, 1});
  // The bottom-right corner with rhw 0.5: ndc (1, -1, 0.25), w = 2, clip = ndc * 2.
  check_close(run_vs(k, c, {64, 64, 0.25f, 0.5f}, white).clip, {2, -2, 0.5f, 2});
  // The centre with rhw 4: ndc (0, 0, 1), w = 0.25.
  check_close(run_vs(k, c, {32, 32, 1, 4}, white).clip, {0, 0, 0.25f, 0.25f});
  // rhw 0 (undefined in D3D9) is read as w = 1.
  check_close(run_vs(k, c, {16, 48, 0, 0}, white).clip, {-0.5f, -0.5f, 0, 1});

  // A 100x50 viewport at (10, 20) and a depth mapping z0 = 0.25, sz = 2.
  c.viewport[0] = 10;
  c.viewport[1] = 20;
  c.viewport[2] = 2.0f / 100.0f;
  c.viewport[3] = -2.0f / 50.0f;
  c.depth[0] = 0.25f;
  c.depth[1] = 2.0f;
  check_close(run_vs(k, c, {60, 45, 0.75f, 1}, white).clip, {0, 0, 1, 1});
  check_close(run_vs(k, c, {10, 20, 0.25f, 1}, white).clip, {-1, 1, 0, 1});
  check_close(run_vs(k, c, {110, 70, 0.5f, 2}, white).clip, {0.5f, -0.5f, 0.25f, 0.5f});
}

TEST_CASE("FF vertex shader: transformed maths, known numbers", "[shader][ff][math]") {
  const FFVertexKey k{false, false, false};
  FFVertexConstants c = make_constants();
  const Vec4 white{1, 1, 1, 1};

  // Identity: clip = (x, y, z, 1); the input's w is ignored (only .xyz is read).
  check_close(run_vs(k, c, {0.5f, -0.25f, 0.75f, 7.0f}, white).clip, {0.5f, -0.25f, 0.75f, 1});

  // Column-major: scale (2, 3, 4), translate (1, 2, 3), and w = z (a projection-like last row).
  for (float& v : c.transform) v = 0;
  c.transform[0] = 2;   // column 0
  c.transform[5] = 3;   // column 1
  c.transform[10] = 4;  // column 2
  c.transform[12] = 1;  // column 3 = translation
  c.transform[13] = 2;
  c.transform[14] = 3;
  c.transform[11] = 1;  // row 3 of column 2: w = z
  c.transform[15] = 0;
  check_close(run_vs(k, c, {1, 1, 1, 1}, white).clip, {3, 5, 7, 1});
  check_close(run_vs(k, c, {-1, 0.5f, 2, 1}, white).clip, {-1, 3.5f, 11, 2});

  // A general matrix against the C++ reference.
  for (int i = 0; i < 16; ++i) c.transform[i] = 0.5f * static_cast<float>(i) - 3.0f;
  const Vec4 pos{1.5f, -2.0f, 0.25f, 1.0f};
  check_close(run_vs(k, c, pos, white).clip, reference_vs(k, c, pos, white).clip);
}

TEST_CASE("FF vertex shader: colour, lighting and point size for every key", "[shader][ff][math]") {
  const FFVertexConstants c = make_constants();
  const Vec4 vcolor{0.1f, 0.2f, 0.3f, 0.4f};
  const Vec4 positions[] = {{0, 0, 0.5f, 1}, {13, 57, 0.9f, 0.25f}, {-3, 2, 0.1f, 1}};
  for (const auto& k : all_keys()) {
    INFO("key " << key_name(k));
    for (const auto& pos : positions) {
      float point_size = 0;
      const VsOut got = run_vs(k, c, pos, vcolor, &point_size);
      const VsOut want = reference_vs(k, c, pos, vcolor);
      check_close(got.clip, want.clip);
      check_close(got.color, want.color);
      CHECK(point_size == 1.0f);
    }
  }
  // Spot checks of the colour rules.
  const Vec4 pos{0, 0, 0, 1};
  check_close(run_vs({false, false, false}, c, pos, vcolor).color, {1, 1, 1, 1});
  check_close(run_vs({false, true, false}, c, pos, vcolor).color, vcolor);
  check_close(run_vs({false, false, true}, c, pos, vcolor).color, {0.25f, 0.5f, 0.75f, 0.125f});
  check_close(run_vs({false, true, true}, c, pos, vcolor).color, {0.25f, 0.5f, 0.75f, 0.4f});
  check_close(run_vs({true, true, true}, c, pos, vcolor).color, vcolor);  // no lighting for XYZRHW
  check_close(run_vs({true, false, true}, c, pos, vcolor).color, {1, 1, 1, 1});
}

TEST_CASE("FF pixel shader passes the colour through", "[shader][ff][math]") {
  const auto words = novem::build_ff_pixel_shader();
  novem::test::SpirvInterpreter vm(words);
  REQUIRE(vm.ok());
  vm.set_input(novem::kFFColorLocation, {0.2f, 0.4f, 0.6f, 0.8f});
  REQUIRE(vm.run());
  check_close(vm.output(0), {0.2f, 0.4f, 0.6f, 0.8f});
}
