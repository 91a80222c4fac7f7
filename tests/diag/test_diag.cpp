// novem-diag (tools/diag): its JSON reader, a handcrafted report of layer/README.md's schema, errors,
// and a real report written by the layer under tests/layer's novem-queue-workload.
#include <catch2/catch.hpp>

#include "run_child.hpp"

#include "frames.hpp"
#include "json.hpp"

#include <novem/image.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>


namespace fs = std::filesystem;

namespace {

using Run = novem::test::ChildRun;

// The whitespace-separated tokens of the table row of queue (device, family, index).
std::vector<std::string> row(const Run &r, const std::string &d, const std::string &f, const std::string &i) {
  std::stringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    std::stringstream words(line);
    std::vector<std::string> l;
    for (std::string w; words >> w;) l.push_back(w);
    if (l.size() > 3 && l[0] == d && l[1] == f && l[2] == i) return l;
  }
  return {};
}

using novem::test::run_child;
Run run(const std::vector<std::string> &argv) { return run_child(argv); }

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "novem-diag-test-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()));
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path write(const std::string &name, const std::string &text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

// layer/README.md's example, with a second device of two queues and a field the table has no
// column for.
const char *kReport = R"json({
  "schema": "novem-queue-diagnostics/1",
  "layer": "VK_LAYER_NOVEM_queue_diagnostics",
  "pid": 1234,
  "reason": "vkDestroyInstance",
  "instances_created": 1,
  "devices": [
    {
      "id": 0, "name": "llvmpipe (LLVM 15.0.6, 256 bits)", "vendor_id": 65541, "device_id": 0,
      "api_version": "1.3.230", "destroyed": true,
      "device_wait_idle": {"calls": 2, "blocked_ns": 41000},
      "wait_for_fences_unattributed": {"calls": 0, "blocked_ns": 0},
      "queues": [
        {
          "family": 0, "index": 0, "family_flags": ["graphics", "compute", "transfer"], "create_flags": 0,
          "submits": 4, "submit_calls": {"vkQueueSubmit": 3, "vkQueueSubmit2": 1}, "failed_submits": 0,
          "batches": 4, "command_buffers": 5,
          "wait_semaphores": {"binary": 2, "timeline": 1}, "signal_semaphores": {"binary": 2, "timeline": 2},
          "fences": 3, "presents": 0, "present_swapchains": 0,
          "queue_wait_idle": {"calls": 1, "blocked_ns": 12000},
          "device_wait_idle": {"calls": 1, "blocked_ns": 20000},
          "wait_for_fences": {"calls": 2, "blocked_ns": 900},
          "blocked_ns": 32900, "in_flight_at_report": 0
        }
      ]
    },
    {
      "id": 1, "name": "Novem test ICD \u00e9\ud83d\ude00", "vendor_id": 85590, "device_id": 1,
      "api_version": "1.3.0", "destroyed": false,
      "device_wait_idle": {"calls": 0, "blocked_ns": 0},
      "wait_for_fences_unattributed": {"calls": 1, "blocked_ns": 5},
      "queues": [
        {
          "family": 0, "index": 1, "family_flags": ["graphics", "compute", "transfer"], "create_flags": 0,
          "submits": 10, "submit_calls": {"vkQueueSubmit": 10, "vkQueueSubmit2": 0}, "failed_submits": 1,
          "batches": 12, "command_buffers": 20,
          "wait_semaphores": {"binary": 0, "timeline": 3}, "signal_semaphores": {"binary": 1, "timeline": 4},
          "fences": 10, "presents": 2, "present_swapchains": 2,
          "queue_wait_idle": {"calls": 0, "blocked_ns": 0},
          "device_wait_idle": {"calls": 0, "blocked_ns": 0},
          "wait_for_fences": {"calls": 10, "blocked_ns": 2000000},
          "blocked_ns": 2000000, "in_flight_at_report": 2, "max_in_flight": 3
        },
        {
          "family": 1, "index": 0, "family_flags": ["transfer"], "create_flags": 0,
          "submits": 0, "submit_calls": {"vkQueueSubmit": 0, "vkQueueSubmit2": 0}, "failed_submits": 0,
          "batches": 0, "command_buffers": 0,
          "wait_semaphores": {"binary": 0, "timeline": 0}, "signal_semaphores": {"binary": 0, "timeline": 0},
          "fences": 0, "presents": 0, "present_swapchains": 0,
          "queue_wait_idle": {"calls": 0, "blocked_ns": 0},
          "device_wait_idle": {"calls": 0, "blocked_ns": 0},
          "wait_for_fences": {"calls": 0, "blocked_ns": 0},
          "blocked_ns": 0, "in_flight_at_report": 0
        }
      ]
    }
  ]
})json";

