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

void count(DeviceState &dev, std::uint32_t n, const VkSemaphore *sems, std::uint64_t &binary, std::uint64_t &timeline) {
  for (std::uint32_t i = 0; i < n; ++i) (dev.timeline_semaphores.count(sems[i]) ? timeline : binary)++;
}
void count(DeviceState &dev, std::uint32_t n, const VkSemaphoreSubmitInfo *infos, std::uint64_t &binary,
           std::uint64_t &timeline) {
  for (std::uint32_t i = 0; i < n; ++i) (dev.timeline_semaphores.count(infos[i].semaphore) ? timeline : binary)++;
}

void add(Counter &c, std::uint64_t v) { c.fetch_add(v, std::memory_order_relaxed); }

// After a successful submission call: counts, the next sequence number, and the fence's owner.
void record_submit(QueueState &q, bool v2, std::uint64_t batches, std::uint64_t cbs, const SemCounts &s,
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

  std::unique_lock lock(r.mutex);
  dev->id = r.next_device_id++;
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
  SemCounts s;
  std::uint64_t cbs = 0;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo &si = pSubmits[i];
      cbs += si.commandBufferCount;
      count(*dev, si.waitSemaphoreCount, si.pWaitSemaphores, s.wait_binary, s.wait_timeline);
      count(*dev, si.signalSemaphoreCount, si.pSignalSemaphores, s.signal_binary, s.signal_timeline);
    }
  }
  const VkResult result = dev->table.QueueSubmit(queue, submitCount, pSubmits, fence);
  if (result == VK_SUCCESS)
    record_submit(*q, false, submitCount, cbs, s, fence);
  else
    add(q->failed_submits, 1);
  return result;
}

VkResult submit2(PFN_vkQueueSubmit2 next, QueueRef ref, VkQueue queue, uint32_t submitCount,
                 const VkSubmitInfo2 *pSubmits, VkFence fence) {
  auto [q, dev] = ref;
  if (!q) return next(queue, submitCount, pSubmits, fence);
  SemCounts s;
  std::uint64_t cbs = 0;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo2 &si = pSubmits[i];
      cbs += si.commandBufferInfoCount;
      count(*dev, si.waitSemaphoreInfoCount, si.pWaitSemaphoreInfos, s.wait_binary, s.wait_timeline);
      count(*dev, si.signalSemaphoreInfoCount, si.pSignalSemaphoreInfos, s.signal_binary, s.signal_timeline);
    }
  }
  const VkResult result = next(queue, submitCount, pSubmits, fence);
  if (result == VK_SUCCESS)
    record_submit(*q, true, submitCount, cbs, s, fence);
  else
    add(q->failed_submits, 1);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                               VkFence fence) {
  QueueRef ref = lookup(queue);
  return submit2(ref.dev->table.QueueSubmit2, ref, queue, submitCount, pSubmits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueueSubmit2KHR(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                                  VkFence fence) {
  QueueRef ref = lookup(queue);
  return submit2(ref.dev->table.QueueSubmit2KHR, ref, queue, submitCount, pSubmits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL qd_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo) {
  auto [q, dev] = lookup(queue);
  const VkResult result = dev->table.QueuePresentKHR(queue, pPresentInfo);
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
  const std::uint64_t seq = q->submitted_seq.load(std::memory_order_relaxed);
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.QueueWaitIdle(queue);
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
  {
    std::shared_lock lock(g_registry->mutex);
    any = g_registry->instances_created > 0;
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
