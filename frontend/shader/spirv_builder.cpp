#include "spirv_builder.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace novem {

namespace {

constexpr uint32_t u(spv::Op v) { return static_cast<uint32_t>(v); }
template <typename E> constexpr uint32_t w(E v) { return static_cast<uint32_t>(v); }

}  // namespace

size_t SpirvBuilder::VecHash::operator()(const std::vector<uint32_t>& v) const noexcept {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
  for (uint32_t x : v) {
    h ^= x;
    h *= 1099511628211ull;
  }
  return static_cast<size_t>(h ^ (h >> 32));
}

SpirvBuilder::SpirvBuilder(uint32_t version) : version_(version) { id_types_.reserve(256); }

// ---- encoding ------------------------------------------------------------------------------

void SpirvBuilder::encode(std::vector<uint32_t>& out, spv::Op opcode,
                          std::span<const uint32_t> operands) {
  const uint32_t count = static_cast<uint32_t>(operands.size()) + 1;
  out.push_back((count << spv::WordCountShift) | u(opcode));
  out.insert(out.end(), operands.begin(), operands.end());
}

void SpirvBuilder::append_string(std::vector<uint32_t>& words, std::string_view s) {
  // UTF-8 bytes, nul-terminated, padded with nuls to a whole word (little-endian packing).
  const size_t n = s.size() / 4 + 1;
  const size_t start = words.size();
  words.resize(start + n, 0u);
  for (size_t i = 0; i < s.size(); ++i)
    words[start + i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(s[i])) << (8 * (i % 4));
}

void SpirvBuilder::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

void SpirvBuilder::set_type(Id id, Id type) {
  if (id >= id_types_.size()) id_types_.resize(static_cast<size_t>(id) + 1, 0);
  id_types_[id] = type;
}

const SpirvBuilder::TypeInfo* SpirvBuilder::type_info(Id type) const {
  auto it = types_.find(type);
  return it == types_.end() ? nullptr : &it->second;
}

uint32_t SpirvBuilder::component_count(Id type) const {
  const TypeInfo* t = type_info(type);
  if (!t) return 0;
  switch (t->op) {
    case spv::Op::OpTypeVector: return t->count;
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return 1;
    default: return 0;
  }
}

SpirvBuilder::Id SpirvBuilder::scalar_type(Id type) const {
  const TypeInfo* t = type_info(type);
  if (!t) return 0;
  switch (t->op) {
    case spv::Op::OpTypeVector: return t->component;
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return type;
    default: return 0;
  }
}

// ---- module ---------------------------------------------------------------------------------

void SpirvBuilder::capability(spv::Capability cap) {
  for (uint32_t c : capability_list_)
    if (c == w(cap)) return;
  capability_list_.push_back(w(cap));
  const uint32_t ops[] = {w(cap)};
  encode(capabilities_, spv::Op::OpCapability, ops);
}

void SpirvBuilder::extension(std::string_view ext) {
  for (const auto& e : extension_list_)
    if (e == ext) return;
  extension_list_.emplace_back(ext);
  std::vector<uint32_t> ops;
  append_string(ops, ext);
  encode(extensions_, spv::Op::OpExtension, ops);
}

SpirvBuilder::Id SpirvBuilder::import_ext_inst(std::string_view set_name) {
  auto it = ext_import_ids_.find(std::string(set_name));
  if (it != ext_import_ids_.end()) return it->second;
  const Id id = new_id();
  std::vector<uint32_t> ops{id};
  append_string(ops, set_name);
  encode(ext_imports_, spv::Op::OpExtInstImport, ops);
  ext_import_ids_.emplace(std::string(set_name), id);
  return id;
}

void SpirvBuilder::memory_model(spv::AddressingModel addressing, spv::MemoryModel memory) {
  addressing_ = addressing;
  memory_ = memory;
}

void SpirvBuilder::entry_point(spv::ExecutionModel model, Id function, std::string_view entry_name,
                               std::span<const Id> interface) {
  std::vector<uint32_t> ops{w(model), function};
  append_string(ops, entry_name);
  ops.insert(ops.end(), interface.begin(), interface.end());
  encode(entry_points_, spv::Op::OpEntryPoint, ops);
}