using Row = std::vector<std::string>;

} // namespace

TEST_CASE("diag: the JSON reader", "[diag]") {
  using novem::diag::Json;
  using novem::diag::JsonParser;
  Json j;
  std::string error;
  REQUIRE(JsonParser::parse(R"( {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u0041\u00e9",
                                 "big": 18446744073709551615, "a": 7} )",
                            j, error));
  CHECK(j.find("a")->is_number()); // the last of a repeated key
  CHECK(j.u64("a") == 7);
  CHECK(j.members.front().second.items.size() == 5);
  CHECK(j.members.front().second.items[1].number == -25.0);
  CHECK(j.str("s") == "x\"\\/\b\f\n\r\tA\xc3\xa9");
  CHECK(j.u64("big") == UINT64_MAX);
  for (const char *bad : {"", "{", "[1,]", "{\"a\" 1}", "\"abc", "tru", "01x", "[1] 2", "\"\\q\"", "-"}) {
    INFO(bad);
    Json k;
    CHECK_FALSE(JsonParser::parse(bad, k, error));
    CHECK(error.find("line 1, column ") == 0);
  }
  CHECK_FALSE(JsonParser::parse(std::string(1000, '['), j, error));
  CHECK(error.find("nested too deeply") != std::string::npos);
  CHECK_FALSE(JsonParser::parse("{\n  \"a\": x}", j, error));
  CHECK(error.find("line 2, column 8") == 0);
}

TEST_CASE("diag: a handcrafted report: the table and a count-bar timeline", "[diag]") {
  TempDir tmp;
  const fs::path report = tmp.write("report.json", kReport), png = tmp.path / "timeline.png";
  const Run r = run({NOVEM_DIAG, report.string(), "--timeline", png.string()});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("report: schema novem-queue-diagnostics/1, pid 1234, reason vkDestroyInstance, instances 1, "
                      "devices 2, queues 3") != std::string::npos);
  CHECK(r.output.find("device 0: llvmpipe (LLVM 15.0.6, 256 bits) (vendor 0x10005, device 0x0, api 1.3.230), "
                      "destroyed; vkDeviceWaitIdle 2 calls 0.041 ms") != std::string::npos);
  CHECK(r.output.find("device 1: Novem test ICD \xc3\xa9\xf0\x9f\x98\x80 (vendor 0x14e56") != std::string::npos);
  CHECK(r.output.find("unattributed vkWaitForFences 1 calls 0.000 ms") != std::string::npos);
  // dev family index flags submits batches cmdbufs wait sig fences presents failed qwi dwi wff, schema /3's
  // wsem, blocked in_flight, then schema /2's max_infl, latency p50 and max, gpu, overlaps: "-" in a /1 report.
  CHECK(row(r, "0", "0", "0") == Row{"0", "0", "0", "gct", "4", "4", "5", "2/1", "2/2", "3", "0", "0", "0.012", "0.020",
                                    "0.001", "-", "0.033", "0", "-", "-", "-", "-", "-"});
  CHECK(row(r, "1", "0", "1") == Row{"1", "0", "1", "gct", "10", "12", "20", "0/3", "1/4", "10", "2", "1", "0.000",
                                    "0.000", "2.000", "-", "2.000", "2", "-", "-", "-", "-", "-"});
  CHECK(row(r, "1", "1", "0") == Row{"1", "1", "0", "t", "0", "0", "0", "0/0", "0/0", "0", "0", "0", "0.000", "0.000",
                                    "0.000", "-", "0.000", "0", "-", "-", "-", "-", "-"});
  // Fields without a column are listed, flattened.
  CHECK(r.output.find("1.0.1 other: create_flags=0 submit_calls.vkQueueSubmit=10 submit_calls.vkQueueSubmit2=0 "
                      "present_swapchains=2 max_in_flight=3") != std::string::npos);
  CHECK(r.output.find("count bars") != std::string::npos);

  std::string error;
  const auto img = novem::image::read_png(png, &error);
  INFO(error);
  REQUIRE(img);
  CHECK(img->width == 1200);
  CHECK(img->height == 10 + 3 * 20 + 10 + 20); // one 20-pixel row per queue, 10-pixel margins, the legend
  // Queue 1.0.1 has the most submits: its blue submits bar runs the whole row; queue 1.1.0 has none.
  const std::uint8_t *full = img->at(780, 10 + 20 + 4), *empty = img->at(400, 10 + 2 * 20 + 4);
  CHECK(full[2] > 200);
  CHECK(empty[2] < 100);
}

