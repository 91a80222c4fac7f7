// libnovem_test_icd.so: a small Vulkan driver (ICD) of Novem's own, for tests that need what lavapipe
// cannot give: several queues, a GPU that hangs, a device that is lost. See README.md.
//
// One physical device, "Novem test ICD", two queue families:
//   0: graphics | compute | transfer, 2 queues;  1: transfer, 1 queue;  both timestampValidBits 64.
// Work "executes" inside the submit call: timestamps are written (CLOCK_MONOTONIC ns, period 1),
// semaphores and the fence are signalled. Environment (read at vkCreateDevice):
//   NOVEM_TEST_ICD_HANG=1            submissions never complete
//   NOVEM_TEST_ICD_LOSE_DEVICE=N     the device's Nth submit (vkQueueSubmit + vkQueueSubmit2, from 1)
//                                    returns VK_ERROR_DEVICE_LOST, and so does every later wait
//   NOVEM_TEST_ICD_HANGCHECK_MS=T    an unbounded wait (UINT64_MAX timeout, vkQueueWaitIdle,
//                                    vkDeviceWaitIdle) that is not satisfied within T ms (default
//                                    2000) loses the device, as a real driver's hang check does
// Anything not implemented is NULL from the proc-address functions; nothing here aborts.
#include <vulkan/vulkan.h>
#include <vulkan/vk_icd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <time.h>

#define NOVEM_ICD_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr std::uint32_t kApiVersion = VK_MAKE_API_VERSION(0, 1, 3, 0);
constexpr std::uint32_t kFamilyCount = 2;
constexpr std::uint32_t kQueueCounts[kFamilyCount] = {2, 1};
constexpr VkQueueFlags kFamilyFlags[kFamilyCount] = {VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT |
                                                         VK_QUEUE_SPARSE_BINDING_BIT,
                                                     VK_QUEUE_TRANSFER_BIT};

std::uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

template <class T, class H> T *get(H handle) { return reinterpret_cast<T *>(handle); }
template <class H, class T> H handle_of(T *object) { return reinterpret_cast<H>(object); }

// A Vulkan "count, then fill" query.
template <class T> VkResult fill(std::uint32_t *count, T *out, const T *items, std::uint32_t n) {
  if (!out) {
    *count = n;
    return VK_SUCCESS;
  }
  const std::uint32_t copied = std::min(*count, n);
  std::copy(items, items + copied, out);
  *count = copied;
  return copied < n ? VK_INCOMPLETE : VK_SUCCESS;
}

template <class T> T *find_in_chain(const void *next, VkStructureType type) {
  for (auto *s = static_cast<const VkBaseInStructure *>(next); s; s = s->pNext)
    if (s->sType == type)
      return const_cast<T *>(reinterpret_cast<const T *>(s));
  return nullptr;
}

// ---- objects ----
struct Instance;
struct PhysicalDevice {
  VK_LOADER_DATA loader; // dispatchable: the loader's slot comes first
  Instance *instance;
};
struct Instance {
  VK_LOADER_DATA loader;
  PhysicalDevice gpu;
};
struct Device;
struct Queue {
  VK_LOADER_DATA loader;
  Device *device;
  std::uint32_t family, index;
  VkDeviceQueueCreateFlags flags;
  std::uint64_t pending = 0; // submissions not complete (only ever non-zero in hang mode)
};
struct Device {
  VK_LOADER_DATA loader;
  std::vector<std::unique_ptr<Queue>> queues;
  std::mutex mutex; // guards every object of the device's below, and the fields here
  std::condition_variable changed;
  bool lost = false;
  std::uint64_t submits = 0;
  bool hang = false;
  std::uint64_t lose_at = 0;
  std::chrono::milliseconds hangcheck{2000};
};
struct Fence {
  bool signalled;
};
struct Semaphore {
  bool timeline;
  std::uint64_t value;
};
struct DeviceMemory {
  std::unique_ptr<unsigned char[]> bytes;
  VkDeviceSize size;
};
struct Buffer {
  VkDeviceSize size;
  DeviceMemory *memory = nullptr; // bound memory, for vkCmdCopyQueryPoolResults
  VkDeviceSize offset = 0;
};
struct QueryPool {
  VkQueryType type;
  std::vector<std::uint64_t> values;
  std::vector<bool> available;
};
struct CommandPool;
struct CommandBuffer {
  VK_LOADER_DATA loader;
  CommandPool *pool;
  struct Op {
    enum Kind { Timestamp, Reset, Copy } kind;
    QueryPool *pool;
    std::uint32_t first, count;
    Buffer *dst = nullptr; // Copy
    VkDeviceSize offset = 0, stride = 0;
    VkQueryResultFlags flags = 0;
  };
  std::vector<Op> ops;
};
struct CommandPool {
  std::vector<CommandBuffer *> buffers;
  ~CommandPool() {
    for (auto *b : buffers)
      delete b;
  }
};

Device *device_of(VkDevice d) { return get<Device>(d); }

