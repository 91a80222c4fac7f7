// D3D9 shader bytecode: table, parser, disassembler, assembler, and the novem-shader tool.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "dialect.hpp"
#include "disassembler.hpp"
#include "parser.hpp"

using namespace novem::d3d9;
namespace fs = std::filesystem;

namespace {

struct CorpusFile {
  std::string name;
  std::string text;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<CorpusFile> corpus() {
  std::vector<CorpusFile> files;
  for (const auto& e : fs::directory_iterator(NOVEM_D3D9_CORPUS_DIR))
    if (e.path().extension() == ".asm") files.push_back({e.path().stem().string(), read_text(e.path())});
  std::sort(files.begin(), files.end(), [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return files;
}

std::vector<uint32_t> must_assemble(const std::string& text) {
  AssembleResult r = assemble(text);
  INFO(r.error);
  REQUIRE(r.ok);
  return r.tokens;
}

ParseResult parse(const std::vector<uint32_t>& words) {
  // An exact-size copy, so that a read past the end is caught by AddressSanitizer.
  std::vector<uint32_t> copy(words);
  return parse_shader(copy.empty() ? nullptr : copy.data(), copy.size());
}

std::string parse_error(const std::vector<uint32_t>& words) {
  ParseResult r = parse(words);
  REQUIRE_FALSE(r.ok);
  return r.error;
}

std::string assemble_error(const std::string& text) {
  AssembleResult r = assemble(text);
  REQUIRE_FALSE(r.ok);
  return r.error;
}

// Why D3DAssemble would not have written this program ("" when it could have).
std::string first_dialect_error(const Program& p) {
  for (const StreamItem& item : p.order)
    if (std::string e = dialect_error(p, item); !e.empty()) return e;
  return {};
}

// Bytecode the parser accepts re-assembles from its disassembly to the same words, unless it is
// outside D3DAssemble's dialect: then the assembler refuses it for that reason.
void check_reassembles(const Program& p) {
  std::string text = disassemble(p);
  AssembleResult a = assemble(text);
  std::string outside = first_dialect_error(p);
  INFO(text << a.error);
  if (!outside.empty()) {
    CHECK_FALSE(a.ok);
    CHECK(a.error.ends_with(": " + outside));
    return;
  }
  REQUIRE(a.ok);
  CHECK(a.tokens == encode_program(p));
}

}  // namespace

TEST_CASE("corpus: one shader per version, every opcode row of the table") {
  auto files = corpus();
  REQUIRE(files.size() >= 11);
  std::set<std::string> versions;
  std::set<const OpInfo*> rows;
  bool dcl = false, def = false, defi = false, defb = false;
  for (const auto& f : files) {
    INFO(f.name);
    auto words = must_assemble(f.text);
    ParseResult r = parse(words);
    INFO(r.error);
    REQUIRE(r.ok);
    versions.insert(r.program.version.name());
    for (const Instruction& i : r.program.instructions) rows.insert(i.info);
    dcl |= !r.program.declarations.empty();
    for (const ConstantDef& d : r.program.definitions) {
      def |= d.kind == ConstantDef::Kind::Float;
      defi |= d.kind == ConstantDef::Kind::Int;
      defb |= d.kind == ConstantDef::Kind::Bool;
    }
  }
  CHECK(versions == std::set<std::string>{"vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_2",
                                          "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_x", "ps_3_0"});
  CHECK((dcl && def && defi && defb));
  for (const OpInfo& row : opcode_table()) {
    if (row.vs_min == 0 && row.ps_min == 0) continue;   // texm3x3diff: reserved in every version
    if (row.form == OpForm::Dcl || row.form == OpForm::Def || row.form == OpForm::DefI || row.form == OpForm::DefB)
      continue;
    INFO(row.name << " (opcode " << static_cast<int>(row.opcode) << ", " << int(row.src_count) << " sources)");
    CHECK(rows.count(&row) == 1);
  }
}

TEST_CASE("corpus: the build-time novem-shader output equals the library's assembly") {
  for (const auto& f : corpus()) {
    INFO(f.name);
    auto words = must_assemble(f.text);
    std::string bytes = read_text(fs::path(NOVEM_D3D9_CORPUS_BIN_DIR) / (f.name + ".bin"));
    REQUIRE(bytes.size() == words.size() * 4);
    for (size_t i = 0; i < words.size(); ++i) {
      uint32_t w = 0;
      for (int b = 0; b < 4; ++b) w |= uint32_t(uint8_t(bytes[4 * i + size_t(b)])) << (8 * b);
      CHECK(w == words[i]);
    }
  }
}

TEST_CASE("corpus: asm -> bin -> dis -> asm gives the same words and dis is a fixed point") {
  for (const auto& f : corpus()) {
    INFO(f.name);
    auto words = must_assemble(f.text);
    ParseResult r = parse(words);
    REQUIRE(r.ok);
    CHECK(r.program.token_count == words.size());
    CHECK(encode_program(r.program) == words);
    std::string text = disassemble(r.program);
    INFO(text);
    auto again = must_assemble(text);
    CHECK(again == words);
    ParseResult r2 = parse(again);
    REQUIRE(r2.ok);
    CHECK(disassemble(r2.program) == text);
  }
}

TEST_CASE("known-good token streams") {
  SECTION("vs_1_1 m4x4 oPos, v0, c0") {
    std::vector<uint32_t> want = {0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000, 0x0000FFFF};
    CHECK(must_assemble("vs_1_1\nm4x4 oPos, v0, c0\n") == want);
    ParseResult r = parse(want);
    REQUIRE(r.ok);
    CHECK(disassemble(r.program) == "vs_1_1\n    m4x4 oPos, v0, c0\n");
    REQUIRE(r.program.instructions.size() == 1);
    const Instruction& i = r.program.instructions[0];
    CHECK(i.opcode == Opcode::M4x4);
    CHECK(i.dst.type == RegType::RastOut);
    CHECK(i.src[0].type == RegType::Input);
    CHECK(i.src[1].type == RegType::Const);
    CHECK(i.token_offset == 1);
  }
  SECTION("ps_2_0 texture sample") {
    // Instruction length in bits 24-27; sampler = register type 10 split over bits 28-30 / 11-12.
    std::vector<uint32_t> want = {
        0xFFFF0200,
        0x0200001F, 0x80000000, 0xB0030000,              // dcl t0.xy
        0x0200001F, 0x90000000, 0xA00F0800,              // dcl_2d s0
        0x05000051, 0xA00F0000, 0x3F800000, 0x00000000, 0x3F000000, 0x3F800000,  // def c0, 1, 0, 0.5, 1
        0x03000042, 0x800F0000, 0xB0E40000, 0xA0E40800,  // texld r0, t0, s0
        0x03010042, 0x800F0001, 0xB0E40000, 0xA0E40800,  // texldp r1, t0, s0
        0x03000002, 0x801F0000, 0x80E40000, 0x81E40001,  // add_sat r0, r0, -r1  (sat = bit 20, neg = 1 << 24)
        0x02000001, 0x800F0800, 0x80E40000,              // mov oC0, r0
        0x0000FFFF};
    const char* text =
        "ps_2_0\n    dcl t0.xy\n    dcl_2d s0\n    def c0, 1, 0, 0.5, 1\n    texld r0, t0, s0\n"
        "    texldp r1, t0, s0\n    add_sat r0, r0, -r1\n    mov oC0, r0\n";
    CHECK(must_assemble(text) == want);
    ParseResult r = parse(want);
    REQUIRE(r.ok);
    CHECK(disassemble(r.program) == text);
    CHECK(r.program.declarations.size() == 2);
    CHECK(r.program.declarations[1].sampler_type == SamplerType::Tex2D);
    CHECK(r.program.instructions[1].tex == TexKind::Project);
  }
  SECTION("vs_2_0 relative constant and vs_3_0 dcl usage index") {
    // c10[a0.x]: bit 13 on the source, then an address token (a0 = type 3, swizzle .xxxx).
    CHECK(must_assemble("vs_2_0\nmov r0, c10[a0.x]\n") ==
          std::vector<uint32_t>{0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E4200A, 0xB0000000, 0x0000FFFF});
    // vs_1_1: bit 13 alone (a0.x implied), no extra token.
    CHECK(must_assemble("vs_1_1\nmov r0, c[a0.x + 10]\n") ==
          std::vector<uint32_t>{0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E4200A, 0x0000FFFF});
    // dcl_texcoord1 v2: usage 5, index 1 << 16.
    CHECK(must_assemble("vs_3_0\ndcl_texcoord1 v2\n") ==
          std::vector<uint32_t>{0xFFFE0300, 0x0200001F, 0x80010005, 0x900F0002, 0x0000FFFF});
  }
  SECTION("predication, setp and comparisons") {
    // p0 = register type 19: bits 28-30 = 3, bits 11-12 = 2.
    CHECK(must_assemble("ps_2_x\nsetp_ge p0, r2, c0\n(p0.x) mov r3, c0\nif_gt r0.x, c0.y\nendif\n") ==
          std::vector<uint32_t>{0xFFFF0201,
                                0x0303005E, 0xB00F1000, 0x80E40002, 0xA0E40000,
                                0x13000001, 0x800F0003, 0xB0001000, 0xA0E40000,
                                0x02010029, 0x80000000, 0xA0550000,
                                0x0000002B,
                                0x0000FFFF});
  }
  SECTION("ps_1_x: co-issue, source modifiers, shifts, no length field") {
    CHECK(must_assemble("ps_1_1\nmul_x2 r0.rgb, t0_bx2, 1-v0\n+mov r0.a, c0.b\n") ==
          std::vector<uint32_t>{0xFFFF0101,
                                0x00000005, 0x81070000, 0xB4E40000, 0x96E40000,
                                0x40000001, 0x80080000, 0xA0AA0000,
                                0x0000FFFF});
    CHECK(must_assemble("ps_1_4\nphase\nmov_d2 r0, r1_x2\n") ==
          std::vector<uint32_t>{0xFFFF0104, 0x0000FFFD, 0x00000001, 0x8F0F0000, 0x87E40001, 0x0000FFFF});
  }
  SECTION("comment tokens are skipped and kept aside") {
    std::vector<uint32_t> words = {0xFFFE0101, 0x0002FFFE, 0x42415443, 0x00000000,
                                   0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000, 0x0000FFFF};
    ParseResult r = parse(words);
    REQUIRE(r.ok);
    REQUIRE(r.program.comments.size() == 1);
    CHECK(r.program.comments[0].words.size() == 2);
    CHECK(r.program.instructions[0].token_offset == 4);
    // Documented: re-encoding drops comments.
    CHECK(encode_program(r.program) ==
          std::vector<uint32_t>{0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000, 0x0000FFFF});
  }
}

TEST_CASE("def values survive disassembly bit for bit") {
  std::vector<uint32_t> words = {0xFFFF0200, 0x05000051, 0xA00F0000, 0x7FC00001, 0x80000000, 0x00000001, 0x3DCCCCCD,
                                 0x05000051, 0xA00F0001, 0xFF800000, 0x7F7FFFFF, 0x3EAAAAAB, 0xC0490FDB, 0x0000FFFF};
  ParseResult r = parse(words);
  REQUIRE(r.ok);
  std::string text = disassemble(r.program);
  INFO(text);
  CHECK(must_assemble(text) == words);
}

// D3DAssemble's dialect. The token streams are what D3DAssemble writes for the same text
// (recorded against Windows by Wine's d3dcompiler tests, dlls/d3dcompiler_43/tests/asm.c), so
// each row also checks asm(dis(x)) == x for bytecode D3DAssemble produced. `dis`, where given,
// is a line the disassembly must contain.
TEST_CASE("dialect: D3DAssemble's spellings assemble to its tokens and round-trip") {
  struct Case {
    const char* text;
    std::vector<uint32_t> tokens;
    const char* dis = nullptr;
  };
  const Case cases[] = {
      // Versions spelled with dots; CRLF line ends and both comment styles.
      {"vs.1.1\r\n//some comments\r\n; another\r\nadd r0, r0, r1\n",
       {0xFFFE0101, 0x00000002, 0x800F0000, 0x80E40000, 0x80E40001, 0x0000FFFF}},
      {"vs.1.1\nrsq r0, v0.x\n", {0xFFFE0101, 0x00000007, 0x800F0000, 0x90000000, 0x0000FFFF}},
      {"ps.1.3\ntex t0\ntexdp3tex_x8 t1, t0\n",
       {0xFFFF0103, 0x00000042, 0xB00F0000, 0x00000053, 0xB30F0001, 0xB0E40000, 0x0000FFFF}},
      {"ps.1.4\nbem_d2 r1, c0, r0\n", {0xFFFF0104, 0x00000059, 0x8F0F0001, 0xA0E40000, 0x80E40000, 0x0000FFFF}},
      {"ps.2.0\ndcl_2d s2\ntexldb r0, t1, s2\n",
       {0xFFFF0200, 0x0200001F, 0x90000000, 0xA00F0802, 0x03020042, 0x800F0000, 0xB0E40001, 0xA0E40802, 0x0000FFFF}},
      {"vs.2.x\nrep i0\nbreakp p0.w\nendrep\n",
       {0xFFFE0201, 0x01000026, 0xF0E40000, 0x01000060, 0xB0FF1000, 0x00000027, 0x0000FFFF}},
      {"ps.3.0\ndcl_2d_pp s0\n", {0xFFFF0300, 0x0200001F, 0x90000000, 0xA02F0800, 0x0000FFFF}},
      // Float literals: an 'f' suffix, a trailing dot, a space after the minus.
      {"vs_1_1\ndef c0, 1.0f, 1.0f, 1.0f, 0.5f\n",
       {0xFFFE0101, 0x00000051, 0xA00F0000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F000000, 0x0000FFFF}},
      {"vs_3_0\ndef c0, 1.0f, 1.0f, 1.0f, 0.5f\n",
       {0xFFFE0300, 0x05000051, 0xA00F0000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F000000, 0x0000FFFF}},
      {"ps_1_1\ndef c2, 0, 0., 0, 0.\n",
       {0xFFFF0101, 0x00000051, 0xA00F0002, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x0000FFFF}},
      {"vs_1_1\ndef c12, 0, -1, - 0.5, 1024\n",
       {0xFFFE0101, 0x00000051, 0xA00F000C, 0x00000000, 0xBF800000, 0xBF000000, 0x44800000, 0x0000FFFF}},
      {"vs_2_0\ndefi i0, - 1, 1, 10, 0\ndefi i1, 0, 40, 30, -10\n",
       {0xFFFE0200, 0x05000030, 0xF00F0000, 0xFFFFFFFF, 0x00000001, 0x0000000A, 0x00000000,
        0x05000030, 0xF00F0001, 0x00000000, 0x00000028, 0x0000001E, 0xFFFFFFF6, 0x0000FFFF}},
      // Constant offsets inside brackets; without a0 they are a plain index (no relative bit).
      {"vs_1_1\nmov r0, c[ 2 + 10 + 12 ]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E40018, 0x0000FFFF}, "c24"},
      {"vs_1_1\nmov r0, c4[ 2 ]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E40006, 0x0000FFFF}},
      {"vs_2_0\nmov r0, c[2 + 10]\n", {0xFFFE0200, 0x02000001, 0x800F0000, 0xA0E4000C, 0x0000FFFF}, "c12"},
      // vs_1_1: bit 13 alone, a0.x implied, no address token.
      {"vs_1_1\nmov r0, c0[a0.x]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E42000, 0x0000FFFF}, "c0[a0.x]"},
      {"vs_1_1\nmov r0, c1[a0.x + 2]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E42003, 0x0000FFFF}},
      {"vs_1_1\nmov r0, c[ a0.x + 12 ]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E4200C, 0x0000FFFF}},
      {"vs_1_1\nmov r0, c[ 2 + a0.x ]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E42002, 0x0000FFFF}},
      {"vs_1_1\nmov r0, c[ 2 + a0.x + 12 ]\n", {0xFFFE0101, 0x00000001, 0x800F0000, 0xA0E4200E, 0x0000FFFF}},
      // vs_2_0+: bit 13 and an address token carrying a0's swizzle as written.
      {"vs_2_0\nmov r0, c0[a0.x]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42000, 0xB0000000, 0x0000FFFF}},
      {"vs_2_0\nmov r0, c0[a0.y]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42000, 0xB0550000, 0x0000FFFF}, "c0[a0.y]"},
      {"vs_2_0\nmov r0, c0[a0.z]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42000, 0xB0AA0000, 0x0000FFFF}},
      {"vs_2_0\nmov r0, c0[a0.w].x\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0002000, 0xB0FF0000, 0x0000FFFF}},
      {"vs_2_0\nmov r0, -c0[a0.w+5].x\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA1002005, 0xB0FF0000, 0x0000FFFF},
       "-c5[a0.w].x"},
      {"vs_2_0\nmov r0, c0[a0]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42000, 0xB0E40000, 0x0000FFFF}, "c0[a0]"},
      {"vs_2_0\nmov r0, c0[a0.xyww]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42000, 0xB0F40000, 0x0000FFFF},
       "c0[a0.xyw]"},
      {"vs_2_0\nmov r0, c10[a0.x + -2]\n", {0xFFFE0200, 0x03000001, 0x800F0000, 0xA0E42008, 0xB0000000, 0x0000FFFF},
       "c8[a0.x]"},
      {"vs_2_0\nadd r0, c0[a0.x], c1[a0.y]\n",
       {0xFFFE0200, 0x05000002, 0x800F0000, 0xA0E42000, 0xB0000000, 0xA0E42001, 0xB0550000, 0x0000FFFF}},
      // aL's address token has the identity swizzle.
      {"vs_2_0\nloop aL, i0\nmov r0, c0[aL]\nendloop\n",
       {0xFFFE0200, 0x0200001B, 0xF0E40800, 0xF0E40000, 0x03000001, 0x800F0000, 0xA0E42000, 0xF0E40800, 0x0000001D,
        0x0000FFFF},
       "c0[aL]"},
      {"ps_3_0\nloop aL, i0\nmov r0, v0[aL]\nendloop\n",
       {0xFFFF0300, 0x0200001B, 0xF0E40800, 0xF0E40000, 0x03000001, 0x800F0000, 0x90E42000, 0xF0E40800, 0x0000001D,
        0x0000FFFF}},
      {"vs_3_0\nmov o[ a0.x + 5 ], r0\n", {0xFFFE0300, 0x03000001, 0xE00F2005, 0xB0000000, 0x80E40000, 0x0000FFFF},
       "o5[a0.x]"},
      // The complement modifier with spaces; what each version allows.
      {"ps_1_3\nmov_x2_sat r0, 1 - r1\n", {0xFFFF0103, 0x00000001, 0x811F0000, 0x86E40001, 0x0000FFFF}, "1-r1"},
      {"ps_1_3\nmov_d8 r0, -r1\n", {0xFFFF0103, 0x00000001, 0x8D0F0000, 0x81E40001, 0x0000FFFF}},
      {"ps_1_3\nmov_sat r0, -r1_x2\n", {0xFFFF0103, 0x00000001, 0x801F0000, 0x88E40001, 0x0000FFFF}},
      {"ps_1_3\nmov_x4_sat r0.a, -r1_bx2.a\n", {0xFFFF0103, 0x00000001, 0x82180000, 0x85FF0001, 0x0000FFFF}},
      {"ps_1_4\ntexld r5, r2_dz\n", {0xFFFF0104, 0x00000042, 0x800F0005, 0x89E40002, 0x0000FFFF}},
      {"vs_3_0\nmov r2, r1_abs\n", {0xFFFE0300, 0x02000001, 0x800F0002, 0x8BE40001, 0x0000FFFF}},
      {"vs_3_0\nmova_sat a0.x, r1\n", {0xFFFE0300, 0x0200002E, 0xB0110000, 0x80E40001, 0x0000FFFF}},
      {"ps_3_0\nadd_pp r0, r0, r1\n", {0xFFFF0300, 0x03000002, 0x802F0000, 0x80E40000, 0x80E40001, 0x0000FFFF}},
      {"ps_3_0\ndcl_texcoord0_centroid v0\n", {0xFFFF0300, 0x0200001F, 0x80000005, 0x904F0000, 0x0000FFFF}},
      {"ps_3_0\ndcl_2d_centroid s0\n", {0xFFFF0300, 0x0200001F, 0x90000000, 0xA04F0800, 0x0000FFFF}},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto words = must_assemble(c.text);
    CHECK(words == c.tokens);
    ParseResult r = parse(c.tokens);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(encode_program(r.program) == c.tokens);
    std::string text = disassemble(r.program);
    INFO(text);
    CHECK(must_assemble(text) == c.tokens);
    if (c.dis) CHECK(text.find(c.dis) != std::string::npos);
  }
}

TEST_CASE("dialect: what D3DAssemble refuses is refused, naming the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      // Result shifts: one per instruction, and only in ps_1_x.
      {"ps_1_3\nmov_x2_x2 r0, r1\n", "line 2: two result shifts (_x2 and _x2)"},
      {"ps_1_4\nmov_d2_x4 r0, r1\n", "line 2: two result shifts (_d2 and _x4)"},
      {"ps_2_0\nmov_x2 r0, r1\n", "line 2: instruction modifier _x2 is not allowed in ps_2_0"},
      {"ps_2_x\nmul_d4 r0, r1, r2\n", "line 2: instruction modifier _d4 is not allowed in ps_2_x"},
      {"ps_3_0\nadd_x4 r0, r0, r1\n", "line 2: instruction modifier _x4 is not allowed in ps_3_0"},
      {"ps_3_0\ndcl_2d s2\ntexldd_x2 r0, v1, s2, v3, v4\n", "line 3: instruction modifier _x2 is not allowed in ps_3_0"},
      {"vs_1_1\nmul_x2 r0, r1, r2\n", "line 2: instruction modifier _x2 is not allowed in vs_1_1"},
      // _pp and _centroid are pixel-shader modifiers.
      {"vs_3_0\nadd_pp r0, r0, r1\n", "line 2: instruction modifier _pp is not allowed in vs_3_0"},
      {"vs_2_0\nmov_centroid r0, r1\n", "line 2: instruction modifier _centroid is not allowed in vs_2_0"},
      // Source modifiers: vertex shaders and ps_2_0+ have only negation (and _abs in 3_0).
      {"vs_1_1\nmov r2, r1_x2\n", "line 2: source modifier _x2 is not allowed in vs_1_1"},
      {"vs_3_0\nmov r2, -r1_x2\n", "line 2: source modifier _x2 is not allowed in vs_3_0"},
      {"ps_2_0\nmov r0, r1_x2\n", "line 2: source modifier _x2 is not allowed in ps_2_0"},
      {"ps_3_0\nmov r0, r1_bx2\n", "line 2: source modifier _bx2 is not allowed in ps_3_0"},
      {"ps_2_x\nmov r0, r1_bias\n", "line 2: source modifier _bias is not allowed in ps_2_x"},
      {"vs_2_0\nmov r0, r1_dz\n", "line 2: source modifier _dz is not allowed in vs_2_0"},
      {"ps_2_0\nmov r2, 1 - r0\n", "line 2: source modifier 1 - r is not allowed in ps_2_0"},
      {"vs_3_0\nmov r2, 1 - r1\n", "line 2: source modifier 1 - r is not allowed in vs_3_0"},
      {"vs_1_1\nmov r2, r1_abs\n", "line 2: source modifier _abs is not allowed in vs_1_1"},
      {"vs_2_x\nmov r2, -r1_abs\n", "line 2: source modifier _abs is not allowed in vs_2_x"},
      {"ps_2_0\nmov r2, r1_abs\n", "line 2: source modifier _abs is not allowed in ps_2_0"},
      {"ps_1_4\nmov r2, r1_abs\n", "line 2: source modifier _abs is not allowed in ps_1_4"},
      {"vs_3_0\nmov r2, 2 - r0\n", "line 2: only 1 - register is a source modifier, found '2 -'"},
      {"ps_1_4\nmov r2, 1.0 - r0\n", "line 2: only 1 - register is a source modifier, found '1.0 -'"},
      {"ps_1_4\ntexld r5, -r2_dz\n", "line 2: unknown source modifier '-_dz'"},
      // dcl: no modifier in vertex shaders; _pp and _centroid only in pixel shaders.
      {"vs_3_0\ndcl_texcoord0_centroid v0\n", "line 2: dcl modifier _centroid is not allowed in vs_3_0"},
      {"vs_3_0\ndcl_2d_pp s0\n", "line 2: dcl modifier _pp is not allowed in vs_3_0"},
      {"vs_2_0\ndcl_position_sat v0\n", "line 2: dcl modifier _sat is not allowed in vs_2_0"},
      {"ps_3_0\ndcl_texcoord0_sat v0\n", "line 2: dcl modifier _sat is not allowed in ps_3_0"},
      {"ps_3_0\ndcl_texcoord0_x2 v0\n", "line 2: dcl modifier _x2 is not allowed in ps_3_0"},
      // Relative addressing.
      {"vs_3_0\nmov r2, c[ aL + 3.4 ]\n", "line 2: relative address offset '3.4' is not an integer"},
      {"ps_3_0\nmov r0, v[ aL.x + 12 ]\n", "line 2: aL takes no swizzle"},
      {"vs_1_1\nmov r0, c0[ a0 ]\n", "line 2: vs_1_1 relative addressing is only through a0.x"},
      {"vs_1_1\nmov r0, c0[ a0.y ]\n", "line 2: vs_1_1 relative addressing is only through a0.x"},
      {"ps_3_0\nmov r0, v[ a0 + 12 ]\n", "line 2: a# registers exist only in vertex shaders"},
      {"vs_2_0\nmov r0, c[ a0.x + aL ]\n", "line 2: two address registers in one relative address"},
      {"vs_2_0\nmov r0, c[ -a0.x ]\n", "line 2: an address register cannot be negated"},
      {"vs_2_0\nmov r0, c[ 2 - 3 ]\n", "line 2: negative register number"},
      {"vs_2_0\nmov r0, c[ ]\n", "line 2: empty relative address"},
      {"vs_2_0\nmov r0, c[ a0.x + ]\n", "line 2: bad relative address '[ a0.x + ]'"},
      {"vs_2_0\nmov r0, c[ a0.x 2 ]\n", "line 2: bad relative address '[ a0.x 2 ]'"},
      {"vs_2_0\nmov r0, c[ r0 ]\n", "line 2: relative address must be through a0 or aL"},
      // Swizzles and write masks.
      {"vs_2_0\nmov r0, r1.abcd\n", "line 2: bad swizzle '.abcd'"},
      {"vs_2_0\nmov r0, r1.xyzwx\n", "line 2: bad swizzle '.xyzwx'"},
      {"vs_2_0\nmov r0, r1.\n", "line 2: bad swizzle '.'"},
      {"vs_2_0\nmov r0.xxyz, r1\n", "line 2: bad write mask '.xxyz'"},
      // Literals.
      {"vs_2_0\ndefi i0, 1.5, 0, 0, 0\n", "line 2: bad constant '1.5'"},
      {"vs_2_0\ndefi i0, 1f, 0, 0, 0\n", "line 2: bad constant '1f'"},
      {"vs_2_0\ndef c0, 1ff, 0, 0, 0\n", "line 2: bad constant '1ff'"},
      {"vs_2_0\ndef c0, --1, 0, 0, 0\n", "line 2: bad constant '--1'"},
      {"vs.2_0\nnop\n", "line 1: expected a version (vs_1_1 ... ps_3_0), found 'vs.2_0'"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(assemble_error(c.text) == c.error);
  }
}

TEST_CASE("refusal: truncated streams at every length") {
  for (const auto& f : corpus()) {
    INFO(f.name);
    auto words = must_assemble(f.text);
    for (size_t n = 0; n < words.size(); ++n) {
      std::vector<uint32_t> cut(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n));
      ParseResult r = parse(cut);
      INFO("length " << n);
      CHECK_FALSE(r.ok);
      CHECK(!r.error.empty());
      CHECK(r.error.find('\n') == std::string::npos);
    }
  }
  CHECK(parse_shader(nullptr, 0).error == "empty shader: no version token");
}

TEST_CASE("refusal: clear one-line errors") {
  // Unknown version; opcode not in this version; unknown opcode.
  CHECK(parse_error({0xFFFE0400, 0x0000FFFF}) == "unknown version 0xFFFE0400");
  CHECK(parse_error({0x12345678}) == "unknown version 0x12345678");
  CHECK(parse_error({0xFFFE0200, 0x04000058, 0x800F0000, 0x80E40000, 0x80E40000, 0x80E40000, 0x0000FFFF}) ==
        "token 1: opcode 0x58 (cmp) is not allowed in vs_2_0");
  CHECK(parse_error({0xFFFF0200, 0x00000061, 0x0000FFFF}) == "token 1: unknown opcode 0x61");
  CHECK(parse_error({0xFFFF0200, 0x0000004B, 0x0000FFFF}).find("(texm3x3diff) is not allowed") != std::string::npos);
  // Register ranges.
  CHECK(parse_error({0xFFFE0300, 0x02000001, 0x800F0020, 0x80E40000, 0x0000FFFF}) ==
        "token 2: r32 out of range for vs_3_0");
  CHECK(parse_error({0xFFFF0101, 0x00000001, 0x800F0002, 0x80E40000, 0x0000FFFF}) ==
        "token 2: r2 out of range for ps_1_1");
  CHECK(parse_error({0xFFFF0200, 0x02000001, 0x800F0000, 0xA0E40020, 0x0000FFFF}) ==
        "token 3: c32 out of range for ps_2_0");
  CHECK(parse_error({0xFFFE0300, 0x02000001, 0xC00F0000, 0x80E40000, 0x0000FFFF}).find("not available in vs_3_0") !=
        std::string::npos);   // oPos is gone in vs_3_0
  // Control flow.
  CHECK(parse_error({0xFFFE0200, 0x0000002B, 0x0000FFFF}) == "token 1: unbalanced control flow: endif without if");
  CHECK(parse_error({0xFFFE0200, 0x01000028, 0xE0E40800, 0x0000FFFF}) ==
        "token 1: unbalanced control flow: if without endif at the end (token 3)");
  CHECK(parse_error({0xFFFE0200, 0x0000001D, 0x0000FFFF}) == "token 1: unbalanced control flow: endloop without loop");
  CHECK(parse_error({0xFFFE0200, 0x01000026, 0xF0E40000, 0x0000001D, 0x0000FFFF}) ==
        "token 3: unbalanced control flow: endloop closes rep without endrep");
  CHECK(parse_error({0xFFFE0201, 0x0000002C, 0x0000FFFF}) == "token 1: unbalanced control flow: break outside loop or rep");
  CHECK(parse_error({0xFFFE0200, 0x0000002A, 0x0000FFFF}) == "token 1: unbalanced control flow: else without if");
  // Missing end, instruction length mismatch, parameter token where an instruction belongs.
  CHECK(parse_error({0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000}) == "missing end token");
  CHECK(parse_error({0xFFFE0200, 0x03000001, 0x800F0000, 0x80E40000, 0x80E40000, 0x0000FFFF}) ==
        "token 1: mov: instruction length 3, but its operands take 2 tokens");
  CHECK(parse_error({0xFFFE0200, 0x01000002, 0x800F0000, 0x0000FFFF}) ==
        "token 1: add: instruction length 1 is too short for its operands");
  CHECK(parse_error({0xFFFE0200, 0x800F0000, 0x0000FFFF}) == "token 1: expected an instruction token, found 0x800F0000");
  // Modifiers and bits that a version does not have.
  CHECK(parse_error({0xFFFE0200, 0x40000001, 0x800F0000, 0x80E40000, 0x0000FFFF}) ==
        "token 1: mov: co-issue is only allowed in ps_1_x");
  CHECK(parse_error({0xFFFE0200, 0x02000001, 0x800F0000, 0x8EE40000, 0x0000FFFF}) == "token 3: unknown source modifier 14");
  CHECK(parse_error({0xFFFE0200, 0x02000001, 0x80000000, 0x80E40000, 0x0000FFFF}) == "token 2: empty write mask");
  CHECK(parse_error({0xFFFE0200, 0x12000001, 0x800F0000, 0x80E40000, 0x0000FFFF}) ==
        "token 1: mov: predication is not allowed in vs_2_0");
  CHECK(parse_error({0xFFFF0200, 0x02000001, 0xA00F0000, 0x80E40000, 0x0000FFFF}) == "token 1: mov: c0 cannot be written");
  CHECK(parse_error({0xFFFF0200, 0x0200001F, 0x80000000, 0x800F0000, 0x0000FFFF}) ==
        "token 1: dcl of r0 is not allowed in ps_2_0");
}

TEST_CASE("refusal: assembler errors name the line") {
  CHECK(assemble_error("") == "line 1: no version line");
  CHECK(assemble_error("vs_4_0\n") == "line 1: expected a version (vs_1_1 ... ps_3_0), found 'vs_4_0'");
  CHECK(assemble_error("vs_2_0\n\n// x\nmadd r0, r1, r2, r3\n") == "line 4: unknown instruction 'madd'");
  CHECK(assemble_error("vs_2_0\nmov r0\n") == "line 2: mov takes 2 operands, found 1");
  CHECK(assemble_error("vs_2_0\ncmp r0, r1, r2, r3\n") == "line 2: cmp is not allowed in vs_2_0");
  CHECK(assemble_error("vs_3_0\nmov r32, r0\n") == "line 2: token 2: r32 out of range for vs_3_0");
  CHECK(assemble_error("vs_2_0\nrep i0\nmov r0, r1\n") ==
        "line 2: token 1: unbalanced control flow: rep without endrep at the end (token 6)");
  CHECK(assemble_error("vs_2_0\nret\nlabel l0\nmov r0, r1\n") ==
        "line 3: token 2: unbalanced control flow: label l0 without ret");
  CHECK(assemble_error("vs_2_0\nendif\n") == "line 2: token 1: unbalanced control flow: endif without if");
  CHECK(assemble_error("ps_2_0\nmov r0.xzy, r1\n") == "line 2: bad write mask '.xzy'");
  CHECK(assemble_error("ps_2_0\nmov r0, r1.xq\n") == "line 2: bad swizzle '.xq'");
  CHECK(assemble_error("ps_2_0\nmov_foo r0, r1\n") == "line 2: unknown instruction modifier '_foo'");
  CHECK(assemble_error("ps_2_0\nmov r0, r1_foo\n") == "line 2: unknown source modifier '_foo'");
  CHECK(assemble_error("ps_2_0\nmov r0, q1\n") == "line 2: unknown register 'q1'");
  CHECK(assemble_error("vs_2_0\ncall l3\nret\n") == "line 2: token 1: call to undefined label l3");
  CHECK(assemble_error("vs_2_0\nlabel l0\nret\n") == "line 2: token 1: label l0 before the main program's ret");
  CHECK(assemble_error("vs_2_0\nadd r0, r1, c0[aL]\n") == "line 2: token 5: aL used outside loop");
  CHECK(assemble_error("vs_2_0\nsetp p0, r0, r1\n") == "line 2: setp needs a comparison (setp_gt, _eq, _ge, _lt, _ne, _le)");
  CHECK(assemble_error("ps_2_0\ndcl s0\n") == "line 2: sampler dcl needs _2d, _cube, _volume or _1d");
  // Any case, both comment styles.
  CHECK(must_assemble("VS_1_1 ; version\n  M4X4 OPOS, V0, C0 // comment\n") ==
        std::vector<uint32_t>{0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000, 0x0000FFFF});
}

TEST_CASE("refusal: mutated corpus bytecode never crashes and what parses round-trips or is outside the dialect") {
  std::mt19937 rng(12345);
  size_t accepted = 0, total = 0;
  for (const auto& f : corpus()) {
    auto words = must_assemble(f.text);
    for (int iter = 0; iter < 4000; ++iter) {
      std::vector<uint32_t> m = words;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < flips && !m.empty(); ++k) {
        size_t at = rng() % m.size();
        switch (rng() % 7) {
          case 0: case 1: m[at] ^= 1u << (rng() % 32); break;
          case 2: m[at] = rng(); break;
          case 3: m[at] &= ~(0xFu << (4 * (rng() % 8))); break;
          case 4: m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), static_cast<uint32_t>(rng())); break;
          case 5: m.erase(m.begin() + static_cast<std::ptrdiff_t>(at)); break;
          default: m.resize(at + 1); break;
        }
      }
      ++total;
      ParseResult r = parse(m);
      if (!r.ok) {
        CHECK(!r.error.empty());
        continue;
      }
      ++accepted;
      INFO(f.name << " iteration " << iter);
      check_reassembles(r.program);
    }
  }
  CHECK(total > 0);
  CHECK(accepted > 0);
  // Random streams behind every valid version token.
  const uint32_t versions[] = {0xFFFE0101, 0xFFFE0200, 0xFFFE0201, 0xFFFE0300, 0xFFFF0101, 0xFFFF0102,
                               0xFFFF0103, 0xFFFF0104, 0xFFFF0200, 0xFFFF0201, 0xFFFF0300};
  for (uint32_t version : versions) {
    for (int iter = 0; iter < 2000; ++iter) {
      std::vector<uint32_t> m(1 + rng() % 24);
      m[0] = version;
      for (size_t i = 1; i < m.size(); ++i) {
        uint32_t r = rng();
        // Mostly plausible tokens: small opcodes with a length, parameter tokens, the end token.
        switch (r % 4) {
          case 0: m[i] = (r >> 8) % 100 | ((r >> 4) & 0xF) << 24; break;
          case 1: m[i] = 0x80000000u | (r & 0x7FFFFFFFu); break;
          case 2: m[i] = r % 3 == 0 ? 0x0000FFFFu : r; break;
          default: m[i] = r; break;
        }
      }
      ParseResult r = parse(m);
      if (!r.ok) continue;
      check_reassembles(r.program);
    }
  }
}

TEST_CASE("novem-shader tool: asm and dis, one-line errors and exit status") {
  fs::path dir = fs::temp_directory_path() / ("novem-shader-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto sh = [](const std::string& cmd) { return std::system(cmd.c_str()); };
  std::string tool = NOVEM_SHADER_TOOL;
  {
    std::ofstream(dir / "a.asm") << "ps_2_0\ndcl_2d s0\ndcl t0\ntexld r0, t0, s0\nmov oC0, r0\n";
  }
  REQUIRE(sh(tool + " asm " + (dir / "a.asm").string() + " -o " + (dir / "a.bin").string()) == 0);
  REQUIRE(sh(tool + " dis " + (dir / "a.bin").string() + " > " + (dir / "a.txt").string()) == 0);
  CHECK(read_text(dir / "a.txt") == "ps_2_0\n    dcl_2d s0\n    dcl t0\n    texld r0, t0, s0\n    mov oC0, r0\n");
  {
    std::ofstream(dir / "bad.asm") << "ps_2_0\nmov r0, r99\n";
    std::ofstream(dir / "bad.bin", std::ios::binary) << "abc";
  }
  CHECK(sh(tool + " asm " + (dir / "bad.asm").string() + " -o " + (dir / "x.bin").string() + " 2> " +
           (dir / "err.txt").string()) != 0);
  CHECK(read_text(dir / "err.txt") == "novem-shader: " + (dir / "bad.asm").string() +
                                          ": line 2: token 3: r99 out of range for ps_2_0\n");
  CHECK(sh(tool + " dis " + (dir / "bad.bin").string() + " 2> /dev/null") != 0);
  CHECK(sh(tool + " dis " + (dir / "missing.bin").string() + " 2> /dev/null") != 0);
  CHECK(sh(tool + " frob 2> /dev/null") != 0);
  // A vertex shader reading c2100: asm and dis take it; spirv translates it only for a device of
  // software vertex processing.
  {
    std::ofstream(dir / "sw.asm") << "vs_2_0\ndcl_position v0\nadd oPos, v0, c2100\n";
  }
  REQUIRE(sh(tool + " asm " + (dir / "sw.asm").string() + " -o " + (dir / "sw.bin").string()) == 0);
  REQUIRE(sh(tool + " dis " + (dir / "sw.bin").string() + " > " + (dir / "sw.txt").string()) == 0);
  CHECK(read_text(dir / "sw.txt") == "vs_2_0\n    dcl_position v0\n    add oPos, v0, c2100\n");
  CHECK(sh(tool + " spirv " + (dir / "sw.bin").string() + " -o " + (dir / "sw.spv").string() + " 2> /dev/null") != 0);
  CHECK(sh(tool + " spirv --software-vertex " + (dir / "sw.bin").string() + " -o " + (dir / "sw.spv").string()) == 0);
  fs::remove_all(dir);
}

TEST_CASE("software vertex processing: c256..c8191 (CONST2..4), i and b past 15 only with ParseOptions") {
  // vs_3_0: mov r0, c300 / c2100 (D3DSPR_CONST2, number 52) / c8191 (D3DSPR_CONST4, number 2047);
  // rep i20; if b100.
  const std::vector<uint32_t> c300 = {0xFFFE0300, 0x02000001, 0x800F0000, 0xA0E4012C, 0x0000FFFF};
  const std::vector<uint32_t> c2100 = {0xFFFE0300, 0x02000001, 0x800F0000, 0xB0E40834, 0x0000FFFF};
  const std::vector<uint32_t> c8191 = {0xFFFE0300, 0x02000001, 0x800F0000, 0xD0E40FFF, 0x0000FFFF};
  const std::vector<uint32_t> i20 = {0xFFFE0200, 0x01000026, 0xF0E40014, 0x00000027, 0x0000FFFF};
  const std::vector<uint32_t> b100 = {0xFFFE0200, 0x01000028, 0xE0E40864, 0x0000002B, 0x0000FFFF};
  // A hardware device's files: refused.
  CHECK(parse_error(c300) == "token 3: c300 out of range for vs_3_0");
  CHECK(parse_error(c2100) == "token 3: c2100 out of range for vs_3_0");
  CHECK(parse_error(c8191) == "token 3: c8191 out of range for vs_3_0");
  CHECK(parse_error(i20) == "token 2: i20 out of range for vs_2_0");
  CHECK(parse_error(b100) == "token 2: b100 out of range for vs_2_0");

  const ParseOptions software{.software_vertex = true};
  auto parse_software = [&](const std::vector<uint32_t>& words) {
    std::vector<uint32_t> copy(words);
    return parse_shader(copy.data(), copy.size(), software);
  };
  for (const auto* words : {&c300, &c2100, &c8191, &i20, &b100}) {
    const ParseResult r = parse_software(*words);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.program.software_vertex);
    CHECK(encode_program(r.program) == *words);   // c2048+ go back to CONST2..4
  }
  // One float file in the IR: c2100 is Const 2100, c8191 Const 8191.
  CHECK(parse_software(c2100).program.instructions[0].src[0].type == RegType::Const);
  CHECK(parse_software(c2100).program.instructions[0].src[0].index == 2100);
  CHECK(parse_software(c8191).program.instructions[0].src[0].index == 8191);
  CHECK(disassemble(parse_software(c8191).program).find("mov r0, c8191") != std::string::npos);
  // c[a0.x + 2100]: the base is CONST2 52, relative.
  const std::vector<uint32_t> rel = {0xFFFE0300, 0x0200002E, 0xB0010000, 0x80000000, 0x03000001, 0x800F0000,
                                     0xB0E42834, 0xB0000000, 0x0000FFFF};
  const ParseResult r = parse_software(rel);
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(r.program.instructions[1].src[0].index == 2100);
  CHECK(r.program.instructions[1].src[0].relative);
  CHECK(encode_program(r.program) == rel);

  // Malformed bytecode is refused either way: a constant written, CONST2 in a pixel shader (which
  // the option leaves alone), a stream without its end.
  CHECK(parse_software({0xFFFE0300, 0x02000001, 0xB00F0800, 0x80E40000, 0x0000FFFF}).error == "token 1: mov: c2048 cannot be written");
  const ParseResult ps = parse_software({0xFFFF0300, 0x02000001, 0x800F0800, 0xB0E40834, 0x0000FFFF});
  CHECK(ps.error == "token 3: c2100 out of range for ps_3_0");
  CHECK(parse_software({0xFFFE0300, 0x02000001, 0x800F0000, 0xB0E40834}).error == "missing end token");

  // The assembler takes a vertex shader's c up to c8191 (D3DAssemble does not check c# against a
  // device) and writes CONST2..4; the device's CreateVertexShader judges the files.
  CHECK(must_assemble("vs_3_0\nmov r0, c2100\n") == c2100);
  CHECK(must_assemble("vs_3_0\nmov r0, c8191\n") == c8191);
  CHECK(must_assemble("vs_3_0\nmova a0.x, r0.x\nmov r0, c[a0.x + 2100]\n") == rel);
  CHECK(assemble_error("vs_3_0\nmov r0, c8192\n") == "line 2: register number 8192 too large");
  CHECK(assemble_error("ps_3_0\nmov r0, c2100\n") == "line 2: token 3: c2100 out of range for ps_3_0");
}
