// D3D9 shader translation: corpus shaders validate (SPIRV-Tools, Vulkan 1.0) and cross-compile to
// GLSL 450 (SPIRV-Cross); every SM2/SM3 instruction is covered; the semantics D3D9 defines are
// checked by running the SPIR-V on the CPU interpreter; unsupported input is refused.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "assembler.hpp"
#include "novem/spirv_uniforms.hpp"
#include "conventions.hpp"
#include "parser.hpp"
#include "spirv_interp.hpp"
#include "spirv_test_support.hpp"
#include "translate.hpp"

using namespace novem::d3d9;
namespace conv = novem::d3d9::conv;
using Vec4 = std::array<float, 4>;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kMaxFloat = std::numeric_limits<float>::max();

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Program parse_text(const std::string& text) {
  AssembleResult a = assemble(text);
  INFO(a.error);
  REQUIRE(a.ok);
  ParseResult p = parse_shader(a.tokens.data(), a.tokens.size());
  INFO(p.error);
  REQUIRE(p.ok);
  return p.program;
}

void require_valid(const Translation& t, const std::string& name) {
  INFO(name << ": " << t.error);
  REQUIRE(t.ok());
  const auto messages = novem::test::validate(t.spirv, SPV_ENV_VULKAN_1_0);
  for (const auto& m : messages) UNSCOPED_INFO(m);
  CHECK(messages.empty());
  const auto glsl = novem::test::cross_to_glsl(t.spirv);
  INFO(glsl.text);
  CHECK(glsl.ok);
  novem::test::dump_module("translate_" + name, t.spirv);
}

// The set of a translated shader's uniform block (conventions.hpp: one set per stage).
uint32_t uniform_set(const Translation& t) {
  return t.reflection.uniform_binding == conv::kVertexUniformBinding ? conv::kVertexUniformSet : conv::kPixelUniformSet;
}

struct Exec {
  Translation t;
  std::unique_ptr<novem::test::SpirvInterpreter> in;
  Vec4 out(uint32_t location) const { return in->output(location); }
};

Exec exec(const std::string& text, const conv::UniformBlock& u = {},
          const std::vector<std::pair<uint32_t, Vec4>>& inputs = {}) {
  Exec e;
  e.t = translate(parse_text(text));
  require_valid(e.t, "exec");
  e.in = std::make_unique<novem::test::SpirvInterpreter>(e.t.spirv);
  INFO(e.in->error());
  REQUIRE(e.in->ok());
  if (e.t.reflection.uses_uniforms) e.in->set_uniform(uniform_set(e.t), e.t.reflection.uniform_binding, &u, sizeof u);
  for (const auto& [loc, v] : inputs) e.in->set_input(loc, v);
  REQUIRE(e.in->run());
  INFO(e.in->error());
  REQUIRE(e.in->ok());
  return e;
}

bool same(float got, float want) {
  if (std::isinf(want) || want == kMaxFloat || want == -kMaxFloat) return got == want;
  return std::fabs(got - want) <= 1e-4f * std::max(1.0f, std::fabs(want));
}

void check_vec(const Vec4& got, const Vec4& want) {
  INFO("got (" << got[0] << ", " << got[1] << ", " << got[2] << ", " << got[3] << "), want (" << want[0] << ", "
               << want[1] << ", " << want[2] << ", " << want[3] << ")");
  for (size_t i = 0; i < 4; ++i) CHECK(same(got[i], want[i]));
}

void set_c(conv::UniformBlock& u, uint32_t n, Vec4 v) { std::memcpy(u.c[n], v.data(), sizeof(float) * 4); }

uint32_t texcoord(uint32_t n) { return conv::kLocationTexcoord + n; }

std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {NOVEM_D3D9_CORPUS_DIR, NOVEM_TRANSLATE_CORPUS_DIR})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".asm") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every corpus shader translates to valid SPIR-V and GLSL") {
  const auto files = corpus_files();
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    DYNAMIC_SECTION(f.filename().string()) {
      const Program p = parse_text(read_text(f));
      const Translation t = translate(p);
      require_valid(t, f.stem().string());
    }
  }
}

TEST_CASE("novem-shader assembled this corpus at build time to the library's bytes") {
  for (const auto& e : std::filesystem::directory_iterator(NOVEM_TRANSLATE_CORPUS_DIR)) {
    if (e.path().extension() != ".asm") continue;
    INFO(e.path().filename().string());
    const AssembleResult a = assemble(read_text(e.path()));
    REQUIRE(a.ok);
    std::ifstream in(std::filesystem::path(NOVEM_TRANSLATE_CORPUS_BIN_DIR) / (e.path().stem().string() + ".bin"),
                     std::ios::binary);
    REQUIRE(in);
    std::vector<uint32_t> tool(a.tokens.size() + 1);
    in.read(reinterpret_cast<char*>(tool.data()), std::streamsize(tool.size() * 4));
    tool.resize(size_t(in.gcount()) / 4);
    CHECK(tool == a.tokens);
  }
}

TEST_CASE("the translated corpus uses every instruction of vs_2_0..vs_3_0 and ps_2_0..ps_3_0") {
  std::set<uint16_t> seen;
  for (const auto& f : corpus_files()) {
    const Program p = parse_text(read_text(f));
    if (p.version.major < 2) continue;
    REQUIRE(translate(p).ok());
    for (const Instruction& in : p.instructions) seen.insert(static_cast<uint16_t>(in.opcode));
  }
  const Version versions[] = {{ShaderType::Vertex, 2, 0}, {ShaderType::Vertex, 2, 1}, {ShaderType::Vertex, 3, 0},
                              {ShaderType::Pixel, 2, 0},  {ShaderType::Pixel, 2, 1},  {ShaderType::Pixel, 3, 0}};
  for (const OpInfo& row : opcode_table()) {
    if (row.form == OpForm::Dcl || row.form == OpForm::Def || row.form == OpForm::DefI ||
        row.form == OpForm::DefB || row.form == OpForm::Phase)
      continue;
    bool in_sm23 = false;
    for (const Version& v : versions) in_sm23 = in_sm23 || row.allowed_in(v);
    if (!in_sm23) continue;
    INFO("instruction " << row.name);
    CHECK(seen.count(static_cast<uint16_t>(row.opcode)) == 1);
  }
}

