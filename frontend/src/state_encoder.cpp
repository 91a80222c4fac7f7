// StateEncoder (state_encoder.hpp): what a draw sends before it, group by group; the pipeline,
// its render states and vertex input, the viewport and scissor, the dynamic state, the streams.
#include "state_encoder.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "device.hpp"
#include "index_buffer.hpp"
#include "log.hpp"
#include "math.hpp"
#include "novem/render_states.hpp"
#include "shader.hpp"
#include "surface.hpp"
#include "vertex_buffer.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

// The backend format of a declaration type; NV_FORMAT_UNDEFINED for UNUSED and unknown types.
// Each reads as D3DDECLTYPE defines it, missing components as (0, 0, 1) (commands.h), except
// that UDEC3 and DEC3N read w from the 2 bits above z where D3D9 defines 1: the vertex shader's
// prologue sets it (vertex_shader_variant).
nv_format vertex_format(BYTE type) {
  switch (type) {
  case D3DDECLTYPE_FLOAT1: return NV_FORMAT_R32_SFLOAT;
  case D3DDECLTYPE_FLOAT2: return NV_FORMAT_R32G32_SFLOAT;
  case D3DDECLTYPE_FLOAT3: return NV_FORMAT_R32G32B32_SFLOAT;
  case D3DDECLTYPE_FLOAT4: return NV_FORMAT_R32G32B32A32_SFLOAT;
  case D3DDECLTYPE_D3DCOLOR: return NV_FORMAT_B8G8R8A8_UNORM; // read as (R, G, B, A), as D3D9 does
  case D3DDECLTYPE_UBYTE4: return NV_FORMAT_R8G8B8A8_USCALED;
  case D3DDECLTYPE_SHORT2: return NV_FORMAT_R16G16_SSCALED;
  case D3DDECLTYPE_SHORT4: return NV_FORMAT_R16G16B16A16_SSCALED;
  case D3DDECLTYPE_UBYTE4N: return NV_FORMAT_R8G8B8A8_UNORM;
  // D3D9 divides by 32767, so -32768 would read -1.00003; the SNORM formats clamp it to -1, as
  // Direct3D 10 and later hardware does.
  case D3DDECLTYPE_SHORT2N: return NV_FORMAT_R16G16_SNORM;
  case D3DDECLTYPE_SHORT4N: return NV_FORMAT_R16G16B16A16_SNORM;
  case D3DDECLTYPE_USHORT2N: return NV_FORMAT_R16G16_UNORM;
  case D3DDECLTYPE_USHORT4N: return NV_FORMAT_R16G16B16A16_UNORM;
  case D3DDECLTYPE_UDEC3: return NV_FORMAT_R10G10B10A2_USCALED;
  case D3DDECLTYPE_DEC3N: return NV_FORMAT_R10G10B10A2_SNORM;
  case D3DDECLTYPE_FLOAT16_2: return NV_FORMAT_R16G16_SFLOAT;
  case D3DDECLTYPE_FLOAT16_4: return NV_FORMAT_R16G16B16A16_SFLOAT;
  default: return NV_FORMAT_UNDEFINED;
  }
}

// An attribute from a declaration element, if the draw path can read it; it reads the vertex
// buffer slot of the element's stream.
bool attribute_from(const D3DVERTEXELEMENT9 &e, uint8_t location, nv_vertex_attribute &out) {
  nv_format format = vertex_format(e.Type);
  if (format == NV_FORMAT_UNDEFINED || e.Stream >= NV_MAX_VERTEX_BUFFERS) return false;
  out = nv_vertex_attribute{location, uint8_t(e.Stream), uint8_t(format), 0, e.Offset};
  return true;
}

nv_topology topology(D3DPRIMITIVETYPE type) {
  switch (type) {
  case D3DPT_POINTLIST: return NV_TOPOLOGY_POINT_LIST;
  case D3DPT_LINELIST: return NV_TOPOLOGY_LINE_LIST;
  case D3DPT_LINESTRIP: return NV_TOPOLOGY_LINE_STRIP;
  case D3DPT_TRIANGLESTRIP: return NV_TOPOLOGY_TRIANGLE_STRIP;
  case D3DPT_TRIANGLEFAN: return NV_TOPOLOGY_TRIANGLE_FAN;
  default: return NV_TOPOLOGY_TRIANGLE_LIST;
  }
}

