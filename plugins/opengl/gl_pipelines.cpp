#include "gl_pipelines.hpp"

#include "novem/state_hash.hpp"

namespace novem_gl {

namespace {

GLenum topology(uint8_t t) {
  switch (t) {
  case NV_TOPOLOGY_POINT_LIST: return GL_POINTS;
  case NV_TOPOLOGY_LINE_LIST: return GL_LINES;
  case NV_TOPOLOGY_LINE_STRIP: return GL_LINE_STRIP;
  case NV_TOPOLOGY_TRIANGLE_STRIP: return GL_TRIANGLE_STRIP;
  case NV_TOPOLOGY_TRIANGLE_FAN: return GL_TRIANGLE_FAN;
  default: return GL_TRIANGLES;
  }
}

GLenum compare(uint8_t c) {
  static constexpr GLenum table[] = {GL_NEVER,   GL_LESS,     GL_EQUAL,  GL_LEQUAL,
                                     GL_GREATER, GL_NOTEQUAL, GL_GEQUAL, GL_ALWAYS};
  return c < 8 ? table[c] : GL_ALWAYS;
}

GLenum blend_factor(uint8_t f) {
  static constexpr GLenum table[] = {
      GL_ZERO,      GL_ONE,           GL_SRC_COLOR,          GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
      GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA, GL_DST_COLOR,   GL_ONE_MINUS_DST_COLOR,
      GL_SRC_ALPHA_SATURATE, GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR};
  return f < sizeof table / sizeof table[0] ? table[f] : GL_ONE;
}

GLenum blend_op(uint8_t op) {
  static constexpr GLenum table[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT, GL_MIN, GL_MAX};
  return op < 5 ? table[op] : GL_FUNC_ADD;
}

GLenum stencil_op(uint8_t op) {
  static constexpr GLenum table[] = {GL_KEEP, GL_ZERO, GL_REPLACE, GL_INCR, GL_DECR, GL_INVERT, GL_INCR_WRAP, GL_DECR_WRAP};
  return op < 8 ? table[op] : GL_KEEP;
}

GLenum polygon_mode(uint8_t m) { return m == NV_FILL_WIREFRAME ? GL_LINE : m == NV_FILL_POINT ? GL_POINT : GL_FILL; }

} // namespace

size_t Pipelines::Hash::operator()(const Key &k) const { return size_t(novem::state_hash(&k.desc, sizeof k.desc)); }

const Pipeline *Pipelines::get(const nv_pipeline_desc &desc, Programs &programs) {
  const Key key{desc};
  const Pipeline *found = nullptr;
  if (const Pipeline *const *recent = recent_.find(key)) {
    found = *recent;
  } else {
    found = lookup(key, programs);
    recent_.remember(key, found);
  }
  return found->program ? found : nullptr;
}

const Pipeline *Pipelines::lookup(const Key &key, Programs &programs) {
  auto it = cache_.find(key);
  if (it != cache_.end()) return &it->second;
  const nv_pipeline_desc &desc = key.desc;

  Pipeline p;
  p.desc = desc;
  p.program = programs.program(desc.vertex_shader, desc.pixel_shader);
  p.uniform_reads[NV_STAGE_VERTEX] = programs.uniforms(desc.vertex_shader);
  p.uniform_reads[NV_STAGE_PIXEL] = programs.uniforms(desc.pixel_shader);
  p.mode = topology(desc.topology);
  p.cull = desc.cull == NV_CULL_CW || desc.cull == NV_CULL_CCW;
  p.cull_face = desc.cull == NV_CULL_CW ? GL_FRONT : GL_BACK; // see kFrontFace
  p.depth_test = desc.depth_test != 0;
  p.depth_write = desc.depth_write != 0;
  p.depth_func = compare(desc.depth_compare);
  p.blend = desc.blend_enable != 0;
  p.color_src = blend_factor(desc.color_src);
  p.color_dst = blend_factor(desc.color_dst);
  p.color_op = blend_op(desc.color_op);
  p.alpha_src = blend_factor(desc.alpha_src);
  p.alpha_dst = blend_factor(desc.alpha_dst);
  p.alpha_op = blend_op(desc.alpha_op);
  p.color_mask = desc.color_write_mask & 0xF;
  p.polygon_mode = desc.topology >= NV_TOPOLOGY_TRIANGLE_LIST ? polygon_mode(desc.fill_mode) : GL_FILL;
  p.depth_bias = desc.depth_bias_enable != 0;
  p.depth_clamp = desc.depth_clamp != 0;
  p.masked_samples = desc.masked_samples;
  p.stencil = desc.stencil_enable != 0;
  const nv_stencil_face faces[2] = {desc.stencil_front, desc.stencil_back}; // GL_FRONT is clockwise (kFrontFace)
  for (int f = 0; f < 2; ++f) {
    p.stencil_ops[f][0] = stencil_op(faces[f].fail_op);
    p.stencil_ops[f][1] = stencil_op(faces[f].depth_fail_op);
    p.stencil_ops[f][2] = stencil_op(faces[f].pass_op);
    p.stencil_func[f] = compare(faces[f].compare);
  }
  return &cache_.emplace(key, p).first->second;
}

void Pipelines::forget_shader(uint32_t handle) {
  recent_.clear();
  std::erase_if(cache_, [&](const auto &entry) {
    return entry.first.desc.vertex_shader == handle || entry.first.desc.pixel_shader == handle;
  });
}

} // namespace novem_gl
