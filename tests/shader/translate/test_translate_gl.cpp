// The GLSL that the OpenGL plugin gets (SPIRV-Cross, GLSL 450) compiles and links, as a
// separable program per stage, on the local GL 4.5 driver (EGL, surfaceless). Skipped with a
// warning when no such context can be made (no driver in the environment).
#include <catch2/catch.hpp>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "parser.hpp"
#include "spirv_test_support.hpp"
#include "translate.hpp"

using namespace novem::d3d9;

namespace {

// The few GL 4.5 entry points used, loaded through eglGetProcAddress (only libEGL is linked).
using GLuint = unsigned int;
using GLint = int;
using GLenum = unsigned int;
using GLsizei = int;
using GLchar = char;
constexpr GLenum kVertexShader = 0x8B31, kFragmentShader = 0x8B30, kLinkStatus = 0x8B82,
                 kInfoLogLength = 0x8B84;
struct Gl {
  GLuint (*CreateShaderProgramv)(GLenum, GLsizei, const GLchar* const*) = nullptr;
  void (*GetProgramiv)(GLuint, GLenum, GLint*) = nullptr;
  void (*GetProgramInfoLog)(GLuint, GLsizei, GLsizei*, GLchar*) = nullptr;
  void (*DeleteProgram)(GLuint) = nullptr;
};

struct Context {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  Gl gl;
  std::string why;   // set when no context
  Context() {
    auto get_platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!get_platform_display) {
      why = "no eglGetPlatformDisplayEXT";
      return;
    }
    display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
      why = "no surfaceless EGL display";
      display = EGL_NO_DISPLAY;
      return;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      why = "no desktop GL API";
      return;
    }
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      why = "no GL 4.5 core context";
      context = EGL_NO_CONTEXT;
      return;
    }
    gl.CreateShaderProgramv = reinterpret_cast<decltype(gl.CreateShaderProgramv)>(eglGetProcAddress("glCreateShaderProgramv"));
    gl.GetProgramiv = reinterpret_cast<decltype(gl.GetProgramiv)>(eglGetProcAddress("glGetProgramiv"));
    gl.GetProgramInfoLog = reinterpret_cast<decltype(gl.GetProgramInfoLog)>(eglGetProcAddress("glGetProgramInfoLog"));
    gl.DeleteProgram = reinterpret_cast<decltype(gl.DeleteProgram)>(eglGetProcAddress("glDeleteProgram"));
    if (!gl.CreateShaderProgramv || !gl.GetProgramiv || !gl.GetProgramInfoLog || !gl.DeleteProgram) why = "missing GL entry points";
  }
  ~Context() {
    if (context != EGL_NO_CONTEXT) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display, context);
    }
    if (display != EGL_NO_DISPLAY) eglTerminate(display);
  }
  bool ok() const { return why.empty(); }
};

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("the GLSL of every translatable corpus shader compiles and links on the GL driver") {
  Context ctx;
  if (!ctx.ok()) {
    WARN("skipped: " << ctx.why);
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const char* dir : {NOVEM_D3D9_CORPUS_DIR, NOVEM_TRANSLATE_CORPUS_DIR})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".asm") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  int compiled = 0;
  for (const auto& f : files) {
    const AssembleResult a = assemble(read_text(f));
    REQUIRE(a.ok);
    const ParseResult p = parse_shader(a.tokens.data(), a.tokens.size());
    REQUIRE(p.ok);
    const Translation t = translate(p.program);
    if (!t.ok()) continue;   // refusals are tested in test_d3d9_translate
    const auto glsl = novem::test::cross_to_glsl(t.spirv);
    INFO(f.filename().string() << "\n" << glsl.text);
    REQUIRE(glsl.ok);
    const char* src = glsl.text.c_str();
    const GLuint prog = ctx.gl.CreateShaderProgramv(t.reflection.vertex ? kVertexShader : kFragmentShader, 1, &src);
    GLint linked = 0, len = 0;
    ctx.gl.GetProgramiv(prog, kLinkStatus, &linked);
    ctx.gl.GetProgramiv(prog, kInfoLogLength, &len);
    std::string log(static_cast<size_t>(std::max(len, 1)), '\0');
    ctx.gl.GetProgramInfoLog(prog, len, nullptr, log.data());
    INFO(log);
    CHECK(linked == 1);
    ctx.gl.DeleteProgram(prog);
    ++compiled;
  }
  CHECK(compiled >= 20);
}
