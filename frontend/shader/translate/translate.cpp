// D3D9 shader IR -> SPIR-V. See translate.hpp, README.md and docs/shader-conventions.md.
// This file: translate(), the prepass, register storage, constants, sources and destinations,
// the prologue and the output epilogue. The instructions are emitted by the files README.md lists.
#include "translate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conventions.hpp"
#include "ff_epilogue.hpp"
#include "spirv_builder.hpp"
#include "translator.hpp"

namespace novem::d3d9 {

namespace translator {

using spv::BuiltIn;
using spv::Decoration;
using spv::Op;
using spv::StorageClass;

// ---------------------------------------------------------------------------------------------
// Prepass: which registers exist, which files are relatively addressed, the subroutines.

void Translator::note_register(RegType t, uint32_t index, bool relative) {
  switch (t) {
    case RegType::Const: case RegType::ConstInt: case RegType::ConstBool: case RegType::Sampler:
    case RegType::Label: case RegType::Predicate: case RegType::Loop: return;
    default: break;
  }
  if (is_addr(t)) return;
  if (relative) relative_files_.insert(static_cast<uint8_t>(t));
  used_.insert(reg_key(t, index));
}

void Translator::prepass() {
  if (v_.is_ps() && v_.sm1()) {
    // r0 is the colour output of ps_1_x.
    used_.insert(reg_key(RegType::Temp, 0));
    written_.insert(reg_key(RegType::Temp, 0));
  }
  for (const ConstantDef& d : p_.definitions) {
    if (d.kind == ConstantDef::Kind::Float) fdefs_[d.index] = d.words;
    else if (d.kind == ConstantDef::Kind::Int) idefs_[d.index] = d.words;
    else bdefs_[d.index] = d.words[0] != 0;
  }
  for (const Declaration& d : p_.declarations) {
    if (d.reg.type == RegType::Sampler) {
      sampler_decl_[d.reg.index] = d.sampler_type;
      continue;
    }
    decls_[reg_key(d.reg.type, d.reg.index)] = &d;
  }
  // Segments: main up to its top-level ret; then label ... ret bodies.
  const auto& ins = p_.instructions;
  int depth = 0;
  size_t i = 0;
  main_.begin = 0;
  main_.end = ins.size();
  Segment* cur = &main_;
  for (; i < ins.size(); ++i) {
    const Instruction& in = ins[i];
    switch (in.opcode) {
      case Opcode::If: case Opcode::IfC: case Opcode::Loop: case Opcode::Rep: ++depth; break;
      case Opcode::EndIf: case Opcode::EndLoop: case Opcode::EndRep: --depth; break;
      case Opcode::Label: {
        if (depth != 0) unsupported(in, "label inside flow control");
        const uint32_t l = in.src[0].index;
        if (cur == &main_ && main_.end == ins.size()) main_.end = i;
        Segment s;
        s.begin = i + 1;
        s.end = ins.size();
        subs_[l] = s;
        cur = &subs_[l];
        break;
      }
      case Opcode::Ret:
        if (depth == 0) {
          if (cur == &main_ && main_.end == ins.size()) main_.end = i;
          else if (cur != &main_ && cur->end == ins.size()) cur->end = i;
        }
        break;
      case Opcode::Call: cur->calls.insert(in.src[0].index); break;
      case Opcode::CallNz: cur->calls.insert(in.src[0].index); break;
      default: break;
    }
  }
  for (const Instruction& in : ins) {
    if (in.has_dst) {
      note_register(in.dst.type, in.dst.index, in.dst.relative);
      if (!is_addr(in.dst.type)) written_.insert(reg_key(in.dst.type, in.dst.index));
    }
    const bool srcs_are_regs = in.opcode != Opcode::Call && in.opcode != Opcode::CallNz &&
                               in.opcode != Opcode::Label;
    if (srcs_are_regs)
      for (uint32_t k = 0; k < in.src_count; ++k) {
        const SrcParam& s = in.src[k];
        // m4x4 & co read consecutive rows of src1.
        uint32_t rows = 1;
        if (k == 1) {
          switch (in.opcode) {
            case Opcode::M4x4: case Opcode::M3x4: rows = 4; break;
            case Opcode::M4x3: case Opcode::M3x3: rows = 3; break;
            case Opcode::M3x2: rows = 2; break;
            default: break;
          }
        }
        for (uint32_t r = 0; r < rows; ++r) note_register(s.type, s.index + r, s.relative);
        if (s.type == RegType::Sampler) {
          refl_.samplers_used |= 1u << s.index;
        }
      }
    if (in.opcode == Opcode::TexKill) refl_.uses_kill = true;
    switch (in.opcode) {
      case Opcode::TexDepth: case Opcode::TexM3x2Depth:
        used_.insert(reg_key(RegType::DepthOut, 0));
        written_.insert(reg_key(RegType::DepthOut, 0));
        break;
      case Opcode::TexM3x3Tex: case Opcode::TexM3x3Spec: case Opcode::TexM3x3VSpec:
        // A 3-component lookup: a cube map (ps_1_x has no sampler dcl to say so).
        sampler_decl_[in.dst.index] = SamplerType::Cube;
        break;
      case Opcode::TexBem: case Opcode::TexBemL: case Opcode::Bem:
        if (vs_ || !v_.sm1()) unsupported(in, "bump-environment instruction outside ps_1_x");
        if (in.dst.index >= conv::kBumpEnvStageCount) unsupported(in, "bump-environment stage out of range");
        if (in.opcode == Opcode::Bem && (in.dst.type != RegType::Temp || in.dst.write_mask != 0x3))
          unsupported(in, "bem needs an r#.xy destination");
        break;
      default: break;
    }
  }
  // Relatively addressed input/output files take every declared register.
  for (uint8_t f : relative_files_) {
    const RegType t = static_cast<RegType>(f);
    if (t != RegType::Input && t != RegType::Output)
      unsupported("relative addressing of register file " + std::to_string(f));
    for (const auto& [key, d] : decls_)
      if ((key >> 32) == f) used_.insert(key);
    if (t == RegType::Input) any_relative_input_ = true;
  }
}

void Translator::declare_registers() {
  for (uint8_t f : relative_files_) {
    const RegType t = static_cast<RegType>(f);
    const uint32_t n = register_count(t, v_);
    const Id arr_t = b_.type_array(t_v4_, n);
    arrays_[f] = b_.variable(StorageClass::Private, arr_t, t == RegType::Input ? "v" : "o",
                             b_.const_null(arr_t));
    array_sizes_[f] = n;
  }
  for (uint64_t key : used_) {
    const RegType t = static_cast<RegType>(key >> 32);
    if (arrays_.count(static_cast<uint8_t>(t))) continue;
    const uint32_t index = static_cast<uint32_t>(key);
    vars_[key] = b_.variable(StorageClass::Private, t_v4_, register_name(t, index, v_), zero4_);
  }
}

Id Translator::reg_pointer(RegType t, uint32_t index, Id dynamic_index) {
  auto a = arrays_.find(static_cast<uint8_t>(t));
  if (a != arrays_.end()) {
    Id idx = dynamic_index ? dynamic_index : b_.const_int(static_cast<int32_t>(index));
    if (index >= array_sizes_[static_cast<uint8_t>(t)]) unsupported("register index out of range");
    return b_.access_chain(a->second, {idx});
  }
  auto it = vars_.find(reg_key(t, index));
  if (it == vars_.end()) unsupported("register " + register_name(t, index, v_) + " has no storage");
  return it->second;
}

Id Translator::rel_value(const RelAddr& r) {
  if (r.type == RegType::Loop) {
    if (!al_) unsupported("aL used outside of any loop");
    return b_.load(al_);
  }
  if (!a0_) unsupported("a0 used without being written");
  return b_.composite_extract(b_.load(a0_), {r.component()});
}

// index clamped into [0, size): out-of-range indices give 0 (and *in_range = false).
Id Translator::clamp_index(Id index, uint32_t size, Id* in_range) {
  const Id ge = b_.compare(Op::OpSGreaterThanEqual, index, b_.const_int(0));
  const Id lt = b_.compare(Op::OpSLessThan, index, b_.const_int(static_cast<int32_t>(size)));
  const Id ok = b_.compare(Op::OpLogicalAnd, ge, lt);
  if (in_range) *in_range = ok;
  return b_.select(ok, index, b_.const_int(0));
}

// ---------------------------------------------------------------------------------------------
// Constants.

Id Translator::ubo() {
  if (ubo_) return ubo_;
  const Id c_arr = b_.type_array(t_v4_, conv::kFloatConstantCount, 16);
  const Id i_arr = b_.type_array(t_iv4_, conv::kIntConstantCount, 16);
  const Id u_v4 = b_.type_uvec(4);
  const Id mat_arr = b_.type_array(t_v4_, conv::kBumpEnvStageCount, 16);
  const Id lum_arr = b_.type_array(t_v4_, conv::kBumpEnvStageCount, 16);
  const Id clip_arr = b_.type_array(t_v4_, conv::kClipPlaneCount, 16);
  const Id block = b_.type_struct({c_arr, i_arr, u_v4, mat_arr, lum_arr, t_v4_, t_v4_, clip_arr, t_v4_});
  b_.name(block, vs_ ? "D3D9VertexConstants" : "D3D9PixelConstants");
  b_.member_name(block, 0, "c");
  b_.member_name(block, 1, "i");
  b_.member_name(block, 2, "b");
  b_.member_name(block, 3, "bumpenv_mat");
  b_.member_name(block, 4, "bumpenv_lum");
  b_.member_name(block, 5, "fog_color");
  b_.member_name(block, 6, "fog");
  b_.member_name(block, 7, "clip_planes");
  b_.member_name(block, 8, "point");
  b_.decorate(block, Decoration::Block);
  b_.member_decorate(block, 0, Decoration::Offset, {conv::kFloatConstantOffset});
  b_.member_decorate(block, 1, Decoration::Offset, {conv::kIntConstantOffset});
  b_.member_decorate(block, 2, Decoration::Offset, {conv::kBoolConstantOffset});
  b_.member_decorate(block, 3, Decoration::Offset, {conv::kBumpEnvMatOffset});
  b_.member_decorate(block, 4, Decoration::Offset, {conv::kBumpEnvLumOffset});
  b_.member_decorate(block, 5, Decoration::Offset, {conv::kFogColorOffset});
  b_.member_decorate(block, 6, Decoration::Offset, {conv::kFogParamsOffset});
  b_.member_decorate(block, 7, Decoration::Offset, {conv::kClipPlaneOffset});
  b_.member_decorate(block, 8, Decoration::Offset, {conv::kPointOffset});
  ubo_ = b_.variable(StorageClass::Uniform, block, vs_ ? "vsc" : "psc");
  b_.decorate_binding(ubo_, vs_ ? conv::kVertexUniformSet : conv::kPixelUniformSet, refl_.uniform_binding);
  refl_.uses_uniforms = true;
  return ubo_;
}

Id Translator::software_constants() {
  if (software_constants_) return software_constants_;
  const Id c_arr = b_.type_array(t_v4_, conv::kSoftwareFloatConstantCount, 16);
  const Id i_arr = b_.type_array(t_iv4_, conv::kSoftwareIntConstantCount, 16);
  const Id b_arr = b_.type_array(b_.type_uvec(4), conv::kSoftwareBoolConstantCount / 128, 16);
  const Id block = b_.type_struct({c_arr, i_arr, b_arr});
  b_.name(block, "D3D9SoftwareVertexConstants");
  b_.member_name(block, 0, "c");
  b_.member_name(block, 1, "i");
  b_.member_name(block, 2, "b");
  // SPIR-V 1.0's storage buffer: a BufferBlock in the Uniform storage class, read-only.
  b_.decorate(block, Decoration::BufferBlock);
  const uint32_t offsets[] = {conv::kSoftwareFloatOffset, conv::kSoftwareIntOffset, conv::kSoftwareBoolOffset};
  for (uint32_t m = 0; m < 3; ++m) {
    b_.member_decorate(block, m, Decoration::Offset, {offsets[m]});
    b_.member_decorate(block, m, Decoration::NonWritable);
  }
  software_constants_ = b_.variable(StorageClass::Uniform, block, "vswc");
  b_.decorate_binding(software_constants_, conv::kVertexUniformSet, conv::kSoftwareConstantsBinding);
  refl_.uses_software_constants = true;
  return software_constants_;
}

Id Translator::float_const(const SrcParam& s, uint32_t offset) {
  const uint32_t index = s.index + offset;
  auto def_value = [&](const std::array<uint32_t, 4>& w) {
    return b_.const_fvec({bits_float(w[0]), bits_float(w[1]), bits_float(w[2]), bits_float(w[3])});
  };
  if (!s.relative) {
    auto it = fdefs_.find(index);
    if (it != fdefs_.end()) return def_value(it->second);
    const uint32_t file = p_.software_vertex ? conv::kSoftwareFloatConstantCount : conv::kFloatConstantCount;
    if (index >= file) unsupported("constant index out of range");
    const Id u = constant_file();
    return b_.load(b_.access_chain(u, {b_.const_int(0), b_.const_int(static_cast<int32_t>(index))}));
  }
  const Id dyn = b_.iadd(rel_value(s.rel), b_.const_int(static_cast<int32_t>(index)));
  Id in_range = 0;
  // The device's file: reads past it (a pixel stage's c224.., a hardware vertex stage's c256..,
  // a software one's c8192..) give 0.
  const uint32_t file = std::min<uint32_t>(register_count(RegType::Const, v_, p_.software_vertex),
                                           p_.software_vertex ? conv::kSoftwareFloatConstantCount : conv::kFloatConstantCount);
  const Id safe = clamp_index(dyn, file, &in_range);
  const Id u = constant_file();
  Id v = b_.load(b_.access_chain(u, {b_.const_int(0), safe}));
  for (const auto& [k, w] : fdefs_) {
    const Id hit = b_.compare(Op::OpIEqual, dyn, b_.const_int(static_cast<int32_t>(k)));
    v = b_.select(splat4(hit), def_value(w), v);
  }
  return b_.select(splat4(in_range), v, zero4_);
}

Id Translator::int_const(uint32_t index) {
  auto it = idefs_.find(index);
  if (it != idefs_.end()) {
    const auto& w = it->second;
    return b_.const_composite(t_iv4_, {b_.const_int(static_cast<int32_t>(w[0])), b_.const_int(static_cast<int32_t>(w[1])),
                                        b_.const_int(static_cast<int32_t>(w[2])), b_.const_int(static_cast<int32_t>(w[3]))});
  }
  const Id u = constant_file();
  return b_.load(b_.access_chain(u, {b_.const_int(1), b_.const_int(static_cast<int32_t>(index))}));
}

Id Translator::bool_const(uint32_t index) {
  auto it = bdefs_.find(index);
  if (it != bdefs_.end()) return b_.const_bool(it->second);
  Id word;
  if (p_.software_vertex) {   // bit n % 32 of word n / 32: uvec4 b[n / 128], component n / 32 % 4
    const Id element = b_.load(b_.access_chain(software_constants(), {b_.const_int(2), b_.const_int(static_cast<int32_t>(index / 128))}));
    word = b_.composite_extract(element, {index / 32 % 4});
    index %= 32;
  } else {
    word = b_.load(b_.access_chain(ubo(), {b_.const_int(2), b_.const_int(0)}));
  }
  const Id shifted = b_.binary(Op::OpShiftRightLogical, word, b_.const_uint(index));
  const Id bit = b_.binary(Op::OpBitwiseAnd, shifted, b_.const_uint(1));
  return b_.compare(Op::OpINotEqual, bit, b_.const_uint(0));
}

// ---------------------------------------------------------------------------------------------
// Sources.

Id Translator::load_src_raw(const SrcParam& s, uint32_t offset) {
  switch (s.type) {
    case RegType::Const: {
      const Id c = float_const(s, offset);
      if (!(v_.is_ps() && v_.sm1())) return c;
      // ps_1_x reads constants clamped to [-1, 1].
      return b_.glsl(GLSLstd450FClamp, {c, b_.const_fvec({-1.0f, -1.0f, -1.0f, -1.0f}),
                                        b_.const_fvec({1.0f, 1.0f, 1.0f, 1.0f})});
    }
    case RegType::Loop: {
      if (!al_) unsupported("aL read outside of any loop");
      return splat4(b_.convert(Op::OpConvertSToF, t_f_, b_.load(al_)));
    }
    case RegType::ConstInt: case RegType::ConstBool: case RegType::Sampler: case RegType::Label:
    case RegType::Predicate: case RegType::Const2: case RegType::Const3: case RegType::Const4:
    case RegType::TempFloat16:
      unsupported("register file " + std::to_string(static_cast<int>(s.type)) + " read as a value");
    default: break;
  }
  if (is_addr(s.type)) unsupported("a0 read as a value");
  Id dyn = 0;
  if (s.relative) {
    const uint8_t f = static_cast<uint8_t>(s.type);
    dyn = clamp_index(b_.iadd(rel_value(s.rel), b_.const_int(static_cast<int32_t>(s.index + offset))),
                      array_sizes_[f]);
  }
  return b_.load(reg_pointer(s.type, s.index + offset, dyn));
}

Id Translator::apply_swizzle(Id v, uint8_t swizzle) {
  if (swizzle == kSwizzleIdentity) return v;
  return b_.vector_shuffle(v, v, {swizzle_component(swizzle, 0), swizzle_component(swizzle, 1),
                                  swizzle_component(swizzle, 2), swizzle_component(swizzle, 3)});
}

Id Translator::apply_mod(Id v, SrcMod mod, const Instruction& in) {
  const Id half = b_.const_fvec({0.5f, 0.5f, 0.5f, 0.5f});
  const Id one = b_.const_fvec({1.0f, 1.0f, 1.0f, 1.0f});
  const Id two = b_.const_fvec({2.0f, 2.0f, 2.0f, 2.0f});
  switch (mod) {
    case SrcMod::None: return v;
    case SrcMod::Neg: return b_.fnegate(v);
    case SrcMod::Bias: return b_.fsub(v, half);
    case SrcMod::BiasNeg: return b_.fnegate(b_.fsub(v, half));
    case SrcMod::Sign: return b_.fsub(b_.fmul(v, two), one);
    case SrcMod::SignNeg: return b_.fnegate(b_.fsub(b_.fmul(v, two), one));
    case SrcMod::Comp: return b_.fsub(one, v);
    case SrcMod::X2: return b_.fmul(v, two);
    case SrcMod::X2Neg: return b_.fnegate(b_.fmul(v, two));
    case SrcMod::Dz: return b_.fdiv(v, splat4(scalar(v, 2)));
    case SrcMod::Dw: return b_.fdiv(v, splat4(scalar(v, 3)));
    case SrcMod::Abs: return b_.glsl(GLSLstd450FAbs, {v});
    case SrcMod::AbsNeg: return b_.fnegate(b_.glsl(GLSLstd450FAbs, {v}));
    case SrcMod::Not: break;
  }
  unsupported(in, "source modifier 'not' on a value");
}

Id Translator::src(const Instruction& in, int i, uint32_t offset) {
  const SrcParam& s = in.src[static_cast<size_t>(i)];
  return apply_mod(apply_swizzle(load_src_raw(s, offset), s.swizzle), s.mod, in);
}

Id Translator::predicate_vec(const SrcParam& p) {
  if (!p0_) unsupported("p0 read before any setp");
  Id v = apply_swizzle(b_.load(p0_), p.swizzle);
  if (p.mod == SrcMod::Not) v = b_.logical_not(v);
  return v;
}

Id Translator::predicate_scalar(const SrcParam& p) {
  if (!p0_) unsupported("p0 read before any setp");
  Id v = b_.composite_extract(b_.load(p0_), {swizzle_component(p.swizzle, 0)});
  if (p.mod == SrcMod::Not) v = b_.logical_not(v);
  return v;
}

Id Translator::merge(Id old_value, Id new_value, uint8_t mask) {
  if ((mask & 0xF) == 0xF) return new_value;
  return b_.vector_shuffle(old_value, new_value, {(mask & 1) ? 4u : 0u, (mask & 2) ? 5u : 1u,
                                                  (mask & 4) ? 6u : 2u, (mask & 8) ? 7u : 3u});
}

Id Translator::dst_pointer(const DstParam& d) {
  Id dyn = 0;
  if (d.relative) {
    const uint8_t f = static_cast<uint8_t>(d.type);
    dyn = clamp_index(b_.iadd(rel_value(d.rel), b_.const_int(static_cast<int32_t>(d.index))), array_sizes_[f]);
  }
  return reg_pointer(d.type, d.index, dyn);
}

void Translator::write(const Instruction& in, Id value) {
  if (defer_writes_) {   // ps_1_x co-issue: both instructions read their sources first
    deferred_.push_back({in, value});
    return;
  }
  const DstParam& d = in.dst;
  if (d.shift != 0) {
    const float scale = std::ldexp(1.0f, d.shift);
    value = b_.vector_times_scalar(value, b_.const_float(scale));
  }
  if (d.saturate) value = b_.glsl(GLSLstd450FClamp, {value, zero4_, b_.const_fvec({1.0f, 1.0f, 1.0f, 1.0f})});
  const Id ptr = dst_pointer(d);
  if (d.write_mask == kMaskAll && !in.predicated) {
    b_.store(ptr, value);
    return;
  }
  const Id old = b_.load(ptr);
  Id merged = merge(old, value, d.write_mask);
  if (in.predicated) merged = b_.select(predicate_vec(in.predicate), merged, old);
  b_.store(ptr, merged);
}

void Translator::write_addr(const Instruction& in, Id value, bool round) {
  if (round) value = b_.fadd(value, b_.const_fvec({0.5f, 0.5f, 0.5f, 0.5f}));
  const Id iv = b_.convert(Op::OpConvertFToS, t_iv4_, b_.glsl(GLSLstd450Floor, {value}));
  const Id old = b_.load(a0_);
  Id merged = merge(old, iv, in.dst.write_mask);
  if (in.predicated) merged = b_.select(predicate_vec(in.predicate), merged, old);
  b_.store(a0_, merged);
}

// ---------------------------------------------------------------------------------------------
// Interface.

void Translator::emit_prologue() {
  if (sprite_coord_) {
    const Id pc = b_.load(point_coord_);
    b_.store(sprite_coord_, b_.composite_construct(t_v4_, {b_.swizzle(pc, {0}), b_.swizzle(pc, {1}), zero_, one_}));
  }
  for (const InputCopy& c : input_copies_) {
    const RegType t = static_cast<RegType>(c.key >> 32);
    const uint32_t index = static_cast<uint32_t>(c.key);
    Id value;
    if (t == RegType::Misc && index == kMiscPosition) {
      // vPos: pixel coordinates with integer centres.
      value = b_.fsub(b_.load(c.var), b_.const_fvec({0.5f, 0.5f, 0.0f, 0.0f}));
    } else if (t == RegType::Misc && index == kMiscFace) {
      value = splat4(b_.select(b_.load(c.var), one_, b_.const_float(-1.0f)));
    } else if (!c.var) {
      // An input nothing writes: a colour reads opaque black, as DXVK and Microsoft's D3D9On12
      // default it; anything else 0.
      value = b_.const_fvec({0.0f, 0.0f, 0.0f, c.color ? 1.0f : 0.0f});
    } else {
      value = b_.load(c.var);
      if (vs_ && t == RegType::Input && index < 16 && (vertex_epilogue_.w_one_inputs >> index & 1u))
        value = b_.composite_insert(one_, value, {3});
    }
    b_.store(reg_pointer(t, index), value);
  }
}

// Fog (ps_1_x/ps_2_x) and the alpha test on colour 0, as D3D9 applies them after the shader
// (the same code as the fixed-function pixel shader's, ff_epilogue.hpp).
Id Translator::apply_pixel_epilogue(Id color, bool fog, Id fog_var) {
  if (fog) {
    const Id factor = fog_var ? scalar(b_.load(fog_var), 0) : zero_;
    const Id frag_coord = frag_coord_ ? b_.load(frag_coord_) : 0;
    const Id fog_color = b_.load(b_.access_chain(ubo(), {b_.const_int(5)}));
    const Id params = b_.load(b_.access_chain(ubo(), {b_.const_int(6)}));
    color = ff::emit_fog(b_, color, epilogue_.fog, epilogue_.fog_w != 0, factor, frag_coord, fog_color, params);
  }
  if (epilogue_.alpha_func && epilogue_.alpha_func != 8) {
    const Id params = b_.load(b_.access_chain(ubo(), {b_.const_int(6)}));
    ff::emit_alpha_test(b_, color, epilogue_.alpha_func, scalar(params, 3));
  }
  return color;
}

void Translator::emit_epilogue_function() {
  struct Reg {
    RegType type = RegType::Temp;
    uint32_t index = 0;
    bool valid = false;
  };
  struct Copy {
    Reg from;    // Private register (its pointer is made inside the function)
    Id to;       // Output variable
    bool saturate;
    bool scalar_x;
  };
  std::vector<Copy> copies;
  Id color0_var = 0;   // a pixel shader's colour output 0
  Reg position_from, psize_from;
  auto output_var = [&](uint32_t location, const std::string& name) {
    const Id var = b_.variable(StorageClass::Output, t_v4_, name);
    b_.decorate_location(var, location);
    return var;
  };
  std::set<uint32_t> locations;
  auto add_output = [&](RegType t, uint32_t reg, uint8_t usage, uint8_t index, bool saturate) {
    const Reg from{t, reg, true};
    ShaderReflection::Output o;
    o.reg = reg;
    o.type = t;
    o.usage = usage;
    o.usage_index = index;
    if (usage == conv::kUsagePosition && index == 0) {
      position_from = from;
      o.location = ShaderReflection::kBuiltin;
      refl_.outputs.push_back(o);
      return;
    }
    const int32_t loc = conv::interface_location(usage, index);
    if (loc < 0)
      unsupported(std::string("output ") + register_name(t, reg, v_) + " has usage " +
                  (usage_name(usage) ? usage_name(usage) : "?") + std::to_string(index) +
                  ", which has no interface location");
    if (!locations.insert(static_cast<uint32_t>(loc)).second)
      unsupported("two outputs with the same usage " + std::string(usage_name(usage) ? usage_name(usage) : "?") +
                  std::to_string(index));
    if (usage == conv::kUsagePSize) psize_from = from;
    o.location = static_cast<uint32_t>(loc);
    refl_.outputs.push_back(o);
    copies.push_back({from, output_var(o.location, register_name(t, reg, v_) + "_out"), saturate, false});
  };

  if (vs_) {
    if (v_.major >= 3) {
      for (const Declaration& d : p_.declarations) {
        if (d.reg.type != RegType::Output) continue;
        const uint64_t key = reg_key(RegType::Output, d.reg.index);
        if (!written_.count(key) && !relative_files_.count(static_cast<uint8_t>(RegType::Output))) continue;
        add_output(RegType::Output, d.reg.index, d.usage, d.usage_index,
                   false);
      }
    } else {
      for (uint64_t key : written_) {
        const RegType t = static_cast<RegType>(key >> 32);
        const uint32_t index = static_cast<uint32_t>(key);
        if (t == RegType::RastOut) {
          if (index == kRastOutPos) add_output(t, index, conv::kUsagePosition, 0, false);
          else if (index == kRastOutFog) add_output(t, index, conv::kUsageFog, 0, false);
          else add_output(t, index, conv::kUsagePSize, 0, false);
        } else if (t == RegType::AttrOut) {
          // oD# are clamped to [0, 1] before interpolation in vs_1_1/2_x.
          add_output(t, index, conv::kUsageColor, static_cast<uint8_t>(index), true);
        } else if (t == RegType::Output) {
          add_output(t, index, conv::kUsageTexcoord, static_cast<uint8_t>(index), false);
        }
      }
    }
    // gl_PerVertex { Position; PointSize }
    const Id t_pv = b_.type_struct({t_v4_, t_f_});
    b_.name(t_pv, "gl_PerVertex");
    b_.member_name(t_pv, 0, "gl_Position");
    b_.member_name(t_pv, 1, "gl_PointSize");
    b_.decorate(t_pv, Decoration::Block);
    b_.member_decorate(t_pv, 0, Decoration::BuiltIn, {static_cast<uint32_t>(BuiltIn::Position)});
    b_.member_decorate(t_pv, 1, Decoration::BuiltIn, {static_cast<uint32_t>(BuiltIn::PointSize)});
    per_vertex_ = b_.variable(StorageClass::Output, t_pv);
    refl_.writes_point_size = psize_from.valid;
  } else if (v_.sm1()) {
    refl_.color_outputs = 1;
    color0_var = output_var(0, "oC0");
    copies.push_back({Reg{RegType::Temp, 0, true}, color0_var, false, false});
  } else {
    for (uint64_t key : written_) {
      const RegType t = static_cast<RegType>(key >> 32);
      const uint32_t index = static_cast<uint32_t>(key);
      if (t == RegType::ColorOut) {
        if (index >= conv::kColorOutputCount) unsupported("oC" + std::to_string(index) + " out of range");
        refl_.color_outputs |= 1u << index;
        const Id var = output_var(index, "oC" + std::to_string(index));
        if (index == 0) color0_var = var;
        copies.push_back({Reg{t, index, true}, var, false, false});
      }
    }
  }

  Id depth_var = 0;
  if (!vs_ && written_.count(reg_key(RegType::DepthOut, 0)) && !epilogue_.drop_depth) {
    depth_var = b_.variable(StorageClass::Output, t_f_, "oDepth");
    b_.decorate_builtin(depth_var, BuiltIn::FragDepth);
    refl_.writes_depth = true;
  }

  // The pixel epilogue's inputs (fog) are declared with the other globals.
  const bool fog = !vs_ && v_.major < 3 && epilogue_.fog;
  const bool alpha_test = !vs_ && epilogue_.alpha_func && epilogue_.alpha_func != 8;
  Id fog_var = 0;
  if (fog && epilogue_.fog == 1 && epilogue_.fog_input) {
    fog_var = b_.variable(StorageClass::Input, t_v4_, "fog_in");
    b_.decorate_location(fog_var, conv::kLocationFog);
  }
  if (fog && epilogue_.fog >= 2 && !frag_coord_) {
    frag_coord_ = b_.variable(StorageClass::Input, t_v4_, "gl_FragCoord");
    b_.decorate_builtin(frag_coord_, BuiltIn::FragCoord);
  }
  const bool clip_test = !vs_ && epilogue_.clip_planes;
  Id clip_in[2] = {};
  if (clip_test) {
    clip_in[0] = b_.variable(StorageClass::Input, t_v4_, "clip0_in");
    b_.decorate_location(clip_in[0], conv::kLocationClipDistance0);
    if (epilogue_.clip_planes & 0x30u) {
      clip_in[1] = b_.variable(StorageClass::Input, t_v4_, "clip1_in");
      b_.decorate_location(clip_in[1], conv::kLocationClipDistance1);
    }
  }
  const bool clip_out = vs_ && vertex_epilogue_.clip_planes;
  Id clip_var[2] = {};
  if (clip_out) {
    clip_var[0] = output_var(conv::kLocationClipDistance0, "clip0_out");
    if (vertex_epilogue_.clip_planes & 0x30u) clip_var[1] = output_var(conv::kLocationClipDistance1, "clip1_out");
  }
  if (fog || alpha_test || clip_out) ubo();

  epilogue_fn_ = b_.begin_function(t_void_, {}, "store_outputs");
  if (clip_test) {
    // D3D9's user clip planes with shaders: outside an enabled plane nothing is drawn.
    const Id c0 = b_.load(clip_in[0]);
    const Id c1 = clip_in[1] ? b_.load(clip_in[1]) : 0;
    ff::emit_clip_test(b_, c0, c1);
  }
  for (const Copy& c : copies) {
    Id v = b_.load(reg_pointer(c.from.type, c.from.index));
    if (c.saturate) v = b_.glsl(GLSLstd450FClamp, {v, zero4_, b_.const_fvec({1.0f, 1.0f, 1.0f, 1.0f})});
    if (!vs_ && c.to == color0_var && (fog || alpha_test)) v = apply_pixel_epilogue(v, fog, fog_var);
    b_.store(c.to, v);
  }
  if (vs_) {
    const Id position = position_from.valid ? b_.load(reg_pointer(position_from.type, position_from.index)) : zero4_;
    b_.store(b_.access_chain(per_vertex_, {b_.const_int(0)}), position);
    if (clip_out) {
      // Clip-space planes: distance = dot(position, plane); planes not enabled give +1.
      Id d[8];
      for (uint32_t i = 0; i < 8; ++i) {
        if (i < conv::kClipPlaneCount && (vertex_epilogue_.clip_planes >> i & 1u)) {
          const Id plane = b_.load(b_.access_chain(ubo(), {b_.const_int(7), b_.const_int(int32_t(i))}));
          d[i] = b_.dot(position, plane);
        } else {
          d[i] = one_;
        }
      }
      b_.store(clip_var[0], b_.composite_construct(t_v4_, {d[0], d[1], d[2], d[3]}));
      if (clip_var[1]) b_.store(clip_var[1], b_.composite_construct(t_v4_, {d[4], d[5], d[6], d[7]}));
    }
    Id size = psize_from.valid ? scalar(b_.load(reg_pointer(psize_from.type, psize_from.index)), 0) : one_;
    if (vertex_epilogue_.point_size) {
      const Id point = b_.load(b_.access_chain(ubo(), {b_.const_int(8)}));
      if (!psize_from.valid) size = scalar(point, 0);
      size = b_.glsl(GLSLstd450FClamp, {size, scalar(point, 1), scalar(point, 2)});
    }
    b_.store(b_.access_chain(per_vertex_, {b_.const_int(1)}), size);
  }
  if (depth_var) b_.store(depth_var, scalar(b_.load(reg_pointer(RegType::DepthOut, 0)), 0));
  b_.end_function();
}

// ---------------------------------------------------------------------------------------------

Translation Translator::run() {
  Translation out;
  refl_.vertex = vs_;
  refl_.version = v_;
  refl_.uniform_binding = vs_ ? conv::kVertexUniformBinding : conv::kPixelUniformBinding;
  try {
    prepass();
    b_.capability(spv::Capability::Shader);
    t_void_ = b_.type_void();
    t_f_ = b_.type_float();
    t_v4_ = b_.type_fvec(4);
    t_i_ = b_.type_int(32, true);
    t_iv4_ = b_.type_ivec(4);
    t_u_ = b_.type_int(32, false);
    t_bool_ = b_.type_bool();
    t_bv4_ = b_.type_bvec(4);
    zero_ = b_.const_float(0.0f);
    one_ = b_.const_float(1.0f);
    zero4_ = b_.const_fvec({0.0f, 0.0f, 0.0f, 0.0f});

    declare_registers();
    // a0, aL, p0.
    for (const Instruction& in : p_.instructions) {
      if (in.has_dst && is_addr(in.dst.type)) a0_ = 1;
      if (in.opcode == Opcode::SetP) p0_ = 1;
      if (in.opcode == Opcode::Loop) al_ = 1;
    }
    if (a0_) a0_ = b_.variable(StorageClass::Private, t_iv4_, "a0", b_.const_null(t_iv4_));
    if (p0_) p0_ = b_.variable(StorageClass::Private, t_bv4_, "p0", b_.const_null(t_bv4_));
    if (al_) al_ = b_.variable(StorageClass::Private, t_i_, "aL", b_.const_int(0));

    // Inputs.
    for (uint64_t key : used_) {
      const RegType t = static_cast<RegType>(key >> 32);
      const uint32_t index = static_cast<uint32_t>(key);
      const bool input_file = t == RegType::Input || is_ps_texture(t) || t == RegType::Misc;
      if (!input_file) continue;
      if (t == RegType::Misc) {
        if (vs_) unsupported("misc register in a vertex shader");
        if (index == kMiscPosition) {
          const Id var = b_.variable(StorageClass::Input, t_v4_, "gl_FragCoord");
          b_.decorate_builtin(var, BuiltIn::FragCoord);
          frag_coord_ = var;
          input_copies_.push_back({key, var});
          refl_.uses_position = true;
        } else {
          const Id var = b_.variable(StorageClass::Input, t_bool_, "gl_FrontFacing");
          b_.decorate_builtin(var, BuiltIn::FrontFacing);
          input_copies_.push_back({key, var});
          refl_.uses_face = true;
        }
        continue;
      }
      auto d = decls_.find(key);
      ShaderReflection::Input ri;
      ri.reg = index;
      ri.type = t;
      if (d != decls_.end()) {
        ri.usage = d->second->usage;
        ri.usage_index = d->second->usage_index;
        ri.centroid = d->second->reg.centroid;
      }
      if (vs_) {
        ri.location = index;
      } else if (v_.major >= 3) {
        if (d == decls_.end()) unsupported("input " + register_name(t, index, v_) + " read without dcl");
        const int32_t loc = conv::interface_location(ri.usage, ri.usage_index, true);
        if (loc < 0) unsupported("input " + register_name(t, index, v_) + " has a usage with no interface location");
        ri.location = static_cast<uint32_t>(loc);
      } else {
        // ps_2_x: tN = TEXCOORD N, vN = COLOR N.
        ri.usage = t == RegType::Input ? conv::kUsageColor : conv::kUsageTexcoord;
        ri.usage_index = static_cast<uint8_t>(index);
        ri.location = static_cast<uint32_t>(conv::interface_location(ri.usage, ri.usage_index, true));
      }
      for (const auto& other : refl_.inputs)
        if (other.location == ri.location)
          unsupported("two inputs share the interface location " + std::to_string(ri.location));
      // Point sprites replace the texture coordinates: the prologue fills sprite_coord_.
      if (!vs_ && epilogue_.point_sprite && ri.usage == conv::kUsageTexcoord) {
        if (!sprite_coord_) {
          point_coord_ = b_.variable(StorageClass::Input, b_.type_fvec(2), "gl_PointCoord");
          b_.decorate_builtin(point_coord_, BuiltIn::PointCoord);
          sprite_coord_ = b_.variable(StorageClass::Private, t_v4_, "sprite_coord", zero4_);
        }
        refl_.inputs.push_back(ri);
        input_copies_.push_back({key, sprite_coord_});
        if (is_ps_texture(t)) texcoord_vars_[index] = sprite_coord_;
        continue;
      }
      // An input nothing feeds (the declaration lacks it, or no vertex stage writes it) is no
      // input of the stage: the prologue writes zero.
      const bool missing = vs_ ? t == RegType::Input && index < 16 && (vertex_epilogue_.missing_inputs >> index & 1u)
                               : ri.location < 32 && (epilogue_.missing_inputs >> ri.location & 1u);
      if (missing) {
        refl_.inputs.push_back(ri);
        input_copies_.push_back({key, 0, !vs_ && ri.usage == conv::kUsageColor});
        if (is_ps_texture(t)) texcoord_vars_[index] = 0;
        continue;
      }
      const Id var = b_.variable(StorageClass::Input, t_v4_, register_name(t, index, v_) + "_in");
      b_.decorate_location(var, ri.location);
      if (!vs_ && epilogue_.flat && ri.usage == conv::kUsageColor) b_.decorate(var, Decoration::Flat);
      else if (ri.centroid && !vs_) b_.decorate(var, Decoration::Centroid);
      refl_.inputs.push_back(ri);
      input_copies_.push_back({key, var});
      if (is_ps_texture(t)) texcoord_vars_[index] = var;
    }

    emit_epilogue_function();
    std::set<uint32_t> done, active;
    for (const auto& [label, seg] : subs_) emit_function(label, done, active);
    const Id main_fn = b_.begin_function(t_void_, {}, "main");
    emit_prologue();
    emit_segment(main_, true);
    if (b_.block_open()) b_.function_call(epilogue_fn_, {});
    b_.end_function();
    b_.entry_point(vs_ ? spv::ExecutionModel::Vertex : spv::ExecutionModel::Fragment, main_fn, "main",
                   b_.interface_variables());
    if (!vs_) {
      b_.execution_mode(main_fn, spv::ExecutionMode::OriginUpperLeft);
      if (refl_.writes_depth) b_.execution_mode(main_fn, spv::ExecutionMode::DepthReplacing);
    }
    // Samplers declared but never sampled keep type info for the reflection.
    for (const auto& [index, st] : sampler_decl_)
      if (index < 16 && !refl_.sampler_types[index])
        refl_.sampler_types[index] = static_cast<uint8_t>(st == SamplerType::Unknown ? SamplerType::Tex2D : st);
    for (uint32_t i = 0; i < 16; ++i)
      if ((refl_.samplers_used >> i & 1u) && !refl_.sampler_types[i])
        refl_.sampler_types[i] = static_cast<uint8_t>(SamplerType::Tex2D);
    if (!b_.ok()) unsupported("SPIR-V builder: " + b_.error());
    out.spirv = b_.finish();
    if (out.spirv.empty()) unsupported("SPIR-V builder produced no module");
  } catch (const Unsupported& u) {
    out.spirv.clear();
    out.error = v_.name() + ": " + u.message;
  }
  out.reflection = refl_;
  return out;
}

}  // namespace translator

Translation translate(const Program& program, const PixelEpilogue& epilogue, const VertexEpilogue& vertex_epilogue) {
  translator::Translator t(program, epilogue, vertex_epilogue);
  return t.run();
}

uint64_t shader_hash(const uint32_t* tokens, size_t count) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < count; ++i)
    for (int k = 0; k < 4; ++k) {
      h ^= (tokens[i] >> (8 * k)) & 0xFFu;
      h *= 0x100000001b3ull;
    }
  return h;
}

}  // namespace novem::d3d9