TEST_CASE("diag: schema /2 members: in-flight maximum, latency, GPU time, overlaps, device lost", "[diag]") {
  TempDir tmp;
  std::string text = kReport;
  auto replace = [&](const std::string &from, const std::string &to) {
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
  };
  replace("novem-queue-diagnostics/1", "novem-queue-diagnostics/2");
  replace("\"destroyed\": true,", "\"destroyed\": true, \"device_lost\": true, \"watchdog_dumps\": 2,");
  replace("\"blocked_ns\": 32900, \"in_flight_at_report\": 0",
          R"("blocked_ns": 32900, "in_flight_at_report": 0, "in_flight_max": 2,
          "latency": {"count": 4, "min": 61000, "mean": 250000, "max": 900000, "p50": 180223, "p99": 900000},
          "timestamps": true, "gpu_time": {"count": 3, "total": 400000, "max": 210000, "unmeasured_batches": 0},
          "thread_overlaps": {"count": 1, "list": [{"thread": 1235, "call": "vkQueueSubmit", "other_thread": 1236,
                                                    "other_call": "vkQueueWaitIdle"}]})");
  const fs::path report = tmp.write("v2.json", text);
  const Run r = run({NOVEM_DIAG, report.string()});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("destroyed, DEVICE LOST, watchdog dumps 2;") != std::string::npos);
  CHECK(row(r, "0", "0", "0") == Row{"0", "0", "0", "gct", "4", "4", "5", "2/1", "2/2", "3", "0", "0", "0.012",
                                    "0.020", "0.001", "-", "0.033", "0", "2", "0.180", "0.900", "0.400", "1"});
  CHECK(r.output.find("0.0.0 overlap: thread 1235 in vkQueueSubmit while thread 1236 in vkQueueWaitIdle") !=
        std::string::npos);
  CHECK(r.output.find("0.0.0 other: create_flags=0 submit_calls.vkQueueSubmit=3 submit_calls.vkQueueSubmit2=1 "
                      "present_swapchains=0 timestamps=true\n") != std::string::npos);
}

