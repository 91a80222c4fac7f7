// The layer's state: one InstanceState per VkInstance, one DeviceState per VkDevice, one QueueState
// per VkQueue, found through maps guarded by a single reader/writer lock (held only for the
// lookup, never across a call down the chain). The counters of a queue are relaxed atomics, so
// any number of threads may count into them at once without a lock.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <ctime>
#include <deque>
#include <thread>
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

#include "clock.hpp"
#include "labels.hpp"
#include "proofs.hpp"
#include "settings.hpp"
#include "sync.hpp"

namespace novem_qd {

using Counter = std::atomic<std::uint64_t>;

// Calls and CPU time spent blocked in one kind of wait.
struct WaitStats {
  Counter calls{0};
  Counter blocked_ns{0};
  void add(std::uint64_t ns) {
    calls.fetch_add(1, std::memory_order_relaxed);
    blocked_ns.fetch_add(ns, std::memory_order_relaxed);
  }
};

// A log-linear histogram of nanosecond values: exact below 64, then 64 buckets per power of two
// (relative error under 1/64), so percentiles need no stored samples. Not thread-safe: guarded by
// the owning queue's stats_mutex.
struct Histogram {
  static constexpr std::size_t kBuckets = 64 * 59;
  std::vector<std::uint64_t> buckets = std::vector<std::uint64_t>(kBuckets, 0);
  std::uint64_t count = 0, sum = 0, min = 0, max = 0;
  static std::size_t index(std::uint64_t v);
  static std::uint64_t upper(std::size_t i); // the largest value of bucket i
  void add(std::uint64_t v);
  std::uint64_t percentile(double p) const; // a bucket's upper bound, clamped to [min, max]
};

// The most recent `capacity` items pushed (older ones dropped and counted), for the report; with
// `streamed` set, every item pushed is also kept in `unwritten` until the trace takes it (take_unwritten),
// so that the trace file holds the whole run while the ring stays bounded. capacity 0: no events at
// all. Not thread-safe: guarded by its owner's mutex.
template <class T> struct Ring {
  std::vector<T> items; // oldest first once read with for_each
  std::size_t head = 0; // where the next push goes once full
  std::size_t capacity = 0;
  std::uint64_t dropped = 0;
  bool streamed = false;
  std::vector<T> unwritten; // pushed since the trace last took them (streamed only)
  void push(const T &v) {
    if (capacity == 0) return;
    if (streamed) unwritten.push_back(v);
    if (items.size() < capacity) {
      items.push_back(v);
      return;
    }
    items[head] = v;
    head = (head + 1) % capacity;
    ++dropped;
  }
  template <class F> void for_each(F f) const {
    for (std::size_t i = 0; i < items.size(); ++i) f(items[(head + i) % items.size()]);
  }
  // Swaps the unwritten items into `out` (empty: the vectors trade their capacity, no allocation).
  void take_unwritten(std::vector<T> &out) { unwritten.swap(out); }
};

// A completed submission, for the report's "submissions" and the trace (recorded by the tracker).
struct SubmissionEvent {
  std::uint64_t seq = 0, submit_ns = 0, complete_ns = 0;
  std::uint32_t batches = 0, command_buffers = 0, wait_semaphores = 0, signal_semaphores = 0;
  bool v2 = false;
  bool sparse = false; // vkQueueBindSparse
  bool gpu_measured = false;
  std::uint64_t gpu_ns = 0;                       // sum over the timed batches
  std::uint64_t gpu_begin_ns = 0, gpu_end_ns = 0; // device clock (ticks x period): first begin, last end
  // The application's debug-utils names and labels of the submission, as JSON members (leading
  // ", "; labels.hpp, label_members): empty while the application named and labelled nothing.
  std::string labels;
};

// A wait the application's thread spent blocked (vkQueueWaitIdle, vkDeviceWaitIdle, vkWaitForFences,
// vkWaitSemaphores), for the report's "waits" and the trace.
struct WaitEvent {
  const char *call = "";
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t thread = 0;
};

// One report of the same VkQueue used from two threads at once.
struct Overlap {
  std::uint64_t thread = 0, other_thread = 0; // Linux thread ids (gettid)
  const char *call = "", *other_call = "";    // the entry points each was in
};

// The current thread's Linux thread id.
std::uint64_t thread_id();

struct QueueState;
struct DeviceState;
struct FenceUse;
class TraceStream;

// What the layer keeps per application thread, reached with one TLS lookup per intercepted call
// (a layer is a dlopen()ed library: each access to a thread_local costs a __tls_get_addr call).
struct PerThread {
  std::uint64_t tid = 0; // gettid(), 0 until asked
  // The last queue looked up (layer.cpp), valid while Registry::generation is unchanged.
  VkQueue cached_queue = VK_NULL_HANDLE;
  QueueState *cached_state = nullptr;
  std::uint64_t cached_generation = 0;
  // The last device looked up by dispatch key (device_of), valid on the same terms: the wait and
  // fence hooks of a frame would otherwise take the registry's reader lock each.
  void *cached_device_key = nullptr;
  DeviceState *cached_device = nullptr;
  std::uint64_t cached_device_generation = 0;
  // Scratch copies of a submission call's batches (GPU timestamps), kept to avoid allocations;
  // used only during the call down, which never comes back into the layer on this thread.
  std::vector<VkSubmitInfo> infos;
  std::vector<VkCommandBuffer> wrapped;
  std::vector<VkSubmitInfo2> infos2;
  std::vector<VkCommandBufferSubmitInfo> wrapped2;
  // Scratch lists of the wait hooks (layer.cpp), kept so that a wait allocates nothing: the
  // fences' submissions, the queues a wait is attributed to.
  std::vector<FenceUse> fence_uses;
  std::vector<QueueState *> wait_queues;
  std::vector<FenceUse> wait_proofs; // per queue, the latest submission a semaphore wait proves
  std::uint64_t thread_id() { return tid != 0 ? tid : (tid = gettid_now()); } // inline: twice per frame
  static std::uint64_t gettid_now();
  ~PerThread();
};
// The calling thread's PerThread, once per_thread_slow() has made it. The initial-exec model: an
// access is one load relative to the thread pointer, where the default model of a shared library
// calls __tls_get_addr. Such variables take room in the static TLS block that glibc keeps for
// libraries loaded later, which is small: hence one pointer, not the PerThread itself.
extern constinit thread_local PerThread *t_per_thread __attribute__((tls_model("initial-exec")));
PerThread &per_thread_slow();
inline PerThread &per_thread() {
  PerThread *pt = t_per_thread;
  return pt ? *pt : per_thread_slow();
}

struct Submission;
struct TimestampPool;

// Where the tracker thread is (DeviceState::tracker_sleep): which submissions wake it.
enum class TrackerSleep : std::uint8_t {
  awake,   // none: it sees them at its next pass
  polling, // none: it naps a poll period while the application's waits prove what completes
  napping, // those with a fence of the layer's own
  idle,    // all
};

struct QueueState {
  DeviceState *device = nullptr;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t family = 0;
  std::uint32_t index = 0;
  VkDeviceQueueCreateFlags create_flags = 0;
  VkQueueFlags family_flags = 0;
  // The family's timestamp command buffers (nullptr: this queue's batches are not timed); set
  // before the tracker starts, fixed after.
  TimestampPool *timestamp_pool = nullptr;

