#include "assembler.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>

#include "dialect.hpp"
#include "parser.hpp"

namespace novem::d3d9 {
namespace {

// ---- encoding -------------------------------------------------------------------------------

uint32_t rel_token(const RelAddr& rel) {
  return tok::reg_bits(rel.type, rel.index) | static_cast<uint32_t>(rel.swizzle) << 16;
}

void put_dst(std::vector<uint32_t>& out, const DstParam& d, Version v) {
  uint32_t mods = (d.saturate ? 1u : 0u) | (d.partial_precision ? 2u : 0u) | (d.centroid ? 4u : 0u);
  out.push_back(tok::reg_bits(d.type, d.index) | static_cast<uint32_t>(d.write_mask & 0xF) << 16 | mods << 20 |
                (static_cast<uint32_t>(d.shift) & 0xFu) << 24 | (d.relative ? tok::kRelative : 0u));
  if (d.relative && !v.sm1()) out.push_back(rel_token(d.rel));
}

void put_src(std::vector<uint32_t>& out, const SrcParam& s, Version v) {
  out.push_back(tok::reg_bits(s.type, s.index) | static_cast<uint32_t>(s.swizzle) << 16 |
                static_cast<uint32_t>(s.mod) << 24 | (s.relative ? tok::kRelative : 0u));
  if (s.relative && !v.sm1()) out.push_back(rel_token(s.rel));
}

// Appends one statement; returns its first token's index.
uint32_t put_item(std::vector<uint32_t>& out, const Program& p, const StreamItem& item) {
  const Version v = p.version;
  const uint32_t start = static_cast<uint32_t>(out.size());
  uint32_t head = 0;
  out.push_back(0);
  switch (item.kind) {
    case StreamItem::Kind::Declaration: {
      const Declaration& d = p.declarations[item.index];
      head = static_cast<uint32_t>(Opcode::Dcl);
      out.push_back(tok::kParam | (d.usage & 0x1Fu) | static_cast<uint32_t>(d.usage_index & 0xF) << 16 |
                    static_cast<uint32_t>(d.sampler_type) << 27);
      put_dst(out, d.reg, v);
      break;
    }
    case StreamItem::Kind::Definition: {
      const ConstantDef& d = p.definitions[item.index];
      DstParam dst;
      if (d.kind == ConstantDef::Kind::Float) {
        head = static_cast<uint32_t>(Opcode::Def);
        dst.type = RegType::Const;
      } else if (d.kind == ConstantDef::Kind::Int) {
        head = static_cast<uint32_t>(Opcode::DefI);
        dst.type = RegType::ConstInt;
      } else {
        head = static_cast<uint32_t>(Opcode::DefB);
        dst.type = RegType::ConstBool;
      }
      dst.index = d.index;
      put_dst(out, dst, v);
      size_t n = d.kind == ConstantDef::Kind::Bool ? 1 : 4;
      for (size_t i = 0; i < n; ++i) out.push_back(d.words[i]);
      break;
    }
    case StreamItem::Kind::Instruction: {
      const Instruction& inst = p.instructions[item.index];
      uint32_t control = 0;
      if (inst.comparison != Comparison::None) control = static_cast<uint32_t>(inst.comparison);
      if (inst.tex != TexKind::Plain) control = static_cast<uint32_t>(inst.tex);
      head = static_cast<uint32_t>(inst.opcode) | control << 16 | (inst.predicated ? tok::kPredicated : 0u) |
             (inst.coissue ? tok::kCoIssue : 0u);
      if (inst.has_dst) put_dst(out, inst.dst, v);
      if (inst.predicated) put_src(out, inst.predicate, v);
      for (uint32_t i = 0; i < inst.src_count && i < 4; ++i) put_src(out, inst.src[i], v);
      break;
    }
  }
  if (!v.sm1()) head |= (static_cast<uint32_t>(out.size() - start - 1) & 0xFu) << 24;
  out[start] = head;
  return start;
}

std::vector<uint32_t> encode(const Program& p, std::vector<uint32_t>* offsets) {
  std::vector<uint32_t> out;
  out.push_back(p.version.token());
  for (const StreamItem& item : p.order) {
    uint32_t at = put_item(out, p, item);
    if (offsets) offsets->push_back(at);
  }
  out.push_back(tok::kEnd);
  return out;
}

// ---- text -----------------------------------------------------------------------------------

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool parse_uint(std::string_view s, uint32_t& out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

int comp_index(char c) {
  switch (c) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
  }
}

// The largest number a register of the file can be written with: c up to c8191 (c2048 and up are
// encoded as D3DSPR_CONST2..4), the rest what the token's number field holds.
uint32_t max_register(RegType type) {
  return type == RegType::Const ? kSoftwareFloatConstants - 1 : tok::kRegNumMask;
}

class LineParser {
public:
  LineParser(Version v, std::string& err) : v_(v), err_(err) {}

