// novem-diag REPORT.json [--timeline OUT.png] [--width W]
// Reads a report of VK_LAYER_NOVEM_queue_diagnostics (schema novem-queue-diagnostics/1, see
// layer/README.md), prints a per-queue table and optionally draws a timeline PNG, one row per queue.
// See README.md. Exit: 0 done, 1 unreadable / invalid report or unwritable PNG, 2 usage error.
#include "json.hpp"

#include <novem/image.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using novem::diag::Json;
using novem::diag::JsonParser;

// Versions add members and change none (layer/README.md), so any /N (N >= 1) is read: /1 members
// are the columns, /2's latency, GPU time, in-flight maximum, overlaps too; anything newer is
// listed as "other".
constexpr const char *kSchemaPrefix = "novem-queue-diagnostics/";

bool schema_ok(const std::string &schema) {
  const std::string prefix = kSchemaPrefix;
  if (schema.compare(0, prefix.size(), prefix) != 0 || schema.size() == prefix.size())
    return false;
  for (std::size_t i = prefix.size(); i < schema.size(); ++i)
    if (schema[i] < '0' || schema[i] > '9')
      return false;
  return std::strtoul(schema.c_str() + prefix.size(), nullptr, 10) >= 1;
}

struct Event {
  std::uint64_t submit = 0, complete = 0;
  bool completed = false;
};

struct QueueRow {
  std::uint64_t device = 0;
  const Json *queue = nullptr;
  std::vector<Event> events;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "novem-diag: %s\n", message.c_str());
  return 1;
}

std::string flags_of(const Json &q) {
  const Json *flags = q.find("family_flags");
  if (!flags || !flags->is_array())
    return "-";
  std::string out;
  for (const Json &f : flags->items) {
    if (!f.is_string() || f.text.empty())
      continue;
    // graphics g, compute c, transfer t, sparse_binding s, protected p, video_decode d, video_encode e, ...
    const std::string &t = f.text;
    out += t == "video_decode" ? 'd' : t == "video_encode" ? 'e' : t == "sparse_binding" ? 's' : t[0];
  }
  return out.empty() ? "-" : out;
}

std::uint64_t sub(const Json &j, const char *object, const char *field) {
  const Json *o = j.find(object);
  return o ? o->u64(field) : 0;
}

