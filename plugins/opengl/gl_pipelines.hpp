// The pipeline cache: an nv_pipeline_desc (hashed byte for byte; the contract keeps unused bytes
// zero) maps to its linked program and to the GL values of its fixed-function state, translated
// once. Entries live until one of their shaders goes away.
#pragma once

#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "gl_programs.hpp"
#include "novem/recent_answers.hpp"
#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct Pipeline {
  nv_pipeline_desc desc;
  GLuint program = 0;
  novem::UniformFootprint uniform_reads[NV_STAGE_COUNT]; // of the vertex and pixel shaders' blocks
  GLenum mode = GL_TRIANGLES;
  bool cull = false;
  GLenum cull_face = GL_BACK;
  bool depth_test = false, depth_write = false;
  GLenum depth_func = GL_LESS;
  bool blend = false;
  GLenum color_src = GL_ONE, color_dst = GL_ZERO, color_op = GL_FUNC_ADD;
  GLenum alpha_src = GL_ONE, alpha_dst = GL_ZERO, alpha_op = GL_FUNC_ADD;
  uint8_t color_mask = 0xF;
  GLenum polygon_mode = GL_FILL;
  bool depth_bias = false;
  bool depth_clamp = false;
  uint32_t masked_samples = 0; // glSampleMaski's complement
  bool stencil = false;
  // Front (clockwise, and points and lines) and back: fail, depth fail, pass, compare.
  GLenum stencil_ops[2][3] = {{GL_KEEP, GL_KEEP, GL_KEEP}, {GL_KEEP, GL_KEEP, GL_KEEP}};
  GLenum stencil_func[2] = {GL_ALWAYS, GL_ALWAYS};
};

// Winding. GL measures a triangle's winding in window coordinates, y up, where image row 0 is
// window y 0 (the vertex shaders flip clip space under the lower-left origin): a triangle that
// looks clockwise with row 0 at the top is counter-clockwise to GL. Front is set once to D3D9's
// default front, clockwise as seen, which GL calls GL_CCW; NV_CULL_CW then culls GL_FRONT and
// NV_CULL_CCW culls GL_BACK. (Checked on llvmpipe by rendering both windings.)
inline constexpr GLenum kFrontFace = GL_CCW;

class Pipelines {
public:
  // The cached pipeline for desc, translated and linked on first use; nullptr when its program
  // cannot be built (already reported).
  const Pipeline *get(const nv_pipeline_desc &desc, Programs &programs);
  void forget_shader(uint32_t handle);
  void clear() {
    cache_.clear();
    recent_.clear();
  }

private:
  struct Key {
    nv_pipeline_desc desc;
    bool operator==(const Key &o) const { return std::memcmp(&desc, &o.desc, sizeof desc) == 0; }
  };
  struct Hash {
    size_t operator()(const Key &k) const; // novem::state_hash of the desc
  };
  // The cache entry for key, made on a miss (its program 0 when it cannot be built).
  const Pipeline *lookup(const Key &key, Programs &programs);

  std::unordered_map<Key, Pipeline, Hash> cache_;
  // A shader or state change per draw mostly alternates between two pipelines. Entries of an
  // unordered_map keep their address until erased (forget_shader, clear).
  novem::RecentAnswers<Key, const Pipeline *, 2> recent_;
};

} // namespace novem_gl