  bool fail(std::string msg) {
    if (err_.empty()) err_ = std::move(msg);
    return false;
  }

  // Register name with its index: "r3", "opos", "vface", "al", "ot2". c, v and o may go without
  // a number (c0), as D3DAssemble reads them, for the c[a0.x + 12] spelling.
  bool reg(std::string_view& s, RegType& type, uint32_t& index) {
    static constexpr struct { const char* name; RegType type; uint32_t index; } kNamed[] = {
        {"opos", RegType::RastOut, kRastOutPos}, {"ofog", RegType::RastOut, kRastOutFog},
        {"opts", RegType::RastOut, kRastOutPointSize}, {"odepth", RegType::DepthOut, 0},
        {"vpos", RegType::Misc, kMiscPosition}, {"vface", RegType::Misc, kMiscFace},
        {"al", RegType::Loop, 0}};
    size_t n = 0;
    while (n < s.size() && std::isalpha(static_cast<unsigned char>(s[n]))) ++n;
    std::string_view letters = s.substr(0, n);
    size_t d = n;
    while (d < s.size() && std::isdigit(static_cast<unsigned char>(s[d]))) ++d;
    std::string_view digits = s.substr(n, d - n);
    for (const auto& named : kNamed) {
      if (letters == named.name) {
        if (!digits.empty()) return fail("unexpected number after '" + std::string(letters) + "'");
        type = named.type;
        index = named.index;
        s.remove_prefix(n);
        return true;
      }
    }
    static constexpr struct { const char* prefix; RegType type; } kNumbered[] = {
        {"r", RegType::Temp}, {"v", RegType::Input}, {"c", RegType::Const}, {"od", RegType::AttrOut},
        {"ot", RegType::Output}, {"oc", RegType::ColorOut}, {"o", RegType::Output}, {"i", RegType::ConstInt},
        {"b", RegType::ConstBool}, {"s", RegType::Sampler}, {"l", RegType::Label}, {"p", RegType::Predicate},
        {"a", RegType::Addr}, {"t", RegType::Texture}};
    for (const auto& numbered : kNumbered) {
      if (letters != numbered.prefix) continue;
      if (letters == "a" && !v_.is_vs()) return fail("a# registers exist only in vertex shaders");
      if (letters == "t" && !v_.is_ps()) return fail("t# registers exist only in pixel shaders");
      if (letters == "o" && !(v_.is_vs() && v_.major >= 3)) return fail("o# registers exist only in vs_3_0 (use oT#, oD#)");
      if (letters == "ot" && !(v_.is_vs() && v_.major < 3)) return fail("oT# registers exist only in vs_1_1..vs_2_x");
      type = numbered.type;
      if (digits.empty()) {
        if (letters != "c" && letters != "v" && letters != "o")
          return fail("register '" + std::string(letters) + "' needs a number");
        index = 0;
      } else if (!parse_uint(digits, index) || index > max_register(type)) {
        return fail("register number " + std::string(digits) + " too large");
      }
      s.remove_prefix(d);
      return true;
    }
    return fail("unknown register '" + std::string(s.substr(0, d > 0 ? d : s.size())) + "'");
  }

