// Flow control: if/ifc/else/endif as selection constructs; rep/loop as loops with a counter
// checked at the top (loop also steps aL, saved and restored around it); break/breakc/breakp to
// the innermost loop's merge; call/callnz as function calls; ret; texkill as OpKill.
#include <string>
#include <vector>

#include "translator.hpp"

namespace novem::d3d9::translator {

using spv::Op;

Translator::Frame* Translator::innermost_loop(std::vector<Frame>& stack) {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (it->kind != Frame::If) return &*it;
  return nullptr;
}

void Translator::emit_flow_control(const Instruction& in, std::vector<Frame>& stack, bool in_main) {
  switch (in.opcode) {
    case Opcode::If: {
      const SrcParam& c = in.src[0];
      const Id cond = c.type == RegType::Predicate ? predicate_scalar(c) : bool_const(c.index);
      Frame f{Frame::If};
      f.ifc = b_.begin_if(cond, true);
      stack.push_back(f);
      return;
    }
    case Opcode::IfC: {
      const Id a = scalar(src(in, 0), 0), c = scalar(src(in, 1), 0);
      Frame f{Frame::If};
      f.ifc = b_.begin_if(compare(in.comparison, a, c), true);
      stack.push_back(f);
      return;
    }
    case Opcode::Else:
      if (stack.empty() || stack.back().kind != Frame::If) unsupported(in, "else without if");
      b_.begin_else(stack.back().ifc);
      return;
    case Opcode::EndIf:
      if (stack.empty() || stack.back().kind != Frame::If) unsupported(in, "endif without if");
      b_.end_if(stack.back().ifc);
      stack.pop_back();
      return;
    case Opcode::Rep: case Opcode::Loop: {
      const bool is_loop = in.opcode == Opcode::Loop;
      const SrcParam& ireg = in.src[is_loop ? 1 : 0];
      if (ireg.type != RegType::ConstInt) unsupported(in, "loop counter is not an integer constant");
      const Id iv = int_const(ireg.index);
      // count = clamp(i.x, 0, 255)
      Id count = scalar(iv, 0);
      count = b_.select(b_.compare(Op::OpSLessThan, count, b_.const_int(0)), b_.const_int(0), count);
      count = b_.select(b_.compare(Op::OpSGreaterThan, count, b_.const_int(255)), b_.const_int(255), count);
      Frame f{is_loop ? Frame::Loop : Frame::Rep};
      f.counter = b_.function_variable(t_i_, "counter");
      b_.store(f.counter, count);
      if (is_loop) {
        f.saved_al = b_.load(al_);
        f.step = scalar(iv, 2);
        b_.store(al_, scalar(iv, 1));
      }
      f.loop = b_.begin_loop();
      b_.break_if(f.loop, b_.compare(Op::OpSLessThanEqual, b_.load(f.counter), b_.const_int(0)));
      stack.push_back(f);
      return;
    }
    case Opcode::EndRep: case Opcode::EndLoop: {
      if (stack.empty() || stack.back().kind == Frame::If) unsupported(in, "unbalanced end of loop");
      Frame f = stack.back();
      stack.pop_back();
      b_.begin_continue(f.loop);
      b_.store(f.counter, b_.isub(b_.load(f.counter), b_.const_int(1)));
      if (f.kind == Frame::Loop) b_.store(al_, b_.iadd(b_.load(al_), f.step));
      b_.end_loop(f.loop);
      if (f.kind == Frame::Loop) b_.store(al_, f.saved_al);
      return;
    }
    case Opcode::Break: case Opcode::BreakC: case Opcode::BreakP: {
      Frame* l = innermost_loop(stack);
      if (!l) unsupported(in, "break outside of a loop");
      if (in.opcode == Opcode::Break) {
        if (in.predicated) b_.break_if(l->loop, predicate_scalar(in.predicate));
        else b_.loop_break(l->loop);
      } else if (in.opcode == Opcode::BreakC) {
        const Id a = scalar(src(in, 0), 0), c = scalar(src(in, 1), 0);
        b_.break_if(l->loop, compare(in.comparison, a, c));
      } else {
        b_.break_if(l->loop, predicate_scalar(in.src[0]));
      }
      return;
    }
    case Opcode::Call: case Opcode::CallNz: {
      auto fn = sub_fns_.find(in.src[0].index);
      if (fn == sub_fns_.end()) unsupported(in, "call to an undefined label");
      Id cond = 0;
      if (in.opcode == Opcode::CallNz) {
        const SrcParam& c = in.src[1];
        if (c.type == RegType::Predicate) cond = predicate_scalar(c);
        else if (c.type == RegType::ConstBool) cond = bool_const(c.index);
        else unsupported(in, "callnz condition is neither b# nor p0");
      }
      if (in.predicated) {
        const Id p = predicate_scalar(in.predicate);
        cond = cond ? b_.compare(Op::OpLogicalAnd, cond, p) : p;
      }
      if (cond) {
        SpirvBuilder::If c = b_.begin_if(cond);
        b_.function_call(fn->second, {});
        b_.end_if(c);
      } else {
        b_.function_call(fn->second, {});
      }
      return;
    }
    case Opcode::Ret:
      if (in_main) b_.function_call(epilogue_fn_, {});
      b_.ret();
      return;
    default: break;
  }
  unsupported_instruction(in);
}

void Translator::emit_kill(const Instruction& in) {
  if (vs_) unsupported_instruction(in);
  // SM2+: every component in the write mask (xyzw by default) is tested (as Wine does);
  // ps_1_x: xyz.
  SrcParam r;
  r.type = in.dst.type;
  r.index = in.dst.index;
  // ps_1_1-1_3 test the texture coordinate set; ps_1_4 the register (t# or r#).
  const bool coords = v_.sm1() && v_.minor < 4;
  const Id v = coords ? texcoord(in, in.dst.index) : load_src_raw(r);
  const Id lt = b_.compare(Op::OpFOrdLessThan, v, zero4_);
  const uint8_t mask = v_.sm1() ? 0x7 : in.dst.write_mask;
  Id cond = b_.const_bool(false);
  for (uint32_t c = 0; c < 4; ++c)
    if (mask & (1u << c)) cond = b_.compare(Op::OpLogicalOr, cond, b_.composite_extract(lt, {c}));
  if (in.predicated) cond = b_.compare(Op::OpLogicalAnd, cond, predicate_scalar(in.predicate));
  SpirvBuilder::If k = b_.begin_if(cond);
  b_.kill();
  b_.end_if(k);
}

}  // namespace novem::d3d9::translator
