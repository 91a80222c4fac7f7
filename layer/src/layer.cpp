// VK_LAYER_NOVEM_queue_diagnostics: the loader-layer interface and the intercepted entry points.
//
// Every call down the chain goes through the per-instance / per-device tables generated from vk.xml
// (novem_qd_dispatch.h). The intercepted entry points are listed once, as data, in kIntercepts at
// the bottom; vkGetInstanceProcAddr / vkGetDeviceProcAddr answer from it and pass anything else
// to the next layer. State is found under a reader lock that is released before any call down.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "state.hpp"

namespace novem_qd {

namespace {
Registry *g_registry = nullptr;
std::once_flag g_registry_once;
} // namespace

// Created on first use and deleted by the library's destructor (on_unload, below) after the last
// report: not a static object, whose destructor could run before that report is written.
Registry &Registry::get() {
  std::call_once(g_registry_once, [] { g_registry = new Registry; });
  return *g_registry;
}

namespace {

// ---- helpers ----

template <class T> const T *find_in_chain(const void *pNext, VkStructureType type) {
  for (auto *s = static_cast<const VkBaseInStructure *>(pNext); s; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<const T *>(s);
  return nullptr;
}

VkLayerInstanceCreateInfo *instance_link(const VkInstanceCreateInfo *ci) {
  auto *s = static_cast<VkLayerInstanceCreateInfo *>(const_cast<void *>(ci->pNext));
  while (s && !(s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && s->function == VK_LAYER_LINK_INFO))
    s = static_cast<VkLayerInstanceCreateInfo *>(const_cast<void *>(s->pNext));
  return s;
}

// The loader's callback that sets the dispatch pointer of a dispatchable object the layer creates.
PFN_vkSetDeviceLoaderData device_loader_data(const VkDeviceCreateInfo *ci) {
  for (auto *s = static_cast<const VkLayerDeviceCreateInfo *>(ci->pNext); s;
       s = static_cast<const VkLayerDeviceCreateInfo *>(s->pNext))
    if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && s->function == VK_LOADER_DATA_CALLBACK)
      return s->u.pfnSetDeviceLoaderData;
  return nullptr;
}

VkLayerDeviceCreateInfo *device_link(const VkDeviceCreateInfo *ci) {
  auto *s = static_cast<VkLayerDeviceCreateInfo *>(const_cast<void *>(ci->pNext));
  while (s && !(s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && s->function == VK_LAYER_LINK_INFO))
    s = static_cast<VkLayerDeviceCreateInfo *>(const_cast<void *>(s->pNext));
  return s;
}

// The queue's state, and its device's (a queue the layer did not see created falls back to the
// device found through the queue's dispatch key, with nothing counted).
struct QueueRef {
  QueueState *q;
  DeviceState *dev;
};
QueueRef lookup(VkQueue queue) {
  Registry &r = Registry::get();
  if (QueueState *q = r.queue(queue)) return {q, q->device};
  return {nullptr, r.device(key(queue))};
}

// Semaphore counts of one submission call, classified before the call down under one short lock.
struct SemCounts {
  std::uint64_t wait_binary = 0, wait_timeline = 0, signal_binary = 0, signal_timeline = 0;
};

// Classifies one semaphore (under dev.sync_mutex) and keeps it for the dumps.
void classify(DeviceState &dev, VkSemaphore sem, std::uint64_t value, std::uint64_t &binary, std::uint64_t &timeline,
              std::vector<SemRef> &out) {
  const bool t = dev.timeline_semaphores.count(sem) != 0;
  (t ? timeline : binary)++;
  out.push_back(SemRef{sem, t ? value : 0, t});
}

void add(Counter &c, std::uint64_t v) { c.fetch_add(v, std::memory_order_relaxed); }

// After a successful submission call: counts, the next sequence number (returned), the fence's owner.
std::uint64_t record_submit(QueueState &q, bool v2, std::uint64_t batches, std::uint64_t cbs, const SemCounts &s,
                            VkFence fence) {
  add(q.submits, 1);
  add(v2 ? q.submit_calls_v2 : q.submit_calls_v1, 1);
  add(q.batches, batches);
  add(q.command_buffers, cbs);
  add(q.wait_binary, s.wait_binary);
  add(q.wait_timeline, s.wait_timeline);
  add(q.signal_binary, s.signal_binary);
  add(q.signal_timeline, s.signal_timeline);
  const std::uint64_t seq = q.submitted_seq.fetch_add(1, std::memory_order_relaxed) + 1;
  if (fence != VK_NULL_HANDLE) {
    add(q.fences, 1);
    std::lock_guard lock(q.device->sync_mutex);
    q.device->fences[fence] = FenceUse{&q, seq};
  }
  // Work in flight right after this submission, and its maximum.
  const std::uint64_t in_flight = seq - std::min(seq, q.known_complete());
  std::uint64_t cur = q.in_flight_max.load(std::memory_order_relaxed);
  while (cur < in_flight && !q.in_flight_max.compare_exchange_weak(cur, in_flight, std::memory_order_relaxed)) {
  }
  return seq;
}

// Queue thread-safety: marks the queue "in use by this thread" for the whole call, the call down
// included (so that an overlap is seen however short the driver's part); a second thread that
// finds the mark taken reports the overlap with both thread ids and goes on (the layer never blocks).
class QueueUse {
public:
  QueueUse(QueueState *q, const char *call) : q_(q) {
    if (!q_) return;
    const std::uint64_t me = thread_id();
    std::uint64_t other = 0;
    if (q_->in_use_thread.compare_exchange_strong(other, me, std::memory_order_acq_rel)) {
      q_->in_use_call.store(call, std::memory_order_release);
      owner_ = true;
    } else if (other != me) {
      const char *other_call = q_->in_use_call.load(std::memory_order_acquire);
      report_overlap(*q_, Overlap{me, other, call, other_call ? other_call : "?"});
    }
  }
  ~QueueUse() {
    if (!owner_) return;
    q_->in_use_call.store(nullptr, std::memory_order_release);
    q_->in_use_thread.store(0, std::memory_order_release);
  }
  QueueUse(const QueueUse &) = delete;
  QueueUse &operator=(const QueueUse &) = delete;

private:
  QueueState *q_;
  bool owner_ = false;
};

void check_lost(DeviceState *dev, VkResult result, const char *call) {
  if (result == VK_ERROR_DEVICE_LOST && dev) on_device_lost(*dev, call);
}

TimestampPool *timestamp_pool(DeviceState &dev, std::uint32_t family) {
  auto it = dev.timestamp_pools.find(family); // fixed after vkCreateDevice: no lock
  return it == dev.timestamp_pools.end() ? nullptr : it->second.get();
}

// The end of every submission call: counts, then the submission handed to the tracker thread
// (or, on failure, the layer's fence and timestamp slots taken back).
void finish_submit(DeviceState &dev, QueueState &q, bool v2, VkResult result, std::uint64_t batches,
                   std::uint64_t cbs, const SemCounts &s, VkFence app_fence, VkFence layer_fence,
                   std::uint64_t unmeasured, std::unique_ptr<Submission> sub) {
  if (result != VK_SUCCESS) {
    add(q.failed_submits, 1);
    if (sub->timestamps) return_slots(*sub->timestamps, sub->slots);
    drop_fence(dev, layer_fence);
    check_lost(&dev, result, sub->call);
    return;
  }
  sub->seq = record_submit(q, v2, batches, cbs, s, app_fence);
  if (unmeasured) {
    std::lock_guard lock(q.stats_mutex);
    q.gpu_unmeasured_batches += unmeasured;
  }
  if (layer_fence == VK_NULL_HANDLE) return; // untracked (no fence could be had); its slots stay taken
  sub->fence = layer_fence;
  track(dev, std::move(sub));
}

// The layer's fence for a submission whose call carried `app_fence`: passed in the call itself
// when the application passed none, else signalled by an empty vkQueueSubmit right after (valid
// under validation on any device: no timeline semaphore feature needed). Returns it, or
// VK_NULL_HANDLE where that second call failed.
VkFence fence_after(DeviceState &dev, VkQueue queue, VkFence app_fence, VkFence layer_fence) {
  if (app_fence == VK_NULL_HANDLE || layer_fence == VK_NULL_HANDLE) return layer_fence;
  const VkResult r = dev.table.QueueSubmit(queue, 0, nullptr, layer_fence);
  if (r == VK_SUCCESS) return layer_fence;
  check_lost(&dev, r, "vkQueueSubmit (layer fence)");
  drop_fence(dev, layer_fence);
  return VK_NULL_HANDLE;
}

// ---- instance ----

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL qd_GetInstanceProcAddr(VkInstance instance, const char *pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL qd_GetDeviceProcAddr(VkDevice device, const char *pName);

VKAPI_ATTR VkResult VKAPI_CALL qd_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator, VkInstance *pInstance) {
  VkLayerInstanceCreateInfo *link = instance_link(pCreateInfo);
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext; // the next layer takes the next link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  VkResult result = create(pCreateInfo, pAllocator, pInstance);
  if (result != VK_SUCCESS) return result;

  auto state = std::make_shared<InstanceState>();
  state->instance = *pInstance;
  state->next_gipa = next_gipa;
  novem_qd_load_instance(&state->table, next_gipa, *pInstance);
  Registry &r = Registry::get();
  std::unique_lock lock(r.mutex);
  r.instances[key(*pInstance)] = std::move(state);
  ++r.instances_created;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL qd_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator) {
  if (instance == VK_NULL_HANDLE) return;
  Registry &r = Registry::get();
  void *k = key(instance);
  std::shared_ptr<InstanceState> state = r.instance(k);
  if (!state) return;
  state->table.DestroyInstance(instance, pAllocator);
  {
    std::unique_lock lock(r.mutex);
    r.instances.erase(k);
  }
  write_report("vkDestroyInstance");
}

// ---- device ----

VKAPI_ATTR VkResult VKAPI_CALL qd_CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
                                               const VkAllocationCallbacks *pAllocator, VkDevice *pDevice) {
  Registry &r = Registry::get();
  std::shared_ptr<InstanceState> inst = r.instance(key(physicalDevice));
  VkLayerDeviceCreateInfo *link = device_link(pCreateInfo);
  if (!inst || !link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(inst->instance, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  VkResult result = create(physicalDevice, pCreateInfo, pAllocator, pDevice);
  if (result != VK_SUCCESS) return result;

  auto dev = std::make_shared<DeviceState>();
  dev->set_loader_data = device_loader_data(pCreateInfo);
  dev->device = *pDevice;
  dev->physical_device = physicalDevice;
  dev->next_gdpa = next_gdpa;
  novem_qd_load_device(&dev->table, next_gdpa, *pDevice);
  VkPhysicalDeviceProperties props{};
  inst->table.GetPhysicalDeviceProperties(physicalDevice, &props);
  dev->name = props.deviceName;
  dev->vendor_id = props.vendorID;
  dev->device_id = props.deviceID;
  dev->api_version = props.apiVersion;
  dev->driver_version = props.driverVersion;
  dev->timestamp_period = props.limits.timestampPeriod;
  std::uint32_t family_count = 0;
  inst->table.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  inst->table.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &family_count, families.data());

  // Every queue the device was created with, fetched now so that the report lists each one.
  for (std::uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo &qci = pCreateInfo->pQueueCreateInfos[i];
    for (std::uint32_t j = 0; j < qci.queueCount; ++j) {
      VkQueue queue = VK_NULL_HANDLE;
      if (qci.flags == 0) {
        dev->table.GetDeviceQueue(*pDevice, qci.queueFamilyIndex, j, &queue);
      } else if (dev->table.GetDeviceQueue2) {
        VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, nullptr, qci.flags, qci.queueFamilyIndex, j};
        dev->table.GetDeviceQueue2(*pDevice, &info, &queue);
      }
      if (queue == VK_NULL_HANDLE) continue;
      auto q = std::make_unique<QueueState>();
      q->device = dev.get();
      q->queue = queue;
      q->family = qci.queueFamilyIndex;
      q->index = j;
      q->create_flags = qci.flags;
      q->family_flags = qci.queueFamilyIndex < families.size() ? families[qci.queueFamilyIndex].queueFlags : 0;
      dev->queues.push_back(std::move(q));
    }
  }

  {
    std::unique_lock lock(r.mutex);
    dev->id = r.next_device_id++;
  }
  VkPhysicalDeviceMemoryProperties memory{};
  inst->table.GetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
  start_tracking(*dev, families, memory); // the timestamp command buffers and the tracker thread

  std::unique_lock lock(r.mutex);
  for (const auto &q : dev->queues) r.queues[q->queue] = q.get();
  r.devices[key(*pDevice)] = dev;
  r.all_devices.push_back(std::move(dev));
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL qd_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator) {
  if (device == VK_NULL_HANDLE) return;
  Registry &r = Registry::get();
  void *k = key(device);
  DeviceState *dev = r.device(k);
  if (!dev) return;
  stop_tracking(*dev); // before the call down: the thread and the layer's objects use the device
  dev->table.DestroyDevice(device, pAllocator);
  {
    std::unique_lock lock(r.mutex);
    for (const auto &q : dev->queues) r.queues.erase(q->queue);
    dev->destroyed = true;
    r.devices.erase(k); // all_devices keeps it for the report
  }
  write_report("vkDestroyDevice");
}

// Queues fetched by the application are normally known already (qd_CreateDevice fetched them).
VKAPI_ATTR void VKAPI_CALL qd_GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                             VkQueue *pQueue) {
  DeviceState *dev = Registry::get().device(key(device));
  dev->table.GetDeviceQueue(device, queueFamilyIndex, queueIndex, pQueue);
}

