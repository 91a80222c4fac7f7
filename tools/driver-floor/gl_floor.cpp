// The OpenGL floor: novem-bench's workloads issued straight to a GL 4.5 core context (EGL,
// surfaceless), into a framebuffer object, with GL entry points taken from eglGetProcAddress
// (only libEGL is linked, as the plugin does). What each workload issues per draw: README.md.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "floor.hpp"
#include "novem/driver_heap.hpp"

namespace driver_floor {
namespace {

// The GL entry points the floor calls, as (name, prototype type).
#define DRIVER_FLOOR_GL(X)                                                                                         \
  X(GetString, PFNGLGETSTRINGPROC)                                                                                 \
  X(GetIntegerv, PFNGLGETINTEGERVPROC)                                                                             \
  X(GetError, PFNGLGETERRORPROC)                                                                                   \
  X(CreateFramebuffers, PFNGLCREATEFRAMEBUFFERSPROC)                                                               \
  X(DeleteFramebuffers, PFNGLDELETEFRAMEBUFFERSPROC)                                                               \
  X(NamedFramebufferTexture, PFNGLNAMEDFRAMEBUFFERTEXTUREPROC)                                                     \
  X(BindFramebuffer, PFNGLBINDFRAMEBUFFERPROC)                                                                     \
  X(ClearNamedFramebufferfv, PFNGLCLEARNAMEDFRAMEBUFFERFVPROC)                                                     \
  X(Viewport, PFNGLVIEWPORTPROC)                                                                                   \
  X(CreateTextures, PFNGLCREATETEXTURESPROC)                                                                       \
  X(DeleteTextures, PFNGLDELETETEXTURESPROC)                                                                       \
  X(TextureStorage2D, PFNGLTEXTURESTORAGE2DPROC)                                                                   \
  X(TextureSubImage2D, PFNGLTEXTURESUBIMAGE2DPROC)                                                                 \
  X(BindTextureUnit, PFNGLBINDTEXTUREUNITPROC)                                                                     \
  X(CreateSamplers, PFNGLCREATESAMPLERSPROC)                                                                       \
  X(DeleteSamplers, PFNGLDELETESAMPLERSPROC)                                                                       \
  X(SamplerParameteri, PFNGLSAMPLERPARAMETERIPROC)                                                                 \
  X(BindSampler, PFNGLBINDSAMPLERPROC)                                                                             \
  X(CreateBuffers, PFNGLCREATEBUFFERSPROC)                                                                         \
  X(DeleteBuffers, PFNGLDELETEBUFFERSPROC)                                                                         \
  X(NamedBufferStorage, PFNGLNAMEDBUFFERSTORAGEPROC)                                                               \
  X(MapNamedBufferRange, PFNGLMAPNAMEDBUFFERRANGEPROC)                                                             \
  X(BindBufferRange, PFNGLBINDBUFFERRANGEPROC)                                                                     \
  X(CreateVertexArrays, PFNGLCREATEVERTEXARRAYSPROC)                                                               \
  X(DeleteVertexArrays, PFNGLDELETEVERTEXARRAYSPROC)                                                               \
  X(VertexArrayVertexBuffer, PFNGLVERTEXARRAYVERTEXBUFFERPROC)                                                     \
  X(VertexArrayAttribFormat, PFNGLVERTEXARRAYATTRIBFORMATPROC)                                                     \
  X(VertexArrayAttribBinding, PFNGLVERTEXARRAYATTRIBBINDINGPROC)                                                   \
  X(EnableVertexArrayAttrib, PFNGLENABLEVERTEXARRAYATTRIBPROC)                                                     \
  X(BindVertexArray, PFNGLBINDVERTEXARRAYPROC)                                                                     \
  X(CreateShader, PFNGLCREATESHADERPROC)                                                                           \
  X(ShaderSource, PFNGLSHADERSOURCEPROC)                                                                           \
  X(CompileShader, PFNGLCOMPILESHADERPROC)                                                                         \
  X(GetShaderiv, PFNGLGETSHADERIVPROC)                                                                             \
  X(GetShaderInfoLog, PFNGLGETSHADERINFOLOGPROC)                                                                   \
  X(DeleteShader, PFNGLDELETESHADERPROC)                                                                           \
  X(CreateProgram, PFNGLCREATEPROGRAMPROC)                                                                         \
  X(AttachShader, PFNGLATTACHSHADERPROC)                                                                           \
  X(LinkProgram, PFNGLLINKPROGRAMPROC)                                                                             \
  X(GetProgramiv, PFNGLGETPROGRAMIVPROC)                                                                           \
  X(GetProgramInfoLog, PFNGLGETPROGRAMINFOLOGPROC)                                                                 \
  X(DeleteProgram, PFNGLDELETEPROGRAMPROC)                                                                         \
  X(UseProgram, PFNGLUSEPROGRAMPROC)                                                                               \
  X(Enable, PFNGLENABLEPROC)                                                                                       \
  X(Disable, PFNGLDISABLEPROC)                                                                                     \
  X(BlendFunc, PFNGLBLENDFUNCPROC)                                                                                 \
  X(DrawArrays, PFNGLDRAWARRAYSPROC)                                                                               \
  X(MultiDrawArrays, PFNGLMULTIDRAWARRAYSPROC)                                                                     \
  X(FenceSync, PFNGLFENCESYNCPROC)                                                                                 \
  X(ClientWaitSync, PFNGLCLIENTWAITSYNCPROC)                                                                       \
  X(DeleteSync, PFNGLDELETESYNCPROC)                                                                               \
  X(Flush, PFNGLFLUSHPROC)                                                                                         \
  X(Finish, PFNGLFINISHPROC)

struct Gl {
#define DRIVER_FLOOR_GL_MEMBER(name, type) type name = nullptr;
  DRIVER_FLOOR_GL(DRIVER_FLOOR_GL_MEMBER)
#undef DRIVER_FLOOR_GL_MEMBER
};

const char *const kColorVs = R"(#version 450
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() { gl_Position = vec4(position, 1.0); v_color = color; })";
const char *const kConstantsVs = R"(#version 450
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(std140, binding = 0) uniform VS { vec4 offset; };
void main() { gl_Position = vec4(position, 1.0) + offset; v_color = color; })";
const char *const kColorPs = R"(#version 450
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 color;
void main() { color = v_color; })";
const char *const kTexVs = R"(#version 450
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
void main() { gl_Position = vec4(position, 1.0); v_uv = uv; })";
const char *const kTexPs = R"(#version 450
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
void main() { color = texture(tex, v_uv); })";