TEST_CASE("the translated corpus uses every ps_1_x instruction") {
  std::set<uint16_t> seen;
  for (const auto& f : corpus_files()) {
    const Program p = parse_text(read_text(f));
    if (!(p.version.is_ps() && p.version.sm1())) continue;
    REQUIRE(translate(p).ok());
    for (const Instruction& in : p.instructions) seen.insert(static_cast<uint16_t>(in.opcode));
  }
  const Version versions[] = {{ShaderType::Pixel, 1, 1}, {ShaderType::Pixel, 1, 2}, {ShaderType::Pixel, 1, 3},
                              {ShaderType::Pixel, 1, 4}};
  for (const OpInfo& row : opcode_table()) {
    if (row.form == OpForm::Def) continue;
    bool in_ps1 = false;
    for (const Version& v : versions) in_ps1 = in_ps1 || row.allowed_in(v);
    if (!in_ps1) continue;
    INFO("instruction " << row.name);
    CHECK(seen.count(static_cast<uint16_t>(row.opcode)) == 1);
  }
}

TEST_CASE("ps_1_x: constants clamped to [-1, 1], co-issue reads before writing, shifts, r0 is the output") {
  const Exec e = exec(R"(ps_1_1
def c0, 2, -3, 0.5, 0.25
def c1, 0.6, 0.4, 0.2, 0.75
mov r1, c0
mul_x2 r1.rgb, r1, c1
+mov r1.a, r1.r
mov r0, r1
)");
  check_vec(e.out(0), {1.2f, -0.8f, 0.2f, 1.0f});
  CHECK(e.t.reflection.color_outputs == 1u);
}

TEST_CASE("ps_1_x: texcoord saturates, cnd on r0.a, _bx2, texkill tests only xyz of the coordinates") {
  const std::string ps = R"(ps_1_1
def c1, 0.6, 0.4, 0.2, 0.75
texcoord t0
texkill t1
mov r0.a, t0.b
cnd r1, r0.a, c1, t0_bx2
mov r0.rgb, r1
)";
  const Exec a = exec(ps, {}, {{texcoord(0), {1.5f, -0.5f, 0.75f, 9}}, {texcoord(1), {0, 0, 0, -5}}});
  CHECK_FALSE(a.in->killed());
  check_vec(a.out(0), {0.6f, 0.4f, 0.2f, 0.75f});
  const Exec b = exec(ps, {}, {{texcoord(0), {1.5f, -0.5f, 0.25f, 9}}, {texcoord(1), {0, 0, 0, 1}}});
  check_vec(b.out(0), {1, -1, -0.5f, 0.25f});
  const Exec c = exec(ps, {}, {{texcoord(0), {0, 0, 0, 0}}, {texcoord(1), {0, -1, 0, 0}}});
  CHECK(c.in->killed());
}

TEST_CASE("rcp, rsq, log and pow follow D3D9 for 0, negatives and 1") {
  const Exec e = exec(R"(vs_2_0
dcl_position v0
def c0, 0, -0, 2, -4
def c1, -8, -2, 3, 0.5
def c2, 1, 0.25, -0.25, 16
rcp r0.x, c0.x
rcp r0.y, c0.y
rcp r0.z, c0.z
rsq r0.w, c0.w
rsq r1.x, c0.x
log r1.y, c0.x
log r1.z, c1.x
pow r1.w, c1.y, c1.z
pow r2.x, c1.y, c1.w
rsq r2.y, c2.w
exp r2.z, c1.y
rcp r2.w, c2.x
logp r3, c0.y
expp r4, c2.y
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oT3, r3
mov oT4, r4
mov oPos, v0
)",
                      {}, {{0, {1, 2, 3, 4}}});
  check_vec(e.out(texcoord(0)), {kInf, kInf, 0.5f, 0.5f});            // rcp(0) = rcp(-0) = +inf; rsq(-4) = 0.5
  check_vec(e.out(texcoord(1)), {kInf, -kMaxFloat, 3.0f, 8.0f});      // rsq(0); log(0); log|-8|; pow(|-2|, 3)
  check_vec(e.out(texcoord(2)), {std::sqrt(2.0f), 0.25f, 0.25f, 1.0f});
  check_vec(e.out(texcoord(3)), {-kMaxFloat, -kMaxFloat, -kMaxFloat, -kMaxFloat});
  check_vec(e.out(texcoord(4)), {std::pow(2.0f, 0.25f), std::pow(2.0f, 0.25f), std::pow(2.0f, 0.25f),
                                 std::pow(2.0f, 0.25f)});
  check_vec(e.in->position(), {1, 2, 3, 4});
  CHECK(e.in->point_size() == 1.0f);
}

TEST_CASE("lit, dst, frc, sincos write masks") {
  const Exec e = exec(R"(vs_2_0
dcl_position v0
def c0, 0.5, 0.25, 0, 2
def c1, -1, 0.5, 0, 2
def c2, 0.5, -0.2, 0, 2
def c3, 0, 2, 3, 0
def c4, 0, 4, 0, 5
def c5, -1.25, 2.5, -0.5, 0
def c6, 7, 7, 7, 7
lit r0, c0
lit r1, c1
lit r2, c2
dst r3, c3, c4
frc r4, c5
mov r5, c6
sincos r5.y, c1.y, c200, c201
mov r6, c6
sincos r6.xy, c1.x, c200, c201
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oT3, r3
mov oT4, r4
mov oT5, r5
mov oT6, r6
mov oPos, v0
)");
  check_vec(e.out(texcoord(0)), {1, 0.5f, 0.0625f, 1});
  check_vec(e.out(texcoord(1)), {1, 0, 0, 1});
  check_vec(e.out(texcoord(2)), {1, 0.5f, 0, 1});
  check_vec(e.out(texcoord(3)), {1, 8, 3, 5});
  check_vec(e.out(texcoord(4)), {0.75f, 0.5f, 0.5f, 0});
  check_vec(e.out(texcoord(5)), {7, std::sin(0.5f), 7, 7});
  check_vec(e.out(texcoord(6)), {std::cos(-1.0f), std::sin(-1.0f), 7, 7});
}

