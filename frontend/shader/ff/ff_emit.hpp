// What the two fixed-function generators share: the SpirvBuilder, the common types and the
// uniform block `vec4 v[N]` (ff_constants.hpp) with readers for vec4s and matrices.
// (Builder calls that emit code stay out of one argument list, so that the module's words do not
// depend on the compiler's argument evaluation order.)
#pragma once

#include <cstdint>

#include "spirv_builder.hpp"

namespace novem::ff {

struct Emitter {
  using Id = SpirvBuilder::Id;
  SpirvBuilder b;
  Id t_void = 0, t_bool = 0, t_int = 0, t_float = 0, t_vec2 = 0, t_vec3 = 0, t_vec4 = 0, t_mat4 = 0;
  Id block = 0;   // the uniform block variable

  Emitter() {
    b.capability(spv::Capability::Shader);
    t_void = b.type_void();
    t_bool = b.type_bool();
    t_int = b.type_int(32, true);
    t_float = b.type_float();
    t_vec2 = b.type_fvec(2);
    t_vec3 = b.type_fvec(3);
    t_vec4 = b.type_fvec(4);
    t_mat4 = b.type_mat4();
    // The constants most code uses, made first: later uses find them without allocating ids, so
    // that an argument list holding one of them and an instruction gives the same words whatever
    // order the compiler evaluates it in.
    for (float x : {0.0f, 0.5f, 1.0f, 2.0f, 4.0f, 255.0f}) {
      b.const_float(x);
      b.const_fvec({x, x, x});
      b.const_fvec({x, x, x, x});
    }
    for (int32_t i = 0; i <= 7; ++i) b.const_int(i);
  }

  // uniform <name> { vec4 v[count]; } at `set`, `binding`.
  void declare_block(uint32_t count, uint32_t set, uint32_t binding, const char* name) {
    const Id t_array = b.type_array(t_vec4, count, 16);
    const Id t_block = b.type_struct({t_array});
    b.name(t_block, name);
    b.member_name(t_block, 0, "v");
    b.decorate(t_block, spv::Decoration::Block);
    b.member_decorate(t_block, 0, spv::Decoration::Offset, {0});
    block = b.variable(spv::StorageClass::Uniform, t_block, "ff");
    b.decorate_binding(block, set, binding);
  }
  Id f(float x) { return b.const_float(x); }
  Id v4(float x, float y, float z, float w) { return b.const_fvec({x, y, z, w}); }
  Id v3(float x, float y, float z) { return b.const_fvec({x, y, z}); }
  Id uvec(uint32_t index) {   // v[index]
    const Id i = b.const_int(int32_t(index));
    return b.load(b.access_chain(block, {b.const_int(0), i}));
  }
  Id uvec_dynamic(Id index) { return b.load(b.access_chain(block, {b.const_int(0), index})); }
  Id umat(uint32_t index) {   // the mat4 whose columns are v[index .. index + 3]
    const Id c0 = uvec(index), c1 = uvec(index + 1), c2 = uvec(index + 2), c3 = uvec(index + 3);
    return b.composite_construct(t_mat4, {c0, c1, c2, c3});
  }
  Id umat_dynamic(Id index) {
    Id c[4];
    for (int i = 0; i < 4; ++i) c[i] = uvec_dynamic(b.iadd(index, b.const_int(i)));
    return b.composite_construct(t_mat4, {c[0], c[1], c[2], c[3]});
  }
  Id xyz(Id v) { return b.swizzle(v, {0, 1, 2}); }
  Id comp(Id v, uint32_t i) { return b.swizzle(v, {i}); }
  Id vec4_of(Id v3, Id w) { return b.composite_construct(t_vec4, {v3, w}); }
  Id splat4(Id s) { return b.splat(t_vec4, s); }
  Id splat3(Id s) { return b.splat(t_vec3, s); }
  Id clamp01(Id v) {
    const uint32_t n = b.component_count(b.type_of(v));
    const Id zero = n == 1 ? f(0.0f) : b.splat(b.type_fvec(n), f(0.0f));
    const Id one = n == 1 ? f(1.0f) : b.splat(b.type_fvec(n), f(1.0f));
    return b.glsl(GLSLstd450FClamp, {v, zero, one});
  }
  Id max0(Id s) { return b.glsl(GLSLstd450FMax, {s, f(0.0f)}); }
  Id input(uint32_t location, const char* name, Id type = 0) {
    const Id v = b.variable(spv::StorageClass::Input, type ? type : t_vec4, name);
    b.decorate_location(v, location);
    return v;
  }
  Id output(uint32_t location, const char* name, Id type = 0) {
    const Id v = b.variable(spv::StorageClass::Output, type ? type : t_vec4, name);
    b.decorate_location(v, location);
    return v;
  }
};

}  // namespace novem::ff
