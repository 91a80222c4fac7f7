// novem-diag REPORT.json|DUMP.json [--timeline OUT.png] [--width W] [--from MS] [--to MS] [--csv OUT.csv]
// Reads a report of VK_LAYER_NOVEM_queue_diagnostics (schema novem-queue-diagnostics/N, see
// layer/README.md), prints a per-queue table and optionally draws a timeline PNG, one row per queue.
// See README.md. Exit: 0 done, 1 unreadable / invalid report or unwritable PNG, 2 usage error.
#include "draw.hpp"
#include "dump.hpp"
#include "frames.hpp"
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

using novem::diag::draw_text;
using novem::diag::fill_rect;
using novem::diag::Json;
using novem::diag::JsonParser;
using novem::diag::tick_label;
using novem::diag::tick_step;

// Versions add members and change none (layer/README.md), so any /N (N >= 1) is read: /1 members
// are the columns, /2's latency, GPU time, in-flight maximum, overlaps too, /3's vkWaitSemaphores
// time and present intervals, and its events draw the time-axis timeline; anything newer is listed
// as "other".
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
  bool gpu = false;                   // schema /3: GPU begin / end on the device's timestamp clock
  std::uint64_t gpu_begin = 0, gpu_end = 0;
};

struct Span {
  std::uint64_t begin = 0, end = 0;
};

struct QueueRow {
  std::uint64_t device = 0;
  const Json *queue = nullptr;
  std::vector<Event> events;
  std::vector<Span> waits;              // schema /3 "waits"
  std::vector<std::uint64_t> presents;  // schema /3 "present_times"
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
                "vkDeviceWaitIdle %" PRIu64 " calls %s ms; unattributed vkWaitForFences %" PRIu64 " calls %s ms%s\n",
                dev.u64("id"), dev.str("name", "?").c_str(), dev.u64("vendor_id"), dev.u64("device_id"),
                dev.str("api_version", "?").c_str(), destroyed && destroyed->boolean ? ", destroyed" : "", extra.c_str(),
                sub(dev, "device_wait_idle", "calls"), ms(sub(dev, "device_wait_idle", "blocked_ns")).c_str(),
                sub(dev, "wait_for_fences_unattributed", "calls"),
                ms(sub(dev, "wait_for_fences_unattributed", "blocked_ns")).c_str(),
                dev.find("wait_semaphores_unattributed")
                    ? ("; unattributed vkWaitSemaphores " + std::to_string(sub(dev, "wait_semaphores_unattributed", "calls")) +
                       " calls " + ms(sub(dev, "wait_semaphores_unattributed", "blocked_ns")) + " ms")
                          .c_str()
                    : "");
  }
  std::printf("%-4s %-7s %-6s %-6s %8s %8s %8s %9s %9s %7s %8s %7s %11s %11s %11s %11s %11s %10s %8s %11s %11s "
              "%11s %9s\n",
              "dev", "family", "index", "flags", "submits", "batches", "cmdbufs", "wait b/t", "sig b/t", "fences",
              "presents", "failed", "qwi ms", "dwi ms", "wff ms", "wsem ms", "blocked ms", "in_flight", "max_infl",
              "lat p50 ms", "lat max ms", "gpu ms", "overlaps");
  // Members shown as columns or lines, and the event lists (drawn by --timeline), are not "other".
  const std::vector<std::string> known = {
      "family",         "index",           "family_flags",      "submits",          "batches",
      "command_buffers", "wait_semaphores", "signal_semaphores", "fences",           "presents",
      "failed_submits", "queue_wait_idle", "device_wait_idle",  "wait_for_fences",  "blocked_ns",
      "in_flight_at_report", "in_flight_max",   "latency",           "gpu_time",         "thread_overlaps",
      "wait_semaphores_blocked", "present_intervals", "submissions", "submissions_dropped", "waits",
      "waits_dropped", "present_times", "presents_dropped"};
  for (const QueueRow &row : rows) {
    const Json &q = *row.queue;
    const std::string wait = std::to_string(sub(q, "wait_semaphores", "binary")) + "/" +
                             std::to_string(sub(q, "wait_semaphores", "timeline"));
    const std::string signal = std::to_string(sub(q, "signal_semaphores", "binary")) + "/" +
                               std::to_string(sub(q, "signal_semaphores", "timeline"));
    std::printf("%-4" PRIu64 " %-7" PRIu64 " %-6" PRIu64 " %-6s %8" PRIu64 " %8" PRIu64 " %8" PRIu64
                " %9s %9s %7" PRIu64 " %8" PRIu64 " %7" PRIu64 " %11s %11s %11s %11s %11s %10" PRIu64
                " %8s %11s %11s %11s %9s\n",
                row.device, q.u64("family"), q.u64("index"), flags_of(q).c_str(), q.u64("submits"),
                q.u64("batches"), q.u64("command_buffers"), wait.c_str(), signal.c_str(), q.u64("fences"),
                q.u64("presents"), q.u64("failed_submits"), ms(sub(q, "queue_wait_idle", "blocked_ns")).c_str(),
                ms(sub(q, "device_wait_idle", "blocked_ns")).c_str(),
                ms(sub(q, "wait_for_fences", "blocked_ns")).c_str(),
                ms_or_dash(q, "wait_semaphores_blocked", "blocked_ns").c_str(), ms(q.u64("blocked_ns")).c_str(),
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
    if (const Json *pi = q.find("present_intervals"); pi && q.u64("presents") > 0)
      std::printf("     %" PRIu64 ".%" PRIu64 ".%" PRIu64 " presents %" PRIu64 ", interval ms: n %" PRIu64
                  " min %s mean %s max %s p99 %s\n",
                  row.device, q.u64("family"), q.u64("index"), q.u64("presents"), pi->u64("count"),
                  ms(pi->u64("min")).c_str(), ms(pi->u64("mean")).c_str(), ms(pi->u64("max")).c_str(),
                  ms(pi->u64("p99")).c_str());
    std::string extra;
    others(q, "", known, extra);
    if (!extra.empty())
      std::printf("     %" PRIu64 ".%" PRIu64 ".%" PRIu64 " other:%s\n", row.device, q.u64("family"), q.u64("index"),
                  extra.c_str());
  }
}