// ---- global, instance and physical-device commands ----
VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(std::uint32_t *version) {
  *version = kApiVersion;
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char *layer, std::uint32_t *count,
                                                                    VkExtensionProperties *) {
  if (layer)
    return VK_ERROR_LAYER_NOT_PRESENT;
  *count = 0;
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *, const VkAllocationCallbacks *,
                                              VkInstance *out) {
  auto *instance = new Instance{};
  set_loader_magic_value(instance);
  set_loader_magic_value(&instance->gpu);
  instance->gpu.instance = instance;
  *out = handle_of<VkInstance>(instance);
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks *) {
  delete get<Instance>(instance);
}
VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, std::uint32_t *count,
                                                        VkPhysicalDevice *out) {
  const VkPhysicalDevice gpu = handle_of<VkPhysicalDevice>(&get<Instance>(instance)->gpu);
  return fill(count, out, &gpu, 1);
}

void properties(VkPhysicalDeviceProperties *p) {
  *p = {};
  p->apiVersion = kApiVersion;
  p->driverVersion = 1;
  p->vendorID = 0x10000 + 0x4e56; // not a PCI vendor
  p->deviceID = 1;
  p->deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::strncpy(p->deviceName, "Novem test ICD", sizeof p->deviceName - 1);
  VkPhysicalDeviceLimits &l = p->limits;
  l.maxImageDimension1D = l.maxImageDimension2D = 4096;
  l.maxImageDimension3D = 256;
  l.maxImageDimensionCube = 4096;
  l.maxImageArrayLayers = 256;
  l.maxMemoryAllocationCount = 4096;
  l.maxSamplerAllocationCount = 4000;
  l.bufferImageGranularity = 1;
  l.maxBoundDescriptorSets = 4;
  l.maxPushConstantsSize = 128;
  l.maxComputeWorkGroupCount[0] = l.maxComputeWorkGroupCount[1] = l.maxComputeWorkGroupCount[2] = 65535;
  l.maxComputeWorkGroupSize[0] = l.maxComputeWorkGroupSize[1] = l.maxComputeWorkGroupSize[2] = 128;
  l.maxComputeWorkGroupInvocations = 128;
  l.minMemoryMapAlignment = 64;
  l.minTexelBufferOffsetAlignment = l.minUniformBufferOffsetAlignment = l.minStorageBufferOffsetAlignment = 256;
  l.timestampComputeAndGraphics = VK_TRUE;
  l.timestampPeriod = 1.0f;
  l.optimalBufferCopyOffsetAlignment = l.optimalBufferCopyRowPitchAlignment = 1;
  l.nonCoherentAtomSize = 64;
  l.maxColorAttachments = 4;
  l.maxViewports = 1;
  l.maxFramebufferWidth = l.maxFramebufferHeight = 4096;
  l.maxFramebufferLayers = 1;
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice, VkPhysicalDeviceProperties *p) {
  properties(p);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice, VkPhysicalDeviceProperties2 *p) {
  properties(&p->properties);
  if (auto *d = find_in_chain<VkPhysicalDeviceDriverProperties>(p->pNext,
                                                                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES)) {
    d->driverID = static_cast<VkDriverId>(0x7fff0000); // none of the registered ids
    std::strncpy(d->driverName, "novem-test-icd", sizeof d->driverName - 1);
    std::strncpy(d->driverInfo, "Novem test ICD (not conformant)", sizeof d->driverInfo - 1);
    d->conformanceVersion = {};
  }
  if (auto *t = find_in_chain<VkPhysicalDeviceTimelineSemaphoreProperties>(
          p->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES))
    t->maxTimelineSemaphoreValueDifference = UINT64_MAX;
  if (auto *v = find_in_chain<VkPhysicalDeviceVulkan12Properties>(
          p->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES)) {
    std::strncpy(v->driverName, "novem-test-icd", sizeof v->driverName - 1);
    v->maxTimelineSemaphoreValueDifference = UINT64_MAX;
  }
}
void features(VkPhysicalDeviceFeatures *f) { *f = {}; }
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice, VkPhysicalDeviceFeatures *f) { features(f); }
// VK_EXT_device_fault is offered unless NOVEM_TEST_ICD_NO_DEVICE_FAULT=1.
bool device_fault_offered() {
  const char *v = std::getenv("NOVEM_TEST_ICD_NO_DEVICE_FAULT");
  return !(v && std::string_view(v) == "1");
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice, VkPhysicalDeviceFeatures2 *f) {
  features(&f->features);
  if (auto *v = find_in_chain<VkPhysicalDeviceVulkan12Features>(f->pNext,
                                                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
    v->timelineSemaphore = VK_TRUE;
    v->hostQueryReset = VK_TRUE;
  }
  if (auto *v = find_in_chain<VkPhysicalDeviceVulkan13Features>(f->pNext,
                                                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
    v->synchronization2 = VK_TRUE;
  if (auto *v = find_in_chain<VkPhysicalDeviceTimelineSemaphoreFeatures>(
          f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES))
    v->timelineSemaphore = VK_TRUE;
  if (auto *v = find_in_chain<VkPhysicalDeviceSynchronization2Features>(
          f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES))
    v->synchronization2 = VK_TRUE;
  if (auto *v = find_in_chain<VkPhysicalDeviceHostQueryResetFeatures>(
          f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES))
    v->hostQueryReset = VK_TRUE;
  if (auto *v = find_in_chain<VkPhysicalDeviceFaultFeaturesEXT>(f->pNext,
                                                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT))
    v->deviceFault = device_fault_offered() ? VK_TRUE : VK_FALSE;
}
void queue_families(std::uint32_t *count, VkQueueFamilyProperties *out) {
  VkQueueFamilyProperties families[kFamilyCount]{};
  for (std::uint32_t i = 0; i < kFamilyCount; ++i) {
    families[i].queueFlags = kFamilyFlags[i];
    families[i].queueCount = kQueueCounts[i];
    families[i].timestampValidBits = 64;
    families[i].minImageTransferGranularity = {1, 1, 1};
  }
  fill(count, out, families, kFamilyCount);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice, std::uint32_t *count,
                                                                  VkQueueFamilyProperties *out) {
  queue_families(count, out);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice, std::uint32_t *count,
                                                                   VkQueueFamilyProperties2 *out) {
  if (!out)
    return queue_families(count, nullptr);
  VkQueueFamilyProperties families[kFamilyCount];
  std::uint32_t n = std::min(*count, kFamilyCount);
  queue_families(&n, families);
  for (std::uint32_t i = 0; i < n; ++i)
    out[i].queueFamilyProperties = families[i];
  *count = n;
}
void memory_properties(VkPhysicalDeviceMemoryProperties *m) {
  *m = {};
  m->memoryTypeCount = 1;
  m->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  m->memoryTypes[0].heapIndex = 0;
  m->memoryHeapCount = 1;
  m->memoryHeaps[0].size = 1ull << 30;
  m->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *m) {
  memory_properties(m);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice,
                                                              VkPhysicalDeviceMemoryProperties2 *m) {
  memory_properties(&m->memoryProperties);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat, VkFormatProperties *p) {
  *p = {};
}
VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType,
                                                                      VkImageTiling, VkImageUsageFlags,
                                                                      VkImageCreateFlags,
                                                                      VkImageFormatProperties *p) {
  *p = {};
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType,
                                                                        VkSampleCountFlagBits, VkImageUsageFlags,
                                                                        VkImageTiling, std::uint32_t *count,
                                                                        VkSparseImageFormatProperties *) {
  *count = 0;
}
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char *layer,
                                                                  std::uint32_t *count, VkExtensionProperties *out) {
  if (layer)
    return VK_ERROR_LAYER_NOT_PRESENT;
  const std::uint32_t n = device_fault_offered() ? 1 : 0;
  if (!out) {
    *count = n;
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min(*count, n);
  if (written)
    out[0] = VkExtensionProperties{VK_EXT_DEVICE_FAULT_EXTENSION_NAME, VK_EXT_DEVICE_FAULT_SPEC_VERSION};
  *count = written;
  return written < n ? VK_INCOMPLETE : VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceLayerProperties(VkPhysicalDevice, std::uint32_t *count,
                                                              VkLayerProperties *) {
  *count = 0;
  return VK_SUCCESS;
}

std::uint64_t env_number(const char *name, std::uint64_t fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  char *end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return *end ? fallback : n;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice, const VkDeviceCreateInfo *info,
                                            const VkAllocationCallbacks *, VkDevice *out) {
  for (std::uint32_t i = 0; i < info->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo &q = info->pQueueCreateInfos[i];
    if (q.queueFamilyIndex >= kFamilyCount || q.queueCount == 0 || q.queueCount > kQueueCounts[q.queueFamilyIndex])
      return VK_ERROR_INITIALIZATION_FAILED;
  }
  for (std::uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    if (!device_fault_offered() || std::strcmp(info->ppEnabledExtensionNames[i], VK_EXT_DEVICE_FAULT_EXTENSION_NAME) != 0)
      return VK_ERROR_EXTENSION_NOT_PRESENT;
  auto device = std::make_unique<Device>();
  set_loader_magic_value(device.get());
  const char *hang = std::getenv("NOVEM_TEST_ICD_HANG");
  device->hang = hang && std::string_view(hang) == "1";
  device->lose_at = env_number("NOVEM_TEST_ICD_LOSE_DEVICE", 0);
  device->hangcheck = std::chrono::milliseconds(env_number("NOVEM_TEST_ICD_HANGCHECK_MS", 2000));
  for (std::uint32_t i = 0; i < info->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo &q = info->pQueueCreateInfos[i];
    for (std::uint32_t j = 0; j < q.queueCount; ++j) {
      auto queue = std::make_unique<Queue>();
      set_loader_magic_value(queue.get());
      queue->device = device.get();
      queue->family = q.queueFamilyIndex;
      queue->index = j;
      queue->flags = q.flags;
      device->queues.push_back(std::move(queue));
    }
  }
  *out = handle_of<VkDevice>(device.release());
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks *) { delete device_of(device); }

// ---- device commands ----
Queue *find_queue(Device *d, std::uint32_t family, std::uint32_t index, VkDeviceQueueCreateFlags flags) {
  for (auto &q : d->queues)
    if (q->family == family && q->index == index && q->flags == flags)
      return q.get();
  return nullptr;
}
VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, std::uint32_t family, std::uint32_t index, VkQueue *out) {
  *out = handle_of<VkQueue>(find_queue(device_of(device), family, index, 0));
}
VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *info, VkQueue *out) {
  *out = handle_of<VkQueue>(find_queue(device_of(device), info->queueFamilyIndex, info->queueIndex, info->flags));
}

// Waits on d->changed (lock held) until done() or the timeout; an unbounded wait that the hang
// check ends loses the device. Returns VK_SUCCESS, VK_TIMEOUT or VK_ERROR_DEVICE_LOST.
template <class Done>
VkResult wait(Device *d, std::unique_lock<std::mutex> &lock, std::uint64_t timeout_ns, Done done) {
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  if (done())
    return VK_SUCCESS;
  if (timeout_ns == 0)
    return VK_TIMEOUT;
  const bool unbounded = timeout_ns >= (1ull << 50); // ~13 days: as good as UINT64_MAX
  const auto deadline = std::chrono::steady_clock::now() +
                        (unbounded ? std::chrono::duration_cast<std::chrono::nanoseconds>(d->hangcheck)
                                   : std::chrono::nanoseconds(timeout_ns));
  d->changed.wait_until(lock, deadline, [&] { return d->lost || done(); });
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  if (done())
    return VK_SUCCESS;
  if (unbounded) { // the hang check: the GPU is declared hung
    d->lost = true;
    d->changed.notify_all();
    return VK_ERROR_DEVICE_LOST;
  }
  return VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice device) {
  Device *d = device_of(device);
  std::unique_lock lock(d->mutex);
  return wait(d, lock, UINT64_MAX, [&] {
    return std::all_of(d->queues.begin(), d->queues.end(), [](const auto &q) { return q->pending == 0; });
  });
}
VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
  Queue *q = get<Queue>(queue);
  std::unique_lock lock(q->device->mutex);
  return wait(q->device, lock, UINT64_MAX, [&] { return q->pending == 0; });
}

// Fences.
VKAPI_ATTR VkResult VKAPI_CALL CreateFence(VkDevice, const VkFenceCreateInfo *info, const VkAllocationCallbacks *,
                                           VkFence *out) {
  *out = handle_of<VkFence>(new Fence{(info->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0});
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyFence(VkDevice, VkFence fence, const VkAllocationCallbacks *) {
  delete get<Fence>(fence);
}
VKAPI_ATTR VkResult VKAPI_CALL ResetFences(VkDevice device, std::uint32_t count, const VkFence *fences) {
  std::lock_guard lock(device_of(device)->mutex);
  for (std::uint32_t i = 0; i < count; ++i)
    get<Fence>(fences[i])->signalled = false;
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice device, VkFence fence) {
  Device *d = device_of(device);
  std::lock_guard lock(d->mutex);
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  return get<Fence>(fence)->signalled ? VK_SUCCESS : VK_NOT_READY;
}
VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice device, std::uint32_t count, const VkFence *fences,
                                             VkBool32 all, std::uint64_t timeout) {
  Device *d = device_of(device);
  std::unique_lock lock(d->mutex);
  return wait(d, lock, timeout, [&] {
    std::uint32_t signalled = 0;
    for (std::uint32_t i = 0; i < count; ++i)
      signalled += get<Fence>(fences[i])->signalled ? 1 : 0;
    return all ? signalled == count : signalled > 0;
  });
}

// Semaphores.
VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice, const VkSemaphoreCreateInfo *info,
                                               const VkAllocationCallbacks *, VkSemaphore *out) {
  auto *type = find_in_chain<VkSemaphoreTypeCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  const bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
  *out = handle_of<VkSemaphore>(new Semaphore{timeline, timeline ? type->initialValue : 0});
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice, VkSemaphore semaphore, const VkAllocationCallbacks *) {
  delete get<Semaphore>(semaphore);
}
VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, std::uint64_t *value) {
  Device *d = device_of(device);
  std::lock_guard lock(d->mutex);
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  *value = get<Semaphore>(semaphore)->value;
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info) {
  Device *d = device_of(device);
  std::lock_guard lock(d->mutex);
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  Semaphore *s = get<Semaphore>(info->semaphore);
  s->value = std::max(s->value, info->value);
  d->changed.notify_all();
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
                                              std::uint64_t timeout) {
  Device *d = device_of(device);
  std::unique_lock lock(d->mutex);
  const bool any = (info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0;
  return wait(d, lock, timeout, [&] {
    std::uint32_t reached = 0;
    for (std::uint32_t i = 0; i < info->semaphoreCount; ++i)
      reached += get<Semaphore>(info->pSemaphores[i])->value >= info->pValues[i] ? 1 : 0;
    return any ? reached > 0 : reached == info->semaphoreCount;
  });
}

// Memory and buffers (host memory).
VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice, const VkMemoryAllocateInfo *info,
                                              const VkAllocationCallbacks *, VkDeviceMemory *out) {
  if (info->memoryTypeIndex != 0 || info->allocationSize > (1ull << 30))
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  auto *m = new DeviceMemory{std::make_unique<unsigned char[]>(std::max<VkDeviceSize>(info->allocationSize, 1)),
                             info->allocationSize};
  *out = handle_of<VkDeviceMemory>(m);
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice, VkDeviceMemory memory, const VkAllocationCallbacks *) {
  delete get<DeviceMemory>(memory);
}
VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize,
                                         VkMemoryMapFlags, void **data) {
  *data = get<DeviceMemory>(memory)->bytes.get() + offset;
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice, VkDeviceMemory) {}
VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice, std::uint32_t, const VkMappedMemoryRange *) {
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice, const VkBufferCreateInfo *info, const VkAllocationCallbacks *,
                                            VkBuffer *out) {
  *out = handle_of<VkBuffer>(new Buffer{info->size});
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice, VkBuffer buffer, const VkAllocationCallbacks *) {
  delete get<Buffer>(buffer);
}
VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer buffer, VkMemoryRequirements *r) {
  r->alignment = 256;
  r->size = (get<Buffer>(buffer)->size + 255) / 256 * 256;
  r->memoryTypeBits = 1;
}
VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize offset) {
  get<Buffer>(buffer)->memory = get<DeviceMemory>(memory);
  get<Buffer>(buffer)->offset = offset;
  return VK_SUCCESS;
}