void SpirvBuilder::execution_mode(Id function, spv::ExecutionMode mode,
                                  std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{function, w(mode)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  encode(execution_modes_, spv::Op::OpExecutionMode, ops);
}

void SpirvBuilder::source(spv::SourceLanguage language, uint32_t version) {
  const uint32_t ops[] = {w(language), version};
  encode(debug_source_, spv::Op::OpSource, ops);
}

void SpirvBuilder::name(Id id, std::string_view debug_name) {
  if (debug_name.empty()) return;
  std::vector<uint32_t> ops{id};
  append_string(ops, debug_name);
  encode(debug_names_, spv::Op::OpName, ops);
}

void SpirvBuilder::member_name(Id struct_type, uint32_t member, std::string_view debug_name) {
  if (debug_name.empty()) return;
  std::vector<uint32_t> ops{struct_type, member};
  append_string(ops, debug_name);
  encode(debug_names_, spv::Op::OpMemberName, ops);
}

void SpirvBuilder::decorate(Id id, spv::Decoration decoration,
                            std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{id, w(decoration)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  encode(annotations_, spv::Op::OpDecorate, ops);
}

void SpirvBuilder::member_decorate(Id struct_type, uint32_t member, spv::Decoration decoration,
                                   std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{struct_type, member, w(decoration)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  encode(annotations_, spv::Op::OpMemberDecorate, ops);
}

// ---- types ----------------------------------------------------------------------------------

SpirvBuilder::Id SpirvBuilder::make_type(spv::Op opcode, std::span<const uint32_t> operands,
                                         TypeInfo info, std::vector<uint32_t> extra_key) {
  std::vector<uint32_t> key;
  key.reserve(operands.size() + extra_key.size() + 2);
  key.push_back(u(opcode));
  key.insert(key.end(), operands.begin(), operands.end());
  if (!extra_key.empty()) {
    key.push_back(0xFFFFFFFFu);
    key.insert(key.end(), extra_key.begin(), extra_key.end());
  }
  if (auto it = dedup_.find(key); it != dedup_.end()) return it->second;
  const Id id = new_id();
  std::vector<uint32_t> ops{id};
  ops.insert(ops.end(), operands.begin(), operands.end());
  encode(globals_, opcode, ops);
  info.op = opcode;
  types_.emplace(id, std::move(info));
  dedup_.emplace(std::move(key), id);
  return id;
}

SpirvBuilder::Id SpirvBuilder::type_void() { return make_type(spv::Op::OpTypeVoid, {}, {}); }

SpirvBuilder::Id SpirvBuilder::type_bool() { return make_type(spv::Op::OpTypeBool, {}, {}); }

SpirvBuilder::Id SpirvBuilder::type_int(uint32_t width, bool is_signed) {
  const uint32_t ops[] = {width, is_signed ? 1u : 0u};
  TypeInfo t;
  t.count = width;
  t.is_signed = is_signed;
  return make_type(spv::Op::OpTypeInt, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_float(uint32_t width) {
  const uint32_t ops[] = {width};
  TypeInfo t;
  t.count = width;
  return make_type(spv::Op::OpTypeFloat, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_vector(Id component, uint32_t count) {
  if (count < 2 || count > 4) fail("type_vector: component count must be 2..4");
  const uint32_t ops[] = {component, count};
  TypeInfo t;
  t.component = component;
  t.count = count;
  return make_type(spv::Op::OpTypeVector, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_matrix(Id column_type, uint32_t columns) {
  if (columns < 2 || columns > 4) fail("type_matrix: column count must be 2..4");
  const uint32_t ops[] = {column_type, columns};
  TypeInfo t;
  t.component = column_type;
  t.count = columns;
  return make_type(spv::Op::OpTypeMatrix, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_array(Id element, uint32_t length, uint32_t array_stride) {
  if (length == 0) fail("type_array: length must be at least 1");
  const Id len = const_uint(length);
  const uint32_t ops[] = {element, len};
  TypeInfo t;
  t.component = element;
  t.count = length;
  const size_t before = types_.size();
  const Id id = make_type(spv::Op::OpTypeArray, ops, std::move(t), {array_stride});
  if (types_.size() != before && array_stride != 0)
    decorate(id, spv::Decoration::ArrayStride, {array_stride});
  return id;
}

SpirvBuilder::Id SpirvBuilder::type_struct(std::span<const Id> members) {
  const Id id = new_id();
  std::vector<uint32_t> ops{id};
  ops.insert(ops.end(), members.begin(), members.end());
  encode(globals_, spv::Op::OpTypeStruct, ops);
  TypeInfo t;
  t.op = spv::Op::OpTypeStruct;
  t.count = static_cast<uint32_t>(members.size());
  t.members.assign(members.begin(), members.end());
  types_.emplace(id, std::move(t));
  return id;
}

SpirvBuilder::Id SpirvBuilder::type_pointer(spv::StorageClass storage, Id pointee) {
  const uint32_t ops[] = {w(storage), pointee};
  TypeInfo t;
  t.component = pointee;
  t.storage = storage;
  return make_type(spv::Op::OpTypePointer, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_function(Id return_type, std::span<const Id> params) {
  std::vector<uint32_t> ops{return_type};
  ops.insert(ops.end(), params.begin(), params.end());
  TypeInfo t;
  t.component = return_type;
  t.count = static_cast<uint32_t>(params.size());
  t.members = ops;
  return make_type(spv::Op::OpTypeFunction, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_image(Id sampled_type, spv::Dim dim, uint32_t depth,
                                          bool arrayed, bool multisampled, uint32_t sampled,
                                          spv::ImageFormat format) {
  const uint32_t ops[] = {sampled_type, w(dim), depth, arrayed ? 1u : 0u, multisampled ? 1u : 0u,
                          sampled, w(format)};
  TypeInfo t;
  t.component = sampled_type;
  return make_type(spv::Op::OpTypeImage, ops, std::move(t));
}

SpirvBuilder::Id SpirvBuilder::type_sampler() { return make_type(spv::Op::OpTypeSampler, {}, {}); }

SpirvBuilder::Id SpirvBuilder::type_sampled_image(Id image_type) {
  const uint32_t ops[] = {image_type};
  TypeInfo t;
  t.component = image_type;
  return make_type(spv::Op::OpTypeSampledImage, ops, std::move(t));
}

// ---- constants ------------------------------------------------------------------------------

SpirvBuilder::Id SpirvBuilder::make_constant(spv::Op opcode, Id type,
                                             std::span<const uint32_t> literal_operands) {
  std::vector<uint32_t> key{u(opcode), type};
  key.insert(key.end(), literal_operands.begin(), literal_operands.end());
  if (auto it = dedup_.find(key); it != dedup_.end()) return it->second;
  const Id id = new_id();
  std::vector<uint32_t> ops{type, id};
  ops.insert(ops.end(), literal_operands.begin(), literal_operands.end());
  encode(globals_, opcode, ops);
  set_type(id, type);
  dedup_.emplace(std::move(key), id);
  return id;
}

SpirvBuilder::Id SpirvBuilder::const_bool(bool value) {
  const Id id = make_constant(value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse,
                              type_bool(), {});
  scalar_constants_[id] = value ? 1u : 0u;
  return id;
}

SpirvBuilder::Id SpirvBuilder::const_int(int32_t value) {
  const uint32_t bits = static_cast<uint32_t>(value);
  const uint32_t ops[] = {bits};
  const Id id = make_constant(spv::Op::OpConstant, type_int(32, true), ops);
  scalar_constants_[id] = bits;
  return id;
}

SpirvBuilder::Id SpirvBuilder::const_uint(uint32_t value) {
  const uint32_t ops[] = {value};
  const Id id = make_constant(spv::Op::OpConstant, type_int(32, false), ops);
  scalar_constants_[id] = value;
  return id;
}

SpirvBuilder::Id SpirvBuilder::const_float(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t ops[] = {bits};
  const Id id = make_constant(spv::Op::OpConstant, type_float(32), ops);
  scalar_constants_[id] = bits;
  return id;
}

SpirvBuilder::Id SpirvBuilder::const_composite(Id type, std::span<const Id> constituents) {
  return make_constant(spv::Op::OpConstantComposite, type, constituents);
}

SpirvBuilder::Id SpirvBuilder::const_null(Id type) {
  return make_constant(spv::Op::OpConstantNull, type, {});
}

SpirvBuilder::Id SpirvBuilder::const_fvec(std::initializer_list<float> values) {
  if (values.size() == 1) return const_float(*values.begin());
  if (values.size() < 2 || values.size() > 4) {
    fail("const_fvec: 1 to 4 values");
    return 0;
  }
  std::vector<Id> parts;
  for (float v : values) parts.push_back(const_float(v));
  return const_composite(type_fvec(static_cast<uint32_t>(values.size())), parts);
}

bool SpirvBuilder::constant_value(Id id, uint32_t& bits) const {
  auto it = scalar_constants_.find(id);
  if (it == scalar_constants_.end()) return false;
  bits = it->second;
  return true;
}

// ---- variables -------------------------------------------------------------------------------

SpirvBuilder::Id SpirvBuilder::variable(spv::StorageClass storage, Id type,
                                        std::string_view debug_name, Id initializer) {
  if (storage == spv::StorageClass::Function) {
    fail("variable: use function_variable for Function storage");
    return 0;
  }
  const Id ptr = type_pointer(storage, type);
  const Id id = new_id();
  std::vector<uint32_t> ops{ptr, id, w(storage)};
  if (initializer) ops.push_back(initializer);
  encode(globals_, spv::Op::OpVariable, ops);
  set_type(id, ptr);
  name(id, debug_name);
  if (storage == spv::StorageClass::Input || storage == spv::StorageClass::Output)
    interface_vars_.push_back(id);
  return id;
}

// ---- functions and blocks ----------------------------------------------------------------

SpirvBuilder::Id SpirvBuilder::begin_function(Id return_type, std::span<const Id> param_types,
                                              std::string_view debug_name,
                                              spv::FunctionControlMask control) {
  if (function_) {
    fail("begin_function: a function is already open");
    return 0;
  }
  const Id fn_type = type_function(return_type, param_types);
  function_ = new_id();
  function_return_type_ = return_type;
  set_type(function_, return_type);
  name(function_, debug_name);
  const uint32_t head[] = {return_type, function_, w(control), fn_type};
  encode(function_head_, spv::Op::OpFunction, head);
  for (Id p : param_types) {
    const Id pid = new_id();
    const uint32_t ops[] = {p, pid};
    encode(function_head_, spv::Op::OpFunctionParameter, ops);
    set_type(pid, p);
    function_params_.push_back(pid);
  }
  current_label_ = new_label();
  const uint32_t label[] = {current_label_};
  encode(function_head_, spv::Op::OpLabel, label);
  block_open_ = true;
  block_reachable_ = true;
  block_has_merge_ = false;
  return function_;
}

SpirvBuilder::Id SpirvBuilder::function_param(uint32_t index) const {
  return index < function_params_.size() ? function_params_[index] : 0;
}

SpirvBuilder::Id SpirvBuilder::function_variable(Id type, std::string_view debug_name,
                                                 Id initializer) {
  if (!function_) {
    fail("function_variable: no open function");
    return 0;
  }
  const Id ptr = type_pointer(spv::StorageClass::Function, type);
  const Id id = new_id();
  std::vector<uint32_t> ops{ptr, id, w(spv::StorageClass::Function)};
  if (initializer) ops.push_back(initializer);
  encode(function_vars_, spv::Op::OpVariable, ops);
  set_type(id, ptr);
  name(id, debug_name);
  return id;
}

void SpirvBuilder::end_function() {
  if (!function_) {
    fail("end_function: no open function");
    return;
  }
  if (block_open_) {
    const TypeInfo* rt = type_info(function_return_type_);
    if (block_reachable_ && rt && rt->op == spv::Op::OpTypeVoid)
      ret();
    else
      unreachable();
  }
  functions_.insert(functions_.end(), function_head_.begin(), function_head_.end());
  functions_.insert(functions_.end(), function_vars_.begin(), function_vars_.end());
  functions_.insert(functions_.end(), function_body_.begin(), function_body_.end());
  encode(functions_, spv::Op::OpFunctionEnd, {});
  function_head_.clear();
  function_vars_.clear();
  function_body_.clear();
  function_params_.clear();
  reachable_labels_.clear();
  continue_targets_.clear();
  function_ = 0;
  function_return_type_ = 0;
  block_open_ = false;
  current_label_ = 0;
}

void SpirvBuilder::begin_block(Id label) {
  if (!function_) {
    fail("begin_block: no open function");
    return;
  }
  if (block_open_) {
    fail("begin_block: the current block has no terminator");
    return;
  }
  const uint32_t ops[] = {label};
  encode(function_body_, spv::Op::OpLabel, ops);
  current_label_ = label;
  block_open_ = true;
  block_reachable_ = std::find(reachable_labels_.begin(), reachable_labels_.end(), label) !=
                     reachable_labels_.end();
  block_has_merge_ = false;
}

std::vector<uint32_t>* SpirvBuilder::code() {
  if (!function_) {
    fail("instruction outside a function");
    return nullptr;
  }
  if (!block_open_) begin_block(new_label());  // code after a terminator: an unreachable block
  return &function_body_;
}

void SpirvBuilder::terminate(spv::Op opcode, std::span<const uint32_t> operands) {
  if (auto* c = code()) {
    encode(*c, opcode, operands);
    block_open_ = false;
  }
}

bool SpirvBuilder::drop_dead_branch() {
  // A branch out of an unreachable block would be a structured-control-flow error (the block
  // is in no construct), so such a block ends with OpUnreachable instead. Headers (their merge
  // instruction needs the branch) and continue targets (the back edge) keep their branch.
  if (!function_ || !block_open_ || block_reachable_ || block_has_merge_) return false;
  if (std::find(continue_targets_.begin(), continue_targets_.end(), current_label_) !=
      continue_targets_.end())
    return false;
  unreachable();
  return true;
}

void SpirvBuilder::mark_reachable(Id label) {
  if (block_reachable_ &&
      std::find(reachable_labels_.begin(), reachable_labels_.end(), label) == reachable_labels_.end())
    reachable_labels_.push_back(label);
}

void SpirvBuilder::branch(Id target) {
  if (!block_open_ && function_) code();  // after a terminator: a fresh unreachable block
  if (drop_dead_branch()) return;
  mark_reachable(target);
  const uint32_t ops[] = {target};
  terminate(spv::Op::OpBranch, ops);
}

void SpirvBuilder::branch_conditional(Id condition, Id true_label, Id false_label) {
  if (!block_open_ && function_) code();
  if (drop_dead_branch()) return;
  mark_reachable(true_label);
  mark_reachable(false_label);
  const uint32_t ops[] = {condition, true_label, false_label};
  terminate(spv::Op::OpBranchConditional, ops);
}

void SpirvBuilder::selection_merge(Id merge_label, spv::SelectionControlMask control) {
  const uint32_t ops[] = {merge_label, w(control)};
  if (auto* c = code()) {
    encode(*c, spv::Op::OpSelectionMerge, ops);
    block_has_merge_ = true;
  }
}

void SpirvBuilder::loop_merge(Id merge_label, Id continue_label, spv::LoopControlMask control) {
  const uint32_t ops[] = {merge_label, continue_label, w(control)};
  if (auto* c = code()) {
    encode(*c, spv::Op::OpLoopMerge, ops);
    block_has_merge_ = true;
    continue_targets_.push_back(continue_label);
  }
}

void SpirvBuilder::ret() { terminate(spv::Op::OpReturn, {}); }

void SpirvBuilder::ret_value(Id value) {
  const uint32_t ops[] = {value};
  terminate(spv::Op::OpReturnValue, ops);
}

void SpirvBuilder::kill() { terminate(spv::Op::OpKill, {}); }

void SpirvBuilder::unreachable() { terminate(spv::Op::OpUnreachable, {}); }

// ---- structured control flow ------------------------------------------------------------

SpirvBuilder::If SpirvBuilder::begin_if(Id condition, bool with_else) {
  If c;
  c.merge = new_label();
  const Id then_label = new_label();
  c.else_label = with_else ? new_label() : 0;
  selection_merge(c.merge);
  branch_conditional(condition, then_label, with_else ? c.else_label : c.merge);
  begin_block(then_label);
  return c;
}

void SpirvBuilder::begin_else(If& c) {
  if (!c.else_label || c.in_else) {
    fail("begin_else: the construct has no pending else");
    return;
  }
  if (block_open_) branch(c.merge);
  begin_block(c.else_label);
  c.in_else = true;
}

void SpirvBuilder::end_if(const If& c) {
  if (block_open_) branch(c.merge);
  if (c.else_label && !c.in_else) {  // an else that was announced but never written
    begin_block(c.else_label);
    branch(c.merge);
  }
  begin_block(c.merge);
}

SpirvBuilder::Loop SpirvBuilder::begin_loop(spv::LoopControlMask control) {
  Loop l;
  l.header = new_label();
  l.body = new_label();
  l.continue_target = new_label();
  l.merge = new_label();
  branch(l.header);
  begin_block(l.header);
  loop_merge(l.merge, l.continue_target, control);
  branch(l.body);
  begin_block(l.body);
  return l;
}

void SpirvBuilder::begin_continue(Loop& l) {
  if (l.in_continue) {
    fail("begin_continue: already in the continue block");
    return;
  }
  if (block_open_) branch(l.continue_target);
  begin_block(l.continue_target);
  l.in_continue = true;
}

void SpirvBuilder::end_loop(const Loop& l) {
  if (!l.in_continue) {
    if (block_open_) branch(l.continue_target);
    begin_block(l.continue_target);
  }
  if (block_open_) branch(l.header);
  begin_block(l.merge);
}

void SpirvBuilder::break_if(const Loop& l, Id condition) {
  If c = begin_if(condition);
  loop_break(l);
  end_if(c);
}

// ---- instructions ---------------------------------------------------------------------------

SpirvBuilder::Id SpirvBuilder::op(spv::Op opcode, Id result_type, std::span<const uint32_t> operands) {
  const Id id = new_id();
  if (!result_type) fail("op " + std::to_string(u(opcode)) + ": no result type (cannot infer)");
  std::vector<uint32_t> ops{result_type, id};
  ops.insert(ops.end(), operands.begin(), operands.end());
  if (auto* c = code()) encode(*c, opcode, ops);
  set_type(id, result_type);
  return id;
}

void SpirvBuilder::op_void(spv::Op opcode, std::span<const uint32_t> operands) {
  if (auto* c = code()) encode(*c, opcode, operands);
}

SpirvBuilder::Id SpirvBuilder::load(Id pointer) {
  const TypeInfo* p = type_info(type_of(pointer));
  if (!p || p->op != spv::Op::OpTypePointer) {
    fail("load: operand is not a pointer");
    return 0;
  }
  return op(spv::Op::OpLoad, p->component, {pointer});
}

void SpirvBuilder::store(Id pointer, Id value) { op_void(spv::Op::OpStore, {pointer, value}); }

SpirvBuilder::Id SpirvBuilder::access_chain(Id base, std::span<const Id> indices) {
  const TypeInfo* p = type_info(type_of(base));
  if (!p || p->op != spv::Op::OpTypePointer) {
    fail("access_chain: base is not a pointer");
    return 0;
  }
  Id t = p->component;
  for (Id index : indices) {
    const TypeInfo* ti = type_info(t);
    if (!ti) {
      fail("access_chain: unknown type");
      return 0;
    }
    if (ti->op == spv::Op::OpTypeStruct) {
      uint32_t member = 0;
      if (!constant_value(index, member) || member >= ti->members.size()) {
        fail("access_chain: struct index must be an in-range integer constant");
        return 0;
      }
      t = ti->members[member];
    } else if (ti->op == spv::Op::OpTypeArray || ti->op == spv::Op::OpTypeRuntimeArray ||
               ti->op == spv::Op::OpTypeVector || ti->op == spv::Op::OpTypeMatrix) {
      t = ti->component;
    } else {
      fail("access_chain: indexing a non-composite");
      return 0;
    }
  }
  std::vector<uint32_t> ops{base};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return op(spv::Op::OpAccessChain, type_pointer(p->storage, t), ops);
}

SpirvBuilder::Id SpirvBuilder::composite_construct(Id type, std::span<const Id> constituents) {
  return op(spv::Op::OpCompositeConstruct, type, constituents);
}

SpirvBuilder::Id SpirvBuilder::composite_extract(Id composite, std::initializer_list<uint32_t> indices) {
  Id t = type_of(composite);
  for (uint32_t index : indices) {
    const TypeInfo* ti = type_info(t);
    if (!ti) {
      t = 0;
      break;
    }
    if (ti->op == spv::Op::OpTypeStruct)
      t = index < ti->members.size() ? ti->members[index] : 0;
    else if (ti->op == spv::Op::OpTypeArray || ti->op == spv::Op::OpTypeVector ||
             ti->op == spv::Op::OpTypeMatrix)
      t = ti->component;
    else
      t = 0;
  }
  std::vector<uint32_t> ops{composite};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return op(spv::Op::OpCompositeExtract, t, ops);
}

SpirvBuilder::Id SpirvBuilder::composite_insert(Id object, Id composite,
                                                std::initializer_list<uint32_t> indices) {
  std::vector<uint32_t> ops{object, composite};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return op(spv::Op::OpCompositeInsert, type_of(composite), ops);
}

SpirvBuilder::Id SpirvBuilder::vector_shuffle(Id a, Id b, std::span<const uint32_t> components) {
  const Id scalar = scalar_type(type_of(a));
  if (components.size() < 2 || components.size() > 4 || !scalar) {
    fail("vector_shuffle: needs a vector operand and 2..4 components");
    return 0;
  }
  std::vector<uint32_t> ops{a, b};
  ops.insert(ops.end(), components.begin(), components.end());
  return op(spv::Op::OpVectorShuffle, type_vector(scalar, static_cast<uint32_t>(components.size())), ops);
}

SpirvBuilder::Id SpirvBuilder::swizzle(Id v, std::initializer_list<uint32_t> components) {
  if (components.size() == 1) return composite_extract(v, {*components.begin()});
  return vector_shuffle(v, v, std::span<const uint32_t>(components.begin(), components.size()));
}

SpirvBuilder::Id SpirvBuilder::vector_extract_dynamic(Id vector, Id index) {
  return op(spv::Op::OpVectorExtractDynamic, scalar_type(type_of(vector)), {vector, index});
}

SpirvBuilder::Id SpirvBuilder::vector_insert_dynamic(Id vector, Id component, Id index) {
  return op(spv::Op::OpVectorInsertDynamic, type_of(vector), {vector, component, index});
}

SpirvBuilder::Id SpirvBuilder::splat(Id vector_type, Id scalar) {
  const uint32_t n = component_count(vector_type);
  if (n <= 1) return scalar;
  std::vector<Id> parts(n, scalar);
  return composite_construct(vector_type, parts);
}

SpirvBuilder::Id SpirvBuilder::binary(spv::Op opcode, Id a, Id b) {
  return op(opcode, type_of(a), {a, b});
}

SpirvBuilder::Id SpirvBuilder::unary(spv::Op opcode, Id a) { return op(opcode, type_of(a), {a}); }

SpirvBuilder::Id SpirvBuilder::dot(Id a, Id b) {
  return op(spv::Op::OpDot, scalar_type(type_of(a)), {a, b});
}

SpirvBuilder::Id SpirvBuilder::vector_times_scalar(Id v, Id s) {
  return op(spv::Op::OpVectorTimesScalar, type_of(v), {v, s});
}

SpirvBuilder::Id SpirvBuilder::matrix_times_vector(Id m, Id v) {
  const TypeInfo* t = type_info(type_of(m));
  return op(spv::Op::OpMatrixTimesVector, t ? t->component : 0, {m, v});
}

SpirvBuilder::Id SpirvBuilder::vector_times_matrix(Id v, Id m) {
  const TypeInfo* t = type_info(type_of(m));
  const Id result = t ? type_vector(scalar_type(type_of(v)), t->count) : 0;
  return op(spv::Op::OpVectorTimesMatrix, result, {v, m});
}

SpirvBuilder::Id SpirvBuilder::matrix_times_scalar(Id m, Id s) {
  return op(spv::Op::OpMatrixTimesScalar, type_of(m), {m, s});
}

SpirvBuilder::Id SpirvBuilder::matrix_times_matrix(Id a, Id b) {
  const TypeInfo* ta = type_info(type_of(a));
  const TypeInfo* tb = type_info(type_of(b));
  const Id result = (ta && tb) ? type_matrix(ta->component, tb->count) : 0;
  return op(spv::Op::OpMatrixTimesMatrix, result, {a, b});
}

SpirvBuilder::Id SpirvBuilder::transpose(Id m) {
  const TypeInfo* t = type_info(type_of(m));
  Id result = 0;
  if (t && t->op == spv::Op::OpTypeMatrix) {
    const Id scalar = scalar_type(t->component);
    result = type_matrix(type_vector(scalar, t->count), component_count(t->component));
  }
  return op(spv::Op::OpTranspose, result, {m});
}

SpirvBuilder::Id SpirvBuilder::bool_result_type(Id operand) {
  const uint32_t n = component_count(type_of(operand));
  return n == 0 ? 0 : type_bvec(n);
}

SpirvBuilder::Id SpirvBuilder::compare(spv::Op opcode, Id a, Id b) {
  return op(opcode, bool_result_type(a), {a, b});
}

SpirvBuilder::Id SpirvBuilder::any(Id bvec) { return op(spv::Op::OpAny, type_bool(), {bvec}); }

SpirvBuilder::Id SpirvBuilder::all(Id bvec) { return op(spv::Op::OpAll, type_bool(), {bvec}); }

SpirvBuilder::Id SpirvBuilder::select(Id condition, Id if_true, Id if_false) {
  // SPIR-V 1.0 needs a condition with as many components as the operands: splat a scalar one.
  const uint32_t n = component_count(type_of(if_true));
  if (n > 1 && component_count(type_of(condition)) == 1)
    condition = splat(type_bvec(n), condition);
  return op(spv::Op::OpSelect, type_of(if_true), {condition, if_true, if_false});
}

SpirvBuilder::Id SpirvBuilder::convert(spv::Op opcode, Id result_type, Id value) {
  return op(opcode, result_type, {value});
}

SpirvBuilder::Id SpirvBuilder::ext_inst(Id result_type, Id set, uint32_t inst, std::span<const Id> args) {
  std::vector<uint32_t> ops{set, inst};
  ops.insert(ops.end(), args.begin(), args.end());
  return op(spv::Op::OpExtInst, result_type, ops);
}

SpirvBuilder::Id SpirvBuilder::glsl(GLSLstd450 inst, std::span<const Id> args) {
  if (args.empty()) {
    fail("glsl: no arguments");
    return 0;
  }
  Id result = type_of(args[0]);
  if (inst == GLSLstd450Length || inst == GLSLstd450Distance) result = scalar_type(result);
  if (inst == GLSLstd450Determinant) {
    const TypeInfo* t = type_info(result);
    result = t ? scalar_type(t->component) : 0;
  }
  return ext_inst(result, import_glsl450(), static_cast<uint32_t>(inst), args);
}

SpirvBuilder::Id SpirvBuilder::glsl_typed(Id result_type, GLSLstd450 inst, std::span<const Id> args) {
  return ext_inst(result_type, import_glsl450(), static_cast<uint32_t>(inst), args);
}

SpirvBuilder::Id SpirvBuilder::image_sample(spv::Op opcode, Id result_type, Id sampled_image,
                                            Id coordinate, Id dref, spv::ImageOperandsMask mask,
                                            std::span<const Id> image_operands) {
  std::vector<uint32_t> ops{sampled_image, coordinate};
  if (dref) ops.push_back(dref);
  if (mask != spv::ImageOperandsMask::MaskNone) {
    ops.push_back(w(mask));
    ops.insert(ops.end(), image_operands.begin(), image_operands.end());
  }
  return op(opcode, result_type, ops);
}

SpirvBuilder::Id SpirvBuilder::sampled_image(Id result_type, Id image, Id sampler) {
  return op(spv::Op::OpSampledImage, result_type, {image, sampler});
}

SpirvBuilder::Id SpirvBuilder::function_call(Id function, std::span<const Id> args) {
  std::vector<uint32_t> ops{function};
  ops.insert(ops.end(), args.begin(), args.end());
  return op(spv::Op::OpFunctionCall, type_of(function), ops);
}

// ---- output -----------------------------------------------------------------------------------

std::vector<uint32_t> SpirvBuilder::finish() const {
  if (!error_.empty() || function_) return {};
  std::vector<uint32_t> out;
  out.reserve(5 + capabilities_.size() + extensions_.size() + ext_imports_.size() + 3 +
              entry_points_.size() + execution_modes_.size() + debug_source_.size() +
              debug_names_.size() + annotations_.size() + globals_.size() + functions_.size());
  out.push_back(spv::MagicNumber);
  out.push_back(version_);
  out.push_back(0u);        // generator: unregistered tool
  out.push_back(next_id_);  // bound: every id is below it
  out.push_back(0u);        // schema
  auto append = [&out](const std::vector<uint32_t>& v) { out.insert(out.end(), v.begin(), v.end()); };
  append(capabilities_);
  append(extensions_);
  append(ext_imports_);
  const uint32_t mm[] = {w(addressing_), w(memory_)};
  encode(out, spv::Op::OpMemoryModel, mm);
  append(entry_points_);
  append(execution_modes_);
  append(debug_source_);
  append(debug_names_);
  append(annotations_);
  append(globals_);
  append(functions_);
  return out;
}

}  // namespace novem
