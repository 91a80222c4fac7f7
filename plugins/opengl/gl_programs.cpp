#include "gl_programs.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gl_log.hpp"
#include "novem/cache_file.hpp"

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

const novem::UniformFootprint &Programs::uniforms(uint32_t handle) const {
  static const novem::UniformFootprint whole;
  const Shader *shader = shaders_.find(handle);
  return shader ? shader->uniforms : whole;
}

bool Programs::create_shader(uint32_t handle, uint32_t stage, const uint32_t *words, size_t word_count) {
  if (!shaders_.vacant(handle, NV_OP_CREATE_SHADER)) return false;
  Shader &shader = *shaders_.insert(handle, Shader{}, NV_OP_CREATE_SHADER);
  shader.stage = stage;
  shader.uniforms = novem::stage_uniform_footprint(words, word_count, stage);
  if (stage >= NV_STAGE_COUNT) {
    log("shader %u: unknown stage %u", handle, stage);
    return true;
  }
  std::string glsl, error;
  if (!translator_.translate(words, word_count, nv_shader_stage(stage), glsl, error)) {
    log("%s shader %u: %s", stage_name(stage), handle, error.c_str());
    return true;
  }
  shader.source_hash = novem::fnv1a(glsl.data(), glsl.size());
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
    return true;
  }
  shader.name = name;
  return true;
}

bool Programs::destroy_shader(uint32_t handle) {
  const std::optional<Shader> shader = shaders_.take(handle, NV_OP_DESTROY_SHADER);
  if (!shader) return false;
  for (auto p = programs_.begin(); p != programs_.end();) {
    if (uint32_t(p->first >> 32) == handle || uint32_t(p->first) == handle) {
      if (p->second) gl_.DeleteProgram(p->second);
      p = programs_.erase(p);
    } else {
      ++p;
    }
  }
  if (shader->name) gl_.DeleteShader(shader->name);
  return true;
}

GLuint Programs::program(uint32_t vertex_shader, uint32_t pixel_shader) {
  auto found = programs_.find(key(vertex_shader, pixel_shader));
  if (found != programs_.end()) return found->second;

  const Shader *vs = shaders_.find(vertex_shader), *ps = shaders_.find(pixel_shader);
  GLuint program = 0;
  if (!vs || !ps || vs->stage != NV_STAGE_VERTEX || ps->stage != NV_STAGE_PIXEL) {
    log("program (%u, %u): needs a vertex and a pixel shader", vertex_shader, pixel_shader);
  } else if (vs->name && ps->name) { // a shader that failed was reported already
    const std::string path = disk_dir_.empty() ? std::string() : binary_path(*vs, *ps);
    if (!path.empty()) program = load_binary(path);
    if (!program) {
      program = link(*vs, *ps, vertex_shader, pixel_shader);
      if (program && !path.empty()) save_binary(path, program);
    }
  }
  // Remembered only while both shaders exist, so that a later CREATE_SHADER gets a new try.
  if (vs && ps) programs_[key(vertex_shader, pixel_shader)] = program;
  return program;
}

GLuint Programs::link(const Shader &vs, const Shader &ps, uint32_t vs_handle, uint32_t ps_handle) {
  GLuint program = gl_.CreateProgram();
  if (!disk_dir_.empty()) gl_.ProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  gl_.AttachShader(program, vs.name);
  gl_.AttachShader(program, ps.name);
  gl_.LinkProgram(program);
  gl_.DetachShader(program, vs.name);
  gl_.DetachShader(program, ps.name);
  novem::bump(channel_.pipelines_created);
  GLint ok = GL_FALSE;
  gl_.GetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    gl_.GetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string info(size_t(length > 0 ? length : 1), '\0');
    gl_.GetProgramInfoLog(program, GLsizei(info.size()), nullptr, info.data());
    log("program (%u, %u) does not link: %s", vs_handle, ps_handle, first_line(info).c_str());
    gl_.DeleteProgram(program);
    program = 0;
  }
  return program;
}

// ---- the disk cache ----

void Programs::enable_disk_cache(const std::string &dir) {
  GLint formats = 0;
  gl_.GetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  if (formats <= 0) return; // the driver cannot give binaries back: nothing to keep
  const uint32_t format_version = 1; // bump when the payload's layout changes
  uint64_t h = novem::fnv1a(&format_version, sizeof format_version);
  for (GLenum name : {GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION}) {
    const char *s = reinterpret_cast<const char *>(gl_.GetString(name));
    if (s) h = novem::fnv1a(s, std::strlen(s), h);
  }
  identity_ = h;
  disk_dir_ = dir;
}

std::string Programs::binary_path(const Shader &vs, const Shader &ps) const {
  const uint64_t hashes[2] = {vs.source_hash, ps.source_hash};
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(novem::fnv1a(hashes, sizeof hashes)));
  return disk_dir_ + "/" + name;
}

// Payload: the binary format (4 bytes), then the bytes glGetProgramBinary gave.
GLuint Programs::load_binary(const std::string &path) {
  std::vector<uint8_t> payload;
  std::string why;
  switch (novem::CacheFile::read(path, identity_, payload, why)) {
  case novem::CacheFile::Read::Missing: return 0;
  case novem::CacheFile::Read::Rejected:
    log("warning: ignoring the program binary %s: %s", path.c_str(), why.c_str());
    novem::bump(channel_.pipeline_cache_rejected);
    return 0;
  case novem::CacheFile::Read::Ok: break;
  }
  GLenum format = 0;
  if (payload.size() > sizeof format) {
    std::memcpy(&format, payload.data(), sizeof format);
    GLuint program = gl_.CreateProgram();
    gl_.ProgramBinary(program, format, payload.data() + sizeof format, GLsizei(payload.size() - sizeof format));
    GLint ok = GL_FALSE;
    gl_.GetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok) {
      novem::bump(channel_.pipelines_loaded);
      return program;
    }
    gl_.DeleteProgram(program);
  }
  log("warning: ignoring the program binary %s: the driver refused it", path.c_str());
  novem::bump(channel_.pipeline_cache_rejected);
  return 0;
}

void Programs::save_binary(const std::string &path, GLuint program) {
  GLint length = 0;
  gl_.GetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  if (length <= 0) return;
  GLenum format = 0;
  std::vector<uint8_t> payload(sizeof format + size_t(length));
  GLsizei written = 0;
  gl_.GetProgramBinary(program, length, &written, &format, payload.data() + sizeof format);
  if (written <= 0) return;
  std::memcpy(payload.data(), &format, sizeof format);
  payload.resize(sizeof format + size_t(written));
  if (!novem::CacheFile::write(path, identity_, payload.data(), payload.size()))
    log("warning: cannot write the program binary %s", path.c_str());
}

void Programs::forget_programs() {
  for (auto &[k, program] : programs_)
    if (program) gl_.DeleteProgram(program);
  programs_.clear();
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
