// Step 2 of the layer: one tracker thread per device that waits on fences of the layer's own (one
// per submission; the application's own fence, where it passed one, is polled instead), so that the
// application's thread never waits for it. On completion it records
// submit -> complete latency, reads the GPU timestamps the layer's own command buffers wrote around
// each batch, recycles the fence and the timestamp slots; it also runs the watchdog (dump.cpp) and
// the periodic stderr summary, and appends the device's events to the trace file (trace.cpp) every
// kTraceFlushNs. The thread-safety reports are here.
//
// Locks: track_mutex guards the pending list; stats_mutex a queue's statistics. Submissions reach
// the tracker through a lock-free list (track()), and go back to the submitting threads through
// another (the device's free_submissions, a TaggedStack).
// Neither is held across a call down the chain: the thread works on a snapshot of pointers (only
// it removes submissions from the list, so they stay alive while it works).
#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "state.hpp"

namespace novem_qd {

namespace {

constexpr const char *kPrefix = "VK_LAYER_NOVEM_queue_diagnostics";
constexpr std::uint64_t kMs = 1000000;           // ns per ms
constexpr std::uint64_t kPollNs = 1000000;       // the thread's fence wait: 1 ms at most
constexpr std::uint64_t kMaxPollNs = 8000000;    // its poll period while the application proves completions
// Backed off, the period doubles after a pass that completed fewer than kBusyPass / 4 submissions,
// and halves (down to kBusyPollNs) after one that completed more than kBusyPass: each submission
// between two passes holds a record and a fence until the next, and a stream of thousands per
// period cycles through so many that the submitting thread finds them out of its caches (the
// figures in docs/performance.md, "A stream of submissions"). A frame loop's few submissions per
// period keep it at kMaxPollNs.
constexpr std::uint32_t kBusyPass = 256;
constexpr std::uint64_t kBusyPollNs = 2000000;
constexpr std::uint64_t kIdleWaitNs = 100000000; // the thread's sleep when nothing is in flight
constexpr std::uint64_t kTriggerPollNs = 50000000; // how often the trigger file is looked for

std::string ms_text(std::uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

// ---- the tracker thread ----

// Sleeps until `word` is no longer `seen`, a futex wake on it, or `ns` pass.
std::uint64_t clock_ns(clockid_t clock) {
  timespec t{};
  if (clock_gettime(clock, &t) != 0) return 0;
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

void futex_wait(std::atomic<std::uint32_t> &word, std::uint32_t seen, std::uint64_t ns) {
  const timespec timeout{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&word), FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
}

// A completed submission: latency, GPU time, its slots and (after vkResetFences) its fence back.
void complete(DeviceState &dev, Submission &s, std::uint64_t now) {
  // Never before its submission: a stamp's conversion (clock.hpp) may be off by a reference
  // point's error, more than an empty submission proved at once takes.
  now = std::max(now, s.submit_ns);
  SubmissionEvent ev;
  ev.seq = s.seq;
  ev.submit_ns = s.submit_ns;
  ev.complete_ns = now;
  ev.batches = s.batches;
  ev.command_buffers = static_cast<std::uint32_t>(s.command_buffers.size());
  ev.wait_semaphores = static_cast<std::uint32_t>(s.waits.size());
  ev.signal_semaphores = static_cast<std::uint32_t>(s.signals.size());
  ev.v2 = s.v2;
  ev.sparse = s.sparse;
  ev.labels = s.labels;
  auto ns = [&](std::uint64_t ticks) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(ticks) * dev.timestamp_period));
  };
  if (s.timestamps) {
    TimestampPool &tp = *s.timestamps;
    for (std::uint32_t slot : s.slots) {
      // Written by the end command buffer (vkCmdCopyQueryPoolResults) before the fence signalled.
      const std::uint64_t b = tp.results[2 * slot] & tp.valid_mask, e = tp.results[2 * slot + 1] & tp.valid_mask;
      if (b != 0 && e >= b) {
        ev.gpu_ns += ns(e - b);
        if (!ev.gpu_measured) ev.gpu_begin_ns = ns(b);
        ev.gpu_end_ns = ns(e);
        ev.gpu_measured = true;
      }
    }
    return_slots(tp, s.slots);
  }
  QueueState &q = *s.queue;
  {
    std::lock_guard lock(q.stats_mutex);
    q.latency.add(now - std::min(now, s.submit_ns));
    if (ev.gpu_measured) {
      ++q.gpu_count;
      q.gpu_total += ev.gpu_ns;
      q.gpu_max = std::max(q.gpu_max, ev.gpu_ns);
    }
    q.submission_events.push(ev);
  }
  std::uint64_t cur = q.observed_seq.load(std::memory_order_relaxed);
  while (cur < s.seq && !q.observed_seq.compare_exchange_weak(cur, s.seq, std::memory_order_relaxed)) {
  }
  if (s.app_fence != VK_NULL_HANDLE) { // the layer's own fence was not submitted: still unsignalled
    std::lock_guard lock(dev.fence_mutex);
    if (FenceEntry *e = dev.fences.find(s.app_fence); e && e->watched == &s) e->watched = nullptr;
  } else if (dev.table.ResetFences(dev.device, 1, &s.fence) != VK_SUCCESS) {
    dev.table.DestroyFence(dev.device, s.fence, nullptr);
    s.fence = VK_NULL_HANDLE;
  }
  s.done.store(true, std::memory_order_relaxed);
  ++dev.completions;
}

// Whether a submission's fence is signalled: the layer's own, or the application's while it has not
// reset or destroyed it (released: complete, unless the device was lost before: a program destroys
// its fences after a loss too).
VkResult fence_status(DeviceState &dev, const Submission &s) {
  if (s.app_fence == VK_NULL_HANDLE) return dev.table.GetFenceStatus(dev.device, s.fence);
  std::lock_guard lock(dev.fence_mutex);
  if (s.released) return dev.device_lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
  return dev.table.GetFenceStatus(dev.device, s.app_fence);
}

// Whether a submission is known complete without asking the driver: a wait of the application's
// proved it (its queue's completed_seq), and with it that its fence signalled.
bool proven(const QueueState &q, const Submission &s) {
  return s.seq <= q.completed_seq.load(std::memory_order_acquire); // and its proof logged (complete_up_to)
}

// The completion time of a signalled submission seen at `now`: the time of the application's wait
// that proved it, where that was earlier.
std::uint64_t completion_time(QueueState &q, const Submission &s, std::uint64_t now) {
  if (!proven(q, s)) return now;
  const std::uint64_t proof = q.proofs.time_of(s.seq);
  return proof != 0 ? std::min(now, proof) : now;
}

// Completes `s` if a wait proved it (`by_proof`) or its fence signalled; returns its status.
VkResult try_complete(DeviceState &dev, QueueState &q, Submission &s, std::uint64_t now, bool &by_proof) {
  by_proof = proven(q, s);
  const VkResult r = by_proof ? VK_SUCCESS : fence_status(dev, s);
  if (r == VK_SUCCESS) complete(dev, s, completion_time(q, s, now));
  else if (r == VK_ERROR_DEVICE_LOST) on_device_lost(dev, "vkGetFenceStatus (layer thread)");
  return r;
}

// Checks the fences of `snapshot` (in submission order) and completes what is signalled: per queue,
// the first unsignalled one ends that queue's pass (a queue's fences signal in order).
void poll(DeviceState &dev, const std::vector<Submission *> &snapshot, std::uint64_t now) {
  std::vector<QueueState *> blocked;
  bool any = false;
  for (Submission *s : snapshot) {
    if (std::find(blocked.begin(), blocked.end(), s->queue) != blocked.end()) continue;
    bool by_proof = false;
    if (try_complete(dev, *s->queue, *s, now, by_proof) == VK_SUCCESS) any = true;
    else blocked.push_back(s->queue);
  }
  if (any) dev.have_done = true;
}

// A record emptied for reuse: here, mostly on the layer thread, rather than in take_submission
// on the application's. clear() keeps the vectors' capacity.
void reset_record(Submission &s) {
  s.seq = s.submit_ns = 0;
  s.call = "";
  s.app_fence = VK_NULL_HANDLE;
  s.released = false;
  s.registered_seq = 0;
  s.command_buffers.clear();
  s.waits.clear();
  s.signals.clear();
  s.timestamps = nullptr;
  s.slots.clear();
  s.batches = 0;
  s.v2 = false;
  s.sparse = false;
  s.watchdog_reported = false;
  s.queue_labels.clear();
  s.labels.clear();
  s.done.store(false, std::memory_order_relaxed);
}

// Moves the completed submissions from the pending list to the free list, once nothing of the
// thread's snapshot is used any more (after that, the application's thread may reuse them). One
// chain per pass, the oldest on top: the submitting thread then takes the records in the order
// it last filled them, which walks memory as it did then, rather than the ones the layer thread
// touched last first; and the list's head crosses between the cores once per pass.
void release_done(DeviceState &dev) {
  if (!dev.have_done) return;
  dev.have_done = false;
  Submission *first = nullptr, *last = nullptr; // oldest first: the order the next takers pop them
  std::lock_guard lock(dev.track_mutex);
  dev.dispatched -= static_cast<std::size_t>(std::erase_if(dev.pending, [&](Submission *s) {
    if (!s->done.load(std::memory_order_relaxed)) return false;
    reset_record(*s);
    if (TaggedStack<Submission>::fits(s)) { // else it stays in `records`, unused, until the device goes
      if (last) last->stack_next.store(s, std::memory_order_relaxed);
      else first = s;
      last = s;
    }
    return true;
  }));
  if (first) dev.free_submissions.push_chain(first, last);
}

// Gives the pending submissions not yet dispatched to their queue's tracker_pending; track_mutex held.
void dispatch(DeviceState &dev) {
  for (; dev.dispatched < dev.pending.size(); ++dev.dispatched) {
    Submission *s = dev.pending[dev.dispatched];
    s->queue->tracker_pending.push_back(s);
  }
}

// One pass over the queues' oldest submissions: complete, per queue, what is signalled or proven
// (in order), a proven one at the time of its proof. Returns how many completed, and of them how
// many only the driver's fence status showed (no wait of the application's proved them yet).
struct PassCounts {
  std::uint32_t completed = 0, unproven = 0;
  QueueState *last_unproven_queue = nullptr; // the last of the unproven, and its sequence number
  std::uint64_t last_unproven_seq = 0;
};
PassCounts poll_heads(DeviceState &dev, std::uint64_t now) {
  PassCounts n;
  for (const auto &q : dev.queues) {
    auto &list = q->tracker_pending;
    while (!list.empty()) {
      Submission &s = *list.front();
      bool by_proof = false;
      if (try_complete(dev, *q, s, now, by_proof) != VK_SUCCESS) break;
      list.pop_front();
      ++n.completed;
      if (!by_proof) {
        ++n.unproven;
        n.last_unproven_queue = q.get();
        n.last_unproven_seq = s.seq;
      }
    }
  }
  if (n.completed) dev.have_done = true;
  return n;
}

void print_summary(DeviceState &dev) {
  std::vector<QueueState *> queues;
  {
    std::shared_lock lock(Registry::get().mutex);
    for (const auto &q : dev.queues) queues.push_back(q.get());
  }
  for (QueueState *q : queues) {
    std::uint64_t n, p50, p99, gn, gt, pn, pmin, pmean, pmax, pp99;
    {
      std::lock_guard lock(q->stats_mutex);
      n = q->latency.count;
      p50 = q->latency.percentile(0.50);
      p99 = q->latency.percentile(0.99);
      gn = q->gpu_count;
      gt = q->gpu_total;
      const Histogram &pi = q->present_intervals;
      pn = pi.count;
      pmin = pi.min;
      pmean = pn ? pi.sum / pn : 0;
      pmax = pi.max;
      pp99 = pi.percentile(0.99);
    }
    const std::uint64_t submitted = q->submitted_seq.load(std::memory_order_relaxed);
    std::fprintf(stderr,
                 "%s: device %u queue %u.%u: submits %" PRIu64 ", in flight %" PRIu64 " (max %" PRIu64
                 "), latency n %" PRIu64 " p50 %s p99 %s, gpu n %" PRIu64 " total %s, blocked %s, presents %" PRIu64
                 " interval min %s mean %s max %s p99 %s, overlaps %" PRIu64 "\n",
                 kPrefix, dev.id, q->family, q->index, submitted,
                 submitted - std::min(submitted, q->known_complete()),
                 q->in_flight_max.load(std::memory_order_relaxed), n, ms_text(p50).c_str(), ms_text(p99).c_str(), gn,
                 ms_text(gt).c_str(), ms_text(q->blocked_ns()).c_str(), q->presents.load(std::memory_order_relaxed),
                 ms_text(pmin).c_str(), ms_text(pmean).c_str(), ms_text(pmax).c_str(), ms_text(pp99).c_str(),
                 q->overlaps.load(std::memory_order_relaxed));
  }
}

// Report on demand: the trigger file exists. The thread that removes it (any device's) writes the
// report and the trace, with reason "trigger"; the application is never stopped or signalled.
void check_trigger() {
  const std::string &path = settings().trigger_path;
  if (path.empty() || Registry::get().forked || access(path.c_str(), F_OK) != 0) return; // the parent's
  if (unlink(path.c_str()) != 0) return; // another device's thread took it
  write_outputs("trigger");
}

void tracker_main(DeviceState *dev) {
  const Settings &st = settings();
  std::uint64_t next_summary = st.interval_ms ? now_ns() + st.interval_ms * kMs : UINT64_MAX;
  std::uint64_t next_trigger_check = 0;
  const bool trace = Registry::get().trace() != nullptr;
  std::uint64_t next_trace_flush = now_ns() + kTraceFlushNs;
  std::vector<VkFence> oldest;
  std::uint64_t poll_ns = kPollNs; // of the application's fences (see below)
  struct Probe {
    QueueState *queue = nullptr;
    std::uint64_t seq = 0, ns = 0;
  } probe;
  {
    std::lock_guard lock(dev->track_mutex);
    dev->tracker_running = pthread_getcpuclockid(pthread_self(), &dev->tracker_clock) == 0;
  }
  for (;;) {
    bool busy = false;
    {
      std::unique_lock lock(dev->track_mutex);
      if (dev->stop) break;
      drain_incoming(*dev);
      if (dev->pending.empty() || dev->device_lost.load()) {
        // First a nap of kPollNs that only a submission with a fence of the layer's own ends (its
        // completion is timed by the layer's wait on it), and none while the poll period is backed
        // off: a frame loop's next submission comes within it and is taken without a wake-up.
        // Then the idle sleep, which any submission ends.
        const TrackerSleep nap = poll_ns > kPollNs ? TrackerSleep::polling : TrackerSleep::napping;
        for (const TrackerSleep mode : {nap, TrackerSleep::idle}) {
          const std::uint64_t now = now_ns();
          std::uint64_t sleep = std::min(mode == nap ? kPollNs : kIdleWaitNs,
                                         next_summary > now ? next_summary - now : 0);
          if (!st.trigger_path.empty()) sleep = std::min(sleep, kTriggerPollNs);
          if (trace) sleep = std::min(sleep, next_trace_flush > now ? next_trace_flush - now : 0);
          // seq_cst with track()'s push and load: either it sees the mode and bumps `wakeups`
          // after `seen` was read (the futex wait then returns at once), or we see its submission
          // here. end_tracker() sets `stop` under the lock, then bumps the word.
          dev->tracker_sleep.store(mode);
          const std::uint32_t seen = dev->wakeups.load();
          if (!dev->stop && (dev->incoming.load() == nullptr || dev->device_lost.load())) {
            lock.unlock();
            futex_wait(dev->wakeups, seen, sleep);
            lock.lock();
          }
          dev->tracker_sleep.store(TrackerSleep::awake);
          drain_incoming(*dev);
          if (dev->stop || (!dev->pending.empty() && !dev->device_lost.load())) break;
        }
        if (dev->stop) break;
      }
      dispatch(*dev);
      busy = !dev->pending.empty() && !dev->device_lost.load();
    }
    if (busy) {
      // Per busy queue, its oldest submission (they complete in order). An application's fence is
      // never waited on: vkResetFences would have to wait for that call to end (validation
      // reports a fence reset while another thread waits on it), which the application's thread
      // paid every frame. It is polled once per poll period (vkGetFenceStatus, which does not
      // block, under fence_mutex), or found proven by a wait of the application's (completed_seq,
      // with the wait's time in the queue's ProofLog). The layer's own fences are waited on, 1 ms
      // at most, for exact completion times, unless the application's waits prove completions
      // well enough (the poll period backed off, below): then they are polled too, since each
      // completion the wait returns for is a wake-up, and a burst of small submissions would cost
      // one each. Between polls the thread naps on `wakeups`: neither a proof nor a submission
      // under the application's fence wakes it, which spares the application's threads a wake-up
      // (a system call and an inter-processor interrupt) per frame; a submission with the layer's
      // own fence does unless the period is backed off (TrackerSleep::polling), or it came during
      // the pass just ended: then it is seen a period later.
      const bool backed_off = poll_ns > kPollNs;
      oldest.clear();
      for (const auto &q : dev->queues)
        if (!q->tracker_pending.empty() && q->tracker_pending.front()->app_fence == VK_NULL_HANDLE)
          oldest.push_back(q->tracker_pending.front()->fence);
      VkResult r = VK_NOT_READY;
      if (!oldest.empty() && !backed_off) {
        r = dev->table.WaitForFences(dev->device, static_cast<std::uint32_t>(oldest.size()), oldest.data(), VK_FALSE,
                                     kPollNs);
      } else {
        dev->tracker_sleep.store(backed_off ? TrackerSleep::polling : TrackerSleep::napping);
        futex_wait(dev->wakeups, dev->wakeups.load(), poll_ns); // a `stop` missed here is seen a period later
        dev->tracker_sleep.store(TrackerSleep::awake);
      }
      const std::uint64_t now = now_ns();
      if (r == VK_ERROR_DEVICE_LOST) {
        on_device_lost(*dev, "vkWaitForFences (layer thread)");
      } else {
        // The poll period backs off while the application's own waits prove what completes
        // within kPollNs of when a poll could have seen it: polling more often would gain less
        // than that on the completion times, and each wake-up costs the CPU more than the work of
        // the pass. The evidence: one completion a poll saw before any proof (the probe), and the
        // time of the proof that covered it, looked up at later passes until it comes or kPollNs
        // has passed. A probe that no proof covered in time, or a first unproven completion,
        // brings the period back to kPollNs.
        const PassCounts n = poll_heads(*dev, now);
        bool proofs_keep_up = n.unproven == 0, decided = true;
        if (probe.queue) {
          const std::uint64_t proof = probe.queue->proofs.time_of(probe.seq);
          if (proof != 0) proofs_keep_up = proof <= probe.ns + kPollNs;
          else if (now <= probe.ns + kPollNs) decided = false; // a wait of the application's may yet prove it
          else proofs_keep_up = false;
        }
        if (decided) {
          if (!proofs_keep_up) poll_ns = kPollNs;
          else if (n.completed > kBusyPass) poll_ns = std::max(poll_ns / 2, kBusyPollNs);
          else if (n.completed && n.completed < kBusyPass / 4) poll_ns = std::min(2 * poll_ns, kMaxPollNs);
          probe = n.unproven ? Probe{n.last_unproven_queue, n.last_unproven_seq, now} : Probe{};
        }
      }
      if (st.watchdog_ms) run_watchdog(*dev, now);
      release_done(*dev);
    }
    if (st.interval_ms && now_ns() >= next_summary) {
      print_summary(*dev);
      next_summary = now_ns() + st.interval_ms * kMs;
    }
    if (trace && now_ns() >= next_trace_flush) {
      flush_trace(*dev);
      next_trace_flush = now_ns() + kTraceFlushNs;
    }
    if (!st.trigger_path.empty() && now_ns() >= next_trigger_check) {
      check_trigger();
      next_trigger_check = now_ns() + kTriggerPollNs;
    }
  }
  std::lock_guard lock(dev->track_mutex);
  dev->tracker_cpu_final = clock_ns(dev->tracker_clock);
  dev->tracker_running = false;
}

void destroy_pool(DeviceState &dev, TimestampPool &tp) {
  if (tp.results) dev.table.UnmapMemory(dev.device, tp.memory);
  if (tp.buffer) dev.table.DestroyBuffer(dev.device, tp.buffer, nullptr);
  if (tp.memory) dev.table.FreeMemory(dev.device, tp.memory, nullptr);
  if (tp.queries) dev.table.DestroyQueryPool(dev.device, tp.queries, nullptr);
  if (tp.pool) dev.table.DestroyCommandPool(dev.device, tp.pool, nullptr); // frees its command buffers
}

// The pre-recorded timestamp command buffers of one family; nullptr where something failed.
std::unique_ptr<TimestampPool> make_pool(DeviceState &dev, std::uint32_t family, std::uint32_t valid_bits,
                                         const VkPhysicalDeviceMemoryProperties &memory) {
  auto tp = std::make_unique<TimestampPool>();
  tp->family = family;
  tp->valid_mask = valid_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits) - 1;
  const std::uint32_t n = TimestampPool::kSlots;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, family};
  VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = 2 * n;
  bool ok = dev.table.CreateCommandPool(dev.device, &pci, nullptr, &tp->pool) == VK_SUCCESS &&
            dev.table.CreateQueryPool(dev.device, &qci, nullptr, &tp->queries) == VK_SUCCESS;
  // The results buffer: host visible and coherent, mapped for good.
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 2 * n * sizeof(std::uint64_t);
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ok = ok && dev.table.CreateBuffer(dev.device, &bci, nullptr, &tp->buffer) == VK_SUCCESS;
  if (ok) {
    VkMemoryRequirements req{};
    dev.table.GetBufferMemoryRequirements(dev.device, tp->buffer, &req);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = UINT32_MAX;
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if ((req.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) {
        mai.memoryTypeIndex = i;
        break;
      }
    void *mapped = nullptr;
    ok = mai.memoryTypeIndex != UINT32_MAX &&
         dev.table.AllocateMemory(dev.device, &mai, nullptr, &tp->memory) == VK_SUCCESS &&
         dev.table.BindBufferMemory(dev.device, tp->buffer, tp->memory, 0) == VK_SUCCESS &&
         dev.table.MapMemory(dev.device, tp->memory, 0, VK_WHOLE_SIZE, 0, &mapped) == VK_SUCCESS;
    if (ok) {
      tp->results = static_cast<volatile std::uint64_t *>(mapped);
      for (std::uint32_t i = 0; i < 2 * n; ++i) tp->results[i] = 0;
    }
  }
  std::vector<VkCommandBuffer> cbs(2 * n);
  if (ok) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, tp->pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2 * n};
    ok = dev.table.AllocateCommandBuffers(dev.device, &ai, cbs.data()) == VK_SUCCESS;
  }
  for (std::uint32_t i = 0; ok && i < 2 * n; ++i) {
    // A command buffer the layer allocates below the loader's trampoline needs its dispatch pointer.
    ok = dev.set_loader_data && dev.set_loader_data(dev.device, cbs[i]) == VK_SUCCESS;
    const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ok = ok && dev.table.BeginCommandBuffer(cbs[i], &begin) == VK_SUCCESS;
    if (!ok) break;
    const std::uint32_t slot = i / 2;
    if (i % 2 == 0) {
      dev.table.CmdResetQueryPool(cbs[i], tp->queries, 2 * slot, 2);
      dev.table.CmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, tp->queries, 2 * slot);
    } else {
      dev.table.CmdWriteTimestamp(cbs[i], VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, tp->queries, 2 * slot + 1);
      dev.table.CmdCopyQueryPoolResults(cbs[i], tp->queries, 2 * slot, 2, tp->buffer,
                                        2 * slot * sizeof(std::uint64_t), sizeof(std::uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                              VK_ACCESS_HOST_READ_BIT};
      dev.table.CmdPipelineBarrier(cbs[i], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host,
                                   0, nullptr, 0, nullptr);
    }
    ok = dev.table.EndCommandBuffer(cbs[i]) == VK_SUCCESS;
  }
  if (!ok) {
    destroy_pool(dev, *tp);
    return nullptr;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    tp->begin.push_back(cbs[2 * i]);
    tp->end.push_back(cbs[2 * i + 1]);
    tp->free_mask[i / 64].fetch_or(std::uint64_t{1} << (i % 64), std::memory_order_relaxed);
  }
  return tp;
}

} // namespace