  // What a register's brackets hold, D3DAssemble's way: integers joined by + and -, and at most
  // one address register, a0 with a swizzle (a bare a0 is the identity swizzle, which
  // D3DAssemble writes as such) or aL: "[a0.x]", "[aL + 12]", "[2 + a0.x + 12]", "[a0.w + -2]".
  // The integers add to the index; brackets of integers alone only do that (c4[2] is c6, no
  // relative addressing), and `relative` says whether there was a register.
  bool bracket(std::string_view& s, RegType type, bool& relative, RelAddr& rel, uint32_t& index) {
    size_t close = s.find(']');
    if (close == std::string_view::npos) return fail("missing ']'");
    std::string_view inner = trim(s.substr(1, close - 1));
    const std::string text(s.substr(0, close + 1));   // for messages
    s.remove_prefix(close + 1);
    if (inner.empty()) return fail("empty relative address");
    relative = false;
    int64_t offset = 0;
    bool minus = false;   // the operator before the term
    for (;;) {
      bool negated = minus;
      if (inner.starts_with('-')) {
        negated = !negated;
        inner = trim(inner.substr(1));
      }
      size_t n = 0;
      while (n < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[n])) || inner[n] == '.')) ++n;
      std::string_view term = inner.substr(0, n);
      inner = trim(inner.substr(n));
      if (term.empty()) return fail("bad relative address '" + text + "'");
      if (std::isdigit(static_cast<unsigned char>(term[0])) || term[0] == '.') {
        uint32_t value;
        if (!parse_uint(term, value)) return fail("relative address offset '" + std::string(term) + "' is not an integer");
        offset += negated ? -int64_t(value) : int64_t(value);
      } else {
        if (relative) return fail("two address registers in one relative address");
        if (negated) return fail("an address register cannot be negated");
        uint32_t n_reg;
        if (!reg(term, rel.type, n_reg)) return false;
        if (rel.type != RegType::Addr && rel.type != RegType::Loop) return fail("relative address must be through a0 or aL");
        rel.index = n_reg;
        rel.swizzle = kSwizzleIdentity;
        if (!term.empty()) {
          if (term[0] != '.') return fail("bad relative address '" + text + "'");
          if (!swizzle(term.substr(1), rel.swizzle)) return false;
          // aL is a scalar; D3DAssemble takes no swizzle on it.
          if (rel.type == RegType::Loop && rel.swizzle != kSwizzleIdentity) return fail("aL takes no swizzle");
        }
        relative = true;
      }
      if (inner.empty()) break;
      if (inner[0] != '+' && inner[0] != '-') return fail("bad relative address '" + text + "'");
      minus = inner[0] == '-';
      inner = trim(inner.substr(1));
    }
    int64_t total = int64_t(index) + offset;
    if (total < 0) return fail("negative register number");
    if (total > int64_t(max_register(type))) return fail("register number too large");
    index = static_cast<uint32_t>(total);
    return true;
  }

  bool swizzle(std::string_view letters, uint8_t& out) {
    if (letters.empty() || letters.size() > 4) return fail("bad swizzle '." + std::string(letters) + "'");
    uint32_t comps[4];
    for (size_t i = 0; i < 4; ++i) {
      char c = letters[i < letters.size() ? i : letters.size() - 1];
      int k = comp_index(c);
      if (k < 0) return fail("bad swizzle '." + std::string(letters) + "'");
      comps[i] = static_cast<uint32_t>(k);
    }
    out = static_cast<uint8_t>(comps[0] | comps[1] << 2 | comps[2] << 4 | comps[3] << 6);
    return true;
  }

  bool mask(std::string_view letters, uint8_t& out) {
    out = 0;
    int last = -1;
    for (char c : letters) {
      int k = comp_index(c);
      if (k < 0 || k <= last) return fail("bad write mask '." + std::string(letters) + "'");
      out = static_cast<uint8_t>(out | (1u << k));
      last = k;
    }
    if (out == 0) return fail("empty write mask");
    return true;
  }

  bool dst(std::string_view s, DstParam& d) {
    s = trim(s);
    if (!reg(s, d.type, d.index)) return false;
    if (!s.empty() && s[0] == '[' && !bracket(s, d.type, d.relative, d.rel, d.index)) return false;
    if (!s.empty() && s[0] == '.') return mask(s.substr(1), d.write_mask);
    if (!s.empty()) return fail("unexpected '" + std::string(s) + "' after destination");
    return true;
  }

  bool src(std::string_view s, SrcParam& p) {
    s = trim(s);
    bool neg = false, comp = false, not_ = false;
    if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) {
      // "1 - r1", spaces or not: D3DAssemble reads a number, then a minus, and takes only the
      // integer 1 (the complement modifier).
      size_t n = 0;
      while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '.')) ++n;
      std::string_view number = s.substr(0, n);
      std::string_view rest = trim(s.substr(n));
      if (!rest.starts_with('-')) return fail("bad source operand '" + std::string(s) + "'");
      if (number != "1") return fail("only 1 - register is a source modifier, found '" + std::string(number) + " -'");
      comp = true;
      s = rest.substr(1);
    } else if (s.starts_with("-")) {
      neg = true;
      s.remove_prefix(1);
    } else if (s.starts_with("!")) {
      not_ = true;
      s.remove_prefix(1);
    }
    s = trim(s);
    if (!reg(s, p.type, p.index)) return false;
    if (!s.empty() && s[0] == '[' && !bracket(s, p.type, p.relative, p.rel, p.index)) return false;
    std::string suffix;
    while (!s.empty()) {
      if (s[0] == '_') {
        size_t e = 1;
        while (e < s.size() && s[e] != '_' && s[e] != '.') ++e;
        if (!suffix.empty()) return fail("two source modifiers on one operand");
        suffix = std::string(s.substr(1, e - 1));
        s.remove_prefix(e);
      } else if (s[0] == '.') {
        size_t e = 1;
        while (e < s.size() && s[e] != '_') ++e;
        if (!swizzle(s.substr(1, e - 1), p.swizzle)) return false;
        s.remove_prefix(e);
      } else {
        return fail("unexpected '" + std::string(s) + "' in source operand");
      }
    }
    SrcMod mod = SrcMod::None;
    if (suffix.empty()) mod = neg ? SrcMod::Neg : comp ? SrcMod::Comp : not_ ? SrcMod::Not : SrcMod::None;
    else if (comp || not_) return fail("'" + std::string(comp ? "1-" : "!") + "' cannot be combined with _" + suffix);
    else if (suffix == "bias") mod = neg ? SrcMod::BiasNeg : SrcMod::Bias;
    else if (suffix == "bx2") mod = neg ? SrcMod::SignNeg : SrcMod::Sign;
    else if (suffix == "x2") mod = neg ? SrcMod::X2Neg : SrcMod::X2;
    else if (suffix == "abs") mod = neg ? SrcMod::AbsNeg : SrcMod::Abs;
    else if (suffix == "dz" && !neg) mod = SrcMod::Dz;
    else if (suffix == "dw" && !neg) mod = SrcMod::Dw;
    else return fail("unknown source modifier '" + std::string(neg ? "-" : "") + "_" + suffix + "'");
    p.mod = mod;
    if (p.relative && v_.sm1() && !(p.rel.type == RegType::Addr && p.rel.swizzle == 0x00))
      return fail("vs_1_1 relative addressing is only through a0.x");
    return true;
  }

  // "_sat", "_pp", "_centroid", "_x2" ... on a mnemonic. Which of them a version allows is
  // dialect_error()'s; one instruction has one result scale, so a second shift is refused here.
  bool dst_modifier(std::string_view m, DstParam& d) {
    static constexpr const char* kShifts[] = {"d8", "d4", "d2", "", "x2", "x4", "x8"};
    if (m == "sat") d.saturate = true;
    else if (m == "pp") d.partial_precision = true;
    else if (m == "centroid") d.centroid = true;
    else {
      int shift = 0;
      for (int k = -3; k <= 3; ++k)
        if (k != 0 && m == kShifts[k + 3]) shift = k;
      if (shift == 0) return fail("unknown instruction modifier '_" + std::string(m) + "'");
      if (d.shift != 0)
        return fail(std::string("two result shifts (_") + kShifts[d.shift + 3] + " and _" + std::string(m) + ")");
      d.shift = static_cast<int8_t>(shift);
    }
    return true;
  }

