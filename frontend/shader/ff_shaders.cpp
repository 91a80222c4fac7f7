#include "ff_shaders.hpp"

#include "spirv_builder.hpp"

namespace novem {

namespace {

using Id = SpirvBuilder::Id;
using spv::BuiltIn;
using spv::Decoration;
using spv::StorageClass;

// Members of the FFVertexConstants block, in order.
enum : int32_t { kTransform = 0, kViewport = 1, kDepth = 2, kLitColor = 3 };

}  // namespace

std::vector<uint32_t> build_ff_vertex_shader(const FFVertexKey& key) {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);

  const Id t_void = b.type_void();
  const Id t_float = b.type_float();
  const Id t_vec4 = b.type_fvec(4);
  const Id t_mat4 = b.type_mat4();

  // uniform FFVertexConstants { mat4 transform; vec4 viewport; vec4 depth; vec4 lit_color; }
  const Id t_block = b.type_struct({t_mat4, t_vec4, t_vec4, t_vec4});
  b.name(t_block, "FFVertexConstants");
  b.member_name(t_block, kTransform, "transform");
  b.member_name(t_block, kViewport, "viewport");
  b.member_name(t_block, kDepth, "depth");
  b.member_name(t_block, kLitColor, "lit_color");
  b.decorate(t_block, Decoration::Block);
  b.member_decorate(t_block, kTransform, Decoration::ColMajor);
  b.member_decorate(t_block, kTransform, Decoration::Offset, {0});
  b.member_decorate(t_block, kTransform, Decoration::MatrixStride, {16});
  b.member_decorate(t_block, kViewport, Decoration::Offset, {64});
  b.member_decorate(t_block, kDepth, Decoration::Offset, {80});
  b.member_decorate(t_block, kLitColor, Decoration::Offset, {96});
  const Id ubo = b.variable(StorageClass::Uniform, t_block, "ff");
  b.decorate_binding(ubo, 0, 0);

  // out gl_PerVertex { vec4 gl_Position; float gl_PointSize; }
  const Id t_per_vertex = b.type_struct({t_vec4, t_float});
  b.name(t_per_vertex, "gl_PerVertex");
  b.member_name(t_per_vertex, 0, "gl_Position");
  b.member_name(t_per_vertex, 1, "gl_PointSize");
  b.decorate(t_per_vertex, Decoration::Block);
  b.member_decorate(t_per_vertex, 0, Decoration::BuiltIn, {static_cast<uint32_t>(BuiltIn::Position)});
  b.member_decorate(t_per_vertex, 1, Decoration::BuiltIn, {static_cast<uint32_t>(BuiltIn::PointSize)});
  const Id per_vertex = b.variable(StorageClass::Output, t_per_vertex);

  const Id in_position = b.variable(StorageClass::Input, t_vec4, "in_position");
  b.decorate_location(in_position, 0);
  Id in_color = 0;
  if (key.has_color) {
    in_color = b.variable(StorageClass::Input, t_vec4, "in_color");
    b.decorate_location(in_color, 1);
  }
  const Id out_color = b.variable(StorageClass::Output, t_vec4, "out_color");
  b.decorate_location(out_color, kFFColorLocation);
  Id in_texcoord = 0;
  if (key.has_texcoord) {
    in_texcoord = b.variable(StorageClass::Input, t_vec4, "in_texcoord0");
    b.decorate_location(in_texcoord, kFFTexcoordAttribute);
  }
  const Id out_texcoord = b.variable(StorageClass::Output, t_vec4, "out_texcoord0");
  b.decorate_location(out_texcoord, kFFTexcoordLocation);

  const Id main_fn = b.begin_function(t_void, {}, "main");
  const Id one = b.const_float(1.0f);
  const Id pos = b.load(in_position);

