// The watchdog and device-lost dumps: every submission of a device in flight, with what a driver
// engineer needs to find the culprit — the application's debug-utils names and labels, the current
// value of each timeline semaphore, the failing call with its queue and thread — one numbered file
// per event (never overwritten) and one stderr line per event.
#include <algorithm>
#include <mutex>
#include <utility>
#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <string>

#include <unistd.h>

#include "fault.hpp"
#include "state.hpp"

namespace novem_qd {

namespace {

constexpr const char *kPrefix = "VK_LAYER_NOVEM_queue_diagnostics";
constexpr std::uint64_t kMs = 1000000; // ns per ms

std::string hex(std::uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"0x%" PRIx64 "\"", h);
  return buf;
}

std::string ms_text(std::uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

// The n-th dump's file: the setting's path with "-<n>" before its extension (dump.json ->
// dump-1.json, dump-2.json, ...), so that a later event never replaces an earlier one.
std::string numbered(const std::string &path, std::uint64_t n) {
  const std::size_t slash = path.rfind('/'), dot = path.rfind('.');
  const bool has_ext = dot != std::string::npos && dot > (slash == std::string::npos ? 0 : slash + 1);
  const std::string stem = has_ext ? path.substr(0, dot) : path, ext = has_ext ? path.substr(dot) : "";
  return stem + "-" + std::to_string(n) + ext;
}

// What a dump shows of one semaphore: the submission's value, the application's name, and the
// timeline's current value read when the dump is written.
struct SemView {
  SemRef ref;
  std::string name;
  bool have_value = false;
  std::uint64_t current = 0;
  VkResult error = VK_SUCCESS; // of vkGetSemaphoreCounterValue, when it failed
};

// One in-flight submission, copied under track_mutex so that the semaphores can be read without it.
struct EntryView {
  std::uint32_t family = 0, index = 0;
  std::uint64_t seq = 0, submit_ns = 0;
  const char *call = "";
  VkQueue queue = VK_NULL_HANDLE;
  std::vector<VkCommandBuffer> command_buffers;
  std::vector<SemView> waits, signals;
  std::vector<std::string> queue_labels;
};

const char *result_name(VkResult r) {
  switch (r) {
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  default: return "other";
  }
}

// The timeline semaphores' current values. dev.sync_mutex is held across the calls down on
// purpose: vkDestroySemaphore's hook forgets a semaphore under it before destroying it, so a
// semaphore still in timeline_semaphores here is alive; the call never re-enters the layer.
void read_values(DeviceState &dev, std::vector<EntryView> &entries) {
  PFN_vkGetSemaphoreCounterValue get =
      dev.table.GetSemaphoreCounterValueKHR ? dev.table.GetSemaphoreCounterValueKHR : dev.table.GetSemaphoreCounterValue;
  if (!get) return;
  std::lock_guard lock(dev.sync_mutex);
  for (EntryView &e : entries)
    for (auto *list : {&e.waits, &e.signals})
      for (SemView &s : *list) {
        if (!s.ref.timeline || !dev.timeline_semaphores.count(s.ref.semaphore)) continue;
        s.error = get(dev.device, s.ref.semaphore, &s.current);
        s.have_value = s.error == VK_SUCCESS;
      }
}

void write_name(std::ostringstream &o, const std::string &name) {
  if (!name.empty()) o << ", \"name\": " << json_quoted(name);
}

void write_sems(std::ostringstream &o, const std::vector<SemView> &sems) {
  o << "[";
  for (std::size_t i = 0; i < sems.size(); ++i) {
    const SemView &s = sems[i];
    o << (i ? ", " : "") << "{\"handle\": " << hex(handle_key(s.ref.semaphore)) << ", \"type\": \""
      << (s.ref.timeline ? "timeline" : "binary") << "\", \"value\": " << s.ref.value;
    write_name(o, s.name);
    if (s.have_value) o << ", \"current_value\": " << s.current;
    else if (s.ref.timeline && s.error != VK_SUCCESS) o << ", \"current_value_error\": \"" << result_name(s.error) << "\"";
    o << "}";
  }
  o << "]";
}

void write_strings(std::ostringstream &o, const std::vector<std::string> &list) {
  o << "[";
  for (std::size_t i = 0; i < list.size(); ++i) o << (i ? ", " : "") << json_quoted(list[i]);
  o << "]";
}

// The next dump's number and file: one more than the last one this process wrote, and past any
// file already there (a library the loader unloaded and loaded again starts counting anew).
std::pair<std::uint64_t, std::string> next_dump_file() {
  static std::mutex mutex;
  static std::uint64_t last = 0;
  std::lock_guard lock(mutex);
  std::string path;
  do path = numbered(settings().dump_path, ++last);
  while (access(path.c_str(), F_OK) == 0);
  return {last, path};
}

} // namespace

void write_dump(DeviceState &dev, const char *reason, const char *call, const QueueState *queue) {
  if (Registry::get().forked) return; // the dumps are the parent's (fork.cpp)
  const auto [number, path] = next_dump_file();
  const std::uint64_t now = now_ns();

  std::vector<EntryView> entries;
  {
    std::lock_guard lock(dev.track_mutex);
    drain_incoming(dev);
    for (const auto &s : dev.pending) {
      if (s->done.load(std::memory_order_relaxed)) continue;
      EntryView e;
      e.family = s->queue->family;
      e.index = s->queue->index;
      e.seq = s->seq;
      e.submit_ns = s->submit_ns;
      e.call = s->call;
      e.queue = s->queue->queue;
      e.command_buffers = s->command_buffers;
      for (const SemRef &r : s->waits) e.waits.push_back(SemView{r, {}, false, 0, VK_SUCCESS});
      for (const SemRef &r : s->signals) e.signals.push_back(SemView{r, {}, false, 0, VK_SUCCESS});
      e.queue_labels = s->queue_labels;
      entries.push_back(std::move(e));
    }
  }
  read_values(dev, entries);
  // Asked only of a lost device: the driver's account of the fault is valid after the loss.
  const std::string fault = std::string(reason) == "device_lost" ? device_fault_json(dev) : "";

  std::ostringstream o;
  o << "{\n  \"schema\": \"novem-queue-dump/2\",\n  \"layer\": \"" << kPrefix << "\",\n  \"pid\": "
    << static_cast<long>(getpid()) << ",\n  \"number\": " << number << ",\n  \"reason\": \"" << reason
    << "\",\n  \"call\": \"" << call << "\",\n  \"thread\": ";
  if (*call) o << thread_id(); // the failing call's; the watchdog's dump has no failing call
  else o << "null";
  o << ",\n  \"queue\": ";
  std::unique_lock labels_lock(dev.labels.mutex);
  const DebugLabels &labels = dev.labels;
  if (queue) {
    o << "{\"family\": " << queue->family << ", \"index\": " << queue->index;
    write_name(o, labels.name_of(handle_key(queue->queue)));
    o << "}";
  } else {
    o << "null";
  }
  o << ",\n  \"watchdog_ms\": " << settings().watchdog_ms << ",\n  \"device\": {\"id\": " << dev.id
    << ", \"name\": " << json_quoted(dev.name);
  const std::string &device_name = labels.name_of(handle_key(dev.device));
  if (!device_name.empty()) o << ", \"debug_name\": " << json_quoted(device_name);
  o << "}";
  if (!fault.empty()) o << ",\n  \"device_fault\": " << fault;
  o << ",\n  \"in_flight\": [";
  for (std::size_t n = 0; n < entries.size(); ++n) {
    EntryView &e = entries[n];
    for (auto *list : {&e.waits, &e.signals})
      for (SemView &s : *list) s.name = labels.name_of(handle_key(s.ref.semaphore));
    o << (n ? "," : "") << "\n    {\"family\": " << e.family << ", \"index\": " << e.index;
    const std::string &queue_name = labels.name_of(handle_key(e.queue));
    if (!queue_name.empty()) o << ", \"queue_name\": " << json_quoted(queue_name);
    o << ", \"seq\": " << e.seq << ", \"call\": \"" << e.call << "\", \"age_ms\": "
      << static_cast<double>(now - std::min(now, e.submit_ns)) / 1e6 << ",\n     \"queue_labels\": ";
    write_strings(o, e.queue_labels);
    o << ",\n     \"command_buffers\": [";
    for (std::size_t i = 0; i < e.command_buffers.size(); ++i)
      o << (i ? ", " : "") << hex(handle_key(e.command_buffers[i]));
    o << "],\n     \"command_buffer_details\": [";
    for (std::size_t i = 0; i < e.command_buffers.size(); ++i) {
      o << (i ? ",\n       " : "\n       ");
      o << command_buffer_json(labels, e.command_buffers[i]);
    }
    o << "],\n     \"wait_semaphores\": ";
    write_sems(o, e.waits);
    o << ",\n     \"signal_semaphores\": ";
    write_sems(o, e.signals);
    o << "}";
  }
  o << (entries.empty() ? "]" : "\n  ]") << "\n}\n";
  labels_lock.unlock();

  // "device_lost in vkQueueSubmit on queue 0.0, thread 1234: device 0 ..."; "watchdog: device 0 ...".
  std::string cause = reason;
  if (*call) {
    cause += std::string(" in ") + call;
    if (queue) cause += " on queue " + std::to_string(queue->family) + "." + std::to_string(queue->index);
    cause += ", thread " + std::to_string(thread_id());
  }
  if (!entries.empty()) {
    const EntryView &oldest = entries.front();
    std::fprintf(stderr,
                 "%s: %s: device %u (%s): %zu submission(s) in flight, oldest queue %u.%u seq %" PRIu64
                 " (%s) age %s; dump: %s\n",
                 kPrefix, cause.c_str(), dev.id, dev.name.c_str(), entries.size(), oldest.family, oldest.index,
                 oldest.seq, oldest.call, ms_text(now - std::min(now, oldest.submit_ns)).c_str(), path.c_str());
  } else {
    std::fprintf(stderr, "%s: %s: device %u (%s): nothing in flight; dump: %s\n", kPrefix, cause.c_str(), dev.id,
                 dev.name.c_str(), path.c_str());
  }
  write_file_atomically(path, o.str());
}

void run_watchdog(DeviceState &dev, std::uint64_t now) {
  const std::uint64_t limit = settings().watchdog_ms * kMs;
  // One hang, one dump: after a dump, nothing until the device has completed a submission.
  if (dev.watchdog_dumped && dev.completions == dev.completions_at_dump) return;
  bool fire = false;
  for (const auto &q : dev.queues)
    for (Submission *s : q->tracker_pending)
      fire = fire || (!s->watchdog_reported && now - std::min(now, s->submit_ns) >= limit);
  if (!fire) return;
  // Everything in flight is in this dump: none of it starts another.
  for (const auto &q : dev.queues)
    for (Submission *s : q->tracker_pending) s->watchdog_reported = true;
  dev.watchdog_dumped = true;
  dev.completions_at_dump = dev.completions;
  dev.watchdog_dumps.fetch_add(1, std::memory_order_relaxed);
  write_dump(dev, "watchdog", "", nullptr);
}

} // namespace novem_qd
