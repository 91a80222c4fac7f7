// The OpenGL plugin's messages, through the one logger (novem/log.hpp) at level warn, each line
// "novem-opengl: ...". A process-wide budget keeps a broken frame from flooding the log: after it
// is spent, one last line says so.
#pragma once

namespace novem_gl {

void log(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace novem_gl
