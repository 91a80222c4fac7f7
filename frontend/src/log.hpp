// One-line diagnostics on stderr, each prefixed "novem:". Quiet unless something is wrong,
// except for what NOVEM_LOG=info asks for.
#pragma once

#include <atomic>

namespace novem {

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Reports a D3D9 method that Novem does not implement yet, once per method per process.
void log_unimplemented(std::atomic<bool> &once, const char *method);

} // namespace novem

// Body of a method Novem does not implement yet: logs once, returns `result`.
#define NOVEM_UNIMPLEMENTED(result)                                                             \
  do {                                                                                          \
    static std::atomic<bool> novem_once_{false};                                                \
    ::novem::log_unimplemented(novem_once_, __func__);                                          \
    return result;                                                                              \
  } while (0)