nv_compare compare(DWORD func) {
  // D3DCMP_NEVER (1) .. D3DCMP_ALWAYS (8) in the same order as nv_compare.
  return func >= D3DCMP_NEVER && func <= D3DCMP_ALWAYS ? nv_compare(func - D3DCMP_NEVER) : NV_COMPARE_ALWAYS;
}

nv_blend_op blend_op(DWORD op) {
  switch (op) {
  case D3DBLENDOP_SUBTRACT: return NV_BLEND_OP_SUBTRACT;
  case D3DBLENDOP_REVSUBTRACT: return NV_BLEND_OP_REVERSE_SUBTRACT;
  case D3DBLENDOP_MIN: return NV_BLEND_OP_MIN;
  case D3DBLENDOP_MAX: return NV_BLEND_OP_MAX;
  default: return NV_BLEND_OP_ADD;
  }
}

// D3DBLEND to a factor. A target without alpha (X8R8G8B8, R5G6B5) reads as alpha 1.
nv_blend_factor blend_factor(DWORD blend, bool target_has_alpha) {
  switch (blend) {
  case D3DBLEND_ZERO: return NV_BLEND_ZERO;
  case D3DBLEND_SRCCOLOR: return NV_BLEND_SRC_COLOR;
  case D3DBLEND_INVSRCCOLOR: return NV_BLEND_ONE_MINUS_SRC_COLOR;
  case D3DBLEND_SRCALPHA: return NV_BLEND_SRC_ALPHA;
  case D3DBLEND_INVSRCALPHA: return NV_BLEND_ONE_MINUS_SRC_ALPHA;
  case D3DBLEND_DESTALPHA: return target_has_alpha ? NV_BLEND_DST_ALPHA : NV_BLEND_ONE;
  case D3DBLEND_INVDESTALPHA: return target_has_alpha ? NV_BLEND_ONE_MINUS_DST_ALPHA : NV_BLEND_ZERO;
  case D3DBLEND_DESTCOLOR: return NV_BLEND_DST_COLOR;
  case D3DBLEND_INVDESTCOLOR: return NV_BLEND_ONE_MINUS_DST_COLOR;
  case D3DBLEND_SRCALPHASAT: return NV_BLEND_SRC_ALPHA_SATURATE;
  case D3DBLEND_BLENDFACTOR: return NV_BLEND_CONSTANT_COLOR; // D3DRS_BLENDFACTOR (SET_DYNAMIC_STATE)
  case D3DBLEND_INVBLENDFACTOR: return NV_BLEND_ONE_MINUS_CONSTANT_COLOR;
  // The legacy BOTH factors name the source's alpha when they stand alone as a destination
  // factor (as DXVK reads them); as the source factor they set both (blend_pair).
  case D3DBLEND_BOTHSRCALPHA: return NV_BLEND_SRC_ALPHA;
  case D3DBLEND_BOTHINVSRCALPHA: return NV_BLEND_ONE_MINUS_SRC_ALPHA;
  default: return NV_BLEND_ONE; // D3DBLEND_ONE; SRCCOLOR2/INVSRCCOLOR2 (dual source) are not advertised
  }
}

// Source and destination factors. D3DBLEND_BOTHSRCALPHA as the source means source SRCALPHA and
// destination INVSRCALPHA, BOTHINVSRCALPHA the reverse, whatever the destination factor says
// (D3DBLEND's documentation: "Obsolete ... the same effect as setting the source and destination
// blend factors to D3DBLEND_SRCALPHA and D3DBLEND_INVSRCALPHA").
void blend_pair(DWORD src, DWORD dst, bool target_has_alpha, uint8_t &out_src, uint8_t &out_dst) {
  if (src == D3DBLEND_BOTHSRCALPHA) {
    out_src = NV_BLEND_SRC_ALPHA, out_dst = NV_BLEND_ONE_MINUS_SRC_ALPHA;
  } else if (src == D3DBLEND_BOTHINVSRCALPHA) {
    out_src = NV_BLEND_ONE_MINUS_SRC_ALPHA, out_dst = NV_BLEND_SRC_ALPHA;
  } else {
    out_src = blend_factor(src, target_has_alpha), out_dst = blend_factor(dst, target_has_alpha);
  }
}

// D3DSTENCILOP_KEEP (1) .. D3DSTENCILOP_DECR (8) in the same order as nv_stencil_op.
uint8_t stencil_op(DWORD op) {
  return op >= D3DSTENCILOP_KEEP && op <= D3DSTENCILOP_DECR ? uint8_t(op - D3DSTENCILOP_KEEP) : uint8_t(NV_STENCIL_OP_KEEP);
}

