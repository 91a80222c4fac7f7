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

#include "novem_qd_intercepts.h" // generated: the hooks' declarations and the table
#include "vulkan/vk_novem_queue_diagnostics.h"
#include "fault.hpp"
#include "state.hpp"

namespace novem_qd {

namespace {
std::once_flag g_registry_once;
} // namespace

Registry &Registry::create() {
  std::call_once(g_registry_once, [] { instance_.store(new Registry, std::memory_order_release); });
  return *instance_.load(std::memory_order_acquire);
}

const Settings &Registry::settings_for(const VkInstanceCreateInfo *ci) {
  std::call_once(settings_once_, [&] {
    settings_ = read_settings(api_settings(ci));
    trace_ = open_trace(settings_.trace_path);
    if (!trace_) settings_.trace_path.clear();
    log_settings(settings_);
  });
  return settings_;
}

const Settings &settings() { return Registry::get().settings_for(nullptr); }

// device_of's miss. As lookup() below for queues: a thread calls into the same device again and again.
DeviceState *device_lookup(PerThread &pt, void *dispatch_key, std::uint64_t generation) {
  DeviceState *dev = Registry::get().device(dispatch_key);
  if (dev) {
    pt.cached_device_key = dispatch_key;
    pt.cached_device = dev;
    pt.cached_device_generation = generation;
  }
  return dev;
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
// lookup()'s miss: the registry's map, under its reader lock.
QueueRef lookup_miss(PerThread &pt, VkQueue queue, std::uint64_t generation) {
  if (QueueState *q = Registry::get().queue(queue)) {
    pt.cached_queue = queue;
    pt.cached_state = q;
    pt.cached_generation = generation;
    return {q, q->device};
  }
  return {nullptr, device_of(pt, key(queue))};
}
// A one-entry cache per thread in front of the registry's map: an application submits to the
// same queue from the same thread again and again, and the map needs the reader lock.
inline QueueRef lookup(PerThread &pt, VkQueue queue) {
  const std::uint64_t generation = Registry::get().generation.load(std::memory_order_acquire);
  if (pt.cached_queue == queue && pt.cached_generation == generation) return {pt.cached_state, pt.cached_state->device};
  return lookup_miss(pt, queue, generation);
}

// Semaphore counts of one submission call, classified before the call down under one short lock.
struct SemCounts {
  std::uint64_t wait_binary = 0, wait_timeline = 0, signal_binary = 0, signal_timeline = 0;
};

// Classifies one semaphore (under dev.sync_mutex) and keeps it for the dumps in `out` (nullptr: an
// untracked submission, nothing kept). A timeline value a submission of `signaller` signals is
// remembered for vkWaitSemaphores' attribution and proofs, with the sequence number the call takes
// if it succeeds (a queue's calls are externally synchronized; where they race, which the
// thread-safety check reports, the number may be another's).
void classify(DeviceState &dev, VkSemaphore sem, std::uint64_t value, std::uint64_t &binary, std::uint64_t &timeline,
              std::vector<SemRef> *out, QueueState *signaller = nullptr) {
  const bool t = dev.timeline_semaphores.count(sem) != 0;
  (t ? timeline : binary)++;
  if (out) out->push_back(SemRef{sem, t ? value : 0, t});
  if (t && signaller) {
    std::deque<TimelineSignal> &signals = dev.timeline_signals[sem];
    if (signals.size() >= DeviceState::kMaxSignals) signals.pop_front();
    signals.push_back(TimelineSignal{value, signaller, signaller->submitted_seq.load(std::memory_order_relaxed) + 1});
  }
}

// A submission call failed: the timeline values it registered (classify) will not be signalled by
// it, and its sequence number goes to the queue's next submission.
void forget_timeline_signals(DeviceState &dev, const QueueState &q, const SemCounts &s) {
  if (s.signal_timeline == 0) return;
  const std::uint64_t seq = q.submitted_seq.load(std::memory_order_relaxed) + 1;
  std::lock_guard lock(dev.sync_mutex);
  for (auto &[sem, signals] : dev.timeline_signals)
    std::erase_if(signals, [&](const TimelineSignal &sig) { return sig.queue == &q && sig.seq == seq; });
}

// Classifies the semaphores of one batch of the first generation (VkSubmitInfo and
// VkBindSparseInfo alike: wait and signal arrays, timeline values in the pNext chain); `sub`
// (nullptr: untracked) keeps them.
template <class Batch>
void classify_batch(DeviceState &dev, const Batch &batch, QueueState &q, SemCounts &s, Submission *sub) {
  const auto *tl =
      find_in_chain<VkTimelineSemaphoreSubmitInfo>(batch.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  for (std::uint32_t j = 0; j < batch.waitSemaphoreCount; ++j)
    classify(dev, batch.pWaitSemaphores[j],
             tl && tl->pWaitSemaphoreValues && j < tl->waitSemaphoreValueCount ? tl->pWaitSemaphoreValues[j] : 0,
             s.wait_binary, s.wait_timeline, sub ? &sub->waits : nullptr);
  for (std::uint32_t j = 0; j < batch.signalSemaphoreCount; ++j)
    classify(dev, batch.pSignalSemaphores[j],
             tl && tl->pSignalSemaphoreValues && j < tl->signalSemaphoreValueCount ? tl->pSignalSemaphoreValues[j] : 0,
             s.signal_binary, s.signal_timeline, sub ? &sub->signals : nullptr, &q);
}

// A wait of the application's, returned at `ns`, proves `q`'s submissions up to `seq` complete;
// the tracker, which never waits on the application's fences, completes them at its next pass
// with that time. A wait that proves nothing new (a fence polled again, an old one waited on)
// leaves the proof log, and its lock, alone. The time is logged before the submissions are
// marked complete, so that the layer thread, finding them complete, finds the time too. The wait
// hooks call this as soon as they have read the wait's end, before anything that may block
// (record_wait takes the queue's stats lock, which the layer thread holds while it completes
// submissions): meanwhile the layer thread would complete them at its own, later time.
void prove_complete(const DeviceState &dev, QueueState &q, std::uint64_t seq, std::uint64_t ns) {
  if (seq <= q.completed_seq.load(std::memory_order_relaxed)) return;
  if (dev.latency) q.proofs.add(seq, ns);
  q.complete_up_to(seq);
}

// A wait of the application's thread, on the queue's track of the trace and in the report. With
// `events` 0 the rings keep nothing (their capacity is fixed at creation): no lock taken.
void record_wait(PerThread &pt, QueueState &q, const char *call, std::uint64_t t0, std::uint64_t t1) {
  if (q.wait_events.capacity == 0) return;
  const WaitEvent ev{call, t0, t1, pt.thread_id()};
  std::lock_guard lock(q.stats_mutex);
  q.wait_events.push(ev);
}
void record_unattributed_wait(PerThread &pt, DeviceState &dev, const char *call, std::uint64_t t0, std::uint64_t t1) {
  if (dev.unattributed_waits.capacity == 0) return;
  const WaitEvent ev{call, t0, t1, pt.thread_id()};
  std::lock_guard lock(dev.events_mutex);
  dev.unattributed_waits.push(ev);
}

void add(Counter &c, std::uint64_t v) { c.fetch_add(v, std::memory_order_relaxed); }

// After a successful submission call: counts, the next sequence number (returned), the fence's owner
// (unless watch_app_fence registered it, as `registered_seq`, and rightly).
[[gnu::always_inline]] inline std::uint64_t record_submit(QueueState &q, Counter &calls, std::uint64_t batches, std::uint64_t cbs,
                            const SemCounts &s, VkFence fence, std::uint64_t registered_seq) {
  add(calls, 1);
  add(q.batches, batches);
  add(q.command_buffers, cbs);
  if (s.wait_binary | s.wait_timeline | s.signal_binary | s.signal_timeline) { // most submits have none
    add(q.wait_binary, s.wait_binary);
    add(q.wait_timeline, s.wait_timeline);
    add(q.signal_binary, s.signal_binary);
    add(q.signal_timeline, s.signal_timeline);
  }
  const std::uint64_t seq = q.submitted_seq.fetch_add(1, std::memory_order_relaxed) + 1;
  if (fence != VK_NULL_HANDLE) {
    add(q.fences, 1);
    if (seq != registered_seq) { // also where another thread's call on the queue took that number
      std::lock_guard lock(q.device->fence_mutex);
      q.device->fences[fence].use = FenceUse{&q, seq};
    }
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
  QueueUse(PerThread &pt, QueueState *q, const char *call) : q_(q) {
    if (!q_ || !q_->device->thread_safety) return;
    const std::uint64_t me = pt.thread_id();
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

void check_lost(DeviceState *dev, VkResult result, const char *call, const QueueState *queue = nullptr) {
  if (result == VK_ERROR_DEVICE_LOST && dev) on_device_lost(*dev, call, queue);
}

// The names and labels of a submission, taken at the call: the application may re-record the
// command buffers once the work is complete. Until it names or labels something, no call and no
// lock (take_submission left both empty).
[[gnu::always_inline]] inline void take_labels(DeviceState &dev, VkQueue queue, Submission &sub) {
  if (!dev.labels.used.load(std::memory_order_acquire)) return;
  dev.labels.open_queue_labels(queue, sub.queue_labels);
  sub.labels = label_members(dev.labels, queue, sub.queue_labels, sub.command_buffers);
}

// The family's timestamp command buffers if this submission is timed: one in
// DeviceState::timestamp_every of the queue's submissions (all on a GPU, by default), and on a CPU
// device by default none within DeviceState::timestamp_gap_ns of the queue's last timed one (its
// submit time: stamp_submit). Two threads submitting to one queue at once may both be timed: an
// extra sample, harmless.
[[gnu::always_inline]] inline TimestampPool *timed(const DeviceState &dev, QueueState &q) {
  if (!q.timestamp_pool || dev.timestamp_every <= 1) return q.timestamp_pool;
  if (q.timing_turn.fetch_add(1, std::memory_order_relaxed) % dev.timestamp_every != 0) return nullptr;
  if (dev.timestamp_gap_ns == 0) return q.timestamp_pool;
  const std::uint64_t now = now_ns(), last = q.last_timed_ns.load(std::memory_order_relaxed);
  return last != 0 && now - std::min(now, last) < dev.timestamp_gap_ns ? nullptr : q.timestamp_pool;
}

// A submission's time, taken just before the call down; a timed one's starts the queue's
// timestamp gap (timed()), where there is one: on a GPU every submission is timed, and a second
// clock read each would undo the stamp's saving.
[[gnu::always_inline]] inline void stamp_submit(const DeviceState &dev, QueueState &q, Submission &sub) {
  sub.stamp = dev.clock.stamp();
  if (sub.timestamps && dev.timestamp_gap_ns != 0) q.last_timed_ns.store(now_ns(), std::memory_order_relaxed);
}

// The end of every submission call: counts, then the submission handed to the tracker thread
// (or, on failure, the layer's fence and timestamp slots taken back); `waited` is the fence the
// tracker watches (watch_app_fence). `skipped`: its `unmeasured` batches were left out by
// timestamp_every.
[[gnu::always_inline]] inline void finish_submit(DeviceState &dev, QueueState &q, Counter &calls, VkResult result, std::uint64_t batches,
                   std::uint64_t cbs, const SemCounts &s, VkFence app_fence, VkFence waited,
                   std::uint64_t unmeasured, bool skipped, Submission *sub) {
  if (result != VK_SUCCESS) {
    add(q.failed_submits, 1);
    forget_timeline_signals(dev, q, s);
    if (sub->timestamps) return_slots(*sub->timestamps, sub->slots);
    check_lost(&dev, result, sub->call, &q);
    recycle(dev, sub);
    return;
  }
  sub->seq = record_submit(q, calls, batches, cbs, s, app_fence, sub->registered_seq);
  if (unmeasured) add(q.gpu_unmeasured_batches, unmeasured);
  if (unmeasured && skipped) add(q.gpu_skipped_batches, unmeasured);
  if (waited == VK_NULL_HANDLE) { // untracked: the layer could not create a fence (so no timestamps either)
    recycle(dev, sub);
    return;
  }
  track(dev, sub);
}

// The fence the tracker will watch for a submission: the application's own when it passed one,
// polled (registered before the call down, so that a vkResetFences racing with the submit call's
// return still finds it), else the layer's, passed in the call and waited on. VK_NULL_HANDLE: not
// tracked (no fence of the layer's could be created). The application's fence's attribution is
// registered under the same lock: the sequence number the call takes if it succeeds (the calls on
// a queue are externally synchronized; record_submit corrects it where they were not).
[[gnu::always_inline]] inline VkFence watch_app_fence(DeviceState &dev, QueueState &q, Submission &sub, VkFence app_fence) {
  if (sub.fence == VK_NULL_HANDLE) return VK_NULL_HANDLE;
  if (app_fence == VK_NULL_HANDLE) return sub.fence;
  sub.app_fence = app_fence;
  sub.registered_seq = q.submitted_seq.load(std::memory_order_relaxed) + 1;
  std::lock_guard lock(dev.fence_mutex);
  FenceEntry &e = dev.fences[app_fence];
  e.watched = &sub;
  sub.replaced_use = e.use;
  e.use = FenceUse{&q, sub.registered_seq};
  return app_fence;
}

// A submission call that failed: its fence is not the tracker's business, and keeps the
// attribution it had.
void unwatch_app_fence(DeviceState &dev, QueueState &q, const Submission &sub, VkFence app_fence) {
  if (app_fence == VK_NULL_HANDLE) return;
  std::lock_guard lock(dev.fence_mutex);
  FenceEntry *e = dev.fences.find(app_fence);
  if (!e) return;
  if (e->watched == &sub) e->watched = nullptr;
  if (e->use.queue == &q && e->use.seq == sub.registered_seq) e->use = sub.replaced_use;
}

// Whether any batch has a semaphore (VkSubmitInfo, VkSubmitInfo2, VkBindSparseInfo): only then is
// dev.sync_mutex taken to classify them.
bool any_semaphore(std::uint32_t n, const VkSubmitInfo *b) {
  for (std::uint32_t i = 0; i < n; ++i)
    if (b[i].waitSemaphoreCount || b[i].signalSemaphoreCount) return true;
  return false;
}
bool any_semaphore(std::uint32_t n, const VkSubmitInfo2 *b) {
  for (std::uint32_t i = 0; i < n; ++i)
    if (b[i].waitSemaphoreInfoCount || b[i].signalSemaphoreInfoCount) return true;
  return false;
}
bool any_semaphore(std::uint32_t n, const VkBindSparseInfo *b) {
  for (std::uint32_t i = 0; i < n; ++i)
    if (b[i].waitSemaphoreCount || b[i].signalSemaphoreCount) return true;
  return false;
}

// A submission nothing waits for (latency off): no record, no fence of the layer's, no labels, the
// application's arrays passed down as they are; the counts after a success. `unmeasured`: its
// batches with command buffers (no timestamps without latency).
template <class Down>
VkResult submit_untracked(DeviceState &dev, QueueState &q, Counter &calls, std::uint64_t batches, std::uint64_t cbs,
                          std::uint64_t unmeasured, const SemCounts &s, VkFence fence, const char *call, Down down) {
  const VkResult result = down();
  if (result != VK_SUCCESS) {
    add(q.failed_submits, 1);
    forget_timeline_signals(dev, q, s);
    check_lost(&dev, result, call, &q);
    return result;
  }
  record_submit(q, calls, batches, cbs, s, fence, 0);
  if (unmeasured) add(q.gpu_unmeasured_batches, unmeasured);
  return result;
}

} // namespace

// ---- instance ----

VKAPI_ATTR VkResult VKAPI_CALL hook::CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator, VkInstance *pInstance) {
  Registry::get().settings_for(pCreateInfo); // the first instance's VK_EXT_layer_settings count
  VkLayerInstanceCreateInfo *link = instance_link(pCreateInfo);
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext; // the next layer takes the next link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  VkResult result;
  {
    const OwnSettingsUnlinked unlinked(pCreateInfo);
    result = create(pCreateInfo, pAllocator, pInstance);
  }
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

VKAPI_ATTR void VKAPI_CALL hook::DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator) {
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
  write_outputs("vkDestroyInstance");
}

// ---- device ----

VKAPI_ATTR VkResult VKAPI_CALL hook::CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
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
  // The layer's own extension is the layer's business: the chain below gets the list without it.
  std::vector<const char *> extensions;
  bool own_extension = false;
  for (std::uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    if (std::strcmp(pCreateInfo->ppEnabledExtensionNames[i], VK_NOVEM_QUEUE_DIAGNOSTICS_EXTENSION_NAME) == 0)
      own_extension = true;
    else
      extensions.push_back(pCreateInfo->ppEnabledExtensionNames[i]);
  }
  VkDeviceCreateInfo down = *pCreateInfo;
  down.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  down.ppEnabledExtensionNames = extensions.empty() ? nullptr : extensions.data();
  const FaultEnabler fault(*inst, physicalDevice, down, extensions); // VK_EXT_device_fault where offered
  VkResult result = create(physicalDevice, &down, pAllocator, pDevice);
  if (result != VK_SUCCESS) return result;

  auto dev = std::make_shared<DeviceState>();
  dev->diagnostics_extension = own_extension;
  dev->thread_safety = settings().thread_safety;
  dev->latency = settings().latency;
  dev->fault_enabled = fault.enabled();
  dev->unattributed_waits.capacity = settings().max_events;
  const bool streamed = r.trace() != nullptr; // every event also goes to the trace file
  dev->unattributed_waits.streamed = streamed;
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
  const bool cpu_default = !settings().timestamp_every && props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  dev->timestamp_every = settings().timestamp_every ? settings().timestamp_every : cpu_default ? kCpuTimestampEvery : 1;
  dev->timestamp_gap_ns = cpu_default ? kCpuTimestampGapNs : 0;
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
      q->submission_events.capacity = q->wait_events.capacity = q->present_events.capacity = settings().max_events;
      q->submission_events.streamed = q->wait_events.streamed = q->present_events.streamed = streamed;
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

VKAPI_ATTR void VKAPI_CALL hook::DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator) {
  if (device == VK_NULL_HANDLE) return;
  Registry &r = Registry::get();
  void *k = key(device);
  DeviceState *dev = r.device(k);
  if (!dev) return;
  // Before the call down: the thread and the layer's objects use the device. An inherited device
  // has no thread in this process (fork.cpp).
  if (!dev->inherited) stop_tracking(*dev);
  dev->table.DestroyDevice(device, pAllocator);
  {
    std::unique_lock lock(r.mutex);
    for (const auto &q : dev->queues) r.queues.erase(q->queue);
    r.generation.fetch_add(1, std::memory_order_release);
    dev->destroyed = true;
    r.devices.erase(k); // all_devices keeps it for the report
  }
  write_outputs("vkDestroyDevice");
}

// Queues fetched by the application are normally known already (qd_CreateDevice fetched them).
VKAPI_ATTR void VKAPI_CALL hook::GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                             VkQueue *pQueue) {
  DeviceState *dev = device_of(per_thread(), key(device));
  dev->table.GetDeviceQueue(device, queueFamilyIndex, queueIndex, pQueue);
}

VKAPI_ATTR void VKAPI_CALL hook::GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo, VkQueue *pQueue) {
  DeviceState *dev = device_of(per_thread(), key(device));
  dev->table.GetDeviceQueue2(device, pQueueInfo, pQueue);
}

// ---- submission ----

VKAPI_ATTR VkResult VKAPI_CALL hook::QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo *pSubmits,
                                              VkFence fence) {
  PerThread &pt = per_thread();
  auto [q, dev] = lookup(pt, queue);
  if (!q) return dev->table.QueueSubmit(queue, submitCount, pSubmits, fence);
  QueueUse use(pt, q, "vkQueueSubmit");
  SemCounts s;
  std::uint64_t cbs = 0;
  if (!dev->latency) {
    std::uint64_t with_cbs = 0;
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      cbs += pSubmits[i].commandBufferCount;
      with_cbs += pSubmits[i].commandBufferCount ? 1 : 0;
    }
    if (any_semaphore(submitCount, pSubmits)) {
      std::lock_guard lock(dev->sync_mutex);
      for (std::uint32_t i = 0; i < submitCount; ++i) classify_batch(*dev, pSubmits[i], *q, s, nullptr);
    }
    return submit_untracked(*dev, *q, q->submit_calls_v1, submitCount, cbs, with_cbs, s, fence, "vkQueueSubmit",
                            [&] { return dev->table.QueueSubmit(queue, submitCount, pSubmits, fence); });
  }
  Submission *sub = take_submission(*dev);
  sub->queue = q;
  sub->call = "vkQueueSubmit";
  bool semaphores = false; // one pass over the batches for the command buffers and this
  for (std::uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo &si = pSubmits[i];
    cbs += si.commandBufferCount;
    semaphores |= (si.waitSemaphoreCount | si.signalSemaphoreCount) != 0;
    for (std::uint32_t j = 0; j < si.commandBufferCount; ++j) sub->command_buffers.push_back(si.pCommandBuffers[j]);
  }
  if (semaphores) {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) classify_batch(*dev, pSubmits[i], *q, s, sub);
  }
  sub->batches = submitCount;
  take_labels(*dev, queue, *sub);
  const VkFence layer_fence = sub->fence;

  // Timestamps: each batch with command buffers gets the layer's begin / end pair around them.
  // Scratch copies, per thread, grown to the largest call and never shrunk (no allocation, and no
  // vector bookkeeping per element).
  std::vector<VkSubmitInfo> &infos = pt.infos;
  std::vector<VkCommandBuffer> &wrapped = pt.wrapped;
  std::uint64_t unmeasured = 0;
  const VkSubmitInfo *submits = pSubmits;
  TimestampPool *const tp = layer_fence ? timed(*dev, *q) : nullptr;
  const bool skipped = layer_fence && q->timestamp_pool && !tp;
  if (tp && cbs) {
    if (infos.size() < submitCount) infos.resize(submitCount);
    if (wrapped.size() < cbs + 2 * submitCount) wrapped.resize(cbs + 2 * submitCount);
    VkCommandBuffer *w = wrapped.data();
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      VkSubmitInfo &si = infos[i];
      si = pSubmits[i];
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
      si.pCommandBuffers = w;
      *w++ = tp->begin[slot];
      for (std::uint32_t j = 0; j < pSubmits[i].commandBufferCount; ++j) *w++ = pSubmits[i].pCommandBuffers[j];
      *w++ = tp->end[slot];
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

  const VkFence waited = watch_app_fence(*dev, *q, *sub, fence);
  stamp_submit(*dev, *q, *sub);
  const VkResult result =
      dev->table.QueueSubmit(queue, submitCount, submits, fence != VK_NULL_HANDLE ? fence : layer_fence);
  if (result != VK_SUCCESS) unwatch_app_fence(*dev, *q, *sub, fence);
  finish_submit(*dev, *q, q->submit_calls_v1, result, submitCount, cbs, s, fence, waited, unmeasured, skipped, sub);
  return result;
}

