#include "vertex_buffer.hpp"

#include <algorithm>

namespace novem {

VertexBuffer::VertexBuffer(Device *device, UINT length, DWORD usage, DWORD fvf, D3DPOOL pool)
    : DeviceChild(device, 1), desc_{D3DFMT_VERTEXDATA, D3DRTYPE_VERTEXBUFFER, usage, pool, length, fvf},
      buffer_(device->commands().new_handle()), bytes_(length, 0) {
  device->commands().push(NV_OP_CREATE_BUFFER, nv_cmd_create_buffer{buffer_, NV_BUFFER_VERTEX, length});
}

VertexBuffer::~VertexBuffer() {
  device_->commands().push(NV_OP_DESTROY_BUFFER, nv_cmd_destroy_buffer{buffer_});
}

HRESULT VertexBuffer::Lock(UINT offset, UINT size, void **data, DWORD flags) {
  if (!data) return D3DERR_INVALIDCALL;
  // As Windows: offset and size 0 lock everything; a range past the end is refused.
  if (size == 0) size = offset < desc_.Size ? desc_.Size - offset : 0;
  if (offset > desc_.Size || size > desc_.Size - offset) {
    *data = nullptr;
    return D3DERR_INVALIDCALL;
  }
  *data = bytes_.data() + offset;
  if (flags & D3DLOCK_READONLY) {
    ++lock_count_;
    return D3D_OK;
  }
  if (dirty_begin_ == dirty_end_) {
    dirty_begin_ = offset;
    dirty_end_ = offset + size;
  } else {
    dirty_begin_ = std::min(dirty_begin_, offset);
    dirty_end_ = std::max(dirty_end_, offset + size);
  }
  // DISCARD and NOOVERWRITE mean something only for dynamic buffers, as in Windows.
  if (desc_.Usage & D3DUSAGE_DYNAMIC) {
    if (flags & D3DLOCK_DISCARD) update_flags_ |= NV_UPDATE_DISCARD;
    else if ((flags & D3DLOCK_NOOVERWRITE) && !(update_flags_ & NV_UPDATE_DISCARD)) update_flags_ |= NV_UPDATE_NO_OVERWRITE;
  }
  ++lock_count_;
  return D3D_OK;
}

HRESULT VertexBuffer::Unlock() {
  if (lock_count_ == 0) return D3DERR_INVALIDCALL;
  if (--lock_count_ > 0 || dirty_begin_ == dirty_end_) return D3D_OK;
  // A discarded buffer's old bytes are gone for the plugin: send the whole buffer when the
  // locked range does not cover it, so what the application sees and the GPU reads agree.
  uint32_t flags = update_flags_;
  if ((flags & NV_UPDATE_DISCARD) && (dirty_begin_ != 0 || dirty_end_ != desc_.Size)) flags &= ~uint32_t(NV_UPDATE_DISCARD);
  device_->commands().update_buffer(buffer_, dirty_begin_, bytes_.data() + dirty_begin_, dirty_end_ - dirty_begin_, flags);
  dirty_begin_ = dirty_end_ = 0;
  update_flags_ = 0;
  return D3D_OK;
}

HRESULT VertexBuffer::GetDesc(D3DVERTEXBUFFER_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = desc_;
  return D3D_OK;
}

} // namespace novem