  Counter submit_calls_v1{0};  // of which vkQueueSubmit
  Counter submit_calls_v2{0};  // of which vkQueueSubmit2 / vkQueueSubmit2KHR
  Counter submit_calls_sparse{0}; // of which vkQueueBindSparse (counted as submissions throughout)
  Counter failed_submits{0};   // calls that returned an error (not counted above)
  Counter batches{0};          // VkSubmitInfo / VkSubmitInfo2
  Counter command_buffers{0};
  Counter wait_binary{0}, wait_timeline{0};
  Counter signal_binary{0}, signal_timeline{0};
  Counter fences{0};           // submissions that carried a fence
  Counter gpu_unmeasured_batches{0}; // batches with command buffers not timed
  Counter gpu_skipped_batches{0};    // of which in submissions timestamp_every left out
  std::atomic<std::uint64_t> timing_turn{0}; // submissions seen by the timestamp_every count
  std::atomic<std::uint64_t> last_timed_ns{0}; // the submit time of the last timed submission (0: none yet)
  Counter presents{0};         // vkQueuePresentKHR calls
  Counter present_swapchains{0};
  WaitStats queue_wait_idle, device_wait_idle, wait_for_fences;
  WaitStats wait_semaphores_blocked; // vkWaitSemaphores on timeline values this queue's submissions signal
  std::atomic<std::uint64_t> last_present_ns{0}; // the previous successful vkQueuePresentKHR, 0: none