// ---- the timeline PNG ----
// Count mode (reports without events): one 20-pixel row per queue, 10-pixel margins.
constexpr std::uint32_t kRowHeight = 20, kMargin = 10;
// Time mode (schema /3 events): a label column, a time axis on top, one kQueueRow row per queue.
constexpr std::uint32_t kLabelWidth = 64, kAxisHeight = 24, kQueueRow = 44;
// Both: a legend under the rows.
constexpr std::uint32_t kLegendHeight = 20;

// One legend entry: a swatch and its meaning; returns the x after it.
std::int64_t legend(novem::image::Image &img, std::int64_t x, std::int64_t y, const std::uint8_t rgb[3],
                    const std::string &what) {
  static const std::uint8_t text[3] = {200, 200, 210};
  fill_rect(img, x, y, x + 16, y + 10, rgb);
  return draw_text(img, x + 22, y, what, text) + 16;
}

// The time window drawn: all events, or --from / --to (ms after the earliest event).
struct Window {
  double from_ms = -1, to_ms = -1; // < 0: not given
};

// Counts mode: three bars per queue, each scaled to the largest value over all queues.
novem::image::Image draw_counts(const std::vector<QueueRow> &rows, std::uint32_t width) {
  const std::uint32_t count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(rows.size()));
  novem::image::Image img(width, 2 * kMargin + count * kRowHeight + kLegendHeight, 24, 24, 28);
  const std::int64_t left = kMargin, right = static_cast<std::int64_t>(width) - kMargin;
  const std::int64_t span = std::max<std::int64_t>(1, right - left);
  static const std::uint8_t band[2][3] = {{40, 40, 46}, {48, 48, 56}};
  static const std::uint8_t device_tint[4][3] = {{230, 160, 40}, {80, 200, 220}, {200, 90, 200}, {140, 210, 90}};
  static const std::uint8_t metric[3][3] = {{70, 130, 230}, {80, 200, 110}, {230, 70, 60}};
  std::uint64_t max_metric[3] = {1, 1, 1};
  for (const QueueRow &r : rows) {
    max_metric[0] = std::max(max_metric[0], r.queue->u64("submits"));
    max_metric[1] = std::max(max_metric[1], r.queue->u64("command_buffers"));
    max_metric[2] = std::max(max_metric[2], r.queue->u64("blocked_ns"));
  }
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const QueueRow &r = rows[i];
    const std::int64_t y = kMargin + static_cast<std::int64_t>(i) * kRowHeight;
    fill_rect(img, left, y, right, y + kRowHeight, band[i % 2]);
    fill_rect(img, 0, y + 2, 4, y + kRowHeight - 2, device_tint[r.device % 4]); // which device
    const std::uint64_t values[3] = {r.queue->u64("submits"), r.queue->u64("command_buffers"),
                                     r.queue->u64("blocked_ns")};
    const std::int64_t h = (kRowHeight - 4) / 3;
    for (int m = 0; m < 3; ++m) {
      const std::int64_t len = static_cast<std::int64_t>(static_cast<double>(values[m]) /
                                                         static_cast<double>(max_metric[m]) * static_cast<double>(span));
      fill_rect(img, left, y + 2 + m * h, left + len, y + 2 + (m + 1) * h, metric[m]);
    }
  }
  const std::int64_t ly = 2 * kMargin + count * kRowHeight;
  std::int64_t x = legend(img, left, ly, metric[0], "submits");
  x = legend(img, x, ly, metric[1], "command buffers");
  legend(img, x, ly, metric[2], "blocked time (each scaled to the largest)");
  return img;
}

