// The EGL side: a surfaceless display (EGL_MESA_platform_surfaceless), or for a device with a
// window the window's X11 display (EGL_KHR_platform_x11), a GL 4.5 core context current on the
// calling thread, window surfaces on that display, and the GL dispatch table loaded through
// eglGetProcAddress.
// A Context is created, used and destroyed on one thread: the device's submission thread, or
// probe()'s own temporary thread.
#pragma once

#include <cstdint>
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
  // x11_display: an Xlib Display* whose windows the context will present to, or nullptr
  // (surfaceless). Returns false with one line in error when EGL or GL 4.5 core is unavailable.
  bool create(bool debug, void *x11_display, std::string &error);
  void destroy();

  // Window surfaces (a context made with an X11 display only). create_window_surface returns
  // nullptr with one line in error when the window cannot be drawn to.
  void *create_window_surface(void *x11_display, uint64_t window, std::string &error);
  void destroy_window_surface(void *surface);
  // Makes surface the context's draw and read surface (nullptr: none), sets the swap interval
  // (0 or 1) and answers its size in pixels; false when it cannot.
  bool bind_window_surface(void *surface, int interval, int &width, int &height);
  bool swap_buffers(void *surface);

  bool has_extension(const char *name) const;
  // The largest anisotropy the context filters with, up to D3D9's 16 (GL_MAX_TEXTURE_MAX_ANISOTROPY
  // with ARB_ or EXT_texture_filter_anisotropic), else 1.
  uint32_t max_anisotropy() const;

  NovemGL gl{};
  bool debug_output = false; // the KHR_debug callback reports GL errors

private:
  void *display_ = nullptr; // EGLDisplay
  void *context_ = nullptr; // EGLContext
  void *native_ = nullptr;  // the X11 Display*, or nullptr (surfaceless)
  void *config_ = nullptr;  // EGLConfig of the context and its window surfaces
  void *current_ = nullptr; // the window surface current, or nullptr
};

} // namespace novem_gl