// Query pools: timestamps are CLOCK_MONOTONIC nanoseconds, written when the command buffer executes.
VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice, const VkQueryPoolCreateInfo *info,
                                               const VkAllocationCallbacks *, VkQueryPool *out) {
  *out = handle_of<VkQueryPool>(new QueryPool{info->queryType, std::vector<std::uint64_t>(info->queryCount),
                                              std::vector<bool>(info->queryCount)});
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice, VkQueryPool pool, const VkAllocationCallbacks *) {
  delete get<QueryPool>(pool);
}
void reset_queries(QueryPool *p, std::uint32_t first, std::uint32_t count) {
  for (std::uint32_t i = first; i < first + count && i < p->values.size(); ++i) {
    p->values[i] = 0;
    p->available[i] = false;
  }
}
VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice device, VkQueryPool pool, std::uint32_t first, std::uint32_t count) {
  std::lock_guard lock(device_of(device)->mutex);
  reset_queries(get<QueryPool>(pool), first, count);
}
// Writes queries [first, first + count) as vkGetQueryPoolResults / vkCmdCopyQueryPoolResults do.
VkResult write_results(QueryPool *p, std::uint32_t first, std::uint32_t count, unsigned char *data, std::size_t size,
                       VkDeviceSize stride, VkQueryResultFlags flags) {
  const bool wide = flags & VK_QUERY_RESULT_64_BIT, availability = flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
  const std::size_t word = wide ? 8 : 4;
  VkResult result = VK_SUCCESS;
  for (std::uint32_t i = 0; i < count && first + i < p->values.size(); ++i) {
    unsigned char *at = data + i * stride;
    if (i * stride + word * (availability ? 2 : 1) > size)
      break;
    const bool ready = p->available[first + i];
    if (!ready)
      result = VK_NOT_READY;
    auto put = [&](unsigned char *where, std::uint64_t v) {
      if (wide) {
        std::memcpy(where, &v, 8);
      } else {
        const auto v32 = static_cast<std::uint32_t>(v);
        std::memcpy(where, &v32, 4);
      }
    };
    if (ready || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
      put(at, p->values[first + i]);
    if (availability)
      put(at + word, ready ? 1 : 0);
  }
  return result;
}
VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool pool, std::uint32_t first,
                                                   std::uint32_t count, std::size_t size, void *data,
                                                   VkDeviceSize stride, VkQueryResultFlags flags) {
  Device *d = device_of(device);
  QueryPool *p = get<QueryPool>(pool);
  std::unique_lock lock(d->mutex);
  if (first + count > p->values.size())
    return VK_ERROR_UNKNOWN;
  if (flags & VK_QUERY_RESULT_WAIT_BIT) {
    const VkResult r = wait(d, lock, UINT64_MAX, [&] {
      return std::all_of(p->available.begin() + first, p->available.begin() + first + count, [](bool a) { return a; });
    });
    if (r != VK_SUCCESS)
      return r;
  }
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  return write_results(p, first, count, static_cast<unsigned char *>(data), size, stride, flags);
}

