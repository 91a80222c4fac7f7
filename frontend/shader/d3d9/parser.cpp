#include "parser.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

namespace novem::d3d9 {
namespace {

std::string hex(uint32_t value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", value);
  return buf;
}

struct Failure {
  uint32_t token;
  std::string message;
};

class Parser {
public:
  Parser(const uint32_t* tokens, size_t max, const ParseOptions& options) : t_(tokens), max_(max), options_(options) {}

  bool run(ParseResult& result);
  const Failure& failure() const { return failure_; }

private:
  // ---- errors -----------------------------------------------------------------------------
  bool fail(uint32_t token, std::string message) {
    if (!failed_) {
      failed_ = true;
      failure_ = {token, "token " + std::to_string(token) + ": " + std::move(message)};
    }
    return false;
  }
  bool fail_plain(uint32_t token, std::string message) {
    if (!failed_) {
      failed_ = true;
      failure_ = {token, std::move(message)};
    }
    return false;
  }

  // ---- token reading ---------------------------------------------------------------------
  // Reads the next operand token of the current instruction: bounded by the instruction's
  // declared length (SM2+) and by max_tokens.
  bool next(uint32_t& out) {
    if (pos_ >= max_) return fail_plain(static_cast<uint32_t>(max_), "truncated at token " + std::to_string(max_));
    if (pos_ >= limit_)
      return fail(inst_pos_, std::string(mnemonic_) + ": instruction length " +
                                 std::to_string(limit_ - inst_pos_ - 1) + " is too short for its operands");
    out = t_[pos_++];
    return true;
  }

  bool read_rel(RelAddr& rel, uint32_t at);
  bool read_dst(DstParam& dst);
  bool read_src(SrcParam& src);
  bool check_register(RegType type, uint32_t index, uint32_t at);
  // D3DSPR_CONST2..4 name c2048..c8191: the IR has one float constant file.
  static void join_constant_files(RegType& type, uint32_t& index);
  bool parse_instruction(Program& prog);
  bool control_flow(const Instruction& inst);

  const uint32_t* t_;
  size_t max_;
  ParseOptions options_;
  size_t pos_ = 0;
  size_t limit_ = 0;           // end of the current instruction's tokens
  uint32_t inst_pos_ = 0;
  const char* mnemonic_ = "";
  Version ver_;
  bool failed_ = false;
  Failure failure_;

