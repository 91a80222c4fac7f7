// The render-state part of a pipeline description (SET_RENDER_STATES): taken out of an
// nv_pipeline_desc by the frontend, put back into one by the plugins. One list of fields for
// both directions, so that a field added to nv_render_states cannot be forgotten in one.
#pragma once

#include "novem/commands.h"

namespace novem {

// Calls f(desc_field, states_field) for every render-state field.
template <class Desc, class States, class F> void for_each_render_state(Desc &d, States &s, F f) {
  f(d.cull, s.cull), f(d.depth_test, s.depth_test), f(d.depth_write, s.depth_write);
  f(d.depth_compare, s.depth_compare), f(d.blend_enable, s.blend_enable);
  f(d.color_src, s.color_src), f(d.color_dst, s.color_dst), f(d.color_op, s.color_op);
  f(d.alpha_src, s.alpha_src), f(d.alpha_dst, s.alpha_dst), f(d.alpha_op, s.alpha_op);
  f(d.color_write_mask, s.color_write_mask), f(d.stencil_enable, s.stencil_enable);
  f(d.fill_mode, s.fill_mode), f(d.depth_bias_enable, s.depth_bias_enable);
  f(d.stencil_front, s.stencil_front), f(d.stencil_back, s.stencil_back);
  for (int i = 0; i < NV_MAX_COLOR_TARGETS - 1; ++i) f(d.more_color_write_masks[i], s.more_color_write_masks[i]);
  f(d.masked_samples, s.masked_samples);
}

inline nv_render_states render_states_of(const nv_pipeline_desc &d) {
  nv_render_states s{};
  for_each_render_state(d, s, [](const auto &from, auto &to) { to = from; });
  return s;
}

inline void apply_render_states(nv_pipeline_desc &d, const nv_render_states &s) {
  for_each_render_state(d, s, [](auto &to, const auto &from) { to = from; });
}

// What SET_RENDER_STATES means: the description last set, with these render states.
inline nv_pipeline_desc with_render_states(nv_pipeline_desc d, const nv_render_states &s) {
  apply_render_states(d, s);
  return d;
}

} // namespace novem
