#include "buffer_shadow.hpp"

#include <algorithm>

#include "command_stream.hpp"

namespace novem {

BufferShadow::BufferShadow(CommandStream &commands, uint32_t usage, UINT size, DWORD d3d_usage)
    : commands_(commands), handle_(commands.new_handle()), d3d_usage_(d3d_usage), bytes_(size, 0) {
  commands_.push(NV_OP_CREATE_BUFFER, nv_cmd_create_buffer{handle_, usage, size});
}

BufferShadow::~BufferShadow() { commands_.push(NV_OP_DESTROY_BUFFER, nv_cmd_destroy_buffer{handle_}); }

HRESULT BufferShadow::lock(UINT offset, UINT size, void **data, DWORD flags) {
  if (!data) return D3DERR_INVALIDCALL;
  const UINT total = this->size();
  // As Windows: offset and size 0 lock everything; a range past the end is refused.
  if (size == 0) size = offset < total ? total - offset : 0;
  if (offset > total || size > total - offset) {
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
  if (d3d_usage_ & D3DUSAGE_DYNAMIC) {
    if (flags & D3DLOCK_DISCARD) update_flags_ |= NV_UPDATE_DISCARD;
    else if ((flags & D3DLOCK_NOOVERWRITE) && !(update_flags_ & NV_UPDATE_DISCARD)) update_flags_ |= NV_UPDATE_NO_OVERWRITE;
  }
  ++lock_count_;
  return D3D_OK;
}

HRESULT BufferShadow::unlock() {
  if (lock_count_ == 0) return D3DERR_INVALIDCALL;
  if (--lock_count_ > 0 || dirty_begin_ == dirty_end_) return D3D_OK;
  // A discarded buffer's old bytes are gone for the plugin: send the whole buffer when the
  // locked range does not cover it, so what the application sees and the GPU reads agree.
  uint32_t flags = update_flags_;
  if ((flags & NV_UPDATE_DISCARD) && (dirty_begin_ != 0 || dirty_end_ != size())) flags &= ~uint32_t(NV_UPDATE_DISCARD);
  commands_.update_buffer(handle_, dirty_begin_, bytes_.data() + dirty_begin_, dirty_end_ - dirty_begin_, flags);
  dirty_begin_ = dirty_end_ = 0;
  update_flags_ = 0;
  return D3D_OK;
}

} // namespace novem