  Id clip;
  if (key.pretransformed) {
    // ndc.xy = (pos.xy - viewport.xy) * viewport.zw + (-1, +1); ndc.z = (pos.z - z0) * sz
    const Id vp = b.load(b.access_chain(ubo, {b.const_int(kViewport)}));
    const Id dp = b.load(b.access_chain(ubo, {b.const_int(kDepth)}));
    // (Each builder call on its own line: argument evaluation order is unspecified in C++, and
    // the module's bytes should not depend on the compiler.)
    const Id pos_xy = b.swizzle(pos, {0, 1});
    const Id origin = b.swizzle(vp, {0, 1});
    const Id scale = b.swizzle(vp, {2, 3});
    const Id bias = b.const_fvec({-1.0f, 1.0f});
    const Id ndc_xy = b.fadd(b.fmul(b.fsub(pos_xy, origin), scale), bias);
    const Id pos_z = b.swizzle(pos, {2});
    const Id z0 = b.swizzle(dp, {0});
    const Id sz = b.swizzle(dp, {1});
    const Id ndc_z = b.fmul(b.fsub(pos_z, z0), sz);
    // w = 1 / rhw, with rhw == 0 (undefined in D3D9) read as w = 1.
    const Id rhw = b.swizzle(pos, {3});
    const Id rhw_zero = b.compare(spv::Op::OpFOrdEqual, rhw, b.const_float(0.0f));
    const Id inv_rhw = b.fdiv(one, rhw);
    const Id w = b.select(rhw_zero, one, inv_rhw);
    const Id clip_xy = b.vector_times_scalar(ndc_xy, w);
    const Id clip_z = b.fmul(ndc_z, w);
    clip = b.composite_construct(t_vec4, {clip_xy, clip_z, w});
  } else {
    const Id m = b.load(b.access_chain(ubo, {b.const_int(kTransform)}));
    const Id xyz = b.swizzle(pos, {0, 1, 2});
    const Id p = b.composite_construct(t_vec4, {xyz, one});
    clip = b.matrix_times_vector(m, p);
  }

  Id color = key.has_color ? b.load(in_color) : b.const_fvec({1.0f, 1.0f, 1.0f, 1.0f});
  if (key.lighting && !key.pretransformed) {
    const Id lit = b.load(b.access_chain(ubo, {b.const_int(kLitColor)}));
    // rgb from the lit colour; alpha from the vertex when it has a colour.
    color = key.has_color ? b.vector_shuffle(lit, color, {0, 1, 2, 7}) : lit;
  }

  b.store(b.access_chain(per_vertex, {b.const_int(0)}), clip);
  b.store(b.access_chain(per_vertex, {b.const_int(1)}), one);
  b.store(out_color, color);
  const Id texcoord = key.has_texcoord ? b.load(in_texcoord) : b.const_fvec({0.0f, 0.0f, 0.0f, 1.0f});
  b.store(out_texcoord, texcoord);
  b.end_function();

  b.entry_point(spv::ExecutionModel::Vertex, main_fn, "main", b.interface_variables());
  return b.finish();
}

std::vector<uint32_t> build_ff_pixel_shader(bool textured) {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);
  const Id t_float = b.type_float();
  const Id t_vec4 = b.type_fvec(4);
  const Id in_color = b.variable(StorageClass::Input, t_vec4, "in_color");
  b.decorate_location(in_color, kFFColorLocation);
  const Id out_color = b.variable(StorageClass::Output, t_vec4, "out_color");
  b.decorate_location(out_color, 0);
  Id in_texcoord = 0, sampler = 0, t_sampled = 0;
  if (textured) {
    in_texcoord = b.variable(StorageClass::Input, t_vec4, "in_texcoord0");
    b.decorate_location(in_texcoord, kFFTexcoordLocation);
    const Id t_image = b.type_image(t_float, spv::Dim::Dim2D, 0, false, false, 1, spv::ImageFormat::Unknown);
    t_sampled = b.type_sampled_image(t_image);
    sampler = b.variable(StorageClass::UniformConstant, t_sampled, "s0");
    b.decorate_binding(sampler, 0, 16); // the pixel stage's slot 0
  }

  const Id main_fn = b.begin_function(b.type_void(), {}, "main");
  Id color = b.load(in_color);
  if (textured) {
    // Stage 0 as D3D9 sets it up: COLOROP MODULATE (TEXTURE, CURRENT), ALPHAOP SELECTARG1 (TEXTURE).
    const Id tc = b.load(in_texcoord);
    const Id uv = b.swizzle(tc, {0, 1});
    const Id s0 = b.load(sampler);
    const Id texel = b.op(spv::Op::OpImageSampleImplicitLod, t_vec4, {s0, uv});
    const Id modulated = b.fmul(texel, color);
    color = b.vector_shuffle(modulated, texel, {0, 1, 2, 7});
  }
  b.store(out_color, color);
  b.end_function();

  b.entry_point(spv::ExecutionModel::Fragment, main_fn, "main", b.interface_variables());
  b.execution_mode(main_fn, spv::ExecutionMode::OriginUpperLeft);
  return b.finish();
}

}  // namespace novem