std::string ms(std::uint64_t ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

// A member of an object member in milliseconds, or "-" where the report (an older schema) has none.
std::string ms_or_dash(const Json &j, const char *object, const char *field) {
  const Json *o = j.find(object);
  return o && o->find(field) ? ms(o->u64(field)) : "-";
}
std::string u64_or_dash(const Json &j, const char *field) {
  return j.find(field) ? std::to_string(j.u64(field)) : "-";
}

// Scalars (and array sizes) of the members a table column does not show, flattened as a.b=value.
void others(const Json &j, const std::string &prefix, const std::vector<std::string> &known, std::string &out) {
  for (const auto &[key, value] : j.members) {
    if (prefix.empty() && std::find(known.begin(), known.end(), key) != known.end())
      continue;
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    switch (value.kind) {
    case Json::Kind::Object: others(value, name, known, out); break;
    case Json::Kind::Array: out += " " + name + "=[" + std::to_string(value.items.size()) + "]"; break;
    case Json::Kind::String: out += " " + name + "=\"" + value.text + "\""; break;
    case Json::Kind::Bool: out += " " + name + "=" + (value.boolean ? "true" : "false"); break;
    case Json::Kind::Null: out += " " + name + "=null"; break;
    case Json::Kind::Number: {
      char buf[64];
      if (value.is_uint)
        std::snprintf(buf, sizeof buf, "%" PRIu64, value.uint);
      else
        std::snprintf(buf, sizeof buf, "%g", value.number);
      out += " " + name + "=" + buf;
      break;
    }
    }
  }
}

void print_table(const Json &report, const std::vector<QueueRow> &rows) {
  std::printf("report: schema %s, pid %" PRIu64 ", reason %s, instances %" PRIu64 ", devices %zu, queues %zu\n",
              report.str("schema").c_str(), report.u64("pid"), report.str("reason", "?").c_str(),
              report.u64("instances_created"), report.find("devices")->items.size(), rows.size());
  for (const Json &dev : report.find("devices")->items) {
    const Json *destroyed = dev.find("destroyed"), *lost = dev.find("device_lost");
    std::string extra;
    if (lost && lost->boolean)
      extra += ", DEVICE LOST";
    if (dev.find("watchdog_dumps"))
      extra += ", watchdog dumps " + std::to_string(dev.u64("watchdog_dumps"));
    std::printf("device %" PRIu64 ": %s (vendor 0x%" PRIx64 ", device 0x%" PRIx64 ", api %s)%s%s; "
                "vkDeviceWaitIdle %" PRIu64 " calls %s ms; unattributed vkWaitForFences %" PRIu64 " calls %s ms\n",
                dev.u64("id"), dev.str("name", "?").c_str(), dev.u64("vendor_id"), dev.u64("device_id"),
                dev.str("api_version", "?").c_str(), destroyed && destroyed->boolean ? ", destroyed" : "", extra.c_str(),
                sub(dev, "device_wait_idle", "calls"), ms(sub(dev, "device_wait_idle", "blocked_ns")).c_str(),
                sub(dev, "wait_for_fences_unattributed", "calls"),
                ms(sub(dev, "wait_for_fences_unattributed", "blocked_ns")).c_str());
  }
  std::printf("%-4s %-7s %-6s %-6s %8s %8s %8s %9s %9s %7s %8s %7s %11s %11s %11s %11s %10s %8s %11s %11s %11s "
              "%9s\n",
              "dev", "family", "index", "flags", "submits", "batches", "cmdbufs", "wait b/t", "sig b/t", "fences",
              "presents", "failed", "qwi ms", "dwi ms", "wff ms", "blocked ms", "in_flight", "max_infl", "lat p50 ms",
              "lat max ms", "gpu ms", "overlaps");
  const std::vector<std::string> known = {
      "family",         "index",           "family_flags",      "submits",          "batches",
      "command_buffers", "wait_semaphores", "signal_semaphores", "fences",           "presents",
      "failed_submits", "queue_wait_idle", "device_wait_idle",  "wait_for_fences",  "blocked_ns",
      "in_flight_at_report", "in_flight_max",   "latency",           "gpu_time",         "thread_overlaps"};
  for (const QueueRow &row : rows) {
    const Json &q = *row.queue;
    const std::string wait = std::to_string(sub(q, "wait_semaphores", "binary")) + "/" +
                             std::to_string(sub(q, "wait_semaphores", "timeline"));
    const std::string signal = std::to_string(sub(q, "signal_semaphores", "binary")) + "/" +
                               std::to_string(sub(q, "signal_semaphores", "timeline"));
    std::printf("%-4" PRIu64 " %-7" PRIu64 " %-6" PRIu64 " %-6s %8" PRIu64 " %8" PRIu64 " %8" PRIu64
                " %9s %9s %7" PRIu64 " %8" PRIu64 " %7" PRIu64 " %11s %11s %11s %11s %10" PRIu64
                " %8s %11s %11s %11s %9s\n",
                row.device, q.u64("family"), q.u64("index"), flags_of(q).c_str(), q.u64("submits"),
                q.u64("batches"), q.u64("command_buffers"), wait.c_str(), signal.c_str(), q.u64("fences"),
                q.u64("presents"), q.u64("failed_submits"), ms(sub(q, "queue_wait_idle", "blocked_ns")).c_str(),
                ms(sub(q, "device_wait_idle", "blocked_ns")).c_str(),
                ms(sub(q, "wait_for_fences", "blocked_ns")).c_str(), ms(q.u64("blocked_ns")).c_str(),
                q.u64("in_flight_at_report"), u64_or_dash(q, "in_flight_max").c_str(),
                ms_or_dash(q, "latency", "p50").c_str(), ms_or_dash(q, "latency", "max").c_str(),
                ms_or_dash(q, "gpu_time", "total").c_str(),
                q.find("thread_overlaps") ? std::to_string(sub(q, "thread_overlaps", "count")).c_str() : "-");
    if (const Json *o = q.find("thread_overlaps"); o && o->find("list") && o->find("list")->is_array())
      for (const Json &e : o->find("list")->items)
        std::printf("     %" PRIu64 ".%" PRIu64 ".%" PRIu64 " overlap: thread %" PRIu64 " in %s while thread %" PRIu64
                    " in %s\n",
                    row.device, q.u64("family"), q.u64("index"), e.u64("thread"), e.str("call", "?").c_str(),
                    e.u64("other_thread"), e.str("other_call", "?").c_str());
    std::string extra;
    others(q, "", known, extra);
    if (!extra.empty())
      std::printf("     %" PRIu64 ".%" PRIu64 ".%" PRIu64 " other:%s\n", row.device, q.u64("family"), q.u64("index"),
                  extra.c_str());
  }
}

// ---- the timeline PNG ----
constexpr std::uint32_t kRowHeight = 20, kMargin = 10;

void fill_rect(novem::image::Image &img, std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1,
               const std::uint8_t rgb[3]) {
  x0 = std::max<std::int64_t>(x0, 0);
  y0 = std::max<std::int64_t>(y0, 0);
  x1 = std::min<std::int64_t>(x1, img.width);
  y1 = std::min<std::int64_t>(y1, img.height);
  for (std::int64_t y = y0; y < y1; ++y)
    for (std::int64_t x = x0; x < x1; ++x)
      img.set(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), rgb[0], rgb[1], rgb[2]);
}

