#include "bytecode.hpp"

#include <array>
#include <cctype>

#include <d3d9.h>

namespace novem::d3d9 {

// The IR's values are d3d9types.h's.
static_assert(static_cast<int>(RegType::Predicate) == D3DSPR_PREDICATE);
static_assert(static_cast<int>(RegType::Misc) == D3DSPR_MISCTYPE);
static_assert(static_cast<int>(RegType::ConstBool) == D3DSPR_CONSTBOOL);
static_assert(static_cast<int>(RegType::ColorOut) == D3DSPR_COLOROUT);
static_assert(static_cast<int>(RegType::Output) == D3DSPR_OUTPUT);
static_assert(static_cast<uint32_t>(SrcMod::Not) << 24 == static_cast<uint32_t>(D3DSPSM_NOT));
static_assert(static_cast<uint32_t>(SrcMod::Dw) << 24 == static_cast<uint32_t>(D3DSPSM_DW));
static_assert(static_cast<uint32_t>(SamplerType::Volume) << 27 == static_cast<uint32_t>(D3DSTT_VOLUME));
static_assert(static_cast<int>(Opcode::BreakP) == D3DSIO_BREAKP);
static_assert(static_cast<int>(Opcode::DefI) == D3DSIO_DEFI);
static_assert(static_cast<int>(Opcode::TexLdl) == D3DSIO_TEXLDL);
static_assert(static_cast<int>(Opcode::Phase) == D3DSIO_PHASE);
static_assert(static_cast<int>(Comparison::Le) == D3DSPC_LE);
static_assert(tok::kCoIssue == D3DSI_COISSUE && tok::kPredicated == D3DSHADER_INSTRUCTION_PREDICATED);
static_assert(tok::kLengthMask == D3DSI_INSTLENGTH_MASK && tok::kEnd == D3DVS_END());

namespace {

constexpr uint16_t v(int major, int minor) { return static_cast<uint16_t>((major << 8) | minor); }
constexpr uint16_t V11 = v(1, 1), V20 = v(2, 0), V2X = v(2, 1), V30 = v(3, 0);
constexpr uint16_t P11 = v(1, 1), P12 = v(1, 2), P13 = v(1, 3), P14 = v(1, 4), P20 = v(2, 0),
                   P2X = v(2, 1), P30 = v(3, 0);
constexpr uint16_t NO = 0;

using F = OpForm;
using O = Opcode;

// Every opcode of vs_1_1..vs_3_0 and ps_1_1..ps_3_0 (DirectX 9 SDK "Instructions" pages per
// version). Rows for the same opcode never overlap in versions.
constexpr OpInfo kTable[] = {
  // opcode          name           dst src  vs range    ps range    form
  {O::Nop,           "nop",          0, 0, V11, V30, P11, P30, F::Normal},
  {O::Mov,           "mov",          1, 1, V11, V30, P11, P30, F::Normal},
  {O::Add,           "add",          1, 2, V11, V30, P11, P30, F::Normal},
  {O::Sub,           "sub",          1, 2, V11, V30, P11, P30, F::Normal},
  {O::Mad,           "mad",          1, 3, V11, V30, P11, P30, F::Normal},
  {O::Mul,           "mul",          1, 2, V11, V30, P11, P30, F::Normal},
  {O::Rcp,           "rcp",          1, 1, V11, V30, P20, P30, F::Normal},
  {O::Rsq,           "rsq",          1, 1, V11, V30, P20, P30, F::Normal},
  {O::Dp3,           "dp3",          1, 2, V11, V30, P11, P30, F::Normal},
  {O::Dp4,           "dp4",          1, 2, V11, V30, P12, P30, F::Normal},
  {O::Min,           "min",          1, 2, V11, V30, P20, P30, F::Normal},
  {O::Max,           "max",          1, 2, V11, V30, P20, P30, F::Normal},
  {O::Slt,           "slt",          1, 2, V11, V30, NO, NO, F::Normal},
  {O::Sge,           "sge",          1, 2, V11, V30, NO, NO, F::Normal},
  {O::Exp,           "exp",          1, 1, V11, V30, P20, P30, F::Normal},
  {O::Log,           "log",          1, 1, V11, V30, P20, P30, F::Normal},
  {O::Lit,           "lit",          1, 1, V11, V30, NO, NO, F::Normal},
  {O::Dst,           "dst",          1, 2, V11, V30, NO, NO, F::Normal},
  {O::Lrp,           "lrp",          1, 3, V20, V30, P11, P30, F::Normal},
  {O::Frc,           "frc",          1, 1, V11, V30, P20, P30, F::Normal},
  {O::M4x4,          "m4x4",         1, 2, V11, V30, P20, P30, F::Normal},
  {O::M4x3,          "m4x3",         1, 2, V11, V30, P20, P30, F::Normal},
  {O::M3x4,          "m3x4",         1, 2, V11, V30, P20, P30, F::Normal},
  {O::M3x3,          "m3x3",         1, 2, V11, V30, P20, P30, F::Normal},
  {O::M3x2,          "m3x2",         1, 2, V11, V30, P20, P30, F::Normal},
  {O::Call,          "call",         0, 1, V20, V30, P2X, P30, F::Normal},
  {O::CallNz,        "callnz",       0, 2, V20, V30, P2X, P30, F::Normal},
  {O::Loop,          "loop",         0, 2, V20, V30, P30, P30, F::Normal},
  {O::Ret,           "ret",          0, 0, V20, V30, P2X, P30, F::Normal},
  {O::EndLoop,       "endloop",      0, 0, V20, V30, P30, P30, F::Normal},
  {O::Label,         "label",        0, 1, V20, V30, P2X, P30, F::Normal},
  {O::Dcl,           "dcl",          1, 0, V11, V30, P20, P30, F::Dcl},
  {O::Pow,           "pow",          1, 2, V20, V30, P20, P30, F::Normal},
  {O::Crs,           "crs",          1, 2, V20, V30, P20, P30, F::Normal},
  {O::Sgn,           "sgn",          1, 3, V20, V2X, NO, NO, F::Normal},
  {O::Sgn,           "sgn",          1, 1, V30, V30, NO, NO, F::Normal},
  {O::Abs,           "abs",          1, 1, V20, V30, P20, P30, F::Normal},
  {O::Nrm,           "nrm",          1, 1, V20, V30, P20, P30, F::Normal},
  {O::SinCos,        "sincos",       1, 3, V20, V2X, P20, P2X, F::Normal},
  {O::SinCos,        "sincos",       1, 1, V30, V30, P30, P30, F::Normal},
  {O::Rep,           "rep",          0, 1, V20, V30, P2X, P30, F::Normal},
  {O::EndRep,        "endrep",       0, 0, V20, V30, P2X, P30, F::Normal},
  {O::If,            "if",           0, 1, V20, V30, P2X, P30, F::Normal},
  {O::IfC,           "if",           0, 2, V2X, V30, P2X, P30, F::Compare},
  {O::Else,          "else",         0, 0, V20, V30, P2X, P30, F::Normal},
  {O::EndIf,         "endif",        0, 0, V20, V30, P2X, P30, F::Normal},
  {O::Break,         "break",        0, 0, V2X, V30, P2X, P30, F::Normal},
  {O::BreakC,        "break",        0, 2, V2X, V30, P2X, P30, F::Compare},
  {O::MovA,          "mova",         1, 1, V20, V30, NO, NO, F::Normal},
  {O::DefB,          "defb",         1, 0, V20, V30, P2X, P30, F::DefB},
  {O::DefI,          "defi",         1, 0, V20, V30, P2X, P30, F::DefI},
  {O::TexCoord,      "texcoord",     1, 0, NO, NO, P11, P13, F::Normal},
  {O::TexCoord,      "texcrd",       1, 1, NO, NO, P14, P14, F::Normal},
  {O::TexKill,       "texkill",      1, 0, NO, NO, P11, P30, F::Normal},
  {O::Tex,           "tex",          1, 0, NO, NO, P11, P13, F::Normal},
  {O::Tex,           "texld",        1, 1, NO, NO, P14, P14, F::Normal},
  {O::Tex,           "texld",        1, 2, NO, NO, P20, P30, F::Tex},
  {O::TexBem,        "texbem",       1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexBemL,       "texbeml",      1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexReg2AR,     "texreg2ar",    1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexReg2GB,     "texreg2gb",    1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexM3x2Pad,    "texm3x2pad",   1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexM3x2Tex,    "texm3x2tex",   1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexM3x3Pad,    "texm3x3pad",   1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexM3x3Tex,    "texm3x3tex",   1, 1, NO, NO, P11, P13, F::Normal},
  {O::TexM3x3Diff,   "texm3x3diff",  1, 1, NO, NO, NO, NO, F::Normal},   // reserved: no version
  {O::TexM3x3Spec,   "texm3x3spec",  1, 2, NO, NO, P11, P13, F::Normal},
  {O::TexM3x3VSpec,  "texm3x3vspec", 1, 1, NO, NO, P11, P13, F::Normal},
  {O::ExpP,          "expp",         1, 1, V11, V30, NO, NO, F::Normal},
  {O::LogP,          "logp",         1, 1, V11, V30, NO, NO, F::Normal},
  {O::Cnd,           "cnd",          1, 3, NO, NO, P11, P14, F::Normal},
  {O::Def,           "def",          1, 0, V11, V30, P11, P30, F::Def},
  {O::TexReg2RGB,    "texreg2rgb",   1, 1, NO, NO, P12, P13, F::Normal},
  {O::TexDp3Tex,     "texdp3tex",    1, 1, NO, NO, P12, P13, F::Normal},
  {O::TexM3x2Depth,  "texm3x2depth", 1, 1, NO, NO, P13, P13, F::Normal},
  {O::TexDp3,        "texdp3",       1, 1, NO, NO, P12, P13, F::Normal},
  {O::TexM3x3,       "texm3x3",      1, 1, NO, NO, P12, P13, F::Normal},
  {O::TexDepth,      "texdepth",     1, 0, NO, NO, P14, P14, F::Normal},
  {O::Cmp,           "cmp",          1, 3, NO, NO, P12, P30, F::Normal},
  {O::Bem,           "bem",          1, 2, NO, NO, P14, P14, F::Normal},
  {O::Dp2Add,        "dp2add",       1, 3, NO, NO, P20, P30, F::Normal},
  {O::Dsx,           "dsx",          1, 1, NO, NO, P2X, P30, F::Normal},
  {O::Dsy,           "dsy",          1, 1, NO, NO, P2X, P30, F::Normal},
  {O::TexLdd,        "texldd",       1, 4, NO, NO, P2X, P30, F::Normal},
  {O::SetP,          "setp",         1, 2, V2X, V30, P2X, P30, F::Compare},
  {O::TexLdl,        "texldl",       1, 2, V30, V30, P30, P30, F::Normal},
  {O::BreakP,        "breakp",       0, 1, V2X, V30, P2X, P30, F::Normal},
  {O::Phase,         "phase",        0, 0, NO, NO, P14, P14, F::Phase},
};

}  // namespace

bool OpInfo::is_control_flow() const {
  switch (opcode) {
    case O::Call: case O::CallNz: case O::Loop: case O::Ret: case O::EndLoop: case O::Label:
    case O::Rep: case O::EndRep: case O::If: case O::IfC: case O::Else: case O::EndIf:
    case O::Break: case O::BreakC: case O::BreakP:
      return true;
    default:
      return false;
  }
}

std::span<const OpInfo> opcode_table() { return kTable; }

const OpInfo* find_opcode(uint16_t opcode, Version ver) {
  for (const OpInfo& row : kTable)
    if (static_cast<uint16_t>(row.opcode) == opcode && row.allowed_in(ver)) return &row;
  return nullptr;
}

const char* opcode_name(uint16_t opcode) {
  if (opcode == static_cast<uint16_t>(O::Comment)) return "comment";
  if (opcode == static_cast<uint16_t>(O::End)) return "end";
  if (opcode == static_cast<uint16_t>(O::IfC)) return "ifc";
  if (opcode == static_cast<uint16_t>(O::BreakC)) return "breakc";
  for (const OpInfo& row : kTable)
    if (static_cast<uint16_t>(row.opcode) == opcode) return row.name;
  return nullptr;
}

const OpInfo* find_mnemonic(std::string_view name, Version ver) {
  for (const OpInfo& row : kTable)
    if (row.form != F::Compare && name == row.name && row.allowed_in(ver)) return &row;
  return nullptr;
}

const char* comparison_suffix(Comparison c) {
  static constexpr const char* kNames[] = {"", "gt", "eq", "ge", "lt", "ne", "le"};
  auto i = static_cast<unsigned>(c);
  return i < 7 ? kNames[i] : "";
}

const char* usage_name(uint32_t usage) {
  static constexpr const char* kNames[] = {
      "position", "blendweight", "blendindices", "normal", "psize", "texcoord", "tangent",
      "binormal", "tessfactor", "positiont", "color", "fog", "depth", "sample"};
  static_assert(std::size(kNames) == D3DDECLUSAGE_SAMPLE + 1);
  return usage < std::size(kNames) ? kNames[usage] : nullptr;
}

std::string Version::name() const {
  std::string s = is_vs() ? "vs_" : "ps_";
  s += static_cast<char>('0' + major);
  s += '_';
  if (major == 2 && minor == 1) s += 'x';
  else s += static_cast<char>('0' + minor);
  return s;
}

bool decode_version(uint32_t token, Version& out) {
  uint32_t high = token >> 16;
  if (high != 0xFFFEu && high != 0xFFFFu) return false;
  Version ver;
  ver.type = high == 0xFFFEu ? ShaderType::Vertex : ShaderType::Pixel;
  ver.major = static_cast<uint8_t>((token >> 8) & 0xFF);
  ver.minor = static_cast<uint8_t>(token & 0xFF);
  uint16_t c = ver.code();
  bool known = ver.is_vs() ? (c == V11 || c == V20 || c == V2X || c == V30)
                           : (c == P11 || c == P12 || c == P13 || c == P14 || c == P20 ||
                              c == P2X || c == P30);
  if (!known) return false;
  out = ver;
  return true;
}

bool parse_version_name(std::string_view name, Version& out) {
  std::string s;
  for (char ch : name) s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // "vs_1_1" or, as D3DAssemble also reads it, "vs.1.1"; never the two mixed.
  if (s.size() != 6 || (s[0] != 'v' && s[0] != 'p') || s[1] != 's' || (s[2] != '_' && s[2] != '.') || s[4] != s[2])
    return false;
  if (s[3] < '0' || s[3] > '9') return false;
  uint32_t major = static_cast<uint32_t>(s[3] - '0'), minor = 0;
  if (s[5] == 'x') {
    if (major != 2) return false;
    minor = 1;
  } else if (s[5] >= '0' && s[5] <= '9') {
    minor = static_cast<uint32_t>(s[5] - '0');
    if (major == 2 && minor == 1) return false;   // spelled 2_x
  } else {
    return false;
  }
  uint32_t token = (s[0] == 'v' ? 0xFFFE0000u : 0xFFFF0000u) | (major << 8) | minor;
  return decode_version(token, out);
}

uint32_t register_count(RegType type, Version ver, bool software_vertex) {
  const uint16_t c = ver.code();
  if (ver.is_vs()) {
    switch (type) {
      case RegType::Temp: return c >= V2X ? 32 : 12;
      case RegType::Input: return 16;
      case RegType::Const: return software_vertex ? kSoftwareFloatConstants : 256;
      case RegType::Addr: return 1;
      case RegType::RastOut: return c < V30 ? 3 : 0;
      case RegType::AttrOut: return c < V30 ? 2 : 0;
      case RegType::Output: return c < V30 ? 8 : 12;
      case RegType::ConstInt: return c >= V20 ? (software_vertex ? kSoftwareIntConstants : 16) : 0;
      case RegType::ConstBool: return c >= V20 ? (software_vertex ? kSoftwareBoolConstants : 16) : 0;
      case RegType::Loop: return c >= V20 ? 1 : 0;
      case RegType::Sampler: return c >= V30 ? 4 : 0;
      case RegType::Label: return c >= V30 ? 2048 : c >= V20 ? 16 : 0;
      case RegType::Predicate: return c >= V2X ? 1 : 0;
      default: return 0;
    }
  }
  switch (type) {
    case RegType::Temp: return c >= P2X ? 32 : c >= P20 ? 12 : c == P14 ? 6 : 2;
    case RegType::Input: return c >= P30 ? 10 : 2;
    case RegType::Const: return c >= P30 ? 224 : c >= P20 ? 32 : 8;
    case RegType::Texture: return c >= P30 ? 0 : c >= P20 ? 8 : c == P14 ? 6 : 4;
    case RegType::ConstInt: case RegType::ConstBool: return c >= P2X ? 16 : 0;
    case RegType::Loop: return c >= P30 ? 1 : 0;
    case RegType::Sampler: return c >= P20 ? 16 : 0;
    case RegType::ColorOut: return c >= P20 ? 4 : 0;
    case RegType::DepthOut: return c >= P20 ? 1 : 0;
    case RegType::Misc: return c >= P30 ? 2 : 0;
    case RegType::Label: return c >= P30 ? 2048 : c >= P2X ? 16 : 0;
    case RegType::Predicate: return c >= P2X ? 1 : 0;
    default: return 0;
  }
}

std::string register_name(RegType type, uint32_t index, Version ver) {
  auto numbered = [&](const char* prefix) { return prefix + std::to_string(index); };
  switch (type) {
    case RegType::Temp: return numbered("r");
    case RegType::Input: return numbered("v");
    case RegType::Const: return numbered("c");
    case RegType::Addr: return ver.is_vs() ? numbered("a") : numbered("t");
    case RegType::RastOut:
      if (index == kRastOutPos) return "oPos";
      if (index == kRastOutFog) return "oFog";
      if (index == kRastOutPointSize) return "oPts";
      return numbered("oRast");
    case RegType::AttrOut: return numbered("oD");
    case RegType::Output: return ver.is_vs() && ver.major >= 3 ? numbered("o") : numbered("oT");
    case RegType::ConstInt: return numbered("i");
    case RegType::ColorOut: return numbered("oC");
    case RegType::DepthOut: return index == 0 ? "oDepth" : numbered("oDepth");
    case RegType::Sampler: return numbered("s");
    case RegType::ConstBool: return numbered("b");
    case RegType::Loop: return index == 0 ? "aL" : numbered("aL");
    case RegType::Misc:
      if (index == kMiscPosition) return "vPos";
      if (index == kMiscFace) return "vFace";
      return numbered("vMisc");
    case RegType::Label: return numbered("l");
    case RegType::Predicate: return numbered("p");
    default: return "reg" + std::to_string(static_cast<unsigned>(type)) + "_" + std::to_string(index);
  }
}

}  // namespace novem::d3d9
