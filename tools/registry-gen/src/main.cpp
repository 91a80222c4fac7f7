// novem-registry-gen <subcommand> [--option value]...
// One subcommand per output; each is a function in its own file.
#include <cstdio>
#include <cstring>

#include "com_forward_generator.hpp"
#include "gl_generator.hpp"
#include "vk_generator.hpp"
#include "vk_intercept_generator.hpp"

namespace {

struct Subcommand {
  const char *name;
  int (*run)(int argc, char **argv); // argv: the options after the subcommand
  const char *usage;
};

constexpr Subcommand subcommands[] = {
    {"gl", regen::run_gl, regen::gl_usage},
    {"vk", regen::run_vk, regen::vk_usage},
    {"vk-intercepts", regen::run_vk_intercepts, regen::vk_intercepts_usage},
    {"com-forward", regen::run_com_forward, regen::com_forward_usage},
};

void print_usage(FILE *to) {
  std::fprintf(to, "usage: novem-registry-gen <subcommand> [--option value]...\n");
  for (const Subcommand &s : subcommands) std::fprintf(to, "\n%s", s.usage);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const Subcommand &s : subcommands)
    if (!std::strcmp(argv[1], s.name)) return s.run(argc - 2, argv + 2);
  std::fprintf(stderr, "novem-registry-gen: unknown subcommand '%s'\n", argv[1]);
  print_usage(stderr);
  return 2;
}
