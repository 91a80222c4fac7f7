// D3D9 shader bytecode: versions, register files and the one opcode table that the parser, the
// disassembler and the assembler share. Values equal d3d9types.h's D3DSIO_* / D3DSPR_* (checked by
// static_assert in bytecode.cpp), so this header does not need <d3d9.h>.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace novem::d3d9 {

enum class ShaderType : uint8_t { Vertex, Pixel };

// A shader model: type plus major/minor ("2_x" is minor 1).
struct Version {
  ShaderType type = ShaderType::Vertex;
  uint8_t major = 0;
  uint8_t minor = 0;

  uint16_t code() const { return static_cast<uint16_t>((major << 8) | minor); }
  bool is_vs() const { return type == ShaderType::Vertex; }
  bool is_ps() const { return type == ShaderType::Pixel; }
  bool at_least(uint8_t ma, uint8_t mi) const { return code() >= ((ma << 8) | mi); }
  bool sm1() const { return major < 2; }   // no instruction length field, fixed operand counts
  uint32_t token() const { return (is_vs() ? 0xFFFE0000u : 0xFFFF0000u) | code(); }
  std::string name() const;                // "vs_3_0", "ps_2_x"
  bool operator==(const Version&) const = default;
};

// Decodes a version token; false when it is not one of vs_1_1, vs_2_0, vs_2_x, vs_3_0,
// ps_1_1..ps_1_4, ps_2_0, ps_2_x, ps_3_0.
bool decode_version(uint32_t token, Version& out);
// Parses "vs_2_x" or "vs.2.x" (any case); false when unknown.
bool parse_version_name(std::string_view name, Version& out);

// Register files (D3DSPR_*). Texture (ps) and Addr (vs) share 3; Output and TexCrdOut share 6.
enum class RegType : uint8_t {
  Temp = 0, Input = 1, Const = 2, Addr = 3, Texture = 3, RastOut = 4, AttrOut = 5, Output = 6,
  ConstInt = 7, ColorOut = 8, DepthOut = 9, Sampler = 10, Const2 = 11, Const3 = 12, Const4 = 13,
  ConstBool = 14, Loop = 15, TempFloat16 = 16, Misc = 17, Label = 18, Predicate = 19,
};
inline constexpr uint32_t kRastOutPos = 0, kRastOutFog = 1, kRastOutPointSize = 2;
inline constexpr uint32_t kMiscPosition = 0, kMiscFace = 1;

// How many registers of a file a version has (0: the file does not exist there).
// Constant files give the architectural maximum (vs: 256 c, ps_3_0: 224 c ...);
// `software_vertex`: a vertex shader on a device of software vertex processing, whose files are
// c0..c8191, i0..i2047 and b0..b2047. The IR keeps c2048 and up as Const with their full number;
// the bytecode spells them Const2..4 with the number modulo kConstBankSize (tok::reg_bits).
inline constexpr uint32_t kConstBankSize = 2048;
inline constexpr uint32_t kSoftwareFloatConstants = 8192, kSoftwareIntConstants = 2048, kSoftwareBoolConstants = 2048;
uint32_t register_count(RegType type, Version v, bool software_vertex = false);
// "r", "c", "oPos" ... for messages and disassembly: "r3", "oPos", "vFace", "aL", "t2", "o5".
std::string register_name(RegType type, uint32_t index, Version v);

// Opcodes (D3DSIO_*).
enum class Opcode : uint16_t {
  Nop = 0, Mov, Add, Sub, Mad, Mul, Rcp, Rsq, Dp3, Dp4, Min, Max, Slt, Sge, Exp, Log, Lit, Dst,
  Lrp, Frc, M4x4, M4x3, M3x4, M3x3, M3x2, Call, CallNz, Loop, Ret, EndLoop, Label, Dcl, Pow, Crs,
  Sgn, Abs, Nrm, SinCos, Rep, EndRep, If, IfC, Else, EndIf, Break, BreakC, MovA, DefB, DefI,
  TexCoord = 64, TexKill, Tex, TexBem, TexBemL, TexReg2AR, TexReg2GB, TexM3x2Pad, TexM3x2Tex,
  TexM3x3Pad, TexM3x3Tex, TexM3x3Diff, TexM3x3Spec, TexM3x3VSpec, ExpP, LogP, Cnd, Def,
  TexReg2RGB, TexDp3Tex, TexM3x2Depth, TexDp3, TexM3x3, TexDepth, Cmp, Bem, Dp2Add, Dsx, Dsy,
  TexLdd, SetP, TexLdl, BreakP,
  Phase = 0xFFFD, Comment = 0xFFFE, End = 0xFFFF,
};