// Time mode. x is time (ms from the earliest event, labelled on the axis); per queue (labelled
// "D<device> q<family>.<index>"): white ticks on top for the presents; the submissions as bars from
// submit to completion (blue; red to the right edge for one still in flight), overlapping ones on
// up to four lanes; the GPU execution shaded green inside its bar; the application's waits
// attributed to the queue as orange bars at the bottom. GPU times are on the device's clock: they
// are shifted by min over the device's submissions of (completion - GPU end), as the trace does.
novem::image::Image draw_timeline(const std::vector<QueueRow> &rows, std::uint32_t width, const Window &window) {
  const bool have_events = std::any_of(rows.begin(), rows.end(), [](const QueueRow &r) { return !r.events.empty(); });
  if (!have_events) return draw_counts(rows, width);
  const std::uint32_t count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(rows.size()));
  novem::image::Image img(width, kAxisHeight + count * kQueueRow + kMargin + kLegendHeight, 24, 24, 28);
  const std::int64_t left = kLabelWidth, right = static_cast<std::int64_t>(width) - kMargin;
  const std::int64_t span = std::max<std::int64_t>(1, right - left);
  static const std::uint8_t band[2][3] = {{40, 40, 46}, {48, 48, 56}};
  static const std::uint8_t bars[2][3] = {{60, 110, 210}, {90, 150, 240}};
  static const std::uint8_t pending[3] = {230, 70, 60}, gpu[3] = {80, 220, 120}, wait[3] = {240, 150, 40},
                            present[3] = {250, 250, 250}, text[3] = {200, 200, 210}, grid[3] = {70, 70, 80};

  // The GPU clock offset of each device.
  std::vector<std::pair<std::uint64_t, std::int64_t>> offsets; // device -> CPU - GPU
  for (const QueueRow &r : rows)
    for (const Event &e : r.events) {
      if (!e.gpu || !e.completed) continue;
      const std::int64_t d = static_cast<std::int64_t>(e.complete) - static_cast<std::int64_t>(e.gpu_end);
      auto it = std::find_if(offsets.begin(), offsets.end(), [&](const auto &o) { return o.first == r.device; });
      if (it == offsets.end()) offsets.emplace_back(r.device, d);
      else it->second = std::min(it->second, d);
    }
  auto offset_of = [&](std::uint64_t device) {
    auto it = std::find_if(offsets.begin(), offsets.end(), [&](const auto &o) { return o.first == device; });
    return it == offsets.end() ? 0 : it->second;
  };

  std::uint64_t t0 = UINT64_MAX, t1 = 0;
  for (const QueueRow &r : rows) {
    for (const Event &e : r.events) {
      t0 = std::min(t0, e.submit);
      t1 = std::max(t1, e.completed ? std::max(e.complete, e.submit) : e.submit);
    }
    for (const Span &w : r.waits) {
      t0 = std::min(t0, w.begin);
      t1 = std::max(t1, w.end);
    }
    for (std::uint64_t p : r.presents) {
      t0 = std::min(t0, p);
      t1 = std::max(t1, p);
    }
  }
  // The window: [v0, v1] in ns; the labels stay ms after the earliest event (t0), zoomed or not.
  const std::uint64_t origin = t0;
  if (window.from_ms >= 0) t0 = origin + static_cast<std::uint64_t>(window.from_ms * 1e6);
  if (window.to_ms >= 0) t1 = origin + static_cast<std::uint64_t>(window.to_ms * 1e6);
  const std::uint64_t duration = std::max<std::uint64_t>(1, t1 - std::min(t0, t1));
  auto x_of = [&](std::int64_t t) {
    const double f = static_cast<double>(t - static_cast<std::int64_t>(t0)) / static_cast<double>(duration);
    return left + static_cast<std::int64_t>(std::clamp(f, 0.0, 1.0) * static_cast<double>(span));
  };
  // Whether [a, b] shows in the window at all (what does not is not drawn, not squeezed to an edge).
  auto visible = [&](std::uint64_t a, std::uint64_t b) { return b >= t0 && a <= t1; };
  const std::int64_t rows_bottom = kAxisHeight + static_cast<std::int64_t>(count) * kQueueRow;

  // The axis: a tick and its label (ms) every step; "ms" in the label column.
  draw_text(img, 4, 6, "ms", text);
  const std::uint64_t step = tick_step(duration, std::max<std::int64_t>(1, span / 90));
  for (std::uint64_t t = (t0 - origin + step - 1) / step * step; origin + t <= t1; t += step) {
    const std::int64_t x = x_of(static_cast<std::int64_t>(origin + t));
    fill_rect(img, x, kAxisHeight - 6, x + 1, rows_bottom, grid);
    if (x + 8 * static_cast<std::int64_t>(tick_label(t).size()) <= static_cast<std::int64_t>(width))
      draw_text(img, x + 2, 4, tick_label(t), text);
  }

  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const QueueRow &r = rows[i];
    const std::int64_t y = kAxisHeight + static_cast<std::int64_t>(i) * kQueueRow;
    fill_rect(img, left, y, right, y + kQueueRow - 4, band[i % 2]);
    draw_text(img, 2, y + 14,
              "D" + std::to_string(r.device) + " q" + std::to_string(r.queue->u64("family")) + "." +
                  std::to_string(r.queue->u64("index")),
              text);
    for (std::uint64_t p : r.presents) {
      if (!visible(p, p)) continue;
      const std::int64_t x = x_of(static_cast<std::int64_t>(p));
      fill_rect(img, x, y + 1, x + 1, y + 6, present);
    }
    // Lanes: each submission on the first lane free at its submit.
    constexpr int kLanes = 4;
    const std::int64_t lane_top = y + 7, lane_h = 6;
    std::uint64_t lane_end[kLanes] = {0, 0, 0, 0};
    std::size_t n = 0;
    const std::int64_t offset = offset_of(r.device);
    for (const Event &e : r.events) {
      const std::uint64_t end = e.completed ? std::max(e.complete, e.submit) : UINT64_MAX;
      int lane = 0;
      while (lane < kLanes - 1 && lane_end[lane] > e.submit) ++lane;
      lane_end[lane] = end;
      if (!visible(e.submit, end)) continue;
      const std::int64_t ly = lane_top + lane * lane_h;
      const std::int64_t x0 = x_of(static_cast<std::int64_t>(e.submit));
      const std::int64_t x1 = e.completed ? std::max(x_of(static_cast<std::int64_t>(end)), x0 + 1) : right;
      fill_rect(img, x0, ly, x1, ly + lane_h - 1, e.completed ? bars[n++ % 2] : pending);
      if (e.gpu) {
        const std::int64_t g0 = x_of(static_cast<std::int64_t>(e.gpu_begin) + offset);
        const std::int64_t g1 = std::max(x_of(static_cast<std::int64_t>(e.gpu_end) + offset), g0 + 1);
        fill_rect(img, g0, ly + 1, g1, ly + lane_h - 2, gpu);
      }
    }
    for (const Span &w : r.waits) {
      if (!visible(w.begin, w.end)) continue;
      const std::int64_t x0 = x_of(static_cast<std::int64_t>(w.begin));
      fill_rect(img, x0, y + 33, std::max(x_of(static_cast<std::int64_t>(w.end)), x0 + 1), y + 38, wait);
    }
  }
  const std::int64_t ly = rows_bottom + kMargin;
  std::int64_t x = legend(img, left, ly, bars[0], "submit to complete");
  x = legend(img, x, ly, pending, "in flight");
  x = legend(img, x, ly, gpu, "GPU");
  x = legend(img, x, ly, wait, "app waits");
  legend(img, x, ly, present, "present");
  return img;
}

