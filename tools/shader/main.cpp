// novem-shader: D3D9 shader bytecode tool.
//   novem-shader asm IN.asm -o OUT.bin   assemble D3D9 assembly text into bytecode
//   novem-shader dis IN.bin              print the disassembly of bytecode
//   novem-shader spirv IN.bin [-o OUT.spv] [--dis] [--reflect] [--software-vertex]
//                                        translate to SPIR-V (binary to OUT or stdout; --dis:
//                                        SPIRV-Tools disassembly; --reflect: the reflection;
//                                        --software-vertex: for a device of software vertex
//                                        processing, whose vertex shaders read c0..c8191)
//   novem-shader glsl IN.bin [--reflect] [--software-vertex]
//                                        print GLSL 450 as the OpenGL plugin gets it (SPIRV-Cross)
// Errors: one line on stderr, exit status 1 (bad input) or 2 (usage).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <spirv-tools/libspirv.hpp>
#include <spirv_cross_c.h>

#include "assembler.hpp"
#include "disassembler.hpp"
#include "parser.hpp"
#include "translate.hpp"

namespace {

using namespace novem::d3d9;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

int fail(const std::string& message, int status = 1) {
  std::cerr << "novem-shader: " << message << "\n";
  return status;
}

int cmd_asm(const std::vector<std::string>& args) {
  std::string in_path, out_path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) out_path = args[++i];
    else if (in_path.empty() && args[i] != "-o") in_path = args[i];
    else return fail("usage: novem-shader asm IN.asm -o OUT.bin", 2);
  }
  if (in_path.empty() || out_path.empty()) return fail("usage: novem-shader asm IN.asm -o OUT.bin", 2);
  std::string text;
  if (!read_file(in_path, text)) return fail(in_path + ": cannot read");
  AssembleResult r = assemble(text);
  if (!r.ok) return fail(in_path + ": " + r.error);
  std::string bytes;
  for (uint32_t w : r.tokens)   // little-endian DWORDs, as D3D9 bytecode is stored
    for (int b = 0; b < 4; ++b) bytes += static_cast<char>((w >> (8 * b)) & 0xFF);
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush())
    return fail(out_path + ": cannot write");
  return 0;
}

bool read_bytecode(const std::string& path, std::vector<uint32_t>& words, int& status) {
  std::string bytes;
  if (!read_file(path, bytes)) {
    status = fail(path + ": cannot read");
    return false;
  }
  if (bytes.size() % 4 != 0) {
    status = fail(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4");
    return false;
  }
  words.assign(bytes.size() / 4, 0u);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b)
      words[i] |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * i + static_cast<size_t>(b)])) << (8 * b);
  return true;
}

int cmd_dis(const std::vector<std::string>& args) {
  if (args.size() != 1) return fail("usage: novem-shader dis IN.bin", 2);
  std::vector<uint32_t> words;
  int status = 0;
  if (!read_bytecode(args[0], words, status)) return status;
  // The largest files, as the assembler takes them: a vertex shader may read c8191.
  ParseResult r = parse_shader(words.data(), words.size(), ParseOptions{.software_vertex = true});
  if (!r.ok) return fail(args[0] + ": " + r.error);
  std::cout << disassemble(r.program);
  return 0;
}

// Parses and translates IN.bin for a device of these options; status != 0 on failure (already
// reported).
bool load_translation(const std::string& path, const ParseOptions& options, Translation& t, int& status) {
  std::vector<uint32_t> words;
  if (!read_bytecode(path, words, status)) return false;
  ParseResult r = parse_shader(words.data(), words.size(), options);
  if (!r.ok) {
    status = fail(path + ": " + r.error);
    return false;
  }
  t = translate(r.program);
  if (!t.ok()) {
    status = fail(path + ": " + t.error);
    return false;
  }
  return true;
}

const char* sampler_type_name(uint8_t t) {
  switch (static_cast<SamplerType>(t)) {
    case SamplerType::Tex1D: return "1d";
    case SamplerType::Tex2D: return "2d";
    case SamplerType::Cube: return "cube";
    case SamplerType::Volume: return "volume";
    default: return "unknown";
  }
}

void print_reflection(const ShaderReflection& r, std::ostream& out) {
  const char* p = "// ";
  out << p << "reflection: " << r.version.name() << ", uniform block binding " << r.uniform_binding
      << (r.uses_uniforms ? "" : " (not declared)") << (r.uses_software_constants ? ", software constants" : "") << "\n";
  for (const auto& in : r.inputs)
    out << p << "input " << register_name(in.type, in.reg, r.version) << " usage "
        << (usage_name(in.usage) ? usage_name(in.usage) : "?") << static_cast<int>(in.usage_index)
        << " location " << in.location << (in.centroid ? " centroid" : "") << "\n";
  for (const auto& o : r.outputs) {
    out << p << "output " << register_name(o.type, o.reg, r.version) << " usage "
        << (usage_name(o.usage) ? usage_name(o.usage) : "?") << static_cast<int>(o.usage_index) << " location ";
    if (o.location == ShaderReflection::kBuiltin) out << "builtin";
    else out << o.location;
    out << "\n";
  }
  for (uint32_t i = 0; i < 16; ++i)
    if (r.samplers_used >> i & 1u) out << p << "sampler s" << i << " " << sampler_type_name(r.sampler_types[i]) << "\n";
  if (!r.vertex)
    out << p << "color outputs 0x" << std::hex << r.color_outputs << std::dec << (r.writes_depth ? ", depth" : "")
        << (r.uses_kill ? ", kill" : "") << (r.uses_position ? ", vPos" : "") << (r.uses_face ? ", vFace" : "") << "\n";
  else
    out << p << "point size " << (r.writes_point_size ? "written" : "1.0") << "\n";
}

