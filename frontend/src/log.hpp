// The frontend's messages, through the one logger (novem/log.hpp): each line "novem: ...".
// Quiet unless something is wrong (error, warn), except for what NOVEM_LOG asks for.
#pragma once

#include <atomic>

namespace novem {

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Reports a D3D9 method that Novem does not implement yet, once per method per process (warn).
void log_unimplemented(std::atomic<bool> &once, const char *method);

} // namespace novem

// Body of a method Novem does not implement yet: logs once, returns `result`.
#define NOVEM_UNIMPLEMENTED(result)                                                             \
  do {                                                                                          \
    static std::atomic<bool> novem_once_{false};                                                \
    ::novem::log_unimplemented(novem_once_, __func__);                                          \
    return result;                                                                              \
  } while (0)