private:
  Version v_;
  std::string& err_;
};

std::optional<Comparison> comparison_of(std::string_view s) {
  for (uint8_t c = 1; c <= 6; ++c)
    if (s == comparison_suffix(static_cast<Comparison>(c))) return static_cast<Comparison>(c);
  return std::nullopt;
}

// A def/defi literal as D3DAssemble reads it: a minus, which a space may follow ("- 1"), then
// digits with an optional dot and, in def only, an 'f' suffix ("1.0f", "0.", ".5f"). Exponents
// and "0x..." (exact bits, what the disassembler prints for NaN and infinities) are Novem's.
bool parse_word(std::string_view s, bool is_float, uint32_t& out) {
  s = trim(s);
  if (s.starts_with("0x")) {
    auto r = std::from_chars(s.data() + 2, s.data() + s.size(), out, 16);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
  }
  bool negative = s.starts_with('-');
  if (negative) s = trim(s.substr(1));
  if (s.empty() || s[0] == '-' || s[0] == '+') return false;
  if (is_float) {
    if (s.size() > 1 && s.back() == 'f' && (std::isdigit(static_cast<unsigned char>(s[s.size() - 2])) || s[s.size() - 2] == '.'))
      s.remove_suffix(1);
    float f;
    auto r = std::from_chars(s.data(), s.data() + s.size(), f);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
    if (negative) f = -f;   // -0 keeps its sign bit
    std::memcpy(&out, &f, sizeof out);
    return true;
  }
  int64_t i;
  auto r = std::from_chars(s.data(), s.data() + s.size(), i);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  if (negative) i = -i;
  if (i < INT32_MIN || i > INT32_MAX) return false;
  out = static_cast<uint32_t>(static_cast<int32_t>(i));
  return true;
}