class GlFloor : public Floor {
public:
  explicit GlFloor(bool driver_heap) {
    auto get_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!get_display) throw std::runtime_error("EGL lacks eglGetPlatformDisplayEXT");
    display_ = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (display_ == EGL_NO_DISPLAY || !eglInitialize(display_, &major, &minor))
      throw std::runtime_error("no surfaceless EGL display (EGL_MESA_platform_surfaceless)");
    if (!eglBindAPI(EGL_OPENGL_API)) throw std::runtime_error("EGL cannot bind the OpenGL API");
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION_KHR, 4, EGL_CONTEXT_MINOR_VERSION_KHR, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR, EGL_NONE};
    context_ = eglCreateContext(display_, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (context_ == EGL_NO_CONTEXT || !eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
      throw std::runtime_error("EGL cannot make a surfaceless OpenGL 4.5 core context current");
#define DRIVER_FLOOR_GL_LOAD(name, type)                                                                          \
  if (!(gl_.name = reinterpret_cast<type>(eglGetProcAddress("gl" #name))))                                       \
    throw std::runtime_error("no gl" #name);
    DRIVER_FLOOR_GL(DRIVER_FLOOR_GL_LOAD)
#undef DRIVER_FLOOR_GL_LOAD
    const char *renderer = reinterpret_cast<const char *>(gl_.GetString(GL_RENDERER));
    std::printf("novem-driver-floor: %s\n", renderer ? renderer : "?");
    if (driver_heap && renderer && std::strstr(renderer, "llvmpipe")) novem::keep_driver_heap(); // as the plugins do
    make_target();
    make_vertices();
    make_textures();
    make_programs();
    GLint align = 256;
    gl_.GetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
    uniform_stride_ = uint32_t(std::max(align, 16));
    uniforms_ = mapped_buffer(size_t(kInFlight) * kDraws * uniform_stride_, nullptr, 0, ubo_);
    if (gl_.GetError() != GL_NO_ERROR) throw std::runtime_error("a GL error while setting up");
  }

  ~GlFloor() override {
    gl_.Finish();
    for (GLsync &f : fences_)
      if (f) gl_.DeleteSync(f);
    for (GLuint p : {color_, color_twin_, textured_, world_[0], world_[1]}) gl_.DeleteProgram(p);
    gl_.DeleteSamplers(1, &sampler_);
    gl_.DeleteTextures(2, textures_);
    gl_.DeleteTextures(GLsizei(std::size(stream_textures_)), stream_textures_);
    gl_.DeleteTextures(1, &target_);
    gl_.DeleteFramebuffers(1, &fbo_);
    gl_.DeleteVertexArrays(1, &color_vao_);
    gl_.DeleteVertexArrays(1, &uv_vao_);
    for (GLuint b : {color_vertices_, uv_vertices_, ubo_}) gl_.DeleteBuffers(1, &b);
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }

  double run(int w, int frames) override {
    for (int f = 0; f < int(kWarmupFrames); ++f) frame(w, f);
    gl_.Finish();
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) frame(w, f);
    gl_.Finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (gl_.GetError() != GL_NO_ERROR) throw std::runtime_error(std::string("a GL error in ") + kWorkloads[w]);
    return double(frames) * kDraws / seconds;
  }

private:
  // One frame: at most kInFlight in flight (the frame kInFlight back has completed before its
  // part of the rings is written again), a clear, the workload's draws, a fence.
  void frame(int w, int index) {
    const uint32_t slot = uint32_t(index) % kInFlight;
    if (fences_[slot]) {
      gl_.ClientWaitSync(fences_[slot], GL_SYNC_FLUSH_COMMANDS_BIT, GL_TIMEOUT_IGNORED);
      gl_.DeleteSync(fences_[slot]);
    }
    const float clear[4] = {0.06f, 0.09f, 0.13f, 1.0f};
    gl_.ClearNamedFramebufferfv(fbo_, GL_COLOR, 0, clear);
    gl_.BindVertexArray(w == kTexture || w == kStream ? uv_vao_ : color_vao_);
    switch (w) {
    case kDraw:
      gl_.UseProgram(color_);
      for (uint32_t i = 0; i < kDraws; ++i) firsts_[i] = GLint(i % (kGrid * kGrid) * 3), counts_[i] = 3;
      gl_.MultiDrawArrays(GL_TRIANGLES, firsts_, counts_, GLsizei(kDraws));
      break;
    case kState:
      gl_.UseProgram(color_);
      gl_.Enable(GL_BLEND);
      for (uint32_t i = 0; i < kDraws; ++i) {
        gl_.BlendFunc(i & 1 ? GL_SRC_ALPHA : GL_ONE, GL_ZERO);
        gl_.DrawArrays(GL_TRIANGLES, GLint(i % (kGrid * kGrid) * 3), 3);
      }
      gl_.Disable(GL_BLEND);
      break;
    case kTexture:
      gl_.UseProgram(textured_);
      for (uint32_t i = 0; i < kDraws; ++i) {
        gl_.BindTextureUnit(0, textures_[i & 1]);
        gl_.DrawArrays(GL_TRIANGLES, GLint(i % (kGrid * kGrid) * 3), 3);
      }
      break;
    case kStream: {
      // The frame's rewrites go to textures of its own slot, whose draws of kInFlight frames
      // back have completed: no write waits for a draw.
      GLuint *tex = stream_textures_ + slot * kStreamUpdates;
      gl_.UseProgram(textured_);
      for (uint32_t i = 0; i < kDraws; ++i) {
        if (i % (kDraws / kStreamUpdates) == 0) {
          std::fill(std::begin(stream_texels_), std::end(stream_texels_), triangle_color(i) | 0xff000000u);
          gl_.TextureSubImage2D(tex[i / (kDraws / kStreamUpdates)], 0, 0, 0, 8, 8, GL_BGRA, GL_UNSIGNED_BYTE, stream_texels_);
        }
        gl_.BindTextureUnit(0, tex[stream_texture(i)]);
        gl_.DrawArrays(GL_TRIANGLES, GLint(i % (kGrid * kGrid) * 3), 3);
      }
      break;
    }
    case kShader:
      for (uint32_t i = 0; i < kDraws; ++i) {
        gl_.UseProgram(i & 1 ? color_twin_ : color_);
        gl_.DrawArrays(GL_TRIANGLES, GLint(i % (kGrid * kGrid) * 3), 3);
      }
      break;
    case kUp:
    case kDynamic:
      gl_.UseProgram(color_);
      for (uint32_t i = 0; i < kDraws; ++i) firsts_[i] = GLint(ring_vertices(slot, i, i)), counts_[i] = 3;
      gl_.MultiDrawArrays(GL_TRIANGLES, firsts_, counts_, GLsizei(kDraws));
      break;
    default: game(slot); break;
    }
    fences_[slot] = gl_.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl_.Flush();
  }

  // novem-bench's game frame (Scene::game), draw for draw, as the Vulkan floor records it.
  void game(uint32_t slot) {
    const uint32_t world = kDraws / 2;
    for (uint32_t i = 0; i < world; ++i) {
      if (i % 16 == 0) gl_.UseProgram(world_[(i / 16) & 1]);
      const uint32_t offset = (slot * kDraws + i) * uniform_stride_;
      const float constant[4] = {float(i % 5) * 0.01f, 0, 0, 0};
      std::memcpy(uniforms_ + offset, constant, sizeof constant);
      gl_.BindBufferRange(GL_UNIFORM_BUFFER, 0, ubo_, GLintptr(offset), sizeof constant);
      gl_.DrawArrays(GL_TRIANGLES, GLint(i % (kGrid * kGrid) * 3), 3);
    }
    gl_.UseProgram(color_);
    gl_.Enable(GL_BLEND);
    GLsizei run = 0;
    for (uint32_t i = world; i < kDraws; ++i) {
      if (i % 4 == 0) {
        if (run) gl_.MultiDrawArrays(GL_TRIANGLES, firsts_, counts_, run);
        run = 0;
        gl_.BlendFunc(i & 4 ? GL_SRC_ALPHA : GL_ONE, GL_ZERO);
      }
      const bool written = i % 8 == 3 || i % 8 == 7; // the UP draw and the dynamic-buffer draw
      firsts_[run] = GLint(written ? ring_vertices(slot, i, i) : i % (kGrid * kGrid) * 3);
      counts_[run++] = 3;
    }
    if (run) gl_.MultiDrawArrays(GL_TRIANGLES, firsts_, counts_, run);
    gl_.Disable(GL_BLEND);
  }

  // As in the Vulkan floor: triangle `index` written into draw `draw`'s place in frame slot
  // `slot`'s part of the ring behind the static vertices; returns its first vertex.
  uint32_t ring_vertices(uint32_t slot, uint32_t draw, uint32_t index) {
    const uint32_t first = kGrid * kGrid * 3 + (slot * kDraws + draw) * 3;
    float x[3], y[3];
    triangle(index, x, y);
    ColorVertex *v = vertex_ring_ + first;
    for (int k = 0; k < 3; ++k) v[k] = {x[k], y[k], 0.5f, triangle_color(index + 7)};
    return first;
  }

  // A persistently mapped, coherent buffer of `size` bytes starting with `used` bytes of `data`.
  uint8_t *mapped_buffer(size_t size, const void *data, size_t used, GLuint &buffer) {
    gl_.CreateBuffers(1, &buffer);
    const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    gl_.NamedBufferStorage(buffer, GLsizeiptr(size), nullptr, flags);
    auto *p = static_cast<uint8_t *>(gl_.MapNamedBufferRange(buffer, 0, GLsizeiptr(size), flags));
    if (!p) throw std::runtime_error("cannot map a buffer persistently");
    if (used) std::memcpy(p, data, used);
    return p;
  }

  void make_target() {
    gl_.CreateTextures(GL_TEXTURE_2D, 1, &target_);
    gl_.TextureStorage2D(target_, 1, GL_RGBA8, GLsizei(kSize), GLsizei(kSize));
    gl_.CreateFramebuffers(1, &fbo_);
    gl_.NamedFramebufferTexture(fbo_, GL_COLOR_ATTACHMENT0, target_, 0);
    gl_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    gl_.Viewport(0, 0, GLsizei(kSize), GLsizei(kSize));
  }

  // novem-bench's 256 triangles: position + colour (followed by the vertex ring), and position +
  // texture coordinates; a vertex array for each.
  void make_vertices() {
    std::vector<ColorVertex> colored;
    std::vector<UvVertex> uv;
    bench_triangles(colored, uv);
    const size_t used = colored.size() * sizeof colored[0];
    const size_t ring = size_t(kInFlight) * kDraws * 3 * sizeof colored[0];
    vertex_ring_ = reinterpret_cast<ColorVertex *>(mapped_buffer(used + ring, colored.data(), used, color_vertices_));
    mapped_buffer(uv.size() * sizeof uv[0], uv.data(), uv.size() * sizeof uv[0], uv_vertices_);
    gl_.CreateVertexArrays(1, &color_vao_);
    gl_.VertexArrayVertexBuffer(color_vao_, 0, color_vertices_, 0, sizeof(ColorVertex));
    gl_.VertexArrayAttribFormat(color_vao_, 0, 3, GL_FLOAT, GL_FALSE, 0);
    gl_.VertexArrayAttribFormat(color_vao_, 1, GL_BGRA, GL_UNSIGNED_BYTE, GL_TRUE, 12);
    gl_.CreateVertexArrays(1, &uv_vao_);
    gl_.VertexArrayVertexBuffer(uv_vao_, 0, uv_vertices_, 0, sizeof(UvVertex));
    gl_.VertexArrayAttribFormat(uv_vao_, 0, 3, GL_FLOAT, GL_FALSE, 0);
    gl_.VertexArrayAttribFormat(uv_vao_, 1, 2, GL_FLOAT, GL_FALSE, 12);
    for (GLuint vao : {color_vao_, uv_vao_}) {
      for (GLuint a = 0; a < 2; ++a) {
        gl_.VertexArrayAttribBinding(vao, a, 0);
        gl_.EnableVertexArrayAttrib(vao, a);
      }
    }
  }

  // Two 8x8 textures (one white, one grey), uploaded once; the stream workload's 8x8 textures,
  // kStreamUpdates per frame in flight; one sampler on unit 0.
  void make_textures() {
    gl_.CreateTextures(GL_TEXTURE_2D, 2, textures_);
    for (uint32_t t = 0; t < 2; ++t) {
      const std::vector<uint32_t> texels(64, t ? 0xff808080u : 0xffffffffu);
      gl_.TextureStorage2D(textures_[t], 1, GL_RGBA8, 8, 8);
      gl_.TextureSubImage2D(textures_[t], 0, 0, 0, 8, 8, GL_BGRA, GL_UNSIGNED_BYTE, texels.data());
    }
    gl_.CreateTextures(GL_TEXTURE_2D, GLsizei(std::size(stream_textures_)), stream_textures_);
    for (GLuint t : stream_textures_) gl_.TextureStorage2D(t, 1, GL_RGBA8, 8, 8);
    gl_.CreateSamplers(1, &sampler_);
    gl_.SamplerParameteri(sampler_, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_.SamplerParameteri(sampler_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl_.BindSampler(0, sampler_);
  }

  GLuint shader(GLenum stage, const char *source) {
    const GLuint s = gl_.CreateShader(stage);
    gl_.ShaderSource(s, 1, &source, nullptr);
    gl_.CompileShader(s);
    GLint ok = 0;
    gl_.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[1024] = {};
      gl_.GetShaderInfoLog(s, sizeof log, nullptr, log);
      throw std::runtime_error(std::string("a floor shader does not compile: ") + log);
    }
    return s;
  }

  // A program of its own (its own shader objects too) for each call.
  GLuint program(const char *vs, const char *ps) {
    const GLuint stages[2] = {shader(GL_VERTEX_SHADER, vs), shader(GL_FRAGMENT_SHADER, ps)};
    const GLuint p = gl_.CreateProgram();
    for (GLuint s : stages) gl_.AttachShader(p, s);
    gl_.LinkProgram(p);
    for (GLuint s : stages) gl_.DeleteShader(s);
    GLint ok = 0;
    gl_.GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
      char log[1024] = {};
      gl_.GetProgramInfoLog(p, sizeof log, nullptr, log);
      throw std::runtime_error(std::string("a floor program does not link: ") + log);
    }
    return p;
  }

  void make_programs() {
    color_ = program(kColorVs, kColorPs);
    color_twin_ = program(kColorVs, kColorPs);
    textured_ = program(kTexVs, kTexPs);
    for (GLuint &p : world_) p = program(kConstantsVs, kColorPs);
  }

  Gl gl_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  GLuint target_ = 0, fbo_ = 0;
  GLuint color_vertices_ = 0, uv_vertices_ = 0, color_vao_ = 0, uv_vao_ = 0;
  ColorVertex *vertex_ring_ = nullptr; // the mapped colour vertices, ring after the static ones
  GLuint textures_[2] = {}, sampler_ = 0;
  GLuint stream_textures_[kInFlight * kStreamUpdates] = {};
  uint32_t stream_texels_[64] = {}; // an 8x8 rewrite
  GLuint color_ = 0, color_twin_ = 0, textured_ = 0, world_[2] = {};
  GLuint ubo_ = 0;
  uint8_t *uniforms_ = nullptr; // the mapped uniform ring
  uint32_t uniform_stride_ = 0;
  GLsync fences_[kInFlight] = {};
  GLint firsts_[kDraws] = {};
  GLsizei counts_[kDraws] = {};
};

} // namespace

std::unique_ptr<Floor> make_gl_floor(bool driver_heap) { return std::make_unique<GlFloor>(driver_heap); }

} // namespace driver_floor