namespace {
VkResult submit2(PerThread &pt, PFN_vkQueueSubmit2 next, QueueRef ref, VkQueue queue, uint32_t submitCount,
                 const VkSubmitInfo2 *pSubmits, VkFence fence, const char *call) {
  auto [q, dev] = ref;
  if (!q) return next(queue, submitCount, pSubmits, fence);
  QueueUse use(pt, q, call);
  SemCounts s;
  // The semaphores of every batch, kept in `sub` unless it is null (untracked).
  auto classify_all = [&](Submission *sub) {
    if (!any_semaphore(submitCount, pSubmits)) return;
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo2 &si = pSubmits[i];
      for (std::uint32_t j = 0; j < si.waitSemaphoreInfoCount; ++j)
        classify(*dev, si.pWaitSemaphoreInfos[j].semaphore, si.pWaitSemaphoreInfos[j].value, s.wait_binary,
                 s.wait_timeline, sub ? &sub->waits : nullptr);
      for (std::uint32_t j = 0; j < si.signalSemaphoreInfoCount; ++j)
        classify(*dev, si.pSignalSemaphoreInfos[j].semaphore, si.pSignalSemaphoreInfos[j].value, s.signal_binary,
                 s.signal_timeline, sub ? &sub->signals : nullptr, q);
    }
  };
  std::uint64_t cbs = 0;
  if (!dev->latency) {
    std::uint64_t with_cbs = 0;
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      cbs += pSubmits[i].commandBufferInfoCount;
      with_cbs += pSubmits[i].commandBufferInfoCount ? 1 : 0;
    }
    classify_all(nullptr);
    return submit_untracked(*dev, *q, q->submit_calls_v2, submitCount, cbs, with_cbs, s, fence, call,
                            [&] { return next(queue, submitCount, pSubmits, fence); });
  }
  Submission *sub = take_submission(*dev);
  sub->queue = q;
  sub->call = call;
  for (std::uint32_t i = 0; i < submitCount; ++i) {
    const VkSubmitInfo2 &si = pSubmits[i];
    cbs += si.commandBufferInfoCount;
    for (std::uint32_t j = 0; j < si.commandBufferInfoCount; ++j)
      sub->command_buffers.push_back(si.pCommandBufferInfos[j].commandBuffer);
  }
  classify_all(sub);
  sub->batches = submitCount;
  take_labels(*dev, queue, *sub);
  sub->v2 = true;
  const VkFence layer_fence = sub->fence;

  std::vector<VkSubmitInfo2> &infos = pt.infos2; // as in hook::QueueSubmit
  std::vector<VkCommandBufferSubmitInfo> &wrapped = pt.wrapped2;
  std::uint64_t unmeasured = 0;
  const VkSubmitInfo2 *submits = pSubmits;
  TimestampPool *const tp = layer_fence ? timed(*dev, *q) : nullptr;
  const bool skipped = layer_fence && q->timestamp_pool && !tp;
  if (tp && cbs) {
    if (infos.size() < submitCount) infos.resize(submitCount);
    if (wrapped.size() < cbs + 2 * submitCount) wrapped.resize(cbs + 2 * submitCount);
    VkCommandBufferSubmitInfo *w = wrapped.data();
    for (std::uint32_t i = 0; i < submitCount; ++i) {
      VkSubmitInfo2 &si = infos[i];
      si = pSubmits[i];
      if (si.commandBufferInfoCount == 0) continue;
      const std::uint32_t slot = (si.flags & VK_SUBMIT_PROTECTED_BIT) ? UINT32_MAX : take_slot(*tp);
      if (slot == UINT32_MAX) {
        ++unmeasured;
        continue;
      }
      si.pCommandBufferInfos = w;
      *w++ = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, tp->begin[slot], 0};
      for (std::uint32_t j = 0; j < pSubmits[i].commandBufferInfoCount; ++j) *w++ = pSubmits[i].pCommandBufferInfos[j];
      *w++ = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, tp->end[slot], 0};
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

  const VkFence waited = watch_app_fence(*dev, *q, *sub, fence);
  stamp_submit(*dev, *q, *sub);
  const VkResult result = next(queue, submitCount, submits, fence != VK_NULL_HANDLE ? fence : layer_fence);
  if (result != VK_SUCCESS) unwatch_app_fence(*dev, *q, *sub, fence);
  finish_submit(*dev, *q, q->submit_calls_v2, result, submitCount, cbs, s, fence, waited, unmeasured, skipped, sub);
  return result;
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL hook::QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                               VkFence fence) {
  PerThread &pt = per_thread();
  QueueRef ref = lookup(pt, queue);
  return submit2(pt, ref.dev->table.QueueSubmit2, ref, queue, submitCount, pSubmits, fence, "vkQueueSubmit2");
}

