#include "disassembler.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace novem::d3d9 {
namespace {

const char kComp[] = "xyzw";

std::string mask_text(uint8_t mask) {
  if (mask == kMaskAll) return "";
  std::string s = ".";
  for (int c = 0; c < 4; ++c)
    if (mask & (1 << c)) s += kComp[c];
  return s;
}

std::string swizzle_text(uint8_t swizzle) {
  if (swizzle == kSwizzleIdentity) return "";
  uint32_t comps[4];
  for (uint32_t c = 0; c < 4; ++c) comps[c] = swizzle_component(swizzle, c);
  int n = 4;
  while (n > 1 && comps[n - 1] == comps[n - 2]) --n;
  std::string s = ".";
  for (int c = 0; c < n; ++c) s += kComp[comps[c]];
  return s;
}

// a0 with its swizzle as the token has it ("a0.x", "a0" for the identity, "a0.xyw"); aL bare.
std::string rel_text(const RelAddr& rel) {
  if (rel.type == RegType::Loop) return "aL";
  return "a" + std::to_string(rel.index) + swizzle_text(rel.swizzle);
}

std::string dst_modifiers(const DstParam& d) {
  std::string s;
  switch (d.shift) {
    case 1: s += "_x2"; break;
    case 2: s += "_x4"; break;
    case 3: s += "_x8"; break;
    case -1: s += "_d2"; break;
    case -2: s += "_d4"; break;
    case -3: s += "_d8"; break;
    default: break;
  }
  if (d.saturate) s += "_sat";
  if (d.partial_precision) s += "_pp";
  if (d.centroid) s += "_centroid";
  return s;
}

std::string reg_text(RegType type, uint32_t index, bool relative, const RelAddr& rel, Version v) {
  std::string s = register_name(type, index, v);
  if (relative) s += "[" + rel_text(rel) + "]";
  return s;
}

std::string float_text(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  if (!std::isfinite(f)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", bits);   // raw bits: the assembler takes them back
    return buf;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, r.ptr);
}

std::string dcl_usage_text(const Declaration& d, Version v) {
  if (d.reg.type == RegType::Sampler) {
    switch (d.sampler_type) {
      case SamplerType::Tex1D: return "_1d";
      case SamplerType::Tex2D: return "_2d";
      case SamplerType::Cube: return "_cube";
      case SamplerType::Volume: return "_volume";
      default: return "";
    }
  }
  bool plain_allowed = v.is_ps() && (v.major < 3 || d.reg.type == RegType::Misc);
  if (plain_allowed && d.usage == 0 && d.usage_index == 0) return "";
  std::string s = "_";
  const char* name = usage_name(d.usage);
  s += name ? name : "usage" + std::to_string(d.usage);
  if (d.usage_index) s += std::to_string(d.usage_index);
  return s;
}

}  // namespace

std::string format_dst(const DstParam& dst, Version v) {
  return reg_text(dst.type, dst.index, dst.relative, dst.rel, v) + mask_text(dst.write_mask);
}

std::string format_src(const SrcParam& src, Version v) {
  std::string s;
  switch (src.mod) {
    case SrcMod::Neg: case SrcMod::BiasNeg: case SrcMod::SignNeg: case SrcMod::X2Neg:
    case SrcMod::AbsNeg:
      s += "-";
      break;
    case SrcMod::Comp: s += "1-"; break;
    case SrcMod::Not: s += "!"; break;
    default: break;
  }
  s += reg_text(src.type, src.index, src.relative, src.rel, v);
  switch (src.mod) {
    case SrcMod::Bias: case SrcMod::BiasNeg: s += "_bias"; break;
    case SrcMod::Sign: case SrcMod::SignNeg: s += "_bx2"; break;
    case SrcMod::X2: case SrcMod::X2Neg: s += "_x2"; break;
    case SrcMod::Dz: s += "_dz"; break;
    case SrcMod::Dw: s += "_dw"; break;
    case SrcMod::Abs: case SrcMod::AbsNeg: s += "_abs"; break;
    default: break;
  }
  s += swizzle_text(src.swizzle);
  return s;
}

std::string format_instruction(const Instruction& inst, Version v) {
  std::string s;
  if (inst.coissue) s += "+";
  if (inst.predicated) s += "(" + format_src(inst.predicate, v) + ") ";
  std::string name = inst.info ? inst.info->name : "?";
  if (inst.info && inst.info->form == OpForm::Compare) name += std::string("_") + comparison_suffix(inst.comparison);
  if (inst.info && inst.info->form == OpForm::Tex) {
    if (inst.tex == TexKind::Project) name += "p";
    else if (inst.tex == TexKind::Bias) name += "b";
  }
  s += name;
  if (inst.has_dst) s += dst_modifiers(inst.dst);
  bool first = true;
  auto operand = [&](const std::string& text) {
    s += first ? " " : ", ";
    s += text;
    first = false;
  };
  if (inst.has_dst) operand(format_dst(inst.dst, v));
  for (uint32_t i = 0; i < inst.src_count && i < inst.src.size(); ++i) operand(format_src(inst.src[i], v));
  return s;
}

std::string disassemble(const Program& p) {
  const Version v = p.version;
  std::string out = v.name() + "\n";
  for (const StreamItem& item : p.order) {
    std::string line;
    switch (item.kind) {
      case StreamItem::Kind::Declaration: {
        const Declaration& d = p.declarations[item.index];
        line = "dcl" + dcl_usage_text(d, v) + dst_modifiers(d.reg) + " " + format_dst(d.reg, v);
        break;
      }
      case StreamItem::Kind::Definition: {
        const ConstantDef& d = p.definitions[item.index];
        if (d.kind == ConstantDef::Kind::Float) {
          line = "def c" + std::to_string(d.index);
          for (uint32_t w : d.words) line += ", " + float_text(w);
        } else if (d.kind == ConstantDef::Kind::Int) {
          line = "defi i" + std::to_string(d.index);
          for (uint32_t w : d.words) line += ", " + std::to_string(static_cast<int32_t>(w));
        } else {
          line = "defb b" + std::to_string(d.index) + ", ";
          if (d.words[0] == 0) line += "false";
          else if (d.words[0] == 1) line += "true";
          else {   // any non-zero word is true; kept exact
            char buf[16];
            std::snprintf(buf, sizeof buf, "0x%08X", d.words[0]);
            line += buf;
          }
        }
        break;
      }
      case StreamItem::Kind::Instruction:
        line = format_instruction(p.instructions[item.index], v);
        break;
    }
    out += "    " + line + "\n";
  }
  return out;
}

}  // namespace novem::d3d9
