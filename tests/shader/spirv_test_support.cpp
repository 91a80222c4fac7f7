#define SPV_ENABLE_UTILITY_CODE 1  // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include "spirv_test_support.hpp"

#include <cstdlib>
#include <fstream>

#include <spirv-tools/libspirv.hpp>
#include <spirv_cross_c.h>

namespace novem::test {

std::vector<std::string> validate(std::span<const uint32_t> words, spv_target_env env) {
  std::vector<std::string> messages;
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer([&messages](spv_message_level_t, const char*, const spv_position_t& pos,
                                       const char* message) {
    messages.push_back("word " + std::to_string(pos.index) + ": " + message);
  });
  spvtools::ValidatorOptions options;
  const bool ok = tools.Validate(words.data(), words.size(), options);
  if (!ok && messages.empty()) messages.emplace_back("invalid (no message)");
  return messages;
}

CrossResult cross_to_glsl(std::span<const uint32_t> words, unsigned version, bool es) {
  CrossResult r;
  spvc_context ctx = nullptr;
  if (spvc_context_create(&ctx) != SPVC_SUCCESS) {
    r.text = "spvc_context_create failed";
    return r;
  }
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  const char* glsl = nullptr;
  if (spvc_context_parse_spirv(ctx, words.data(), words.size(), &ir) == SPVC_SUCCESS &&
      spvc_context_create_compiler(ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) == SPVC_SUCCESS &&
      spvc_compiler_create_compiler_options(compiler, &options) == SPVC_SUCCESS &&
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, version) ==
          SPVC_SUCCESS &&
      spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES,
                                     es ? SPVC_TRUE : SPVC_FALSE) == SPVC_SUCCESS &&
      spvc_compiler_install_compiler_options(compiler, options) == SPVC_SUCCESS &&
      spvc_compiler_compile(compiler, &glsl) == SPVC_SUCCESS && glsl) {
    r.ok = true;
    r.text = glsl;
  } else {
    const char* e = spvc_context_get_last_error_string(ctx);
    r.text = e ? e : "unknown SPIRV-Cross error";
  }
  spvc_context_destroy(ctx);
  return r;
}

bool parse_instructions(std::span<const uint32_t> words, std::vector<Instruction>& out) {
  out.clear();
  if (words.size() < 5) return false;
  size_t i = 5;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) return false;
    Instruction inst;
    inst.opcode = words[i] & 0xFFFFu;
    inst.operands.assign(words.begin() + static_cast<ptrdiff_t>(i) + 1,
                         words.begin() + static_cast<ptrdiff_t>(i + count));
    out.push_back(std::move(inst));
    i += count;
  }
  return true;
}

uint32_t result_id(const Instruction& inst) {
  bool has_result = false, has_type = false;
  spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
  if (!has_result) return 0;
  const size_t index = has_type ? 1 : 0;
  return index < inst.operands.size() ? inst.operands[index] : 0;
}

std::string literal_string(const Instruction& inst, size_t first) {
  std::string s;
  for (size_t i = first; i < inst.operands.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((inst.operands[i] >> (8 * b)) & 0xFFu);
      if (c == '\0') return s;
      s.push_back(c);
    }
  }
  return s;
}

void dump_module(const std::string& name, std::span<const uint32_t> words) {
  const char* dir = std::getenv("NOVEM_SHADER_DUMP_DIR");
  if (!dir || !*dir) return;
  std::ofstream f(std::string(dir) + "/" + name + ".spv", std::ios::binary);
  f.write(reinterpret_cast<const char*>(words.data()),
          static_cast<std::streamsize>(words.size() * sizeof(uint32_t)));
}

}  // namespace novem::test
