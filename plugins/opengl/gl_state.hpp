// The GL state cache: the executor sets state through it, and a call that would set what is
// already set is dropped (NOVEM_GL_STATE_CACHE=0 turns the dropping off, to measure it).
// init() sets the states it tracks; only it changes them afterwards.
#pragma once

#include <cstdint>
#include <cstring>

#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct BlendState {
  bool enable = false;
  GLenum color_src = GL_ONE, color_dst = GL_ZERO, color_op = GL_FUNC_ADD;
  GLenum alpha_src = GL_ONE, alpha_dst = GL_ZERO, alpha_op = GL_FUNC_ADD;
  bool operator==(const BlendState &) const = default;
};

// The stencil test: the pipeline's ops and functions per face (0 front, 1 back) and the dynamic
// reference and masks.
struct StencilState {
  bool enable = false;
  GLenum ops[2][3] = {{GL_KEEP, GL_KEEP, GL_KEEP}, {GL_KEEP, GL_KEEP, GL_KEEP}};
  GLenum func[2] = {GL_ALWAYS, GL_ALWAYS};
  GLint reference = 0;
  GLuint compare_mask = 0xFF;
  bool operator==(const StencilState &) const = default;
};

class StateCache {
public:
  StateCache(const NovemGL &gl, bool enabled) : gl_(gl), enabled_(enabled) {}

  // Sets every state this cache tracks to its starting value, whatever GL holds.
  void init() {
    bool was = enabled_;
    enabled_ = false;
    program(0);
    draw_framebuffer(0);
    read_framebuffer(0);
    blend(BlendState{});
    color_mask(0xF);
    framebuffer_srgb(false);
    depth(false, true, GL_LESS);
    cull(false, GL_BACK);
    scissor({0, 0, 16384, 16384}); // no scissoring until SET_SCISSOR
    stencil(StencilState{});
    stencil_write_mask(0xFF);
    polygon_mode(GL_FILL);
    depth_bias(false, 0.0f, 0.0f);
    sample_mask(0);
    const float zero[4] = {};
    blend_color(zero);
    enabled_ = was;
  }