nv_fill_mode fill_mode(DWORD mode) {
  switch (mode) {
  case D3DFILL_POINT: return NV_FILL_POINT;
  case D3DFILL_WIREFRAME: return NV_FILL_WIREFRAME;
  default: return NV_FILL_SOLID;
  }
}

float float_of(DWORD bits) { return std::bit_cast<float>(bits); }

} // namespace

// The plugin's state after a Reset is not what was sent before it.
void StateEncoder::forget_sent() {
  pipeline_sent_ = false;
  std::fill(std::begin(bound_streams_), std::end(bound_streams_), nv_cmd_set_vertex_buffer{});
  bound_indices_ = {};
  sent_textures_ = {};
  textures_sent_ = 0;
}

void StateEncoder::sent_by_overlay(const nv_pipeline_desc &pipeline, const nv_cmd_set_viewport &viewport,
                                   const nv_rect &scissor, const nv_cmd_set_texture &texture0,
                                   const nv_cmd_set_vertex_buffer &stream0) {
  sent_pipeline_ = pipeline;
  pipeline_sent_ = true;
  sent_viewport_ = viewport, sent_scissor_ = scissor, viewport_sent_ = true;
  sent_textures_[0] = texture0;
  textures_sent_ |= 1u;
  bound_streams_[0] = stream0;
}

bool StateEncoder::flush_state(D3DPRIMITIVETYPE type, uint16_t instance_slots) {
  if (!live().state.vertex_declaration) return false; // Windows refuses a draw with neither FVF nor declaration
  CommandStream &cs = commands();
  if (live().dirty & kDirtyTargets)
    cs.push(targets_command());
  const bool pretransformed = draws_pretransformed();
  if ((live().dirty & kDirtyViewport) || pretransformed != viewport_pretransformed_) {
    // D3D9 puts pixel centres on integer coordinates, Vulkan and GL half a pixel further: the
    // viewport moves by exactly half a pixel, so that an edge through D3D9's centres runs
    // through the host's and the host's top-left rule (which the plugins guarantee) decides the
    // tie as D3D9's does. A shift of less than half a pixel (DXVK's 1/128) would move the
    // samples off edges of every slope but 1 and give the pixels under shallow right edges to
    // the triangle below.
    constexpr float kPixelCentre = 0.5f;
    const D3DVIEWPORT9 &vp = live().state.viewport;
    // Depths outside [0, 1] are D3D9's to accept and no plugin's to take: clamped. A
    // pre-transformed vertex's z is its final depth, whatever MinZ and MaxZ say (equal, reversed
    // or outside [0, 1]): those draws get the range [0, 1], to which their pipeline clamps the
    // z the fixed-function shader passes through.
    const float min_z = pretransformed ? 0.0f : std::clamp(vp.MinZ, 0.0f, 1.0f);
    const float max_z = pretransformed ? 1.0f : std::clamp(vp.MaxZ, 0.0f, 1.0f);
    nv_cmd_set_viewport v{float(vp.X) + kPixelCentre, float(vp.Y) + kPixelCentre, float(vp.Width), float(vp.Height),
                          min_z, max_z};
    // D3D9 never draws outside the viewport nor the target, nor outside the scissor rect while
    // the scissor test is on: the plugins' scissor is all three.
    const RECT a = draw_area();
    nv_rect scissor{a.left, a.top, a.right - a.left, a.bottom - a.top};
    if (!viewport_sent_ || std::memcmp(&v, &sent_viewport_, sizeof v) != 0) cs.push(v);
    if (!viewport_sent_ || std::memcmp(&scissor, &sent_scissor_, sizeof scissor) != 0)
      cs.push(nv_cmd_set_scissor{scissor});
    sent_viewport_ = v, sent_scissor_ = scissor, viewport_sent_ = true;
    viewport_pretransformed_ = pretransformed;
  }
  // The topology and the instanced slots are part of the pipeline, so a new primitive type or
  // instancing rebuilds it too.
  if ((live().dirty & kDirtyPipeline) || !pipeline_sent_ || sent_pipeline_.topology != topology(type) ||
      sent_pipeline_.instance_slots != instance_slots ||
      (instance_slots && std::memcmp(sent_pipeline_.instance_divisors, instance_divisors_.data(),
                                     sizeof sent_pipeline_.instance_divisors) != 0)) {
    if (!flush_pipeline(type, instance_slots)) return false;
  } else if (live().dirty & kDirtyPipelineStates) {
    flush_pipeline_states();
  }
  if (live().dirty & kDirtyDynamic) flush_dynamic_state();
  if (live().dirty & (kDirtyVertexConstants | kDirtyVertexConstantRange)) {
    const bool full = live().dirty & kDirtyVertexConstants;
    if (live().state.vertex_shader) flush_shader_constants(NV_STAGE_VERTEX, live().state.vs_constants, full);
    else if (full || sent_constants_[NV_STAGE_VERTEX] != Constants::kFixedFunction) flush_ff_vertex_constants();
  }
  if (live().dirty & (kDirtyPixelConstants | kDirtyPixelConstantRange)) {
    const bool full = live().dirty & kDirtyPixelConstants;
    if (live().state.pixel_shader) flush_shader_constants(NV_STAGE_PIXEL, live().state.ps_constants, full);
    else if (full || sent_constants_[NV_STAGE_PIXEL] != Constants::kFixedFunction) flush_ff_pixel_constants();
  }
  // A new shader may sample slots the previous one did not.
  if (live().dirty & (kDirtyTextures | kDirtyPipeline)) flush_textures();
  live().dirty = 0;
  return true;
}

