// D3DCREATE_MULTITHREADED: the device's recursive mutex, taken by DeviceLock for the length of
// one API call when the application asked for it at CreateDevice, and not at all otherwise (the
// guard then costs one test of a flag). The device's own methods get it from LockedDevice
// (locked_device.hpp), the device made for such applications; resources, state blocks and the
// reference counting of device objects take it themselves where they touch the device.
#pragma once

#include <mutex>

#include "device.hpp"

namespace novem {

class DeviceLock {
public:
  explicit DeviceLock(Device &device) : mutex_(device.multithreaded() ? &device.mutex() : nullptr) {
    if (mutex_) mutex_->lock();
  }
  ~DeviceLock() {
    if (mutex_) mutex_->unlock();
  }
  DeviceLock(const DeviceLock &) = delete;
  DeviceLock &operator=(const DeviceLock &) = delete;

private:
  std::recursive_mutex *mutex_;
};

} // namespace novem
