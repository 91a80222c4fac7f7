// SpirvBuilder: header words, id bound, deduplication, type inference, error handling, and
// modules using every kind of helper the D3D9 translator needs (structured control flow,
// relative addressing, images, GLSL.std.450, functions) validated, cross-compiled and run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <set>

#include "spirv_builder.hpp"
#include "spirv_interp.hpp"
#include "spirv_test_support.hpp"

using novem::SpirvBuilder;
using Id = SpirvBuilder::Id;
using spv::Decoration;
using spv::Op;
using spv::StorageClass;

namespace {

size_t count_op(const std::vector<uint32_t>& words, Op op) {
  std::vector<novem::test::Instruction> insts;
  REQUIRE(novem::test::parse_instructions(words, insts));
  return static_cast<size_t>(std::count_if(insts.begin(), insts.end(), [op](const auto& i) {
    return i.opcode == static_cast<uint32_t>(op);
  }));
}

// A minimal valid vertex shader around whatever the caller declared.
void finish_minimal_vertex(SpirvBuilder& b) {
  b.capability(spv::Capability::Shader);
  const Id pos = b.variable(StorageClass::Output, b.type_fvec(4), "pos");
  b.decorate_builtin(pos, spv::BuiltIn::Position);
  const Id fn = b.begin_function(b.type_void(), {}, "main");
  b.store(pos, b.const_fvec({0, 0, 0, 1}));
  b.end_function();
  b.entry_point(spv::ExecutionModel::Vertex, fn, "main", b.interface_variables());
}

void require_valid(const std::vector<uint32_t>& words, const char* name) {
  REQUIRE(!words.empty());
  novem::test::dump_module(name, words);
  const auto vk = novem::test::validate(words, SPV_ENV_VULKAN_1_0);
  INFO(name << " (Vulkan 1.0): " << (vk.empty() ? std::string() : vk.front()));
  CHECK(vk.empty());
  const auto gl = novem::test::validate(words, SPV_ENV_OPENGL_4_5);
  INFO(name << " (OpenGL 4.5): " << (gl.empty() ? std::string() : gl.front()));
  CHECK(gl.empty());
  const auto glsl = novem::test::cross_to_glsl(words);
  INFO(glsl.text);
  CHECK(glsl.ok);
}

}  // namespace

TEST_CASE("SpirvBuilder: header words and id bound", "[shader][builder]") {
  SpirvBuilder b;
  finish_minimal_vertex(b);
  REQUIRE(b.ok());
  const auto words = b.finish();
  REQUIRE(words.size() > 5);
  CHECK(words[0] == 0x07230203u);  // magic
  CHECK(words[1] == 0x00010000u);  // SPIR-V 1.0
  CHECK(words[2] == 0u);           // generator
  CHECK(words[3] == b.id_bound());
  CHECK(words[4] == 0u);           // schema

  std::vector<novem::test::Instruction> insts;
  REQUIRE(novem::test::parse_instructions(words, insts));
  std::set<uint32_t> ids;
  uint32_t max_id = 0;
  for (const auto& inst : insts) {
    const uint32_t id = novem::test::result_id(inst);
    if (!id) continue;
    CHECK(ids.insert(id).second);  // each id defined once
    max_id = std::max(max_id, id);
  }
  CHECK(max_id < words[3]);
  CHECK(max_id + 1 == words[3]);  // nothing allocated and left unused here
  // Layout: capability first, memory model before the entry point.
  CHECK(insts.front().opcode == static_cast<uint32_t>(Op::OpCapability));
  CHECK(insts[1].opcode == static_cast<uint32_t>(Op::OpMemoryModel));
  CHECK(insts[2].opcode == static_cast<uint32_t>(Op::OpEntryPoint));
  require_valid(words, "builder_minimal");

  SpirvBuilder v13(0x00010300u);
  finish_minimal_vertex(v13);
  CHECK(v13.finish()[1] == 0x00010300u);
}