  void program(GLuint p) {
    if (enabled_ && p == program_) return;
    gl_.UseProgram(program_ = p);
  }
  void draw_framebuffer(GLuint f) {
    if (enabled_ && f == draw_fbo_) return;
    gl_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, draw_fbo_ = f);
  }
  // Deleting a bound framebuffer rebinds 0 and frees its name for reuse: after deleting any,
  // the next bind must be made whatever the cache remembers.
  void framebuffers_deleted() { draw_fbo_ = read_fbo_ = ~0u; }
  void read_framebuffer(GLuint f) {
    if (enabled_ && f == read_fbo_) return;
    gl_.BindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo_ = f);
  }
  void blend(const BlendState &b) {
    if (!enabled_ || b.enable != blend_.enable) b.enable ? gl_.Enable(GL_BLEND) : gl_.Disable(GL_BLEND);
    if (b.enable && (!enabled_ || b.color_src != blend_.color_src || b.color_dst != blend_.color_dst ||
                     b.alpha_src != blend_.alpha_src || b.alpha_dst != blend_.alpha_dst))
      gl_.BlendFuncSeparate(b.color_src, b.color_dst, b.alpha_src, b.alpha_dst);
    if (b.enable && (!enabled_ || b.color_op != blend_.color_op || b.alpha_op != blend_.alpha_op))
      gl_.BlendEquationSeparate(b.color_op, b.alpha_op);
    if (b.enable) blend_ = b; // while off, the funcs GL holds are the last ones set
    blend_.enable = b.enable;
  }
  // Draw buffer i's colour write mask: one glColorMask when the four are alike (it sets every
  // buffer), else a glColorMaski for each buffer whose mask changed.
  void color_masks(const uint8_t (&m)[NV_MAX_COLOR_TARGETS]) {
    if (std::memcmp(m, color_masks_, sizeof m) == 0 && enabled_) return;
    bool alike = true;
    for (uint8_t x : m) alike = alike && x == m[0];
    if (alike) {
      gl_.ColorMask(m[0] & 1, (m[0] >> 1) & 1, (m[0] >> 2) & 1, (m[0] >> 3) & 1);
    } else {
      for (GLuint i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
        if (!enabled_ || m[i] != color_masks_[i]) gl_.ColorMaski(i, m[i] & 1, (m[i] >> 1) & 1, (m[i] >> 2) & 1, (m[i] >> 3) & 1);
    }
    std::memcpy(color_masks_, m, sizeof m);
  }
  void color_mask(uint8_t m) { // every buffer alike
    const uint8_t all[NV_MAX_COLOR_TARGETS] = {m, m, m, m};
    color_masks(all);
  }
  // GL_FRAMEBUFFER_SRGB: draws and clears encode into sRGB attachments.
  void framebuffer_srgb(bool on) {
    if (enabled_ && on == framebuffer_srgb_) return;
    framebuffer_srgb_ = on;
    on ? gl_.Enable(GL_FRAMEBUFFER_SRGB) : gl_.Disable(GL_FRAMEBUFFER_SRGB);
  }
  void depth(bool test, bool write, GLenum func) {
    if (!enabled_ || test != depth_test_) test ? gl_.Enable(GL_DEPTH_TEST) : gl_.Disable(GL_DEPTH_TEST);
    depth_test_ = test;
    depth_mask(write);
    if (!enabled_ || func != depth_func_) gl_.DepthFunc(depth_func_ = func);
  }
  void depth_mask(bool write) {
    if (enabled_ && write == depth_write_) return;
    gl_.DepthMask((depth_write_ = write) ? GL_TRUE : GL_FALSE);
  }
  void cull(bool enable, GLenum face) {
    if (!enabled_ || enable != cull_) enable ? gl_.Enable(GL_CULL_FACE) : gl_.Disable(GL_CULL_FACE);
    cull_ = enable;
    if (enable && (!enabled_ || face != cull_face_)) gl_.CullFace(cull_face_ = face);
  }
  void scissor(const nv_rect &r) {
    if (enabled_ && r.x == scissor_.x && r.y == scissor_.y && r.width == scissor_.width &&
        r.height == scissor_.height)
      return;
    scissor_ = r;
    gl_.Scissor(r.x, r.y, r.width > 0 ? r.width : 0, r.height > 0 ? r.height : 0);
  }

  void stencil(const StencilState &s) {
    if (!enabled_ || s.enable != stencil_.enable) s.enable ? gl_.Enable(GL_STENCIL_TEST) : gl_.Disable(GL_STENCIL_TEST);
    static constexpr GLenum kFaces[2] = {GL_FRONT, GL_BACK};
    for (int f = 0; f < 2; ++f) {
      if (!enabled_ || std::memcmp(s.ops[f], stencil_.ops[f], sizeof s.ops[f]) != 0)
        gl_.StencilOpSeparate(kFaces[f], s.ops[f][0], s.ops[f][1], s.ops[f][2]);
      if (!enabled_ || s.func[f] != stencil_.func[f] || s.reference != stencil_.reference ||
          s.compare_mask != stencil_.compare_mask)
        gl_.StencilFuncSeparate(kFaces[f], s.func[f], s.reference, s.compare_mask);
    }
    stencil_ = s;
  }
  // Also masks stencil clears, as glStencilMask does.
  void stencil_write_mask(GLuint m) {
    if (enabled_ && m == stencil_write_mask_) return;
    gl_.StencilMaskSeparate(GL_FRONT_AND_BACK, stencil_write_mask_ = m);
  }
  void polygon_mode(GLenum mode) {
    if (enabled_ && mode == polygon_mode_) return;
    gl_.PolygonMode(GL_FRONT_AND_BACK, polygon_mode_ = mode);
  }
  // GL_DEPTH_CLAMP (core since 3.2) clamps to glDepthRange per fragment and stops the z clipping.
  void depth_clamp(bool on) {
    if (enabled_ && on == depth_clamp_) return;
    depth_clamp_ = on;
    on ? gl_.Enable(GL_DEPTH_CLAMP) : gl_.Disable(GL_DEPTH_CLAMP);
  }
  // glPolygonOffset for every fill mode: D3D9's depth bias applies to points and lines too.
  void depth_bias(bool enable, float slope, float constant) {
    if (!enabled_ || enable != depth_bias_) {
      for (GLenum cap : {GL_POLYGON_OFFSET_FILL, GL_POLYGON_OFFSET_LINE, GL_POLYGON_OFFSET_POINT})
        enable ? gl_.Enable(cap) : gl_.Disable(cap);
      depth_bias_ = enable;
    }
    if (!enabled_ || slope != bias_slope_ || constant != bias_constant_)
      gl_.PolygonOffset(bias_slope_ = slope, bias_constant_ = constant);
  }
  // masked: the samples draws leave alone (nv_pipeline_desc.masked_samples). GL skips the sample
  // mask on a framebuffer without sample buffers, as D3D9 ignores it on single-sampled targets.
  void sample_mask(uint32_t masked) {
    if (enabled_ && masked == masked_samples_) return;
    if (!enabled_ || (masked != 0) != (masked_samples_ != 0)) masked ? gl_.Enable(GL_SAMPLE_MASK) : gl_.Disable(GL_SAMPLE_MASK);
    if (masked) gl_.SampleMaski(0, ~masked);
    masked_samples_ = masked;
  }
  void blend_color(const float c[4]) {
    if (enabled_ && std::memcmp(c, blend_color_, sizeof blend_color_) == 0) return;
    std::memcpy(blend_color_, c, sizeof blend_color_);
    gl_.BlendColor(c[0], c[1], c[2], c[3]);
  }

private:
  const NovemGL &gl_;
  bool enabled_;
  GLuint program_ = 0, draw_fbo_ = 0, read_fbo_ = 0;
  BlendState blend_;
  uint8_t color_masks_[NV_MAX_COLOR_TARGETS] = {0xF, 0xF, 0xF, 0xF};
  bool framebuffer_srgb_ = false;
  bool depth_test_ = false, depth_write_ = true, cull_ = false;
  GLenum depth_func_ = GL_LESS, cull_face_ = GL_BACK;
  nv_rect scissor_ = {};
  StencilState stencil_;
  GLuint stencil_write_mask_ = 0xFF;
  GLenum polygon_mode_ = GL_FILL;
  bool depth_bias_ = false;
  bool depth_clamp_ = false;
  float bias_slope_ = 0.0f, bias_constant_ = 0.0f;
  uint32_t masked_samples_ = 0;
  float blend_color_[4] = {};
};

} // namespace novem_gl