int cmd_spirv(const std::vector<std::string>& args) {
  const char* use = "usage: novem-shader spirv IN.bin [-o OUT.spv] [--dis] [--reflect] [--software-vertex]";
  std::string in_path, out_path;
  bool dis = false, reflect = false;
  ParseOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--dis") dis = true;
    else if (args[i] == "--reflect") reflect = true;
    else if (args[i] == "--software-vertex") options.software_vertex = true;
    else if (args[i] == "-o" && i + 1 < args.size()) out_path = args[++i];
    else if (in_path.empty() && args[i][0] != '-') in_path = args[i];
    else return fail(use, 2);
  }
  if (in_path.empty()) return fail(use, 2);
  Translation t;
  int status = 0;
  if (!load_translation(in_path, options, t, status)) return status;
  if (reflect) print_reflection(t.reflection, dis || !out_path.empty() ? std::cout : std::cerr);
  if (dis) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_0);
    std::string text;
    if (!tools.Disassemble(t.spirv, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
      return fail(in_path + ": SPIRV-Tools could not disassemble the module");
    std::cout << text;
  }
  if (!out_path.empty() || !dis) {
    std::string bytes(t.spirv.size() * 4, '\0');
    for (size_t i = 0; i < t.spirv.size(); ++i)
      for (int b = 0; b < 4; ++b) bytes[4 * i + static_cast<size_t>(b)] = static_cast<char>((t.spirv[i] >> (8 * b)) & 0xFF);
    if (out_path.empty()) {
      std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      std::cout.flush();
    } else {
      std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
      if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush())
        return fail(out_path + ": cannot write");
    }
  }
  return 0;
}

// GLSL 450 through SPIRV-Cross's C API, as the OpenGL plugin compiles it.
int cmd_glsl(const std::vector<std::string>& args) {
  const char* use = "usage: novem-shader glsl IN.bin [--reflect] [--software-vertex]";
  std::string in_path;
  bool reflect = false;
  ParseOptions parse;
  for (const std::string& a : args) {
    if (a == "--reflect") reflect = true;
    else if (a == "--software-vertex") parse.software_vertex = true;
    else if (in_path.empty() && a[0] != '-') in_path = a;
    else return fail(use, 2);
  }
  if (in_path.empty()) return fail(use, 2);
  Translation t;
  int status = 0;
  if (!load_translation(in_path, parse, t, status)) return status;
  spvc_context ctx = nullptr;
  if (spvc_context_create(&ctx) != SPVC_SUCCESS) return fail("spvc_context_create failed");
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  const char* glsl = nullptr;
  const bool ok =
      spvc_context_parse_spirv(ctx, t.spirv.data(), t.spirv.size(), &ir) == SPVC_SUCCESS &&
      spvc_context_create_compiler(ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) == SPVC_SUCCESS &&
      spvc_compiler_create_compiler_options(compiler, &options) == SPVC_SUCCESS &&
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 450) == SPVC_SUCCESS &&
      spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE) == SPVC_SUCCESS &&
      spvc_compiler_install_compiler_options(compiler, options) == SPVC_SUCCESS &&
      spvc_compiler_compile(compiler, &glsl) == SPVC_SUCCESS && glsl;
  std::string text = ok ? std::string(glsl) : std::string(spvc_context_get_last_error_string(ctx));
  spvc_context_destroy(ctx);
  if (!ok) return fail(in_path + ": SPIRV-Cross: " + text);
  if (reflect) print_reflection(t.reflection, std::cout);
  std::cout << text;
  return 0;
}

struct Subcommand {
  const char* name;
  const char* usage;
  int (*run)(const std::vector<std::string>& args);
};

constexpr Subcommand kSubcommands[] = {
    {"asm", "asm IN.asm -o OUT.bin   assemble D3D9 shader assembly into bytecode", cmd_asm},
    {"dis", "dis IN.bin              print the disassembly of D3D9 shader bytecode", cmd_dis},
    {"spirv", "spirv IN.bin [-o OUT.spv] [--dis] [--reflect] [--software-vertex]\n"
              "                                   translate to SPIR-V (binary, or its disassembly)", cmd_spirv},
    {"glsl", "glsl IN.bin [--reflect] [--software-vertex]\n"
             "                                   print GLSL 450 as the OpenGL plugin gets it (SPIRV-Cross)", cmd_glsl},
};

int usage() {
  std::cerr << "usage: novem-shader SUBCOMMAND ...\n";
  for (const Subcommand& s : kSubcommands) std::cerr << "  novem-shader " << s.usage << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string_view name = argv[1];
  if (name == "-h" || name == "--help") {
    usage();
    return 0;
  }
  for (const Subcommand& s : kSubcommands)
    if (name == s.name) return s.run(std::vector<std::string>(argv + 2, argv + argc));
  std::cerr << "novem-shader: unknown subcommand '" << name << "'\n";
  return usage();
}
