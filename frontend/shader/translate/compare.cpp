// Comparisons and selects: slt/sge (1 or 0 per component), cmp/cnd (a per-component choice),
// setp (the predicate register); compare() is also the condition of ifc and breakc.
#include "translator.hpp"

namespace novem::d3d9::translator {

using spv::Op;

Id Translator::compare(Comparison c, Id a, Id x) {
  switch (c) {
    case Comparison::Gt: return b_.compare(Op::OpFOrdGreaterThan, a, x);
    case Comparison::Eq: return b_.compare(Op::OpFOrdEqual, a, x);
    case Comparison::Ge: return b_.compare(Op::OpFOrdGreaterThanEqual, a, x);
    case Comparison::Lt: return b_.compare(Op::OpFOrdLessThan, a, x);
    case Comparison::Ne: return b_.compare(Op::OpFOrdNotEqual, a, x);
    case Comparison::Le: return b_.compare(Op::OpFOrdLessThanEqual, a, x);
    case Comparison::None: break;
  }
  unsupported("comparison without a condition");
}

void Translator::emit_comparison(const Instruction& in) {
  switch (in.opcode) {
    case Opcode::Slt: case Opcode::Sge: {
      const Id a = src(in, 0), c = src(in, 1);
      const Id cond = b_.compare(in.opcode == Opcode::Slt ? Op::OpFOrdLessThan : Op::OpFOrdGreaterThanEqual, a, c);
      return write(in, b_.select(cond, one4_, zero4_));
    }
    case Opcode::Cmp: {
      const Id c = src(in, 0), a = src(in, 1), d = src(in, 2);
      return write(in, b_.select(b_.compare(Op::OpFOrdGreaterThanEqual, c, zero4_), a, d));
    }
    case Opcode::Cnd: {
      const Id c = src(in, 0), a = src(in, 1), d = src(in, 2);
      return write(in, b_.select(b_.compare(Op::OpFOrdGreaterThan, c, b_.const_fvec({0.5f, 0.5f, 0.5f, 0.5f})), a, d));
    }
    case Opcode::SetP: {
      const Id a = src(in, 0), c = src(in, 1);
      const Id cond = compare(in.comparison, a, c);
      const Id old = b_.load(p0_);
      Id merged = merge(old, cond, in.dst.write_mask);
      if (in.predicated) merged = b_.select(predicate_vec(in.predicate), merged, old);
      b_.store(p0_, merged);
      return;
    }
    default: break;
  }
  unsupported_instruction(in);
}

}  // namespace novem::d3d9::translator