TEST_CASE("SpirvBuilder: types are deduplicated", "[shader][builder]") {
  SpirvBuilder b;
  const Id f = b.type_float();
  CHECK(b.type_float(32) == f);
  CHECK(b.type_fvec(1) == f);
  const Id v4 = b.type_vector(f, 4);
  CHECK(b.type_fvec(4) == v4);
  CHECK(b.type_vector(f, 3) != v4);
  CHECK(b.type_mat4() == b.type_matrix(v4, 4));
  CHECK(b.type_int(32, true) != b.type_int(32, false));
  CHECK(b.type_ivec(1) == b.type_int(32, true));
  CHECK(b.type_bool() == b.type_bvec(1));
  CHECK(b.type_void() == b.type_void());
  CHECK(b.type_pointer(StorageClass::Input, v4) == b.type_pointer(StorageClass::Input, v4));
  CHECK(b.type_pointer(StorageClass::Input, v4) != b.type_pointer(StorageClass::Output, v4));
  const Id params[] = {f, v4};
  CHECK(b.type_function(f, params) == b.type_function(f, params));
  CHECK(b.type_function(f) != b.type_function(f, params));
  CHECK(b.type_function(f, {f, v4}) == b.type_function(f, params));
  // Arrays: by element, length and stride; the stride is decorated once.
  const Id a16 = b.type_array(v4, 8, 16);
  CHECK(b.type_array(v4, 8, 16) == a16);
  const Id a0 = b.type_array(v4, 8);
  CHECK(a0 != a16);
  CHECK(b.type_array(v4, 4, 16) != a16);
  // Structs are never shared.
  CHECK(b.type_struct({v4, f}) != b.type_struct({v4, f}));
  const Id img = b.type_image(f, spv::Dim::Dim2D, 0, false, false, 1);
  CHECK(b.type_image(f, spv::Dim::Dim2D, 0, false, false, 1) == img);
  CHECK(b.type_image(f, spv::Dim::Cube, 0, false, false, 1) != img);
  CHECK(b.type_sampled_image(img) == b.type_sampled_image(img));

  const SpirvBuilder::TypeInfo* info = b.type_info(v4);
  REQUIRE(info);
  CHECK(info->op == Op::OpTypeVector);
  CHECK(info->component == f);
  CHECK(info->count == 4);
  CHECK(b.component_count(v4) == 4);
  CHECK(b.component_count(f) == 1);
  CHECK(b.scalar_type(v4) == f);

  finish_minimal_vertex(b);
  const auto words = b.finish();
  CHECK(count_op(words, Op::OpTypeFloat) == 1);
  CHECK(count_op(words, Op::OpTypeInt) == 2);        // int and uint (array lengths)
  CHECK(count_op(words, Op::OpTypeVector) == 2);     // vec4, vec3
  CHECK(count_op(words, Op::OpTypeArray) == 3);
  CHECK(count_op(words, Op::OpTypeStruct) == 2);
  CHECK(count_op(words, Op::OpTypeVoid) == 1);
  CHECK(count_op(words, Op::OpDecorate) == 3);       // ArrayStride of the two strided arrays + BuiltIn
  require_valid(words, "builder_types");
}

