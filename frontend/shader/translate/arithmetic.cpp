// Arithmetic: the value of each ALU instruction (add ... dsy), which emit_instruction writes to
// the destination. D3D9's special cases (rcp/rsq of 0 and 1, log of 0, nrm of a zero vector)
// are spelled out where they differ from the GLSL instruction.
#include <array>
#include <limits>

#include "translator.hpp"

namespace novem::d3d9::translator {

using spv::Op;

// Scalar sources: ALU scalar ops read the w component of the swizzled source (a replicate
// swizzle makes every component the same; without one, D3D9 reads .w).
Id Translator::scalar_src(const Instruction& in, int i) { return scalar(src(in, i), 3); }

// m4x4 & co: src0 dotted with `rows` consecutive registers from src1, over `width` components.
Id Translator::matrix_product(const Instruction& in, uint32_t rows, uint32_t width) {
  const Id a = src(in, 0);
  std::array<Id, 4> r{zero_, zero_, zero_, zero_};
  for (uint32_t k = 0; k < rows; ++k) {
    const Id row = src(in, 1, k);
    r[k] = width == 4 ? b_.dot(a, row) : b_.dot(b_.swizzle(a, {0, 1, 2}), b_.swizzle(row, {0, 1, 2}));
  }
  return b_.composite_construct(t_v4_, {r[0], r[1], r[2], r[3]});
}

Id Translator::arithmetic(const Instruction& in) {
  switch (in.opcode) {
    case Opcode::Add: return b_.fadd(src(in, 0), src(in, 1));
    case Opcode::Sub: return b_.fsub(src(in, 0), src(in, 1));
    case Opcode::Mul: return b_.fmul(src(in, 0), src(in, 1));
    case Opcode::Mad: {
      const Id a = src(in, 0), m = src(in, 1), c = src(in, 2);
      return b_.fadd(b_.fmul(a, m), c);
    }
    case Opcode::Min: { const Id a = src(in, 0), c = src(in, 1); return b_.glsl(GLSLstd450FMin, {a, c}); }
    case Opcode::Max: { const Id a = src(in, 0), c = src(in, 1); return b_.glsl(GLSLstd450FMax, {a, c}); }
    case Opcode::Rcp: {
      // D3D9: x == 1 -> 1, x == 0 -> +inf (whatever the sign of zero), else 1/x.
      const Id x = scalar_src(in, 0);
      Id r = b_.fdiv(one_, x);
      r = b_.select(b_.compare(Op::OpFOrdEqual, x, one_), one_, r);
      r = b_.select(b_.compare(Op::OpFOrdEqual, x, zero_), b_.const_float(std::numeric_limits<float>::infinity()), r);
      return splat4(r);
    }
    case Opcode::Rsq: {
      const Id x = b_.glsl(GLSLstd450FAbs, {scalar_src(in, 0)});
      Id r = b_.glsl(GLSLstd450InverseSqrt, {x});
      r = b_.select(b_.compare(Op::OpFOrdEqual, x, one_), one_, r);
      r = b_.select(b_.compare(Op::OpFOrdEqual, x, zero_), b_.const_float(std::numeric_limits<float>::infinity()), r);
      return splat4(r);
    }
    case Opcode::Exp: return splat4(b_.glsl(GLSLstd450Exp2, {scalar_src(in, 0)}));
    case Opcode::ExpP: {
      const Id x = scalar_src(in, 0);
      if (!(vs_ && v_.sm1())) return splat4(b_.glsl(GLSLstd450Exp2, {x}));
      // vs_1_1: (2^floor(x), x - floor(x), 2^x, 1)
      const Id fl = b_.glsl(GLSLstd450Floor, {x});
      const Id ex = b_.glsl(GLSLstd450Exp2, {fl});
      const Id fr = b_.fsub(x, fl);
      const Id full = b_.glsl(GLSLstd450Exp2, {x});
      return b_.composite_construct(t_v4_, {ex, fr, full, one_});
    }
    case Opcode::Log: case Opcode::LogP: {
      // log2(|x|); log(0) = -FLT_MAX (the SDK's definition).
      const Id x = b_.glsl(GLSLstd450FAbs, {scalar_src(in, 0)});
      Id r = b_.glsl(GLSLstd450Log2, {x});
      r = b_.select(b_.compare(Op::OpFOrdEqual, x, zero_), b_.const_float(-std::numeric_limits<float>::max()), r);
      return splat4(r);
    }
    case Opcode::Pow: {
      // pow(|x|, y) = exp2(y * log2(|x|))
      const Id x = b_.glsl(GLSLstd450FAbs, {scalar_src(in, 0)});
      const Id y = scalar_src(in, 1);
      return splat4(b_.glsl(GLSLstd450Exp2, {b_.fmul(y, b_.glsl(GLSLstd450Log2, {x}))}));
    }
    case Opcode::Dp3: {
      const Id a = src(in, 0), c = src(in, 1);
      return splat4(b_.dot(b_.swizzle(a, {0, 1, 2}), b_.swizzle(c, {0, 1, 2})));
    }
    case Opcode::Dp4: { const Id a = src(in, 0), c = src(in, 1); return splat4(b_.dot(a, c)); }
    case Opcode::Dp2Add: {
      const Id a = src(in, 0), c = src(in, 1), d = src(in, 2);
      const Id dot = b_.dot(b_.swizzle(a, {0, 1}), b_.swizzle(c, {0, 1}));
      return splat4(b_.fadd(dot, scalar(d, 0)));
    }
    case Opcode::Lit: {
      // x = 1; y = max(src.x, 0); z = src.x > 0 && src.y > 0 ? pow(src.y, clamp(src.w, +-127.9961)) : 0; w = 1
      const Id v = src(in, 0);
      const Id x = scalar(v, 0), y = scalar(v, 1), w = scalar(v, 3);
      const Id power = b_.glsl(GLSLstd450FClamp, {w, b_.const_float(-127.9961f), b_.const_float(127.9961f)});
      const Id x_pos = b_.compare(Op::OpFOrdGreaterThan, x, zero_);
      const Id y_pos = b_.compare(Op::OpFOrdGreaterThan, y, zero_);
      const Id spec = b_.glsl(GLSLstd450Exp2, {b_.fmul(power, b_.glsl(GLSLstd450Log2, {y}))});
      const Id z = b_.select(b_.compare(Op::OpLogicalAnd, x_pos, y_pos), spec, zero_);
      const Id yy = b_.select(x_pos, x, zero_);
      return b_.composite_construct(t_v4_, {one_, yy, z, one_});
    }
    case Opcode::Dst: {
      const Id a = src(in, 0), c = src(in, 1);
      const Id y = b_.fmul(scalar(a, 1), scalar(c, 1));
      return b_.composite_construct(t_v4_, {one_, y, scalar(a, 2), scalar(c, 3)});
    }
    case Opcode::Lrp: {
      // s0 * s1 + (1 - s0) * s2 = s2 + s0 * (s1 - s2)
      const Id t = src(in, 0), a = src(in, 1), c = src(in, 2);
      return b_.fadd(c, b_.fmul(t, b_.fsub(a, c)));
    }
    case Opcode::Frc: {
      const Id x = src(in, 0);
      return b_.fsub(x, b_.glsl(GLSLstd450Floor, {x}));
    }
    case Opcode::M4x4: return matrix_product(in, 4, 4);
    case Opcode::M4x3: return matrix_product(in, 3, 4);
    case Opcode::M3x4: return matrix_product(in, 4, 3);
    case Opcode::M3x3: return matrix_product(in, 3, 3);
    case Opcode::M3x2: return matrix_product(in, 2, 3);
    case Opcode::Crs: {
      const Id a = src(in, 0), c = src(in, 1);
      const Id cr = b_.glsl(GLSLstd450Cross, {b_.swizzle(a, {0, 1, 2}), b_.swizzle(c, {0, 1, 2})});
      return b_.composite_construct(t_v4_, {cr, zero_});
    }
    case Opcode::Sgn: return b_.glsl(GLSLstd450FSign, {src(in, 0)});
    case Opcode::Abs: return b_.glsl(GLSLstd450FAbs, {src(in, 0)});
    case Opcode::Nrm: {
      // src * rsq(dot(src.xyz, src.xyz)), w included; a zero vector gives 0 (D3D9 hardware's
      // 0 * inf = 0 rule) instead of NaN.
      const Id v = src(in, 0);
      const Id xyz = b_.swizzle(v, {0, 1, 2});
      const Id len2 = b_.dot(xyz, xyz);
      const Id inv = b_.glsl(GLSLstd450InverseSqrt, {len2});
      const Id scale = b_.select(b_.compare(Op::OpFOrdEqual, len2, zero_), zero_, inv);
      return b_.vector_times_scalar(v, scale);
    }
    case Opcode::SinCos: {
      const Id x = scalar_src(in, 0);
      return b_.composite_construct(t_v4_, {b_.glsl(GLSLstd450Cos, {x}), b_.glsl(GLSLstd450Sin, {x}), zero_, zero_});
    }
    case Opcode::Dsx: return b_.op(Op::OpDPdx, t_v4_, {src(in, 0)});
    case Opcode::Dsy: return b_.op(Op::OpDPdy, t_v4_, {src(in, 0)});
    default: break;
  }
  unsupported_instruction(in);
}

}  // namespace novem::d3d9::translator
