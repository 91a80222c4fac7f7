#include "gl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "gl_log.hpp"

namespace novem_gl {

namespace {

// eglGetPlatformDisplayEXT returns the same EGLDisplay for every caller and eglTerminate ends it
// for all of them, so the devices and probes of this process share it by count.
std::mutex display_mutex;
int display_users = 0;
EGLDisplay shared_display = EGL_NO_DISPLAY;

bool has_word(const char *list, const char *word) {
  if (!list) return false;
  size_t n = std::strlen(word);
  for (const char *p = list; (p = std::strstr(p, word)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

EGLDisplay acquire_display(std::string &error) {
  std::lock_guard lock(display_mutex);
  if (display_users > 0) {
    ++display_users;
    return shared_display;
  }
  const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_word(client, "EGL_EXT_platform_base") || !has_word(client, "EGL_MESA_platform_surfaceless")) {
    error = "EGL lacks EGL_EXT_platform_base/EGL_MESA_platform_surfaceless";
    return EGL_NO_DISPLAY;
  }
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display = get_platform_display
                           ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                           : EGL_NO_DISPLAY;
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    error = "cannot initialize the EGL surfaceless display (EGL error 0x" + [] {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%04x", eglGetError());
      return std::string(hex);
    }() + ")";
    return EGL_NO_DISPLAY;
  }
  shared_display = display;
  display_users = 1;
  return display;
}

void release_display() {
  std::lock_guard lock(display_mutex);
  if (--display_users == 0) {
    eglTerminate(shared_display);
    shared_display = EGL_NO_DISPLAY;
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

bool Context::create(bool debug, std::string &error) {
  EGLDisplay display = acquire_display(error);
  if (display == EGL_NO_DISPLAY) return false;
  display_ = display;

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
  if (!has_word(ext, "EGL_KHR_no_config_context")) {
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
  gl = NovemGL{};
  release_display();
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
