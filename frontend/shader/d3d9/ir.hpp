// The decoded form of one D3D9 shader: what parse_shader() returns, what the disassembler
// prints, what encode_program() turns back into tokens, and what the SPIR-V translator reads.
//
// Everything is plain data, no pointers into the token stream. Registers are (RegType, index);
// swizzles are D3D9's 8-bit form (2 bits per component, x in bits 0-1: 0xE4 = .xyzw); write
// masks are 4 bits (bit 0 = x). Constants defined in the shader keep their raw 32-bit words.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "bytecode.hpp"

namespace novem::d3d9 {

inline constexpr uint8_t kSwizzleIdentity = 0xE4;
inline constexpr uint8_t kMaskAll = 0xF;
// Component c (0..3) of a swizzle.
inline uint32_t swizzle_component(uint8_t swizzle, uint32_t c) { return (swizzle >> (2 * c)) & 3u; }

// A relative address: a0 (vs) or aL. vs_1_1 encodes only "a0.x" (bit 13, no extra token);
// vs_2_0+ and ps_3_0 carry an extra token whose swizzle is kept as D3DAssemble wrote it, so that
// re-encoding gives its words back: a0.x is .xxxx (0x00), a bare a0 the identity (0xE4), a0.xyww
// 0xF4; aL's is always the identity. The index comes from the swizzle's first component.
struct RelAddr {
  RegType type = RegType::Addr;
  uint32_t index = 0;
  uint8_t swizzle = 0;        // a0.x
  uint32_t component() const { return swizzle & 3u; }
  bool operator==(const RelAddr&) const = default;
};

struct DstParam {
  RegType type = RegType::Temp;
  uint32_t index = 0;
  uint8_t write_mask = kMaskAll;
  bool saturate = false;
  bool partial_precision = false;
  bool centroid = false;
  int8_t shift = 0;           // result scale 2^shift: 1 _x2, 2 _x4, 3 _x8, -1 _d2, -2 _d4, -3 _d8
  bool relative = false;      // vs_3_0 o#[aL] / o#[a0.x]
  RelAddr rel;
  bool operator==(const DstParam&) const = default;
};

struct SrcParam {
  RegType type = RegType::Temp;
  uint32_t index = 0;
  uint8_t swizzle = kSwizzleIdentity;
  SrcMod mod = SrcMod::None;
  bool relative = false;      // c#[a0.x], c#[aL], v#[aL] (ps_3_0), o# ...
  RelAddr rel;
  bool operator==(const SrcParam&) const = default;
};

enum class TexKind : uint8_t { Plain = 0, Project = 1, Bias = 2 };  // texld / texldp / texldb

// An executable instruction (everything except dcl, def*, comments and end).
struct Instruction {
  Opcode opcode = Opcode::Nop;
  const OpInfo* info = nullptr;          // the table row used (mnemonic, counts)
  Comparison comparison = Comparison::None;   // ifc, breakc, setp
  TexKind tex = TexKind::Plain;               // ps_2_0+ texld
  bool coissue = false;                       // ps_1_x '+' prefix
  bool predicated = false;                    // "(p0.x) op" / "(!p0) op"
  SrcParam predicate;                         // p0, swizzle, mod None or Not
  bool has_dst = false;
  DstParam dst;
  uint8_t src_count = 0;
  std::array<SrcParam, 4> src{};
  uint32_t token_offset = 0;                  // index of the instruction token in the stream
  bool operator==(const Instruction&) const = default;
};

// dcl: an input/output/sampler declaration.
struct Declaration {
  DstParam reg;                      // register, write mask, _centroid/_pp
  uint8_t usage = 0;                 // D3DDECLUSAGE_* (inputs/outputs)
  uint8_t usage_index = 0;
  SamplerType sampler_type = SamplerType::Unknown;   // reg.type == Sampler
  uint32_t token_offset = 0;
  bool operator==(const Declaration&) const = default;
};

// def / defi / defb.
struct ConstantDef {
  enum class Kind : uint8_t { Float, Int, Bool } kind = Kind::Float;
  uint32_t index = 0;                          // c#, i#, b#
  std::array<uint32_t, 4> words{};             // raw bits (float / int32); Bool uses words[0]
  uint32_t token_offset = 0;
  bool operator==(const ConstantDef&) const = default;
};

struct Comment {
  uint32_t token_offset = 0;
  std::vector<uint32_t> words;                 // payload (e.g. the CTAB constant table)
  bool operator==(const Comment&) const = default;
};

// Stream order of dcl/def/instructions, for the disassembler and the encoder.
struct StreamItem {
  enum class Kind : uint8_t { Declaration, Definition, Instruction } kind;
  uint32_t index;   // into Program::declarations / definitions / instructions
  bool operator==(const StreamItem&) const = default;
};

struct Program {
  Version version;
  // Parsed for a device of software vertex processing (ParseOptions): the vertex constant files
  // are register_count(..., true)'s, and the translator reads them from the storage buffer.
  bool software_vertex = false;
  std::vector<Declaration> declarations;
  std::vector<ConstantDef> definitions;
  std::vector<Instruction> instructions;
  std::vector<Comment> comments;   // kept for readers (CTAB); not disassembled, not re-encoded
  std::vector<StreamItem> order;   // declarations, definitions and instructions interleaved
  uint32_t token_count = 0;        // including the version and end tokens
  bool operator==(const Program&) const = default;
};

}  // namespace novem::d3d9