void StateEncoder::flush_dynamic_state() {
  const auto &rs = live().state.render_states;
  nv_cmd_set_dynamic_state d{};
  d.stencil_reference = rs[D3DRS_STENCILREF] & 0xff; // D24S8, the one stencil format, has 8 bits
  d.stencil_compare_mask = rs[D3DRS_STENCILMASK] & 0xff;
  d.stencil_write_mask = rs[D3DRS_STENCILWRITEMASK] & 0xff;
  color_to_floats(rs[D3DRS_BLENDFACTOR], d.blend_constant);
  // D3DRS_DEPTHBIAS is added to the depth in [0, 1]; the APIs count in the depth format's least
  // resolvable difference, 2^-16 for D16 (and D16_LOCKABLE) and 2^-24 for D24 (DXVK scales the
  // same way). The slope factor means the same in D3D9 and both APIs.
  const Surface *depth_stencil = drawn_depth_stencil();
  const float units = depth_stencil && depth_stencil->format().storage == NV_FORMAT_D16_UNORM ? 65536.0f : 16777216.0f;
  d.depth_bias_constant = float_of(rs[D3DRS_DEPTHBIAS]) * units;
  d.depth_bias_slope = float_of(rs[D3DRS_SLOPESCALEDEPTHBIAS]);
  if (dynamic_sent_ && std::memcmp(&d, &sent_dynamic_, sizeof d) == 0) return;
  commands().push(d);
  sent_dynamic_ = d;
  dynamic_sent_ = true;
}

RECT StateEncoder::draw_area() const {
  const D3DVIEWPORT9 &vp = live().state.viewport;
  const D3DSURFACE_DESC &rt = render_target().desc();
  RECT r{LONG(std::min(vp.X, rt.Width)), LONG(std::min(vp.Y, rt.Height)),
         LONG(std::min<uint64_t>(uint64_t(vp.X) + vp.Width, rt.Width)),
         LONG(std::min<uint64_t>(uint64_t(vp.Y) + vp.Height, rt.Height))};
  if (live().state.render_states[D3DRS_SCISSORTESTENABLE]) {
    const RECT &s = live().state.scissor_rect;
    r.left = std::max(r.left, s.left), r.top = std::max(r.top, s.top);
    r.right = std::min(r.right, s.right), r.bottom = std::min(r.bottom, s.bottom);
    r.right = std::max(r.right, r.left), r.bottom = std::max(r.bottom, r.top); // empty, not negative
  }
  return r;
}

