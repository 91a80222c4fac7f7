// ps_1_x's own instructions: the texture-addressing family (tex, texcoord/texcrd, texreg2*,
// texbem/texbeml, the texm3x* matrices with their pads, texdp3*, texdepth) and bem. ps_1_1-1_3
// read the texture coordinate inputs directly, whatever t# holds; pads accumulate dot products
// for the texm3x2*/texm3x3* that follows.
#include <string>
#include <vector>

#include "translator.hpp"

namespace novem::d3d9::translator {

using spv::Op;

void Translator::emit_ps1x(const Instruction& in) {
  switch (in.opcode) {
    case Opcode::Tex:
      if (v_.minor >= 4) return write(in, sample_at(in.dst.index, src(in, 0)));   // texld rN, t#/r#
      return write(in, sample_at(in.dst.index, projected_texcoord(in, in.dst.index)));   // tex tN
    case Opcode::TexCoord: {
      if (v_.minor >= 4) {   // texcrd: the coordinate as is (w = 1)
        write(in, b_.composite_construct(t_v4_, {b_.swizzle(src(in, 0), {0, 1, 2}), one_}));
      } else {               // texcoord: (saturate(uvw), 1)
        const Id uvw = b_.swizzle(texcoord(in, in.dst.index), {0, 1, 2});
        const Id sat = b_.glsl(GLSLstd450FClamp, {uvw, b_.const_fvec({0, 0, 0}), b_.const_fvec({1, 1, 1})});
        write(in, b_.composite_construct(t_v4_, {sat, one_}));
      }
      return;
    }
    case Opcode::TexReg2AR: case Opcode::TexReg2GB: case Opcode::TexReg2RGB: {
      const Id v = src(in, 0);
      Id coord;
      if (in.opcode == Opcode::TexReg2AR) coord = b_.vector_shuffle(v, v, {3, 0, 2, 1});
      else if (in.opcode == Opcode::TexReg2GB) coord = b_.vector_shuffle(v, v, {1, 2, 0, 3});
      else coord = v;
      write(in, sample_at(in.dst.index, coord));
      return;
    }
    case Opcode::TexBem: case Opcode::TexBemL: {
      // u' = u(m) + M00(m) * t(n).r + M10(m) * t(n).g; v' = v(m) + M01(m) * t(n).r + M11(m) * t(n).g;
      // t(m) = sample(stage m, (u', v')); texbeml then multiplies by
      // t(n).b * LSCALE(m) + LOFFSET(m) (not clamped, as the SDK pages give it). A projected
      // stage m divides its coordinate before the perturbation is added.
      const uint32_t m = in.dst.index;
      const Id n = src(in, 0);
      const Id tc = projected_texcoord(in, m);
      const Id uv = b_.fadd(b_.swizzle(tc, {0, 1}), bump_offset(m, n));
      const Id coord = b_.composite_construct(t_v4_, {uv, scalar(tc, 2), scalar(tc, 3)});
      Id result = sample_at(m, coord);
      if (in.opcode == Opcode::TexBemL) {
        const Id lum = bumpenv(4, m);
        const Id l = b_.fadd(b_.fmul(scalar(n, 2), scalar(lum, 0)), scalar(lum, 1));
        result = b_.vector_times_scalar(result, l);
      }
      write(in, result);
      return;
    }
    case Opcode::Bem: {
      // dst.r = src0.r + M00(n) * src1.r + M10(n) * src1.g
      // dst.g = src0.g + M01(n) * src1.r + M11(n) * src1.g   (n = the destination register number)
      const Id a = src(in, 0), c = src(in, 1);
      const Id rg = b_.fadd(b_.swizzle(a, {0, 1}), bump_offset(in.dst.index, c));
      write(in, b_.composite_construct(t_v4_, {rg, zero_, zero_}));
      return;
    }
    case Opcode::TexM3x2Pad: case Opcode::TexM3x3Pad: {
      const Id n = src(in, 0);
      pad_values_.push_back(b_.dot(b_.swizzle(texcoord(in, in.dst.index), {0, 1, 2}), b_.swizzle(n, {0, 1, 2})));
      pad_regs_.push_back(in.dst.index);
      return;
    }
    case Opcode::TexM3x2Tex: case Opcode::TexM3x2Depth: case Opcode::TexM3x3Tex: case Opcode::TexM3x3:
    case Opcode::TexM3x3Spec: case Opcode::TexM3x3VSpec: case Opcode::TexDp3: case Opcode::TexDp3Tex: {
      const bool m3x2 = in.opcode == Opcode::TexM3x2Tex || in.opcode == Opcode::TexM3x2Depth;
      const bool dp3 = in.opcode == Opcode::TexDp3 || in.opcode == Opcode::TexDp3Tex;
      const size_t pads = dp3 ? 0 : m3x2 ? 1 : 2;
      if (pad_values_.size() != pads) unsupported(in, "texm3x* without its texm3x*pad instructions");
      const Id n = src(in, 0);
      const Id tc = texcoord(in, in.dst.index);
      const Id last = b_.dot(b_.swizzle(tc, {0, 1, 2}), b_.swizzle(n, {0, 1, 2}));
      std::vector<Id> pad = pad_values_;
      std::vector<uint32_t> pad_regs = pad_regs_;
      pad_values_.clear();
      pad_regs_.clear();
      switch (in.opcode) {
        case Opcode::TexDp3: write(in, splat4(last)); return;
        case Opcode::TexDp3Tex: write(in, sample_at(in.dst.index, b_.composite_construct(t_v4_, {last, zero_, zero_, zero_}))); return;
        case Opcode::TexM3x2Tex: write(in, sample_at(in.dst.index, b_.composite_construct(t_v4_, {pad[0], last, zero_, zero_}))); return;
        case Opcode::TexM3x2Depth: {
          // z / w, with w == 0 giving 1.0
          const Id q = b_.fdiv(pad[0], last);
          write_depth(b_.select(b_.compare(Op::OpFOrdEqual, last, zero_), one_, q));
          return;
        }
        case Opcode::TexM3x3: write(in, b_.composite_construct(t_v4_, {pad[0], pad[1], last, one_})); return;
        case Opcode::TexM3x3Tex: write(in, sample_at(in.dst.index, b_.composite_construct(t_v4_, {pad[0], pad[1], last, one_}))); return;
        default: break;
      }
      // Reflection of the eye vector about the normal: 2 * (N.E) / (N.N) * N - E.
      const Id normal = b_.composite_construct(b_.type_fvec(3), {pad[0], pad[1], last});
      Id eye;
      if (in.opcode == Opcode::TexM3x3Spec) {
        eye = b_.swizzle(src(in, 1), {0, 1, 2});
      } else {   // vspec: the eye vector is in the w of the three texture coordinate sets
        const Id e0 = scalar(texcoord(in, pad_regs[0]), 3);
        const Id e1 = scalar(texcoord(in, pad_regs[1]), 3);
        eye = b_.composite_construct(b_.type_fvec(3), {e0, e1, scalar(tc, 3)});
      }
      const Id ne = b_.dot(normal, eye);
      const Id nn = b_.dot(normal, normal);
      const Id k = b_.fdiv(b_.fmul(b_.const_float(2.0f), ne), nn);
      const Id r = b_.fsub(b_.vector_times_scalar(normal, k), eye);
      write(in, sample_at(in.dst.index, b_.composite_construct(t_v4_, {r, one_})));
      return;
    }
    case Opcode::TexDepth: {
      // r5.r / r5.g; g == 0 gives 1.0
      const Id v = b_.load(reg_pointer(in.dst.type, in.dst.index));
      const Id r = scalar(v, 0), g = scalar(v, 1);
      write_depth(b_.select(b_.compare(Op::OpFOrdEqual, g, zero_), one_, b_.fdiv(r, g)));
      return;
    }
    default: break;
  }
  unsupported_instruction(in);
}

// ps_1_x: an implicit-LOD sample of sampler N at coord4 (xy, or xyz for cube/volume).
Id Translator::sample_at(uint32_t sampler_index, Id coord4) {
  const Id var = sampler(sampler_index);
  const SamplerType st = static_cast<SamplerType>(refl_.sampler_types[sampler_index]);
  const Id coord = (st == SamplerType::Cube || st == SamplerType::Volume) ? b_.swizzle(coord4, {0, 1, 2})
                                                                          : b_.swizzle(coord4, {0, 1});
  const Id sim = b_.load(var);
  if (depth_sampler(sampler_index)) return sample_depth(Op::OpImageSampleDrefImplicitLod, sim, coord4);
  return b_.image_sample(Op::OpImageSampleImplicitLod, t_v4_, sim, coord);
}

// ps_1_1-1_3: texture coordinate set n (the interpolated input, whatever t# holds now).
Id Translator::texcoord(const Instruction& in, uint32_t n) {
  auto it = texcoord_vars_.find(n);
  if (it == texcoord_vars_.end()) unsupported(in, "texture coordinate " + std::to_string(n) + " is not an input");
  return it->second ? b_.load(it->second) : b_.const_fvec({0.0f, 0.0f, 0.0f, 0.0f}); // 0: nothing writes it
}

// ps_1_1-1_3: texture coordinate set n as `tex` and `texbem` read it, divided by the component
// stage n's D3DTTFF_PROJECTED names (the epilogue's projected bits), as D3D9 applies that state
// to these shader models.
Id Translator::projected_texcoord(const Instruction& in, uint32_t n) {
  const Id tc = texcoord(in, n);
  const uint32_t component = n < 4 ? epilogue_.projected >> (2 * n) & 3u : 0;
  return component ? b_.fdiv(tc, splat4(scalar(tc, component))) : tc;
}

void Translator::write_depth(Id depth) {
  const Id d = b_.glsl(GLSLstd450FClamp, {depth, zero_, one_});
  b_.store(reg_pointer(RegType::DepthOut, 0), splat4(d));
}

// Bump-environment state of texture stage `stage` (docs/shader-conventions.md, Uniforms).
Id Translator::bumpenv(uint32_t member, uint32_t stage) {
  const Id u = ubo();
  return b_.load(b_.access_chain(u, {b_.const_int(static_cast<int32_t>(member)),
                                     b_.const_int(static_cast<int32_t>(stage))}));
}

// (M00 * v.r + M10 * v.g, M01 * v.r + M11 * v.g) with bumpenv_mat[stage] = (M00, M01, M10, M11):
// the D3D9 texbem/texbeml/bem formula.
Id Translator::bump_offset(uint32_t stage, Id v) {
  const Id m = bumpenv(3, stage);
  const Id r = b_.splat(b_.type_fvec(2), scalar(v, 0));
  const Id g = b_.splat(b_.type_fvec(2), scalar(v, 1));
  const Id col0 = b_.swizzle(m, {0, 1});   // (M00, M01)
  const Id col1 = b_.swizzle(m, {2, 3});   // (M10, M11)
  return b_.fadd(b_.fmul(col0, r), b_.fmul(col1, g));
}

}  // namespace novem::d3d9::translator