// One statement into p; false with err set.
bool parse_statement(std::string_view line, Program& p, std::string& err) {
  const Version v = p.version;
  LineParser lp(v, err);
  Instruction inst;
  if (line.starts_with("+")) {
    inst.coissue = true;
    line = trim(line.substr(1));
  }
  if (line.starts_with("(")) {
    size_t close = line.find(')');
    if (close == std::string_view::npos) return lp.fail("missing ')' after predicate");
    if (!lp.src(line.substr(1, close - 1), inst.predicate)) return false;
    inst.predicated = true;
    line = trim(line.substr(close + 1));
  }
  size_t sp = 0;
  while (sp < line.size() && !std::isspace(static_cast<unsigned char>(line[sp]))) ++sp;
  std::string_view mnemonic = line.substr(0, sp);
  std::string_view rest = trim(line.substr(sp));
  std::vector<std::string_view> operands;
  if (!rest.empty())
    for (std::string_view o : split(rest, ',')) operands.push_back(trim(o));

  std::vector<std::string_view> parts = split(mnemonic, '_');
  std::string_view base = parts[0];
  size_t next_part = 1;

  if (base == "def" || base == "defi" || base == "defb") {
    if (parts.size() != 1) return lp.fail("'" + std::string(mnemonic) + "' takes no modifiers");
    const OpInfo* info = find_mnemonic(base, v);
    if (!info) return lp.fail(std::string(base) + " is not allowed in " + v.name());
    ConstantDef def;
    size_t n = base == "defb" ? 1 : 4;
    if (operands.size() != n + 1) return lp.fail(std::string(base) + " takes " + std::to_string(n + 1) + " operands");
    DstParam d;
    if (!lp.dst(operands[0], d)) return false;
    RegType want = base == "def" ? RegType::Const : base == "defi" ? RegType::ConstInt : RegType::ConstBool;
    if (d.type != want || d.relative || d.write_mask != kMaskAll) return lp.fail(std::string(base) + ": wrong destination register");
    def.kind = base == "def" ? ConstantDef::Kind::Float : base == "defi" ? ConstantDef::Kind::Int : ConstantDef::Kind::Bool;
    def.index = d.index;
    for (size_t i = 0; i < n; ++i) {
      std::string_view w = operands[i + 1];
      if (def.kind == ConstantDef::Kind::Bool && (w == "true" || w == "false")) {
        def.words[0] = w == "true" ? 1u : 0u;
      } else if (!parse_word(w, def.kind == ConstantDef::Kind::Float, def.words[i])) {
        return lp.fail("bad constant '" + std::string(w) + "'");
      }
    }
    p.order.push_back({StreamItem::Kind::Definition, static_cast<uint32_t>(p.definitions.size())});
    p.definitions.push_back(def);
    return true;
  }

  if (base == "dcl") {
    if (!find_mnemonic("dcl", v)) return lp.fail(std::string("dcl is not allowed in ") + v.name());
    if (inst.coissue || inst.predicated) return lp.fail("dcl cannot be co-issued or predicated");
    Declaration d;
    if (parts.size() > 1) {
      std::string_view u = parts[1];
      bool is_usage = true;
      if (u == "1d") d.sampler_type = SamplerType::Tex1D;
      else if (u == "2d") d.sampler_type = SamplerType::Tex2D;
      else if (u == "cube") d.sampler_type = SamplerType::Cube;
      else if (u == "volume") d.sampler_type = SamplerType::Volume;
      else {
        size_t digits = u.size();
        while (digits > 0 && std::isdigit(static_cast<unsigned char>(u[digits - 1]))) --digits;
        std::string_view name = u.substr(0, digits);
        is_usage = false;
        for (uint32_t k = 0; usage_name(k); ++k) {
          if (name == usage_name(k)) {
            d.usage = static_cast<uint8_t>(k);
            uint32_t idx = 0;
            if (digits < u.size() && (!parse_uint(u.substr(digits), idx) || idx > 15))
              return lp.fail("usage index '" + std::string(u.substr(digits)) + "' out of range (0-15)");
            d.usage_index = static_cast<uint8_t>(idx);
            is_usage = true;
            break;
          }
        }
      }
      if (is_usage) next_part = 2;
    }
    for (size_t i = next_part; i < parts.size(); ++i)
      if (!lp.dst_modifier(parts[i], d.reg)) return false;
    if (operands.size() != 1) return lp.fail("dcl takes one operand");
    DstParam r;
    if (!lp.dst(operands[0], r)) return false;
    r.saturate = d.reg.saturate;
    r.partial_precision = d.reg.partial_precision;
    r.centroid = d.reg.centroid;
    r.shift = d.reg.shift;
    d.reg = r;
    if ((d.reg.type == RegType::Sampler) != (d.sampler_type != SamplerType::Unknown))
      return lp.fail(d.reg.type == RegType::Sampler ? "sampler dcl needs _2d, _cube, _volume or _1d"
                                                    : "texture type on a non-sampler dcl");
    p.order.push_back({StreamItem::Kind::Declaration, static_cast<uint32_t>(p.declarations.size())});
    p.declarations.push_back(d);
    return true;
  }

  const OpInfo* info = nullptr;
  if ((base == "if" || base == "break" || base == "setp") && parts.size() > 1 && comparison_of(parts[1])) {
    inst.comparison = *comparison_of(parts[1]);
    Opcode op = base == "if" ? Opcode::IfC : base == "break" ? Opcode::BreakC : Opcode::SetP;
    info = find_opcode(static_cast<uint16_t>(op), v);
    if (!info) return lp.fail(std::string(mnemonic) + " is not allowed in " + v.name());
    next_part = 2;
  } else if (base == "setp") {
    return lp.fail("setp needs a comparison (setp_gt, _eq, _ge, _lt, _ne, _le)");
  } else {
    std::string_view name = base;
    if ((base == "texldp" || base == "texldb") && v.major >= 2) {
      inst.tex = base == "texldp" ? TexKind::Project : TexKind::Bias;
      name = "texld";
    }
    info = find_mnemonic(name, v);
    if (!info) {
      bool known = false;
      for (const OpInfo& row : opcode_table()) known |= name == row.name;
      if (known) return lp.fail(std::string(base) + " is not allowed in " + v.name());
      return lp.fail("unknown instruction '" + std::string(base) + "'");
    }
  }
  inst.opcode = info->opcode;
  inst.info = info;
  inst.has_dst = info->dst_count != 0;
  for (size_t i = next_part; i < parts.size(); ++i) {
    if (!inst.has_dst) return lp.fail(std::string(base) + " takes no modifiers");
    if (!lp.dst_modifier(parts[i], inst.dst)) return false;
  }
  size_t want = info->dst_count + info->src_count;
  if (operands.size() != want)
    return lp.fail(std::string(base) + " takes " + std::to_string(want) + " operand" + (want == 1 ? "" : "s") +
                   ", found " + std::to_string(operands.size()));
  size_t o = 0;
  if (inst.has_dst) {
    DstParam mods = inst.dst;
    if (!lp.dst(operands[o++], inst.dst)) return false;
    inst.dst.saturate = mods.saturate;
    inst.dst.partial_precision = mods.partial_precision;
    inst.dst.centroid = mods.centroid;
    inst.dst.shift = mods.shift;
  }
  inst.src_count = info->src_count;
  for (uint32_t i = 0; i < info->src_count; ++i)
    if (!lp.src(operands[o++], inst.src[i])) return false;
  p.order.push_back({StreamItem::Kind::Instruction, static_cast<uint32_t>(p.instructions.size())});
  p.instructions.push_back(inst);
  return true;
}

}  // namespace