// Operand layout of an opcode beyond "dst count + src count".
enum class OpForm : uint8_t {
  Normal,      // dst_count destination tokens, src_count source tokens
  Dcl,         // dcl token (usage / sampler type) + destination token
  Def,         // c# + 4 raw float words
  DefI,        // i# + 4 int words
  DefB,        // b# + 1 bool word
  Compare,     // ifc/breakc/setp: comparison in the control bits (16-18)
  Tex,         // ps_2_0+ texld: control bits 0 texld, 1 texldp, 2 texldb
  Phase,       // ps_1_4 phase marker
};

// One row of the table. An opcode whose operands change with the version (tex, texcoord,
// sincos, sgn) has one row per version range. Versions are Version::code(); 0/0 = never.
struct OpInfo {
  Opcode opcode;
  const char* name;     // assembly mnemonic for this version range
  uint8_t dst_count;
  uint8_t src_count;
  uint16_t vs_min, vs_max;
  uint16_t ps_min, ps_max;
  OpForm form;

  bool allowed_in(Version v) const {
    uint16_t lo = v.is_vs() ? vs_min : ps_min, hi = v.is_vs() ? vs_max : ps_max;
    return lo != 0 && v.code() >= lo && v.code() <= hi;
  }
  bool is_control_flow() const;
};

std::span<const OpInfo> opcode_table();
// The row for an opcode in a version, or nullptr when the version does not have it.
const OpInfo* find_opcode(uint16_t opcode, Version v);
// Some name for an opcode whatever the version ("cmp"), or nullptr when it is unknown.
const char* opcode_name(uint16_t opcode);
// The row whose mnemonic is `name` (lower case, no modifiers) in version v, or nullptr.
const OpInfo* find_mnemonic(std::string_view name, Version v);

// Comparisons for ifc/breakc/setp (D3DSPC_*): suffixes _gt _eq _ge _lt _ne _le.
enum class Comparison : uint8_t { None = 0, Gt = 1, Eq = 2, Ge = 3, Lt = 4, Ne = 5, Le = 6 };
const char* comparison_suffix(Comparison c);   // "gt" ...; "" for None

// Source modifiers (D3DSPSM_* >> 24).
enum class SrcMod : uint8_t {
  None = 0, Neg, Bias, BiasNeg, Sign, SignNeg, Comp, X2, X2Neg, Dz, Dw, Abs, AbsNeg, Not,
};

// Sampler texture types (D3DSTT_* >> 27).
enum class SamplerType : uint8_t { Unknown = 0, Tex1D = 1, Tex2D = 2, Cube = 3, Volume = 4 };

// D3DDECLUSAGE_* names: "position", "blendweight" ... "sample"; nullptr when out of range.
const char* usage_name(uint32_t usage);

// Token layout (d3d9types.h / "Shader Code Format").
namespace tok {
inline constexpr uint32_t kOpcodeMask = 0x0000FFFFu;
inline constexpr uint32_t kControlShift = 16, kControlMask = 0x00FF0000u;
inline constexpr uint32_t kLengthShift = 24, kLengthMask = 0x0F000000u;
inline constexpr uint32_t kPredicated = 1u << 28;
inline constexpr uint32_t kCoIssue = 1u << 30;
inline constexpr uint32_t kParam = 1u << 31;       // set on every parameter token
inline constexpr uint32_t kRegNumMask = 0x000007FFu;
inline constexpr uint32_t kRelative = 1u << 13;
inline constexpr uint32_t kCommentSizeShift = 16, kCommentSizeMask = 0x7FFF0000u;
inline constexpr uint32_t kEnd = 0x0000FFFFu;

inline uint32_t reg_type(uint32_t t) { return ((t >> 28) & 7u) | ((t >> 8) & 0x18u); }
inline uint32_t reg_bits(RegType type, uint32_t index) {
  if (type == RegType::Const && index >= kConstBankSize) {   // c2048+: D3DSPR_CONST2..4
    type = static_cast<RegType>(static_cast<uint32_t>(RegType::Const2) + index / kConstBankSize - 1);
    index %= kConstBankSize;
  }
  uint32_t ty = static_cast<uint32_t>(type);
  return kParam | ((ty & 7u) << 28) | ((ty & 0x18u) << 8) | (index & kRegNumMask);
}
}  // namespace tok

}  // namespace novem::d3d9
