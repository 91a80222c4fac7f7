// The layer's state: one InstanceState per VkInstance, one DeviceState per VkDevice, one QueueState
// per VkQueue, found through maps guarded by a single reader/writer lock (held only for the
// lookup, never across a call down the chain). The counters of a queue are relaxed atomics, so
// any number of threads may count into them at once without a lock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "novem_qd_dispatch.h" // generated at build time from vk.xml (VK_NO_PROTOTYPES)
#include <vulkan/vk_layer.h>

namespace novem_qd {

using Counter = std::atomic<std::uint64_t>;

inline std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// Calls and CPU time spent blocked in one kind of wait.
struct WaitStats {
  Counter calls{0};
  Counter blocked_ns{0};
  void add(std::uint64_t ns) {
    calls.fetch_add(1, std::memory_order_relaxed);
    blocked_ns.fetch_add(ns, std::memory_order_relaxed);
  }
};

struct DeviceState;

struct QueueState {
  DeviceState *device = nullptr;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t family = 0;
  std::uint32_t index = 0;
  VkDeviceQueueCreateFlags create_flags = 0;
  VkQueueFlags family_flags = 0;

  Counter submits{0};          // successful vkQueueSubmit + vkQueueSubmit2(KHR) calls
  Counter submit_calls_v1{0};  // of which vkQueueSubmit
  Counter submit_calls_v2{0};  // of which vkQueueSubmit2 / vkQueueSubmit2KHR
  Counter failed_submits{0};   // calls that returned an error (not counted above)
  Counter batches{0};          // VkSubmitInfo / VkSubmitInfo2
  Counter command_buffers{0};
  Counter wait_binary{0}, wait_timeline{0};
  Counter signal_binary{0}, signal_timeline{0};
  Counter fences{0};           // submissions that carried a fence
  Counter presents{0};         // vkQueuePresentKHR calls
  Counter present_swapchains{0};
  WaitStats queue_wait_idle, device_wait_idle, wait_for_fences;

  // Work in flight, as far as the layer can tell without a thread of its own: every successful
  // submission takes the next sequence number; a wait that proves completion (vkQueueWaitIdle,
  // vkDeviceWaitIdle, a fence known to be signalled) raises `completed` to the number it proves.
  Counter submitted_seq{0};
  Counter completed_seq{0};
  void complete_up_to(std::uint64_t seq) {
    std::uint64_t cur = completed_seq.load(std::memory_order_relaxed);
    while (cur < seq && !completed_seq.compare_exchange_weak(cur, seq, std::memory_order_relaxed)) {
    }
  }
  bool in_flight() const {
    return submitted_seq.load(std::memory_order_relaxed) > completed_seq.load(std::memory_order_relaxed);
  }
};

struct InstanceState {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next_gipa = nullptr;
  NovemQdInstance table{};
};

// Which submission of which queue a fence was last submitted with.
struct FenceUse {
  QueueState *queue = nullptr;
  std::uint64_t seq = 0;
};

struct DeviceState {
  std::uint32_t id = 0; // order of creation in this process
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr next_gdpa = nullptr;
  NovemQdDevice table{};
  std::string name;
  std::uint32_t vendor_id = 0, device_id = 0, api_version = 0, driver_version = 0;
  std::atomic<bool> destroyed{false};

  WaitStats device_wait_idle;            // every vkDeviceWaitIdle, attributed or not
  WaitStats wait_for_fences_unattributed; // vkWaitForFences on fences no known submission carried

  std::vector<std::unique_ptr<QueueState>> queues; // guarded by the global lock (rarely grows)

  std::mutex sync_mutex; // guards the two maps below; never held across a call down
  std::unordered_set<VkSemaphore> timeline_semaphores;
  std::unordered_map<VkFence, FenceUse> fences;

  bool is_timeline(VkSemaphore s) {
    std::lock_guard lock(sync_mutex);
    return timeline_semaphores.count(s) != 0;
  }
};

// The dispatch key of a dispatchable handle: the loader's dispatch table pointer it starts with.
template <class T> void *key(T handle) { return *reinterpret_cast<void **>(handle); }

class Registry {
public:
  static Registry &get();

  std::shared_mutex mutex;
  std::unordered_map<void *, std::shared_ptr<InstanceState>> instances;
  std::unordered_map<void *, std::shared_ptr<DeviceState>> devices;
  std::unordered_map<VkQueue, QueueState *> queues;
  std::vector<std::shared_ptr<DeviceState>> all_devices; // live and destroyed, for the report
  std::uint32_t next_device_id = 0;
  std::uint32_t instances_created = 0;

  std::shared_ptr<InstanceState> instance(void *k) {
    std::shared_lock lock(mutex);
    auto it = instances.find(k);
    return it == instances.end() ? nullptr : it->second;
  }
  DeviceState *device(void *k) {
    std::shared_lock lock(mutex);
    auto it = devices.find(k);
    return it == devices.end() ? nullptr : it->second.get();
  }
  QueueState *queue(VkQueue q) {
    std::shared_lock lock(mutex);
    auto it = queues.find(q);
    return it == queues.end() ? nullptr : it->second;
  }
};

// Writes the JSON report (all devices seen so far) to the configured path; `reason` says what
// triggered it. Safe to call from any thread; calls nothing down the chain.
void write_report(const char *reason);
std::string report_path();

} // namespace novem_qd
