// Instructions: emit_instruction hands each instruction to its family (one function each, in
// the file README.md names); the moves; the segments (main and subroutine bodies) with ps_1_x
// co-issue; the subroutines.
#include <set>
#include <string>
#include <vector>

#include "translator.hpp"

namespace novem::d3d9::translator {

void Translator::emit_instruction(const Instruction& in, std::vector<Frame>& stack, bool in_main) {
  // (1, 1, 1, 1) is declared before the first instruction's own code, whichever instruction
  // uses it, so that the order of the module's ids does not depend on where it is first used.
  if (!one4_) one4_ = b_.const_fvec({1.0f, 1.0f, 1.0f, 1.0f});
  switch (in.opcode) {
    case Opcode::Nop: case Opcode::Phase: case Opcode::Label: return;   // no code: phase and label mark places
    case Opcode::Mov: case Opcode::MovA: return emit_move(in);
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Min: case Opcode::Max:
    case Opcode::Rcp: case Opcode::Rsq: case Opcode::Exp: case Opcode::ExpP: case Opcode::Log: case Opcode::LogP:
    case Opcode::Pow: case Opcode::Dp3: case Opcode::Dp4: case Opcode::Dp2Add: case Opcode::Lit: case Opcode::Dst:
    case Opcode::Lrp: case Opcode::Frc: case Opcode::M4x4: case Opcode::M4x3: case Opcode::M3x4: case Opcode::M3x3:
    case Opcode::M3x2: case Opcode::Crs: case Opcode::Sgn: case Opcode::Abs: case Opcode::Nrm: case Opcode::SinCos:
    case Opcode::Dsx: case Opcode::Dsy:
      return write(in, arithmetic(in));
    case Opcode::Slt: case Opcode::Sge: case Opcode::Cmp: case Opcode::Cnd: case Opcode::SetP:
      return emit_comparison(in);
    case Opcode::Tex: return v_.sm1() ? emit_ps1x(in) : emit_texture(in);   // tex/texld (ps_1_x) or texld*
    case Opcode::TexLdl: case Opcode::TexLdd: return emit_texture(in);
    case Opcode::TexCoord: case Opcode::TexReg2AR: case Opcode::TexReg2GB: case Opcode::TexReg2RGB:
    case Opcode::TexBem: case Opcode::TexBemL: case Opcode::Bem: case Opcode::TexM3x2Pad: case Opcode::TexM3x3Pad:
    case Opcode::TexM3x2Tex: case Opcode::TexM3x2Depth: case Opcode::TexM3x3Tex: case Opcode::TexM3x3:
    case Opcode::TexM3x3Spec: case Opcode::TexM3x3VSpec: case Opcode::TexDp3: case Opcode::TexDp3Tex:
    case Opcode::TexDepth:
      return emit_ps1x(in);
    case Opcode::TexKill: return emit_kill(in);
    case Opcode::If: case Opcode::IfC: case Opcode::Else: case Opcode::EndIf: case Opcode::Rep: case Opcode::Loop:
    case Opcode::EndRep: case Opcode::EndLoop: case Opcode::Break: case Opcode::BreakC: case Opcode::BreakP:
    case Opcode::Call: case Opcode::CallNz: case Opcode::Ret:
      return emit_flow_control(in, stack, in_main);
    default: unsupported_instruction(in);
  }
}

void Translator::unsupported_instruction(const Instruction& in) {
  unsupported(in, std::string("instruction '") + (in.info ? in.info->name : "?") + "' is not supported in " +
                      v_.name());
}

void Translator::emit_move(const Instruction& in) {
  if (in.opcode == Opcode::MovA) return write_addr(in, src(in, 0), true);
  // vs_1_1's mov to a0 floors; later versions load a0 with mova, which rounds.
  if (is_addr(in.dst.type)) return write_addr(in, src(in, 0), !(vs_ && v_.sm1()));
  write(in, src(in, 0));
}

void Translator::emit_segment(const Segment& seg, bool in_main) {
  std::vector<Frame> stack;
  for (size_t i = seg.begin; i < seg.end; ++i) {
    if (i + 1 < seg.end && p_.instructions[i + 1].coissue) {
      defer_writes_ = true;
      emit_instruction(p_.instructions[i], stack, in_main);
      emit_instruction(p_.instructions[i + 1], stack, in_main);
      defer_writes_ = false;
      auto pending = std::move(deferred_);
      deferred_.clear();
      for (const auto& [ins, value] : pending) write(ins, value);
      ++i;
      continue;
    }
    emit_instruction(p_.instructions[i], stack, in_main);
  }
  if (!stack.empty()) unsupported("unbalanced flow control");
}

void Translator::emit_function(uint32_t label, std::set<uint32_t>& done, std::set<uint32_t>& active) {
  if (done.count(label)) return;
  if (active.count(label)) unsupported("recursive call to l" + std::to_string(label));
  auto it = subs_.find(label);
  if (it == subs_.end()) unsupported("call to undefined label l" + std::to_string(label));
  active.insert(label);
  for (uint32_t callee : it->second.calls) emit_function(callee, done, active);
  active.erase(label);
  sub_fns_[label] = b_.begin_function(t_void_, {}, "l" + std::to_string(label));
  emit_segment(it->second, false);
  b_.end_function();
  done.insert(label);
}

}  // namespace novem::d3d9::translator
