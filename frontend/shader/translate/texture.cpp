// Texture sampling of ps_2_0+ and vs_3_0: texld (plain, texldp, texldb), texldl, texldd; the
// samplers (declared on first use) and depth samplers (compared with a reference, D3D9's
// hardware shadow maps). ps_1_x's tex* family is in ps1x.cpp.
#include <initializer_list>
#include <string>

#include "conventions.hpp"
#include "translator.hpp"

namespace novem::d3d9::translator {

using spv::Op;
using spv::StorageClass;

Id Translator::sampler(uint32_t index) {
  auto it = samplers_.find(index);
  if (it != samplers_.end()) return it->second;
  const uint32_t limit = vs_ ? conv::kVertexSamplerCount : conv::kPixelSamplerCount;
  if (index >= limit) unsupported("sampler s" + std::to_string(index) + " out of range");
  SamplerType st = SamplerType::Tex2D;
  auto d = sampler_decl_.find(index);
  if (d != sampler_decl_.end() && d->second != SamplerType::Unknown) st = d->second;
  spv::Dim dim = spv::Dim::Dim2D;
  if (st == SamplerType::Cube) dim = spv::Dim::Cube;
  else if (st == SamplerType::Volume) dim = spv::Dim::Dim3D;
  // A 2D sampler the epilogue marks as a depth sampler reads a depth image with a reference.
  const bool depth = !vs_ && st == SamplerType::Tex2D && (epilogue_.depth_samplers >> index & 1u);
  const Id img = b_.type_image(t_f_, dim, depth ? 1 : 0, false, false, 1);
  const Id sim = b_.type_sampled_image(img);
  const Id var = b_.variable(StorageClass::UniformConstant, sim, "s" + std::to_string(index));
  b_.decorate_binding(var, vs_ ? conv::kVertexSamplerSet : conv::kPixelSamplerSet,
                      (vs_ ? conv::kVertexSamplerBindingBase : conv::kPixelSamplerBindingBase) + index);
  samplers_[index] = var;
  refl_.samplers_used |= 1u << index;
  refl_.sampler_types[index] = static_cast<uint8_t>(st);
  return var;
}

void Translator::emit_texture(const Instruction& in) {
  // texld/texldp/texldb: (dst, coord, sampler); texldl: (dst, coord, sampler);
  // texldd: (dst, coord, sampler, ddx, ddy).
  const SrcParam& s = in.src[1];
  if (s.type != RegType::Sampler) unsupported(in, "texture instruction without a sampler");
  const Id var = sampler(s.index);
  const SamplerType st = static_cast<SamplerType>(refl_.sampler_types[s.index]);
  const uint32_t n = (st == SamplerType::Cube || st == SamplerType::Volume) ? 3 : 2;
  Id coord4 = src(in, 0);
  auto slice = [&](Id v4) { return n == 2 ? b_.swizzle(v4, {0, 1}) : b_.swizzle(v4, {0, 1, 2}); };
  const Id sim = b_.load(var);
  const bool depth = depth_sampler(s.index);
  Id result = 0;
  if (in.opcode == Opcode::TexLdl) {
    if (depth)
      result = sample_depth(Op::OpImageSampleDrefExplicitLod, sim, coord4, spv::ImageOperandsMask::Lod, {scalar(coord4, 3)});
    else
      result = b_.image_sample(Op::OpImageSampleExplicitLod, t_v4_, sim, slice(coord4), 0,
                               spv::ImageOperandsMask::Lod, {scalar(coord4, 3)});
  } else if (in.opcode == Opcode::TexLdd) {
    const Id ddx = slice(src(in, 2));
    const Id ddy = slice(src(in, 3));
    if (depth)
      result = sample_depth(Op::OpImageSampleDrefExplicitLod, sim, coord4, spv::ImageOperandsMask::Grad, {ddx, ddy});
    else
      result = b_.image_sample(Op::OpImageSampleExplicitLod, t_v4_, sim, slice(coord4), 0,
                               spv::ImageOperandsMask::Grad, {ddx, ddy});
  } else {
    if (vs_) unsupported(in, "implicit-LOD texld in a vertex shader");
    // texldp divides the whole coordinate, so a depth sampler's reference is z / w.
    if (in.tex == TexKind::Project) coord4 = b_.fdiv(coord4, splat4(scalar(coord4, 3)));
    if (in.tex == TexKind::Bias)
      result = depth ? sample_depth(Op::OpImageSampleDrefImplicitLod, sim, coord4, spv::ImageOperandsMask::Bias,
                                    {scalar(coord4, 3)})
                     : b_.image_sample(Op::OpImageSampleImplicitLod, t_v4_, sim, slice(coord4), 0,
                                       spv::ImageOperandsMask::Bias, {scalar(coord4, 3)});
    else
      result = depth ? sample_depth(Op::OpImageSampleDrefImplicitLod, sim, coord4)
                     : b_.image_sample(Op::OpImageSampleImplicitLod, t_v4_, sim, slice(coord4));
  }
  write(in, apply_swizzle(result, s.swizzle));
}

bool Translator::depth_sampler(uint32_t index) const {
  return !vs_ && index < 16 && (epilogue_.depth_samplers >> index & 1u) &&
         static_cast<SamplerType>(refl_.sampler_types[index]) == SamplerType::Tex2D;
}

// A depth sampler (D3D9's shadow maps): the reference is the coordinate's z, clamped to [0, 1]
// as fixed-point depth is (DXVK's drefClamp); the comparison (1 or 0, filtered by the sampler)
// goes to every channel, as the vendors' drivers return it.
Id Translator::sample_depth(spv::Op op, Id sampled_image, Id coord4, spv::ImageOperandsMask mask,
                            std::initializer_list<Id> operands) {
  const Id reference = b_.glsl(GLSLstd450FClamp, {scalar(coord4, 2), zero_, one_});
  return splat4(b_.image_sample(op, t_f_, sampled_image, b_.swizzle(coord4, {0, 1}), reference, mask, operands));
}


}  // namespace novem::d3d9::translator