TEST_CASE("nrm (zero vector gives 0), sgn, crs, lrp, slt/sge, min/max, abs, modifiers") {
  conv::UniformBlock u{};
  const Exec e = exec(R"(vs_2_0
dcl_position v0
def c0, 3, 4, 0, 2
def c1, 0, 0, 0, 5
def c5, -3, 0, 2, -0.1
def c6, 1, 0, 0, 0
def c7, 0, 1, 0, 0
def c8, 0.25, 0.25, 0.25, 0.25
def c9, 4, 4, 4, 4
def c10, 8, 8, 8, 8
def c11, 0, 0, 0, 0
nrm r0, c0
nrm r1, c1
sgn r2, c5, r10, r11
crs r3.xyz, c6, c7
mov r3.w, c9.x
lrp r4, c8, c9, c10
slt r5, c5, c11
sge r6, c5, c11
abs r10, c5
min r7, c5, -r10
max r8, c5, c11
add r9, -r10, c9
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oT3, r3
mov oT4, r4
mov oT5, r5
mov oT6, r6
mov oT7, r7
mov oD0, r8
mov oD1, r9
mov oPos, v0
)",
                      u);
  check_vec(e.out(texcoord(0)), {0.6f, 0.8f, 0, 0.4f});
  check_vec(e.out(texcoord(1)), {0, 0, 0, 0});
  check_vec(e.out(texcoord(2)), {-1, 0, 1, -1});
  check_vec(e.out(texcoord(3)), {0, 0, 1, 4});
  check_vec(e.out(texcoord(4)), {7, 7, 7, 7});
  check_vec(e.out(texcoord(5)), {1, 0, 0, 1});
  check_vec(e.out(texcoord(6)), {0, 1, 1, 0});
  check_vec(e.out(texcoord(7)), {-3, 0, -2, -0.1f});
  check_vec(e.out(conv::kLocationColor + 0), {0, 0, 1, 0});   // oD0 clamped to [0, 1]
  check_vec(e.out(conv::kLocationColor + 1), {1, 1, 1, 1});   // 4 - |x| clamped
  // The _abs source modifier is 3_0's (vs_2_0 spells it with the abs instruction, as above):
  // 4 |x| - |x| is 3 |x| only if both _abs and -_abs take the magnitude.
  const Exec a = exec("ps_3_0\ndef c5, -3, 0, 2, -0.1\ndef c9, 4, 4, 4, 4\nmov r0, c5\nmad oC0, r0_abs, c9, -r0_abs\n");
  check_vec(a.out(0), {9, 0, 6, 0.3f});
}

TEST_CASE("vs_1_1: expp's four-component form, mov to a0 floors, mova rounds to nearest") {
  conv::UniformBlock u{};
  for (uint32_t i = 0; i < 16; ++i) set_c(u, i, {float(i), float(i), float(i), float(i)});
  const Exec e = exec(R"(vs_1_1
dcl_position v0
def c20, 2.5, -1.7, 1.7, 0
expp r0, c20.x
mov a0.x, c20.y
mov r1, c[a0.x + 7]
mov a0.x, c20.z
mov r2, c[a0.x + 7]
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oPts, c20.x
mov oPos, v0
)",
                      u);
  check_vec(e.out(texcoord(0)), {4, 0.5f, std::pow(2.0f, 2.5f), 1});
  check_vec(e.out(texcoord(1)), {5, 5, 5, 5});   // floor(-1.7) = -2
  check_vec(e.out(texcoord(2)), {8, 8, 8, 8});   // floor(1.7) = 1
  CHECK(e.in->point_size() == 2.5f);
  CHECK(e.t.reflection.writes_point_size);

  const Exec m = exec(R"(vs_2_0
dcl_position v0
def c20, 1.5, -1.5, 2.4, -2.6
mova a0, c20
mov r0.x, c7[a0.x]
mov r0.y, c7[a0.y]
mov r0.z, c7[a0.z]
mov r0.w, c7[a0.w]
mov oT0, r0
mov oPos, v0
)",
                      u);
  check_vec(m.out(texcoord(0)), {9, 6, 9, 4});   // round(1.5)=2, round(-1.5)=-1, 2, -3
}

TEST_CASE("ps: cmp, dp2add, texkill of any negative component") {
  const std::string ps = R"(ps_2_0
dcl t0
def c0, 1, 2, 3, 4
def c1, 5, 6, 7, 8
def c2, 0.5, 0, 0, 0
cmp r0, t0, c0, c1
dp2add r1, c0, c1, c2.x
texkill t0
mov oC0, r0
mov oC1, r1
)";
  const Exec a = exec(ps, {}, {{texcoord(0), {1, 0, -0.0f, 2}}});
  CHECK_FALSE(a.in->killed());
  check_vec(a.out(0), {1, 2, 3, 4});   // -0 >= 0
  check_vec(a.out(1), {17.5f, 17.5f, 17.5f, 17.5f});
  const Exec b = exec(ps, {}, {{texcoord(0), {-1, 0, 0, 2}}});
  CHECK(b.in->killed());
  const Exec c = exec(ps, {}, {{texcoord(0), {1, 1, 1, -1}}});
  CHECK(c.in->killed());   // SM2+: all four components
}

TEST_CASE("loop with aL-relative constants (defs win), rep from uniform integers, nesting") {
  conv::UniformBlock u{};
  set_c(u, 1, {1, 1, 1, 1});
  set_c(u, 2, {1, 1, 1, 1});
  set_c(u, 4, {10, 10, 10, 10});
  set_c(u, 6, {100, 100, 100, 100});
  u.i[1][0] = 4;
  const std::string vs = R"(vs_2_0
dcl_position v0
defi i0, 3, 2, 2, 0
def c4, 1000, 1000, 1000, 1000
loop aL, i0
  add r0, r0, c0[aL]
endloop
rep i1
  add r1, r1, c1
  loop aL, i0
    add r2, r2, c1
  endloop
endrep
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oPos, v0
)";
  const Exec e = exec(vs, u);
  check_vec(e.out(texcoord(0)), {1101, 1101, 1101, 1101});
  check_vec(e.out(texcoord(1)), {4, 4, 4, 4});
  check_vec(e.out(texcoord(2)), {12, 12, 12, 12});
  u.i[1][0] = -2;   // a negative count runs no iteration
  const Exec z = exec(vs, u);
  check_vec(z.out(texcoord(1)), {0, 0, 0, 0});
}

TEST_CASE("setp, per-component predication, breakp, break_comp") {
  const Exec e = exec(R"(vs_2_x
dcl_position v0
defi i0, 5, 0, 0, 0
def c0, 1, 2, 3, 4
def c1, 2, 2, 2, 2
def c2, 10, 20, 30, 40
setp_gt p0, c0, c1
mov r0, c0
(p0) mov r0, c2
mov r1, c0
(!p0.x) add r1, r1, c2
mov r2, c0
(p0.zyxw) mov r2.xy, c2
rep i0
  add r3, r3, c0.x
  breakp p0.z
endrep
rep i0
  add r4, r4, c0.x
  break_ge r4.x, c0.z
endrep
mov oT0, r0
mov oT1, r1
mov oT2, r2
mov oT3, r3
mov oT4, r4
mov oPos, v0
)");
  check_vec(e.out(texcoord(0)), {1, 2, 30, 40});
  check_vec(e.out(texcoord(1)), {11, 22, 33, 44});
  check_vec(e.out(texcoord(2)), {10, 2, 3, 4});
  check_vec(e.out(texcoord(3)), {1, 1, 1, 1});
  check_vec(e.out(texcoord(4)), {3, 3, 3, 3});
}