  // Work in flight, as far as the layer can tell without a thread of its own: every successful
  // submission takes the next sequence number; a wait that proves completion (vkQueueWaitIdle,
  // vkDeviceWaitIdle, a fence known to be signalled) raises `completed` to the number it proves.
  // submitted_seq is also the report's "submits" (successful vkQueueSubmit + vkQueueSubmit2(KHR)
  // + vkQueueBindSparse calls).
  Counter submitted_seq{0};
  Counter completed_seq{0};
  // Raises completed_seq to `seq` (never lowers it). Release: a proof logged before (layer.cpp,
  // prove_complete) is seen by whoever sees the submissions complete (tracker.cpp, proven).
  void complete_up_to(std::uint64_t seq) {
    std::uint64_t cur = completed_seq.load(std::memory_order_relaxed);
    while (cur < seq && !completed_seq.compare_exchange_weak(cur, seq, std::memory_order_release,
                                                             std::memory_order_relaxed)) {
    }
  }
  bool in_flight() const {
    return submitted_seq.load(std::memory_order_relaxed) > completed_seq.load(std::memory_order_relaxed);
  }
  // When waits proved them (latency on): the tracker's completion times of the submissions under
  // the application's fences.
  ProofLog proofs;

  // Step 2. Completion as the layer's own thread observed it (fences of the layer's own): raised by
  // the device's tracker thread only. `in_flight_max` is submitted minus known complete (either
  // way), sampled after each submission.
  Counter observed_seq{0};
  Counter in_flight_max{0};
  std::uint64_t known_complete() const {
    return std::max(completed_seq.load(std::memory_order_relaxed), observed_seq.load(std::memory_order_relaxed));
  }

  // Queue thread-safety: the thread inside a call on this queue (0: none), and what it called.
  std::atomic<std::uint64_t> in_use_thread{0};
  std::atomic<const char *> in_use_call{nullptr};
  Counter overlaps{0};

  Lock stats_mutex;       // guards the statistics and rings below; never held across a call down
  Histogram latency;      // submit -> complete, ns, per submission
  std::uint64_t gpu_count = 0, gpu_total = 0, gpu_max = 0; // GPU time per submission, ns
  std::vector<Overlap> overlap_list;                       // the first kMaxOverlaps
  static constexpr std::size_t kMaxOverlaps = 16;
  Histogram present_intervals;                             // ns between successive presents
  Ring<SubmissionEvent> submission_events;                 // the latest completed submissions
  Ring<WaitEvent> wait_events;                             // the latest waits attributed to this queue
  Ring<std::uint64_t> present_events;                      // the latest present times (ns)
  // The tracker thread's own: this queue's pending submissions in submit order (they complete in
  // that order), so that each pass looks at the oldest of each queue only.
  std::deque<Submission *> tracker_pending;