VKAPI_ATTR void VKAPI_CALL qd_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo, VkQueue *pQueue) {
  DeviceState *dev = Registry::get().device(key(device));
  dev->table.GetDeviceQueue2(device, pQueueInfo, pQueue);
}

// ---- submission ----

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo *pSubmits,
                                              VkFence fence) {
  auto [q, dev] = lookup(queue);
  if (!q) return dev->table.QueueSubmit(queue, submitCount, pSubmits, fence);
  QueueUse use(q, "vkQueueSubmit");
  auto sub = std::make_unique<Submission>();
  sub->queue = q;
  sub->call = "vkQueueSubmit";
  SemCounts s;
  std::uint64_t cbs = 0;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo &si = pSubmits[i];
      cbs += si.commandBufferCount;
      sub->command_buffers.insert(sub->command_buffers.end(), si.pCommandBuffers,
                                  si.pCommandBuffers + si.commandBufferCount);
      const auto *tl =
          find_in_chain<VkTimelineSemaphoreSubmitInfo>(si.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
      for (std::uint32_t j = 0; j < si.waitSemaphoreCount; ++j)
        classify(*dev, si.pWaitSemaphores[j],
                 tl && tl->pWaitSemaphoreValues && j < tl->waitSemaphoreValueCount ? tl->pWaitSemaphoreValues[j] : 0,
                 s.wait_binary, s.wait_timeline, sub->waits);
      for (std::uint32_t j = 0; j < si.signalSemaphoreCount; ++j)
        classify(*dev, si.pSignalSemaphores[j],
                 tl && tl->pSignalSemaphoreValues && j < tl->signalSemaphoreValueCount ? tl->pSignalSemaphoreValues[j]
                                                                                       : 0,
                 s.signal_binary, s.signal_timeline, sub->signals);
    }
  }
  const VkFence layer_fence = take_fence(*dev);

  // Timestamps: each batch with command buffers gets the layer's begin / end pair around them.
  std::vector<VkSubmitInfo> infos;
  std::vector<VkCommandBuffer> wrapped;
  std::uint64_t unmeasured = 0;
  const VkSubmitInfo *submits = pSubmits;
  TimestampPool *tp = layer_fence ? timestamp_pool(*dev, q->family) : nullptr;
  if (tp && cbs) {
    infos.assign(pSubmits, pSubmits + submitCount);
    wrapped.reserve(cbs + 2 * submitCount); // no reallocation: the batches point into it
    for (VkSubmitInfo &si : infos) {
      if (si.commandBufferCount == 0) continue;
      const auto *prot = find_in_chain<VkProtectedSubmitInfo>(si.pNext, VK_STRUCTURE_TYPE_PROTECTED_SUBMIT_INFO);
      const std::uint32_t slot =
          (prot && prot->protectedSubmit) ||
                  find_in_chain<VkDeviceGroupSubmitInfo>(si.pNext, VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO)
              ? UINT32_MAX
              : take_slot(*tp);
      if (slot == UINT32_MAX) {
        ++unmeasured;
        continue;
      }
      const std::size_t first = wrapped.size();
      wrapped.push_back(tp->begin[slot]);
      wrapped.insert(wrapped.end(), si.pCommandBuffers, si.pCommandBuffers + si.commandBufferCount);
      wrapped.push_back(tp->end[slot]);
      si.pCommandBuffers = wrapped.data() + first;
      si.commandBufferCount += 2;
      sub->slots.push_back(slot);
    }
    if (!sub->slots.empty()) {
      submits = infos.data();
      sub->timestamps = tp;
    }
  } else if (cbs) {
    for (std::uint32_t i = 0; i < submitCount; ++i) unmeasured += pSubmits[i].commandBufferCount ? 1 : 0;
  }

  sub->submit_ns = now_ns();
  const VkResult result =
      dev->table.QueueSubmit(queue, submitCount, submits, fence != VK_NULL_HANDLE ? fence : layer_fence);
  const VkFence tracked = result == VK_SUCCESS ? fence_after(*dev, queue, fence, layer_fence) : layer_fence;
  finish_submit(*dev, *q, false, result, submitCount, cbs, s, fence, tracked, unmeasured, std::move(sub));
  return result;
}