VKAPI_ATTR VkResult VKAPI_CALL hook::QueueSubmit2KHR(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                                                  VkFence fence) {
  PerThread &pt = per_thread();
  QueueRef ref = lookup(pt, queue);
  return submit2(pt, ref.dev->table.QueueSubmit2KHR, ref, queue, submitCount, pSubmits, fence, "vkQueueSubmit2KHR");
}

// vkQueueBindSparse: tracked as a submission (sequence number, latency, events, dumps, the
// thread-safety mark); its batches are the VkBindSparseInfos, with no command buffers (nothing to
// time on the GPU). The tracker polls the application's fence where it passed one, else waits on
// the layer's, which rides in the call (watch_app_fence).
VKAPI_ATTR VkResult VKAPI_CALL hook::QueueBindSparse(VkQueue queue, uint32_t bindInfoCount,
                                                  const VkBindSparseInfo *pBindInfo, VkFence fence) {
  PerThread &pt = per_thread();
  auto [q, dev] = lookup(pt, queue);
  if (!q) return dev->table.QueueBindSparse(queue, bindInfoCount, pBindInfo, fence);
  QueueUse use(pt, q, "vkQueueBindSparse");
  const bool semaphores = any_semaphore(bindInfoCount, pBindInfo);
  SemCounts s;
  if (!dev->latency) {
    if (semaphores) {
      std::lock_guard lock(dev->sync_mutex);
      for (std::uint32_t i = 0; i < bindInfoCount; ++i) classify_batch(*dev, pBindInfo[i], *q, s, nullptr);
    }
    return submit_untracked(*dev, *q, q->submit_calls_sparse, bindInfoCount, 0, 0, s, fence, "vkQueueBindSparse",
                            [&] { return dev->table.QueueBindSparse(queue, bindInfoCount, pBindInfo, fence); });
  }
  Submission *sub = take_submission(*dev);
  sub->queue = q;
  sub->call = "vkQueueBindSparse";
  sub->sparse = true;
  if (semaphores) {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < bindInfoCount; ++i) classify_batch(*dev, pBindInfo[i], *q, s, sub);
  }
  sub->batches = bindInfoCount;
  take_labels(*dev, queue, *sub);
  const VkFence layer_fence = sub->fence;
  const VkFence waited = watch_app_fence(*dev, *q, *sub, fence);
  stamp_submit(*dev, *q, *sub);
  const VkResult result =
      dev->table.QueueBindSparse(queue, bindInfoCount, pBindInfo, fence != VK_NULL_HANDLE ? fence : layer_fence);
  if (result != VK_SUCCESS) unwatch_app_fence(*dev, *q, *sub, fence);
  finish_submit(*dev, *q, q->submit_calls_sparse, result, bindInfoCount, 0, s, fence, waited, 0, false, sub);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL hook::QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo) {
  PerThread &pt = per_thread();
  auto [q, dev] = lookup(pt, queue);
  QueueUse use(pt, q, "vkQueuePresentKHR");
  const VkResult result = dev->table.QueuePresentKHR(queue, pPresentInfo);
  check_lost(dev, result, "vkQueuePresentKHR", q);
  if (q && result >= 0) {
    add(q->presents, 1);
    add(q->present_swapchains, pPresentInfo->swapchainCount);
    const std::uint64_t now = now_ns(), last = q->last_present_ns.exchange(now, std::memory_order_relaxed);
    std::lock_guard lock(q->stats_mutex);
    if (last != 0 && now > last) q->present_intervals.add(now - last);
    q->present_events.push(now);
  }
  return result;
}