// Frame times per queue that presented (MangoHud's figures), and the per-frame CSV.
void print_frames(const std::vector<QueueRow> &rows) {
  for (const QueueRow &r : rows) {
    const novem::diag::FrameStats f = novem::diag::frame_stats(r.presents);
    if (!f.frames) continue;
    std::printf("     %" PRIu64 ".%" PRIu64 ".%" PRIu64 " frames %zu: frame time ms p50 %.3f p90 %.3f p99 %.3f; "
                "fps %.1f, 1%% low %.1f, 0.1%% low %.1f\n",
                r.device, r.queue->u64("family"), r.queue->u64("index"), f.frames, f.p50_ms, f.p90_ms, f.p99_ms, f.fps,
                f.low1_fps, f.low01_fps);
  }
}

constexpr const char *kUsage =
    "usage: novem-diag REPORT.json|DUMP.json [--timeline OUT.png] [--width W] [--from MS] [--to MS] [--csv OUT.csv]\n";

// A number of milliseconds >= 0 (a fraction allowed), or -1.
double parse_ms(const char *s) {
  char *end = nullptr;
  const double v = std::strtod(s, &end);
  return *s && !*end && v >= 0 && v < 1e12 ? v : -1;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, timeline, csv;
  std::uint32_t width = 1200;
  Window window;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--timeline" && i + 1 < argc) {
      timeline = argv[++i];
    } else if (a == "--csv" && i + 1 < argc) {
      csv = argv[++i];
    } else if ((a == "--from" || a == "--to") && i + 1 < argc) {
      const double v = parse_ms(argv[++i]);
      if (v < 0) {
        std::fprintf(stderr, "novem-diag: %s takes milliseconds (0 or more) after the earliest event\n", a.c_str());
        return 2;
      }
      (a == "--from" ? window.from_ms : window.to_ms) = v;
    } else if (a == "--width" && i + 1 < argc) {
      const long w = std::strtol(argv[++i], nullptr, 10);
      if (w < 64 || w > 16384) {
        std::fprintf(stderr, "novem-diag: --width must be 64..16384\n");
        return 2;
      }
      width = static_cast<std::uint32_t>(w);
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (input.empty() && (a.empty() || a[0] != '-')) {
      input = a;
    } else {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  if (window.from_ms >= 0 && window.to_ms >= 0 && window.to_ms <= window.from_ms) {
    std::fprintf(stderr, "novem-diag: --to must be after --from\n");
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
  if (report.str("schema").rfind(novem::diag::kDumpSchemaPrefix, 0) == 0) {
    novem::diag::print_dump(report);
    if (!timeline.empty()) {
      const novem::image::Image img = novem::diag::draw_dump(report, width);
      if (!novem::image::write_png(timeline, img, &error)) return fail("cannot write " + timeline + ": " + error);
      std::printf("timeline: %s (%ux%u, in-flight bars)\n", timeline.c_str(), img.width, img.height);
    }
    return 0;
  }
  if (!schema_ok(report.str("schema")))
    return fail(input + ": schema is '" + report.str("schema", "(none)") + "', expected '" + kSchemaPrefix + "N' or '" +
                novem::diag::kDumpSchemaPrefix + "N'");
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
      QueueRow row{dev.u64("id"), &q, {}, {}, {}};
      // Per-submission events (schema /3): "submissions": [{"submit_ns", "complete_ns", "gpu_begin_ns", ...}].
      if (const Json *subs = q.find("submissions"); subs && subs->is_array())
        for (const Json &s : subs->items) {
          if (!s.is_object() || !s.find("submit_ns"))
            continue;
          Event e{s.u64("submit_ns"), s.u64("complete_ns"), s.find("complete_ns") != nullptr,
                  s.find("gpu_begin_ns") && s.find("gpu_end_ns"), s.u64("gpu_begin_ns"), s.u64("gpu_end_ns")};
          row.events.push_back(e);
        }
      if (const Json *waits = q.find("waits"); waits && waits->is_array())
        for (const Json &w : waits->items)
          if (w.is_object() && w.find("start_ns"))
            row.waits.push_back(Span{w.u64("start_ns"), std::max(w.u64("start_ns"), w.u64("end_ns"))});
      if (const Json *presents = q.find("present_times"); presents && presents->is_array())
        for (const Json &t : presents->items)
          if (t.is_number() && t.is_uint) row.presents.push_back(t.uint);
      rows.push_back(std::move(row));
    }
  }

  print_table(report, rows);
  print_frames(rows);
  if (!csv.empty()) {
    std::vector<novem::diag::FrameSeries> series;
    for (const QueueRow &r : rows)
      if (!r.presents.empty())
        series.push_back({r.device, r.queue->u64("family"), r.queue->u64("index"), r.presents});
    if (!novem::diag::write_frames_csv(csv, series, error)) return fail("cannot write " + csv + ": " + error);
    std::printf("frames: %s (%zu queues)\n", csv.c_str(), series.size());
  }
  if (!timeline.empty()) {
    const novem::image::Image img = draw_timeline(rows, width, window);
    if (!novem::image::write_png(timeline, img, &error))
      return fail("cannot write " + timeline + ": " + error);
    std::printf("timeline: %s (%ux%u, %zu rows, %s)\n", timeline.c_str(), img.width, img.height, rows.size(),
                std::any_of(rows.begin(), rows.end(), [](const QueueRow &r) { return !r.events.empty(); })
                    ? "time axis, submission bars"
                    : "count bars: submits, command buffers, blocked time");
  }
  return 0;
}
