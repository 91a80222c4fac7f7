// The trace file (NOVEM_QUEUE_DIAGNOSTICS_TRACE): Chrome trace-event JSON, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. Written whenever the report is (device or instance
// destroyed, unload, report on demand), from the same event rings, so it holds the latest
// NOVEM_QUEUE_DIAGNOSTICS_EVENTS submissions / waits / presents of each queue.
//
// Layout: one process (pid) per device, "device D: name"; per queue, a track (tid) named
// "queue family F index I" with a complete event ("ph": "X") per submission from the submit call
// to the layer thread seeing it complete, and the presents as instant events. Slices on one
// track must nest, and a queue's submissions overlap while several are in flight, so a submission
// that would overlap the one before it goes on the next free lane below, "queue family F index I
// (lane 2)", and so on: each lane is a proper track in both viewers. The GPU execution of timed
// submissions ("queue family F index I GPU") and the application's waits attributed to the queue
// ("queue family F index I waits") get lanes of their own the same way; waits attributed to no
// queue go to the device's "waits (no queue)" track.
//
// GPU times are on the device's timestamp clock; they are placed on the CPU clock with the
// offset min over the device's submissions of (seen complete - GPU end), i.e. each GPU end is at
// or before the layer saw its fence signalled, the tightest such bound. On lavapipe both clocks
// are the host's, and the offset is the layer thread's observation delay.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "state.hpp"

namespace novem_qd {
namespace {

// Microseconds with nanosecond precision, as the trace format wants them.
std::string us(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRId64 ".%03" PRId64, ns / 1000, (ns < 0 ? -ns : ns) % 1000);
  return buf;
}

// Greedy lanes: each interval (in start order) goes to the first lane free at its start.
class Lanes {
public:
  std::size_t place(std::uint64_t start, std::uint64_t end) {
    for (std::size_t i = 0; i < ends_.size(); ++i)
      if (ends_[i] <= start) {
        ends_[i] = end;
        return i;
      }
    ends_.push_back(end);
    return ends_.size() - 1;
  }
  std::size_t count() const { return ends_.size(); }

private:
  std::vector<std::uint64_t> ends_;
};

class TraceWriter {
public:
  explicit TraceWriter(std::ostringstream &o) : o_(o) {}
  void event(const std::string &json) {
    o_ << (first_ ? "\n  " : ",\n  ") << json;
    first_ = false;
  }
  void thread_name(std::uint32_t pid, std::uint64_t tid, const std::string &name) {
    event("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " + std::to_string(pid) + ", \"tid\": " +
          std::to_string(tid) + ", \"args\": {\"name\": " + json_quoted(name) + "}}");
    event("{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": " + std::to_string(pid) + ", \"tid\": " +
          std::to_string(tid) + ", \"args\": {\"sort_index\": " + std::to_string(tid) + "}}");
  }
  void complete(std::uint32_t pid, std::uint64_t tid, const char *cat, const std::string &name, std::int64_t start,
                std::int64_t end, const std::string &args) {
    event("{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": " + json_quoted(name) +
          ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + us(start) +
          ", \"dur\": " + us(std::max<std::int64_t>(0, end - start)) + ", \"args\": {" + args + "}}");
  }

private:
  std::ostringstream &o_;
  bool first_ = true;
};

// The application's waits of one track, on lanes from `base`.
void write_waits(TraceWriter &w, std::uint32_t pid, std::uint64_t base, const std::string &name,
                 std::vector<WaitEvent> waits) {
  std::sort(waits.begin(), waits.end(), [](const WaitEvent &a, const WaitEvent &b) { return a.start_ns < b.start_ns; });
  Lanes lanes;
  for (const WaitEvent &e : waits) {
    const std::size_t lane = lanes.place(e.start_ns, e.end_ns);
    w.complete(pid, base + lane, "wait", e.call, static_cast<std::int64_t>(e.start_ns),
               static_cast<std::int64_t>(e.end_ns), "\"thread\": " + std::to_string(e.thread));
  }
  for (std::size_t i = 0; i < lanes.count(); ++i)
    w.thread_name(pid, base + i, name + (i ? " (lane " + std::to_string(i + 1) + ")" : ""));
}

std::string lane_name(const std::string &track, std::size_t lane) {
  return track + (lane ? " (lane " + std::to_string(lane + 1) + ")" : "");
}

} // namespace