// Command pools and buffers: only timestamp writes and query resets are recorded.
VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice, const VkCommandPoolCreateInfo *info,
                                                 const VkAllocationCallbacks *, VkCommandPool *out) {
  if (info->queueFamilyIndex >= kFamilyCount)
    return VK_ERROR_INITIALIZATION_FAILED;
  *out = handle_of<VkCommandPool>(new CommandPool{});
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice, VkCommandPool pool, const VkAllocationCallbacks *) {
  delete get<CommandPool>(pool);
}
VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool pool, VkCommandPoolResetFlags) {
  for (auto *b : get<CommandPool>(pool)->buffers)
    b->ops.clear();
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo *info,
                                                      VkCommandBuffer *out) {
  CommandPool *pool = get<CommandPool>(info->commandPool);
  for (std::uint32_t i = 0; i < info->commandBufferCount; ++i) {
    auto *b = new CommandBuffer{};
    set_loader_magic_value(b);
    b->pool = pool;
    pool->buffers.push_back(b);
    out[i] = handle_of<VkCommandBuffer>(b);
  }
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool pool, std::uint32_t count,
                                              const VkCommandBuffer *buffers) {
  auto &list = get<CommandPool>(pool)->buffers;
  for (std::uint32_t i = 0; i < count; ++i) {
    CommandBuffer *b = get<CommandBuffer>(buffers[i]);
    if (!b)
      continue;
    list.erase(std::remove(list.begin(), list.end(), b), list.end());
    delete b;
  }
}
VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo *) {
  get<CommandBuffer>(cb)->ops.clear();
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer) { return VK_SUCCESS; }
VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer cb, VkCommandBufferResetFlags) {
  get<CommandBuffer>(cb)->ops.clear();
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, std::uint32_t) {}
VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags,
                                              VkDependencyFlags, std::uint32_t, const VkMemoryBarrier *,
                                              std::uint32_t, const VkBufferMemoryBarrier *, std::uint32_t,
                                              const VkImageMemoryBarrier *) {}
VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer, const VkDependencyInfo *) {}
VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp(VkCommandBuffer cb, VkPipelineStageFlagBits, VkQueryPool pool,
                                             std::uint32_t query) {
  get<CommandBuffer>(cb)->ops.push_back({CommandBuffer::Op::Timestamp, get<QueryPool>(pool), query, 1});
}
VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp2(VkCommandBuffer cb, VkPipelineStageFlags2, VkQueryPool pool,
                                              std::uint32_t query) {
  get<CommandBuffer>(cb)->ops.push_back({CommandBuffer::Op::Timestamp, get<QueryPool>(pool), query, 1});
}
VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer cb, VkQueryPool pool, std::uint32_t first,
                                             std::uint32_t count) {
  get<CommandBuffer>(cb)->ops.push_back({CommandBuffer::Op::Reset, get<QueryPool>(pool), first, count});
}
// Copies at execution, with the flags' layout; WAIT is moot (earlier commands have executed).
VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer cb, VkQueryPool pool, std::uint32_t first,
                                                   std::uint32_t count, VkBuffer dst, VkDeviceSize offset,
                                                   VkDeviceSize stride, VkQueryResultFlags flags) {
  get<CommandBuffer>(cb)->ops.push_back(
      {CommandBuffer::Op::Copy, get<QueryPool>(pool), first, count, get<Buffer>(dst), offset, stride, flags});
}

