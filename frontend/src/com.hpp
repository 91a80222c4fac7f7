// COM reference counting as Windows' d3d9 does it.
//
// A resource has public references (AddRef/Release by the application) and private ones (the
// device holding it bound, or owning it as an implicit surface). While it has any public
// reference it holds one reference on its device, as native d3d9 does: creating a vertex buffer
// or holding the back buffer raises the device's count by one. It is deleted when both counts
// reach zero. Objects the application creates start with one public reference; implicit ones
// (the back buffer, the automatic depth-stencil surface) start with none.
#pragma once

#include <atomic>

#include <d3d9.h>

namespace novem {

class Device;

class RefCounts {
public:
  explicit RefCounts(ULONG public_refs) : public_(public_refs) {}
  ULONG public_count() const { return public_.load(); }

protected:
  // Returns the new count; the caller AddRefs its device on 0 -> 1.
  ULONG add_public() { return ++public_; }
  ULONG drop_public() { return --public_; }
  void add_private() { ++private_; }
  // True when this was the last reference of either kind.
  bool drop_private() { return --private_ == 0 && public_.load() == 0; }
  bool unreferenced() const { return public_.load() == 0 && private_.load() == 0; }

private:
  std::atomic<ULONG> public_;
  std::atomic<ULONG> private_{0};
};

} // namespace novem