TEST_CASE("diag: schema /3 events draw a timeline: submissions, GPU time, waits, presents", "[diag]") {
  TempDir tmp;
  std::string text = kReport;
  const std::string anchor = "\"blocked_ns\": 32900,";
  text.replace(text.find(anchor), anchor.size(),
               anchor + R"( "submissions": [{"seq": 1, "submit_ns": 1000, "complete_ns": 5000,
                                             "gpu_ns": 2000, "gpu_begin_ns": 2000, "gpu_end_ns": 4000},
                                            {"seq": 2, "submit_ns": 6000, "complete_ns": 11000},
                                            {"seq": 3, "submit_ns": 10000}],
                          "waits": [{"call": "vkQueueWaitIdle", "start_ns": 6000, "end_ns": 9000, "thread": 7}],
                          "present_times": [7000],)");
  const fs::path report = tmp.write("events.json", text), png = tmp.path / "events.png";
  const Run r = run({NOVEM_DIAG, report.string(), "--timeline", png.string(), "--width", "400"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("time axis, submission bars") != std::string::npos);
  const auto img = novem::image::read_png(png);
  REQUIRE(img);
  CHECK(img->width == 400);
  CHECK(img->height == 24 + 3 * 44 + 10 + 20); // axis, one 44-pixel row per queue, margin, legend
  // Time 1000..11000 over x 64..390 (a 64-pixel label column, a 10-pixel right margin); queue 0.0.0
  // is the first row, y 24..68: lanes from y 31 (6 pixels each), waits at y 57..61, presents y 25..29.
  auto px = [&](std::uint32_t x, std::uint32_t y) { return img->at(x, y); };
  auto blue = [](const std::uint8_t *p) { return p[2] > 200 && p[0] < 120; };
  // Submission 1 (x 64..194) on lane 0, its GPU time shifted by min(complete - gpu end) = 1000 ns to
  // 3000..5000 (x 129..194): blue before, green within.
  CHECK(blue(px(100, 33)));
  CHECK((px(170, 33)[1] > 200 && px(170, 33)[0] < 120));
  // Submission 2 (6000..11000) on lane 0 again; the third, in flight from 10000 (x 357), overlaps it:
  // lane 1 (y 37..41), red to the right edge.
  CHECK(blue(px(300, 33)));
  CHECK((px(385, 39)[0] > 200 && px(385, 39)[2] < 100));
  CHECK(!blue(px(300, 39)));
  // The wait (6000..9000, x 227..292): orange; the present (7000, x 259): a white tick on top.
  CHECK((px(260, 59)[0] > 200 && px(260, 59)[1] > 120 && px(260, 59)[2] < 100));
  CHECK((px(259, 27)[0] > 240 && px(259, 27)[1] > 240 && px(259, 27)[2] > 240));
  CHECK(px(200, 27)[0] < 100);
  // Queue 1.0.1 (second row) has no events: its lanes stay the band's grey.
  CHECK(px(100, 24 + 44 + 9)[2] < 100);
}

