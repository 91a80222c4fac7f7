// SpirvBuilder: writes one SPIR-V module (1.0 by default, Vulkan 1.0 / GL 4.5 compatible).
//
// The builder keeps the module's logical sections apart (capabilities, extensions, extended
// instruction imports, memory model, entry points, execution modes, debug names, annotations,
// types/constants/globals, functions) and lays them out in the order the specification requires
// when finish() is called, so callers may declare things in any order.
//
// Ids:
//  - Scalar, vector, matrix, pointer, function, image and sampler types are deduplicated; so are
//    constants (by type and bit pattern: -0.0f and 0.0f are different constants). Structs are
//    always new (decorations such as Block make two equal-looking structs different); arrays are
//    deduplicated by (element, length, ArrayStride), the stride being decorated once.
//  - Every id that has a type remembers it (type_of), and every type remembers its definition,
//    so most instruction helpers infer their result type (load, access_chain, composite_extract,
//    arithmetic, comparisons, select, GLSL.std.450 calls ...).
//
// Functions and blocks:
//  - begin_function() opens a function and its entry block. Instructions go to the current block.
//    function_variable() declares a Function-storage variable; it is hoisted to the top of the
//    entry block whatever the current block is, as SPIR-V requires.
//  - Blocks are laid out in the order begin_block() is called, which gives a valid
//    dominator-first order when the structured helpers below are used.
//  - A block ends with a terminator (branch, branch_conditional, ret, kill, unreachable). An
//    instruction emitted after a terminator opens a fresh unreachable block, so code after a
//    D3D9 break/ret translates without special cases; the structured helpers close such blocks.
//  - Structured control flow: begin_if/begin_else/end_if emit OpSelectionMerge + branches;
//    begin_loop/begin_continue/end_loop emit OpLoopMerge with a header, body, continue target and
//    merge block; loop_break/loop_continue/break_if branch out of the innermost construct.
//  - Reachability: a block is reachable when a reachable block branched to it before it was
//    begun (the entry block is reachable). This holds for blocks laid out in dominator order
//    with forward edges, as the helpers do; only loop headers take a back edge. A branch out
//    of an unreachable block (dead code after break/ret/kill) is emitted as OpUnreachable
//    instead, because such a block belongs to no construct and its branch would break the
//    structured rules; headers keep their branch (their merge needs it), and continue targets
//    keep their back edge.
//
// Misuse (an instruction outside a function, a type that cannot be inferred, ...) does not
// throw: the first error is recorded (error()), and finish() then returns an empty vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

namespace novem {

class SpirvBuilder {
public:
  using Id = uint32_t;

  // What a type id stands for (for type inference and for callers that want to inspect types).
  struct TypeInfo {
    spv::Op op = spv::Op::OpNop;  // OpTypeFloat, OpTypeVector, ... ; OpNop: not a type
    Id component = 0;             // vector/matrix/array: element type; pointer: pointee
    uint32_t count = 0;           // vector: components; matrix: columns; array: length;
                                  // int/float: width; struct: members
    bool is_signed = false;       // int
    spv::StorageClass storage = spv::StorageClass::Max;  // pointer
    std::vector<Id> members;      // struct member types; function: return type then params
  };

  // Structured control flow handles (values; keep them on the caller's own stack).
  struct If {
    Id merge = 0;
    Id else_label = 0;   // 0 when the construct has no else
    bool in_else = false;
  };
  struct Loop {
    Id header = 0;
    Id body = 0;
    Id continue_target = 0;
    Id merge = 0;
    bool in_continue = false;
  };

  // version: SPIR-V version word, 0x00010000 = 1.0. Memory model defaults to Logical GLSL450.
  explicit SpirvBuilder(uint32_t version = 0x00010000u);

