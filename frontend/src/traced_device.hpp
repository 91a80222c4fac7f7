// The device made when NOVEM_LOG=trace: every IDirect3DDevice9Ex method writes the program's call,
// its arguments and its result (call_trace.hpp), after taking the device lock as LockedDevice does
// for D3DCREATE_MULTITHREADED (DeviceLock takes it only on such devices). AddRef and Release are
// left alone, as LockedDevice leaves them.
//
// The overrides are generated at build time from d3d9.h (novem-registry-gen com-forward --trace,
// frontend/CMakeLists.txt).
#pragma once

#include "call_trace.hpp"
#include "device_lock.hpp"

namespace novem {

class TracedDevice final : public Device {
  friend class Device; // Device::create makes one
  using Device::Device;

public:
#include "traced_device_methods.inc"
};

} // namespace novem