  // The blocked time of every wait kind, summed.
  std::uint64_t blocked_ns() const {
    return queue_wait_idle.blocked_ns.load(std::memory_order_relaxed) +
           device_wait_idle.blocked_ns.load(std::memory_order_relaxed) +
           wait_for_fences.blocked_ns.load(std::memory_order_relaxed) +
           wait_semaphores_blocked.blocked_ns.load(std::memory_order_relaxed);
  }
};

// Which submission of which queue a fence was last submitted with.
struct FenceUse {
  QueueState *queue = nullptr; // nullptr: none
  std::uint64_t seq = 0;
};

// What the layer knows of one of the application's fences (DeviceState::fences).
struct FenceEntry {
  FenceUse use;                   // for the wait hooks' attribution
  Submission *watched = nullptr;  // the tracked submission the tracker polls it for (latency on)
};

// The application's fences (DeviceState::fences): a map, with a direct-mapped cache in front, so
// that the few fences of a frame loop are found without hashing (an unordered_map's entries stay
// where they are until erased). Guarded by its owner's fence_mutex.
class FenceMap {
public:
  // The fence's entry, or nullptr.
  FenceEntry *find(VkFence f) {
    Slot &s = slot(f);
    if (s.fence == f) return s.entry; // an empty slot: VK_NULL_HANDLE, never an entry's key
    auto it = map_.find(f);
    if (it == map_.end()) return nullptr;
    s = {f, &it->second};
    return s.entry;
  }
  // The fence's entry, made where there is none; `f` is not VK_NULL_HANDLE.
  FenceEntry &operator[](VkFence f) {
    Slot &s = slot(f);
    if (s.fence == f) return *s.entry;
    FenceEntry &e = map_[f];
    s = {f, &e};
    return e;
  }
  void erase(VkFence f) {
    if (Slot &s = slot(f); s.fence == f) s = {};
    map_.erase(f);
  }
  void clear() {
    map_.clear();
    cache_ = {};
  }

private:
  struct Slot {
    VkFence fence = VK_NULL_HANDLE;
    FenceEntry *entry = nullptr;
  };
  static constexpr unsigned kSlotBits = 3;
  static constexpr std::size_t kSlots = std::size_t{1} << kSlotBits;
  Slot &slot(VkFence f) { // Fibonacci hashing: the top bits of the handle times 2^64 / phi
    return cache_[(reinterpret_cast<std::uintptr_t>(f) * 0x9E3779B97F4A7C15u) >> (64 - kSlotBits)];
  }
  std::array<Slot, kSlots> cache_{};
  std::unordered_map<VkFence, FenceEntry> map_;
};

// A semaphore of a submission, for the dumps.
struct SemRef {
  VkSemaphore semaphore = VK_NULL_HANDLE;
  std::uint64_t value = 0;
  bool timeline = false;
};

// One submission (vkQueueSubmit / vkQueueSubmit2 call) the tracker thread waits for.
struct Submission {
  QueueState *queue = nullptr;
  std::uint64_t seq = 0;
  std::uint64_t stamp = 0;     // taken just before the call down (DeviceState::clock)
  std::uint64_t submit_ns = 0; // the stamp in CLOCK_MONOTONIC, from drain_incoming on
  const char *call = "";
  VkFence fence = VK_NULL_HANDLE; // the layer's own (not submitted when the application passed one)
  // The application's fence of this submission, which the tracker polls instead of waiting on its
  // own (no second, empty submit for a fence of the layer's). Once the application resets or destroys it
  // (the submission is then complete: valid usage), `released` is set, under the device's
  // fence_mutex, and the tracker never touches that fence again.
  VkFence app_fence = VK_NULL_HANDLE;
  bool released = false;
  // The application's fence's attribution, registered with the watch before the call down: the
  // sequence number this submission takes if it succeeds (0: none registered), and what it replaced
  // (restored if the call fails).
  std::uint64_t registered_seq = 0;
  FenceUse replaced_use;
  std::vector<VkCommandBuffer> command_buffers; // the application's
  std::vector<SemRef> waits, signals;
  std::vector<std::string> queue_labels; // the queue's open debug-utils labels at the call, outermost first
  std::string labels; // the names and labels at the call, for the events (SubmissionEvent::labels)
  TimestampPool *timestamps = nullptr;
  std::vector<std::uint32_t> slots; // timestamp slots (one per timed batch)
  std::uint32_t batches = 0;        // for the event (SubmissionEvent)
  bool v2 = false;
  bool sparse = false;              // vkQueueBindSparse
  bool watchdog_reported = false;   // in a dump already; touched by the tracker thread only
  Submission *next_incoming = nullptr; // DeviceState::incoming's link
  std::atomic<Submission *> stack_next{nullptr}; // DeviceState::free_submissions' link
  std::atomic<bool> done{false};    // seen complete (set by the tracker thread)
};

// The layer's timestamp command buffers of one queue family: slot i is a pre-recorded pair,
// begin[i] = {reset queries 2i, 2i+1; timestamp 2i at TOP_OF_PIPE} and end[i] = {timestamp 2i+1
// at BOTTOM_OF_PIPE; copy both results (WAIT) to results[2i..2i+1]; barrier transfer -> host},
// recycled once the submission that used them is complete. The results are read from the mapped
// buffer, never with vkGetQueryPoolResults (lavapipe's waits for the whole queue to drain).
struct TimestampPool {
  std::uint32_t family = 0;
  std::uint64_t valid_mask = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;       // 2 * kSlots uint64, host visible and coherent
  VkDeviceMemory memory = VK_NULL_HANDLE;
  volatile std::uint64_t *results = nullptr; // mapped
  std::vector<VkCommandBuffer> begin, end;
  static constexpr std::uint32_t kSlots = 128;
  // Bit i of free_mask[i / 64] set: slot i is free. Taken and returned with atomic operations, so
  // the submit path takes no lock for its slots.
  std::atomic<std::uint64_t> free_mask[kSlots / 64] = {};
};

struct InstanceState {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next_gipa = nullptr;
  NovemQdInstance table{};
};

// A timeline value a submission signals: vkWaitSemaphores on it is attributed to `queue`.
struct TimelineSignal {
  std::uint64_t value = 0;
  QueueState *queue = nullptr;
  std::uint64_t seq = 0; // the submission's sequence number on `queue`: a wait that sees the value proves it
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
  // Created before this process was forked from its parent (fork.cpp): the layer thread and the
  // locks held at the fork are the parent's, so this process never ends or reports the device.
  bool inherited = false;