TEST_CASE("nested calls, callnz on b# and p0, if b# from the uniform bits, defb wins, ifc") {
  conv::UniformBlock u{};
  u.b[0] = 1u << 3;   // b3 true, b2 and b5 false
  const Exec e = exec(R"(vs_2_x
dcl_position v0
def c0, 1, 0, 0, 0
def c1, 1, 2, 3, 4
defb b5, true
setp_eq p0, c1, c0.x
call l0
callnz l1, b3
callnz l1, b2
callnz l2, p0.x
callnz l2, !p0.x
if b3
  add r1, r1, c0
else
  add r1, r1, -c0
endif
if_lt c1.x, c1.y
  add r1, r1, c1.w
endif
if b5
  add r1.w, r1.w, c0.x
endif
mov oT0, r0
mov oT1, r1
mov oPos, v0
ret
label l0
  add r0.y, r0.y, c0.x
  call l1
  ret
label l1
  add r0.x, r0.x, c0.x
  ret
label l2
  add r0.z, r0.z, c0.x
  ret
)",
                      u);
  check_vec(e.out(texcoord(0)), {2, 1, 1, 0});
  check_vec(e.out(texcoord(1)), {5, 4, 4, 5});
}

TEST_CASE("interface: locations by usage, oD clamped, oFog, oPts default, reflection") {
  const Exec e = exec(R"(vs_2_0
dcl_position v0
dcl_texcoord2 v3
def c0, 2, -1, 0.5, 1
mov oPos, v0
mov oD1, c0
mov oT3, v3
mov oFog, c0.z
)",
                      {}, {{0, {1, 2, 3, 1}}, {3, {5, 6, 7, 8}}});
  check_vec(e.out(conv::kLocationColor + 1), {1, 0, 0.5f, 1});
  check_vec(e.out(texcoord(3)), {5, 6, 7, 8});
  CHECK(e.out(conv::kLocationFog)[0] == 0.5f);
  CHECK(e.in->point_size() == 1.0f);
  check_vec(e.in->position(), {1, 2, 3, 1});
  const auto& r = e.t.reflection;
  REQUIRE(r.inputs.size() == 2);
  CHECK(r.inputs[1].reg == 3);
  CHECK(r.inputs[1].usage == conv::kUsageTexcoord);
  CHECK(r.inputs[1].usage_index == 2);
  CHECK(r.inputs[1].location == 3);
  CHECK_FALSE(r.uses_uniforms);
  CHECK_FALSE(r.writes_point_size);

  const Translation ps = translate(parse_text(R"(ps_3_0
dcl_texcoord3 v0
dcl_color1 v1
dcl_fog v2.x
dcl vPos.xy
dcl vFace
dcl_cube s2
texld r0, v0, s2
add r0, r0, v1
add r0, r0, v2.x
add r0, r0, vPos.x
cmp r0, vFace, r0, -r0
mov oC2, r0
mov oDepth, r0.x
)"));
  require_valid(ps, "ps_interface");
  const auto& pr = ps.reflection;
  REQUIRE(pr.inputs.size() == 3);
  CHECK(pr.inputs[0].location == 3);
  CHECK(pr.inputs[1].location == 17);
  CHECK(pr.inputs[2].location == 18);
  CHECK(pr.samplers_used == (1u << 2));
  CHECK(pr.sampler_types[2] == static_cast<uint8_t>(SamplerType::Cube));
  CHECK(pr.color_outputs == (1u << 2));
  CHECK(pr.writes_depth);
  CHECK(pr.uses_position);
  CHECK(pr.uses_face);
  CHECK(pr.uniform_binding == 1);
  const auto glsl = novem::test::cross_to_glsl(ps.spirv);
  CHECK(glsl.text.find("binding = 18") != std::string::npos);   // ps s2 -> 16 + 2
  CHECK(glsl.text.find("gl_FragCoord") != std::string::npos);
  CHECK(glsl.text.find("gl_FrontFacing") != std::string::npos);
  CHECK(glsl.text.find("gl_FragDepth") != std::string::npos);
}