void write_trace() {
  Registry &r = Registry::get();
  const std::string &path = r.settings_for(nullptr).trace_path;
  if (path.empty()) return;
  std::vector<std::shared_ptr<DeviceState>> devices;
  {
    std::shared_lock lock(r.mutex);
    devices = r.all_devices;
  }
  std::ostringstream o;
  o << "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"schema\": \"novem-queue-trace/1\", \"layer\": "
       "\"VK_LAYER_NOVEM_queue_diagnostics\", \"pid\": "
    << static_cast<long>(getpid()) << "},\n\"traceEvents\": [";
  TraceWriter w(o);
  for (const auto &devp : devices) {
    DeviceState &dev = *devp;
    const std::uint32_t pid = dev.id + 1;
    w.event("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + std::to_string(pid) +
            ", \"args\": {\"name\": " + json_quoted("device " + std::to_string(dev.id) + ": " + dev.name) + "}}");
    std::vector<QueueState *> queues;
    {
      std::shared_lock lock(r.mutex);
      for (const auto &q : dev.queues) queues.push_back(q.get());
    }
    // Copies of each queue's rings, taken under its lock.
    struct Copy {
      std::vector<SubmissionEvent> submissions;
      std::vector<WaitEvent> waits;
      std::vector<std::uint64_t> presents;
    };
    std::vector<Copy> copies(queues.size());
    bool have_offset = false;
    std::int64_t offset = 0; // CPU ns - GPU ns
    for (std::size_t k = 0; k < queues.size(); ++k) {
      std::lock_guard lock(queues[k]->stats_mutex);
      queues[k]->submission_events.for_each([&](const SubmissionEvent &e) { copies[k].submissions.push_back(e); });
      queues[k]->wait_events.for_each([&](const WaitEvent &e) { copies[k].waits.push_back(e); });
      queues[k]->present_events.for_each([&](std::uint64_t t) { copies[k].presents.push_back(t); });
    }
    for (const Copy &c : copies)
      for (const SubmissionEvent &e : c.submissions)
        if (e.gpu_measured) {
          const std::int64_t d = static_cast<std::int64_t>(e.complete_ns) - static_cast<std::int64_t>(e.gpu_end_ns);
          offset = have_offset ? std::min(offset, d) : d;
          have_offset = true;
        }

    for (std::size_t k = 0; k < queues.size(); ++k) {
      const QueueState &q = *queues[k];
      Copy &c = copies[k];
      const std::uint64_t base = 1000 * (k + 1);
      const std::string track = "queue family " + std::to_string(q.family) + " index " + std::to_string(q.index);
      std::sort(c.submissions.begin(), c.submissions.end(),
                [](const SubmissionEvent &a, const SubmissionEvent &b) { return a.seq < b.seq; });
      Lanes lanes, gpu_lanes;
      std::vector<std::pair<std::size_t, const SubmissionEvent *>> gpu; // GPU events, placed after sorting
      for (const SubmissionEvent &e : c.submissions) {
        const std::size_t lane = lanes.place(e.submit_ns, e.complete_ns);
        std::string args = "\"seq\": " + std::to_string(e.seq) + ", \"batches\": " + std::to_string(e.batches) +
                           ", \"command_buffers\": " + std::to_string(e.command_buffers) +
                           ", \"wait_semaphores\": " + std::to_string(e.wait_semaphores) +
                           ", \"signal_semaphores\": " + std::to_string(e.signal_semaphores);
        if (e.gpu_measured) args += ", \"gpu_ns\": " + std::to_string(e.gpu_ns);
        args += e.labels;
        w.complete(pid, base + lane, "submission", e.sparse ? "vkQueueBindSparse" : e.v2 ? "vkQueueSubmit2" : "vkQueueSubmit",
                   static_cast<std::int64_t>(e.submit_ns), static_cast<std::int64_t>(e.complete_ns), args);
      }
      std::vector<const SubmissionEvent *> timed;
      for (const SubmissionEvent &e : c.submissions)
        if (e.gpu_measured) timed.push_back(&e);
      std::sort(timed.begin(), timed.end(),
                [](const SubmissionEvent *a, const SubmissionEvent *b) { return a->gpu_begin_ns < b->gpu_begin_ns; });
      for (const SubmissionEvent *e : timed) {
        const std::int64_t b = static_cast<std::int64_t>(e->gpu_begin_ns) + offset,
                           x = static_cast<std::int64_t>(e->gpu_end_ns) + offset;
        const std::size_t lane = gpu_lanes.place(static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(x));
        w.complete(pid, base + 100 + lane, "gpu", "GPU", b, x,
                   "\"seq\": " + std::to_string(e->seq) + ", \"gpu_ns\": " + std::to_string(e->gpu_ns));
      }
      for (std::uint64_t t : c.presents)
        w.event("{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"present\", \"name\": \"vkQueuePresentKHR\", \"pid\": " +
                std::to_string(pid) + ", \"tid\": " + std::to_string(base) + ", \"ts\": " +
                us(static_cast<std::int64_t>(t)) + "}");
      // Lane 0 is named even when the queue did nothing, so that every queue has its track.
      for (std::size_t i = 0; i < std::max<std::size_t>(1, lanes.count()); ++i)
        w.thread_name(pid, base + i, lane_name(track, i));
      for (std::size_t i = 0; i < gpu_lanes.count(); ++i) w.thread_name(pid, base + 100 + i, lane_name(track + " GPU", i));
      write_waits(w, pid, base + 200, track + " waits", c.waits);
    }
    std::vector<WaitEvent> unattributed;
    {
      std::lock_guard lock(dev.events_mutex);
      dev.unattributed_waits.for_each([&](const WaitEvent &e) { unattributed.push_back(e); });
    }
    write_waits(w, pid, 100000, "waits (no queue)", unattributed);
  }
  o << "\n]}\n";
  std::lock_guard lock(r.trace_mutex);
  write_file_atomically(path, o.str());
}

} // namespace novem_qd
