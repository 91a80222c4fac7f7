// novem-shader: D3D9 shader bytecode tool.
//   novem-shader asm IN.asm -o OUT.bin   assemble D3D9 assembly text into bytecode
//   novem-shader dis IN.bin              print the disassembly of bytecode
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

#include "assembler.hpp"
#include "disassembler.hpp"
#include "parser.hpp"

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

int cmd_dis(const std::vector<std::string>& args) {
  if (args.size() != 1) return fail("usage: novem-shader dis IN.bin", 2);
  std::string bytes;
  if (!read_file(args[0], bytes)) return fail(args[0] + ": cannot read");
  if (bytes.size() % 4 != 0) return fail(args[0] + ": size " + std::to_string(bytes.size()) + " is not a multiple of 4");
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b)
      words[i] |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * i + static_cast<size_t>(b)])) << (8 * b);
  ParseResult r = parse_shader(words.data(), words.size());
  if (!r.ok) return fail(args[0] + ": " + r.error);
  std::cout << disassemble(r.program);
  return 0;
}

struct Subcommand {
  const char* name;
  const char* usage;
  int (*run)(const std::vector<std::string>& args);
};

// spirv and glsl join this table once the translator exists.
constexpr Subcommand kSubcommands[] = {
    {"asm", "asm IN.asm -o OUT.bin   assemble D3D9 shader assembly into bytecode", cmd_asm},
    {"dis", "dis IN.bin              print the disassembly of D3D9 shader bytecode", cmd_dis},
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