TEST_CASE("SpirvBuilder: constants are deduplicated by type and bits", "[shader][builder]") {
  SpirvBuilder b;
  const Id one = b.const_float(1.0f);
  CHECK(b.const_float(1.0f) == one);
  CHECK(b.const_float(0.0f) != b.const_float(-0.0f));
  CHECK(b.const_int(1) != b.const_uint(1));
  CHECK(b.const_int(1) == b.const_int(1));
  CHECK(b.const_uint(7) == b.const_uint(7));
  CHECK(b.const_bool(true) == b.const_bool(true));
  CHECK(b.const_bool(true) != b.const_bool(false));
  const Id v = b.const_fvec({1, 2, 3, 4});
  CHECK(b.const_fvec({1, 2, 3, 4}) == v);
  CHECK(b.const_fvec({1, 2, 3, 5}) != v);
  CHECK(b.const_fvec({1.0f}) == one);
  CHECK(b.type_of(v) == b.type_fvec(4));
  CHECK(b.type_of(one) == b.type_float());
  CHECK(b.const_null(b.type_fvec(4)) == b.const_null(b.type_fvec(4)));
  const Id parts[] = {one, one};
  CHECK(b.const_composite(b.type_fvec(2), parts) == b.const_fvec({1, 1}));

  uint32_t bits = 0;
  REQUIRE(b.constant_value(b.const_int(-3), bits));
  CHECK(static_cast<int32_t>(bits) == -3);
  REQUIRE(b.constant_value(one, bits));
  CHECK(bits == std::bit_cast<uint32_t>(1.0f));
  CHECK_FALSE(b.constant_value(v, bits));

  finish_minimal_vertex(b);
  const auto words = b.finish();
  // 1, 0, -0, 2, 3, 4, 5 (floats) + int 1, int -3, uint 1, uint 7 + (0, 0, 0, 1) reuses 0 and 1.
  CHECK(count_op(words, Op::OpConstant) == 11);
  CHECK(count_op(words, Op::OpConstantTrue) == 1);
  CHECK(count_op(words, Op::OpConstantFalse) == 1);
  require_valid(words, "builder_constants");
}

TEST_CASE("SpirvBuilder: strings are nul-terminated and padded", "[shader][builder]") {
  SpirvBuilder b;
  const Id t = b.type_float();
  b.name(t, "abcd");       // 4 bytes: a whole word of padding after it
  b.name(b.type_int(32, true), "abcde");
  finish_minimal_vertex(b);
  const auto words = b.finish();
  std::vector<novem::test::Instruction> insts;
  REQUIRE(novem::test::parse_instructions(words, insts));
  int found = 0;
  for (const auto& i : insts) {
    if (i.opcode != static_cast<uint32_t>(Op::OpName)) continue;
    const std::string s = novem::test::literal_string(i, 1);
    if (s == "abcd") {
      CHECK(i.operands.size() == 3);
      CHECK(i.operands[2] == 0u);
      ++found;
    } else if (s == "abcde") {
      CHECK(i.operands.size() == 3);
      ++found;
    } else if (s == "main") {
      CHECK(i.operands.size() == 3);
    }
  }
  CHECK(found == 2);
  require_valid(words, "builder_strings");
}

