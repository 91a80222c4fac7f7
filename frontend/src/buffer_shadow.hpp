// What vertex and index buffers share: the frontend's copy of the bytes and Lock/Unlock on it.
// Lock hands out a pointer into the copy; the last Unlock sends the union of the ranges locked
// for writing to the plugin's buffer through the ring, so a lock never waits for the GPU: draws
// queued before the Unlock read the old bytes, later ones the new. A draw issued while the buffer
// is still locked (Windows allows it) reads the bytes written so far: send_for_draw() sends them
// before the draw, and the Unlock sends the range again, ordered after it.
#pragma once

#include <cstdint>
#include <vector>

#include <d3d9.h>

namespace novem {

class CommandStream;

class BufferShadow {
public:
  // Creates the plugin's buffer (usage: nv_buffer_usage) of `size` bytes.
  BufferShadow(CommandStream &commands, uint32_t usage, UINT size, DWORD d3d_usage);
  ~BufferShadow(); // destroys the plugin's buffer
  BufferShadow(const BufferShadow &) = delete;
  BufferShadow &operator=(const BufferShadow &) = delete;

  uint32_t handle() const { return handle_; }
  UINT size() const { return UINT(bytes_.size()); }

  // IDirect3D{Vertex,Index}Buffer9::Lock and Unlock, as Windows behaves.
  HRESULT lock(UINT offset, UINT size, void **data, DWORD flags);
  HRESULT unlock();
  // A draw is about to read the buffer: while it is locked, send what the locks may have written.
  void send_for_draw() {
    if (lock_count_ > 0 && dirty_begin_ != dirty_end_) send();
  }

private:
  // Sends the dirty range with the flags the locks allow, and tells later sends of this nest of
  // locks that a draw may read what this one wrote.
  void send();

  CommandStream &commands_;
  uint32_t handle_;
  DWORD d3d_usage_;
  std::vector<uint8_t> bytes_;
  // Locks nest; the union of the ranges locked for writing is sent at the last Unlock.
  UINT lock_count_ = 0;
  UINT dirty_begin_ = 0, dirty_end_ = 0;
  // What the writing locks of the nest said (dynamic buffers only): one discarded the buffer, all
  // promised not to overwrite what queued draws read. A draw during the nest ends both promises
  // for what comes after it (drawn_).
  bool discard_ = false;
  bool no_overwrite_ = true;
  bool drawn_ = false;
};

} // namespace novem
