#include "dialect.hpp"

namespace novem::d3d9 {
namespace {

// A result shift's spelling: 1..3 = _x2/_x4/_x8, -1..-3 = _d2/_d4/_d8.
std::string shift_name(int8_t shift) {
  return std::string(shift > 0 ? "_x" : "_d") + std::to_string(1 << (shift > 0 ? shift : -shift));
}

// The modifiers on a destination, in the order the assembler reads them ("" when none).
std::string first_dst_modifier(const DstParam& d, bool shift_allowed, bool sat_allowed, bool pp_centroid_allowed) {
  if (d.shift != 0 && !shift_allowed) return shift_name(d.shift);
  if (d.saturate && !sat_allowed) return "_sat";
  if (d.partial_precision && !pp_centroid_allowed) return "_pp";
  if (d.centroid && !pp_centroid_allowed) return "_centroid";
  return {};
}

// The source modifiers that only ps_1_x spells (_bias, _bx2, 1 - r, _x2, _dz, _dw) and _abs,
// which only the 3_0 models have (Microsoft's "Source Register Modifiers" pages for vs and ps;
// D3DAssemble refuses each elsewhere).
const char* refused_src_modifier(SrcMod mod, Version v) {
  const bool legacy_allowed = v.is_ps() && v.major < 2;
  const bool abs_allowed = v.major >= 3;
  switch (mod) {
    case SrcMod::Bias: case SrcMod::BiasNeg: return legacy_allowed ? nullptr : "_bias";
    case SrcMod::Sign: case SrcMod::SignNeg: return legacy_allowed ? nullptr : "_bx2";
    case SrcMod::Comp: return legacy_allowed ? nullptr : "1 - r";
    case SrcMod::X2: case SrcMod::X2Neg: return legacy_allowed ? nullptr : "_x2";
    case SrcMod::Dz: return legacy_allowed ? nullptr : "_dz";
    case SrcMod::Dw: return legacy_allowed ? nullptr : "_dw";
    case SrcMod::Abs: case SrcMod::AbsNeg: return abs_allowed ? nullptr : "_abs";
    default: return nullptr;
  }
}

}  // namespace

std::string dialect_error(const Program& p, const StreamItem& item) {
  const Version v = p.version;
  const std::string in = " is not allowed in " + v.name();
  switch (item.kind) {
    case StreamItem::Kind::Declaration: {
      // A vertex shader's dcl takes no modifier; a pixel shader's only _pp and _centroid.
      const DstParam& r = p.declarations[item.index].reg;
      std::string m = first_dst_modifier(r, false, false, v.is_ps());
      return m.empty() ? std::string() : "dcl modifier " + m + in;
    }
    case StreamItem::Kind::Definition:
      return {};   // def/defi/defb carry nothing the assembler could spell differently
    case StreamItem::Kind::Instruction: {
      const Instruction& inst = p.instructions[item.index];
      if (inst.has_dst) {
        // Result shifts are ps_1_x's; _pp and _centroid are pixel-shader modifiers.
        std::string m = first_dst_modifier(inst.dst, v.is_ps() && v.major < 2, true, v.is_ps());
        if (!m.empty()) return "instruction modifier " + m + in;
      }
      for (uint32_t i = 0; i < inst.src_count && i < inst.src.size(); ++i)
        if (const char* m = refused_src_modifier(inst.src[i].mod, v)) return std::string("source modifier ") + m + in;
      return {};
    }
  }
  return {};
}

}  // namespace novem::d3d9