TEST_CASE("SpirvBuilder: result types are inferred", "[shader][builder]") {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);
  const Id f = b.type_float();
  const Id v2 = b.type_fvec(2);
  const Id v3 = b.type_fvec(3);
  const Id v4 = b.type_fvec(4);
  const Id m4 = b.type_mat4();
  const Id block = b.type_struct({m4, b.type_array(v4, 4, 16)});
  b.decorate(block, Decoration::Block);
  b.member_decorate(block, 0, Decoration::ColMajor);
  b.member_decorate(block, 0, Decoration::Offset, {0});
  b.member_decorate(block, 0, Decoration::MatrixStride, {16});
  b.member_decorate(block, 1, Decoration::Offset, {64});
  const Id ubo = b.variable(StorageClass::Uniform, block, "ubo");
  b.decorate_binding(ubo, 0, 0);
  const Id pos = b.variable(StorageClass::Output, v4, "pos");
  b.decorate_builtin(pos, spv::BuiltIn::Position);

  const Id fn = b.begin_function(b.type_void(), {}, "main");
  const Id pm = b.access_chain(ubo, {b.const_int(0)});
  CHECK(b.type_of(pm) == b.type_pointer(StorageClass::Uniform, m4));
  const Id m = b.load(pm);
  CHECK(b.type_of(m) == m4);
  const Id pc = b.access_chain(ubo, {b.const_int(1), b.const_int(2)});
  CHECK(b.type_of(pc) == b.type_pointer(StorageClass::Uniform, v4));
  const Id pcx = b.access_chain(ubo, {b.const_int(1), b.const_int(2), b.const_uint(0)});
  CHECK(b.type_of(pcx) == b.type_pointer(StorageClass::Uniform, f));
  const Id c = b.load(pc);
  CHECK(b.type_of(b.composite_extract(m, {1})) == v4);
  CHECK(b.type_of(b.composite_extract(m, {1, 2})) == f);
  CHECK(b.type_of(b.swizzle(c, {2, 1, 0})) == v3);
  CHECK(b.type_of(b.swizzle(c, {3})) == f);
  CHECK(b.type_of(b.vector_shuffle(c, c, {0, 7})) == v2);
  CHECK(b.type_of(b.dot(c, c)) == f);
  CHECK(b.type_of(b.matrix_times_vector(m, c)) == v4);
  CHECK(b.type_of(b.vector_times_matrix(c, m)) == v4);
  CHECK(b.type_of(b.matrix_times_matrix(m, m)) == m4);
  CHECK(b.type_of(b.transpose(m)) == m4);
  CHECK(b.type_of(b.compare(Op::OpFOrdLessThan, c, c)) == b.type_bvec(4));
  CHECK(b.type_of(b.compare(Op::OpFOrdLessThan, b.swizzle(c, {0}), b.const_float(0))) == b.type_bool());
  CHECK(b.type_of(b.any(b.compare(Op::OpFOrdLessThan, c, c))) == b.type_bool());
  CHECK(b.type_of(b.select(b.const_bool(true), c, c)) == v4);  // scalar condition splatted
  CHECK(b.type_of(b.glsl(GLSLstd450Length, {c})) == f);
  CHECK(b.type_of(b.glsl(GLSLstd450FClamp, {c, c, c})) == v4);
  CHECK(b.type_of(b.glsl(GLSLstd450Determinant, {m})) == f);
  CHECK(b.type_of(b.convert(Op::OpConvertFToS, b.type_ivec(4), c)) == b.type_ivec(4));
  CHECK(b.type_of(b.vector_extract_dynamic(c, b.const_int(1))) == f);
  CHECK(b.type_of(b.splat(v4, b.const_float(2))) == v4);
  b.store(pos, b.matrix_times_vector(m, c));
  b.end_function();
  b.entry_point(spv::ExecutionModel::Vertex, fn, "main", b.interface_variables());
  REQUIRE(b.ok());
  require_valid(b.finish(), "builder_inference");
}

TEST_CASE("SpirvBuilder: misuse is recorded and finish() returns nothing", "[shader][builder]") {
  {
    SpirvBuilder b;
    b.capability(spv::Capability::Shader);
    b.fadd(b.const_float(1), b.const_float(2));  // no function open
    CHECK_FALSE(b.ok());
    CHECK_FALSE(b.error().empty());
    CHECK(b.finish().empty());
  }
  {
    SpirvBuilder b;
    b.begin_function(b.type_void());
    CHECK(b.finish().empty());  // function still open
    b.end_function();
    CHECK(b.ok());
    CHECK_FALSE(b.finish().empty());
  }
  {
    SpirvBuilder b;
    b.begin_function(b.type_void());
    b.load(b.const_float(1));  // not a pointer
    CHECK_FALSE(b.ok());
    b.end_function();
    CHECK(b.finish().empty());
  }
  {
    SpirvBuilder b;
    const Id s = b.type_struct({b.type_float()});
    const Id v = b.variable(StorageClass::Private, s);
    b.begin_function(b.type_void());
    const Id dynamic = b.load(b.variable(StorageClass::Private, b.type_int(32, true)));
    b.access_chain(v, {dynamic});  // struct index must be a constant
    CHECK_FALSE(b.ok());
    b.end_function();
  }
}