// ---- waits ----

VKAPI_ATTR VkResult VKAPI_CALL hook::QueueWaitIdle(VkQueue queue) {
  PerThread &pt = per_thread();
  auto [q, dev] = lookup(pt, queue);
  if (!q) return dev->table.QueueWaitIdle(queue);
  QueueUse use(pt, q, "vkQueueWaitIdle");
  const std::uint64_t seq = q->submitted_seq.load(std::memory_order_relaxed);
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.QueueWaitIdle(queue);
  check_lost(dev, result, "vkQueueWaitIdle", q);
  const std::uint64_t t1 = now_ns();
  if (result == VK_SUCCESS) prove_complete(*dev, *q, seq, t1);
  q->queue_wait_idle.add(t1 - t0);
  record_wait(pt, *q, "vkQueueWaitIdle", t0, t1);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL hook::DeviceWaitIdle(VkDevice device) {
  Registry &r = Registry::get();
  PerThread &pt = per_thread();
  DeviceState *dev = device_of(pt, key(device));
  std::vector<std::pair<QueueState *, std::uint64_t>> busy; // queues with work in flight, and up to where
  {
    std::shared_lock lock(r.mutex);
    for (const auto &q : dev->queues)
      if (q->in_flight()) busy.emplace_back(q.get(), q->submitted_seq.load(std::memory_order_relaxed));
  }
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.DeviceWaitIdle(device);
  check_lost(dev, result, "vkDeviceWaitIdle");
  const std::uint64_t t1 = now_ns(), dt = t1 - t0;
  if (result == VK_SUCCESS)
    for (auto &[q, seq] : busy) prove_complete(*dev, *q, seq, t1);
  dev->device_wait_idle.add(dt);
  if (busy.empty()) record_unattributed_wait(pt, *dev, "vkDeviceWaitIdle", t0, t1);
  for (auto &[q, seq] : busy) {
    q->device_wait_idle.add(dt);
    record_wait(pt, *q, "vkDeviceWaitIdle", t0, t1);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL hook::WaitForFences(VkDevice device, uint32_t fenceCount, const VkFence *pFences,
                                                VkBool32 waitAll, uint64_t timeout) {
  PerThread &pt = per_thread();
  DeviceState *dev = device_of(pt, key(device));
  // The submissions that carried the fences: in `one` for a wait on one fence (a frame loop's: no
  // list to fill), else in the thread's scratch list.
  FenceUse one;
  std::vector<FenceUse> &uses = pt.fence_uses;
  uses.clear();
  {
    std::lock_guard lock(dev->fence_mutex);
    if (fenceCount == 1) {
      if (const FenceEntry *e = dev->fences.find(pFences[0])) one = e->use;
    } else {
      for (std::uint32_t i = 0; i < fenceCount; ++i) {
        const FenceEntry *e = dev->fences.find(pFences[i]);
        if (e && e->use.queue) uses.push_back(e->use);
      }
    }
  }
  const std::uint64_t t0 = now_ns();
  const VkResult result = dev->table.WaitForFences(device, fenceCount, pFences, waitAll, timeout);
  check_lost(dev, result, "vkWaitForFences");
  const std::uint64_t t1 = now_ns(), dt = t1 - t0;
  // The blocked time goes to each distinct queue whose submission carried one of the fences; a
  // signalled fence proves its submission, and everything before it on its queue, complete.
  if (one.queue) {
    if (result == VK_SUCCESS) prove_complete(*dev, *one.queue, one.seq, t1);
    one.queue->wait_for_fences.add(dt);
    record_wait(pt, *one.queue, "vkWaitForFences", t0, t1);
    return result;
  }
  if (result == VK_SUCCESS && waitAll)
    for (const FenceUse &u : uses) prove_complete(*dev, *u.queue, u.seq, t1);
  std::vector<QueueState *> &queues = pt.wait_queues;
  queues.clear();
  for (const FenceUse &u : uses)
    if (std::find(queues.begin(), queues.end(), u.queue) == queues.end()) queues.push_back(u.queue);
  if (queues.empty()) {
    dev->wait_for_fences_unattributed.add(dt);
    record_unattributed_wait(pt, *dev, "vkWaitForFences", t0, t1);
  }
  for (QueueState *q : queues) {
    q->wait_for_fences.add(dt);
    record_wait(pt, *q, "vkWaitForFences", t0, t1);
  }
  return result;
}

namespace {
// Adds to `proofs` (per queue, the latest) the submissions of `signals` that a timeline value
// `reached` proves complete: those that signal it or a lower value.
void add_timeline_proofs(const std::deque<TimelineSignal> &signals, std::uint64_t reached, std::vector<FenceUse> &proofs) {
  for (const TimelineSignal &sig : signals) {
    if (sig.value > reached) continue;
    auto p = std::find_if(proofs.begin(), proofs.end(), [&](const FenceUse &u) { return u.queue == sig.queue; });
    if (p == proofs.end()) proofs.push_back(FenceUse{sig.queue, sig.seq});
    else p->seq = std::max(p->seq, sig.seq);
  }
}

// vkWaitSemaphores(KHR): the blocked time goes to each distinct queue with a submission that
// signals one of the waited values — for each semaphore, the submission signalling the smallest
// value not below the one waited for (the one whose completion ends the wait). Values no known
// submission signals (the host's vkSignalSemaphore, a submission not made yet) are unattributed.
// A successful wait for all of them (or for the only one) is a proof, as a fence wait is: a
// timeline's value only rises, so with the value reached every submission that signals it or a
// lower one has run (a later signal of a value already passed would be invalid), and on its queue
// every submission before it (a signal's first scope holds all earlier in submission order).
VkResult wait_semaphores(PFN_vkWaitSemaphores next, VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo,
                         std::uint64_t timeout, const char *call) {
  PerThread &pt = per_thread();
  DeviceState *dev = device_of(pt, key(device));
  std::vector<QueueState *> &queues = pt.wait_queues; // scratch: no allocation per wait
  std::vector<FenceUse> &proofs = pt.wait_proofs;
  queues.clear();
  proofs.clear();
  const bool proves = !(pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) || pWaitInfo->semaphoreCount == 1;
  {
    std::lock_guard lock(dev->sync_mutex);
    for (std::uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i) {
      auto it = dev->timeline_signals.find(pWaitInfo->pSemaphores[i]);
      if (it == dev->timeline_signals.end()) continue;
      const TimelineSignal *best = nullptr;
      for (const TimelineSignal &sig : it->second)
        if (sig.value >= pWaitInfo->pValues[i] && (!best || sig.value < best->value)) best = &sig;
      if (proves) add_timeline_proofs(it->second, pWaitInfo->pValues[i], proofs);
      if (best && std::find(queues.begin(), queues.end(), best->queue) == queues.end()) queues.push_back(best->queue);
    }
  }
  const std::uint64_t t0 = now_ns();
  const VkResult result = next(device, pWaitInfo, timeout);
  check_lost(dev, result, call);
  const std::uint64_t t1 = now_ns();
  if (result == VK_SUCCESS)
    for (const FenceUse &u : proofs) prove_complete(*dev, *u.queue, u.seq, t1);
  if (queues.empty()) {
    dev->wait_semaphores_unattributed.add(t1 - t0);
    record_unattributed_wait(pt, *dev, call, t0, t1);
  }
  for (QueueState *q : queues) {
    q->wait_semaphores_blocked.add(t1 - t0);
    record_wait(pt, *q, call, t0, t1);
  }
  return result;
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL hook::WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo,
                                                   uint64_t timeout) {
  DeviceState *dev = device_of(per_thread(), key(device));
  return wait_semaphores(dev->table.WaitSemaphores, device, pWaitInfo, timeout, "vkWaitSemaphores");
}

VKAPI_ATTR VkResult VKAPI_CALL hook::WaitSemaphoresKHR(VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo,
                                                      uint64_t timeout) {
  DeviceState *dev = device_of(per_thread(), key(device));
  return wait_semaphores(dev->table.WaitSemaphoresKHR, device, pWaitInfo, timeout, "vkWaitSemaphoresKHR");
}

VKAPI_ATTR VkResult VKAPI_CALL hook::GetFenceStatus(VkDevice device, VkFence fence) {
  DeviceState *dev = device_of(per_thread(), key(device));
  const VkResult result = dev->table.GetFenceStatus(device, fence);
  check_lost(dev, result, "vkGetFenceStatus");
  if (result == VK_SUCCESS) {
    FenceUse use;
    {
      std::lock_guard lock(dev->fence_mutex);
      if (const FenceEntry *e = dev->fences.find(fence)) use = e->use;
    }
    if (use.queue) prove_complete(*dev, *use.queue, use.seq, now_ns());
  }
  return result;
}

namespace {
// vkGetSemaphoreCounterValue(KHR): the value read is a proof, as a fence found signalled is
// (wait_semaphores says why), of the submissions that signal it or a lower one.
VkResult semaphore_counter_value(PFN_vkGetSemaphoreCounterValue next, VkDevice device, VkSemaphore semaphore,
                                 std::uint64_t *pValue, const char *call) {
  PerThread &pt = per_thread();
  DeviceState *dev = device_of(pt, key(device));
  const VkResult result = next(device, semaphore, pValue);
  check_lost(dev, result, call);
  if (result != VK_SUCCESS) return result;
  std::vector<FenceUse> &proofs = pt.wait_proofs;
  proofs.clear();
  {
    std::lock_guard lock(dev->sync_mutex);
    if (auto it = dev->timeline_signals.find(semaphore); it != dev->timeline_signals.end())
      add_timeline_proofs(it->second, *pValue, proofs);
  }
  const std::uint64_t now = now_ns(); // after the lock, right before the proofs (prove_complete)
  for (const FenceUse &u : proofs) prove_complete(*dev, *u.queue, u.seq, now);
  return result;
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL hook::GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                                                             uint64_t *pValue) {
  DeviceState *dev = device_of(per_thread(), key(device));
  return semaphore_counter_value(dev->table.GetSemaphoreCounterValue, device, semaphore, pValue,
                                 "vkGetSemaphoreCounterValue");
}

VKAPI_ATTR VkResult VKAPI_CALL hook::GetSemaphoreCounterValueKHR(VkDevice device, VkSemaphore semaphore,
                                                                uint64_t *pValue) {
  DeviceState *dev = device_of(per_thread(), key(device));
  return semaphore_counter_value(dev->table.GetSemaphoreCounterValueKHR, device, semaphore, pValue,
                                 "vkGetSemaphoreCounterValueKHR");
}

// ---- semaphore types, fence lifetimes ----

VKAPI_ATTR VkResult VKAPI_CALL hook::CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator, VkSemaphore *pSemaphore) {
  DeviceState *dev = device_of(per_thread(), key(device));
  const VkResult result = dev->table.CreateSemaphore(device, pCreateInfo, pAllocator, pSemaphore);
  const auto *type =
      find_in_chain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  if (result == VK_SUCCESS && type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE) {
    std::lock_guard lock(dev->sync_mutex);
    dev->timeline_semaphores.insert(*pSemaphore);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL hook::DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                               const VkAllocationCallbacks *pAllocator) {
  DeviceState *dev = device_of(per_thread(), key(device));
  {
    std::lock_guard lock(dev->sync_mutex); // forget it first: the handle may be reused at once
    dev->timeline_semaphores.erase(semaphore);
    dev->timeline_signals.erase(semaphore);
  }
  dev->table.DestroySemaphore(device, semaphore, pAllocator);
}

namespace {
// Before vkResetFences (latency on) / vkDestroyFence of the application's fences: the submissions
// they belong to are complete, and the tracker is out of any call on them (it never blocks in
// one). `destroyed`: their entries go too. Inline: once per frame of a frame loop.
[[gnu::always_inline]] inline void release_app_fences(DeviceState &dev, std::uint32_t count, const VkFence *fences,
                                                      bool destroyed) {
  std::lock_guard lock(dev.fence_mutex);
  for (std::uint32_t i = 0; i < count; ++i)
    if (FenceEntry *e = dev.fences.find(fences[i])) {
      if (e->watched) e->watched->released = true;
      if (destroyed)
        dev.fences.erase(fences[i]);
      else
        e->watched = nullptr;
    }
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL hook::ResetFences(VkDevice device, uint32_t fenceCount, const VkFence *pFences) {
  DeviceState *dev = device_of(per_thread(), key(device));
  // Latency off: no submission is tracked, the layer thread never touches a fence: no lock.
  if (dev->latency) release_app_fences(*dev, fenceCount, pFences, false);
  return dev->table.ResetFences(device, fenceCount, pFences);
}

VKAPI_ATTR void VKAPI_CALL hook::DestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks *pAllocator) {
  DeviceState *dev = device_of(per_thread(), key(device));
  if (fence != VK_NULL_HANDLE) release_app_fences(*dev, 1, &fence, true);
  dev->table.DestroyFence(device, fence, pAllocator);
}

// ---- the layer's own device extension, VK_NOVEM_queue_diagnostics ----

namespace {
constexpr VkExtensionProperties kOwnExtension = {VK_NOVEM_QUEUE_DIAGNOSTICS_EXTENSION_NAME,
                                                 VK_NOVEM_QUEUE_DIAGNOSTICS_SPEC_VERSION};
constexpr const char *kLayerName = VK_NOVEM_QUEUE_DIAGNOSTICS_LAYER_NAME;

void fill_stats(VkQueueDiagnosticsStatsNOVEM &out, const Histogram &h, double p) {
  out.count = h.count;
  out.minNs = h.min;
  out.meanNs = h.count ? h.sum / h.count : 0;
  out.maxNs = h.max;
  out.p50Ns = h.percentile(0.50);
  out.p99Ns = h.percentile(p);
}
void fill_wait(VkQueueDiagnosticsWaitNOVEM &out, const WaitStats &w) {
  out.calls = w.calls.load(std::memory_order_relaxed);
  out.blockedNs = w.blocked_ns.load(std::memory_order_relaxed);
}

// vkGetQueueDiagnosticsNOVEM: returned by vkGetDeviceProcAddr only for a device created with the
// extension enabled. The same numbers as the report, read the same way (relaxed atomics, the
// statistics under the queue's stats_mutex).
VKAPI_ATTR VkResult VKAPI_CALL get_queue_diagnostics(VkQueue queue, VkQueueDiagnosticsNOVEM *pDiagnostics) {
  if (!pDiagnostics || pDiagnostics->sType != VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM)
    return VK_ERROR_INITIALIZATION_FAILED;
  QueueState *q = Registry::get().queue(queue);
  if (!q) return VK_ERROR_INITIALIZATION_FAILED;
  VkQueueDiagnosticsNOVEM &d = *pDiagnostics;
  auto load = [](const Counter &c) { return c.load(std::memory_order_relaxed); };
  d.queueFamilyIndex = q->family;
  d.queueIndex = q->index;
  d.submits = load(q->submitted_seq);
  d.failedSubmits = load(q->failed_submits);
  d.batches = load(q->batches);
  d.commandBuffers = load(q->command_buffers);
  d.waitSemaphoresBinary = load(q->wait_binary);
  d.waitSemaphoresTimeline = load(q->wait_timeline);
  d.signalSemaphoresBinary = load(q->signal_binary);
  d.signalSemaphoresTimeline = load(q->signal_timeline);
  d.fences = load(q->fences);
  d.presents = load(q->presents);
  fill_wait(d.queueWaitIdle, q->queue_wait_idle);
  fill_wait(d.deviceWaitIdle, q->device_wait_idle);
  fill_wait(d.waitForFences, q->wait_for_fences);
  fill_wait(d.waitSemaphores, q->wait_semaphores_blocked);
  d.blockedNs = q->blocked_ns();
  const std::uint64_t submitted = load(q->submitted_seq);
  d.inFlight = submitted - std::min(submitted, q->known_complete());
  d.inFlightMax = load(q->in_flight_max);
  d.threadOverlaps = load(q->overlaps);
  std::lock_guard lock(q->stats_mutex);
  fill_stats(d.latency, q->latency, 0.99);
  fill_stats(d.presentIntervals, q->present_intervals, 0.99);
  d.gpuTimeCount = q->gpu_count;
  d.gpuTimeTotalNs = q->gpu_total;
  d.gpuTimeMaxNs = q->gpu_max;
  return VK_SUCCESS;
}
} // namespace

// With pLayerName = this layer: its one extension (the loader-layer interface: a layer "must
// handle the case where pLayerName is itself"). Anything else goes down the chain unchanged: with
// NULL, the loader itself adds the extensions of the implicit layers' manifests (so the
// layer must not add it again; tested in tests/layer).
VKAPI_ATTR VkResult VKAPI_CALL hook::EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                       const char *pLayerName,
                                                                       uint32_t *pPropertyCount,
                                                                       VkExtensionProperties *pProperties) {
  if (pLayerName && std::strcmp(pLayerName, kLayerName) == 0) {
    if (!pProperties) {
      *pPropertyCount = 1;
      return VK_SUCCESS;
    }
    if (*pPropertyCount < 1) return VK_INCOMPLETE;
    pProperties[0] = kOwnExtension;
    *pPropertyCount = 1;
    return VK_SUCCESS;
  }
  std::shared_ptr<InstanceState> inst = Registry::get().instance(key(physicalDevice));
  if (!inst) return VK_ERROR_INITIALIZATION_FAILED;
  return inst->table.EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
}

// ---- the lookups: the table is generated (novem_qd_intercepts.h, from intercepts.txt and vk.xml) ----

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL hook::GetInstanceProcAddr(VkInstance instance, const char *pName) {
  if (!pName) return nullptr;
  if (const Intercept *i = find_intercept(pName)) return i->hook;
  if (instance == VK_NULL_HANDLE) return nullptr;
  std::shared_ptr<InstanceState> inst = Registry::get().instance(key(instance));
  return inst ? inst->next_gipa(instance, pName) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL hook::GetDeviceProcAddr(VkDevice device, const char *pName) {
  if (!pName || device == VK_NULL_HANDLE) return nullptr;
  DeviceState *dev = device_of(per_thread(), key(device));
  if (!dev) return nullptr;
  // The layer's own extension command (not in vk.xml): only when the device enabled the extension.
  if (std::strcmp(pName, "vkGetQueueDiagnosticsNOVEM") == 0)
    return dev->diagnostics_extension ? reinterpret_cast<PFN_vkVoidFunction>(
                                            static_cast<PFN_vkGetQueueDiagnosticsNOVEM>(&get_queue_diagnostics))
                                      : nullptr;
  const Intercept *i = find_intercept(pName);
  if (i && (i->level == InterceptLevel::Device || std::strcmp(pName, "vkGetDeviceProcAddr") == 0)) {
    // Ours only where the chain below has it too (an extension command of an extension the
    // device was not created with stays NULL); these two always.
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0 || std::strcmp(pName, "vkDestroyDevice") == 0)
      return i->hook;
    // The debug-utils names and labels are recorded whether or not a driver below has them (the
    // loader implements the instance extension; the hooks call down only where there is a next).
    if (std::strstr(pName, "DebugUtils")) return i->hook;
    return dev->next_gdpa(device, pName) ? i->hook : nullptr;
  }
  return dev->next_gdpa(device, pName);
}

namespace {

// When the loader unloads the layer (after the last vkDestroyInstance) or at process exit.
__attribute__((destructor)) void on_unload() {
  Registry *registry = Registry::existing();
  if (!registry) return;
  bool any, instance_alive;
  std::vector<DeviceState *> live; // never destroyed: their threads must end before the registry does
  {
    std::shared_lock lock(registry->mutex);
    any = registry->instances_created > 0;
    instance_alive = !registry->instances.empty();
    for (const auto &d : registry->all_devices)
      if (!d->destroyed.load() && !d->inherited) live.push_back(d.get());
  }
  for (DeviceState *d : live) end_tracker(*d);
  if (any) write_outputs("unload"); // neither writes in a forked child: the files are the parent's
  close_trace();
  // The registry stays, and the process's end frees it, where deleting it is not safe: with an
  // instance alive this is the process's exit, and a thread the program never joined (a render or
  // submission thread) may still be calling the hooks through the pointers it fetched; a forked
  // child's registry holds its parent's devices, their threads gone and their locks perhaps held
  // for good (fork.cpp). Once the last instance is gone (the loader unloading the layer), nothing
  // valid can call in.
  if (instance_alive || registry->forked) return;
  delete registry;
  Registry::forget();
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
    pVersionStruct->pfnGetInstanceProcAddr = novem_qd::hook::GetInstanceProcAddr;
    pVersionStruct->pfnGetDeviceProcAddr = novem_qd::hook::GetDeviceProcAddr;
    pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
  }
  if (pVersionStruct->loaderLayerInterfaceVersion > 2) pVersionStruct->loaderLayerInterfaceVersion = 2;
  return VK_SUCCESS;
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                              const char *pName) {
  return novem_qd::hook::GetInstanceProcAddr(instance, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *pName) {
  return novem_qd::hook::GetDeviceProcAddr(device, pName);
}

} // extern "C"
