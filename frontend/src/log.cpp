#include "log.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace novem {

namespace {

bool info_enabled() {
  static const bool enabled = [] {
    const char *v = std::getenv("NOVEM_LOG");
    return v && std::strcmp(v, "info") == 0;
  }();
  return enabled;
}

void vlog(const char *fmt, va_list args) {
  char line[1024];
  std::vsnprintf(line, sizeof line, fmt, args);
  std::fprintf(stderr, "novem: %s\n", line);
}

} // namespace

void log_error(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vlog(fmt, args);
  va_end(args);
}

void log_info(const char *fmt, ...) {
  if (!info_enabled()) return;
  va_list args;
  va_start(args, fmt);
  vlog(fmt, args);
  va_end(args);
}

void log_unimplemented(std::atomic<bool> &once, const char *method) {
  if (!once.exchange(true)) log_error("%s is not implemented yet", method);
}

} // namespace novem