  WaitStats device_wait_idle;            // every vkDeviceWaitIdle, attributed or not
  WaitStats wait_for_fences_unattributed; // vkWaitForFences on fences no known submission carried
  WaitStats wait_semaphores_unattributed; // vkWaitSemaphores on values no known submission signals
  bool diagnostics_extension = false;     // VK_NOVEM_queue_diagnostics enabled (fixed after vkCreateDevice)
  bool thread_safety = true, latency = true; // the settings of the same names, read once (hot path)
  bool fault_enabled = false;             // VK_EXT_device_fault enabled, by the application or the layer (fault.hpp)
  Lock events_mutex;                      // guards unattributed_waits
  Ring<WaitEvent> unattributed_waits;     // waits no queue got, for the trace

  std::vector<std::unique_ptr<QueueState>> queues; // guarded by the global lock (rarely grows)

  Lock sync_mutex; // guards the two maps below; held across a call down only by dump.cpp's read_values
  std::unordered_set<VkSemaphore> timeline_semaphores;
  // Per timeline semaphore, the latest values submissions signal (at most kMaxSignals, oldest dropped).
  std::unordered_map<VkSemaphore, std::deque<TimelineSignal>> timeline_signals;
  static constexpr std::size_t kMaxSignals = 64;

  // Step 2: the tracker thread (tracker.cpp) and what it needs.
  PFN_vkSetDeviceLoaderData set_loader_data = nullptr;
  float timestamp_period = 1.0f;
  std::uint64_t timestamp_every = 1; // one submission in this many is timed (Settings::timestamp_every)
  std::uint64_t timestamp_gap_ns = 0; // and none this soon after the queue's last timed one
  std::unordered_map<std::uint32_t, std::unique_ptr<TimestampPool>> timestamp_pools; // fixed after creation
  // Submissions handed over by the application's threads, newest first: a lock-free list the
  // tracker moves into `pending` (under track_mutex), so a submit call never waits for the tracker.
  std::atomic<Submission *> incoming{nullptr};
  // The tracker sleeps on `wakeups` (a futex): with nothing in flight, a nap that a submission with
  // a fence of the layer's own ends, then an idle sleep that any submission ends (track()); and
  // for its poll period while it polls. A submitting thread bumps the word, and makes the system
  // call only while `tracker_sleep` says that sleep is for it: a submit takes no lock, and no
  // system call while the tracker is busy.
  std::atomic<TrackerSleep> tracker_sleep{TrackerSleep::awake};
  std::atomic<std::uint32_t> wakeups{0};
  static_assert(sizeof(std::atomic<std::uint32_t>) == 4 && std::atomic<std::uint32_t>::is_always_lock_free);
  std::mutex track_mutex; // guards the three below and `stop`; never held across a call down
  StampClock clock; // stamp() on any thread; sync() and to_ns() under track_mutex
  std::deque<Submission *> pending; // submitted, not yet seen complete, in submit order (owned by `records`)
  // The application's fences: the submission each was last submitted with (the wait hooks'
  // attribution) and the one the tracker polls it for. One map under one lock, so that a tracked
  // submit registers both at once, before its call down (watch_app_fence). vkResetFences and
  // vkDestroyFence release a fence here before their call down, so the tracker never uses a fence
  // the application is changing: it holds the mutex across vkGetFenceStatus of such a fence (which
  // does not block) and never waits on one. An entry lives until vkDestroyFence: the next frame's
  // submit with the fence allocates no node.
  Lock fence_mutex;
  FenceMap fences;
  // Every submission record of the device, for its life (a record is reused, never freed before
  // stop_tracking: TaggedStack's condition); grows only when no free record is left.
  std::mutex records_mutex;
  std::vector<std::unique_ptr<Submission>> records;
  // Completed submissions, kept for reuse with their (reset) fence and their vectors' capacity:
  // after warm-up a submission call allocates nothing. Lock-free: taken by the application's
  // threads, returned by the layer thread (and by a submit call that failed).
  TaggedStack<Submission> free_submissions;
  bool have_done = false; // the tracker's own: completed submissions still in `pending`
  std::size_t dispatched = 0; // the tracker's own: entries at the front of `pending` in their queue's tracker_pending
  bool stop = false;
  std::thread tracker;
  // The tracker's CPU time (the report's layer_thread_cpu_ns): its clock while it runs, its total
  // once it ended; under track_mutex, so that the clock is never read after the thread is gone.
  bool tracker_running = false;
  clockid_t tracker_clock{};
  std::uint64_t tracker_cpu_final = 0;
  std::atomic<bool> device_lost{false};
  Counter watchdog_dumps{0};
  // The watchdog's own: submissions completed, and their number at its last dump. A hang lasts
  // until the device completes something: no second dump before that (dump.cpp).
  std::uint64_t completions = 0, completions_at_dump = 0;
  bool watchdog_dumped = false;