// ---- shared ----

constinit thread_local PerThread *t_per_thread __attribute__((tls_model("initial-exec"))) = nullptr;

PerThread &per_thread_slow() {
  thread_local PerThread t; // the default TLS model: constructed on first use, destroyed at thread exit
  t_per_thread = &t;
  return t;
}

PerThread::~PerThread() { t_per_thread = nullptr; }

std::uint64_t PerThread::gettid_now() { return static_cast<std::uint64_t>(syscall(SYS_gettid)); }

std::uint64_t thread_id() { return per_thread().thread_id(); }

std::size_t Histogram::index(std::uint64_t v) {
  if (v < 64) return static_cast<std::size_t>(v);
  const unsigned shift = static_cast<unsigned>(std::bit_width(v)) - 7; // v >> shift is in [64, 128)
  return 64 * (shift + 1) + static_cast<std::size_t>((v >> shift) - 64);
}

std::uint64_t Histogram::upper(std::size_t i) {
  if (i < 64) return i;
  const unsigned shift = static_cast<unsigned>(i / 64 - 1);
  const std::uint64_t m = 64 + i % 64;
  return ((m + 1) << shift) - 1;
}

void Histogram::add(std::uint64_t v) {
  ++buckets[index(v)];
  min = count ? std::min(min, v) : v;
  max = count ? std::max(max, v) : v;
  ++count;
  sum += v;
}

