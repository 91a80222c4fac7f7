#include "buffer_shadow.hpp"

#include <algorithm>

#include "command_stream.hpp"

namespace novem {

BufferShadow::BufferShadow(CommandStream &commands, uint32_t usage, UINT size, DWORD d3d_usage)
    : commands_(commands), handle_(commands.new_handle()), d3d_usage_(d3d_usage), bytes_(size, 0) {
  commands_.push(nv_cmd_create_buffer{handle_, usage, size});
}

BufferShadow::~BufferShadow() { commands_.push(nv_cmd_destroy_buffer{handle_}); }

HRESULT BufferShadow::lock(UINT offset, UINT size, void **data, DWORD flags) {
  if (!data) return D3DERR_INVALIDCALL;
  const UINT total = this->size();
  // As Windows: offset and size 0 lock everything; a range past the end is refused. Any flags
  // lock (Windows XP's answer; Windows 7 refuses READONLY | DISCARD and unknown bits, and a game
  // depends on XP's).
  if (size == 0) size = offset < total ? total - offset : 0;
  if (offset > total || size > total - offset) {
    *data = nullptr;
    return D3DERR_INVALIDCALL;
  }
  *data = bytes_.data() + offset;
  ++lock_count_;
  if (flags & D3DLOCK_READONLY) return D3D_OK;
  if (dirty_begin_ == dirty_end_) {
    dirty_begin_ = offset;
    dirty_end_ = offset + size;
  } else {
    dirty_begin_ = std::min(dirty_begin_, offset);
    dirty_end_ = std::max(dirty_end_, offset + size);
  }
  // DISCARD and NOOVERWRITE mean something only for dynamic buffers, as in Windows. Both together
  // (Windows takes the pair) count as DISCARD: a discarding lock may rewrite any byte, so the
  // plugin must not be told that queued draws' bytes are untouched.
  const bool dynamic = d3d_usage_ & D3DUSAGE_DYNAMIC;
  if (dynamic && (flags & D3DLOCK_DISCARD)) discard_ = true;
  if (!dynamic || (flags & D3DLOCK_DISCARD) || !(flags & D3DLOCK_NOOVERWRITE)) no_overwrite_ = false;
  return D3D_OK;
}

void BufferShadow::send() {
  // The bytes stay in the frontend, so a discarded buffer loses nothing; the plugin may give it
  // fresh memory only when the whole of it is sent. After a draw read this nest's bytes, what
  // follows is ordered after that draw.
  uint32_t flags = 0;
  if (!drawn_ && discard_) flags = dirty_begin_ == 0 && dirty_end_ == size() ? NV_UPDATE_DISCARD : 0;
  else if (!drawn_ && no_overwrite_) flags = NV_UPDATE_NO_OVERWRITE;
  commands_.update_buffer(handle_, dirty_begin_, bytes_.data() + dirty_begin_, dirty_end_ - dirty_begin_, flags);
  drawn_ = true;
}

HRESULT BufferShadow::unlock() {
  if (lock_count_ == 0) return D3DERR_INVALIDCALL;
  if (--lock_count_ > 0) return D3D_OK;
  if (dirty_begin_ != dirty_end_) send();
  dirty_begin_ = dirty_end_ = 0;
  discard_ = false;
  no_overwrite_ = true;
  drawn_ = false;
  return D3D_OK;
}

} // namespace novem