// A fragment shader with everything the D3D9 translator will use: structured loops with break
// and continue, nested selections, kill, relative addressing into a constant array, a private
// register file, a combined image sampler (implicit lod, explicit lod, Dref), GLSL.std.450,
// a called subroutine, and code emitted after terminators.
TEST_CASE("SpirvBuilder: a translator-like fragment shader validates and cross-compiles",
          "[shader][builder]") {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);
  const Id t_void = b.type_void();
  const Id f = b.type_float();
  const Id i32 = b.type_int(32, true);
  const Id v4 = b.type_fvec(4);
  const Id iv4 = b.type_ivec(4);

  // uniform block (pixel stage: set 0, binding 1): vec4 c[8]; ivec4 i[2]; float b_flags
  const Id consts = b.type_struct({b.type_array(v4, 8, 16), b.type_array(iv4, 2, 16)});
  b.name(consts, "PSConstants");
  b.decorate(consts, Decoration::Block);
  b.member_decorate(consts, 0, Decoration::Offset, {0});
  b.member_decorate(consts, 1, Decoration::Offset, {128});
  const Id ubo = b.variable(StorageClass::Uniform, consts, "ps");
  b.decorate_binding(ubo, 0, 1);

  const Id t_img = b.type_image(f, spv::Dim::Dim2D, 0, false, false, 1);
  const Id t_simg = b.type_sampled_image(t_img);
  const Id s0 = b.variable(StorageClass::UniformConstant, t_simg, "s0");
  b.decorate_binding(s0, 0, 2);
  const Id t_dimg = b.type_image(f, spv::Dim::Dim2D, 1, false, false, 1);
  const Id s1 = b.variable(StorageClass::UniformConstant, b.type_sampled_image(t_dimg), "s1");
  b.decorate_binding(s1, 0, 3);

  const Id regs = b.variable(StorageClass::Private, b.type_array(v4, 4), "r");  // no stride
  const Id in_tc = b.variable(StorageClass::Input, v4, "t0");
  b.decorate_location(in_tc, 0);
  const Id out_c = b.variable(StorageClass::Output, v4, "oC0");
  b.decorate_location(out_c, 0);

  // A subroutine: vec4 twice(vec4 x) { return x + x; }
  const Id twice = b.begin_function(v4, {v4}, "twice");
  b.ret_value(b.fadd(b.function_param(0), b.function_param(0)));
  b.end_function();

  const Id fn = b.begin_function(t_void, {}, "main");
  const Id acc = b.function_variable(v4, "acc", b.const_null(v4));
  const Id loop_i = b.function_variable(i32, "aL");
  b.store(loop_i, b.const_int(0));
  const Id tc = b.load(in_tc);

  // texkill: if (any(t0.xyz < 0)) discard;
  {
    const Id neg = b.any(b.compare(Op::OpFOrdLessThan, b.swizzle(tc, {0, 1, 2}), b.const_fvec({0, 0, 0})));
    auto c = b.begin_if(neg);
    b.kill();
    b.end_if(c);
  }

  // loop aL, i0: acc += c[aL]; with breakc and a continue
  auto loop = b.begin_loop();
  {
    const Id i = b.load(loop_i);
    const Id count = b.load(b.access_chain(ubo, {b.const_int(1), b.const_int(0), b.const_uint(0)}));
    b.break_if(loop, b.compare(Op::OpSGreaterThanEqual, i, count));
    const Id ci = b.load(b.access_chain(ubo, {b.const_int(0), i}));  // relative addressing
    auto skip = b.begin_if(b.compare(Op::OpFOrdLessThan, b.swizzle(ci, {3}), b.const_float(0)));
    b.loop_continue(loop);
    b.end_if(skip);
    b.store(acc, b.fadd(b.load(acc), ci));
    // an inner loop that always breaks, with code after the break (a dead block)
    auto inner = b.begin_loop(spv::LoopControlMask::DontUnroll);
    b.loop_break(inner);
    b.store(acc, b.const_null(v4));
    b.end_loop(inner);
    b.begin_continue(loop);
    b.store(loop_i, b.iadd(b.load(loop_i), b.const_int(1)));
  }
  b.end_loop(loop);

  // if / else with both branches returning values through a register
  const Id r1 = b.access_chain(regs, {b.const_int(1)});
  {
    auto c = b.begin_if(b.compare(Op::OpFOrdGreaterThan, b.swizzle(b.load(acc), {0}), b.const_float(1)), true);
    b.store(r1, b.glsl(GLSLstd450FClamp, {b.load(acc), b.const_fvec({0, 0, 0, 0}), b.const_fvec({1, 1, 1, 1})}));
    b.begin_else(c);
    b.store(r1, b.glsl(GLSLstd450Normalize, {b.load(acc)}));
    b.end_if(c);
  }

  // texld, texldl (explicit lod), a depth compare, texldd (grad)
  const Id uv = b.swizzle(tc, {0, 1});
  const Id sampler = b.load(s0);
  Id color = b.image_sample(Op::OpImageSampleImplicitLod, v4, sampler, uv);
  color = b.fadd(color, b.image_sample(Op::OpImageSampleExplicitLod, v4, sampler, uv, 0,
                                       spv::ImageOperandsMask::Lod, {b.const_float(0)}));
  color = b.fadd(color, b.image_sample(Op::OpImageSampleExplicitLod, v4, sampler, uv, 0,
                                       spv::ImageOperandsMask::Grad,
                                       {b.const_fvec({0.1f, 0}), b.const_fvec({0, 0.1f})}));
  color = b.fadd(color, b.image_sample(Op::OpImageSampleProjImplicitLod, v4, sampler, b.swizzle(tc, {0, 1, 3})));
  const Id shadow = b.image_sample(Op::OpImageSampleDrefImplicitLod, f, b.load(s1), uv, b.swizzle(tc, {2}));
  color = b.vector_times_scalar(color, shadow);
  color = b.fadd(color, b.load(r1));

  // predication-like per-component select, dynamic component insert/extract, a call
  const Id pred = b.compare(Op::OpFOrdGreaterThan, color, b.const_fvec({0.5f, 0.5f, 0.5f, 0.5f}));
  color = b.select(pred, color, b.function_call(twice, {color}));
  const Id k = b.convert(Op::OpConvertFToS, i32, b.swizzle(tc, {3}));
  color = b.vector_insert_dynamic(color, b.vector_extract_dynamic(color, k), b.const_int(0));
  color = b.composite_insert(b.glsl(GLSLstd450Fract, {b.swizzle(color, {3})}), color, {3});
  color = b.vector_shuffle(color, b.composite_construct(v4, {uv, uv}), {0, 1, 4, 7});
  b.store(out_c, color);
  b.ret();
  b.store(out_c, color);  // dead code after ret: its own unreachable block
  b.end_function();

  b.entry_point(spv::ExecutionModel::Fragment, fn, "main", b.interface_variables());
  b.execution_mode(fn, spv::ExecutionMode::OriginUpperLeft);
  INFO(b.error());
  REQUIRE(b.ok());
  const auto words = b.finish();
  CHECK(count_op(words, Op::OpLoopMerge) == 2);
  CHECK(count_op(words, Op::OpKill) == 1);
  CHECK(count_op(words, Op::OpExtInstImport) == 1);
  require_valid(words, "builder_fragment");
}