VkResult submit2(PFN_vkQueueSubmit2 next, QueueRef ref, VkQueue queue, uint32_t submitCount,
                 const VkSubmitInfo2 *pSubmits, VkFence fence, const char *call) {
  auto [q, dev] = ref;
  if (!q) return next(queue, submitCount, pSubmits, fence);
  QueueUse use(q, call);
  auto sub = std::make_unique<Submission>();
  sub->queue = q;
  sub->call = call;
  SemCounts s;
  std::uint64_t cbs = 0;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo2 &si = pSubmits[i];
      cbs += si.commandBufferInfoCount;
      for (std::uint32_t j = 0; j < si.commandBufferInfoCount; ++j)
        sub->command_buffers.push_back(si.pCommandBufferInfos[j].commandBuffer);
      for (std::uint32_t j = 0; j < si.waitSemaphoreInfoCount; ++j)
        classify(*dev, si.pWaitSemaphoreInfos[j].semaphore, si.pWaitSemaphoreInfos[j].value, s.wait_binary,
                 s.wait_timeline, sub->waits);
      for (std::uint32_t j = 0; j < si.signalSemaphoreInfoCount; ++j)
        classify(*dev, si.pSignalSemaphoreInfos[j].semaphore, si.pSignalSemaphoreInfos[j].value, s.signal_binary,
                 s.signal_timeline, sub->signals);
    }
  }
  const VkFence layer_fence = take_fence(*dev);

  std::vector<VkSubmitInfo2> infos;
  std::vector<VkCommandBufferSubmitInfo> wrapped;
  std::uint64_t unmeasured = 0;
  const VkSubmitInfo2 *submits = pSubmits;
  TimestampPool *tp = layer_fence ? timestamp_pool(*dev, q->family) : nullptr;
  if (tp && cbs) {
    infos.assign(pSubmits, pSubmits + submitCount);
    wrapped.reserve(cbs + 2 * submitCount);
    for (VkSubmitInfo2 &si : infos) {
      if (si.commandBufferInfoCount == 0) continue;
      const std::uint32_t slot = (si.flags & VK_SUBMIT_PROTECTED_BIT) ? UINT32_MAX : take_slot(*tp);
      if (slot == UINT32_MAX) {
        ++unmeasured;
        continue;
      }
      const std::size_t first = wrapped.size();
      wrapped.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, tp->begin[slot], 0});
      wrapped.insert(wrapped.end(), si.pCommandBufferInfos, si.pCommandBufferInfos + si.commandBufferInfoCount);
      wrapped.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, tp->end[slot], 0});
      si.pCommandBufferInfos = wrapped.data() + first;
      si.commandBufferInfoCount += 2;
      sub->slots.push_back(slot);
    }
    if (!sub->slots.empty()) {
      submits = infos.data();
      sub->timestamps = tp;
    }
  } else if (cbs) {
    for (std::uint32_t i = 0; i < submitCount; ++i) unmeasured += pSubmits[i].commandBufferInfoCount ? 1 : 0;
  }

  sub->submit_ns = now_ns();
  const VkResult result = next(queue, submitCount, submits, fence != VK_NULL_HANDLE ? fence : layer_fence);
  const VkFence tracked = result == VK_SUCCESS ? fence_after(*dev, queue, fence, layer_fence) : layer_fence;
  finish_submit(*dev, *q, true, result, submitCount, cbs, s, fence, tracked, unmeasured, std::move(sub));
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                               VkFence fence) {
  QueueRef ref = lookup(queue);
  return submit2(ref.dev->table.QueueSubmit2, ref, queue, submitCount, pSubmits, fence, "vkQueueSubmit2");
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueSubmit2KHR(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                                  VkFence fence) {
  QueueRef ref = lookup(queue);
  return submit2(ref.dev->table.QueueSubmit2KHR, ref, queue, submitCount, pSubmits, fence, "vkQueueSubmit2KHR");
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo) {
  auto [q, dev] = lookup(queue);
  QueueUse use(q, "vkQueuePresentKHR");
  const VkResult result = dev->table.QueuePresentKHR(queue, pPresentInfo);
  check_lost(dev, result, "vkQueuePresentKHR");
  if (q && result >= 0) {
    add(q->presents, 1);
    add(q->present_swapchains, pPresentInfo->swapchainCount);
  }
  return result;
}

// ---- waits ----

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueWaitIdle(VkQueue queue) {
  auto [q, dev] = lookup(queue);
  if (!q) return dev->table.QueueWaitIdle(queue);
  QueueUse use(q, "vkQueueWaitIdle");
  const std::uint64_t seq = q->submitted_seq.load(std::memory_order_relaxed);
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.QueueWaitIdle(queue);
  check_lost(dev, result, "vkQueueWaitIdle");
  q->queue_wait_idle.add(now_ns() - t0);
  if (result == VK_SUCCESS) q->complete_up_to(seq);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL qd_DeviceWaitIdle(VkDevice device) {
  Registry &r = Registry::get();
  DeviceState *dev = r.device(key(device));
  std::vector<std::pair<QueueState *, std::uint64_t>> busy; // queues with work in flight, and up to where
  {
    std::shared_lock lock(r.mutex);
    for (const auto &q : dev->queues)
      if (q->in_flight()) busy.emplace_back(q.get(), q->submitted_seq.load(std::memory_order_relaxed));
  }
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.DeviceWaitIdle(device);
  check_lost(dev, result, "vkDeviceWaitIdle");
  const std::uint64_t dt = now_ns() - t0;
  dev->device_wait_idle.add(dt);
  for (auto &[q, seq] : busy) {
    q->device_wait_idle.add(dt);
    if (result == VK_SUCCESS) q->complete_up_to(seq);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL qd_WaitForFences(VkDevice device, uint32_t fenceCount, const VkFence *pFences,
                                                VkBool32 waitAll, uint64_t timeout) {
  DeviceState *dev = Registry::get().device(key(device));
  std::vector<FenceUse> uses;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < fenceCount; ++i) {
      auto it = dev->fences.find(pFences[i]);
      if (it != dev->fences.end()) uses.push_back(it->second);
    }
  }
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.WaitForFences(device, fenceCount, pFences, waitAll, timeout);
  check_lost(dev, result, "vkWaitForFences");
  const std::uint64_t dt = now_ns() - t0;
  // The blocked time goes to each distinct queue whose submission carried one of the fences.
  std::vector<QueueState *> queues;
  for (const FenceUse &u : uses)
    if (std::find(queues.begin(), queues.end(), u.queue) == queues.end()) queues.push_back(u.queue);
  if (queues.empty()) dev->wait_for_fences_unattributed.add(dt);
  for (QueueState *q : queues) q->wait_for_fences.add(dt);
  // A signalled fence proves its submission, and everything before it on its queue, complete.
  if (result == VK_SUCCESS && (waitAll || fenceCount == 1))
    for (const FenceUse &u : uses) u.queue->complete_up_to(u.seq);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL qd_GetFenceStatus(VkDevice device, VkFence fence) {
  DeviceState *dev = Registry::get().device(key(device));
  const VkResult result = dev->table.GetFenceStatus(device, fence);
  check_lost(dev, result, "vkGetFenceStatus");
  if (result == VK_SUCCESS) {
    FenceUse use;
    {
      std::lock_guard lock(dev->sync_mutex);
      auto it = dev->fences.find(fence);
      if (it != dev->fences.end()) use = it->second;
    }
    if (use.queue) use.queue->complete_up_to(use.seq);
  }
  return result;
}

// ---- semaphore types, fence lifetimes ----

VKAPI_ATTR VkResult VKAPI_CALL qd_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator, VkSemaphore *pSemaphore) {
  DeviceState *dev = Registry::get().device(key(device));
  const VkResult result = dev->table.CreateSemaphore(device, pCreateInfo, pAllocator, pSemaphore);
  const auto *type =
      find_in_chain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  if (result == VK_SUCCESS && type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE) {
    std::lock_guard lock(dev->sync_mutex);
    dev->timeline_semaphores.insert(*pSemaphore);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL qd_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                               const VkAllocationCallbacks *pAllocator) {
  DeviceState *dev = Registry::get().device(key(device));
  {
    std::lock_guard lock(dev->sync_mutex); // forget it first: the handle may be reused at once
    dev->timeline_semaphores.erase(semaphore);
  }
  dev->table.DestroySemaphore(device, semaphore, pAllocator);
}

VKAPI_ATTR void VKAPI_CALL qd_DestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks *pAllocator) {
  DeviceState *dev = Registry::get().device(key(device));
  {
    std::lock_guard lock(dev->sync_mutex);
    dev->fences.erase(fence);
  }
  dev->table.DestroyFence(device, fence, pAllocator);
}

// ---- the intercepted entry points, as data ----

enum class Level { Instance, Device };
struct Intercept {
  const char *name;
  Level level;
  PFN_vkVoidFunction function;
};

// The static_cast checks each function against the registry's prototype (PFN_vkName).
#define NOVEM_QD_INTERCEPT(level, Name)                                                                          \
  Intercept {                                                                                                    \
    "vk" #Name, Level::level, reinterpret_cast<PFN_vkVoidFunction>(static_cast<PFN_vk##Name>(&qd_##Name))       \
  }

const Intercept kIntercepts[] = {
    NOVEM_QD_INTERCEPT(Instance, GetInstanceProcAddr),
    NOVEM_QD_INTERCEPT(Instance, CreateInstance),
    NOVEM_QD_INTERCEPT(Instance, DestroyInstance),
    NOVEM_QD_INTERCEPT(Instance, CreateDevice),
    NOVEM_QD_INTERCEPT(Device, GetDeviceProcAddr),
    NOVEM_QD_INTERCEPT(Device, DestroyDevice),
    NOVEM_QD_INTERCEPT(Device, GetDeviceQueue),
    NOVEM_QD_INTERCEPT(Device, GetDeviceQueue2),
    NOVEM_QD_INTERCEPT(Device, QueueSubmit),
    NOVEM_QD_INTERCEPT(Device, QueueSubmit2),
    NOVEM_QD_INTERCEPT(Device, QueueSubmit2KHR),
    NOVEM_QD_INTERCEPT(Device, QueuePresentKHR),
    NOVEM_QD_INTERCEPT(Device, QueueWaitIdle),
    NOVEM_QD_INTERCEPT(Device, DeviceWaitIdle),
    NOVEM_QD_INTERCEPT(Device, WaitForFences),
    NOVEM_QD_INTERCEPT(Device, GetFenceStatus),
    NOVEM_QD_INTERCEPT(Device, CreateSemaphore),
    NOVEM_QD_INTERCEPT(Device, DestroySemaphore),
    NOVEM_QD_INTERCEPT(Device, DestroyFence),
};
#undef NOVEM_QD_INTERCEPT

const Intercept *find_intercept(const char *name) {
  for (const Intercept &i : kIntercepts)
    if (std::strcmp(i.name, name) == 0) return &i;
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL qd_GetInstanceProcAddr(VkInstance instance, const char *pName) {
  if (!pName) return nullptr;
  if (const Intercept *i = find_intercept(pName)) return i->function;
  if (instance == VK_NULL_HANDLE) return nullptr;
  std::shared_ptr<InstanceState> inst = Registry::get().instance(key(instance));
  return inst ? inst->next_gipa(instance, pName) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL qd_GetDeviceProcAddr(VkDevice device, const char *pName) {
  if (!pName || device == VK_NULL_HANDLE) return nullptr;
  DeviceState *dev = Registry::get().device(key(device));
  if (!dev) return nullptr;
  const Intercept *i = find_intercept(pName);
  if (i && i->level == Level::Device) {
    // Ours only where the chain below has it too (an extension command of an extension the
    // device was not created with stays NULL); these two always.
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0 || std::strcmp(pName, "vkDestroyDevice") == 0)
      return i->function;
    return dev->next_gdpa(device, pName) ? i->function : nullptr;
  }
  return dev->next_gdpa(device, pName);
}

// When the loader unloads the layer (after the last vkDestroyInstance) or at process exit.
__attribute__((destructor)) void on_unload() {
  if (!g_registry) return;
  bool any;
  std::vector<DeviceState *> live; // never destroyed: their threads must end before the registry does
  {
    std::shared_lock lock(g_registry->mutex);
    any = g_registry->instances_created > 0;
    for (const auto &d : g_registry->all_devices)
      if (!d->destroyed.load()) live.push_back(d.get());
  }
  for (DeviceState *d : live)
    if (d->tracker.joinable()) {
      {
        std::lock_guard lock(d->track_mutex);
        d->stop = true;
      }
      d->track_cv.notify_all();
      d->tracker.join();
    }
  if (any) write_report("unload");
  delete g_registry; // nothing can call into the layer any more
  g_registry = nullptr;
}

} // namespace
} // namespace novem_qd

// ---- exported: the loader-layer interface (version 2) ----

extern "C" {

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct) {
  if (!pVersionStruct || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (pVersionStruct->loaderLayerInterfaceVersion >= 2) {
    pVersionStruct->pfnGetInstanceProcAddr = novem_qd::qd_GetInstanceProcAddr;
    pVersionStruct->pfnGetDeviceProcAddr = novem_qd::qd_GetDeviceProcAddr;
    pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
  }
  if (pVersionStruct->loaderLayerInterfaceVersion > 2) pVersionStruct->loaderLayerInterfaceVersion = 2;
  return VK_SUCCESS;
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                              const char *pName) {
  return novem_qd::qd_GetInstanceProcAddr(instance, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *pName) {
  return novem_qd::qd_GetDeviceProcAddr(device, pName);
}

} // extern "C"
