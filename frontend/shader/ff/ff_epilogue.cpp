#include "ff_epilogue.hpp"

#include "ff_key.hpp"

namespace novem::ff {

using Id = SpirvBuilder::Id;

Id linear_fog(SpirvBuilder& b, Id d, Id start, Id end) {
  // FOGSTART == FOGEND fogs everything in D3D9 (where OpenGL turns fog off); the division alone
  // would give +-inf or NaN.
  const Id factor = b.fdiv(b.fsub(end, d), b.fsub(end, start));
  const Id same = b.compare(spv::Op::OpFOrdEqual, start, end);
  return b.select(same, b.const_float(0.0f), factor);
}

Id emit_fog(SpirvBuilder& b, Id color, uint8_t fog, bool fog_w, Id varying_factor, Id frag_coord, Id fog_color,
            Id params) {
  if (fog == kFogNone) return color;
  const Id t_vec3 = b.type_fvec(3);
  const Id one = b.const_float(1.0f);
  Id factor;
  if (fog == kFogVarying) {
    factor = varying_factor;
  } else {
    const Id d = fog_w ? b.fdiv(one, b.swizzle(frag_coord, {3})) : b.swizzle(frag_coord, {2});
    if (fog == kFogLinear) {
      const Id end = b.swizzle(params, {1});
      const Id start = b.swizzle(params, {0});
      factor = linear_fog(b, d, start, end);
    } else {
      Id x = b.fmul(d, b.swizzle(params, {2}));
      if (fog == kFogExp2) x = b.fmul(x, x);
      factor = b.glsl(GLSLstd450Exp, {b.fnegate(x)});
    }
  }
  factor = b.glsl(GLSLstd450FClamp, {factor, b.const_float(0.0f), one});
  const Id fog_rgb = b.swizzle(fog_color, {0, 1, 2});
  const Id rgb = b.swizzle(color, {0, 1, 2});
  const Id mixed = b.glsl(GLSLstd450FMix, {fog_rgb, rgb, b.splat(t_vec3, factor)});
  return b.composite_construct(b.type_fvec(4), {mixed, b.swizzle(color, {3})});
}

void emit_alpha_test(SpirvBuilder& b, Id color, uint8_t func, Id ref) {
  if (!func || func == 8 /* D3DCMP_ALWAYS */) return;
  const Id alpha = b.glsl(GLSLstd450FClamp, {b.swizzle(color, {3}), b.const_float(0.0f), b.const_float(1.0f)});
  const Id scaled = b.fmul(alpha, b.const_float(255.0f));
  const Id a8 = b.glsl(GLSLstd450Floor, {b.fadd(scaled, b.const_float(0.5f))});
  Id pass;
  switch (func) {   // D3DCMP_NEVER (1) .. GREATEREQUAL (7)
  case 1: pass = b.const_bool(false); break;
  case 2: pass = b.compare(spv::Op::OpFOrdLessThan, a8, ref); break;
  case 3: pass = b.compare(spv::Op::OpFOrdEqual, a8, ref); break;
  case 4: pass = b.compare(spv::Op::OpFOrdLessThanEqual, a8, ref); break;
  case 5: pass = b.compare(spv::Op::OpFOrdGreaterThan, a8, ref); break;
  case 6: pass = b.compare(spv::Op::OpFOrdNotEqual, a8, ref); break;
  default: pass = b.compare(spv::Op::OpFOrdGreaterThanEqual, a8, ref); break;
  }
  SpirvBuilder::If k = b.begin_if(b.logical_not(pass));
  b.kill();
  b.end_if(k);
}

void emit_clip_test(SpirvBuilder& b, Id clip0, Id clip1) {
  const Id zero = b.const_fvec({0.0f, 0.0f, 0.0f, 0.0f});
  Id outside = b.any(b.compare(spv::Op::OpFOrdLessThan, clip0, zero));
  if (clip1) {
    const Id more = b.any(b.compare(spv::Op::OpFOrdLessThan, clip1, zero));
    outside = b.compare(spv::Op::OpLogicalOr, outside, more);
  }
  SpirvBuilder::If k = b.begin_if(outside);
  b.kill();
  b.end_if(k);
}

}  // namespace novem::ff
