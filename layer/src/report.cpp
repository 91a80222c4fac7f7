// The JSON report (schema in layer/README.md, "novem-queue-diagnostics/5"): every device this
// process created while the layer was loaded, live or destroyed, with each queue's counters.
// Written to a temporary file beside the target and renamed over it, so a reader never sees half.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <unistd.h>

#include "state.hpp"

namespace novem_qd {
namespace {

std::string quoted(const std::string &s) { return json_quoted(s); }

} // namespace

std::string json_quoted(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

namespace {

std::string version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string flag_list(VkQueueFlags f) {
  static const struct {
    VkQueueFlags bit;
    const char *name;
  } names[] = {{VK_QUEUE_GRAPHICS_BIT, "graphics"},
               {VK_QUEUE_COMPUTE_BIT, "compute"},
               {VK_QUEUE_TRANSFER_BIT, "transfer"},
               {VK_QUEUE_SPARSE_BINDING_BIT, "sparse_binding"},
               {VK_QUEUE_PROTECTED_BIT, "protected"},
               {VK_QUEUE_VIDEO_DECODE_BIT_KHR, "video_decode"},
               {VK_QUEUE_OPTICAL_FLOW_BIT_NV, "optical_flow"}};
  std::string out = "[";
  for (const auto &n : names)
    if (f & n.bit) out += std::string(out.size() > 1 ? ", " : "") + "\"" + n.name + "\"";
  return out + "]";
}

std::uint64_t load(const Counter &c) { return c.load(std::memory_order_relaxed); }

std::string wait(const WaitStats &w) {
  return "{\"calls\": " + std::to_string(load(w.calls)) + ", \"blocked_ns\": " + std::to_string(load(w.blocked_ns)) +
         "}";
}

std::string stats(const Histogram &h) {
  return "{\"count\": " + std::to_string(h.count) + ", \"min\": " + std::to_string(h.min) +
         ", \"mean\": " + std::to_string(h.count ? h.sum / h.count : 0) + ", \"max\": " + std::to_string(h.max) +
         ", \"p50\": " + std::to_string(h.percentile(0.50)) + ", \"p99\": " + std::to_string(h.percentile(0.99)) + "}";
}

void write_waits(std::ostringstream &o, const Ring<WaitEvent> &waits) {
  o << "[";
  bool first = true;
  waits.for_each([&](const WaitEvent &w) {
    o << (first ? "" : ", ") << "{\"call\": \"" << w.call << "\", \"start_ns\": " << w.start_ns
      << ", \"end_ns\": " << w.end_ns << ", \"thread\": " << w.thread << "}";
    first = false;
  });
  o << "]";
}

void write_queue(std::ostringstream &o, QueueState &q) {
  std::uint64_t lat_n, lat_min, lat_max, lat_mean, p50, p99, gpu_n, gpu_total, gpu_max, unmeasured, skipped;
  std::vector<Overlap> overlaps;
  std::ostringstream events; // the event lists, written under the lock
  std::string present_intervals;
  {
    std::lock_guard lock(q.stats_mutex);
    lat_n = q.latency.count;
    lat_min = q.latency.min;
    lat_max = q.latency.max;
    lat_mean = lat_n ? q.latency.sum / lat_n : 0;
    p50 = q.latency.percentile(0.50);
    p99 = q.latency.percentile(0.99);
    gpu_n = q.gpu_count;
    gpu_total = q.gpu_total;
    gpu_max = q.gpu_max;
    unmeasured = q.gpu_unmeasured_batches.load(std::memory_order_relaxed);
    skipped = q.gpu_skipped_batches.load(std::memory_order_relaxed);
    overlaps = q.overlap_list;
    present_intervals = stats(q.present_intervals);
    events << ",\n          \"submissions_dropped\": " << q.submission_events.dropped << ", \"submissions\": [";
    bool first = true;
    q.submission_events.for_each([&](const SubmissionEvent &e) {
      events << (first ? "\n" : ",\n") << "            {\"seq\": " << e.seq << ", \"submit_ns\": " << e.submit_ns
             << ", \"complete_ns\": " << e.complete_ns << ", \"batches\": " << e.batches
             << ", \"command_buffers\": " << e.command_buffers;
      if (e.sparse) events << ", \"call\": \"vkQueueBindSparse\"";
      if (e.gpu_measured)
        events << ", \"gpu_ns\": " << e.gpu_ns << ", \"gpu_begin_ns\": " << e.gpu_begin_ns
               << ", \"gpu_end_ns\": " << e.gpu_end_ns;
      events << e.labels << "}";
      first = false;
    });
    events << (first ? "]" : "\n          ]");
    events << ",\n          \"waits_dropped\": " << q.wait_events.dropped << ", \"waits\": ";
    write_waits(events, q.wait_events);
    events << ",\n          \"presents_dropped\": " << q.present_events.dropped << ", \"present_times\": [";
    first = true;
    q.present_events.for_each([&](std::uint64_t t) {
      events << (first ? "" : ", ") << t;
      first = false;
    });
    events << "]";
  }
  std::string overlap_text = "[";
  for (std::size_t i = 0; i < overlaps.size(); ++i)
    overlap_text += std::string(i ? ", " : "") + "{\"thread\": " + std::to_string(overlaps[i].thread) +
                    ", \"call\": " + quoted(overlaps[i].call) +
                    ", \"other_thread\": " + std::to_string(overlaps[i].other_thread) +
                    ", \"other_call\": " + quoted(overlaps[i].other_call) + "}";
  overlap_text += "]";
  o << "        {\n"
    << "          \"family\": " << q.family << ", \"index\": " << q.index
    << ", \"family_flags\": " << flag_list(q.family_flags) << ", \"create_flags\": " << q.create_flags << ",\n"
    << "          \"submits\": " << load(q.submitted_seq) << ", \"submit_calls\": {\"vkQueueSubmit\": "
    << load(q.submit_calls_v1) << ", \"vkQueueSubmit2\": " << load(q.submit_calls_v2)
    << ", \"vkQueueBindSparse\": " << load(q.submit_calls_sparse) << "}"
    << ", \"failed_submits\": " << load(q.failed_submits) << ",\n"
    << "          \"batches\": " << load(q.batches) << ", \"command_buffers\": " << load(q.command_buffers) << ",\n"
    << "          \"wait_semaphores\": {\"binary\": " << load(q.wait_binary) << ", \"timeline\": "
    << load(q.wait_timeline) << "},\n"
    << "          \"signal_semaphores\": {\"binary\": " << load(q.signal_binary) << ", \"timeline\": "
    << load(q.signal_timeline) << "},\n"
    << "          \"fences\": " << load(q.fences) << ", \"presents\": " << load(q.presents)
    << ", \"present_swapchains\": " << load(q.present_swapchains) << ",\n"
    << "          \"queue_wait_idle\": " << wait(q.queue_wait_idle) << ",\n"
    << "          \"device_wait_idle\": " << wait(q.device_wait_idle) << ",\n"
    << "          \"wait_for_fences\": " << wait(q.wait_for_fences) << ",\n"
    << "          \"wait_semaphores_blocked\": " << wait(q.wait_semaphores_blocked) << ",\n"
    << "          \"blocked_ns\": " << q.blocked_ns() << ",\n"
    << "          \"present_intervals\": " << present_intervals << ",\n"
    << "          \"in_flight_at_report\": " << (load(q.submitted_seq) - std::min(load(q.submitted_seq), q.known_complete()))
    << ", \"in_flight_max\": " << load(q.in_flight_max) << ",\n"
    << "          \"latency\": {\"count\": " << lat_n << ", \"min\": " << lat_min << ", \"mean\": " << lat_mean
    << ", \"max\": " << lat_max << ", \"p50\": " << p50 << ", \"p99\": " << p99 << "},\n"
    << "          \"timestamps\": " << (q.timestamp_pool ? "true" : "false") << ", \"gpu_time\": {\"count\": " << gpu_n
    << ", \"total\": " << gpu_total << ", \"max\": " << gpu_max << ", \"unmeasured_batches\": " << unmeasured
    << ", \"skipped_batches\": " << skipped << ", \"timestamp_every\": " << q.device->timestamp_every << "},\n"
    << "          \"thread_overlaps\": {\"count\": " << load(q.overlaps) << ", \"list\": " << overlap_text << "}"
    << events.str() << "\n        }";
}

} // namespace

void write_report(const char *reason) {
  Registry &r = Registry::get();
  if (r.forked) return; // the report is the parent's (fork.cpp)
  std::vector<std::shared_ptr<DeviceState>> devices;
  std::uint32_t instances_created;
  {
    std::shared_lock lock(r.mutex);
    devices = r.all_devices;
    instances_created = r.instances_created;
  }
  std::ostringstream o;
  o << "{\n"
    << "  \"schema\": \"novem-queue-diagnostics/5\",\n"
    << "  \"layer\": \"VK_LAYER_NOVEM_queue_diagnostics\",\n"
    << "  \"pid\": " << static_cast<long>(getpid()) << ",\n"
    << "  \"reason\": " << quoted(reason) << ",\n"
    << "  \"instances_created\": " << instances_created << ",\n"
    << "  \"devices\": [";
  for (std::size_t d = 0; d < devices.size(); ++d) {
    DeviceState &dev = *devices[d];
    o << (d ? "," : "") << "\n    {\n"
      << "      \"id\": " << dev.id << ", \"name\": " << quoted(dev.name) << ", \"vendor_id\": " << dev.vendor_id
      << ", \"device_id\": " << dev.device_id << ", \"api_version\": " << quoted(version_string(dev.api_version))
      << ", \"destroyed\": " << (dev.destroyed.load() ? "true" : "false") << ",\n"
      << "      \"device_wait_idle\": " << wait(dev.device_wait_idle) << ",\n"
      << "      \"wait_for_fences_unattributed\": " << wait(dev.wait_for_fences_unattributed) << ",\n"
      << "      \"wait_semaphores_unattributed\": " << wait(dev.wait_semaphores_unattributed) << ",\n"
      << "      \"extension_enabled\": " << (dev.diagnostics_extension ? "true" : "false") << ",\n"
      << "      \"device_lost\": " << (dev.device_lost.load() ? "true" : "false")
      << ", \"watchdog_dumps\": " << load(dev.watchdog_dumps) << ",\n"
      << "      \"layer_thread_cpu_ns\": " << tracker_cpu_ns(dev) << ",\n"
      << "      \"unattributed_waits\": ";
    {
      std::lock_guard lock(dev.events_mutex);
      write_waits(o, dev.unattributed_waits);
    }
    o << ",\n      \"queues\": [";
    std::vector<QueueState *> queues;
    {
      std::shared_lock lock(r.mutex);
      for (const auto &q : dev.queues) queues.push_back(q.get());
    }
    for (std::size_t i = 0; i < queues.size(); ++i) {
      o << (i ? ",\n" : "\n");
      write_queue(o, *queues[i]);
    }
    o << (queues.empty() ? "]" : "\n      ]") << "\n    }";
  }
  o << (devices.empty() ? "]" : "\n  ]") << "\n}\n";

  std::lock_guard lock(r.report_mutex); // no Vulkan call is made under it
  write_file_atomically(r.settings_for(nullptr).report_path, o.str());
}

void write_outputs(const char *reason) {
  write_report(reason);
  flush_trace();
}

bool write_file_atomically(const std::string &path, const std::string &text) {
  // The temporary name carries the thread too: two writers (a trigger and an exit) never share it.
  const std::string tmp = path + ".tmp" + std::to_string(static_cast<long>(getpid())) + "." + std::to_string(thread_id());
  FILE *f = std::fopen(tmp.c_str(), "w");
  const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (!f || std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "VK_LAYER_NOVEM_queue_diagnostics: cannot write %s\n", path.c_str());
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace novem_qd