bool StateEncoder::flush_pipeline(D3DPRIMITIVETYPE type, uint16_t instance_slots) {
  // The fixed-function shaders for the state that shapes them (generated once per key).
  if (!live().state.vertex_shader) ff_vertex_key_ = ff_vertex_key();
  const uint32_t ff_pixel = live().state.pixel_shader ? 0 : ff_pixel_shader(ff_pixel_key(type));
  nv_pipeline_desc d{};
  if (!vertex_attributes(d)) {
    static std::atomic<bool> once{false};
    log_unimplemented(once, "drawing with a vertex element the plugin cannot read, or more than 16 inputs");
    return false;
  }
  d.vertex_shader = live().state.vertex_shader ? vertex_shader_variant(type) : ff_vertex_shader(ff_vertex_key_);
  d.pixel_shader = live().state.pixel_shader ? pixel_shader_variant(type) : ff_pixel;
  d.topology = topology(type);
  // Drivers without D3DPMISCCAPS_CLIPTLVERTS (Novem reports none) clamp a pre-transformed z
  // outside [0, 1] instead of clipping it, per pixel after interpolation (Wine's
  // depth_clamp_test on Windows); the fixed-function vertex shader passes z through.
  d.depth_clamp = draws_pretransformed();
  d.instance_slots = instance_slots;
  if (instance_slots) std::memcpy(d.instance_divisors, instance_divisors_.data(), sizeof d.instance_divisors);
  novem::apply_render_states(d, render_states(d.topology));
  if (!pipeline_sent_ || std::memcmp(&d, &sent_pipeline_, sizeof d) != 0) {
    commands().push(nv_cmd_set_pipeline{d});
    sent_pipeline_ = d;
    pipeline_sent_ = true;
  }
  // The vertex buffer slots its attributes read (flush_streams).
  stream_slots_ = 0;
  for (uint32_t i = 0; i < d.attribute_count; ++i) stream_slots_ |= 1u << d.attributes[i].binding;
  return true;
}

// Only render states changed (kDirtyPipelineStates): the shaders, the vertex input and the
// topology of the pipeline last sent still hold, and SET_RENDER_STATES (48 bytes in the ring
// instead of SET_PIPELINE's 256) says what changed.
void StateEncoder::flush_pipeline_states() {
  const nv_render_states now = render_states(sent_pipeline_.topology);
  const nv_render_states sent = novem::render_states_of(sent_pipeline_);
  if (std::memcmp(&now, &sent, sizeof now) == 0) return;
  commands().push(nv_cmd_set_render_states{now});
  novem::apply_render_states(sent_pipeline_, now);
}

