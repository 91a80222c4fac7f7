// Vertex input (also the fixed-function vertex shader's) and draws: the dirty groups are turned into
// commands once per draw, then the draw itself.
#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "creation_answer.hpp"
#include "device.hpp"
#include "ff_key.hpp"
#include "state_block.hpp"
#include "log.hpp"
#include "math.hpp"
#include "novem/render_states.hpp"
#include "shader.hpp"
#include "surface.hpp"
#include "vertex_declaration.hpp"
#include "vertex_buffer.hpp"
#include "index_buffer.hpp"

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

// 0 for an unknown type or more primitives than the caps' MaxPrimitiveCount: the draw is refused.
uint32_t vertex_count(D3DPRIMITIVETYPE type, UINT primitives) {
  if (primitives > Device::kMaxPrimitiveCount) return 0;
  switch (type) {
  case D3DPT_POINTLIST: return primitives;
  case D3DPT_LINELIST: return primitives * 2;
  case D3DPT_LINESTRIP: return primitives + 1;
  case D3DPT_TRIANGLELIST: return primitives * 3;
  case D3DPT_TRIANGLESTRIP:
  case D3DPT_TRIANGLEFAN: return primitives + 2;
  default: return 0;
  }
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

// Every buffer has a plugin buffer, whatever its pool, and takes its length of video memory; the
// frontend's copy of its bytes is memory too. D3DERR_OUTOFVIDEOMEMORY when either cannot be had,
// and the plugin's answer when it could not make the buffer (creation_answer.hpp).
template <class Buffer, class Format>
HRESULT Device::create_buffer(UINT length, DWORD usage, Format format, D3DPOOL pool, Buffer **out) {
  *out = nullptr;
  if (!take_video_memory(length)) return D3DERR_OUTOFVIDEOMEMORY;
  Buffer *created = nullptr;
  try {
    created = new Buffer(this, length, usage, format, pool);
  } catch (const std::bad_alloc &) {
    give_video_memory(length);
    return D3DERR_OUTOFVIDEOMEMORY;
  }
  created->hold_video_memory(length);
  if (HRESULT hr = plugin_answer(*this, PluginResource::Buffer, created->buffer(), length, pool); FAILED(hr)) {
    delete created; // gives the video memory back
    return hr;
  }
  if (pool == D3DPOOL_DEFAULT) created->count_default_pool();
  *out = created;
  return D3D_OK;
}

// Buffers take no pSharedHandle: D3D9Ex answers D3DERR_NOTAVAILABLE (it has user memory for
// textures and surfaces only, Wine's test_user_memory), D3D9 D3DERR_INVALIDCALL.
HRESULT Device::buffer_shared_handle(HANDLE *shared_handle) const {
  if (!shared_handle) return D3D_OK;
  return extended() ? D3DERR_NOTAVAILABLE : D3DERR_INVALIDCALL;
}

HRESULT Device::CreateVertexBuffer(UINT length, DWORD usage, DWORD fvf, D3DPOOL pool, IDirect3DVertexBuffer9 **buffer,
                                   HANDLE *shared_handle) {
  if (!buffer) return D3DERR_INVALIDCALL;
  *buffer = nullptr;
  if (HRESULT hr = buffer_shared_handle(shared_handle); FAILED(hr)) return hr;
  if (length == 0 || DWORD(pool) >= DWORD(D3DPOOL_SCRATCH)) return D3DERR_INVALIDCALL;
  // A buffer declared with an FVF must hold at least one vertex of it, as in Windows.
  if (fvf && length < fvf_vertex_size(fvf)) return D3DERR_INVALIDCALL;
  VertexBuffer *created = nullptr;
  if (HRESULT hr = create_buffer(length, usage, fvf, pool, &created); FAILED(hr)) return hr;
  *buffer = created;
  AddRef();
  return D3D_OK;
}

HRESULT Device::CreateIndexBuffer(UINT length, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                                  IDirect3DIndexBuffer9 **buffer, HANDLE *shared_handle) {
  if (!buffer) return D3DERR_INVALIDCALL;
  *buffer = nullptr;
  if (HRESULT hr = buffer_shared_handle(shared_handle); FAILED(hr)) return hr;
  if (length == 0 || DWORD(pool) >= DWORD(D3DPOOL_SCRATCH)) return D3DERR_INVALIDCALL;
  if (format != D3DFMT_INDEX16 && format != D3DFMT_INDEX32) return D3DERR_INVALIDCALL;
  IndexBuffer *created = nullptr;
  if (HRESULT hr = create_buffer(length, usage, format, pool, &created); FAILED(hr)) return hr;
  *buffer = created;
  AddRef();
  return D3D_OK;
}

// A stride past the caps' MaxStreamStride is refused, as is an offset that is not a multiple of
// 4: the plugins fetch attributes from addresses aligned to their components (Vulkan requires
// it) and D3D9's float elements are 4 bytes.
HRESULT Device::SetStreamSource(UINT stream, IDirect3DVertexBuffer9 *iface, UINT offset, UINT stride) {
  if (stream >= live_.state.streams.size() || stride > kMaxStreamStride || offset % 4 != 0) return D3DERR_INVALIDCALL;
  auto *buffer = known_object<VertexBuffer>(iface);
  if (iface && !buffer) return D3DERR_INVALIDCALL; // not Novem's object
  update_->set_stream_source(stream, buffer, offset, stride);
  return D3D_OK;
}

HRESULT Device::GetStreamSource(UINT stream, IDirect3DVertexBuffer9 **buffer, UINT *offset, UINT *stride) {
  if (!buffer || !offset || !stride || stream >= live_.state.streams.size()) return D3DERR_INVALIDCALL;
  *buffer = nullptr, *offset = 0, *stride = 0;
  const StreamBinding &s = live_.state.streams[stream];
  if (!s.buffer) return D3D_OK;
  s.buffer->AddRef();
  *buffer = s.buffer;
  *offset = s.offset;
  *stride = s.stride;
  return D3D_OK;
}

// Instancing (D3D9's "Efficiently Drawing Multiple Instances of Geometry"): stream 0 set to
// D3DSTREAMSOURCE_INDEXEDDATA | n draws the indexed geometry n times, and streams set to
// D3DSTREAMSOURCE_INSTANCEDATA | m advance once every m instances. The refusals are Windows' (as
// Wine's tests record them): both flags at once, INSTANCEDATA on stream 0, and 0.
HRESULT Device::SetStreamSourceFreq(UINT stream, UINT setting) {
  if (stream >= live_.state.streams.size() || setting == 0) return D3DERR_INVALIDCALL;
  if ((setting & D3DSTREAMSOURCE_INSTANCEDATA) && (setting & D3DSTREAMSOURCE_INDEXEDDATA)) return D3DERR_INVALIDCALL;
  if ((setting & D3DSTREAMSOURCE_INSTANCEDATA) && stream == 0) return D3DERR_INVALIDCALL;
  update_->set_stream_frequency(stream, setting);
  return D3D_OK;
}

HRESULT Device::GetStreamSourceFreq(UINT stream, UINT *setting) {
  if (!setting || stream >= live_.state.streams.size()) return D3DERR_INVALIDCALL;
  *setting = live_.state.streams[stream].frequency;
  return D3D_OK;
}

// Only DrawIndexedPrimitive instances (as D3D9 documents); other draws read every stream per
// vertex. Instancing is on while stream 0 holds INDEXEDDATA; then INSTANCEDATA | m streams
// advance every m instances (instance_divisors_). A count of 0 draws one instance. A divisor the
// plugin cannot draw (above nv_adapter_info.max_instance_divisor) refuses the draw with a log line.
bool Device::instancing(uint32_t &instances, uint16_t &instance_slots) {
  constexpr UINT kFlags = D3DSTREAMSOURCE_INDEXEDDATA | D3DSTREAMSOURCE_INSTANCEDATA;
  instances = 1, instance_slots = 0;
  const UINT stream0 = live_.state.streams[0].frequency;
  if (!(stream0 & D3DSTREAMSOURCE_INDEXEDDATA)) return true; // the divisors are read only with instance slots
  instance_divisors_.fill(0);
  instances = std::max<UINT>(stream0 & ~kFlags, 1);
  for (uint32_t slot = 1; slot < live_.state.streams.size(); ++slot) {
    const UINT f = live_.state.streams[slot].frequency;
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

HRESULT Device::SetIndices(IDirect3DIndexBuffer9 *iface) {
  auto *buffer = known_object<IndexBuffer>(iface);
  if (iface && !buffer) return D3DERR_INVALIDCALL; // not Novem's object
  update_->set_indices(buffer);
  return D3D_OK;
}

HRESULT Device::GetIndices(IDirect3DIndexBuffer9 **buffer) {
  if (!buffer) return D3DERR_INVALIDCALL;
  *buffer = live_.state.indices;
  if (live_.state.indices) live_.state.indices->AddRef();
  return D3D_OK;
}

bool Device::vertex_attributes(nv_pipeline_desc &d) const {
  const VertexDeclaration &decl = *live_.state.vertex_declaration;
  d.attribute_count = 0;
  if (live_.state.vertex_shader) {
    // Each input the shader declares reads the element of the same usage and usage index;
    // one the declaration lacks is left unbound (its value is undefined in D3D9).
    for (const auto &input : live_.state.vertex_shader->compiled().reflection.inputs) {
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
bool Device::ff_vertex_attributes(const ff::VertexKey &key, nv_pipeline_desc &d) const {
  const VertexDeclaration &decl = *live_.state.vertex_declaration;
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

bool Device::flush_pipeline(D3DPRIMITIVETYPE type, uint16_t instance_slots) {
  // The fixed-function shaders for the state that shapes them (generated once per key).
  if (!live_.state.vertex_shader) ff_vertex_key_ = ff_vertex_key();
  const uint32_t ff_pixel = live_.state.pixel_shader ? 0 : ff_pixel_shader(ff_pixel_key(type));
  nv_pipeline_desc d{};
  if (!vertex_attributes(d)) {
    static std::atomic<bool> once{false};
    log_unimplemented(once, "drawing with a vertex element the plugin cannot read, or more than 16 inputs");
    return false;
  }
  d.vertex_shader = live_.state.vertex_shader ? vertex_shader_variant(type) : ff_vertex_shader(ff_vertex_key_);
  d.pixel_shader = live_.state.pixel_shader ? pixel_shader_variant(type) : ff_pixel;
  d.topology = topology(type);
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
void Device::flush_pipeline_states() {
  const nv_render_states now = render_states(sent_pipeline_.topology);
  const nv_render_states sent = novem::render_states_of(sent_pipeline_);
  if (std::memcmp(&now, &sent, sizeof now) == 0) return;
  commands().push(nv_cmd_set_render_states{now});
  novem::apply_render_states(sent_pipeline_, now);
}

nv_render_states Device::render_states(uint8_t topology) const {
  const auto &rs = live_.state.render_states;
  nv_render_states d{};
  d.cull = rs[D3DRS_CULLMODE] == D3DCULL_CW ? NV_CULL_CW : rs[D3DRS_CULLMODE] == D3DCULL_CCW ? NV_CULL_CCW : NV_CULL_NONE;
  // Without a depth buffer there is nothing to test or write.
  const Surface *depth_stencil = drawn_depth_stencil();
  d.depth_test = depth_stencil && rs[D3DRS_ZENABLE] != D3DZB_FALSE;
  d.depth_write = d.depth_test && rs[D3DRS_ZWRITEENABLE];
  d.depth_compare = compare(rs[D3DRS_ZFUNC]);
  d.blend_enable = rs[D3DRS_ALPHABLENDENABLE] != FALSE;
  bool has_alpha = render_target_->format().has_alpha;
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
  const uint32_t outputs = live_.state.pixel_shader ? live_.state.pixel_shader->compiled().reflection.color_outputs : 1u;
  if (!(outputs & 1u)) d.color_write_mask = 0;
  for (uint32_t i = 1; i < NV_MAX_COLOR_TARGETS; ++i)
    if (!(outputs >> i & 1u)) d.more_color_write_masks[i - 1] = 0;
  // "Each bit ... controls modification of one of the samples in a multisample render target"
  // (D3DRENDERSTATETYPE); the plugins ignore it on single-sampled targets, as D3D9 does.
  // D3DMULTISAMPLE_NONMASKABLE names multisampling that is not masked: its samples are all written.
  d.masked_samples = render_target_->desc().MultiSampleType == D3DMULTISAMPLE_NONMASKABLE ? 0u : ~rs[D3DRS_MULTISAMPLEMASK];
  return d;
}

RECT Device::draw_area() const {
  const D3DVIEWPORT9 &vp = live_.state.viewport;
  const D3DSURFACE_DESC &rt = render_target_->desc();
  RECT r{LONG(std::min(vp.X, rt.Width)), LONG(std::min(vp.Y, rt.Height)),
         LONG(std::min<uint64_t>(uint64_t(vp.X) + vp.Width, rt.Width)),
         LONG(std::min<uint64_t>(uint64_t(vp.Y) + vp.Height, rt.Height))};
  if (live_.state.render_states[D3DRS_SCISSORTESTENABLE]) {
    const RECT &s = live_.state.scissor_rect;
    r.left = std::max(r.left, s.left), r.top = std::max(r.top, s.top);
    r.right = std::min(r.right, s.right), r.bottom = std::min(r.bottom, s.bottom);
    r.right = std::max(r.right, r.left), r.bottom = std::max(r.bottom, r.top); // empty, not negative
  }
  return r;
}

void Device::flush_dynamic_state() {
  const auto &rs = live_.state.render_states;
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

bool Device::flush_state(D3DPRIMITIVETYPE type, uint16_t instance_slots) {
  if (!live_.state.vertex_declaration) return false; // Windows refuses a draw with neither FVF nor declaration
  CommandStream &cs = commands();
  if (live_.dirty & kDirtyTargets)
    cs.push(targets_command());
  const bool pretransformed = draws_pretransformed();
  if ((live_.dirty & kDirtyViewport) || pretransformed != viewport_pretransformed_) {
    // D3D9 puts pixel centres on integer coordinates, Vulkan and GL half a pixel further: the
    // viewport moves by exactly half a pixel, so that an edge through D3D9's centres runs
    // through the host's and the host's top-left rule (which the plugins guarantee) decides the
    // tie as D3D9's does. A shift of less than half a pixel (DXVK's 1/128) would move the
    // samples off edges of every slope but 1 and give the pixels under shallow right edges to
    // the triangle below.
    constexpr float kPixelCentre = 0.5f;
    const D3DVIEWPORT9 &vp = live_.state.viewport;
    // Depths outside [0, 1] are D3D9's to accept and no plugin's to take: clamped. A
    // pre-transformed vertex's z is its final depth, whatever MinZ and MaxZ say (equal, reversed
    // or outside [0, 1]): those draws get the range [0, 1], which the fixed-function shader's z
    // passes through.
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
  if ((live_.dirty & kDirtyPipeline) || !pipeline_sent_ || sent_pipeline_.topology != topology(type) ||
      sent_pipeline_.instance_slots != instance_slots ||
      (instance_slots && std::memcmp(sent_pipeline_.instance_divisors, instance_divisors_.data(),
                                     sizeof sent_pipeline_.instance_divisors) != 0)) {
    if (!flush_pipeline(type, instance_slots)) return false;
  } else if (live_.dirty & kDirtyPipelineStates) {
    flush_pipeline_states();
  }
  if (live_.dirty & kDirtyDynamic) flush_dynamic_state();
  if (live_.dirty & (kDirtyVertexConstants | kDirtyVertexConstantRange)) {
    const bool full = live_.dirty & kDirtyVertexConstants;
    if (live_.state.vertex_shader) flush_shader_constants(NV_STAGE_VERTEX, live_.state.vs_constants, full);
    else if (full || sent_constants_[NV_STAGE_VERTEX].kind != SentConstants::kFixedFunction) flush_ff_vertex_constants();
  }
  if (live_.dirty & (kDirtyPixelConstants | kDirtyPixelConstantRange)) {
    const bool full = live_.dirty & kDirtyPixelConstants;
    if (live_.state.pixel_shader) flush_shader_constants(NV_STAGE_PIXEL, live_.state.ps_constants, full);
    else if (full || sent_constants_[NV_STAGE_PIXEL].kind != SentConstants::kFixedFunction) flush_ff_pixel_constants();
  }
  // A new shader may sample slots the previous one did not.
  if (live_.dirty & (kDirtyTextures | kDirtyPipeline)) flush_textures();
  live_.dirty = 0;
  return true;
}

void Device::bind_vertex_buffer(uint32_t slot, uint32_t buffer, uint32_t offset, uint32_t stride) {
  nv_cmd_set_vertex_buffer b{slot, buffer, offset, stride};
  if (std::memcmp(&b, &bound_streams_[slot], sizeof b) == 0) return;
  commands().push(b);
  bound_streams_[slot] = b;
}

void Device::bind_index_buffer(uint32_t buffer, uint32_t offset, uint32_t index_size) {
  nv_cmd_set_index_buffer b{buffer, offset, index_size};
  if (std::memcmp(&b, &bound_indices_, sizeof b) == 0) return;
  commands().push(b);
  bound_indices_ = b;
}

bool Device::flush_streams(bool up) {
  uint32_t slots = stream_slots_;
  if (up) slots &= ~1u;
  for (uint32_t slot = 0; slots >> slot; ++slot) {
    if (!(slots >> slot & 1)) continue;
    const StreamBinding &s = live_.state.streams[slot];
    if (!s.buffer) return false; // an element reads a stream that has no buffer
    s.buffer->send_for_draw();
    bind_vertex_buffer(slot, s.buffer->buffer(), s.offset, s.stride);
  }
  return true;
}

uint32_t Device::up_upload(UpBuffer &up, uint32_t usage, const void *data, uint32_t bytes, uint32_t unit) {
  // Append; restart (DISCARD) when full, grow when too small.
  CommandStream &cs = commands();
  uint32_t flags = NV_UPDATE_NO_OVERWRITE;
  if (bytes > up.size) {
    if (up.buffer) cs.push(nv_cmd_destroy_buffer{up.buffer});
    up.size = std::max<uint32_t>(bytes * 2, 1u << 20);
    up.buffer = cs.new_handle();
    cs.push(nv_cmd_create_buffer{up.buffer, usage, up.size});
    up.cursor = 0;
  }
  uint64_t offset = (uint64_t(up.cursor) + unit - 1) / unit * unit;
  if (offset + bytes > up.size) {
    offset = 0;
    flags = NV_UPDATE_DISCARD;
  }
  cs.update_buffer(up.buffer, uint32_t(offset), data, bytes, flags);
  up.cursor = uint32_t(offset + bytes);
  return uint32_t(offset / unit);
}

// As Windows: a UP draw leaves stream 0 unset, whatever happens next.
void Device::unset_stream0() {
  if (live_.state.streams[0].buffer) live_.state.streams[0].buffer->release_private_ref();
  live_.state.streams[0].buffer = nullptr, live_.state.streams[0].offset = 0, live_.state.streams[0].stride = 0;
}

HRESULT Device::DrawPrimitive(D3DPRIMITIVETYPE type, UINT start_vertex, UINT primitive_count) {
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  if (count == 0) return D3DERR_INVALIDCALL;
  if (!flush_state(type) || !flush_streams(false)) return D3DERR_INVALIDCALL;
  commands().push(nv_cmd_draw{start_vertex, count, 1});
  ++frame_draws_;
  return D3D_OK;
}

HRESULT Device::DrawPrimitiveUP(D3DPRIMITIVETYPE type, UINT primitive_count, const void *data, UINT stride) {
  if (!data || stride == 0 || stride > kMaxStreamStride) return D3DERR_INVALIDCALL;
  unset_stream0();
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  if (count == 0) return D3DERR_INVALIDCALL;
  uint64_t bytes = uint64_t(count) * stride;
  if (bytes > (1u << 30)) return D3DERR_INVALIDCALL;
  if (!flush_state(type) || !flush_streams(true)) return D3DERR_INVALIDCALL;
  const uint32_t first = up_upload(up_vertices_, NV_BUFFER_VERTEX, data, uint32_t(bytes), stride);
  bind_vertex_buffer(0, up_vertices_.buffer, 0, stride);
  commands().push(nv_cmd_draw{first, count, 1});
  ++frame_draws_;
  return D3D_OK;
}

// MinVertexIndex and NumVertices are hints, checked as loosely as Windows' runtime does: not
// against the indices. The indices read must lie in the index buffer.
HRESULT Device::DrawIndexedPrimitive(D3DPRIMITIVETYPE type, INT base_vertex, UINT, UINT, UINT start_index,
                                     UINT primitive_count) {
  if (!live_.state.indices) return D3DERR_INVALIDCALL;
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  if (count == 0) return D3DERR_INVALIDCALL;
  const uint32_t index_size = live_.state.indices->index_size();
  if ((uint64_t(start_index) + count) * index_size > live_.state.indices->size()) return D3DERR_INVALIDCALL;
  uint32_t instances = 1;
  uint16_t instance_slots = 0;
  if (!instancing(instances, instance_slots)) return D3DERR_INVALIDCALL;
  if (!flush_state(type, instance_slots) || !flush_streams(false)) return D3DERR_INVALIDCALL;
  live_.state.indices->send_for_draw();
  bind_index_buffer(live_.state.indices->buffer(), 0, index_size);
  commands().push(nv_cmd_draw_indexed{start_index, count, base_vertex, instances});
  ++frame_draws_;
  return D3D_OK;
}

HRESULT Device::DrawIndexedPrimitiveUP(D3DPRIMITIVETYPE type, UINT min_vertex_index, UINT vertex_count_hint,
                                       UINT primitive_count, const void *index_data, D3DFORMAT index_format,
                                       const void *data, UINT stride) {
  if (!index_data || !data || stride == 0 || stride > kMaxStreamStride) return D3DERR_INVALIDCALL;
  if (index_format != D3DFMT_INDEX16 && index_format != D3DFMT_INDEX32) return D3DERR_INVALIDCALL;
  // As Windows: stream 0 and the index buffer are unset by the call, whatever happens next.
  unset_stream0();
  SetIndices(nullptr);
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  // The indices count from the start of `data`: the vertices up to MinVertexIndex + NumVertices
  // are uploaded (as Wine does; NumVertices is not checked against the indices).
  uint64_t vertex_bytes = (uint64_t(min_vertex_index) + vertex_count_hint) * stride;
  if (count == 0 || vertex_bytes == 0) return D3DERR_INVALIDCALL;
  const uint32_t index_size = index_format == D3DFMT_INDEX32 ? 4 : 2;
  uint64_t index_bytes = uint64_t(count) * index_size;
  if (vertex_bytes > (1u << 30) || index_bytes > (1u << 30)) return D3DERR_INVALIDCALL;
  if (!flush_state(type) || !flush_streams(true)) return D3DERR_INVALIDCALL;
  const uint32_t first_vertex = up_upload(up_vertices_, NV_BUFFER_VERTEX, data, uint32_t(vertex_bytes), stride);
  const uint32_t first_index = up_upload(up_indices_, NV_BUFFER_INDEX, index_data, uint32_t(index_bytes), index_size);
  bind_vertex_buffer(0, up_vertices_.buffer, 0, stride);
  bind_index_buffer(up_indices_.buffer, 0, index_size);
  commands().push(nv_cmd_draw_indexed{first_index, count, int32_t(first_vertex), 1});
  ++frame_draws_;
  return D3D_OK;
}

} // namespace novem