// ---- submission: executes at once (lock held), unless the device hangs or is lost ----
struct SemaphoreSignal {
  VkSemaphore semaphore;
  std::uint64_t value;
};
// Begins a submit call; VK_SUCCESS means "execute", VK_NOT_READY "accepted but hung".
VkResult begin_submit(Queue *q) {
  Device *d = q->device;
  if (d->lost)
    return VK_ERROR_DEVICE_LOST;
  if (++d->submits == d->lose_at) {
    d->lost = true;
    d->changed.notify_all();
    return VK_ERROR_DEVICE_LOST;
  }
  if (d->hang) {
    ++q->pending;
    return VK_NOT_READY;
  }
  return VK_SUCCESS;
}
void execute(CommandBuffer *cb) {
  for (const auto &op : cb->ops) {
    switch (op.kind) {
    case CommandBuffer::Op::Reset: reset_queries(op.pool, op.first, op.count); break;
    case CommandBuffer::Op::Timestamp:
      if (op.first < op.pool->values.size()) {
        op.pool->values[op.first] = now_ns();
        op.pool->available[op.first] = true;
      }
      break;
    case CommandBuffer::Op::Copy: {
      const DeviceMemory *m = op.dst->memory;
      const VkDeviceSize at = op.dst->offset + op.offset;
      if (m && at < m->size)
        write_results(op.pool, op.first, op.count, m->bytes.get() + at, static_cast<std::size_t>(m->size - at),
                      op.stride, op.flags);
      break;
    }
    }
  }
}
void signal(const SemaphoreSignal &s) {
  Semaphore *sem = get<Semaphore>(s.semaphore);
  sem->value = sem->timeline ? std::max(sem->value, s.value) : 1;
}
// The signals of one batch of the first generation (VkSubmitInfo, VkBindSparseInfo): binary ones,
// and timeline ones with their values from the pNext chain.
template <class Batch> void signal_batch(const Batch &b) {
  auto *values = find_in_chain<VkTimelineSemaphoreSubmitInfo>(b.pNext,
                                                              VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  for (std::uint32_t j = 0; j < b.signalSemaphoreCount; ++j)
    signal({b.pSignalSemaphores[j],
            values && j < values->signalSemaphoreValueCount ? values->pSignalSemaphoreValues[j] : 0});
}

void finish_submit(Device *d, VkFence fence) {
  if (fence)
    get<Fence>(fence)->signalled = true;
  d->changed.notify_all();
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, std::uint32_t count, const VkSubmitInfo *submits,
                                           VkFence fence) {
  Queue *q = get<Queue>(queue);
  std::lock_guard lock(q->device->mutex);
  const VkResult r = begin_submit(q);
  if (r != VK_SUCCESS)
    return r == VK_NOT_READY ? VK_SUCCESS : r;
  for (std::uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo &s = submits[i];
    for (std::uint32_t j = 0; j < s.commandBufferCount; ++j)
      execute(get<CommandBuffer>(s.pCommandBuffers[j]));
    signal_batch(s);
  }
  finish_submit(q->device, fence);
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, std::uint32_t count, const VkSubmitInfo2 *submits,
                                            VkFence fence) {
  Queue *q = get<Queue>(queue);
  std::lock_guard lock(q->device->mutex);
  const VkResult r = begin_submit(q);
  if (r != VK_SUCCESS)
    return r == VK_NOT_READY ? VK_SUCCESS : r;
  for (std::uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo2 &s = submits[i];
    for (std::uint32_t j = 0; j < s.commandBufferInfoCount; ++j)
      execute(get<CommandBuffer>(s.pCommandBufferInfos[j].commandBuffer));
    for (std::uint32_t j = 0; j < s.signalSemaphoreInfoCount; ++j)
      signal({s.pSignalSemaphoreInfos[j].semaphore, s.pSignalSemaphoreInfos[j].value});
  }
  finish_submit(q->device, fence);
  return VK_SUCCESS;
}

// No sparse resource exists here: a bind executes its semaphore signals and its fence only.
VKAPI_ATTR VkResult VKAPI_CALL QueueBindSparse(VkQueue queue, std::uint32_t count, const VkBindSparseInfo *infos,
                                               VkFence fence) {
  Queue *q = get<Queue>(queue);
  std::lock_guard lock(q->device->mutex);
  const VkResult r = begin_submit(q);
  if (r != VK_SUCCESS)
    return r == VK_NOT_READY ? VK_SUCCESS : r;
  for (std::uint32_t i = 0; i < count; ++i)
    signal_batch(infos[i]);
  finish_submit(q->device, fence);
  return VK_SUCCESS;
}

// VK_EXT_device_fault: once lost, a description with the submits made, one address (a write to
// 0xdead0000, 4 KiB precision) and one vendor record (code 42, data 7); nothing before.
VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultInfoEXT(VkDevice device, VkDeviceFaultCountsEXT *counts,
                                                     VkDeviceFaultInfoEXT *info) {
  Device *d = device_of(device);
  std::lock_guard lock(d->mutex);
  const std::uint32_t n = d->lost ? 1 : 0;
  if (!info) {
    counts->addressInfoCount = n;
    counts->vendorInfoCount = n;
    counts->vendorBinarySize = 0;
    return VK_SUCCESS;
  }
  std::snprintf(info->description, sizeof info->description, "%s",
                d->lost ? ("Novem test ICD: device lost after " + std::to_string(d->submits) + " submits").c_str() : "");
  counts->addressInfoCount = std::min(counts->addressInfoCount, n);
  counts->vendorInfoCount = std::min(counts->vendorInfoCount, n);
  counts->vendorBinarySize = 0;
  if (counts->addressInfoCount && info->pAddressInfos)
    info->pAddressInfos[0] = VkDeviceFaultAddressInfoEXT{VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT, 0xdead0000, 4096};
  if (counts->vendorInfoCount && info->pVendorInfos) {
    VkDeviceFaultVendorInfoEXT &v = info->pVendorInfos[0];
    std::snprintf(v.description, sizeof v.description, "test hang check");
    v.vendorFaultCode = 42;
    v.vendorFaultData = 7;
  }
  return VK_SUCCESS;
}

// ---- the tables ----
enum class Level { Global, Instance, Physical, Device };
struct Entry {
  const char *name;
  Level level;
  PFN_vkVoidFunction fn;
};
#define E(name, level, fn) {name, Level::level, reinterpret_cast<PFN_vkVoidFunction>(fn)}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice, const char *name);
const Entry kEntries[] = {
    E("vkEnumerateInstanceVersion", Global, EnumerateInstanceVersion),
    E("vkEnumerateInstanceExtensionProperties", Global, EnumerateInstanceExtensionProperties),
    E("vkCreateInstance", Global, CreateInstance),
    E("vkDestroyInstance", Instance, DestroyInstance),
    E("vkEnumeratePhysicalDevices", Instance, EnumeratePhysicalDevices),
    E("vkGetDeviceProcAddr", Instance, GetDeviceProcAddr),
    E("vkGetPhysicalDeviceProperties", Physical, GetPhysicalDeviceProperties),
    E("vkGetPhysicalDeviceProperties2", Physical, GetPhysicalDeviceProperties2),
    E("vkGetPhysicalDeviceProperties2KHR", Physical, GetPhysicalDeviceProperties2),
    E("vkGetPhysicalDeviceFeatures", Physical, GetPhysicalDeviceFeatures),
    E("vkGetPhysicalDeviceFeatures2", Physical, GetPhysicalDeviceFeatures2),
    E("vkGetPhysicalDeviceFeatures2KHR", Physical, GetPhysicalDeviceFeatures2),
    E("vkGetPhysicalDeviceQueueFamilyProperties", Physical, GetPhysicalDeviceQueueFamilyProperties),
    E("vkGetPhysicalDeviceQueueFamilyProperties2", Physical, GetPhysicalDeviceQueueFamilyProperties2),
    E("vkGetPhysicalDeviceQueueFamilyProperties2KHR", Physical, GetPhysicalDeviceQueueFamilyProperties2),
    E("vkGetPhysicalDeviceMemoryProperties", Physical, GetPhysicalDeviceMemoryProperties),
    E("vkGetPhysicalDeviceMemoryProperties2", Physical, GetPhysicalDeviceMemoryProperties2),
    E("vkGetPhysicalDeviceMemoryProperties2KHR", Physical, GetPhysicalDeviceMemoryProperties2),
    E("vkGetPhysicalDeviceFormatProperties", Physical, GetPhysicalDeviceFormatProperties),
    E("vkGetPhysicalDeviceImageFormatProperties", Physical, GetPhysicalDeviceImageFormatProperties),
    E("vkGetPhysicalDeviceSparseImageFormatProperties", Physical, GetPhysicalDeviceSparseImageFormatProperties),
    E("vkEnumerateDeviceExtensionProperties", Physical, EnumerateDeviceExtensionProperties),
    E("vkEnumerateDeviceLayerProperties", Physical, EnumerateDeviceLayerProperties),
    E("vkCreateDevice", Physical, CreateDevice),
    E("vkDestroyDevice", Device, DestroyDevice),
    E("vkGetDeviceQueue", Device, GetDeviceQueue),
    E("vkGetDeviceQueue2", Device, GetDeviceQueue2),
    E("vkDeviceWaitIdle", Device, DeviceWaitIdle),
    E("vkQueueWaitIdle", Device, QueueWaitIdle),
    E("vkQueueSubmit", Device, QueueSubmit),
    E("vkQueueSubmit2", Device, QueueSubmit2),
    E("vkQueueSubmit2KHR", Device, QueueSubmit2),
    E("vkQueueBindSparse", Device, QueueBindSparse),
    E("vkGetDeviceFaultInfoEXT", Device, GetDeviceFaultInfoEXT),
    E("vkCreateFence", Device, CreateFence),
    E("vkDestroyFence", Device, DestroyFence),
    E("vkResetFences", Device, ResetFences),
    E("vkGetFenceStatus", Device, GetFenceStatus),
    E("vkWaitForFences", Device, WaitForFences),
    E("vkCreateSemaphore", Device, CreateSemaphore),
    E("vkDestroySemaphore", Device, DestroySemaphore),
    E("vkGetSemaphoreCounterValue", Device, GetSemaphoreCounterValue),
    E("vkGetSemaphoreCounterValueKHR", Device, GetSemaphoreCounterValue),
    E("vkSignalSemaphore", Device, SignalSemaphore),
    E("vkSignalSemaphoreKHR", Device, SignalSemaphore),
    E("vkWaitSemaphores", Device, WaitSemaphores),
    E("vkWaitSemaphoresKHR", Device, WaitSemaphores),
    E("vkAllocateMemory", Device, AllocateMemory),
    E("vkFreeMemory", Device, FreeMemory),
    E("vkMapMemory", Device, MapMemory),
    E("vkUnmapMemory", Device, UnmapMemory),
    E("vkFlushMappedMemoryRanges", Device, FlushMappedMemoryRanges),
    E("vkInvalidateMappedMemoryRanges", Device, FlushMappedMemoryRanges),
    E("vkCreateBuffer", Device, CreateBuffer),
    E("vkDestroyBuffer", Device, DestroyBuffer),
    E("vkGetBufferMemoryRequirements", Device, GetBufferMemoryRequirements),
    E("vkBindBufferMemory", Device, BindBufferMemory),
    E("vkCreateQueryPool", Device, CreateQueryPool),
    E("vkDestroyQueryPool", Device, DestroyQueryPool),
    E("vkResetQueryPool", Device, ResetQueryPool),
    E("vkResetQueryPoolEXT", Device, ResetQueryPool),
    E("vkGetQueryPoolResults", Device, GetQueryPoolResults),
    E("vkCreateCommandPool", Device, CreateCommandPool),
    E("vkDestroyCommandPool", Device, DestroyCommandPool),
    E("vkResetCommandPool", Device, ResetCommandPool),
    E("vkAllocateCommandBuffers", Device, AllocateCommandBuffers),
    E("vkFreeCommandBuffers", Device, FreeCommandBuffers),
    E("vkBeginCommandBuffer", Device, BeginCommandBuffer),
    E("vkEndCommandBuffer", Device, EndCommandBuffer),
    E("vkResetCommandBuffer", Device, ResetCommandBuffer),
    E("vkCmdFillBuffer", Device, CmdFillBuffer),
    E("vkCmdPipelineBarrier", Device, CmdPipelineBarrier),
    E("vkCmdPipelineBarrier2", Device, CmdPipelineBarrier2),
    E("vkCmdPipelineBarrier2KHR", Device, CmdPipelineBarrier2),
    E("vkCmdWriteTimestamp", Device, CmdWriteTimestamp),
    E("vkCmdWriteTimestamp2", Device, CmdWriteTimestamp2),
    E("vkCmdWriteTimestamp2KHR", Device, CmdWriteTimestamp2),
    E("vkCmdResetQueryPool", Device, CmdResetQueryPool),
    E("vkCmdCopyQueryPoolResults", Device, CmdCopyQueryPoolResults),
};
#undef E

PFN_vkVoidFunction lookup(const char *name, bool (*wanted)(Level)) {
  if (!name)
    return nullptr;
  for (const Entry &e : kEntries)
    if (std::strcmp(e.name, name) == 0)
      return wanted(e.level) ? e.fn : nullptr;
  return nullptr;
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice, const char *name) {
  return lookup(name, [](Level l) { return l == Level::Device; });
}

} // namespace

// ---- the loader-ICD interface (the only exported symbols) ----
NOVEM_ICD_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(std::uint32_t *version) {
  // 5: the loader handles apiVersion checks; surfaces are the loader's (>= 3); no Windows adapters (6).
  *version = std::min<std::uint32_t>(*version, 5);
  return *version >= 2 ? VK_SUCCESS : VK_ERROR_INCOMPATIBLE_DRIVER;
}
NOVEM_ICD_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                                     const char *name) {
  if (!instance) // only the global commands without an instance
    return lookup(name, [](Level l) { return l == Level::Global; });
  return lookup(name, [](Level) { return true; });
}
NOVEM_ICD_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance,
                                                                                          const char *name) {
  return lookup(name, [](Level l) { return l == Level::Physical; });
}