std::vector<uint32_t> encode_program(const Program& program) { return encode(program, nullptr); }

AssembleResult assemble(std::string_view text) {
  AssembleResult result;
  Program p;
  bool have_version = false;
  std::vector<uint32_t> lines;   // line number of each statement
  uint32_t line_no = 0;
  for (std::string_view raw : split(text, '\n')) {
    ++line_no;
    size_t cut = std::min(raw.find("//"), raw.find(';'));
    std::string line = lower(trim(raw.substr(0, cut == std::string_view::npos ? raw.size() : cut)));
    std::string_view l = trim(line);
    if (l.empty()) continue;
    if (!have_version) {
      if (!parse_version_name(l, p.version)) {
        result.error = "line " + std::to_string(line_no) + ": expected a version (vs_1_1 ... ps_3_0), found '" +
                       std::string(l) + "'";
        return result;
      }
      have_version = true;
      continue;
    }
    std::string err;
    if (!parse_statement(l, p, err)) {
      result.error = "line " + std::to_string(line_no) + ": " + err;
      return result;
    }
    // What the bytecode could hold but D3DAssemble refuses in this version (_abs in vs_2_0 ...).
    if (std::string outside = dialect_error(p, p.order.back()); !outside.empty()) {
      result.error = "line " + std::to_string(line_no) + ": " + outside;
      return result;
    }
    lines.push_back(line_no);
  }
  if (!have_version) {
    result.error = "line " + std::to_string(line_no) + ": no version line";
    return result;
  }
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> tokens = encode(p, &offsets);
  // A vertex shader is checked against the largest files a device gives it (software vertex
  // processing: c8191, i2047, b2047), as D3DAssemble does not check a vertex shader's c# against
  // a device; CreateVertexShader on a hardware device refuses what its files lack.
  ParseResult check = parse_shader(tokens.data(), tokens.size(), ParseOptions{.software_vertex = true});
  if (!check.ok) {
    uint32_t where = line_no;
    for (size_t i = 0; i < offsets.size(); ++i)
      if (offsets[i] <= check.error_token) where = lines[i];
    result.error = "line " + std::to_string(where) + ": " + check.error;
    return result;
  }
  result.ok = true;
  result.tokens = std::move(tokens);
  return result;
}

}  // namespace novem::d3d9