TEST_CASE("diag: unreadable, malformed or foreign input: one line, exit 1", "[diag]") {
  TempDir tmp;
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {tmp.path / "missing.json", "cannot read"},
      {tmp.write("bad.json", "{\"schema\": \"novem-queue-diagnostics/1\", \"devices\": [}"), "not JSON: line 1, column"},
      {tmp.write("other.json", "{\"schema\": \"something/2\", \"devices\": []}"), "schema is 'something/2'"},
      {tmp.write("array.json", "[1, 2]"), "not a queue diagnostics report"},
      {tmp.write("v0.json", "{\"schema\": \"novem-queue-diagnostics/0\", \"devices\": []}"), "schema is"},
      {tmp.write("vx.json", "{\"schema\": \"novem-queue-diagnostics/x\", \"devices\": []}"), "schema is"},
      {tmp.write("nodev.json", "{\"schema\": \"novem-queue-diagnostics/1\"}"), "no \"devices\" array"},
      {tmp.path, "cannot read"}};
  for (const auto &[file, message] : cases) {
    const Run r = run({NOVEM_DIAG, file.string()});
    INFO(file << ": " << r.output);
    CHECK(r.status == 1);
    CHECK(r.output.rfind("novem-diag: ", 0) == 0);
    CHECK(r.output.find(message) != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  CHECK(run({NOVEM_DIAG}).status == 2);
  CHECK(run({NOVEM_DIAG, "a.json", "--bogus"}).status == 2);
  const Run unwritable = run({NOVEM_DIAG, tmp.write("ok.json", kReport).string(), "--timeline",
                              (tmp.path / "no-such-dir" / "t.png").string()});
  CHECK(unwritable.status == 1);
  CHECK(unwritable.output.find("novem-diag: cannot write") != std::string::npos);
}

TEST_CASE("diag: frame-time statistics, as MangoHud computes them", "[diag]") {
  struct Case {
    const char *name;
    std::vector<std::uint64_t> intervals_ms; // between successive presents
    std::size_t frames;
    double p50, p90, p99, fps, low1, low01;
  };
  std::vector<std::uint64_t> hitch(99, 10);
  hitch.push_back(50); // one slow frame in a hundred: the 1 % low is its rate
  std::vector<std::uint64_t> ramp;
  for (std::uint64_t i = 1; i <= 1000; ++i) ramp.push_back(i % 10 + 1);
  const Case cases[] = {
      {"no presents", {}, 0, 0, 0, 0, 0, 0, 0},
      {"two presents", {20}, 1, 20, 20, 20, 50, 50, 50},
      {"a hitch in a hundred frames", hitch, 100, 10, 10, 10, 100000.0 / 1040, 20, 20},
      {"a thousand frames of 1..10 ms", ramp, 1000, 5, 9, 10, 1000000.0 / 5500, 100, 100},
  };
  for (const Case &c : cases) {
    SECTION(c.name) {
      std::vector<std::uint64_t> presents;
      if (!c.intervals_ms.empty() || c.frames) presents.push_back(1000);
      for (std::uint64_t ms : c.intervals_ms) presents.push_back(presents.back() + ms * 1000000);
      const novem::diag::FrameStats f = novem::diag::frame_stats(presents);
      CHECK(f.frames == c.frames);
      CHECK(f.p50_ms == Approx(c.p50));
      CHECK(f.p90_ms == Approx(c.p90));
      CHECK(f.p99_ms == Approx(c.p99));
      CHECK(f.fps == Approx(c.fps));
      CHECK(f.low1_fps == Approx(c.low1));
      CHECK(f.low01_fps == Approx(c.low01));
    }
  }
}

TEST_CASE("diag: the presents give frame-time percentiles and a per-frame CSV", "[diag]") {
  TempDir tmp;
  std::string text = kReport;
  std::string presents;
  for (std::uint64_t i = 0, t = 5000000; i < 101; ++i, t += i == 50 ? 50000000 : 10000000)
    presents += (i ? ", " : "") + std::to_string(t);
  const std::string anchor = "\"blocked_ns\": 32900,";
  text.replace(text.find(anchor), anchor.size(), anchor + " \"present_times\": [" + presents + "],");
  const fs::path report = tmp.write("frames.json", text), csv = tmp.path / "frames.csv";
  const Run r = run({NOVEM_DIAG, report.string(), "--csv", csv.string()});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("0.0.0 frames 100: frame time ms p50 10.000 p90 10.000 p99 10.000; fps 96.2, 1% low 20.0, "
                      "0.1% low 20.0") != std::string::npos);
  CHECK(r.output.find("frames: " + csv.string() + " (1 queues)") != std::string::npos);
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 1 + 101);
  CHECK(lines[0] == "device,family,index,frame,present_ns,frame_time_ms");
  CHECK(lines[1] == "0,0,0,0,5000000,");
  CHECK(lines[2] == "0,0,0,1,15000000,10.000000");
  CHECK(lines[51] == "0,0,0,50,545000000,50.000000");
}

