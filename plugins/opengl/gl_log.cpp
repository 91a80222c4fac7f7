#include "gl_log.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace novem_gl {

namespace {
constexpr int kMaxLines = 64;
std::atomic<int> lines{0};
} // namespace

void log(const char *format, ...) {
  int n = lines.fetch_add(1, std::memory_order_relaxed);
  if (n > kMaxLines) return;
  if (n == kMaxLines) {
    std::fputs("novem-opengl: further messages suppressed\n", stderr);
    return;
  }
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  for (char *c = line; *c; ++c) // one line, whatever the driver's text holds
    if (*c == '\n' || *c == '\r') *c = ' ';
  size_t len = std::strlen(line);
  while (len && line[len - 1] == ' ') line[--len] = 0;
  std::fprintf(stderr, "novem-opengl: %s\n", line);
}

} // namespace novem_gl
