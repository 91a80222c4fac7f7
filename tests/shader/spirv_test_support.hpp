// Test helpers for SPIR-V modules: SPIRV-Tools validation, SPIRV-Cross to GLSL, a tiny
// instruction walker and optional dumping of modules (NOVEM_SHADER_DUMP_DIR).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.h>

namespace novem::test {

// Every message the validator gives for the module in that target environment (empty = valid).
std::vector<std::string> validate(std::span<const uint32_t> words, spv_target_env env);

// GLSL from SPIRV-Cross's C API; ok = false with the error text on failure.
struct CrossResult {
  bool ok = false;
  std::string text;  // the GLSL, or the error
};
CrossResult cross_to_glsl(std::span<const uint32_t> words, unsigned version = 450, bool es = false);

// One instruction of a module.
struct Instruction {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the first
};
// Splits the instruction stream after the 5-word header; false on a malformed stream.
bool parse_instructions(std::span<const uint32_t> words, std::vector<Instruction>& out);
// The result id an instruction defines (0 if none).
uint32_t result_id(const Instruction& inst);
// Decodes a literal string starting at operands[first].
std::string literal_string(const Instruction& inst, size_t first);

// Writes the module to $NOVEM_SHADER_DUMP_DIR/<name>.spv when that variable is set.
void dump_module(const std::string& name, std::span<const uint32_t> words);

}  // namespace novem::test