novem::image::Image draw_timeline(const std::vector<QueueRow> &rows, std::uint32_t width) {
  const std::uint32_t count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(rows.size()));
  novem::image::Image img(width, 2 * kMargin + count * kRowHeight, 24, 24, 28);
  const std::int64_t left = kMargin, right = static_cast<std::int64_t>(width) - kMargin;
  const std::int64_t span = std::max<std::int64_t>(1, right - left);
  static const std::uint8_t band[2][3] = {{40, 40, 46}, {48, 48, 56}};
  static const std::uint8_t device_tint[4][3] = {{230, 160, 40}, {80, 200, 220}, {200, 90, 200}, {140, 210, 90}};
  static const std::uint8_t bars[2][3] = {{70, 130, 230}, {90, 170, 250}};
  static const std::uint8_t pending[3] = {230, 70, 60};
  static const std::uint8_t metric[3][3] = {{70, 130, 230}, {80, 200, 110}, {230, 70, 60}};

  bool have_events = false;
  std::uint64_t t0 = UINT64_MAX, t1 = 0;
  for (const QueueRow &r : rows)
    for (const Event &e : r.events) {
      have_events = true;
      t0 = std::min(t0, e.submit);
      t1 = std::max(t1, e.completed ? std::max(e.complete, e.submit) : e.submit);
    }
  // Counts mode: the largest of each metric over all queues.
  std::uint64_t max_metric[3] = {1, 1, 1};
  for (const QueueRow &r : rows) {
    max_metric[0] = std::max(max_metric[0], r.queue->u64("submits"));
    max_metric[1] = std::max(max_metric[1], r.queue->u64("command_buffers"));
    max_metric[2] = std::max(max_metric[2], r.queue->u64("blocked_ns"));
  }
  const double duration = have_events ? static_cast<double>(std::max<std::uint64_t>(1, t1 - t0)) : 1.0;
  auto x_of = [&](std::uint64_t t) {
    return left + static_cast<std::int64_t>(static_cast<double>(t - t0) / duration * static_cast<double>(span));
  };

  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const QueueRow &r = rows[i];
    const std::int64_t y = kMargin + static_cast<std::int64_t>(i) * kRowHeight;
    fill_rect(img, left, y, right, y + kRowHeight, band[i % 2]);
    fill_rect(img, 0, y + 2, 4, y + kRowHeight - 2, device_tint[r.device % 4]); // which device
    if (have_events) {
      std::size_t n = 0;
      for (const Event &e : r.events) {
        const std::int64_t x0 = x_of(e.submit);
        const std::int64_t x1 = e.completed ? std::max(x_of(std::max(e.complete, e.submit)), x0 + 1) : right;
        fill_rect(img, x0, y + 3, x1, y + kRowHeight - 3, e.completed ? bars[n++ % 2] : pending);
      }
    } else {
      const std::uint64_t values[3] = {r.queue->u64("submits"), r.queue->u64("command_buffers"),
                                       r.queue->u64("blocked_ns")};
      const std::int64_t h = (kRowHeight - 4) / 3;
      for (int m = 0; m < 3; ++m) {
        const std::int64_t len = static_cast<std::int64_t>(static_cast<double>(values[m]) /
                                                           static_cast<double>(max_metric[m]) *
                                                           static_cast<double>(span));
        fill_rect(img, left, y + 2 + m * h, left + len, y + 2 + (m + 1) * h, metric[m]);
      }
    }
  }
  return img;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, timeline;
  std::uint32_t width = 800;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--timeline" && i + 1 < argc) {
      timeline = argv[++i];
    } else if (a == "--width" && i + 1 < argc) {
      const long w = std::strtol(argv[++i], nullptr, 10);
      if (w < 64 || w > 16384) {
        std::fprintf(stderr, "novem-diag: --width must be 64..16384\n");
        return 2;
      }
      width = static_cast<std::uint32_t>(w);
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: novem-diag REPORT.json [--timeline OUT.png] [--width W]\n");
      return 0;
    } else if (input.empty() && (a.empty() || a[0] != '-')) {
      input = a;
    } else {
      std::fprintf(stderr, "usage: novem-diag REPORT.json [--timeline OUT.png] [--width W]\n");
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "usage: novem-diag REPORT.json [--timeline OUT.png] [--width W]\n");
    return 2;
  }

  std::error_code ec;
  if (std::filesystem::is_directory(input, ec))
    return fail("cannot read " + input + ": is a directory");
  std::ifstream in(input, std::ios::binary);
  if (!in)
    return fail("cannot read " + input + ": " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return fail("cannot read " + input);
  Json report;
  std::string error;
  if (!JsonParser::parse(ss.str(), report, error))
    return fail(input + ": not JSON: " + error);
  if (!report.is_object())
    return fail(input + ": not a queue diagnostics report (not a JSON object)");
  if (!schema_ok(report.str("schema")))
    return fail(input + ": schema is '" + report.str("schema", "(none)") + "', expected '" + kSchemaPrefix + "N'");
  const Json *devices = report.find("devices");
  if (!devices || !devices->is_array())
    return fail(input + ": no \"devices\" array");

  std::vector<QueueRow> rows;
  for (const Json &dev : devices->items) {
    const Json *queues = dev.is_object() ? dev.find("queues") : nullptr;
    if (!queues || !queues->is_array())
      return fail(input + ": a device has no \"queues\" array");
    for (const Json &q : queues->items) {
      if (!q.is_object())
        return fail(input + ": a queue is not an object");
      QueueRow row{dev.u64("id"), &q, {}};
      // Per-submission events, where a report has them: "submissions": [{"submit_ns", "complete_ns"}].
      if (const Json *subs = q.find("submissions"); subs && subs->is_array())
        for (const Json &s : subs->items) {
          if (!s.is_object() || !s.find("submit_ns"))
            continue;
          Event e{s.u64("submit_ns"), s.u64("complete_ns"), s.find("complete_ns") != nullptr};
          row.events.push_back(e);
        }
      rows.push_back(std::move(row));
    }
  }

  print_table(report, rows);
  if (!timeline.empty()) {
    const novem::image::Image img = draw_timeline(rows, width);
    if (!novem::image::write_png(timeline, img, &error))
      return fail("cannot write " + timeline + ": " + error);
    std::printf("timeline: %s (%ux%u, %zu rows, %s)\n", timeline.c_str(), img.width, img.height, rows.size(),
                std::any_of(rows.begin(), rows.end(), [](const QueueRow &r) { return !r.events.empty(); })
                    ? "submission bars"
                    : "count bars: submits, command buffers, blocked time");
  }
  return 0;
}
