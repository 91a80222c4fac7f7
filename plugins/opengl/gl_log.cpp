#include "gl_log.hpp"

#include "novem/log.hpp"

#include <cstdarg>

namespace novem_gl {

namespace {
novem::LogBudget budget(64);
} // namespace

void log(const char *format, ...) {
  novem::Logger &logger = novem::process_logger();
  if (!budget.take(logger, novem::LogLevel::warn, "novem-opengl")) return;
  va_list args;
  va_start(args, format);
  logger.vwrite(novem::LogLevel::warn, "novem-opengl", format, args);
  va_end(args);
}

} // namespace novem_gl
