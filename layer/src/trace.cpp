// The trace file (NOVEM_QUEUE_DIAGNOSTICS_TRACE): Chrome trace-event JSON, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open, streamed: the file is created at start-up and each
// device's layer thread appends the events of its queues every kTraceFlushNs, so the file holds the
// whole run however long it is, while the report keeps only the latest NOVEM_QUEUE_DIAGNOSTICS_EVENTS
// per queue. It is the JSON Array Format (`[ event, event, ... ]`), the one both viewers accept
// without its closing `]`: chrome://tracing (catapult's trace_event_importer) removes a trailing
// comma and appends the `]` to a text that starts with `[`, and Perfetto's JSON tokenizer reads
// events one by one until the data ends. So a process killed mid-run leaves a readable trace; one
// that ends normally, or calls exit() without tearing down, gets the `]` at unload (close_trace) and
// a file that is whole JSON. Each append is one write(2) of whole events.
//
// Layout: one process (pid) per device, "device D: name" (its process_name metadata also carries
// the schema, the layer and the OS pid); per queue, a track (tid) named "queue family F index I"
// with a complete event ("ph": "X") per submission from the submit call to the layer thread seeing
// it complete, and the presents as instant events. Slices on one track must nest, and a queue's
// submissions overlap while several are in flight, so a submission that would overlap the one before
// it goes on the next free lane below, "queue family F index I (lane 2)", and so on: each lane is a
// proper track in both viewers, named when first used. The GPU execution of timed submissions
// ("queue family F index I GPU") and the application's waits attributed to the queue ("queue family
// F index I waits") get lanes of their own the same way; waits attributed to no queue go to the
// device's "waits (no queue)" track.
//
// GPU times are on the device's timestamp clock; they are placed on the CPU clock with the
// offset min over the device's submissions so far of (seen complete - GPU end), i.e. each GPU end is
// at or before the layer saw its fence signalled, the tightest such bound when it is written (an
// appended slice cannot be moved later). On lavapipe both clocks are the host's, and the offset is
// the layer thread's observation delay.
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include <fcntl.h>
#include <unistd.h>

#include "state.hpp"

namespace novem_qd {

namespace {

constexpr const char *kPrefix = "VK_LAYER_NOVEM_queue_diagnostics";

// Microseconds with nanosecond precision, as the trace format wants them.
std::string us(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%" PRId64 ".%03" PRId64, ns < 0 && ns > -1000 ? "-" : "", ns / 1000,
                (ns < 0 ? -ns : ns) % 1000);
  return buf;
}

// Greedy lanes: each interval goes to the first lane free at its start. Intervals may come in any
// order: a lane takes one only if it starts after the lane's last end, so a lane's slices never
// overlap.
class Lanes {
public:
  // The lane, and whether it is new (to be named).
  std::pair<std::size_t, bool> place(std::uint64_t start, std::uint64_t end) {
    for (std::size_t i = 0; i < ends_.size(); ++i)
      if (ends_[i] <= start) {
        ends_[i] = end;
        return {i, false};
      }
    ends_.push_back(end);
    return {ends_.size() - 1, true};
  }

private:
  std::vector<std::uint64_t> ends_;
};

std::string lane_name(const std::string &track, std::size_t lane) {
  return track + (lane ? " (lane " + std::to_string(lane + 1) + ")" : "");
}

} // namespace

// The open file and what has been written of each device: its tracks' lanes, the GPU offset.
class TraceStream {
public:
  std::mutex mutex; // one writer at a time; guards everything below
  std::string path;
  int fd = -1;      // -1 once closed (or after a write error)
  bool first = true; // no event written yet: the next one has no leading comma

