// The one logger of the frontend and the plugins: one line per message, "<component>: <text>",
// on stderr or in the file NOVEM_LOG_FILE names (appended to), at the levels NOVEM_LOG lets through:
//   error  what failed (a call the program made, a device lost)
//   warn   what was refused, ignored or worked around (the default level: errors and warnings)
//   info   what was chosen (backend, devices, caches)
//   debug  what a developer of Novem wants to see (creations, fallbacks taken)
//   trace  every D3D9 call with its arguments and its result
// Each module (libnovem_d3d9.so, each plugin) reads the two variables once; an unknown level is one
// line and `warn`; a file that cannot be opened is one line and stderr. Header-only, so that a
// plugin built on its own needs nothing of the frontend.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "novem/options.hpp"

namespace novem {

enum class LogLevel { error, warn, info, debug, trace };

class Logger {
public:
  // `level` and `file` as NOVEM_LOG and NOVEM_LOG_FILE give them (null: unset).
  Logger(const char *level, const char *file) {
    static constexpr const char *kNames[] = {"error", "warn", "info", "debug", "trace"};
    bool known = !level || !*level;
    for (int i = 0; !known && i < 5; ++i)
      if (std::strcmp(level, kNames[i]) == 0) {
        level_ = static_cast<LogLevel>(i);
        known = true;
      }
    if (file && *file) {
      sink_ = std::fopen(file, "a");
      if (!sink_) std::fprintf(stderr, "novem: NOVEM_LOG_FILE=%s cannot be opened: %s; logging to stderr\n", file,
                               std::strerror(errno));
      else std::setvbuf(sink_, nullptr, _IOLBF, 0); // each line reaches the file as it is written
    }
    if (!known) write(LogLevel::error, "novem", "NOVEM_LOG=%s is not error, warn, info, debug or trace; using warn", level);
  }
  // The file stays open until the process ends: a message may come from any module's destructor.
  Logger(const Logger &) = delete;
  Logger &operator=(const Logger &) = delete;

  bool enabled(LogLevel level) const { return level <= level_; }
  LogLevel level() const { return level_; }

  void write(LogLevel level, const char *component, const char *format, ...) __attribute__((format(printf, 4, 5))) {
    va_list args;
    va_start(args, format);
    vwrite(level, component, format, args);
    va_end(args);
  }

  // One line whatever the text holds (a driver's message may have newlines, and be long), written
  // with one call so that lines of several threads do not mix.
  void vwrite(LogLevel level, const char *component, const char *format, va_list args) {
    if (!enabled(level)) return;
    va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, format, args);
    if (size < 0) {
      va_end(again);
      return;
    }
    const std::size_t prefix = std::strlen(component) + 2;
    std::string line(prefix + static_cast<std::size_t>(size) + 1, '\0');
    std::memcpy(line.data(), component, prefix - 2);
    std::memcpy(line.data() + prefix - 2, ": ", 2);
    std::vsnprintf(line.data() + prefix, static_cast<std::size_t>(size) + 1, format, again);
    va_end(again);
    line.resize(prefix + static_cast<std::size_t>(size));
    for (char &c : line)
      if (c == '\n' || c == '\r') c = ' ';
    while (!line.empty() && line.back() == ' ') line.pop_back();
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), sink_ ? sink_ : stderr);
  }

private:
  LogLevel level_ = LogLevel::warn;
  std::FILE *sink_ = nullptr;
};

// A flood guard for messages that can repeat every frame: `limit` of them are written, then one
// line says that the rest are not.
class LogBudget {
public:
  explicit LogBudget(int limit) : limit_(limit) {}
  // Whether one more message of `level` may be written now.
  bool take(Logger &logger, LogLevel level, const char *component) {
    if (!logger.enabled(level)) return false;
    const int n = used_.fetch_add(1, std::memory_order_relaxed);
    if (n == limit_) logger.write(level, component, "further messages suppressed");
    return n < limit_;
  }

private:
  std::atomic<int> used_{0};
  const int limit_;
};

// This module's logger, made from the settings (environment, then config file) at its first use
// and never destroyed.
inline Logger &process_logger() {
  static Logger *logger =
      new Logger(process_options().value("NOVEM_LOG"), process_options().value("NOVEM_LOG_FILE"));
  return *logger;
}

} // namespace novem
