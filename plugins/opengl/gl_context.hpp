// The EGL side: a surfaceless display (EGL_MESA_platform_surfaceless), a GL 4.5 core context
// current on the calling thread, and the GL dispatch table loaded through eglGetProcAddress.
// A Context is created, used and destroyed on one thread: the device's submission thread, or
// probe()'s own temporary thread.
#pragma once

#include <string>

#include "novem_gl.h"

namespace novem_gl {

class Context {
public:
  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context() { destroy(); }

  // debug: a debug context whose messages go to the log (KHR_debug, synchronous).
  // Returns false with one line in error when EGL or GL 4.5 core is unavailable.
  bool create(bool debug, std::string &error);
  void destroy();

  bool has_extension(const char *name) const;

  NovemGL gl{};
  bool debug_output = false; // the KHR_debug callback reports GL errors

private:
  void *display_ = nullptr; // EGLDisplay
  void *context_ = nullptr; // EGLContext
};

} // namespace novem_gl
