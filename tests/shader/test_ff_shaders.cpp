// The fixed-function shader generators (frontend/shader/ff): keys compare and hash as bytes;
// modules for keys covering every feature validate (Vulkan 1.0, OpenGL 4.5) and cross-compile to
// GLSL 450; and what they compute matches D3D9's formulas, computed here in C++ and checked by
// running the SPIR-V on the CPU interpreter.
#include <catch2/catch.hpp>

#include <d3d9.h>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>

#include "ff_constants.hpp"
#include "ff_shaders.hpp"
#include "spirv_interp.hpp"
#include "spirv_test_support.hpp"
#include "translate/conventions.hpp"

using namespace novem::ff;
namespace conv = novem::d3d9::conv;
using Vec4 = std::array<float, 4>;

namespace {

void check_valid(const std::vector<uint32_t>& words, const std::string& name) {
  INFO("module " << name);
  REQUIRE(!words.empty());
  novem::test::dump_module(name, words);
  const auto vk = novem::test::validate(words, SPV_ENV_VULKAN_1_0);
  INFO((vk.empty() ? std::string() : vk.front()));
  CHECK(vk.empty());
  const auto gl = novem::test::validate(words, SPV_ENV_OPENGL_4_5);
  INFO((gl.empty() ? std::string() : gl.front()));
  CHECK(gl.empty());
  const auto glsl = novem::test::cross_to_glsl(words);
  INFO(glsl.text);
  CHECK(glsl.ok);
}

VertexKey base_vertex_key() {
  VertexKey k;
  k.has_normal = 1;
  k.has_color0 = 1;
  k.texcoord_size[0] = 2;
  return k;
}

// Vertex keys that between them switch on every feature the generator has.
std::vector<std::pair<std::string, VertexKey>> vertex_keys() {
  std::vector<std::pair<std::string, VertexKey>> keys;
  auto add = [&](const std::string& name, const std::function<void(VertexKey&)>& f) {
    VertexKey k = base_vertex_key();
    f(k);
    keys.emplace_back(name, k);
  };
  add("plain", [](VertexKey&) {});
  add("pretransformed", [](VertexKey& k) { k.pretransformed = 1, k.has_normal = 0, k.has_color1 = 1; });
  add("no_inputs", [](VertexKey& k) { k.has_normal = 0, k.has_color0 = 0, k.texcoord_size[0] = 0; });
  add("lit_all", [](VertexKey& k) {
    k.lighting = k.specular = k.local_viewer = k.normalize = 1;
    k.light_type[0] = kLightDirectional, k.light_type[1] = kLightPoint, k.light_type[2] = kLightSpot;
    k.diffuse_source = kSourceColor1, k.specular_source = kSourceColor2, k.has_color1 = 1;
  });
  add("lit_8", [](VertexKey& k) {
    k.lighting = k.specular = 1;
    for (uint32_t i = 0; i < kLights; ++i) k.light_type[i] = uint8_t(1 + i % 3);
    k.ambient_source = kSourceColor1, k.emissive_source = kSourceColor1;
  });
  for (uint8_t m = 2; m <= 4; ++m)
    add("blend" + std::to_string(m), [m](VertexKey& k) { k.blend_matrices = m, k.blend_weights = uint8_t(m - 1); });
  add("blend_indexed", [](VertexKey& k) { k.blend_matrices = 3, k.blend_weights = 2, k.blend_indexed = 1, k.blend_indices_color = 1; });
  add("blend_indexed_one", [](VertexKey& k) { k.blend_matrices = 1, k.blend_indexed = 1; });
  add("tween", [](VertexKey& k) { k.tween_position = 1, k.tween_normal = 1, k.lighting = 1, k.light_type[0] = kLightPoint; });
  add("tween_position", [](VertexKey& k) { k.tween_position = 1; });
  for (uint8_t f = 1; f <= 3; ++f) add("fog" + std::to_string(f), [f](VertexKey& k) { k.fog_mode = f, k.fog_range = f == 2; });
  add("clip", [](VertexKey& k) { k.clip_planes = 0x3f; });
  add("clip_low", [](VertexKey& k) { k.clip_planes = 0x05; });
  add("points", [](VertexKey& k) { k.point_scale = 1, k.has_psize = 1; });
  for (uint8_t g = 0; g <= kTexGenSphere; ++g)
    add("texgen" + std::to_string(g), [g](VertexKey& k) {
      k.tex_gen[1] = g, k.tex_transform[1] = 3, k.local_viewer = g == kTexGenReflection;
    });
  for (uint8_t n = 1; n <= 4; ++n)
    add("transform_size" + std::to_string(n), [n](VertexKey& k) { k.texcoord_size[2] = n, k.tex_index[3] = 2, k.tex_transform[3] = 2; });
  return keys;
}

// Pixel keys: every D3DTOP as a colour and an alpha operation, every argument and modifier, the
// result register, fog, alpha test, clip planes, flat shading, point sprites, texture kinds.
std::vector<std::pair<std::string, PixelKey>> pixel_keys() {
  std::vector<std::pair<std::string, PixelKey>> keys;
  auto stage = [](uint8_t op, uint8_t a1, uint8_t a2) {
    PixelStage s;
    s.color_op = op, s.color_arg[0] = D3DTA_CURRENT, s.color_arg[1] = a1, s.color_arg[2] = a2;
    s.alpha_op = op == D3DTOP_BUMPENVMAP || op == D3DTOP_BUMPENVMAPLUMINANCE ? uint8_t(D3DTOP_SELECTARG1) : op;
    s.alpha_arg[0] = D3DTA_CURRENT, s.alpha_arg[1] = a1, s.alpha_arg[2] = a2;
    s.texture = kTexture2D;
    return s;
  };
  for (uint8_t op = D3DTOP_SELECTARG1; op <= D3DTOP_LERP; ++op) {
    PixelKey k;
    k.stage[0] = stage(op, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    k.stage[1] = stage(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT);
    keys.emplace_back("op" + std::to_string(op), k);
  }
  for (uint8_t sel = 0; sel <= D3DTA_CONSTANT; ++sel)
    for (uint8_t mod : {0, D3DTA_COMPLEMENT, D3DTA_ALPHAREPLICATE, D3DTA_COMPLEMENT | D3DTA_ALPHAREPLICATE}) {
      PixelKey k;
      k.stage[0] = stage(D3DTOP_ADD, uint8_t(sel | mod), D3DTA_TFACTOR);
      k.stage[0].result_temp = 1;
      k.stage[1] = stage(D3DTOP_MULTIPLYADD, D3DTA_TEMP, uint8_t(sel | mod));
      k.stage[1].texture = kTextureNone;
      keys.emplace_back("arg" + std::to_string(sel) + "_" + std::to_string(mod), k);
    }
  PixelKey all8;
  for (uint32_t s = 0; s < kStages; ++s) all8.stage[s] = stage(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT);
  all8.stage[2].texture = kTextureCube, all8.stage[3].texture = kTextureVolume, all8.stage[4].projected = 4;
  all8.stage[5].projected = 3, all8.stage[6].texture = kTextureDepth;
  keys.emplace_back("stages8", all8);
  for (uint8_t f = kFogVarying; f <= kFogExp2; ++f)
    for (uint8_t w = 0; w < 2; ++w) {
      PixelKey k;
      k.stage[0] = stage(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE);
      k.fog = f, k.fog_w = w;
      keys.emplace_back("fog" + std::to_string(f) + "_" + std::to_string(w), k);
    }
  for (uint8_t a = D3DCMP_NEVER; a <= D3DCMP_ALWAYS; ++a) {
    PixelKey k;
    k.stage[0] = stage(D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_DIFFUSE);
    k.alpha_func = a, k.specular_add = 1, k.flat = a & 1;
    keys.emplace_back("alpha" + std::to_string(a), k);
  }
  PixelKey clip;
  clip.stage[0] = stage(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE);
  clip.clip_planes = 0x21;
  keys.emplace_back("clip", clip);
  PixelKey sprite = clip;
  sprite.clip_planes = 0, sprite.point_sprite = 1;
  keys.emplace_back("sprite", sprite);
  PixelKey shader_coords = clip;
  shader_coords.clip_planes = 0, shader_coords.stage[0].coord_location = 5;
  keys.emplace_back("coord5", shader_coords);
  PixelKey none;
  none.stage[0].color_op = D3DTOP_DISABLE;
  keys.emplace_back("disabled", none);
  return keys;
}

}  // namespace

TEST_CASE("FF keys compare and hash by their bytes", "[shader][ff]") {
  std::unordered_set<VertexKey> vs;
  for (const auto& [name, k] : vertex_keys()) vs.insert(k);
  CHECK(vs.size() == vertex_keys().size());
  std::unordered_set<PixelKey> ps;
  for (const auto& [name, k] : pixel_keys()) ps.insert(k);
  CHECK(ps.size() == pixel_keys().size());
  VertexKey a, b;
  CHECK(a == b);
  b.light_type[7] = kLightSpot;
  CHECK(!(a == b));
  CHECK(std::hash<VertexKey>{}(a) != std::hash<VertexKey>{}(b));
}

TEST_CASE("FF vertex shaders validate, cross-compile and are deterministic", "[shader][ff]") {
  for (const auto& [name, k] : vertex_keys()) {
    const auto words = build_vertex_shader(k);
    check_valid(words, "ff_vs_" + name);
    CHECK(words == build_vertex_shader(k));
  }
}

TEST_CASE("FF pixel shaders validate, cross-compile and are deterministic", "[shader][ff]") {
  for (const auto& [name, k] : pixel_keys()) {
    const auto words = build_pixel_shader(k);
    check_valid(words, "ff_ps_" + name);
    CHECK(words == build_pixel_shader(k));
  }
}

// ---- what the vertex shader computes ------------------------------------------------------------

namespace {

struct V3 {
  float x, y, z;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(V3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 normalize(V3 a) { return a * (1.0f / std::sqrt(dot(a, a))); }

void identity(float m[4][4]) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = i == j ? 1.0f : 0.0f;
}

VertexConstants identity_constants() {
  VertexConstants c{};
  for (auto& m : c.world_view) identity(m);
  for (auto& m : c.normal_matrix) identity(m);
  identity(c.projection);
  for (auto& m : c.texture) identity(m);
  c.point[0] = 1, c.point[1] = 1, c.point[2] = 64;
  return c;
}

struct VsResult {
  Vec4 position, diffuse, specular, fog, tex[kStages];
  float point_size;
};

VsResult run_vs(const VertexKey& k, const VertexConstants& c, const std::map<uint32_t, Vec4>& inputs) {
  const auto words = build_vertex_shader(k);
  novem::test::SpirvInterpreter vm(words);
  REQUIRE(vm.ok());
  for (const auto& [location, value] : inputs) vm.set_input(location, value);
  vm.set_uniform(conv::kVertexUniformSet, conv::kVertexUniformBinding, &c, sizeof c);
  const bool ran = vm.run();
  INFO(vm.error());
  REQUIRE(ran);
  VsResult r{vm.position(), vm.output(16), vm.output(17), vm.output(18), {}, vm.point_size()};
  for (uint32_t s = 0; s < kStages; ++s) r.tex[s] = vm.output(s);
  return r;
}

void check_close(const Vec4& got, const Vec4& want, float eps = 1e-4f) {
  for (int i = 0; i < 4; ++i) {
    INFO("component " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= eps * std::max(1.0f, std::fabs(want[i])));
  }
}

}  // namespace

TEST_CASE("FF lighting follows D3D9's Mathematics of Lighting", "[shader][ff][math]") {
  VertexKey k = base_vertex_key();
  k.has_color0 = 0;
  k.lighting = k.specular = k.local_viewer = 1;
  k.light_type[0] = kLightDirectional, k.light_type[1] = kLightPoint, k.light_type[2] = kLightSpot;
  VertexConstants c = identity_constants();
  const Vec4 md{0.8f, 0.6f, 0.4f, 0.5f}, ma{0.5f, 0.5f, 0.5f, 1}, ms{1, 1, 1, 0.25f}, me{0.05f, 0.0f, 0.1f, 0};
  auto set4 = [](float out[4], Vec4 v) { for (int i = 0; i < 4; ++i) out[i] = v[i]; };
  set4(c.material_diffuse, md), set4(c.material_ambient, ma), set4(c.material_specular, ms), set4(c.material_emissive, me);
  c.material_power[0] = 8;
  set4(c.ambient, {0.1f, 0.2f, 0.3f, 0});
  // Directional light towards -z (direction to the light: +z... stored as -Direction).
  set4(c.light[0].diffuse, {0.5f, 0.5f, 0.5f, 1}), set4(c.light[0].specular, {0.2f, 0.2f, 0.2f, 1});
  set4(c.light[0].ambient, {0.1f, 0, 0, 0});
  const V3 d0 = normalize({0.3f, 0.4f, -1.0f});
  set4(c.light[0].direction, {d0.x, d0.y, d0.z, 0});
  // Point light at (1, 2, -3), range 10, attenuation (0.5, 0.1, 0.02).
  set4(c.light[1].diffuse, {0.3f, 0.6f, 0.9f, 1}), set4(c.light[1].specular, {0.5f, 0.5f, 0.5f, 1});
  set4(c.light[1].ambient, {0, 0.1f, 0, 0});
  set4(c.light[1].position, {1, 2, -3, 1}), set4(c.light[1].range_att, {10, 0.5f, 0.1f, 0.02f});
  // Spot light at (0, 0, -4) pointing at +z (stored direction to the light: -z), theta 0.1, phi 0.6.
  set4(c.light[2].diffuse, {1, 1, 1, 1}), set4(c.light[2].position, {0, 0, -4, 1});
  set4(c.light[2].direction, {0, 0, -1, 0}), set4(c.light[2].range_att, {100, 1, 0, 0});
  set4(c.light[2].spot, {std::cos(0.05f), std::cos(0.3f), 2.0f, 0});

  const V3 p{0.5f, 0.25f, 1.0f}, n = normalize({0.2f, 0.1f, -1.0f});
  const VsResult r = run_vs(k, c, {{kInPosition, {p.x, p.y, p.z, 1}}, {kInNormal, {n.x, n.y, n.z, 0}}});

  // The reference, term by term.
  V3 amb{0.1f, 0.2f, 0.3f}, dif{0, 0, 0}, spe{0, 0, 0};
  const V3 viewer = normalize(p * -1.0f);
  auto add_light = [&](V3 L, float factor, V3 ld, V3 ls, V3 la) {
    amb = amb + la * factor;
    const float ndl = dot(n, L);
    dif = dif + ld * (std::max(ndl, 0.0f) * factor);
    if (ndl > 0) spe = spe + ls * (std::pow(std::max(dot(n, normalize(L + viewer)), 0.0f), 8.0f) * factor);
  };
  add_light(d0, 1.0f, {0.5f, 0.5f, 0.5f}, {0.2f, 0.2f, 0.2f}, {0.1f, 0, 0});
  {
    const V3 to = V3{1, 2, -3} - p;
    const float dist = std::sqrt(dot(to, to));
    add_light(to * (1 / dist), 1.0f / (0.5f + 0.1f * dist + 0.02f * dist * dist), {0.3f, 0.6f, 0.9f}, {0.5f, 0.5f, 0.5f}, {0, 0.1f, 0});
  }
  {
    const V3 to = V3{0, 0, -4} - p;
    const float dist = std::sqrt(dot(to, to));
    const V3 L = to * (1 / dist);
    const float rho = dot(V3{0, 0, -1}, L);
    float spot = rho > std::cos(0.05f) ? 1.0f : rho <= std::cos(0.3f) ? 0.0f : std::pow((rho - std::cos(0.3f)) / (std::cos(0.05f) - std::cos(0.3f)), 2.0f);
    CHECK(spot > 0.0f);   // the vertex is in the penumbra: the falloff term matters
    CHECK(spot < 1.0f);
    add_light(L, spot / 1.0f, {1, 1, 1}, {0, 0, 0}, {0, 0, 0});
  }
  auto clamp = [](float x) { return std::min(std::max(x, 0.0f), 1.0f); };
  const Vec4 want_diffuse{clamp(me[0] + ma[0] * amb.x + md[0] * dif.x), clamp(me[1] + ma[1] * amb.y + md[1] * dif.y),
                          clamp(me[2] + ma[2] * amb.z + md[2] * dif.z), md[3]};
  const Vec4 want_specular{clamp(spe.x), clamp(spe.y), clamp(spe.z), ms[3]};
  check_close(r.diffuse, want_diffuse);
  check_close(r.specular, want_specular);
}

TEST_CASE("FF vertex fog, texture transforms, texgen and blending follow D3D9", "[shader][ff][math]") {
  VertexConstants c = identity_constants();
  c.fog[0] = 2, c.fog[1] = 10, c.fog[2] = 0.3f;
  const Vec4 pos{1, 2, 6, 1};
  SECTION("fog") {
    for (uint8_t mode : {uint8_t(D3DFOG_LINEAR), uint8_t(D3DFOG_EXP), uint8_t(D3DFOG_EXP2)})
      for (uint8_t range : {0, 1}) {
        VertexKey k = base_vertex_key();
        k.fog_mode = mode, k.fog_range = range;
        const float d = range ? std::sqrt(1.0f + 4.0f + 36.0f) : 6.0f;
        const float want = mode == D3DFOG_LINEAR ? (10 - d) / 8.0f : mode == D3DFOG_EXP ? std::exp(-d * 0.3f) : std::exp(-(d * 0.3f) * (d * 0.3f));
        INFO("mode " << int(mode) << " range " << int(range));
        CHECK(run_vs(k, c, {{kInPosition, pos}}).fog[0] == Approx(want).epsilon(1e-4));
      }
  }
  SECTION("2D texture transform: (u, v, 1, 0) so that _31, _32 translate") {
    VertexKey k = base_vertex_key();
    k.tex_transform[0] = 2;
    c.texture[0][2][0] = 0.25f, c.texture[0][2][1] = -0.5f;   // _31, _32
    c.texture[0][0][0] = 2.0f;                               // _11: u scale
    const VsResult r = run_vs(k, c, {{kInPosition, pos}, {kInTexcoord0, {0.5f, 0.75f, 0, 1}}});
    CHECK(r.tex[0][0] == Approx(2 * 0.5f + 0.25f));
    CHECK(r.tex[0][1] == Approx(0.75f - 0.5f));
  }
  SECTION("texgen: camera-space position, normal and reflection vector") {
    VertexKey k = base_vertex_key();
    k.tex_gen[0] = kTexGenPosition, k.tex_gen[1] = kTexGenNormal, k.tex_gen[2] = kTexGenReflection;
    k.local_viewer = 1;
    c.world_view[0][3][0] = 1.0f;   // translate x by 1
    const VsResult r = run_vs(k, c, {{kInPosition, {0, 0, 2, 1}}, {kInNormal, {0, 0, -1, 0}}});
    check_close(r.tex[0], {1, 0, 2, 1});
    check_close(r.tex[1], {0, 0, -1, 1});
    // I = normalize(1, 0, 2); R = I - 2 (N.I) N
    const V3 i = normalize({1, 0, 2});
    const V3 rv = i - V3{0, 0, -1} * (2 * dot({0, 0, -1}, i));
    check_close(r.tex[2], {rv.x, rv.y, rv.z, 1});
  }
  SECTION("vertex blending: weights, the last matrix gets the rest") {
    VertexKey k = base_vertex_key();
    k.blend_matrices = 3, k.blend_weights = 2;
    c.world_view[0][3][0] = 10;   // matrix 0 moves x by 10
    c.world_view[1][3][1] = 20;   // matrix 1 moves y by 20
    c.world_view[2][3][2] = 40;   // matrix 2 moves z by 40
    const VsResult r = run_vs(k, c, {{kInPosition, {0, 0, 0, 1}}, {kInBlendWeight, {0.5f, 0.25f, 0, 0}}});
    check_close(r.position, {5, 5, 10, 1});
  }
  SECTION("indexed vertex blending from a D3DCOLOR") {
    VertexKey k = base_vertex_key();
    k.blend_matrices = 2, k.blend_weights = 1, k.blend_indexed = 1, k.blend_indices_color = 1;
    c.world_view[3][3][0] = 8;   // matrix 3
    c.world_view[6][3][1] = 4;   // matrix 6
    // Index 0 is read from .z, index 1 from .y (the D3DCOLOR's bytes as the vertex format reads them).
    const VsResult r = run_vs(k, c, {{kInPosition, {0, 0, 0, 1}}, {kInBlendWeight, {0.25f, 0, 0, 0}},
                                     {kInBlendIndices, {0, 6 / 255.0f, 3 / 255.0f, 0}}});
    check_close(r.position, {2, 3, 0, 1});
  }
  SECTION("tweening: POSITION0 (1 - f) + POSITION1 f, the normals likewise") {
    VertexKey k = base_vertex_key();
    k.tween_position = 1, k.tween_normal = 1;
    k.tex_gen[0] = kTexGenNormal;
    c.tween[0] = 0.25f;
    // (0, 0, 2) + 0.25 ((4, 8, 2) - (0, 0, 2)) = (1, 2, 2); (0, 0, -1) + 0.25 ((1, 0, 0) - (0, 0, -1)).
    const VsResult r = run_vs(k, c, {{kInPosition, {0, 0, 2, 1}}, {kInPosition1, {4, 8, 2, 1}},
                                     {kInNormal, {0, 0, -1, 0}}, {kInNormal1, {1, 0, 0, 0}}});
    check_close(r.position, {1, 2, 2, 1});
    check_close(r.tex[0], {0.25f, 0, -0.75f, 1});
  }
  SECTION("point scale") {
    VertexKey k = base_vertex_key();
    k.point_scale = 1;
    c.point[0] = 4, c.point[1] = 1, c.point[2] = 64, c.point[3] = 100;
    c.point_scale[0] = 1, c.point_scale[1] = 0.5f, c.point_scale[2] = 0.25f;
    const float de = std::sqrt(1.0f + 4.0f + 36.0f);
    const float want = std::min(64.0f, 100 * 4 * std::sqrt(1 / (1 + 0.5f * de + 0.25f * de * de)));
    CHECK(run_vs(k, c, {{kInPosition, pos}}).point_size == Approx(want).epsilon(1e-4));
  }
}

// ---- what the pixel shader computes -------------------------------------------------------------

namespace {

Vec4 sat(Vec4 v) {
  for (float& x : v) x = std::min(std::max(x, 0.0f), 1.0f);
  return v;
}

// D3DTEXTUREOP on 4-vectors, from the D3DTEXTUREOP page.
Vec4 reference_op(uint8_t op, Vec4 a0, Vec4 a1, Vec4 a2, Vec4 diffuse, Vec4 current, Vec4 tfactor) {
  Vec4 r{};
  for (int i = 0; i < 4; ++i) {
    const float x = a1[i], y = a2[i];
    switch (op) {
    case D3DTOP_SELECTARG1: r[i] = x; break;
    case D3DTOP_SELECTARG2: r[i] = y; break;
    case D3DTOP_MODULATE: r[i] = x * y; break;
    case D3DTOP_MODULATE2X: r[i] = 2 * x * y; break;
    case D3DTOP_MODULATE4X: r[i] = 4 * x * y; break;
    case D3DTOP_ADD: r[i] = x + y; break;
    case D3DTOP_ADDSIGNED: r[i] = x + y - 0.5f; break;
    case D3DTOP_ADDSIGNED2X: r[i] = 2 * (x + y - 0.5f); break;
    case D3DTOP_SUBTRACT: r[i] = x - y; break;
    case D3DTOP_ADDSMOOTH: r[i] = x + y - x * y; break;
    case D3DTOP_BLENDDIFFUSEALPHA: r[i] = x * diffuse[3] + y * (1 - diffuse[3]); break;
    case D3DTOP_BLENDTEXTUREALPHA: r[i] = current[i]; break;   // no texture: CURRENT passes
    case D3DTOP_BLENDFACTORALPHA: r[i] = x * tfactor[3] + y * (1 - tfactor[3]); break;
    case D3DTOP_BLENDTEXTUREALPHAPM: r[i] = current[i]; break;
    case D3DTOP_BLENDCURRENTALPHA: r[i] = x * current[3] + y * (1 - current[3]); break;
    case D3DTOP_MODULATEALPHA_ADDCOLOR: r[i] = x + a1[3] * y; break;
    case D3DTOP_MODULATECOLOR_ADDALPHA: r[i] = x * y + a1[3]; break;
    case D3DTOP_MODULATEINVALPHA_ADDCOLOR: r[i] = (1 - a1[3]) * y + x; break;
    case D3DTOP_MODULATEINVCOLOR_ADDALPHA: r[i] = (1 - x) * y + a1[3]; break;
    case D3DTOP_DOTPRODUCT3:
      r[i] = 4 * ((a1[0] - 0.5f) * (a2[0] - 0.5f) + (a1[1] - 0.5f) * (a2[1] - 0.5f) + (a1[2] - 0.5f) * (a2[2] - 0.5f));
      break;
    case D3DTOP_MULTIPLYADD: r[i] = a0[i] + x * y; break;
    case D3DTOP_LERP: r[i] = a0[i] * x + (1 - a0[i]) * y; break;
    default: r[i] = current[i];
    }
  }
  return r;
}

struct PsRun {
  Vec4 color;
  bool killed;
};

PsRun run_ps(const PixelKey& k, const PixelConstants& c, Vec4 diffuse, Vec4 specular, float fog = 1.0f) {
  const auto words = build_pixel_shader(k);
  novem::test::SpirvInterpreter vm(words);
  REQUIRE(vm.ok());
  vm.set_input(16, diffuse);
  vm.set_input(17, specular);
  vm.set_input(18, {fog, fog, fog, fog});
  vm.set_uniform(conv::kPixelUniformSet, conv::kPixelUniformBinding, &c, sizeof c);
  const bool ran = vm.run();
  INFO(vm.error());
  REQUIRE(ran);
  return {vm.output(0), vm.killed()};
}

}  // namespace

TEST_CASE("FF texture stages: every operation, argument and modifier (no texture)", "[shader][ff][math]") {
  // (A stage without a texture whose operation reads the texture passes CURRENT through.)
  const Vec4 diffuse{0.8f, 0.4f, 0.2f, 0.6f}, specular{0.1f, 0.3f, 0.5f, 0.7f};
  PixelConstants c{};
  const Vec4 tfactor{0.25f, 0.5f, 0.75f, 0.4f}, constant{0.9f, 0.1f, 0.6f, 0.3f};
  for (int i = 0; i < 4; ++i) c.texture_factor[i] = tfactor[i], c.constant[1][i] = constant[i];
  // Stage 0 puts TFACTOR into TEMP (RESULTARG TEMP) and leaves CURRENT = diffuse; stage 1 runs the
  // operation with ARG0 = TEMP, ARG1 = SPECULAR | modifiers, ARG2 = CONSTANT.
  for (uint8_t op = D3DTOP_SELECTARG1; op <= D3DTOP_LERP; ++op) {
    if (op == D3DTOP_PREMODULATE || op == D3DTOP_BUMPENVMAP || op == D3DTOP_BUMPENVMAPLUMINANCE) continue;
    for (uint8_t mod : {0, D3DTA_COMPLEMENT, D3DTA_ALPHAREPLICATE}) {
      PixelKey k;
      k.stage[0].color_op = D3DTOP_SELECTARG1, k.stage[0].color_arg[1] = D3DTA_TFACTOR;
      k.stage[0].alpha_op = D3DTOP_SELECTARG1, k.stage[0].alpha_arg[1] = D3DTA_TFACTOR;
      k.stage[0].result_temp = 1;
      PixelStage& s = k.stage[1];
      s.color_op = s.alpha_op = op;
      s.color_arg[0] = s.alpha_arg[0] = D3DTA_TEMP;
      s.color_arg[1] = s.alpha_arg[1] = uint8_t(D3DTA_SPECULAR | mod);
      s.color_arg[2] = s.alpha_arg[2] = D3DTA_CONSTANT;
      Vec4 a1 = specular;
      if (mod & D3DTA_ALPHAREPLICATE) a1 = {a1[3], a1[3], a1[3], a1[3]};
      if (mod & D3DTA_COMPLEMENT) for (float& x : a1) x = 1 - x;
      Vec4 want = sat(reference_op(op, tfactor, a1, constant, diffuse, diffuse, tfactor));
      INFO("op " << int(op) << " modifier " << int(mod));
      check_close(run_ps(k, c, diffuse, specular).color, want);
    }
  }
}

TEST_CASE("FF pixel shader: specular add, vertex fog and the alpha test", "[shader][ff][math]") {
  PixelConstants c{};
  c.fog_color[0] = 0.5f, c.fog_color[1] = 0.25f, c.fog_color[2] = 1.0f;
  PixelKey k;
  k.stage[0].color_op = D3DTOP_SELECTARG1, k.stage[0].color_arg[1] = D3DTA_DIFFUSE;
  k.stage[0].alpha_op = D3DTOP_SELECTARG1, k.stage[0].alpha_arg[1] = D3DTA_DIFFUSE;
  k.specular_add = 1, k.fog = kFogVarying;
  const Vec4 d{0.5f, 0.5f, 0.2f, 0.5f}, s{0.25f, 0.75f, 0.1f, 0};
  const float f = 0.25f;
  const Vec4 lit{0.75f, 1.0f, 0.3f, 0.5f};
  check_close(run_ps(k, c, d, s, f).color, {f * lit[0] + (1 - f) * 0.5f, f * lit[1] + (1 - f) * 0.25f, f * lit[2] + (1 - f) * 1.0f, 0.5f});
  // Alpha 0.5 is 128 as 8 bits (round to nearest).
  k.fog = kFogNone;
  const struct { uint8_t func; float ref; bool pass; } cases[] = {
      {D3DCMP_NEVER, 0, false}, {D3DCMP_LESS, 128, false}, {D3DCMP_LESS, 129, true},
      {D3DCMP_EQUAL, 128, true}, {D3DCMP_EQUAL, 127, false}, {D3DCMP_LESSEQUAL, 128, true},
      {D3DCMP_GREATER, 128, false}, {D3DCMP_GREATER, 127, true}, {D3DCMP_NOTEQUAL, 128, false},
      {D3DCMP_GREATEREQUAL, 128, true}, {D3DCMP_GREATEREQUAL, 129, false}, {D3DCMP_ALWAYS, 255, true}};
  for (const auto& t : cases) {
    k.alpha_func = t.func;
    c.fog[3] = t.ref;
    INFO("func " << int(t.func) << " ref " << t.ref);
    CHECK(run_ps(k, c, d, s).killed == !t.pass);
  }
}
