// A plugin's device: its channel and the submission thread that executes it, and how that thread
// stops, shared by the plugins that drive a real API.
//
// A program may exit with a device alive (no Release). exit() then runs the atexit handlers and
// static destructors, the driver's among them (Mesa's stop its own threads and tear the screen
// down), while the submission thread may still be inside the driver: it crashes there. So a
// device whose thread has started the driver registers an exit handler, which runs before the
// driver's (handlers run in the reverse order of their registration): it stops every live device's
// thread as destroy_device does (what is queued is executed, the GPU waited for) and completes
// every fence, so that a wait the program makes after that (a global smart pointer releasing the
// device) returns instead of waiting for a thread that is gone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "novem/channel.hpp"

struct nv_device {
  explicit nv_device(nv_channel &c) : channel(c) {}
  nv_channel &channel;
  std::thread thread;
};

namespace novem {

namespace detail {

struct LiveDevices {
  std::mutex mutex;
  std::vector<nv_device *> devices;
};

// Never destroyed: the exit handler uses it while static destructors run.
inline LiveDevices &live_devices() {
  static auto *live = new LiveDevices;
  return *live;
}

inline void join_device_thread(nv_device &device) {
  if (!device.thread.joinable()) return;
  device.channel.ring.stop(); // the worker executes what is queued, waits for the GPU, returns
  device.thread.join();
}

inline void stop_live_devices() {
  LiveDevices &live = live_devices();
  std::lock_guard<std::mutex> lock(live.mutex);
  for (nv_device *device : live.devices) {
    join_device_thread(*device);
    device->channel.complete_fence(UINT64_MAX);
  }
}

} // namespace detail

// Called once the device's thread has started the driver (its context or device exists), so
// that the handler registered here runs before the ones the driver registered while starting.
// atexit from a shared object is bound to it: dlclose runs the handler too.
inline void stop_at_exit(nv_device &device) {
  detail::LiveDevices &live = detail::live_devices();
  std::lock_guard<std::mutex> lock(live.mutex);
  live.devices.push_back(&device);
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(detail::stop_live_devices); });
}

// create_device's start-up, the same for every plugin that drives an API: `body(started)` runs on
// the new submission thread. It makes the API's context and the executor, calls started("") and
// runs the worker loop, or calls started(why) and returns. create_device waits for that answer:
// the device, registered with the exit handler once its driver is up; or nullptr, its thread
// joined, and the reason in `failure`. A body that throws or returns before it answers fails the
// start with that reason, so create_device never waits forever.
using StartedFn = std::function<void(const std::string &failure)>;
template <class Body> nv_device *start_device_thread(nv_channel &channel, Body body, std::string &failure) {
  auto device = std::make_unique<nv_device>(channel);
  auto answer = std::make_shared<std::promise<std::string>>();
  std::future<std::string> result = answer->get_future();
  device->thread = std::thread([body = std::move(body), answer]() mutable {
    bool answered = false;
    const StartedFn started = [&](const std::string &why) {
      if (!answered) answer->set_value(why);
      answered = true;
    };
    try {
      body(started);
    } catch (const std::exception &e) {
      if (answered) throw; // past the start: as from any thread
      started(e.what()[0] ? e.what() : "unknown error");
    } catch (...) {
      if (answered) throw;
      started("unknown error");
    }
    started("the device's thread ended before it started");
  });
  failure = result.get();
  if (!failure.empty()) {
    device->thread.join();
    return nullptr;
  }
  stop_at_exit(*device);
  return device.release();
}

// destroy_device: stops the thread (unless the exit handler did) and deletes the device.
inline void destroy_device_thread(nv_device *device) {
  if (!device) return;
  {
    detail::LiveDevices &live = detail::live_devices();
    std::lock_guard<std::mutex> lock(live.mutex);
    live.devices.erase(std::remove(live.devices.begin(), live.devices.end(), device), live.devices.end());
  }
  detail::join_device_thread(*device);
  delete device;
}

} // namespace novem