  struct QueueTracks {
    Lanes submissions, gpu, waits;
    // The events taken from the queue's rings, kept between flushes for their capacity.
    std::vector<SubmissionEvent> submission_events;
    std::vector<WaitEvent> wait_events;
    std::vector<std::uint64_t> present_events;
  };
  struct Device {
    bool started = false; // process and queue tracks named
    bool have_offset = false;
    std::int64_t offset = 0; // CPU ns - GPU ns
    std::vector<QueueTracks> queues;
    Lanes unattributed;
    std::vector<WaitEvent> unattributed_events;
  };
  std::unordered_map<std::uint32_t, Device> devices; // by device id
  std::string text; // the text of one append, kept for its capacity

  void event(const std::string &json) {
    text += first ? "\n" : ",\n";
    text += json;
    first = false;
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
  // The application's waits on the lanes of one track, from tid `base`.
  void waits(std::uint32_t pid, std::uint64_t base, const std::string &track, Lanes &lanes,
             const std::vector<WaitEvent> &list) {
    for (const WaitEvent &e : list) {
      const auto [lane, fresh] = lanes.place(e.start_ns, e.end_ns);
      if (fresh) thread_name(pid, base + lane, lane_name(track, lane));
      complete(pid, base + lane, "wait", e.call, static_cast<std::int64_t>(e.start_ns),
               static_cast<std::int64_t>(e.end_ns), "\"thread\": " + std::to_string(e.thread));
    }
  }
  // Writes `text` whole; on an error, one line and no more tracing.
  void write_text() {
    std::size_t at = 0;
    while (fd >= 0 && at < text.size()) {
      const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        std::fprintf(stderr, "%s: cannot write the trace to %s: %s; the trace stops here\n", kPrefix, path.c_str(),
                     std::strerror(n < 0 ? errno : EIO));
        ::close(fd);
        fd = -1;
      } else {
        at += static_cast<std::size_t>(n);
      }
    }
    text.clear();
  }
  void append(DeviceState &dev);
};

std::shared_ptr<TraceStream> open_trace(const std::string &path) {
  if (path.empty()) return nullptr;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    std::fprintf(stderr, "%s: cannot write the trace to %s: %s\n", kPrefix, path.c_str(), std::strerror(errno));
    return nullptr;
  }
  auto t = std::make_shared<TraceStream>();
  t->path = path;
  t->fd = fd;
  t->text = "[";
  t->write_text();
  return t->fd >= 0 ? t : nullptr;
}

