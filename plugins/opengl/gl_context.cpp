#include "gl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "gl_log.hpp"

namespace novem_gl {

namespace {

// eglGetPlatformDisplayEXT returns the same EGLDisplay for every caller of one native display
// and eglTerminate ends it for all of them, so the devices and probes of this process share each
// display by count: the surfaceless one (key nullptr) and one per X11 Display*.
std::mutex display_mutex;
struct SharedDisplay {
  EGLDisplay display;
  int users;
};
std::map<void *, SharedDisplay> shared_displays;

bool has_word(const char *list, const char *word) {
  if (!list) return false;
  size_t n = std::strlen(word);
  for (const char *p = list; (p = std::strstr(p, word)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

std::string egl_error() {
  char hex[16];
  std::snprintf(hex, sizeof hex, "%04x", eglGetError());
  return std::string("EGL error 0x") + hex;
}

EGLDisplay acquire_display(void *x11_display, std::string &error) {
  std::lock_guard lock(display_mutex);
  if (auto it = shared_displays.find(x11_display); it != shared_displays.end()) {
    ++it->second.users;
    return it->second.display;
  }
  const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const char *platform = x11_display ? "EGL_KHR_platform_x11" : "EGL_MESA_platform_surfaceless";
  if (!has_word(client, "EGL_EXT_platform_base") || !has_word(client, platform)) {
    error = std::string("EGL lacks EGL_EXT_platform_base/") + platform;
    return EGL_NO_DISPLAY;
  }
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display = EGL_NO_DISPLAY;
  if (get_platform_display)
    display = x11_display ? get_platform_display(EGL_PLATFORM_X11_KHR, x11_display, nullptr)
                          : get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    error = std::string("cannot initialize the EGL ") + (x11_display ? "X11" : "surfaceless") + " display (" +
            egl_error() + ")";
    return EGL_NO_DISPLAY;
  }
  shared_displays[x11_display] = SharedDisplay{display, 1};
  return display;
}

void release_display(void *x11_display) {
  std::lock_guard lock(display_mutex);
  auto it = shared_displays.find(x11_display);
  if (it != shared_displays.end() && --it->second.users == 0) {
    eglTerminate(it->second.display);
    shared_displays.erase(it);
  }
}

void *get_proc(const char *name) { return reinterpret_cast<void *>(eglGetProcAddress(name)); }

void KHRONOS_APIENTRY debug_message(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar *message,
                                    const void *) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  const char *kind = type == GL_DEBUG_TYPE_ERROR ? "error" : type == GL_DEBUG_TYPE_PERFORMANCE ? "performance" : "debug";
  log("GL %s %u: %s", kind, id, message);
}

} // namespace

bool Context::create(bool debug, void *x11_display, std::string &error) {
  EGLDisplay display = acquire_display(x11_display, error);
  if (display == EGL_NO_DISPLAY) return false;
  display_ = display;
  native_ = x11_display;

  const char *ext = eglQueryString(display, EGL_EXTENSIONS);
  if (!has_word(ext, "EGL_KHR_surfaceless_context") || !has_word(ext, "EGL_KHR_create_context")) {
    error = "EGL lacks EGL_KHR_surfaceless_context/EGL_KHR_create_context";
    destroy();
    return false;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    error = "EGL cannot bind the OpenGL API";
    destroy();
    return false;
  }
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (x11_display) { // the window surfaces' config: 8-bit RGB, double-buffered windows
    const EGLint want[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                           EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display, want, &config, 1, &count) || count < 1) {
      error = "EGL has no config for OpenGL windows";
      destroy();
      return false;
    }
    config_ = config;
  } else if (!has_word(ext, "EGL_KHR_no_config_context")) {
    const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display, want, &config, 1, &count) || count < 1) {
      error = "EGL has no config for OpenGL";
      destroy();
      return false;
    }
  }
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION_KHR, 4,
                            EGL_CONTEXT_MINOR_VERSION_KHR, 5,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR,
                            EGL_CONTEXT_FLAGS_KHR, debug ? EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR : 0,
                            EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT) {
    error = "EGL cannot create an OpenGL 4.5 core context";
    destroy();
    return false;
  }
  context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    error = "EGL cannot make the OpenGL context current without a surface";
    destroy();
    return false;
  }

  novem_gl_load(&gl, get_proc);
  GLint major = 0, minor = 0, profile = 0;
  if (gl.GetIntegerv) {
    gl.GetIntegerv(GL_MAJOR_VERSION, &major);
    gl.GetIntegerv(GL_MINOR_VERSION, &minor);
    gl.GetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  }
  if (major * 10 + minor < 45 || !(profile & GL_CONTEXT_CORE_PROFILE_BIT)) {
    error = "OpenGL 4.5 core is not available (got " + std::to_string(major) + "." + std::to_string(minor) + ")";
    destroy();
    return false;
  }
  if (debug) {
    gl.Enable(GL_DEBUG_OUTPUT);
    gl.Enable(GL_DEBUG_OUTPUT_SYNCHRONOUS); // messages arrive on this thread, inside the call at fault
    gl.DebugMessageCallback(debug_message, nullptr);
    debug_output = true;
  }
  return true;
}

void Context::destroy() {
  if (!display_) return;
  if (context_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    context_ = nullptr;
  }
  eglReleaseThread();
  display_ = nullptr;
  current_ = nullptr;
  config_ = nullptr;
  gl = NovemGL{};
  release_display(native_);
  native_ = nullptr;
}

void *Context::create_window_surface(void *x11_display, uint64_t window, std::string &error) {
  if (!native_ || x11_display != native_) {
    error = "the OpenGL context was made for another display (a device presents only to windows of its own "
            "window's display)";
    return nullptr;
  }
  EGLSurface surface = eglCreateWindowSurface(display_, config_, EGLNativeWindowType(window), nullptr);
  if (surface == EGL_NO_SURFACE) {
    error = "eglCreateWindowSurface failed (" + egl_error() + ")";
    return nullptr;
  }
  return surface;
}

void Context::destroy_window_surface(void *surface) {
  if (!surface) return;
  if (surface == current_) {
    int w = 0, h = 0;
    bind_window_surface(nullptr, 0, w, h);
  }
  eglDestroySurface(display_, surface);
}

bool Context::bind_window_surface(void *surface, int interval, int &width, int &height) {
  if (surface != current_) {
    if (!eglMakeCurrent(display_, surface ? surface : EGL_NO_SURFACE, surface ? surface : EGL_NO_SURFACE, context_))
      return false;
    current_ = surface;
  }
  if (!surface) return true;
  eglSwapInterval(display_, interval);
  EGLint w = 0, h = 0;
  eglQuerySurface(display_, surface, EGL_WIDTH, &w);
  eglQuerySurface(display_, surface, EGL_HEIGHT, &h);
  width = w;
  height = h;
  return true;
}

bool Context::swap_buffers(void *surface) { return eglSwapBuffers(display_, surface); }

uint32_t Context::max_anisotropy() const {
  if (!has_extension("GL_ARB_texture_filter_anisotropic") && !has_extension("GL_EXT_texture_filter_anisotropic")) return 1;
  GLfloat most = 1.0f;
  gl.GetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT, &most);
  return most >= 16.0f ? 16u : most > 1.0f ? uint32_t(most) : 1u;
}

bool Context::has_extension(const char *name) const {
  GLint count = 0;
  gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const GLubyte *e = gl.GetStringi(GL_EXTENSIONS, GLuint(i));
    if (e && !std::strcmp(reinterpret_cast<const char *>(e), name)) return true;
  }
  return false;
}

} // namespace novem_gl