  // Control flow.
  enum class Block : uint8_t { If, IfElse, Loop, Rep };
  struct Open {
    Block kind;
    uint32_t token;
  };
  std::vector<Open> stack_;
  bool main_done_ = false;      // the main program ended with a top-level ret
  bool in_sub_ = false;         // inside label ... ret
  uint32_t sub_label_ = 0;
  uint32_t sub_label_token_ = 0;
  std::vector<bool> labels_;
  std::vector<std::pair<uint32_t, uint32_t>> calls_;   // (label, token)
  int loop_depth_ = 0;          // loop (aL) nesting
  int phases_ = 0;
};

void Parser::join_constant_files(RegType& type, uint32_t& index) {
  if (type != RegType::Const2 && type != RegType::Const3 && type != RegType::Const4) return;
  const uint32_t bank = type == RegType::Const2 ? 1 : type == RegType::Const3 ? 2 : 3;
  index += bank * kConstBankSize;
  type = RegType::Const;
}

bool Parser::check_register(RegType type, uint32_t index, uint32_t at) {
  uint32_t count = register_count(type, ver_, options_.software_vertex);
  if (count == 0)
    return fail(at, "register type " + std::to_string(static_cast<unsigned>(type)) + " (" +
                        register_name(type, 0, ver_) + ") is not available in " + ver_.name());
  if (index >= count)
    return fail(at, register_name(type, index, ver_) + " out of range for " + ver_.name());
  if (type == RegType::Loop && loop_depth_ == 0 && std::string_view(mnemonic_) != "loop")
    return fail(at, "aL used outside loop");
  return true;
}

bool Parser::read_rel(RelAddr& rel, uint32_t at) {
  if (ver_.sm1()) {   // vs_1_1: bit 13 alone means c[a0.x + n]
    rel = RelAddr{RegType::Addr, 0, 0x00};
    return true;
  }
  uint32_t token;
  uint32_t token_at = static_cast<uint32_t>(pos_);
  if (!next(token)) return false;
  if (!(token & tok::kParam)) return fail(token_at, "relative address token without bit 31");
  auto type = static_cast<RegType>(tok::reg_type(token));
  uint32_t index = token & tok::kRegNumMask;
  bool ok_type = (type == RegType::Addr && ver_.is_vs()) || type == RegType::Loop;
  if (!ok_type || index != 0)
    return fail(token_at, "relative addressing through " + register_name(type, index, ver_) +
                              " (only a0 and aL)");
  if (!check_register(type, index, token_at)) return false;
  rel.type = type;
  rel.index = 0;
  // aL is a scalar: whatever its swizzle bits say, it is read (and written back) as D3DAssemble
  // writes it, the identity. a0's swizzle is kept whole for re-encoding.
  rel.swizzle = static_cast<uint8_t>(type == RegType::Loop ? kSwizzleIdentity : (token >> 16) & 0xFFu);
  (void)at;
  return true;
}

bool Parser::read_dst(DstParam& dst) {
  uint32_t at = static_cast<uint32_t>(pos_);
  uint32_t token;
  if (!next(token)) return false;
  if (!(token & tok::kParam)) return fail(at, "destination token without bit 31 (" + hex(token) + ")");
  dst.type = static_cast<RegType>(tok::reg_type(token));
  dst.index = token & tok::kRegNumMask;
  join_constant_files(dst.type, dst.index);
  dst.write_mask = static_cast<uint8_t>((token >> 16) & 0xF);
  uint32_t mods = (token >> 20) & 0xF;
  if (mods & 8u) return fail(at, "unknown result modifier bits " + hex(mods));
  dst.saturate = mods & 1u;
  dst.partial_precision = mods & 2u;
  dst.centroid = mods & 4u;
  uint32_t shift = (token >> 24) & 0xF;
  if (shift >= 4 && shift <= 12) return fail(at, "invalid result shift " + std::to_string(shift));
  dst.shift = static_cast<int8_t>(shift >= 13 ? static_cast<int>(shift) - 16 : static_cast<int>(shift));
  if (dst.write_mask == 0) return fail(at, "empty write mask");
  dst.relative = token & tok::kRelative;
  if (dst.relative) {
    if (!(ver_.is_vs() && ver_.major >= 3 && dst.type == RegType::Output))
      return fail(at, "relative addressing of " + register_name(dst.type, dst.index, ver_) +
                          " as a destination is not allowed in " + ver_.name());
    if (!read_rel(dst.rel, at)) return false;
  }
  return check_register(dst.type, dst.index, at);
}

bool Parser::read_src(SrcParam& src) {
  uint32_t at = static_cast<uint32_t>(pos_);
  uint32_t token;
  if (!next(token)) return false;
  if (!(token & tok::kParam)) return fail(at, "source token without bit 31 (" + hex(token) + ")");
  src.type = static_cast<RegType>(tok::reg_type(token));
  src.index = token & tok::kRegNumMask;
  join_constant_files(src.type, src.index);
  src.swizzle = static_cast<uint8_t>((token >> 16) & 0xFF);
  uint32_t mod = (token >> 24) & 0xF;
  if (mod > static_cast<uint32_t>(SrcMod::Not)) return fail(at, "unknown source modifier " + std::to_string(mod));
  src.mod = static_cast<SrcMod>(mod);
  src.relative = token & tok::kRelative;
  if (src.relative) {
    bool allowed = ver_.is_vs() ? (src.type == RegType::Const || (ver_.major >= 3 && (src.type == RegType::Input || src.type == RegType::Output)))
                                : (ver_.major >= 3 && (src.type == RegType::Const || src.type == RegType::Input));
    if (!allowed)
      return fail(at, "relative addressing of " + register_name(src.type, src.index, ver_) +
                          " is not allowed in " + ver_.name());
    if (!read_rel(src.rel, at)) return false;
  }
  return check_register(src.type, src.index, at);
}

bool is_writable(RegType type, Version ver) {
  switch (type) {
    case RegType::Temp: case RegType::RastOut: case RegType::AttrOut: case RegType::Output:
    case RegType::ColorOut: case RegType::DepthOut: case RegType::Predicate:
      return true;
    case RegType::Addr:   // a0 (vs) or t# (ps_1_x)
      return ver.is_vs() || ver.major < 2;
    default:
      return false;
  }
}

bool Parser::control_flow(const Instruction& inst) {
  const uint32_t at = inst.token_offset;
  auto open_name = [](Block b) {
    switch (b) {
      case Block::If: case Block::IfElse: return "if without endif";
      case Block::Loop: return "loop without endloop";
      case Block::Rep: return "rep without endrep";
    }
    return "";
  };
  auto unbalanced = [&](std::string what) {
    return fail_plain(at, "token " + std::to_string(at) + ": unbalanced control flow: " + what);
  };
  if (main_done_ && !in_sub_ && inst.opcode != Opcode::Label)
    return fail(at, std::string(inst.info->name) + " after the main program's ret, outside any label");
  switch (inst.opcode) {
    case Opcode::If: case Opcode::IfC:
      stack_.push_back({Block::If, at});
      break;
    case Opcode::Else:
      if (stack_.empty() || stack_.back().kind != Block::If)
        return unbalanced(stack_.empty() || stack_.back().kind != Block::IfElse ? "else without if" : "second else");
      stack_.back().kind = Block::IfElse;
      break;
    case Opcode::EndIf:
      if (stack_.empty() || (stack_.back().kind != Block::If && stack_.back().kind != Block::IfElse))
        return unbalanced(stack_.empty() ? "endif without if" : std::string("endif closes ") + open_name(stack_.back().kind));
      stack_.pop_back();
      break;
    case Opcode::Loop:
      stack_.push_back({Block::Loop, at});
      ++loop_depth_;
      break;
    case Opcode::EndLoop:
      if (stack_.empty() || stack_.back().kind != Block::Loop)
        return unbalanced(stack_.empty() ? "endloop without loop" : std::string("endloop closes ") + open_name(stack_.back().kind));
      stack_.pop_back();
      --loop_depth_;
      break;
    case Opcode::Rep:
      stack_.push_back({Block::Rep, at});
      break;
    case Opcode::EndRep:
      if (stack_.empty() || stack_.back().kind != Block::Rep)
        return unbalanced(stack_.empty() ? "endrep without rep" : std::string("endrep closes ") + open_name(stack_.back().kind));
      stack_.pop_back();
      break;
    case Opcode::Break: case Opcode::BreakC: case Opcode::BreakP: {
      bool in_loop = false;
      for (const Open& o : stack_) in_loop |= o.kind == Block::Loop || o.kind == Block::Rep;
      if (!in_loop) return unbalanced(std::string(inst.opcode == Opcode::BreakP ? "breakp" : "break") + " outside loop or rep");
      break;
    }
    case Opcode::Ret:
      if (!stack_.empty()) break;   // a return from inside a branch
      if (in_sub_) in_sub_ = false;
      else main_done_ = true;
      break;
    case Opcode::Label: {
      uint32_t l = inst.src[0].index;
      if (inst.src[0].type != RegType::Label) return fail(at, "label needs an l# operand");
      if (!stack_.empty()) return unbalanced("label inside " + std::string(open_name(stack_.back().kind)));
      if (in_sub_) return unbalanced("label l" + std::to_string(l) + " while l" + std::to_string(sub_label_) + " has no ret");
      if (!main_done_) return fail(at, "label l" + std::to_string(l) + " before the main program's ret");
      if (labels_.size() <= l) labels_.resize(l + 1, false);
      if (labels_[l]) return fail(at, "label l" + std::to_string(l) + " defined twice");
      labels_[l] = true;
      in_sub_ = true;
      sub_label_ = l;
      sub_label_token_ = at;
      break;
    }
    case Opcode::Call: case Opcode::CallNz:
      if (inst.src[0].type != RegType::Label) return fail(at, "call needs an l# operand");
      calls_.push_back({inst.src[0].index, at});
      break;
    default:
      break;
  }
  return true;
}

bool Parser::parse_instruction(Program& prog) {
  const uint32_t at = static_cast<uint32_t>(pos_);
  const uint32_t token = t_[pos_++];
  const uint16_t opcode = static_cast<uint16_t>(token & tok::kOpcodeMask);
  inst_pos_ = at;
  if (token & tok::kParam) return fail(at, "expected an instruction token, found " + hex(token));
  const OpInfo* info = find_opcode(opcode, ver_);
  if (!info) {
    const char* name = opcode_name(opcode);
    if (!name) return fail(at, "unknown opcode " + hex(opcode));
    return fail(at, "opcode " + hex(opcode) + " (" + name + ") is not allowed in " + ver_.name());
  }
  mnemonic_ = info->name;
  const uint32_t control = (token & tok::kControlMask) >> tok::kControlShift;
  const bool predicated = token & tok::kPredicated;
  const bool coissue = token & tok::kCoIssue;
  if (token & (1u << 29)) return fail(at, std::string(info->name) + ": reserved bit 29 set");
  if (coissue && !(ver_.is_ps() && ver_.major < 2)) return fail(at, std::string(info->name) + ": co-issue is only allowed in ps_1_x");
  if (ver_.sm1()) {
    if (token & tok::kLengthMask) return fail(at, std::string(info->name) + ": instruction length bits set in " + ver_.name());
    if (predicated) return fail(at, std::string(info->name) + ": predication is not allowed in " + ver_.name());
    limit_ = max_;
  } else {
    const uint32_t length = (token & tok::kLengthMask) >> tok::kLengthShift;
    if (pos_ + length > max_) return fail_plain(static_cast<uint32_t>(max_), "truncated at token " + std::to_string(max_));
    limit_ = pos_ + length;
    if (predicated && register_count(RegType::Predicate, ver_) == 0)
      return fail(at, std::string(info->name) + ": predication is not allowed in " + ver_.name());
  }
  if (control != 0 && info->form != OpForm::Compare && info->form != OpForm::Tex)
    return fail(at, std::string(info->name) + ": unexpected control bits " + hex(control));

  auto finish = [&]() {
    if (!ver_.sm1() && pos_ != limit_)
      return fail(at, std::string(info->name) + ": instruction length " + std::to_string(limit_ - at - 1) +
                          ", but its operands take " + std::to_string(pos_ - at - 1) + " tokens");
    return true;
  };

  switch (info->form) {
    case OpForm::Dcl: {
      if (predicated) return fail(at, "dcl cannot be predicated");
      Declaration d;
      d.token_offset = at;
      uint32_t dcl_at = static_cast<uint32_t>(pos_);
      uint32_t dcl;
      if (!next(dcl)) return false;
      if (!(dcl & tok::kParam)) return fail(dcl_at, "dcl token without bit 31");
      d.usage = static_cast<uint8_t>(dcl & 0x1F);
      d.usage_index = static_cast<uint8_t>((dcl >> 16) & 0xF);
      uint32_t stt = (dcl >> 27) & 0xF;
      if (!read_dst(d.reg)) return false;
      const RegType rt = d.reg.type;
      if (rt == RegType::Sampler) {
        if (stt < 1 || stt > 4) return fail(dcl_at, "dcl of " + register_name(rt, d.reg.index, ver_) + " with unknown texture type " + std::to_string(stt));
        d.sampler_type = static_cast<SamplerType>(stt);
        d.usage = 0;
        d.usage_index = 0;
      } else {
        if (stt != 0) return fail(dcl_at, "texture type on a dcl of " + register_name(rt, d.reg.index, ver_));
        if (!usage_name(d.usage)) return fail(dcl_at, "unknown dcl usage " + std::to_string(d.usage));
        bool ok = ver_.is_vs() ? (rt == RegType::Input || (ver_.major >= 3 && rt == RegType::Output))
                               : (rt == RegType::Input || rt == RegType::Texture || rt == RegType::Misc);
        if (!ok) return fail(at, "dcl of " + register_name(rt, d.reg.index, ver_) + " is not allowed in " + ver_.name());
      }
      if (!finish()) return false;
      prog.order.push_back({StreamItem::Kind::Declaration, static_cast<uint32_t>(prog.declarations.size())});
      prog.declarations.push_back(d);
      return true;
    }
    case OpForm::Def: case OpForm::DefI: case OpForm::DefB: {
      if (predicated) return fail(at, std::string(info->name) + " cannot be predicated");
      ConstantDef def;
      def.token_offset = at;
      DstParam dst;
      if (!read_dst(dst)) return false;
      RegType want = info->form == OpForm::Def ? RegType::Const : info->form == OpForm::DefI ? RegType::ConstInt : RegType::ConstBool;
      if (dst.type != want || dst.relative || dst.write_mask != kMaskAll || dst.saturate || dst.partial_precision || dst.centroid || dst.shift)
        return fail(at, std::string(info->name) + " needs a plain " + register_name(want, 0, ver_).substr(0, 1) + "# destination");
      def.kind = info->form == OpForm::Def ? ConstantDef::Kind::Float : info->form == OpForm::DefI ? ConstantDef::Kind::Int : ConstantDef::Kind::Bool;
      def.index = dst.index;
      int n = info->form == OpForm::DefB ? 1 : 4;
      for (int i = 0; i < n; ++i)
        if (!next(def.words[static_cast<size_t>(i)])) return false;
      if (!finish()) return false;
      prog.order.push_back({StreamItem::Kind::Definition, static_cast<uint32_t>(prog.definitions.size())});
      prog.definitions.push_back(def);
      return true;
    }
    default:
      break;
  }

  Instruction inst;
  inst.opcode = static_cast<Opcode>(opcode);
  inst.info = info;
  inst.token_offset = at;
  inst.coissue = coissue;
  inst.predicated = predicated;
  if (info->form == OpForm::Compare) {
    if (control < 1 || control > 6) return fail(at, std::string(info->name) + ": invalid comparison " + std::to_string(control));
    inst.comparison = static_cast<Comparison>(control);
  } else if (info->form == OpForm::Tex) {
    if (control > 2) return fail(at, "texld: invalid control " + hex(control));
    inst.tex = static_cast<TexKind>(control);
  }
  if (info->form == OpForm::Phase) {
    if (++phases_ > 1) return fail(at, "second phase");
  }
  inst.has_dst = info->dst_count != 0;
  if (inst.has_dst) {
    if (!read_dst(inst.dst)) return false;
    if (inst.opcode != Opcode::TexKill && !is_writable(inst.dst.type, ver_))
      return fail(at, std::string(info->name) + ": " + register_name(inst.dst.type, inst.dst.index, ver_) + " cannot be written");
  }
  if (predicated) {
    uint32_t p_at = static_cast<uint32_t>(pos_);
    if (!read_src(inst.predicate)) return false;
    if (inst.predicate.type != RegType::Predicate || inst.predicate.relative ||
        (inst.predicate.mod != SrcMod::None && inst.predicate.mod != SrcMod::Not))
      return fail(p_at, "predicate must be p0 or !p0");
  }
  inst.src_count = info->src_count;
  for (uint32_t i = 0; i < info->src_count; ++i)
    if (!read_src(inst.src[i])) return false;
  if (!finish()) return false;
  if (!control_flow(inst)) return false;
  prog.order.push_back({StreamItem::Kind::Instruction, static_cast<uint32_t>(prog.instructions.size())});
  prog.instructions.push_back(inst);
  return true;
}

bool Parser::run(ParseResult& result) {
  Program& prog = result.program;
  if (!t_ || max_ == 0) return fail_plain(0, "empty shader: no version token");
  if (!decode_version(t_[0], ver_)) return fail_plain(0, "unknown version " + hex(t_[0]));
  prog.version = ver_;
  prog.software_vertex = options_.software_vertex && ver_.is_vs();
  pos_ = 1;
  for (;;) {
    if (pos_ >= max_) return fail_plain(static_cast<uint32_t>(max_), "missing end token");
    const uint32_t token = t_[pos_];
    if (token == tok::kEnd) {
      ++pos_;
      break;
    }
    if ((token & tok::kOpcodeMask) == static_cast<uint32_t>(Opcode::Comment) && !(token & tok::kParam)) {
      uint32_t size = (token & tok::kCommentSizeMask) >> tok::kCommentSizeShift;
      if (pos_ + 1 + size > max_) return fail_plain(static_cast<uint32_t>(max_), "truncated at token " + std::to_string(max_));
      Comment c;
      c.token_offset = static_cast<uint32_t>(pos_);
      c.words.assign(t_ + pos_ + 1, t_ + pos_ + 1 + size);
      prog.comments.push_back(std::move(c));
      pos_ += 1 + size;
      continue;
    }
    if (!parse_instruction(prog)) return false;
  }
  const uint32_t end_at = static_cast<uint32_t>(pos_ - 1);
  if (!stack_.empty()) {
    const Open& o = stack_.back();
    const char* what = o.kind == Block::Loop ? "loop without endloop" : o.kind == Block::Rep ? "rep without endrep" : "if without endif";
    return fail(o.token, std::string("unbalanced control flow: ") + what + " at the end (token " + std::to_string(end_at) + ")");
  }
  if (in_sub_) return fail(sub_label_token_, "unbalanced control flow: label l" + std::to_string(sub_label_) + " without ret");
  for (auto [label, at] : calls_)
    if (label >= labels_.size() || !labels_[label]) return fail(at, "call to undefined label l" + std::to_string(label));
  prog.token_count = static_cast<uint32_t>(pos_);
  return true;
}

}  // namespace

ParseResult parse_shader(const uint32_t* tokens, size_t max_tokens, const ParseOptions& options) {
  ParseResult result;
  Parser parser(tokens, max_tokens, options);
  if (parser.run(result)) {
    result.ok = true;
    return result;
  }
  result.program = Program{};
  result.error = parser.failure().message;
  result.error_token = parser.failure().token;
  return result;
}

}  // namespace novem::d3d9
