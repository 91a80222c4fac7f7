// Shaders and programs. CREATE_SHADER translates SPIR-V to GLSL and compiles it at once; a
// program is linked the first time a (vertex, pixel) pair is asked for and kept, keyed by the
// pair, until one of its shaders is destroyed. Every link counts in channel.pipelines_created.
#pragma once

#include <atomic>
#include <cstdint>
#include <unordered_map>

#include "gl_shader_translate.hpp"
#include "novem_gl.h"

namespace novem_gl {

class Programs {
public:
  Programs(const NovemGL &gl, std::atomic<uint64_t> &links, bool dump_glsl)
      : gl_(gl), links_(links), dump_glsl_(dump_glsl) {}

  void create_shader(uint32_t handle, uint32_t stage, const uint32_t *words, size_t word_count);
  void destroy_shader(uint32_t handle); // and every program that uses it
  // The linked program, or 0 when a shader is missing or failed (reported once).
  GLuint program(uint32_t vertex_shader, uint32_t pixel_shader);
  void clear(); // deletes every GL object; the context must be current

private:
  struct Shader {
    GLuint name = 0; // 0: did not translate or compile
    uint32_t stage = 0;
  };
  static uint64_t key(uint32_t vs, uint32_t ps) { return uint64_t(vs) << 32 | ps; }

  const NovemGL &gl_;
  std::atomic<uint64_t> &links_;
  bool dump_glsl_;
  ShaderTranslator translator_;
  std::unordered_map<uint32_t, Shader> shaders_;
  std::unordered_map<uint64_t, GLuint> programs_; // 0: the link failed; not retried
};

} // namespace novem_gl
