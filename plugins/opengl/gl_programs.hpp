// Shaders and programs. CREATE_SHADER translates SPIR-V to GLSL and compiles it at once; a
// program is made the first time a (vertex, pixel) pair is asked for and kept, keyed by the
// pair, until one of its shaders is destroyed. With the disk cache on, a program is first looked
// for as a glProgramBinary file keyed by a hash of both shaders' GLSL (novem/cache_file.hpp), and
// a program linked from source is saved so. Every link counts in channel.pipelines_created, every
// binary loaded in channel.pipelines_loaded; a file that is corrupt, foreign or refused by the
// driver is ignored with a warning and counted in channel.pipeline_cache_rejected.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "gl_shader_translate.hpp"
#include "novem/channel.hpp"
#include "novem/handle_table.hpp"
#include "novem/spirv_uniforms.hpp"
#include "novem_gl.h"

namespace novem_gl {

class Programs {
public:
  Programs(const NovemGL &gl, nv_channel &channel, novem::ContractViolations &violations, bool dump_glsl)
      : gl_(gl), channel_(channel), dump_glsl_(dump_glsl), shaders_("shader", violations) {}

  // Keeps program binaries in dir, when the driver has a binary format; the context must be current.
  void enable_disk_cache(const std::string &dir);

  // CREATE_SHADER: false when the handle is not vacant (novem/handle_table.hpp). A shader that
  // does not translate or compile takes its handle all the same (reported; its programs are 0).
  bool create_shader(uint32_t handle, uint32_t stage, const uint32_t *words, size_t word_count);
  // DESTROY_SHADER, with every program that uses it; false when the handle names no shader.
  bool destroy_shader(uint32_t handle);
  // The linked program, or 0 when a shader is missing or failed (reported once).
  GLuint program(uint32_t vertex_shader, uint32_t pixel_shader);
  // The bytes of its stage's uniform block the shader reads (whole for an unknown handle).
  const novem::UniformFootprint &uniforms(uint32_t handle) const;
  void forget_programs(); // deletes every program (the next program() links again)
  void clear();           // deletes every GL object; the context must be current

private:
  struct Shader {
    GLuint name = 0; // 0: did not translate or compile
    uint32_t stage = 0;
    uint64_t source_hash = 0; // of its GLSL
    novem::UniformFootprint uniforms;
  };
  static uint64_t key(uint32_t vs, uint32_t ps) { return uint64_t(vs) << 32 | ps; }
  GLuint link(const Shader &vs, const Shader &ps, uint32_t vs_handle, uint32_t ps_handle);
  std::string binary_path(const Shader &vs, const Shader &ps) const;
  GLuint load_binary(const std::string &path); // 0 when there is no sound binary
  void save_binary(const std::string &path, GLuint program);

  const NovemGL &gl_;
  nv_channel &channel_;
  bool dump_glsl_;
  std::string disk_dir_;   // empty: no disk cache
  uint64_t identity_ = 0;  // the driver a binary file must come from
  ShaderTranslator translator_;
  novem::HandleTable<Shader> shaders_;
  std::unordered_map<uint64_t, GLuint> programs_; // 0: the link failed; not retried
};

} // namespace novem_gl
