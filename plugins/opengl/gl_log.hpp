// One-line diagnostics on stderr, each prefixed "novem-opengl:". A process-wide budget keeps a
// broken frame from flooding the terminal: after it is spent one last line says so.
#pragma once

namespace novem_gl {

void log(const char *format, ...) __attribute__((format(printf, 1, 2)));

// Environment switches: unset or "0" is off, anything else on.
bool env_flag(const char *name, bool fallback);

} // namespace novem_gl
