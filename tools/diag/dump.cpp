// The dump list and picture of dump.hpp.
#include "dump.hpp"

#include "draw.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace novem::diag {

namespace {

constexpr std::int64_t kLabelWidth = 96, kAxisHeight = 24, kLaneHeight = 16, kMargin = 10, kLegendHeight = 20;
constexpr std::size_t kMaxLanes = 8; // per queue; further submissions are counted on the last lane

// What names a dump entry (novem-queue-dump/2): the queue's name and its open labels, then each
// command buffer's name and the labels it began or inserted, in order.
std::vector<std::string> labels_of(const Json &entry) {
  std::vector<std::string> out;
  if (const std::string name = entry.str("queue_name"); !name.empty()) out.push_back(name);
  if (const Json *list = entry.find("queue_labels"); list && list->is_array())
    for (const Json &l : list->items)
      if (l.is_string()) out.push_back(l.text);
  if (const Json *cbs = entry.find("command_buffer_details"); cbs && cbs->is_array())
    for (const Json &cb : cbs->items) {
      if (!cb.is_object()) continue;
      if (const std::string name = cb.str("name"); !name.empty()) out.push_back(name);
      if (const Json *ops = cb.find("labels"); ops && ops->is_array())
        for (const Json &op : ops->items)
          if (op.is_object() && !op.str("label").empty()) out.push_back(op.str("label"));
    }
  return out;
}

double age_ms(const Json &entry) {
  const Json *a = entry.find("age_ms");
  return a && a->is_number() ? std::max(0.0, a->number) : 0.0;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string semaphores(const Json &entry, const char *key) {
  std::string out;
  if (const Json *list = entry.find(key); list && list->is_array())
    for (const Json &s : list->items)
      out += (out.empty() ? "" : " ") + s.str("handle", "?") + "/" + s.str("type", "?") + "=" + std::to_string(s.u64("value"));
  return out.empty() ? "-" : out;
}

const std::vector<Json> &in_flight(const Json &dump) {
  static const std::vector<Json> none;
  const Json *list = dump.find("in_flight");
  return list && list->is_array() ? list->items : none;
}

} // namespace

void print_dump(const Json &dump) {
  const Json *device = dump.find("device");
  std::printf("dump: schema %s, pid %" PRIu64 ", reason %s, call %s, device %" PRIu64 " (%s), watchdog_ms %" PRIu64
              ", in flight %zu\n",
              dump.str("schema").c_str(), dump.u64("pid"), dump.str("reason", "?").c_str(),
              dump.str("call").empty() ? "-" : dump.str("call").c_str(), device ? device->u64("id") : 0,
              device ? device->str("name", "?").c_str() : "?", dump.u64("watchdog_ms"), in_flight(dump).size());
  for (const Json &e : in_flight(dump)) {
    const Json *cbs = e.find("command_buffers");
    std::string labels;
    for (const std::string &l : labels_of(e)) labels += (labels.empty() ? "" : " | ") + l;
    std::printf("  %" PRIu64 ".%" PRIu64 " seq %" PRIu64 " %s age %s ms, command buffers %zu, waits %s, signals %s%s%s\n",
                e.u64("family"), e.u64("index"), e.u64("seq"), e.str("call", "?").c_str(), fixed(age_ms(e), 3).c_str(),
                cbs && cbs->is_array() ? cbs->items.size() : 0, semaphores(e, "wait_semaphores").c_str(),
                semaphores(e, "signal_semaphores").c_str(), labels.empty() ? "" : ", labels: ", labels.c_str());
  }
}

novem::image::Image draw_dump(const Json &dump, std::uint32_t width) {
  static const std::uint8_t band[2][3] = {{40, 40, 46}, {48, 48, 56}};
  static const std::uint8_t open[3] = {230, 70, 60}, tip[3] = {255, 170, 160}, text[3] = {200, 200, 210},
                            dark[3] = {20, 20, 24}, grid[3] = {70, 70, 80};
  // Queues in order of first appearance, their submissions (in submit order, as the dump lists them).
  std::vector<std::pair<std::pair<std::uint64_t, std::uint64_t>, std::vector<const Json *>>> queues;
  double oldest = 0;
  for (const Json &e : in_flight(dump)) {
    const std::pair<std::uint64_t, std::uint64_t> id{e.u64("family"), e.u64("index")};
    auto it = std::find_if(queues.begin(), queues.end(), [&](const auto &q) { return q.first == id; });
    if (it == queues.end()) it = queues.insert(queues.end(), {id, {}});
    it->second.push_back(&e);
    oldest = std::max(oldest, age_ms(e));
  }
  std::int64_t height = kAxisHeight + kMargin + kLegendHeight;
  for (const auto &q : queues) height += kLaneHeight * static_cast<std::int64_t>(std::min(q.second.size(), kMaxLanes)) + 4;
  if (queues.empty()) height += kLaneHeight;
  novem::image::Image img(width, static_cast<std::uint32_t>(height), 24, 24, 28);
  const std::int64_t left = kLabelWidth, right = static_cast<std::int64_t>(width) - kMargin;
  const double span_ms = std::max(oldest, 1e-3);
  auto x_of = [&](double ms_from_oldest) {
    return left + static_cast<std::int64_t>(std::clamp(ms_from_oldest / span_ms, 0.0, 1.0) * static_cast<double>(right - left));
  };

  // The axis: ms from the oldest submit call to the dump.
  draw_text(img, 4, 6, "ms", text);
  const auto span_ns = static_cast<std::uint64_t>(span_ms * 1e6);
  const std::uint64_t step = tick_step(span_ns, static_cast<std::uint64_t>(std::max<std::int64_t>(1, (right - left) / 90)));
  for (std::uint64_t t = 0; t <= span_ns; t += step) {
    const std::int64_t x = x_of(static_cast<double>(t) / 1e6);
    fill_rect(img, x, kAxisHeight - 6, x + 1, height - kMargin - kLegendHeight, grid);
    if (x + kGlyphWidth * static_cast<std::int64_t>(tick_label(t).size()) <= static_cast<std::int64_t>(width))
      draw_text(img, x + 2, 4, tick_label(t), text);
  }

  std::int64_t y = kAxisHeight;
  std::size_t band_index = 0;
  for (const auto &[id, subs] : queues) {
    const std::int64_t lanes = static_cast<std::int64_t>(std::min(subs.size(), kMaxLanes));
    fill_rect(img, left, y, right, y + lanes * kLaneHeight, band[band_index++ % 2]);
    draw_text(img, 2, y + 3, "q" + std::to_string(id.first) + "." + std::to_string(id.second), text);
    for (std::size_t i = 0; i < subs.size(); ++i) {
      const Json &e = *subs[i];
      const std::int64_t ly = y + static_cast<std::int64_t>(std::min(i, kMaxLanes - 1)) * kLaneHeight;
      const std::int64_t x0 = x_of(oldest - age_ms(e));
      fill_rect(img, x0, ly + 1, right - 6, ly + kLaneHeight - 1, open);
      fill_rect(img, right - 6, ly + 4, right, ly + kLaneHeight - 4, tip); // open: it runs on past the dump
      if (i >= kMaxLanes - 1 && subs.size() > kMaxLanes) {
        if (i == kMaxLanes - 1)
          draw_text(img, x0 + 3, ly + 3, "+" + std::to_string(subs.size() - kMaxLanes + 1) + " more", dark);
        continue;
      }
      const Json *cbs = e.find("command_buffers");
      std::string label = "seq " + std::to_string(e.u64("seq")) + " age " + fixed(age_ms(e), 1) + " ms cb " +
                          std::to_string(cbs && cbs->is_array() ? cbs->items.size() : 0);
      if (const auto l = labels_of(e); !l.empty()) label += " " + l.front();
      const std::int64_t room = std::max<std::int64_t>(0, (right - 8 - (x0 + 3)) / kGlyphWidth);
      if (static_cast<std::int64_t>(label.size()) > room) label.resize(static_cast<std::size_t>(room));
      draw_text(img, x0 + 3, ly + 3, label, dark);
    }
    y += lanes * kLaneHeight + 4;
  }
  if (queues.empty()) draw_text(img, left, y + 3, "nothing in flight", text);

  // The legend.
  const std::int64_t ly = height - kLegendHeight + 4;
  fill_rect(img, left, ly, left + 16, ly + 10, open);
  fill_rect(img, left + 16, ly + 2, left + 20, ly + 8, tip);
  draw_text(img, left + 26, ly, "in flight at the dump, from its submit call (open: not complete)", text);
  return img;
}

} // namespace novem::diag
