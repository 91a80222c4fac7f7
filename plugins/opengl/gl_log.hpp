// One-line diagnostics on stderr, each prefixed "novem-opengl:". A process-wide budget keeps a
// broken frame from flooding the terminal: after it is spent one last line says so.
#pragma once

namespace novem_gl {

void log(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace novem_gl