// mutex held.
void TraceStream::append(DeviceState &dev) {
  Device &d = devices[dev.id];
  std::vector<QueueState *> queues;
  {
    std::shared_lock lock(Registry::get().mutex);
    for (const auto &q : dev.queues) queues.push_back(q.get());
  }
  d.queues.resize(queues.size());
  // The events since the last append: each ring's unwritten list swapped for the (empty) one kept here.
  for (std::size_t k = 0; k < queues.size(); ++k) {
    std::lock_guard lock(queues[k]->stats_mutex);
    queues[k]->submission_events.take_unwritten(d.queues[k].submission_events);
    queues[k]->wait_events.take_unwritten(d.queues[k].wait_events);
    queues[k]->present_events.take_unwritten(d.queues[k].present_events);
  }
  {
    std::lock_guard lock(dev.events_mutex);
    dev.unattributed_waits.take_unwritten(d.unattributed_events);
  }

  const std::uint32_t pid = dev.id + 1;
  const bool starting = !d.started;
  if (starting) {
    d.started = true;
    event("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + std::to_string(pid) + ", \"args\": {\"name\": " +
          json_quoted("device " + std::to_string(dev.id) + ": " + dev.name) +
          ", \"schema\": \"novem-queue-trace/2\", \"layer\": \"VK_LAYER_NOVEM_queue_diagnostics\", \"pid\": " +
          std::to_string(static_cast<long>(getpid())) + "}}");
  }
  for (const QueueTracks &t : d.queues)
    for (const SubmissionEvent &e : t.submission_events)
      if (e.gpu_measured) {
        const std::int64_t o = static_cast<std::int64_t>(e.complete_ns) - static_cast<std::int64_t>(e.gpu_end_ns);
        d.offset = d.have_offset ? std::min(d.offset, o) : o;
        d.have_offset = true;
      }

  for (std::size_t k = 0; k < queues.size(); ++k) {
    const QueueState &q = *queues[k];
    QueueTracks &t = d.queues[k];
    const std::uint64_t base = 1000 * (k + 1);
    const std::string track = "queue family " + std::to_string(q.family) + " index " + std::to_string(q.index);
    if (starting) { // lane 0 named at once, so that every queue has its track even if it does nothing
      t.submissions.place(0, 0);
      thread_name(pid, base, track);
    }
    for (const SubmissionEvent &e : t.submission_events) {
      const auto [lane, fresh] = t.submissions.place(e.submit_ns, e.complete_ns);
      if (fresh) thread_name(pid, base + lane, lane_name(track, lane));
      std::string args = "\"seq\": " + std::to_string(e.seq) + ", \"batches\": " + std::to_string(e.batches) +
                         ", \"command_buffers\": " + std::to_string(e.command_buffers) +
                         ", \"wait_semaphores\": " + std::to_string(e.wait_semaphores) +
                         ", \"signal_semaphores\": " + std::to_string(e.signal_semaphores);
      if (e.gpu_measured) args += ", \"gpu_ns\": " + std::to_string(e.gpu_ns);
      args += e.labels;
      complete(pid, base + lane, "submission", e.sparse ? "vkQueueBindSparse" : e.v2 ? "vkQueueSubmit2" : "vkQueueSubmit",
               static_cast<std::int64_t>(e.submit_ns), static_cast<std::int64_t>(e.complete_ns), args);
    }
    for (const SubmissionEvent &e : t.submission_events) {
      if (!e.gpu_measured) continue;
      const std::int64_t b = static_cast<std::int64_t>(e.gpu_begin_ns) + d.offset,
                         x = static_cast<std::int64_t>(e.gpu_end_ns) + d.offset;
      const auto [lane, fresh] = t.gpu.place(static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(x));
      if (fresh) thread_name(pid, base + 100 + lane, lane_name(track + " GPU", lane));
      complete(pid, base + 100 + lane, "gpu", "GPU", b, x,
               "\"seq\": " + std::to_string(e.seq) + ", \"gpu_ns\": " + std::to_string(e.gpu_ns));
    }
    for (std::uint64_t time : t.present_events)
      event("{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"present\", \"name\": \"vkQueuePresentKHR\", \"pid\": " +
            std::to_string(pid) + ", \"tid\": " + std::to_string(base) + ", \"ts\": " +
            us(static_cast<std::int64_t>(time)) + "}");
    waits(pid, base + 200, track + " waits", t.waits, t.wait_events);
    t.submission_events.clear();
    t.wait_events.clear();
    t.present_events.clear();
  }
  waits(pid, 100000, "waits (no queue)", d.unattributed, d.unattributed_events);
  d.unattributed_events.clear();
  write_text();
}

void flush_trace(DeviceState &dev) {
  TraceStream *t = Registry::get().trace();
  if (!t) return;
  std::lock_guard lock(t->mutex);
  if (t->fd >= 0) t->append(dev);
}

void flush_trace() {
  Registry &r = Registry::get();
  if (!r.trace()) return;
  std::vector<std::shared_ptr<DeviceState>> devices;
  {
    std::shared_lock lock(r.mutex);
    devices = r.all_devices;
  }
  for (const auto &dev : devices) flush_trace(*dev);
}

void close_trace() {
  TraceStream *t = Registry::get().trace();
  if (!t) return;
  std::lock_guard lock(t->mutex);
  if (t->fd < 0) return;
  t->text += "\n]\n";
  t->write_text();
  if (t->fd >= 0) ::close(t->fd);
  t->fd = -1;
}

} // namespace novem_qd