  DebugLabels labels; // VK_EXT_debug_utils names and labels (labels.cpp)

  bool is_timeline(VkSemaphore s) {
    std::lock_guard lock(sync_mutex);
    return timeline_semaphores.count(s) != 0;
  }
};

// The dispatch key of a dispatchable handle: the loader's dispatch table pointer it starts with.
template <class T> void *key(T handle) { return *reinterpret_cast<void **>(handle); }

class Registry {
public:
  // Created on first use and deleted by the library's destructor (layer.cpp's on_unload) after the
  // last report: not a static object, whose destructor could run before that report is written.
  // The atomic load is the fast path (std::call_once costs a lock-free but not free check per call).
  static Registry &get() {
    if (Registry *r = instance_.load(std::memory_order_acquire)) return *r;
    return create();
  }
  // For the library's destructor: the registry if one was made, and forgetting it once deleted.
  static Registry *existing() { return instance_.load(); }
  static void forget() { instance_.store(nullptr); }

  std::shared_mutex mutex;
  std::unordered_map<void *, std::shared_ptr<InstanceState>> instances;
  std::unordered_map<void *, std::shared_ptr<DeviceState>> devices;
  std::unordered_map<VkQueue, QueueState *> queues;
  std::vector<std::shared_ptr<DeviceState>> all_devices; // live and destroyed, for the report
  // Bumped (under the write lock) whenever queues leave `queues` and devices `devices`: invalidates
  // the per-thread lookup caches (layer.cpp), as a destroyed device's handles may be reused.
  std::atomic<std::uint64_t> generation{1};
  std::uint32_t next_device_id = 0;
  std::uint32_t instances_created = 0;
  std::mutex report_mutex; // one writer of the report at a time

