// novem-fuzz-seed OUT_DIR FILE.asm...: assembles each file into OUT_DIR/<name>.bin, the
// fuzzer's starting inputs.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "assembler.hpp"

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: novem-fuzz-seed OUT_DIR FILE.asm...\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::stringstream text;
    text << in.rdbuf();
    novem::d3d9::AssembleResult result = novem::d3d9::assemble(text.str());
    if (!result.ok) {
      std::fprintf(stderr, "novem-fuzz-seed: %s: %s\n", argv[i], result.error.c_str());
      return 1;
    }
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    std::ofstream out(std::string(argv[1]) + "/" + name + ".bin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(result.tokens.data()), std::streamsize(result.tokens.size() * 4));
  }
  return 0;
}