  // ---- module ------------------------------------------------------------------------------
  void capability(spv::Capability cap);                 // deduplicated
  void extension(std::string_view name);                // deduplicated
  Id import_ext_inst(std::string_view set_name);        // deduplicated OpExtInstImport
  Id import_glsl450() { return import_ext_inst("GLSL.std.450"); }
  void memory_model(spv::AddressingModel addressing, spv::MemoryModel memory);
  // interface: for SPIR-V 1.0, the Input and Output variables the entry point uses
  // (interface_variables() lists every Input/Output global declared so far).
  void entry_point(spv::ExecutionModel model, Id function, std::string_view name,
                   std::span<const Id> interface);
  void execution_mode(Id function, spv::ExecutionMode mode,
                      std::initializer_list<uint32_t> literals = {});
  void source(spv::SourceLanguage language, uint32_t version);
  std::vector<Id> interface_variables() const { return interface_vars_; }

  // ---- debug names and annotations ------------------------------------------------------------
  void name(Id id, std::string_view name);
  void member_name(Id struct_type, uint32_t member, std::string_view name);
  void decorate(Id id, spv::Decoration decoration, std::initializer_list<uint32_t> literals = {});
  void member_decorate(Id struct_type, uint32_t member, spv::Decoration decoration,
                       std::initializer_list<uint32_t> literals = {});
  void decorate_location(Id id, uint32_t location) { decorate(id, spv::Decoration::Location, {location}); }
  void decorate_builtin(Id id, spv::BuiltIn builtin) {
    decorate(id, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
  }
  void decorate_binding(Id id, uint32_t set, uint32_t binding) {
    decorate(id, spv::Decoration::DescriptorSet, {set});
    decorate(id, spv::Decoration::Binding, {binding});
  }

  // ---- types ------------------------------------------------------------------------------------
  Id type_void();
  Id type_bool();
  Id type_int(uint32_t width, bool is_signed);
  Id type_float(uint32_t width = 32);
  Id type_vector(Id component, uint32_t count);
  Id type_matrix(Id column_type, uint32_t columns);
  // length becomes a 32-bit uint constant; array_stride != 0 decorates ArrayStride.
  Id type_array(Id element, uint32_t length, uint32_t array_stride = 0);
  Id type_struct(std::span<const Id> members);  // never deduplicated
  Id type_struct(std::initializer_list<Id> members) {
    return type_struct(std::span<const Id>(members.begin(), members.size()));
  }
  Id type_pointer(spv::StorageClass storage, Id pointee);
  Id type_function(Id return_type, std::span<const Id> params = {});
  Id type_function(Id return_type, std::initializer_list<Id> params) {
    return type_function(return_type, std::span<const Id>(params.begin(), params.size()));
  }
  Id type_image(Id sampled_type, spv::Dim dim, uint32_t depth, bool arrayed, bool multisampled,
                uint32_t sampled, spv::ImageFormat format = spv::ImageFormat::Unknown);
  Id type_sampler();
  Id type_sampled_image(Id image_type);
  // Shorthands: 32-bit float / int / uint / bool, scalar when n == 1, vector otherwise.
  Id type_fvec(uint32_t n) { return n == 1 ? type_float() : type_vector(type_float(), n); }
  Id type_ivec(uint32_t n) { return n == 1 ? type_int(32, true) : type_vector(type_int(32, true), n); }
  Id type_uvec(uint32_t n) { return n == 1 ? type_int(32, false) : type_vector(type_int(32, false), n); }
  Id type_bvec(uint32_t n) { return n == 1 ? type_bool() : type_vector(type_bool(), n); }
  Id type_mat4() { return type_matrix(type_fvec(4), 4); }

  // ---- constants ----------------------------------------------------------------------------
  Id const_bool(bool value);
  Id const_int(int32_t value);
  Id const_uint(uint32_t value);
  Id const_float(float value);
  Id const_composite(Id type, std::span<const Id> constituents);
  Id const_composite(Id type, std::initializer_list<Id> constituents) {
    return const_composite(type, std::span<const Id>(constituents.begin(), constituents.size()));
  }
  Id const_null(Id type);
  // A float scalar (one value) or vector (2-4 values) constant.
  Id const_fvec(std::initializer_list<float> values);
  // Value of a 32-bit scalar constant made by this builder (bits for floats); false if id isn't one.
  bool constant_value(Id id, uint32_t& bits) const;

  // ---- global variables -----------------------------------------------------------------------
  // Declares a module-scope variable of pointee type `type` (the pointer type is made here).
  // Input/Output variables are remembered for interface_variables().
  Id variable(spv::StorageClass storage, Id type, std::string_view debug_name = {},
              Id initializer = 0);

  // ---- functions and blocks -------------------------------------------------------------------
  // Opens a function and its entry block. Parameter ids: function_param(i).
  Id begin_function(Id return_type, std::span<const Id> param_types = {},
                    std::string_view debug_name = {},
                    spv::FunctionControlMask control = spv::FunctionControlMask::MaskNone);
  Id begin_function(Id return_type, std::initializer_list<Id> param_types,
                    std::string_view debug_name = {},
                    spv::FunctionControlMask control = spv::FunctionControlMask::MaskNone) {
    return begin_function(return_type, std::span<const Id>(param_types.begin(), param_types.size()),
                          debug_name, control);
  }
  Id function_param(uint32_t index) const;
  Id function_variable(Id type, std::string_view debug_name = {}, Id initializer = 0);
  // Closes the function; an open block gets OpReturn (void) or OpUnreachable (non-void).
  void end_function();
  bool in_function() const { return function_ != 0; }
  Id current_function() const { return function_; }

  Id new_id() { return next_id_++; }
  Id new_label() { return new_id(); }
  void begin_block(Id label);   // the previous block, if still open, must be terminated first
  bool block_open() const { return function_ != 0 && block_open_; }
  // Whether the open block can be reached from the function's entry (see "Reachability").
  bool block_reachable() const { return block_open() && block_reachable_; }
  Id current_label() const { return current_label_; }

  // Terminators and merge instructions.
  void branch(Id target);
  void branch_conditional(Id condition, Id true_label, Id false_label);
  void selection_merge(Id merge_label,
                       spv::SelectionControlMask control = spv::SelectionControlMask::MaskNone);
  void loop_merge(Id merge_label, Id continue_label,
                  spv::LoopControlMask control = spv::LoopControlMask::MaskNone);
  void ret();
  void ret_value(Id value);
  void kill();          // OpKill (fragment discard)
  void unreachable();

  // ---- structured control flow ------------------------------------------------------------
  If begin_if(Id condition, bool with_else = false);   // current block: the "then" block
  void begin_else(If& construct);                      // current block: the "else" block
  void end_if(const If& construct);                    // current block: the merge block
  // Emits: branch to header; header { OpLoopMerge; branch body }; current block: body.
  Loop begin_loop(spv::LoopControlMask control = spv::LoopControlMask::MaskNone);
  void begin_continue(Loop& loop);    // ends the body (branch to continue); current: continue
  void end_loop(const Loop& loop);    // continue branches back to header; current: merge block
  void loop_break(const Loop& loop) { branch(loop.merge); }
  void loop_continue(const Loop& loop) { branch(loop.continue_target); }
  void break_if(const Loop& loop, Id condition);      // if (condition) break;

  // ---- instructions -----------------------------------------------------------------------
  // Generic forms: `op` makes a result id of type result_type; `op_void` has no result.
  Id op(spv::Op opcode, Id result_type, std::span<const uint32_t> operands);
  Id op(spv::Op opcode, Id result_type, std::initializer_list<uint32_t> operands) {
    return op(opcode, result_type, std::span<const uint32_t>(operands.begin(), operands.size()));
  }
  void op_void(spv::Op opcode, std::span<const uint32_t> operands);
  void op_void(spv::Op opcode, std::initializer_list<uint32_t> operands) {
    op_void(opcode, std::span<const uint32_t>(operands.begin(), operands.size()));
  }

  // Memory.
  Id load(Id pointer);
  void store(Id pointer, Id value);
  Id access_chain(Id base, std::span<const Id> indices);   // result pointer type is inferred
  Id access_chain(Id base, std::initializer_list<Id> indices) {
    return access_chain(base, std::span<const Id>(indices.begin(), indices.size()));
  }

  // Composites.
  Id composite_construct(Id type, std::span<const Id> constituents);
  Id composite_construct(Id type, std::initializer_list<Id> constituents) {
    return composite_construct(type, std::span<const Id>(constituents.begin(), constituents.size()));
  }
  Id composite_extract(Id composite, std::initializer_list<uint32_t> indices);
  Id composite_insert(Id object, Id composite, std::initializer_list<uint32_t> indices);
  // components index the concatenation of a and b; 0xFFFFFFFF = undefined component.
  Id vector_shuffle(Id a, Id b, std::span<const uint32_t> components);
  Id vector_shuffle(Id a, Id b, std::initializer_list<uint32_t> components) {
    return vector_shuffle(a, b, std::span<const uint32_t>(components.begin(), components.size()));
  }
  Id swizzle(Id v, std::initializer_list<uint32_t> components);  // 1 component: extract
  Id vector_extract_dynamic(Id vector, Id index);
  Id vector_insert_dynamic(Id vector, Id component, Id index);
  Id splat(Id vector_type, Id scalar);  // composite_construct with every component = scalar

  // Arithmetic (result type = type of the first operand unless stated).
  Id binary(spv::Op opcode, Id a, Id b);   // any same-typed binary op (OpFAdd, OpIMul, OpFMod ...)
  Id unary(spv::Op opcode, Id a);          // OpFNegate, OpSNegate, OpNot, OpLogicalNot ...
  Id fadd(Id a, Id b) { return binary(spv::Op::OpFAdd, a, b); }
  Id fsub(Id a, Id b) { return binary(spv::Op::OpFSub, a, b); }
  Id fmul(Id a, Id b) { return binary(spv::Op::OpFMul, a, b); }
  Id fdiv(Id a, Id b) { return binary(spv::Op::OpFDiv, a, b); }
  Id fnegate(Id a) { return unary(spv::Op::OpFNegate, a); }
  Id iadd(Id a, Id b) { return binary(spv::Op::OpIAdd, a, b); }
  Id isub(Id a, Id b) { return binary(spv::Op::OpISub, a, b); }
  Id imul(Id a, Id b) { return binary(spv::Op::OpIMul, a, b); }
  Id dot(Id a, Id b);                         // result: component type
  Id vector_times_scalar(Id v, Id s);
  Id matrix_times_vector(Id m, Id v);         // result: the matrix's column type
  Id vector_times_matrix(Id v, Id m);         // result: vector of the matrix's column count
  Id matrix_times_scalar(Id m, Id s);
  Id matrix_times_matrix(Id a, Id b);
  Id transpose(Id m);

  // Comparisons and logic: result is bool or a bool vector of the operands' size.
  Id compare(spv::Op opcode, Id a, Id b);     // OpFOrdLessThan, OpIEqual, OpLogicalAnd ...
  Id logical_not(Id a) { return unary(spv::Op::OpLogicalNot, a); }
  Id any(Id bvec);
  Id all(Id bvec);
  Id select(Id condition, Id if_true, Id if_false);

  // Conversions.
  Id convert(spv::Op opcode, Id result_type, Id value);  // OpConvertFToS, OpBitcast, ...

  // Extended instructions (GLSL.std.450, imported on first use).
  Id glsl(GLSLstd450 inst, std::span<const Id> args);           // result type = type of args[0]
  Id glsl(GLSLstd450 inst, std::initializer_list<Id> args) {
    return glsl(inst, std::span<const Id>(args.begin(), args.size()));
  }
  Id glsl_typed(Id result_type, GLSLstd450 inst, std::span<const Id> args);
  Id glsl_typed(Id result_type, GLSLstd450 inst, std::initializer_list<Id> args) {
    return glsl_typed(result_type, inst, std::span<const Id>(args.begin(), args.size()));
  }
  Id ext_inst(Id result_type, Id set, uint32_t inst, std::span<const Id> args);

  // Images. opcode: OpImageSample{Implicit,Explicit}Lod, OpImageSampleDref*, OpImageSampleProj*,
  // OpImageFetch ...; dref = 0 for non-Dref ops; image operands follow the mask in bit order.
  Id image_sample(spv::Op opcode, Id result_type, Id sampled_image, Id coordinate, Id dref = 0,
                  spv::ImageOperandsMask mask = spv::ImageOperandsMask::MaskNone,
                  std::span<const Id> image_operands = {});
  Id image_sample(spv::Op opcode, Id result_type, Id sampled_image, Id coordinate, Id dref,
                  spv::ImageOperandsMask mask, std::initializer_list<Id> image_operands) {
    return image_sample(opcode, result_type, sampled_image, coordinate, dref, mask,
                        std::span<const Id>(image_operands.begin(), image_operands.size()));
  }
  Id sampled_image(Id result_type, Id image, Id sampler);

  Id function_call(Id function, std::span<const Id> args);  // result: the function's return type
  Id function_call(Id function, std::initializer_list<Id> args) {
    return function_call(function, std::span<const Id>(args.begin(), args.size()));
  }

  // ---- introspection --------------------------------------------------------------------------
  Id type_of(Id id) const { return id < id_types_.size() ? id_types_[id] : 0; }
  const TypeInfo* type_info(Id type) const;
  uint32_t component_count(Id type) const;   // vector: n, scalar: 1, else 0
  Id scalar_type(Id type) const;             // vector: component type; scalar: itself
  uint32_t id_bound() const { return next_id_; }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // The finished module (header + sections). Empty if an error was recorded or a function is
  // still open. The builder may be finished more than once.
  std::vector<uint32_t> finish() const;

private:
  struct VecHash {
    size_t operator()(const std::vector<uint32_t>& v) const noexcept;
  };

  static void encode(std::vector<uint32_t>& out, spv::Op opcode, std::span<const uint32_t> operands);
  static void append_string(std::vector<uint32_t>& words, std::string_view s);
  void fail(std::string message);
  Id make_type(spv::Op opcode, std::span<const uint32_t> operands, TypeInfo info,
               std::vector<uint32_t> extra_key = {});
  Id make_constant(spv::Op opcode, Id type, std::span<const uint32_t> literal_operands);
  void set_type(Id id, Id type);
  std::vector<uint32_t>* code();   // the current block (opened on demand), or nullptr
  void terminate(spv::Op opcode, std::span<const uint32_t> operands);
  bool drop_dead_branch();
  void mark_reachable(Id label);
  Id bool_result_type(Id operand);

  uint32_t version_;
  Id next_id_ = 1;
  std::string error_;

  spv::AddressingModel addressing_ = spv::AddressingModel::Logical;
  spv::MemoryModel memory_ = spv::MemoryModel::GLSL450;

  std::vector<uint32_t> capabilities_;    // encoded
  std::vector<uint32_t> capability_list_;
  std::vector<std::string> extension_list_;
  std::vector<uint32_t> extensions_;
  std::vector<uint32_t> ext_imports_;
  std::unordered_map<std::string, Id> ext_import_ids_;
  std::vector<uint32_t> entry_points_;
  std::vector<uint32_t> execution_modes_;
  std::vector<uint32_t> debug_source_;
  std::vector<uint32_t> debug_names_;
  std::vector<uint32_t> annotations_;
  std::vector<uint32_t> globals_;         // types, constants, module-scope variables
  std::vector<uint32_t> functions_;       // finished functions

  std::unordered_map<std::vector<uint32_t>, Id, VecHash> dedup_;
  std::vector<Id> id_types_;              // id -> its type (0: none / unknown)
  std::unordered_map<Id, TypeInfo> types_;
  std::unordered_map<Id, uint32_t> scalar_constants_;
  std::vector<Id> interface_vars_;

  // The open function.
  Id function_ = 0;
  Id function_return_type_ = 0;
  std::vector<Id> function_params_;
  std::vector<uint32_t> function_head_;   // OpFunction, parameters, entry OpLabel
  std::vector<uint32_t> function_vars_;   // hoisted Function-storage variables
  std::vector<uint32_t> function_body_;   // everything after the entry block's label
  bool block_open_ = false;
  bool block_reachable_ = false;
  bool block_has_merge_ = false;
  Id current_label_ = 0;
  std::vector<Id> reachable_labels_;   // labels a reachable block branches to
  std::vector<Id> continue_targets_;
};

}  // namespace novem
