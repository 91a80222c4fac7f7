// The device made for D3DCREATE_MULTITHREADED: every IDirect3DDevice9Ex method takes the device's
// recursive mutex (DeviceLock, device_lock.hpp) for the length of the call, then runs Device's.
// A device created without the flag is a plain Device and takes no lock. AddRef and Release are
// left alone: the count is atomic, and the last Release has no other caller to race with.
//
// The overrides, one per method of d3d9.h's IDirect3DDevice9Ex in its order, are generated at build
// time from that header (novem-registry-gen com-forward, frontend/CMakeLists.txt): each takes the
// lock, then calls Device's.
#pragma once

#include "device_lock.hpp"

namespace novem {

class LockedDevice final : public Device {
  friend class Device; // Device::create makes one
  using Device::Device;

public:
#include "locked_device_methods.inc"
};

} // namespace novem