  // The process's settings, read at the first call (the first vkCreateInstance, whose
  // VK_EXT_layer_settings count); they live as long as the registry, so that the report and the
  // trace written when the library is unloaded still have their paths. The trace file is opened
  // then too (trace_path cleared where it cannot be).
  const Settings &settings_for(const VkInstanceCreateInfo *ci);
  // The open trace file (trace.cpp), or nullptr: no trace. Set with the settings, ended at unload.
  TraceStream *trace() const { return forked ? nullptr : trace_.get(); }
  // This process was forked from the one that made the registry (fork.cpp). Its files (report,
  // trace, dumps) are the parent's: this process writes none of them.
  bool forked = false;

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

private:
  static Registry &create();
  static inline std::atomic<Registry *> instance_{nullptr};
  std::once_flag settings_once_;
  Settings settings_;
  std::shared_ptr<TraceStream> trace_; // shared_ptr: deleted here, defined in trace.cpp
};

// The device of a dispatch key, through the thread's one-entry cache (nullptr: unknown).
DeviceState *device_lookup(PerThread &pt, void *dispatch_key, std::uint64_t generation);
inline DeviceState *device_of(PerThread &pt, void *dispatch_key) {
  const std::uint64_t generation = Registry::get().generation.load(std::memory_order_acquire);
  if (pt.cached_device_key == dispatch_key && pt.cached_device_generation == generation) return pt.cached_device;
  return device_lookup(pt, dispatch_key, generation);
}

// Writes the JSON report (all devices seen so far) to the configured path; `reason` says what
// triggered it. Safe to call from any thread; calls nothing down the chain.
void write_report(const char *reason);
// ---- the trace file (trace.cpp) ----

// Creates (truncates) the trace file and starts its event array; nullptr, after one line on stderr
// with the system's reason, where it cannot be written. Called once, with the settings.
std::shared_ptr<TraceStream> open_trace(const std::string &path);
// Appends the events `dev` recorded since the last call to the trace file (its layer thread calls
// it every kTraceFlushNs; the report triggers and vkDestroyDevice too). Any thread; no call down.
void flush_trace(DeviceState &dev);
// The same for every device.
void flush_trace();
// Ends the event array: the file is whole JSON from then on, and nothing more is appended. At unload.
void close_trace();
// How often a device's layer thread appends its events to the trace file.
inline constexpr std::uint64_t kTraceFlushNs = 100000000;
// The report written and every device's events appended to the trace: what every report trigger does.
void write_outputs(const char *reason);
// Writes `text` to a temporary file beside `path`, then renames it over `path`.
bool write_file_atomically(const std::string &path, const std::string &text);
std::string json_quoted(const std::string &s);

// ---- step 2 (tracker.cpp) ----

// After vkCreateDevice: the timestamp pools and the tracker thread.
void start_tracking(DeviceState &dev, const std::vector<VkQueueFamilyProperties> &families,
                    const VkPhysicalDeviceMemoryProperties &memory);
// Before vkDestroyDevice (and at unload for devices never destroyed): stops the thread, completes
// what is complete, releases the layer's objects.
void stop_tracking(DeviceState &dev);
// The CPU time the device's tracker thread has used, ns (0 where there is none).
std::uint64_t tracker_cpu_ns(DeviceState &dev);
// A record for a tracked submission (latency on), reset, with a fence of the layer's own,
// unsignalled (its `fence` is VK_NULL_HANDLE if none could be created).
Submission *take_submission_slow(DeviceState &dev, Submission *reused);
inline Submission *take_submission(DeviceState &dev) {
  Submission *s = dev.free_submissions.pop(); // reset by recycle()
  if (s && s->fence != VK_NULL_HANDLE) return s;
  return take_submission_slow(dev, s);
}
// A record whose fence was never submitted (or is unsignalled again): back to the free list.
void recycle(DeviceState &dev, Submission *s);
// A free timestamp slot of `pool`, or UINT32_MAX. Inline: once per timed batch of every submit.
inline std::uint32_t take_slot(TimestampPool &pool) {
  for (std::uint32_t w = 0; w < TimestampPool::kSlots / 64; ++w) {
    std::uint64_t mask = pool.free_mask[w].load(std::memory_order_relaxed);
    while (mask != 0) // the lowest free slot of the word, cleared (mask & (mask - 1))
      if (pool.free_mask[w].compare_exchange_weak(mask, mask & (mask - 1), std::memory_order_acquire,
                                                  std::memory_order_relaxed))
        return 64 * w + static_cast<std::uint32_t>(std::countr_zero(mask)); // its results are zero (return_slots)
  }
  return UINT32_MAX;
}

void return_slots(TimestampPool &pool, const std::vector<std::uint32_t> &slots);
// Bumps the device's `wakeups` and wakes its tracker thread from its futex wait.
void wake_thread(DeviceState &dev);
// Whether so few of `pool`'s slots are free that the tracker should return the completed
// submissions' now rather than at its next poll (up to 8 ms away, in which a fast loop of timed
// submissions would take the rest, and its batches would go unmeasured).
inline bool low_on_slots(const TimestampPool &pool) {
  int free = 0;
  for (const auto &word : pool.free_mask) free += std::popcount(word.load(std::memory_order_relaxed));
  return free < static_cast<int>(TimestampPool::kSlots / 4);
}
// Hands a successful submission to the tracker thread. Inline: once per submit.
inline void track(DeviceState &dev, Submission *node) {
  node->next_incoming = dev.incoming.load(std::memory_order_relaxed);
  while (!dev.incoming.compare_exchange_weak(node->next_incoming, node)) {
  }
  // seq_cst with the tracker's mode and its load of `incoming`: either it sees this submission
  // before it sleeps, or this sees the mode (tracker_main). A busy, polling or napping tracker
  // sees it within its poll period (1 to 8 ms), unless the timestamp slots run low.
  const TrackerSleep sleep = dev.tracker_sleep.load();
  if (sleep == TrackerSleep::idle || (sleep == TrackerSleep::napping && node->app_fence == VK_NULL_HANDLE) ||
      (sleep != TrackerSleep::awake && node->timestamps && low_on_slots(*node->timestamps)))
    wake_thread(dev);
}
// Stops the device's tracker thread and waits for it to end (vkDestroyDevice, unload).
void end_tracker(DeviceState &dev);
// Moves the handed-over submissions into dev.pending, in submit order; track_mutex held.
void drain_incoming(DeviceState &dev);
// An intercepted call returned VK_ERROR_DEVICE_LOST: dump every submission in flight (once per
// device). `queue`: the queue the call was on (nullptr for a device-level call), the calling thread
// is the failing one.
void on_device_lost(DeviceState &dev, const char *call, const QueueState *queue = nullptr);

// ---- the dumps (dump.cpp) ----

// Writes a numbered dump of every submission of `dev` in flight (never over an earlier one) and its
// stderr line; `reason` is "watchdog" or "device_lost", `call` the entry point that returned
// VK_ERROR_DEVICE_LOST (or ""), `queue` its queue (or nullptr).
void write_dump(DeviceState &dev, const char *reason, const char *call, const QueueState *queue);
// The tracker's watchdog pass over `dev`'s pending submissions at `now` (tracker thread only).
void run_watchdog(DeviceState &dev, std::uint64_t now);
// Records one overlap (both threads) in the queue's report and prints it on stderr (capped).
void report_overlap(QueueState &q, const Overlap &o);

} // namespace novem_qd