nv_render_states StateEncoder::render_states(uint8_t topology) const {
  const auto &rs = live().state.render_states;
  nv_render_states d{};
  d.cull = rs[D3DRS_CULLMODE] == D3DCULL_CW ? NV_CULL_CW : rs[D3DRS_CULLMODE] == D3DCULL_CCW ? NV_CULL_CCW : NV_CULL_NONE;
  // Without a depth buffer there is nothing to test or write.
  const Surface *depth_stencil = drawn_depth_stencil();
  d.depth_test = depth_stencil && rs[D3DRS_ZENABLE] != D3DZB_FALSE;
  d.depth_write = d.depth_test && rs[D3DRS_ZWRITEENABLE];
  d.depth_compare = compare(rs[D3DRS_ZFUNC]);
  d.blend_enable = rs[D3DRS_ALPHABLENDENABLE] != FALSE;
  bool has_alpha = render_target().format().has_alpha;
  blend_pair(rs[D3DRS_SRCBLEND], rs[D3DRS_DESTBLEND], has_alpha, d.color_src, d.color_dst);
  d.color_op = blend_op(rs[D3DRS_BLENDOP]);
  if (rs[D3DRS_SEPARATEALPHABLENDENABLE]) {
    blend_pair(rs[D3DRS_SRCBLENDALPHA], rs[D3DRS_DESTBLENDALPHA], has_alpha, d.alpha_src, d.alpha_dst);
    d.alpha_op = blend_op(rs[D3DRS_BLENDOPALPHA]);
  } else {
    d.alpha_src = d.color_src, d.alpha_dst = d.color_dst, d.alpha_op = d.color_op;
  }
  d.color_write_mask = uint8_t(rs[D3DRS_COLORWRITEENABLE] & 0xf);
  // Triangles only; points and lines draw as they are.
  d.fill_mode = topology >= NV_TOPOLOGY_TRIANGLE_LIST ? uint8_t(fill_mode(rs[D3DRS_FILLMODE])) : uint8_t(NV_FILL_SOLID);
  // The stencil test needs a depth-stencil surface with stencil bits. Clockwise triangles (and
  // points and lines) use the STENCIL* ops; with TWOSIDEDSTENCILMODE counter-clockwise ones use
  // the CCW_STENCIL* ops (D3D9's winding on screen, the one D3DCULL names; clockwise is the
  // front face, so they are the back face's ops).
  d.stencil_enable = rs[D3DRS_STENCILENABLE] && depth_stencil && depth_stencil->format().stencil;
  if (d.stencil_enable) {
    d.stencil_front = nv_stencil_face{stencil_op(rs[D3DRS_STENCILFAIL]), stencil_op(rs[D3DRS_STENCILZFAIL]),
                                      stencil_op(rs[D3DRS_STENCILPASS]), uint8_t(compare(rs[D3DRS_STENCILFUNC]))};
    d.stencil_back = !rs[D3DRS_TWOSIDEDSTENCILMODE]
                         ? d.stencil_front
                         : nv_stencil_face{stencil_op(rs[D3DRS_CCW_STENCILFAIL]), stencil_op(rs[D3DRS_CCW_STENCILZFAIL]),
                                           stencil_op(rs[D3DRS_CCW_STENCILPASS]), uint8_t(compare(rs[D3DRS_CCW_STENCILFUNC]))};
  }
  d.depth_bias_enable = depth_stencil && (float_of(rs[D3DRS_DEPTHBIAS]) != 0.0f || float_of(rs[D3DRS_SLOPESCALEDEPTHBIAS]) != 0.0f);
  d.more_color_write_masks[0] = uint8_t(rs[D3DRS_COLORWRITEENABLE1] & 0xf);
  d.more_color_write_masks[1] = uint8_t(rs[D3DRS_COLORWRITEENABLE2] & 0xf);
  d.more_color_write_masks[2] = uint8_t(rs[D3DRS_COLORWRITEENABLE3] & 0xf);
  // A target the pixel stage does not write keeps its texels in D3D9, where Vulkan and GL leave
  // it undefined: the stage's outputs are part of each mask. The fixed-function stage and ps_1_x
  // write colour 0 only.
  const uint32_t outputs = live().state.pixel_shader ? live().state.pixel_shader->compiled().reflection.color_outputs : 1u;
  if (!(outputs & 1u)) d.color_write_mask = 0;
  for (uint32_t i = 1; i < NV_MAX_COLOR_TARGETS; ++i)
    if (!(outputs >> i & 1u)) d.more_color_write_masks[i - 1] = 0;
  // "Each bit ... controls modification of one of the samples in a multisample render target"
  // (D3DRENDERSTATETYPE); the plugins ignore it on single-sampled targets, as D3D9 does.
  // D3DMULTISAMPLE_NONMASKABLE names multisampling that is not masked: its samples are all written.
  d.masked_samples = render_target().desc().MultiSampleType == D3DMULTISAMPLE_NONMASKABLE ? 0u : ~rs[D3DRS_MULTISAMPLEMASK];
  return d;
}

bool StateEncoder::vertex_attributes(nv_pipeline_desc &d) const {
  const VertexDeclaration &decl = *live().state.vertex_declaration;
  d.attribute_count = 0;
  if (live().state.vertex_shader) {
    // Each input the shader declares reads the element of the same usage and usage index;
    // one the declaration lacks is left unbound (its value is undefined in D3D9).
    for (const auto &input : live().state.vertex_shader->compiled().reflection.inputs) {
      const D3DVERTEXELEMENT9 *e = decl.find(input.usage, input.usage_index);
      if (!e) continue;
      if (d.attribute_count == NV_MAX_VERTEX_ATTRIBUTES ||
          !attribute_from(*e, uint8_t(input.location), d.attributes[d.attribute_count]))
        return false;
      ++d.attribute_count;
    }
    return true;
  }
  return ff_vertex_attributes(ff_vertex_key_, d);
}

