#include "gl_programs.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "gl_log.hpp"

namespace novem_gl {

namespace {

const char *stage_name(uint32_t stage) { return stage == NV_STAGE_VERTEX ? "vertex" : "pixel"; }

// The first non-empty line of an info log.
std::string first_line(std::string log) {
  size_t start = log.find_first_not_of(" \r\n");
  if (start == std::string::npos) return "(no log)";
  log = log.substr(start);
  return log.substr(0, log.find('\n'));
}

} // namespace

void Programs::create_shader(uint32_t handle, uint32_t stage, const uint32_t *words, size_t word_count) {
  destroy_shader(handle); // a handle reused without DESTROY_SHADER replaces the old shader
  Shader &shader = shaders_[handle];
  shader.stage = stage;
  if (stage >= NV_STAGE_COUNT) {
    log("shader %u: unknown stage %u", handle, stage);
    return;
  }
  std::string glsl, error;
  if (!translator_.translate(words, word_count, nv_shader_stage(stage), glsl, error)) {
    log("%s shader %u: %s", stage_name(stage), handle, error.c_str());
    return;
  }
  if (dump_glsl_) std::fprintf(stderr, "novem-opengl: %s shader %u as GLSL:\n%s", stage_name(stage), handle, glsl.c_str());
  GLuint name = gl_.CreateShader(stage == NV_STAGE_VERTEX ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER);
  const GLchar *source = glsl.c_str();
  gl_.ShaderSource(name, 1, &source, nullptr);
  gl_.CompileShader(name);
  GLint ok = GL_FALSE;
  gl_.GetShaderiv(name, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    gl_.GetShaderiv(name, GL_INFO_LOG_LENGTH, &length);
    std::string info(size_t(length > 0 ? length : 1), '\0');
    gl_.GetShaderInfoLog(name, GLsizei(info.size()), nullptr, info.data());
    log("%s shader %u does not compile: %s", stage_name(stage), handle, first_line(info).c_str());
    gl_.DeleteShader(name);
    return;
  }
  shader.name = name;
}

void Programs::destroy_shader(uint32_t handle) {
  auto it = shaders_.find(handle);
  if (it == shaders_.end()) return;
  for (auto p = programs_.begin(); p != programs_.end();) {
    if (uint32_t(p->first >> 32) == handle || uint32_t(p->first) == handle) {
      if (p->second) gl_.DeleteProgram(p->second);
      p = programs_.erase(p);
    } else {
      ++p;
    }
  }
  if (it->second.name) gl_.DeleteShader(it->second.name);
  shaders_.erase(it);
}

GLuint Programs::program(uint32_t vertex_shader, uint32_t pixel_shader) {
  auto found = programs_.find(key(vertex_shader, pixel_shader));
  if (found != programs_.end()) return found->second;

  auto vs = shaders_.find(vertex_shader), ps = shaders_.find(pixel_shader);
  GLuint program = 0;
  if (vs == shaders_.end() || ps == shaders_.end() || vs->second.stage != NV_STAGE_VERTEX ||
      ps->second.stage != NV_STAGE_PIXEL) {
    log("program (%u, %u): needs a vertex and a pixel shader", vertex_shader, pixel_shader);
  } else if (vs->second.name && ps->second.name) { // a shader that failed was reported already
    program = gl_.CreateProgram();
    gl_.AttachShader(program, vs->second.name);
    gl_.AttachShader(program, ps->second.name);
    gl_.LinkProgram(program);
    gl_.DetachShader(program, vs->second.name);
    gl_.DetachShader(program, ps->second.name);
    links_.fetch_add(1, std::memory_order_relaxed);
    GLint ok = GL_FALSE;
    gl_.GetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
      GLint length = 0;
      gl_.GetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
      std::string info(size_t(length > 0 ? length : 1), '\0');
      gl_.GetProgramInfoLog(program, GLsizei(info.size()), nullptr, info.data());
      log("program (%u, %u) does not link: %s", vertex_shader, pixel_shader, first_line(info).c_str());
      gl_.DeleteProgram(program);
      program = 0;
    }
  }
  // Remembered only while both shaders exist, so that a later CREATE_SHADER gets a new try.
  if (vs != shaders_.end() && ps != shaders_.end()) programs_[key(vertex_shader, pixel_shader)] = program;
  return program;
}

void Programs::clear() {
  for (auto &[k, program] : programs_)
    if (program) gl_.DeleteProgram(program);
  for (auto &[handle, shader] : shaders_)
    if (shader.name) gl_.DeleteShader(shader.name);
  programs_.clear();
  shaders_.clear();
}

} // namespace novem_gl