std::uint64_t Histogram::percentile(double p) const {
  if (!count) return 0;
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p * static_cast<double>(count))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += buckets[i];
    if (seen >= rank) return std::clamp(upper(i), min, max);
  }
  return max;
}

void start_tracking(DeviceState &dev, const std::vector<VkQueueFamilyProperties> &families,
                    const VkPhysicalDeviceMemoryProperties &memory) {
  // Timestamps where the family has them and can reset queries in a command buffer (graphics or compute).
  for (const auto &q : dev.queues) {
    const std::uint32_t f = q->family;
    if (!settings().timestamps || dev.timestamp_pools.count(f) || f >= families.size()) continue;
    if (families[f].timestampValidBits == 0 || !(families[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
      continue;
    if (auto tp = make_pool(dev, f, families[f].timestampValidBits, memory)) dev.timestamp_pools[f] = std::move(tp);
  }
  for (const auto &q : dev.queues)
    if (auto it = dev.timestamp_pools.find(q->family); it != dev.timestamp_pools.end()) q->timestamp_pool = it->second.get();
  dev.tracker = std::thread(tracker_main, &dev);
  // Named, so that its CPU time can be told apart (top -H, /proc/<pid>/task/*/comm, novem-bench-layer).
  pthread_setname_np(dev.tracker.native_handle(), "novem-qd");
}

void end_tracker(DeviceState &dev) {
  if (!dev.tracker.joinable()) return;
  {
    std::lock_guard lock(dev.track_mutex);
    dev.stop = true;
  }
  wake_thread(dev); // wherever it sleeps (the flags aside), it sees `stop` next
  dev.tracker.join();
}

std::uint64_t tracker_cpu_ns(DeviceState &dev) {
  std::lock_guard lock(dev.track_mutex);
  return dev.tracker_running ? clock_ns(dev.tracker_clock) : dev.tracker_cpu_final;
}

void stop_tracking(DeviceState &dev) {
  end_tracker(dev);
  // The application has waited for its work before destroying the device: complete what is.
  std::vector<Submission *> snapshot;
  {
    std::lock_guard lock(dev.track_mutex);
    drain_incoming(dev);
    snapshot.assign(dev.pending.begin(), dev.pending.end());
  }
  if (!snapshot.empty() && !dev.device_lost.load()) poll(dev, snapshot, now_ns());
  std::scoped_lock lock(dev.track_mutex, dev.records_mutex);
  drain_incoming(dev);
  for (const auto &q : dev.queues) q->tracker_pending.clear();
  {
    std::lock_guard fence_lock(dev.fence_mutex);
    dev.fences.clear();
  }
  dev.pending.clear();
  dev.free_submissions.clear();
  for (const auto &s : dev.records)
    if (s->fence) dev.table.DestroyFence(dev.device, s->fence, nullptr);
  dev.records.clear();
  for (auto &[family, tp] : dev.timestamp_pools) destroy_pool(dev, *tp);
  dev.timestamp_pools.clear();
}

// take_submission() without a record to reuse (`reused` null), or with one whose fence is gone.
Submission *take_submission_slow(DeviceState &dev, Submission *reused) {
  Submission *s = reused;
  if (!s) {
    auto made = std::make_unique<Submission>();
    s = made.get();
    std::lock_guard lock(dev.records_mutex);
    dev.records.push_back(std::move(made));
  }
  if (s->fence == VK_NULL_HANDLE) {
    VkFenceCreateInfo ci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (dev.table.CreateFence(dev.device, &ci, nullptr, &s->fence) != VK_SUCCESS) s->fence = VK_NULL_HANDLE;
  }
  return s;
}

void recycle(DeviceState &dev, Submission *s) {
  reset_record(*s);
  // One that cannot be pushed stays in `records`, unused, until the device goes.
  if (TaggedStack<Submission>::fits(s)) dev.free_submissions.push(s);
}

void return_slots(TimestampPool &pool, const std::vector<std::uint32_t> &slots) {
  for (std::uint32_t s : slots) {
    pool.results[2 * s] = 0; // so that a result the next user's batch never writes reads as unmeasured
    pool.results[2 * s + 1] = 0;
    // release: the slot's results were read, and cleared, before another submission may take it.
    pool.free_mask[s / 64].fetch_or(std::uint64_t{1} << (s % 64), std::memory_order_release);
  }
}

void wake_thread(DeviceState &dev) {
  dev.wakeups.fetch_add(1);
  syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&dev.wakeups), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

void drain_incoming(DeviceState &dev) {
  Submission *list = dev.incoming.exchange(nullptr, std::memory_order_acquire);
  if (list) dev.clock.sync();
  const std::size_t at = dev.pending.size();
  for (Submission *s = list; s;) { // newest first: inserted before the older ones
    Submission *next = s->next_incoming;
    s->submit_ns = dev.clock.to_ns(s->stamp);
    dev.pending.emplace(dev.pending.begin() + static_cast<std::ptrdiff_t>(at), s);
    s = next;
  }
}

void on_device_lost(DeviceState &dev, const char *call, const QueueState *queue) {
  if (dev.device_lost.exchange(true)) return;
  write_dump(dev, "device_lost", call, queue);
}

void report_overlap(QueueState &q, const Overlap &o) {
  const std::uint64_t n = q.overlaps.fetch_add(1, std::memory_order_relaxed) + 1;
  {
    std::lock_guard lock(q.stats_mutex);
    if (q.overlap_list.size() < QueueState::kMaxOverlaps) q.overlap_list.push_back(o);
  }
  if (n <= QueueState::kMaxOverlaps)
    std::fprintf(stderr,
                 "%s: thread-safety: VkQueue %p (device %u, queue %u.%u) entered by thread %" PRIu64
                 " in %s while thread %" PRIu64 " is in %s%s\n",
                 kPrefix, static_cast<void *>(q.queue), q.device->id, q.family, q.index, o.thread, o.call,
                 o.other_thread, o.other_call,
                 n == QueueState::kMaxOverlaps ? " (further overlaps on this queue are counted, not printed)" : "");
}

} // namespace novem_qd