// The attributes the fixed-function vertex shader of `key` reads, at the ff::kIn* locations.
bool StateEncoder::ff_vertex_attributes(const ff::VertexKey &key, nv_pipeline_desc &d) const {
  const VertexDeclaration &decl = *live().state.vertex_declaration;
  d.attribute_count = 0;
  auto add = [&](const D3DVERTEXELEMENT9 *e, uint32_t location) {
    if (!e) return true;
    if (d.attribute_count == NV_MAX_VERTEX_ATTRIBUTES || !attribute_from(*e, uint8_t(location), d.attributes[d.attribute_count]))
      return false;
    ++d.attribute_count;
    return true;
  };
  const D3DVERTEXELEMENT9 *position = decl.find(key.pretransformed ? D3DDECLUSAGE_POSITIONT : D3DDECLUSAGE_POSITION, 0);
  if (!position || !add(position, ff::kInPosition)) return false;
  bool ok = true;
  if (key.blend_weights) ok &= add(decl.find(D3DDECLUSAGE_BLENDWEIGHT, 0), ff::kInBlendWeight);
  if (key.blend_indexed) ok &= add(decl.find(D3DDECLUSAGE_BLENDINDICES, 0), ff::kInBlendIndices);
  if (key.tween_position) ok &= add(decl.find(D3DDECLUSAGE_POSITION, 1), ff::kInPosition1);
  if (key.tween_normal) ok &= add(decl.find(D3DDECLUSAGE_NORMAL, 1), ff::kInNormal1);
  if (key.has_normal) ok &= add(decl.find(D3DDECLUSAGE_NORMAL, 0), ff::kInNormal);
  if (key.has_psize) ok &= add(decl.find(D3DDECLUSAGE_PSIZE, 0), ff::kInPSize);
  if (key.has_color0) ok &= add(decl.find(D3DDECLUSAGE_COLOR, 0), ff::kInColor0);
  if (key.has_color1) ok &= add(decl.find(D3DDECLUSAGE_COLOR, 1), ff::kInColor1);
  for (uint32_t i = 0; i < ff::kStages; ++i)
    if (key.texcoord_size[i]) ok &= add(decl.find(D3DDECLUSAGE_TEXCOORD, BYTE(i)), ff::kInTexcoord0 + i);
  return ok;
}

// Only DrawIndexedPrimitive instances (as D3D9 documents); other draws read every stream per
// vertex. Instancing is on while stream 0 holds INDEXEDDATA; then INSTANCEDATA | m streams
// advance every m instances (instance_divisors_). A count of 0 draws one instance. A divisor the
// plugin cannot draw (above nv_adapter_info.max_instance_divisor) refuses the draw with a log line.
bool StateEncoder::instancing(uint32_t &instances, uint16_t &instance_slots) {
  constexpr UINT kFlags = D3DSTREAMSOURCE_INDEXEDDATA | D3DSTREAMSOURCE_INSTANCEDATA;
  instances = 1, instance_slots = 0;
  const UINT stream0 = live().state.streams[0].frequency;
  if (!(stream0 & D3DSTREAMSOURCE_INDEXEDDATA)) return true; // the divisors are read only with instance slots
  instance_divisors_.fill(0);
  instances = std::max<UINT>(stream0 & ~kFlags, 1);
  for (uint32_t slot = 1; slot < live().state.streams.size(); ++slot) {
    const UINT f = live().state.streams[slot].frequency;
    if (!(f & D3DSTREAMSOURCE_INSTANCEDATA)) continue;
    const UINT divisor = f & ~kFlags; // never 0: SetStreamSourceFreq refuses INSTANCEDATA | 0
    if (divisor > std::max<uint32_t>(adapter().max_instance_divisor, 1)) {
      static std::atomic<bool> once{false};
      log_unimplemented(once, "instance data that advances every n instances, n above the plugin's max_instance_divisor");
      return false;
    }
    instance_slots |= uint16_t(1u << slot);
    instance_divisors_[slot] = divisor;
  }
  return true;
}

bool StateEncoder::flush_streams(bool up) {
  uint32_t slots = stream_slots_;
  if (up) slots &= ~1u;
  for (uint32_t slot = 0; slots >> slot; ++slot) {
    if (!(slots >> slot & 1)) continue;
    const StreamBinding &s = live().state.streams[slot];
    if (!s.buffer) return false; // an element reads a stream that has no buffer
    s.buffer->send_for_draw();
    bind_vertex_buffer(slot, s.buffer->buffer(), s.offset, s.stride);
  }
  return true;
}

void StateEncoder::bind_vertex_buffer(uint32_t slot, uint32_t buffer, uint32_t offset, uint32_t stride) {
  nv_cmd_set_vertex_buffer b{slot, buffer, offset, stride};
  if (std::memcmp(&b, &bound_streams_[slot], sizeof b) == 0) return;
  commands().push(b);
  bound_streams_[slot] = b;
}

void StateEncoder::bind_index_buffer(uint32_t buffer, uint32_t offset, uint32_t index_size) {
  nv_cmd_set_index_buffer b{buffer, offset, index_size};
  if (std::memcmp(&b, &bound_indices_, sizeof b) == 0) return;
  commands().push(b);
  bound_indices_ = b;
}

} // namespace novem
