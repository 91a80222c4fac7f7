#include "log.hpp"

#include "novem/log.hpp"

#include <cstdarg>

namespace novem {

void log_error(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  process_logger().vwrite(LogLevel::error, "novem", fmt, args);
  va_end(args);
}

void log_warn(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  process_logger().vwrite(LogLevel::warn, "novem", fmt, args);
  va_end(args);
}

void log_info(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  process_logger().vwrite(LogLevel::info, "novem", fmt, args);
  va_end(args);
}

void log_debug(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  process_logger().vwrite(LogLevel::debug, "novem", fmt, args);
  va_end(args);
}

void log_unimplemented(std::atomic<bool> &once, const char *method) {
  if (!once.exchange(true)) log_warn("%s is not implemented yet", method);
}

} // namespace novem