// A vertex shader whose control flow the CPU interpreter runs: nested loops, break_if,
// continue, if/else; the numbers prove the helpers branch where they should.
TEST_CASE("SpirvBuilder: structured control flow computes the right values", "[shader][builder]") {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);
  const Id f = b.type_float();
  const Id i32 = b.type_int(32, true);
  const Id v4 = b.type_fvec(4);
  const Id iv4 = b.type_ivec(4);
  const Id consts = b.type_struct({b.type_array(v4, 4, 16), iv4});
  b.decorate(consts, Decoration::Block);
  b.member_decorate(consts, 0, Decoration::Offset, {0});
  b.member_decorate(consts, 1, Decoration::Offset, {64});
  const Id ubo = b.variable(StorageClass::Uniform, consts, "vs");
  b.decorate_binding(ubo, 0, 0);
  const Id pos = b.variable(StorageClass::Output, v4, "position");
  b.decorate_builtin(pos, spv::BuiltIn::Position);
  const Id out0 = b.variable(StorageClass::Output, v4, "o0");
  b.decorate_location(out0, 0);
  const Id out1 = b.variable(StorageClass::Output, v4, "o1");
  b.decorate_location(out1, 1);

  const Id fn = b.begin_function(b.type_void(), {}, "main");
  const Id acc = b.function_variable(v4, "acc", b.const_null(v4));
  const Id i_var = b.function_variable(i32, "i", b.const_int(0));
  const Id inner_count = b.function_variable(f, "inner", b.const_float(0));
  const Id n = b.load(b.access_chain(ubo, {b.const_int(1), b.const_uint(0)}));
  const Id skip = b.load(b.access_chain(ubo, {b.const_int(1), b.const_uint(1)}));

  auto loop = b.begin_loop();
  {
    const Id i = b.load(i_var);
    b.break_if(loop, b.compare(Op::OpSGreaterThanEqual, i, n));
    auto c = b.begin_if(b.compare(Op::OpIEqual, i, skip));
    b.loop_continue(loop);
    b.end_if(c);
    b.store(acc, b.fadd(b.load(acc), b.load(b.access_chain(ubo, {b.const_int(0), i}))));
    // inner: j = 0; loop { if (j >= i) break; inner += 1; j++ }
    const Id j_var = b.function_variable(i32, "j");
    b.store(j_var, b.const_int(0));
    auto inner = b.begin_loop();
    b.break_if(inner, b.compare(Op::OpSGreaterThanEqual, b.load(j_var), i));
    b.store(inner_count, b.fadd(b.load(inner_count), b.const_float(1)));
    b.begin_continue(inner);
    b.store(j_var, b.iadd(b.load(j_var), b.const_int(1)));
    b.end_loop(inner);
    b.begin_continue(loop);
    b.store(i_var, b.iadd(b.load(i_var), b.const_int(1)));
  }
  b.end_loop(loop);

  const Id total = b.load(acc);
  {
    auto c = b.begin_if(b.compare(Op::OpFOrdGreaterThan, b.swizzle(total, {0}), b.const_float(5)), true);
    b.store(out1, b.const_fvec({1, 0, 0, 0}));
    b.begin_else(c);
    b.store(out1, b.const_fvec({2, 0, 0, 0}));
    b.end_if(c);
  }
  const Id o1 = b.load(out1);
  b.store(out1, b.composite_insert(b.load(inner_count), o1, {1}));
  b.store(out0, total);
  b.store(pos, b.const_fvec({0, 0, 0, 1}));
  b.end_function();
  b.entry_point(spv::ExecutionModel::Vertex, fn, "main", b.interface_variables());
  INFO(b.error());
  REQUIRE(b.ok());
  const auto words = b.finish();
  require_valid(words, "builder_control_flow");

  struct Consts {
    float c[4][4];
    int32_t i[4];
  } data{{{1, 2, 3, 4}, {10, 20, 30, 40}, {100, 200, 300, 400}, {1000, 2000, 3000, 4000}}, {4, 2, 0, 0}};
  static_assert(sizeof(Consts) == 80);

  auto run = [&](int32_t count, int32_t skip_index, std::array<float, 4> want0, std::array<float, 4> want1) {
    data.i[0] = count;
    data.i[1] = skip_index;
    novem::test::SpirvInterpreter vm(words);
    vm.set_uniform(0, 0, &data, sizeof data);
    const bool ran = vm.run();
    INFO(vm.error());
    REQUIRE(ran);
    const auto o0v = vm.output(0);
    const auto o1v = vm.output(1);
    for (int k = 0; k < 4; ++k) {
      CHECK(o0v[k] == want0[k]);
      CHECK(o1v[k] == want1[k]);
    }
  };
  // n = 4, skip 2: c0 + c1 + c3; inner loops run 0 + 1 + 3 times.
  run(4, 2, {1011, 2022, 3033, 4044}, {1, 4, 0, 0});
  // n = 1: c0 only (x = 1, not > 5: the else branch); inner runs 0 times.
  run(1, 9, {1, 2, 3, 4}, {2, 0, 0, 0});
  // n = 0: the loop breaks at once.
  run(0, 9, {0, 0, 0, 0}, {2, 0, 0, 0});
  // n = 3, skip 0: c1 + c2; inner 1 + 2.
  run(3, 0, {110, 220, 330, 440}, {1, 3, 0, 0});
}