TEST_CASE("diag: --from / --to draw a window of the timeline", "[diag]") {
  TempDir tmp;
  std::string text = kReport;
  const std::string anchor = "\"blocked_ns\": 32900,";
  text.replace(text.find(anchor), anchor.size(),
               anchor + R"( "submissions": [{"seq": 1, "submit_ns": 1000000, "complete_ns": 5000000},
                                            {"seq": 2, "submit_ns": 6000000, "complete_ns": 11000000}],)");
  const fs::path report = tmp.write("zoom.json", text);
  struct Case {
    const char *from, *to;
    bool first_at_left, second_at_right; // submission 1 drawn at the left, 2 at the right of lane 0
  };
  const Case cases[] = {{nullptr, nullptr, true, true}, {"4.5", "10", false, true}, {"0", "4.5", true, false}};
  for (const Case &c : cases) {
    SECTION(std::string(c.from ? c.from : "-") + ".." + (c.to ? c.to : "-")) {
      const fs::path png = tmp.path / "zoom.png";
      std::vector<std::string> argv = {NOVEM_DIAG, report.string(), "--timeline", png.string(), "--width", "400"};
      if (c.from) argv.insert(argv.end(), {"--from", c.from, "--to", c.to});
      const Run r = run(argv);
      INFO(r.output);
      REQUIRE(r.status == 0);
      const auto img = novem::image::read_png(png);
      REQUIRE(img);
      auto blue = [&](std::uint32_t x) { return img->at(x, 33)[2] > 200 && img->at(x, 33)[0] < 120; };
      CHECK(blue(70) == c.first_at_left);
      CHECK(blue(385) == c.second_at_right);
    }
  }
  CHECK(run({NOVEM_DIAG, report.string(), "--from", "-1"}).status == 2);
  CHECK(run({NOVEM_DIAG, report.string(), "--from", "5", "--to", "5"}).status == 2);
}

TEST_CASE("diag: a hang or device-lost dump: the list, and open bars with their labels", "[diag]") {
  TempDir tmp;
  // Three submissions in flight on queue 0.0 (ages 300, 200 and 100 ms), one on 1.0.
  const fs::path dump = tmp.write("dump.json", R"json({
    "schema": "novem-queue-dump/1", "layer": "VK_LAYER_NOVEM_queue_diagnostics", "pid": 42,
    "reason": "watchdog", "call": "", "watchdog_ms": 50, "device": {"id": 0, "name": "llvmpipe"},
    "in_flight": [
      {"family": 0, "index": 0, "seq": 5, "call": "vkQueueSubmit", "age_ms": 300.0, "command_buffers": ["0x1", "0x2"],
       "wait_semaphores": [{"handle": "0x9", "type": "timeline", "value": 102}], "signal_semaphores": [],
       "queue_labels": ["shadow pass"]},
      {"family": 0, "index": 0, "seq": 6, "call": "vkQueueSubmit", "age_ms": 200.0, "command_buffers": ["0x3"],
       "wait_semaphores": [], "signal_semaphores": [], "command_buffer_details": [{"handle": "0x1", "name": "gbuffer", "labels": [{"op": "end"}]}]},
      {"family": 0, "index": 0, "seq": 7, "call": "vkQueueSubmit2", "age_ms": 100.0, "command_buffers": ["0x4"],
       "wait_semaphores": [], "signal_semaphores": []},
      {"family": 1, "index": 0, "seq": 1, "call": "vkQueueSubmit", "age_ms": 150.0, "command_buffers": [],
       "wait_semaphores": [], "signal_semaphores": []}
    ]})json");
  const fs::path png = tmp.path / "dump.png";
  const Run r = run({NOVEM_DIAG, dump.string(), "--timeline", png.string(), "--width", "640"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("dump: schema novem-queue-dump/1, pid 42, reason watchdog, call -, device 0 (llvmpipe), "
                      "watchdog_ms 50, in flight 4") != std::string::npos);
  CHECK(r.output.find("  0.0 seq 5 vkQueueSubmit age 300.000 ms, command buffers 2, waits 0x9/timeline=102, signals -, "
                      "labels: shadow pass") != std::string::npos);
  CHECK(r.output.find("  0.0 seq 6 vkQueueSubmit age 200.000 ms, command buffers 1, waits -, signals -, labels: gbuffer") !=
        std::string::npos);
  CHECK(r.output.find("  1.0 seq 1 vkQueueSubmit age 150.000 ms, command buffers 0") != std::string::npos);
  const auto img = novem::image::read_png(png);
  REQUIRE(img);
  CHECK(img->width == 640);
  CHECK(img->height == 24 + (3 * 16 + 4) + (16 + 4) + 10 + 20); // axis, lanes per queue, margin, legend
  // x: 0..300 ms over 96..630. Each submission on a lane of its own (16 pixels from y 24), red from
  // its submit call (300 - age) to the right edge: seq 5 from x 96, seq 6 from 274, seq 7 from 452.
  auto red = [&](std::uint32_t x, std::uint32_t y) {
    const std::uint8_t *p = img->at(x, y);
    return p[0] > 200 && p[1] < 100 && p[2] < 100;
  };
  auto any_red_in = [&](std::uint32_t x0, std::uint32_t x1, std::uint32_t y) {
    for (std::uint32_t x = x0; x < x1; ++x)
      if (red(x, y)) return true;
    return false;
  };
  CHECK(red(100, 24 + 1));
  CHECK(!any_red_in(96, 270, 24 + 16 + 1));
  CHECK(red(600, 24 + 16 + 1));
  CHECK(!any_red_in(96, 448, 24 + 32 + 1));
  CHECK(red(600, 24 + 32 + 1));
  // Labels are drawn in the bars (dark text on red): the three bars are not alike.
  auto dark_in = [&](std::uint32_t x0, std::uint32_t x1, std::uint32_t y0) {
    for (std::uint32_t y = y0 + 3; y < y0 + 13; ++y)
      for (std::uint32_t x = x0; x < x1; ++x)
        if (img->at(x, y)[0] < 40) return true;
    return false;
  };
  CHECK(dark_in(100, 300, 24));
  CHECK(dark_in(280, 450, 24 + 16));
  CHECK(red(600, 24 + 52 + 1)); // queue 1.0, below a 4-pixel gap
}

