// Vertex buffers, index buffers, streams and the draws: each draw has the state encoder send what
// changed (StateEncoder::flush_state), then the draw itself.
#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "creation_answer.hpp"
#include "device.hpp"
#include "ff_key.hpp"
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

} // namespace

// Every buffer has a plugin buffer, whatever its pool, and takes its length of video memory; the
// frontend's copy of its bytes is memory too. D3DERR_OUTOFVIDEOMEMORY (E_OUTOFMEMORY on a D3D9Ex
// device) when either cannot be had, and the plugin's answer when it could not make the buffer
// (creation_answer.hpp).
template <class Buffer, class Format>
HRESULT Device::create_buffer(UINT length, DWORD usage, Format format, D3DPOOL pool, Buffer **out) {
  *out = nullptr;
  if (!take_video_memory(length)) return video_memory_refusal();
  Buffer *created = nullptr;
  try {
    created = new Buffer(this, length, usage, format, pool);
  } catch (const std::bad_alloc &) {
    give_video_memory(length);
    return video_memory_refusal();
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

HRESULT Device::DrawPrimitive(D3DPRIMITIVETYPE type, UINT start_vertex, UINT primitive_count) {
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  if (count == 0) return D3DERR_INVALIDCALL;
  if (!encoder().flush_state(type) || !encoder().flush_streams(false)) return D3DERR_INVALIDCALL;
  commands().push(nv_cmd_draw{start_vertex, count, 1});
  ++frame_draws_;
  return D3D_OK;
}

HRESULT Device::DrawPrimitiveUP(D3DPRIMITIVETYPE type, UINT primitive_count, const void *data, UINT stride) {
  if (!data || stride == 0 || stride > kMaxStreamStride) return D3DERR_INVALIDCALL;
  // As Windows: a UP draw leaves the device's stream 0 unset (a recording block's stays), whatever
  // happens next.
  live_.set_stream_source(0, nullptr, 0, 0);
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  if (count == 0) return D3DERR_INVALIDCALL;
  uint64_t bytes = uint64_t(count) * stride;
  if (bytes > (1u << 30)) return D3DERR_INVALIDCALL;
  if (!encoder().flush_state(type) || !encoder().flush_streams(true)) return D3DERR_INVALIDCALL;
  const uint32_t first = up_upload(up_vertices_, NV_BUFFER_VERTEX, data, uint32_t(bytes), stride);
  encoder().bind_vertex_buffer(0, up_vertices_.buffer, 0, stride);
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
  if (!encoder().instancing(instances, instance_slots)) return D3DERR_INVALIDCALL;
  if (!encoder().flush_state(type, instance_slots) || !encoder().flush_streams(false)) return D3DERR_INVALIDCALL;
  live_.state.indices->send_for_draw();
  encoder().bind_index_buffer(live_.state.indices->buffer(), 0, index_size);
  commands().push(nv_cmd_draw_indexed{start_index, count, base_vertex, instances});
  ++frame_draws_;
  return D3D_OK;
}

HRESULT Device::DrawIndexedPrimitiveUP(D3DPRIMITIVETYPE type, UINT min_vertex_index, UINT vertex_count_hint,
                                       UINT primitive_count, const void *index_data, D3DFORMAT index_format,
                                       const void *data, UINT stride) {
  if (!index_data || !data || stride == 0 || stride > kMaxStreamStride) return D3DERR_INVALIDCALL;
  if (index_format != D3DFMT_INDEX16 && index_format != D3DFMT_INDEX32) return D3DERR_INVALIDCALL;
  // As Windows: the device's stream 0 and index buffer are unset by the call (a recording block's
  // stay), whatever happens next.
  live_.set_stream_source(0, nullptr, 0, 0);
  live_.set_indices(nullptr);
  if (primitive_count == 0) return D3D_OK;
  uint32_t count = vertex_count(type, primitive_count);
  // The indices count from the start of `data`: the vertices up to MinVertexIndex + NumVertices
  // are uploaded (as Wine does; NumVertices is not checked against the indices).
  uint64_t vertex_bytes = (uint64_t(min_vertex_index) + vertex_count_hint) * stride;
  if (count == 0 || vertex_bytes == 0) return D3DERR_INVALIDCALL;
  const uint32_t index_size = index_format == D3DFMT_INDEX32 ? 4 : 2;
  uint64_t index_bytes = uint64_t(count) * index_size;
  if (vertex_bytes > (1u << 30) || index_bytes > (1u << 30)) return D3DERR_INVALIDCALL;
  if (!encoder().flush_state(type) || !encoder().flush_streams(true)) return D3DERR_INVALIDCALL;
  const uint32_t first_vertex = up_upload(up_vertices_, NV_BUFFER_VERTEX, data, uint32_t(vertex_bytes), stride);
  const uint32_t first_index = up_upload(up_indices_, NV_BUFFER_INDEX, index_data, uint32_t(index_bytes), index_size);
  encoder().bind_vertex_buffer(0, up_vertices_.buffer, 0, stride);
  encoder().bind_index_buffer(up_indices_.buffer, 0, index_size);
  commands().push(nv_cmd_draw_indexed{first_index, count, int32_t(first_vertex), 1});
  ++frame_draws_;
  return D3D_OK;
}

} // namespace novem