// Dead code: everything a translator may emit after break / continue / ret / discard must still
// validate (branches out of unreachable blocks become OpUnreachable).
TEST_CASE("SpirvBuilder: code after terminators validates", "[shader][builder]") {
  SpirvBuilder b;
  b.capability(spv::Capability::Shader);
  const Id v4 = b.type_fvec(4);
  const Id in_c = b.variable(StorageClass::Input, v4, "c");
  b.decorate_location(in_c, 0);
  const Id out_c = b.variable(StorageClass::Output, v4, "o");
  b.decorate_location(out_c, 0);
  const Id fn = b.begin_function(b.type_void(), {}, "main");
  const Id c = b.load(in_c);
  const Id cond = b.compare(Op::OpFOrdLessThan, b.swizzle(c, {0}), b.const_float(0.5f));

  auto outer = b.begin_loop();
  {
    // both branches leave: the selection's merge block is unreachable
    auto sel = b.begin_if(cond, true);
    b.loop_continue(outer);
    b.begin_else(sel);
    b.loop_break(outer);
    b.end_if(sel);
    CHECK_FALSE(b.block_reachable());
    b.store(out_c, c);           // dead
    auto dead_if = b.begin_if(cond);  // a whole construct in dead code
    b.store(out_c, c);
    b.end_if(dead_if);
    auto dead_loop = b.begin_loop();
    b.break_if(dead_loop, cond);
    b.loop_break(outer);
    b.end_loop(dead_loop);
    b.begin_continue(outer);
    CHECK(b.block_reachable());  // reached by the continue
  }
  b.end_loop(outer);
  CHECK(b.block_reachable());    // reached by the break
  {
    auto sel = b.begin_if(cond);
    b.kill();
    b.store(out_c, c);           // dead after discard
    b.loop_break(outer);         // a stray branch in dead code
    b.end_if(sel);
  }
  // a loop that never loops: its continue target is unreachable
  auto once = b.begin_loop();
  b.store(out_c, c);
  b.loop_break(once);
  b.end_loop(once);
  b.store(out_c, c);
  b.ret();
  CHECK_FALSE(b.block_reachable());
  b.store(out_c, c);             // dead after ret
  auto dead = b.begin_if(cond, true);
  b.ret();
  b.begin_else(dead);
  b.end_if(dead);
  b.end_function();
  b.entry_point(spv::ExecutionModel::Fragment, fn, "main", b.interface_variables());
  b.execution_mode(fn, spv::ExecutionMode::OriginUpperLeft);
  INFO(b.error());
  REQUIRE(b.ok());
  require_valid(b.finish(), "builder_dead_code");
}
