// A tiny SPIR-V interpreter for tests: runs the "main" entry point of a (small) shader module on
// the CPU, so that tests check what the emitted code computes, not only that it validates.
//
// Supported: 32-bit float/int/bool scalars, vectors, matrices, arrays and structs; module and
// Function variables; OpLoad/OpStore/OpAccessChain; composite construct/extract/insert, vector
// shuffle, dynamic extract; float and integer arithmetic, comparisons, logic, OpSelect,
// conversions, vector/matrix products, a few GLSL.std.450 instructions (Exp and Reflect among them); OpBranch,
// OpBranchConditional, merges, OpReturn, OpKill, OpFunctionCall (functions without
// parameters), shifts and bitwise and/or. Uniform blocks are read from bytes using the
// module's Offset/ArrayStride/MatrixStride decorations.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace novem::test {

class SpirvInterpreter {
public:
  explicit SpirvInterpreter(std::span<const uint32_t> words);

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void set_input(uint32_t location, std::array<float, 4> value);
  void set_uniform(uint32_t set, uint32_t binding, const void* data, size_t size);

  // Runs main once; false (and error()) when something unsupported or wrong happened.
  bool run(size_t max_steps = 100000);
  bool killed() const { return killed_; }

  std::array<float, 4> output(uint32_t location) const;
  std::array<float, 4> position() const;  // BuiltIn Position (variable or block member)
  float point_size() const;               // BuiltIn PointSize; NaN if not written/declared

private:
  struct Type {
    uint32_t op = 0;
    uint32_t elem = 0;      // vector/matrix/array element, pointer pointee
    uint32_t count = 0;     // vector/matrix/array length
    bool is_float = false;  // scalar kind
    bool is_int = false;
    bool is_bool = false;
    std::vector<uint32_t> members;
    uint32_t size = 0;  // flat scalar count
  };
  struct Pointer {
    uint32_t var = 0;
    uint32_t offset = 0;
    uint32_t type = 0;  // pointee
  };
  struct Inst {
    uint32_t op;
    std::vector<uint32_t> w;
  };

  void fail(const std::string& m) {
    if (error_.empty()) error_ = m;
  }
  const Type* type(uint32_t id) const;
  uint32_t flat_size(uint32_t type_id) const;
  uint32_t member_offset(uint32_t struct_type, uint32_t member) const;  // in flat scalars
  void load_bytes(uint32_t type_id, const uint8_t* base, size_t size, size_t byte_offset,
                  std::vector<uint32_t>& out, uint32_t flat_offset, uint32_t matrix_stride);
  const std::vector<uint32_t>& val(uint32_t id);
  bool find_builtin(uint32_t builtin, uint32_t& var, uint32_t& offset) const;

  std::string error_;
  std::vector<Inst> insts_;
  std::map<uint32_t, Type> types_;
  std::map<uint32_t, std::vector<uint32_t>> values_;       // constants and SSA results
  std::map<uint32_t, uint32_t> result_types_;
  std::map<uint32_t, Pointer> pointers_;                   // pointer-valued ids
  std::map<uint32_t, std::vector<uint32_t>> storage_;      // variable id -> flat contents
  std::map<uint32_t, uint32_t> var_storage_class_;
  std::map<uint32_t, uint32_t> locations_, builtins_, sets_, bindings_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> member_offsets_, member_builtins_,
      member_matrix_strides_;
  std::map<uint32_t, uint32_t> array_strides_;
  std::map<uint32_t, size_t> labels_;  // label -> instruction index
  std::map<uint32_t, size_t> function_begins_;  // function id -> first instruction
  std::vector<size_t> call_stack_;              // return addresses (OpFunctionCall)
  uint32_t main_ = 0;
  size_t main_begin_ = 0, main_end_ = 0;
  uint32_t glsl_set_ = 0;
  bool killed_ = false;
};

}  // namespace novem::test