#ifdef NOVEM_QD_WORKLOAD
TEST_CASE("diag: a real report from the layer under tests/layer's workload", "[diag]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", png = tmp.path / "timeline.png";
  const char *old = std::getenv("XDG_DATA_DIRS");
  const std::string xdg = std::string(NOVEM_QD_DATA_DIR) + ":" + (old && *old ? old : "/usr/local/share:/usr/share");
  // As tests/layer/test_layer.cpp runs it (validation stays stacked, as in every Novem test).
  const Run w = run_child({NOVEM_QD_WORKLOAD, "--iterations", "3"},
                          {{"XDG_DATA_DIRS", xdg}, {"NOVEM_QUEUE_DIAGNOSTICS", "1"},
                           {"NOVEM_QUEUE_DIAGNOSTICS_REPORT", report.string()}},
                          {"NOVEM_QUEUE_DIAGNOSTICS_DISABLE"});
  INFO(w.output);
  REQUIRE(w.status == 0);
  REQUIRE(fs::exists(report));

  const Run r = run({NOVEM_DIAG, report.string(), "--timeline", png.string()});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("report: schema novem-queue-diagnostics/") != std::string::npos);
  CHECK(r.output.find("devices 1, queues 1") != std::string::npos);
  // queue_workload.cpp's counts for 3 iterations (see tests/layer/test_layer.cpp).
  const Row queue = row(r, "0", "0", "0");
  REQUIRE(queue.size() == 23);
  CHECK(queue[4] == "12");  // submits
  CHECK(queue[5] == "12");  // batches
  CHECK(queue[6] == "15");  // command buffers
  CHECK(queue[7] == "6/3"); // wait semaphores binary/timeline
  CHECK(queue[8] == "6/6"); // signal semaphores
  CHECK(queue[9] == "9");   // fences
  CHECK(queue[10] == "0");  // presents
  CHECK(queue[11] == "0");  // failed
  CHECK(queue[15] != "-");  // vkWaitSemaphores time (schema /3)
  CHECK(queue[17] == "0");  // in flight at report
  const auto img = novem::image::read_png(png);
  REQUIRE(img);
  CHECK(img->width == 1200);
  CHECK(img->height == 24 + 44 + 10 + 20); // schema /3 has events: the time-axis timeline
  CHECK(r.output.find("time axis, submission bars") != std::string::npos);
}
#endif