TEST_CASE("vPos is the pixel centre minus 0.5, vFace is +-1 (checked in the SPIR-V interface)") {
  // The CPU interpreter cannot feed builtins; check the arithmetic through GLSL text instead.
  const Translation t = translate(parse_text(R"(ps_3_0
dcl vPos.xy
dcl vFace
mov r0, vPos
mov r0.z, vFace
mov oC0, r0
)"));
  require_valid(t, "vpos_vface");
  const auto glsl = novem::test::cross_to_glsl(t.spirv);
  CHECK(glsl.text.find("gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0)") != std::string::npos);
  CHECK(glsl.text.find("gl_FrontFacing ? 1.0 : (-1.0)") != std::string::npos);
}

TEST_CASE("vertex texture fetch uses bindings 32+N and explicit LOD") {
  const Translation t = translate(parse_text(R"(vs_3_0
dcl_position v0
dcl_position o0
dcl_2d s1
texldl r0, v0, s1
mov o0, r0
)"));
  require_valid(t, "vtf");
  const auto glsl = novem::test::cross_to_glsl(t.spirv);
  CHECK(glsl.text.find("binding = 33") != std::string::npos);
  CHECK(glsl.text.find("textureLod") != std::string::npos);
  CHECK(t.reflection.outputs.size() == 1);
  CHECK(t.reflection.outputs[0].location == ShaderReflection::kBuiltin);
}

TEST_CASE("unsupported input is refused with an error, never invalid SPIR-V") {
  SECTION("an output usage outside the convention") {
    const Translation t = translate(parse_text("vs_3_0\ndcl_position o0\ndcl_tangent1 o1\nmov o1, c0\nmov o0, c0\n"));
    CHECK(t.spirv.empty());
    CHECK(t.error.find("interface location") != std::string::npos);
  }
  SECTION("two outputs with one usage") {
    const Translation t =
        translate(parse_text("vs_3_0\ndcl_texcoord1 o1\ndcl_texcoord1 o2\nmov o1, c0\nmov o2, c0\n"));
    CHECK(t.spirv.empty());
    CHECK_FALSE(t.error.empty());
  }
  SECTION("a ps_3_0 input read without dcl") {
    const Translation t = translate(parse_text("ps_3_0\nmov oC0, v3\n"));
    CHECK(t.spirv.empty());
    CHECK_FALSE(t.error.empty());
  }
  SECTION("a hand-made program with an instruction of another model") {
    Program p;
    p.version = Version{ShaderType::Vertex, 2, 0};
    Instruction in;
    in.opcode = Opcode::TexBem;
    in.has_dst = true;
    in.src_count = 1;
    p.instructions.push_back(in);
    const Translation t = translate(p);
    CHECK(t.spirv.empty());
    CHECK_FALSE(t.error.empty());
  }
}

TEST_CASE("ps_1_x bump-environment mapping: texbem, texbeml and bem translate") {
  SECTION("texbem and texbeml read the matrix and luminance of the destination's stage") {
    for (const char* op : {"texbem", "texbeml"}) {
      const Translation t = translate(parse_text(std::string("ps_1_1\ntex t0\n") + op + " t1, t0\nmov r0, t1\n"));
      require_valid(t, op);
      CHECK(t.reflection.uses_uniforms);
      CHECK(t.reflection.samplers_used == 0x3u);
      CHECK(t.reflection.sampler_types[1] == static_cast<uint8_t>(SamplerType::Tex2D));
      bool t1_input = false;
      for (const auto& in : t.reflection.inputs) t1_input = t1_input || in.location == texcoord(1);
      CHECK(t1_input);
      const auto glsl = novem::test::cross_to_glsl(t.spirv);
      INFO(glsl.text);
      CHECK(glsl.text.find("bumpenv_mat[1]") != std::string::npos);
      CHECK((glsl.text.find("bumpenv_lum[1]") != std::string::npos) == (std::string(op) == "texbeml"));
    }
  }
  SECTION("bump-environment instructions outside ps_1_x are refused") {
    Program p;
    p.version = Version{ShaderType::Vertex, 2, 0};
    Instruction in;
    in.opcode = Opcode::Bem;
    in.has_dst = true;
    in.dst.type = RegType::Temp;
    in.dst.write_mask = 0x3;
    in.src_count = 2;
    p.instructions.push_back(in);
    const Translation t = translate(p);
    CHECK(t.spirv.empty());
    CHECK(t.error.find("outside ps_1_x") != std::string::npos);
  }
  SECTION("bem: dst.rg = src0.rg + (M00 r + M10 g, M01 r + M11 g) of the destination register's stage") {
    conv::UniformBlock u{};
    // Stage 2 (bem r2): M00 = 0.5, M01 = -0.25, M10 = 2, M11 = 0.75; other stages garbage.
    const float mat[4] = {0.5f, -0.25f, 2.0f, 0.75f};
    std::memcpy(u.bumpenv_mat[2], mat, sizeof mat);
    for (uint32_t n : {0u, 1u, 3u}) u.bumpenv_mat[n][0] = u.bumpenv_mat[n][3] = 9.0f;
    const Exec e = exec(R"(ps_1_4
def c0, 0.1, 0.2, 0.7, 0.9
def c1, 0.4, -0.6, 0.3, 0.5
mov r2, c0
bem r2.xy, c0, c1
mov r0, r2
)", u);
    // r = 0.1 + 0.5*0.4 + 2*(-0.6) = -0.9; g = 0.2 + (-0.25)*0.4 + 0.75*(-0.6) = -0.35; zw kept.
    check_vec(e.out(0), {-0.9f, -0.35f, 0.7f, 0.9f});
  }
}

TEST_CASE("shader_hash is stable and tells shaders apart") {
  const uint32_t a[] = {0xFFFE0200u, 0x0000FFFFu};
  const uint32_t b[] = {0xFFFF0200u, 0x0000FFFFu};
  CHECK(shader_hash(a, 2) == shader_hash(a, 2));
  CHECK(shader_hash(a, 2) != shader_hash(b, 2));
  CHECK(shader_hash(a, 1) != shader_hash(a, 2));
}

TEST_CASE("conventions") {
  CHECK(conv::interface_location(conv::kUsageTexcoord, 7) == 7);
  CHECK(conv::interface_location(conv::kUsageColor, 1) == 17);
  CHECK(conv::interface_location(conv::kUsageFog, 0) == 18);
  CHECK(conv::interface_location(conv::kUsageNormal, 1) == 20);
  CHECK(conv::interface_location(conv::kUsageSample, 0) == 28);
  CHECK(conv::interface_location(conv::kUsagePosition, 0) == -1);
  CHECK(conv::interface_location(conv::kUsagePosition, 1) == 27);
  CHECK(conv::interface_location(conv::kUsageTangent, 1) == -1);
  CHECK(sizeof(conv::UniformBlock) == 4768);
  CHECK(offsetof(conv::UniformBlock, point) == 4752);
  CHECK(offsetof(conv::UniformBlock, clip_planes) == 4656);
  CHECK(offsetof(conv::UniformBlock, fog_color) == 4624);
  CHECK(offsetof(conv::UniformBlock, fog) == 4640);
  CHECK(offsetof(conv::UniformBlock, bumpenv_mat) == 4368);
  CHECK(offsetof(conv::UniformBlock, bumpenv_lum) == 4496);
}

TEST_CASE("pixel epilogue: fog after ps_1_x/ps_2_x, the alpha test after any pixel shader") {
  const std::string ps2 = "ps_2_0\ndcl v0\nmov oC0, v0\n";
  const std::string ps14 = "ps_1_4\nmov r0, v0\n";
  const std::string ps3 = "ps_3_0\ndcl_color v0\nmov oC0, v0\n";
  conv::UniformBlock u{};
  const Vec4 fog_color{0.0f, 0.5f, 1.0f, 0.0f};
  std::memcpy(u.fog_color, fog_color.data(), sizeof u.fog_color);
  u.fog[3] = 128.0f;   // ALPHAREF
  const Vec4 color{1.0f, 0.25f, 0.0f, 0.5f};   // alpha 0.5 is 128 as 8 bits
  auto run = [&](const std::string& text, const PixelEpilogue& e, float fog) {
    Translation t = translate(parse_text(text), e);
    require_valid(t, "epilogue");
    novem::test::SpirvInterpreter in(t.spirv);
    REQUIRE(in.ok());
    if (t.reflection.uses_uniforms) in.set_uniform(uniform_set(t), t.reflection.uniform_binding, &u, sizeof u);
    in.set_input(conv::kLocationColor, color);
    in.set_input(conv::kLocationFog, {fog, 0, 0, 0});
    const bool ran = in.run();
    INFO(in.error());
    REQUIRE(ran);
    return std::pair<Vec4, bool>(in.output(0), in.killed());
  };
  PixelEpilogue fog;
  fog.fog = 1;
  const float f = 0.25f;
  const Vec4 fogged{f * color[0] + (1 - f) * fog_color[0], f * color[1] + (1 - f) * fog_color[1],
                    f * color[2] + (1 - f) * fog_color[2], color[3]};
  check_vec(run(ps2, fog, f).first, fogged);
  check_vec(run(ps14, fog, f).first, fogged);
  check_vec(run(ps3, fog, f).first, color);   // ps_3_0 does its own fog
  PixelEpilogue test;
  test.alpha_func = 5;   // D3DCMP_GREATER
  CHECK(run(ps2, test, 1).second);        // 128 > 128 fails
  CHECK(run(ps3, test, 1).second);
  test.alpha_func = 7;   // D3DCMP_GREATEREQUAL
  CHECK_FALSE(run(ps3, test, 1).second);
  CHECK_FALSE(run(ps14, test, 1).second);
  // Table fog and an unwritten FOG varying still validate.
  PixelEpilogue table;
  table.fog = 3, table.fog_w = 1, table.alpha_func = 2;   // D3DCMP_LESS
  require_valid(translate(parse_text(ps2), table), "epilogue_table");
  PixelEpilogue no_input;
  no_input.fog = 1, no_input.fog_input = 0;
  require_valid(translate(parse_text(ps2), no_input), "epilogue_no_input");
}

TEST_CASE("vertex epilogue: clip distances of the enabled clip-space planes, the pixel side discards") {
  const std::string vs = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
  conv::UniformBlock u{};
  const float planes[6][4] = {{1, 0, 0, 0}, {0, 1, 0, 0.5f}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, -0.25f}};
  std::memcpy(u.clip_planes, planes, sizeof planes);
  VertexEpilogue e;
  e.clip_planes = 0x23;   // planes 0, 1 and 5
  Translation t = translate(parse_text(vs), {}, e);
  require_valid(t, "vertex_epilogue");
  novem::test::SpirvInterpreter in(t.spirv);
  REQUIRE(in.ok());
  in.set_uniform(uniform_set(t), t.reflection.uniform_binding, &u, sizeof u);
  in.set_input(0, {-0.5f, 0.25f, 0.75f, 1});
  REQUIRE(in.run());
  check_vec(in.output(conv::kLocationClipDistance0), {-0.5f, 0.75f, 1, 1});
  check_vec(in.output(conv::kLocationClipDistance1), {1, 0.5f, 1, 1});

  const std::string ps = "ps_2_0\ndcl v0\nmov oC0, v0\n";
  PixelEpilogue pe;
  pe.clip_planes = 0x21;
  Translation pt = translate(parse_text(ps), pe);
  require_valid(pt, "pixel_epilogue_clip");
  for (float d : {-0.25f, 0.25f}) {
    novem::test::SpirvInterpreter pin(pt.spirv);
    REQUIRE(pin.ok());
    pin.set_input(conv::kLocationColor, {1, 1, 1, 1});
    pin.set_input(conv::kLocationClipDistance0, {0.5f, 1, 1, 1});
    pin.set_input(conv::kLocationClipDistance1, {1, d, 1, 1});
    REQUIRE(pin.run());
    CHECK(pin.killed() == (d < 0));
  }
}

TEST_CASE("vertex prologue: inputs in w_one_inputs read w as 1 (UDEC3, DEC3N)") {
  const std::string vs = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\nmov oT1, v0\n";
  VertexEpilogue e;
  e.w_one_inputs = 0x2;   // v1
  Translation t = translate(parse_text(vs), {}, e);
  require_valid(t, "vertex_prologue_w_one");
  novem::test::SpirvInterpreter in(t.spirv);
  REQUIRE(in.ok());
  in.set_input(0, {0.5f, 0.25f, 0.75f, 3});
  in.set_input(1, {100, 200, 300, 2});
  REQUIRE(in.run());
  check_vec(in.output(conv::kLocationTexcoord + 0), {100, 200, 300, 1});
  check_vec(in.output(conv::kLocationTexcoord + 1), {0.5f, 0.25f, 0.75f, 3}); // v0 keeps its w
}

TEST_CASE("depth samplers: a Dref sample with the clamped z (divided by w with texldp) in every channel") {
  PixelEpilogue e;
  e.depth_samplers = 0x5;   // s0 and s2
  const std::string texld = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
  const std::string texldp = "ps_2_0\ndcl t0\ndcl_2d s2\ntexldp r0, t0, s2\nmov oC0, r0.yzxw\n";
  const std::string ps3 = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ndcl_cube s2\ntexldl r0, v0, s0\n"
                          "texld r1, v0, s2\nadd oC0, r0, r1\n";
  const std::string ps14 = "ps_1_4\ntexld r0, t0\nmov r0, r0\n";
  for (const auto& [text, name] : {std::pair{texld, "depth_texld"}, std::pair{texldp, "depth_texldp"},
                                   std::pair{ps3, "depth_ps3"}, std::pair{ps14, "depth_ps14"}}) {
    const Translation t = translate(parse_text(text), e);
    require_valid(t, name);
    const auto glsl = novem::test::cross_to_glsl(t.spirv);
    INFO(glsl.text);
    CHECK(glsl.text.find("sampler2DShadow") != std::string::npos);
    CHECK(glsl.text.find("clamp(") != std::string::npos);
  }
  // A cube sampler is never a depth sampler, and without the bit nothing compares.
  const auto cube = novem::test::cross_to_glsl(translate(parse_text(ps3), e).spirv);
  CHECK(cube.text.find("samplerCube ") != std::string::npos);
  const auto plain = novem::test::cross_to_glsl(translate(parse_text(texld)).spirv);
  CHECK(plain.text.find("sampler2DShadow") == std::string::npos);
}

// ---- what plugins copy of the uniform block (backends/include/novem/spirv_uniforms.hpp) ----------

namespace {

novem::UniformFootprint footprint_of(const Translation& t) {
  return novem::uniform_footprint(t.spirv.data(), t.spirv.size(), uniform_set(t), t.reflection.uniform_binding);
}

}  // namespace

TEST_CASE("a translated shader's uniform footprint holds the registers it reads and no others") {
  using R = novem::ByteRange;
  // c0 and c40 from the block, c3 defined in the shader: two ranges, nothing of c3.
  auto far = footprint_of(translate(parse_text("vs_2_0\ndef c3, 1, 2, 3, 4\ndcl_position v0\n"
                                               "add oPos, v0, c0\nadd oD0, c40, c3\n")));
  CHECK_FALSE(far.whole);
  CHECK(far.ranges == std::vector<R>{{0, 16}, {640, 656}});
  // Neighbours closer than 64 bytes are one range.
  auto near = footprint_of(translate(parse_text("vs_2_0\ndcl_position v0\nadd oPos, v0, c0\nmov oD0, c4\n")));
  CHECK(near.ranges == std::vector<R>{{0, 80}});
  // Relative addressing reads anywhere in c: the whole float file, still not i, b or the tail.
  auto relative = footprint_of(translate(parse_text("vs_2_0\ndcl_position v0\nmova a0.x, v0.x\n"
                                                    "mov oPos, c2[a0.x]\n")));
  CHECK(relative.ranges == std::vector<R>{{0, conv::kIntConstantOffset}});
  // Integer and boolean registers; a loop counter's i1.
  const Translation flow_t = translate(parse_text("vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\n"
                                                "if b3\nloop aL, i1\nadd r0, r0, v0\nendloop\nendif\nmov o0, r0\n"));
  require_valid(flow_t, "footprint_flow");
  auto flow = footprint_of(flow_t);
  CHECK_FALSE(flow.whole);
  CHECK(flow.ranges == std::vector<R>{{conv::kIntConstantOffset + 16, conv::kIntConstantOffset + 32},
                                      {conv::kBoolConstantOffset, conv::kBoolConstantOffset + 16}});
  // The pixel epilogue's fog reads fog_color and fog; the vertex epilogue's clip planes theirs.
  PixelEpilogue fog;
  fog.fog = 1;
  auto fogged = footprint_of(translate(parse_text("ps_2_0\ndcl v0\nmov oC0, v0\n"), fog));
  CHECK(fogged.ranges == std::vector<R>{{conv::kFogColorOffset, conv::kFogParamsOffset + 16}});
  VertexEpilogue clip;
  clip.clip_planes = 0x02;   // plane 1
  auto clipped = footprint_of(translate(parse_text("vs_2_0\ndcl_position v0\nmov oPos, v0\n"), {}, clip));
  CHECK(clipped.ranges == std::vector<R>{{conv::kClipPlaneOffset + 16, conv::kClipPlaneOffset + 32}});
  // A shader that reads no constant reads nothing; one that reads more covers one that reads less.
  auto none = footprint_of(translate(parse_text("vs_2_0\ndcl_position v0\nmov oPos, v0\n")));
  CHECK_FALSE(none.whole);
  CHECK(none.ranges.empty());
  CHECK(relative.covers(near));
  CHECK(relative.covers(none));
  CHECK_FALSE(near.covers(far));
  CHECK_FALSE(none.covers(near));
}

TEST_CASE("every constant register a corpus shader reads lies in its uniform footprint") {
  size_t checked = 0;
  for (const auto& f : corpus_files()) {
    INFO(f.filename().string());
    const Program p = parse_text(read_text(f));
    const novem::UniformFootprint reads = footprint_of(translate(p));
    REQUIRE_FALSE(reads.whole);   // the translator only ever indexes members and elements
    std::set<std::pair<int, uint32_t>> defined;
    for (const ConstantDef& d : p.definitions) defined.insert({int(d.kind), d.index});
    auto require_read = [&](uint32_t begin, uint32_t end) {
      INFO("bytes [" << begin << ", " << end << ")");
      novem::UniformFootprint want;
      want.whole = false;
      want.ranges = {{begin, end}};
      CHECK(reads.covers(want));
      ++checked;
    };
    for (const Instruction& in : p.instructions) {
      for (uint32_t k = 0; k < in.src_count; ++k) {
        // sincos of vs_2_0/ps_2_0 names two constants D3D9 fixes; the translator does not read them.
        if (in.opcode == Opcode::SinCos && k > 0) continue;
        const SrcParam& s = in.src[k];
        if (s.type == RegType::Const && s.relative) require_read(0, conv::kIntConstantOffset);
        if (s.type == RegType::Const && !s.relative && !defined.count({int(ConstantDef::Kind::Float), s.index}))
          require_read(s.index * 16, s.index * 16 + 16);
        if (s.type == RegType::ConstInt && !defined.count({int(ConstantDef::Kind::Int), s.index}))
          require_read(conv::kIntConstantOffset + s.index * 16, conv::kIntConstantOffset + s.index * 16 + 16);
        if (s.type == RegType::ConstBool && !defined.count({int(ConstantDef::Kind::Bool), s.index}))
          require_read(conv::kBoolConstantOffset, conv::kBoolConstantOffset + 16);
      }
    }
  }
  CHECK(checked >= 40);
}

TEST_CASE("bytes outside a shader's uniform footprint change nothing it computes") {
  // Run each shader twice on the interpreter: with a block of ordinary values, then with every
  // byte the footprint leaves out turned to 0xFF (NaN, -1). The outputs must be bit-equal. The
  // corpus shaders that the interpreter runs (it does not sample textures), each bare and with
  // the epilogues that read the block's tail (fog and the alpha test, user clip planes).
  conv::UniformBlock block{};
  for (uint32_t n = 0; n < conv::kFloatConstantCount; ++n)
    for (uint32_t k = 0; k < 4; ++k) block.c[n][k] = 0.125f * float(n % 9) - 0.25f * float(k);
  for (auto& i : block.i) i[0] = 2, i[1] = 0, i[2] = 1, i[3] = 0;   // two loop iterations
  block.b[0] = 0x5555;
  for (auto& m : block.bumpenv_mat) m[0] = 0.5f, m[3] = 0.5f;
  for (uint32_t k = 0; k < 4; ++k) block.fog_color[k] = 0.25f * float(k);
  block.fog[0] = 0.0f, block.fog[1] = 1.0f, block.fog[2] = 0.5f, block.fog[3] = 64.0f;
  for (auto& plane : block.clip_planes) plane[0] = 1.0f, plane[3] = 0.5f;
  PixelEpilogue fog;
  fog.fog = 2, fog.alpha_func = 5;   // table fog LINEAR, D3DCMP_GREATER
  VertexEpilogue clip;
  clip.clip_planes = 0x3F;
  size_t compared = 0;
  for (const auto& f : corpus_files()) {
    for (bool epilogues : {false, true}) {
      INFO(f.filename().string() << (epilogues ? " with epilogues" : ""));
      const Translation t = epilogues ? translate(parse_text(read_text(f)), fog, clip) : translate(parse_text(read_text(f)));
      REQUIRE(t.ok());
      if (!t.reflection.uses_uniforms) continue;
      const novem::UniformFootprint reads = footprint_of(t);
      REQUIRE_FALSE(reads.whole);
      conv::UniformBlock poisoned;
      std::memset(&poisoned, 0xFF, sizeof poisoned);
      for (const novem::ByteRange& r : reads.ranges) {
        REQUIRE(r.end <= sizeof block);
        std::memcpy(reinterpret_cast<uint8_t*>(&poisoned) + r.begin, reinterpret_cast<const uint8_t*>(&block) + r.begin,
                    r.end - r.begin);
      }
      auto run = [&](const conv::UniformBlock& u) {
        auto in = std::make_unique<novem::test::SpirvInterpreter>(t.spirv);
        if (!in->ok()) return std::unique_ptr<novem::test::SpirvInterpreter>();
        in->set_uniform(uniform_set(t), t.reflection.uniform_binding, &u, sizeof u);
        for (uint32_t loc = 0; loc < 32; ++loc) in->set_input(loc, {0.25f, 0.5f, 0.75f, 1.0f});
        if (!in->run()) return std::unique_ptr<novem::test::SpirvInterpreter>();
        return in;
      };
      auto a = run(block), b = run(poisoned);
      if (!a) continue;   // texture sampling: the interpreter does not run it
      REQUIRE(b);
      CHECK(a->killed() == b->killed());
      for (uint32_t loc = 0; loc < 32; ++loc) {
        INFO("output location " << loc);
        const Vec4 x = a->output(loc), y = b->output(loc);
        CHECK(std::memcmp(x.data(), y.data(), sizeof x) == 0);
      }
      const Vec4 x = a->position(), y = b->position();
      CHECK(std::memcmp(x.data(), y.data(), sizeof x) == 0);
      ++compared;
    }
  }
  CHECK(compared >= 8);
}

TEST_CASE("software vertex processing: c, i and b come from the storage buffer, the whole file") {
  const std::string vs = R"(vs_3_0
dcl_position v0
dcl_texcoord0 o0
dcl_texcoord1 o1
dcl_texcoord2 o2
dcl_texcoord3 o3
dcl_texcoord4 o4
dcl_texcoord5 o5
dcl_position o6
def c10, 7, 7, 7, 7
mova a0.x, v0.x
mov o0, c300
add o1, c2100, c8191
mov o2, c[a0.x + 250]
mov r0, c0
rep i20
  add r0, r0, c1
endrep
if b100
  add r0, r0, c2
endif
mov o3, r0
mov o4, c[a0.x + 8190]
mov o5, c[a0.x]
mov o6, v0
)";
  AssembleResult a = assemble(vs);
  INFO(a.error);
  REQUIRE(a.ok);
  // A hardware device's files do not have c300.
  CHECK_FALSE(parse_shader(a.tokens.data(), a.tokens.size()).ok);
  ParseResult p = parse_shader(a.tokens.data(), a.tokens.size(), ParseOptions{.software_vertex = true});
  INFO(p.error);
  REQUIRE(p.ok);
  const Translation t = translate(p.program);
  require_valid(t, "software_vertex");
  CHECK(t.reflection.uses_software_constants);
  CHECK_FALSE(t.reflection.uses_uniforms);   // c0..c255 too: one file

  auto sw = std::make_unique<conv::SoftwareConstants>();
  auto set = [&](uint32_t n, Vec4 v) { std::memcpy(sw->c[n], v.data(), sizeof(float) * 4); };
  set(0, {0, 0, 0, 0});
  set(1, {1, 1, 1, 1});
  set(2, {1000, 1000, 1000, 1000});
  set(10, {-1, -1, -1, -1});   // the def wins, also through c[a0.x]
  set(260, {5, 6, 7, 8});
  set(300, {1, 2, 3, 4});
  set(2100, {10, 20, 30, 40});
  set(8191, {100, 200, 300, 400});
  sw->i[20][0] = 3;
  sw->b[100 / 32] = 1u << (100 % 32);
  novem::test::SpirvInterpreter in(t.spirv);
  INFO(in.error());
  REQUIRE(in.ok());
  in.set_uniform(conv::kVertexUniformSet, conv::kSoftwareConstantsBinding, sw.get(), sizeof *sw);
  in.set_input(0, {10, 0, 0, 1});   // a0.x = 10
  REQUIRE(in.run());
  INFO(in.error());
  check_vec(in.output(texcoord(0)), {1, 2, 3, 4});
  check_vec(in.output(texcoord(1)), {110, 220, 330, 440});
  check_vec(in.output(texcoord(2)), {5, 6, 7, 8});            // c260, past c255
  check_vec(in.output(texcoord(3)), {1003, 1003, 1003, 1003}); // rep i20 (3), if b100
  check_vec(in.output(texcoord(4)), {0, 0, 0, 0});            // c8200: outside the file
  check_vec(in.output(texcoord(5)), {7, 7, 7, 7});            // c10 is defined

  // The storage buffer's footprint: the registers read, c whole for the relative reads.
  using R = novem::ByteRange;
  const auto reads = novem::uniform_footprint(t.spirv.data(), t.spirv.size(), conv::kVertexUniformSet,
                                              conv::kSoftwareConstantsBinding);
  CHECK_FALSE(reads.whole);
  CHECK(reads.ranges == std::vector<R>{{0, conv::kSoftwareIntOffset},
                                       {conv::kSoftwareIntOffset + 20 * 16, conv::kSoftwareIntOffset + 21 * 16},
                                       {conv::kSoftwareBoolOffset, conv::kSoftwareBoolOffset + 16}});
  // What the plugins copy of the vertex stage's block: the storage part where the contract puts it.
  const auto stage_reads = novem::stage_uniform_footprint(t.spirv.data(), t.spirv.size(), NV_STAGE_VERTEX);
  CHECK_FALSE(stage_reads.whole);
  REQUIRE(stage_reads.ranges.size() == reads.ranges.size());
  for (size_t n = 0; n < reads.ranges.size(); ++n)
    CHECK(stage_reads.ranges[n] == R{reads.ranges[n].begin + conv::kSoftwareConstantsOffset,
                                     reads.ranges[n].end + conv::kSoftwareConstantsOffset});
  static_assert(conv::kSoftwareConstantsOffset == NV_VERTEX_STORAGE_OFFSET && conv::kSoftwareConstantsSize == NV_VERTEX_STORAGE_SIZE);
}
