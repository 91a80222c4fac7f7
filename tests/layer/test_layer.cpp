// The queue diagnostics layer, enabled only through its manifest and the environment, under a
// Vulkan workload of known shape (queue_workload.cpp) and under vulkaninfo. The report's counts
// must equal what the workload did. Validation (VK_LAYER_KHRONOS_validation) stays stacked, as in
// every Novem test.
#include <catch2/catch.hpp>

#include "layer_fixture.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>


namespace fs = std::filesystem;
using namespace qd_test;

namespace {

// The counts of queue_workload.cpp for K iterations (see its header comment).
void check_workload_report(const Json &report, std::uint64_t k, std::size_t devices = 1) {
  REQUIRE(report["schema"].text == "novem-queue-diagnostics/5");
  REQUIRE(report["layer"].text == "VK_LAYER_NOVEM_queue_diagnostics");
  const std::string reason = report["reason"].text;
  CHECK((reason == "vkDestroyDevice" || reason == "vkDestroyInstance" || reason == "unload"));
  REQUIRE(num(report["instances_created"]) == 1);
  REQUIRE(report["devices"].items.size() == devices);
  for (std::size_t d = 0; d < devices; ++d) {
    const Json &dev = report["devices"][d];
    INFO("device " << d);
    CHECK(num(dev["id"]) == d);
    CHECK(dev["destroyed"].boolean);
    CHECK(num(dev["device_wait_idle"]["calls"]) == 2 * k);
    CHECK(num(dev["wait_for_fences_unattributed"]["calls"]) == 0);
    CHECK(num(dev["wait_semaphores_unattributed"]["calls"]) == 0);
    CHECK(dev["extension_enabled"].kind == Json::Bool);
    // The second vkDeviceWaitIdle of each iteration found every queue idle: no queue's.
    CHECK(dev["unattributed_waits"].items.size() == k);
    for (const Json &w : dev["unattributed_waits"].items)
      CHECK(w["call"].text == "vkDeviceWaitIdle");
    CHECK(dev["device_lost"].kind == Json::Bool);
    CHECK_FALSE(dev["device_lost"].boolean);
    CHECK(num(dev["watchdog_dumps"]) == 0);
    CHECK(num(dev["layer_thread_cpu_ns"]) > 0); // the thread ran, and its time was kept when it ended
    REQUIRE(dev["queues"].items.size() == 1);
    const Json &q = dev["queues"][0];
    CHECK(num(q["family"]) == 0);
    CHECK(num(q["index"]) == 0);
    CHECK(num(q["submits"]) == 4 * k);
    CHECK(num(q["submit_calls"]["vkQueueSubmit"]) == 3 * k);
    CHECK(num(q["submit_calls"]["vkQueueSubmit2"]) == 1 * k);
    CHECK(num(q["failed_submits"]) == 0);
    CHECK(num(q["batches"]) == 4 * k);
    CHECK(num(q["command_buffers"]) == 5 * k);
    CHECK(num(q["wait_semaphores"]["binary"]) == 2 * k);
    CHECK(num(q["wait_semaphores"]["timeline"]) == 1 * k);
    CHECK(num(q["signal_semaphores"]["binary"]) == 2 * k);
    CHECK(num(q["signal_semaphores"]["timeline"]) == 2 * k);
    CHECK(num(q["fences"]) == 3 * k);
    CHECK(num(q["presents"]) == 0);
    CHECK(num(q["present_swapchains"]) == 0);
    CHECK(num(q["queue_wait_idle"]["calls"]) == 1 * k);
    CHECK(num(q["wait_for_fences"]["calls"]) == 2 * k);
    CHECK(num(q["device_wait_idle"]["calls"]) == 1 * k); // only the first of each pair found it busy
    // vkWaitSemaphores on the timeline value submission #2 signals: this queue's.
    CHECK(num(q["wait_semaphores_blocked"]["calls"]) == 1 * k);
    CHECK(num(q["present_intervals"]["count"]) == 0);
    CHECK(num(q["in_flight_at_report"]) == 0);
    // Step 2: latency of every submission, measured by the layer's thread.
    const Json &lat = q["latency"];
    CHECK(num(lat["count"]) == 4 * k);
    CHECK(num(lat["min"]) > 0);
    CHECK(num(lat["min"]) <= num(lat["p50"]));
    CHECK(num(lat["p50"]) <= num(lat["p99"]));
    CHECK(num(lat["p99"]) <= num(lat["max"]));
    CHECK(num(lat["min"]) <= num(lat["mean"]));
    CHECK(num(lat["mean"]) <= num(lat["max"]));
    CHECK(num(q["in_flight_max"]) >= 1);
    CHECK(num(q["in_flight_max"]) <= 4 * k);
    // GPU time: lavapipe has timestamps on family 0; submissions #1-#3 carry command buffers.
    if (q["timestamps"].boolean) {
      const Json &gpu = q["gpu_time"];
      CHECK(num(gpu["count"]) == 3 * k);
      CHECK(num(gpu["max"]) <= num(gpu["total"]));
      CHECK(num(gpu["total"]) > 0);
      CHECK(num(gpu["unmeasured_batches"]) == 0);
    } else {
      WARN("no timestamps on this queue family: gpu_time not checked");
    }
    CHECK(num(q["thread_overlaps"]["count"]) == 0);
    CHECK(q["thread_overlaps"]["list"].items.empty());
    // Times: nanoseconds, >= 0, the total is the sum of its parts, and no part exceeds the device's.
    const std::uint64_t qwi = num(q["queue_wait_idle"]["blocked_ns"]), dwi = num(q["device_wait_idle"]["blocked_ns"]),
                        wff = num(q["wait_for_fences"]["blocked_ns"]), wsb = num(q["wait_semaphores_blocked"]["blocked_ns"]);
    CHECK(num(q["blocked_ns"]) == qwi + dwi + wff + wsb);
    // Schema /3: the events, one per submission in submit order, and one per attributed wait.
    CHECK(num(q["submissions_dropped"]) == 0);
    REQUIRE(q["submissions"].items.size() == 4 * k);
    std::uint64_t timed = 0;
    for (std::size_t i = 0; i < 4 * k; ++i) {
      const Json &e = q["submissions"][i];
      INFO("submission " << i);
      CHECK(num(e["seq"]) == i + 1);
      CHECK(num(e["submit_ns"]) <= num(e["complete_ns"]));
      const std::uint64_t shape[4][2] = {{2, 3}, {1, 1}, {1, 1}, {0, 0}}; // batches, command buffers of #1..#4
      CHECK(num(e["batches"]) == shape[i % 4][0]);
      CHECK(num(e["command_buffers"]) == shape[i % 4][1]);
      if (e.has("gpu_ns")) {
        ++timed;
        CHECK(num(e["gpu_begin_ns"]) <= num(e["gpu_end_ns"]));
      }
    }
    if (q["timestamps"].boolean)
      CHECK(timed == 3 * k);
    std::map<std::string, std::uint64_t> waits;
    for (const Json &w : q["waits"].items) {
      ++waits[w["call"].text];
      CHECK(num(w["start_ns"]) <= num(w["end_ns"]));
      CHECK(num(w["thread"]) > 0);
    }
    CHECK(waits == std::map<std::string, std::uint64_t>{{"vkDeviceWaitIdle", k},
                                                        {"vkQueueWaitIdle", k},
                                                        {"vkWaitForFences", 2 * k},
                                                        {"vkWaitSemaphores", k}});
    // A submission is complete no later than the application's wait that proved it (the wait's end
    // is the completion time the layer takes, not when its thread next looks). The queue's waits
    // of iteration i, in order: vkWaitForFences(F0) proves #1, vkWaitSemaphores (on the value #2
    // signals) proves #2, vkQueueWaitIdle proves #1-#3, vkWaitForFences(F1), vkDeviceWaitIdle
    // proves #4.
    REQUIRE(q["waits"].items.size() == 5 * k);
    for (std::size_t i = 0; i < k; ++i) {
      INFO("iteration " << i);
      const Json &subs = q["submissions"], &w = q["waits"];
      CHECK(num(subs[4 * i]["complete_ns"]) <= num(w[5 * i]["end_ns"]));
      REQUIRE(w[5 * i + 1]["call"].text == "vkWaitSemaphores");
      CHECK(num(subs[4 * i + 1]["complete_ns"]) <= num(w[5 * i + 1]["end_ns"]));
      CHECK(num(subs[4 * i + 2]["complete_ns"]) <= num(w[5 * i + 2]["end_ns"]));
      CHECK(num(subs[4 * i + 3]["complete_ns"]) <= num(w[5 * i + 4]["end_ns"]));
    }
    CHECK(q["present_times"].items.empty());
    CHECK(dwi <= num(dev["device_wait_idle"]["blocked_ns"]));
  }
}

const std::uint64_t kIterations = 3;

// The program's path on PATH, or "".
std::string find_program(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && access((fs::path(d) / name).c_str(), X_OK) == 0) return (fs::path(d) / name).string();
  return {};
}

// ---- the trace file (Chrome trace-event JSON) ----

struct TraceTrack {
  std::string name;                        // thread_name
  std::vector<const Json *> slices;        // "X" events
  std::vector<const Json *> instants;      // "i" events
};

// The trace's tracks by (pid, tid), after checking what every event must have.
std::map<std::pair<std::uint64_t, std::uint64_t>, TraceTrack> trace_tracks(const Json &trace) {
  REQUIRE(trace.kind == Json::Array);
  std::map<std::pair<std::uint64_t, std::uint64_t>, TraceTrack> tracks;
  for (const Json &e : trace.items) {
    const std::string ph = e["ph"].text;
    REQUIRE((ph == "M" || ph == "X" || ph == "i"));
    if (ph == "M") {
      if (e["name"].text == "thread_name")
        tracks[{num(e["pid"]), num(e["tid"])}].name = e["args"]["name"].text;
      continue;
    }
    REQUIRE(e["ts"].kind == Json::Number);
    auto &t = tracks[{num(e["pid"]), num(e["tid"])}];
    if (ph == "X") {
      REQUIRE(e["dur"].kind == Json::Number);
      REQUIRE(e["dur"].number >= 0);
      t.slices.push_back(&e);
    } else {
      CHECK(e["s"].text == "t");
      t.instants.push_back(&e);
    }
  }
  // Slices of one track must nest (both viewers drop or misdraw partial overlaps).
  for (auto &[id, t] : tracks) {
    INFO("track " << t.name);
    CHECK(!t.name.empty());
    std::vector<std::pair<double, double>> spans;
    for (const Json *e : t.slices) spans.emplace_back((*e)["ts"].number, (*e)["ts"].number + (*e)["dur"].number);
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      CHECK(spans[i].first >= spans[i - 1].second - 1e-3);
  }
  return tracks;
}

// The tracks whose name starts with `prefix` (lanes included), e.g. "queue family 0 index 0 GPU".
std::vector<const TraceTrack *> tracks_named(const std::map<std::pair<std::uint64_t, std::uint64_t>, TraceTrack> &tracks,
                                             const std::string &name) {
  std::vector<const TraceTrack *> out;
  for (const auto &[id, t] : tracks)
    if (t.name == name || t.name.rfind(name + " (lane ", 0) == 0) out.push_back(&t);
  return out;
}

} // namespace

bool seq_shape_has_cbs(std::uint64_t i) { return i < 3; } // #1..#3 carry command buffers, #4 none

TEST_CASE("layer: the report's counts equal what the workload did", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations)}, enabled_env(report), {},
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(report));
  check_workload_report(read_json(report), kIterations);
}

TEST_CASE("layer: devices driven from several threads at once are each counted exactly", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r =
      run({NOVEM_QD_WORKLOAD, "--iterations", "20", "--threads", "4"}, enabled_env(report), {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(report));
  check_workload_report(read_json(report), 20, 4);
}

TEST_CASE("layer: the default report path is novem-queue-diagnostics-<pid>.json in the cwd", "[layer]") {
  TempDir tmp;
  auto env = enabled_env({});
  env.erase("NOVEM_QUEUE_DIAGNOSTICS_REPORT");
  const fs::path cwd = fs::current_path();
  fs::current_path(tmp.path);
  const Run r =
      run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, env, {"NOVEM_QUEUE_DIAGNOSTICS_REPORT"}, tmp.path / "log.txt");
  fs::current_path(cwd);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::vector<fs::path> reports;
  for (const auto &e : fs::directory_iterator(tmp.path))
    if (e.path().filename().string().rfind("novem-queue-diagnostics-", 0) == 0)
      reports.push_back(e.path());
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].extension() == ".json");
  for (const auto &e : fs::directory_iterator(tmp.path)) // no watchdog (off by default), no device loss
    CHECK(e.path().filename().string().rfind("novem-queue-dump-", 0) != 0);
  check_workload_report(read_json(reports[0]), 1);
}

TEST_CASE("layer: the disable variable, or no enable variable, turns it off", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  SECTION("NOVEM_QUEUE_DIAGNOSTICS_DISABLE=1") {
    auto env = enabled_env(report);
    env["NOVEM_QUEUE_DIAGNOSTICS_DISABLE"] = "1";
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, env, {}, tmp.path / "log.txt");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_FALSE(fs::exists(report));
  }
  SECTION("NOVEM_QUEUE_DIAGNOSTICS unset") {
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, enabled_env(report), {"NOVEM_QUEUE_DIAGNOSTICS"},
                      tmp.path / "log.txt");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_FALSE(fs::exists(report));
  }
}

TEST_CASE("layer: stacks with VK_LAYER_KHRONOS_validation with no validation message", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  auto env = enabled_env(report);
  env["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations)}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  CHECK(r.output.find("workload: instance layer VK_LAYER_KHRONOS_validation") != std::string::npos);
  CHECK(r.output.find("workload: debug messenger on") != std::string::npos);
  CHECK(r.output.find("workload: validation:") == std::string::npos);
  REQUIRE(r.status == 0);
  check_workload_report(read_json(report), kIterations);

  // The same stack catches a real error, so the clean run above means something.
  const fs::path report2 = tmp.path / "report2.json";
  env["NOVEM_QUEUE_DIAGNOSTICS_REPORT"] = report2.string();
  const Run bad =
      run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--provoke-validation-error"}, env, {}, tmp.path / "log2.txt");
  INFO(bad.output);
  CHECK(bad.status == 3);
  CHECK(bad.output.find("VUID-VkBufferCreateInfo-size-00912") != std::string::npos);
  CHECK(fs::exists(report2));
}

TEST_CASE("layer: vulkaninfo --summary runs under it and a report is produced", "[layer]") {
  if (NOVEM_QD_SANITIZED) {
    WARN("the layer is built with sanitizers (NOVEM_SANITIZE) and vulkaninfo is not: skipped");
    return;
  }
  const std::string vulkaninfo = find_program("vulkaninfo");
  if (vulkaninfo.empty()) {
    WARN("vulkaninfo not found (package vulkan-tools): skipped");
    return;
  }
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r = run({vulkaninfo, "--summary"}, enabled_env(report), {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(report));
  const Json j = read_json(report);
  CHECK(j["schema"].text == "novem-queue-diagnostics/5");
  CHECK(num(j["instances_created"]) >= 1);
  for (const Json &dev : j["devices"].items) {
    CHECK(!dev["queues"].items.empty());
    for (const Json &q : dev["queues"].items)
      CHECK(num(q["submits"]) == 0); // vulkaninfo submits nothing
  }
}

TEST_CASE("layer: the trace file has a track per queue with the workload's submissions, GPU times and waits",
          "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations)}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(trace));
  const Json rep = read_json(report);
  const Json t = read_trace(trace);
  const auto tracks = trace_tracks(t);
  const std::uint64_t k = kIterations;

  // The process: the device.
  bool process = false;
  for (const Json &e : t.items)
    if (e["ph"].text == "M" && e["name"].text == "process_name") {
      CHECK(num(e["pid"]) == 1);
      CHECK(e["args"]["name"].text == "device 0: " + rep["devices"][0]["name"].text);
      process = true;
    }
  CHECK(process);

  // Submissions: one slice each, on the queue's track and its lanes, with the workload's shape.
  const auto queue = tracks_named(tracks, "queue family 0 index 0");
  REQUIRE(!queue.empty());
  std::map<std::uint64_t, const Json *> by_seq;
  for (const TraceTrack *tr : queue) {
    CHECK(tr->instants.empty()); // no presents
    for (const Json *e : tr->slices) {
      CHECK((*e)["cat"].text == "submission");
      by_seq[num((*e)["args"]["seq"])] = e;
    }
  }
  REQUIRE(by_seq.size() == 4 * k);
  const std::uint64_t shape[4][4] = {{2, 3, 1, 2}, {1, 1, 1, 2}, {1, 1, 1, 0}, {0, 0, 0, 0}}; // batches, cbs, waits, signals
  for (const auto &[seq, e] : by_seq) {
    INFO("seq " << seq);
    const Json &a = (*e)["args"];
    const std::uint64_t *want = shape[(seq - 1) % 4];
    CHECK((*e)["name"].text == ((seq - 1) % 4 == 1 ? "vkQueueSubmit2" : "vkQueueSubmit"));
    CHECK(num(a["batches"]) == want[0]);
    CHECK(num(a["command_buffers"]) == want[1]);
    CHECK(num(a["wait_semaphores"]) == want[2]);
    CHECK(num(a["signal_semaphores"]) == want[3]);
    // The same submission as the report's (ts in microseconds).
    const Json &s = rep["devices"][0]["queues"][0]["submissions"][seq - 1];
    CHECK(std::abs((*e)["ts"].number * 1000 - static_cast<double>(num(s["submit_ns"]))) < 1.0);
    CHECK(std::abs((*e)["dur"].number * 1000 - static_cast<double>(num(s["complete_ns"]) - num(s["submit_ns"]))) < 1.0);
  }
  // GPU execution: one slice per submission with command buffers, where timestamps exist.
  std::uint64_t gpu = 0;
  for (const TraceTrack *tr : tracks_named(tracks, "queue family 0 index 0 GPU"))
    for (const Json *e : tr->slices) {
      CHECK((*e)["cat"].text == "gpu");
      CHECK((seq_shape_has_cbs((num((*e)["args"]["seq"]) - 1) % 4)));
      ++gpu;
    }
  if (rep["devices"][0]["queues"][0]["timestamps"].boolean)
    CHECK(gpu == 3 * k);
  // Waits: the application's, on the queue's waits track; the idle device waits on no queue's.
  std::map<std::string, std::uint64_t> waits, loose;
  for (const TraceTrack *tr : tracks_named(tracks, "queue family 0 index 0 waits"))
    for (const Json *e : tr->slices) ++waits[(*e)["name"].text];
  for (const TraceTrack *tr : tracks_named(tracks, "waits (no queue)"))
    for (const Json *e : tr->slices) ++loose[(*e)["name"].text];
  CHECK(waits == std::map<std::string, std::uint64_t>{{"vkDeviceWaitIdle", k},
                                                      {"vkQueueWaitIdle", k},
                                                      {"vkWaitForFences", 2 * k},
                                                      {"vkWaitSemaphores", k}});
  CHECK(loose == std::map<std::string, std::uint64_t>{{"vkDeviceWaitIdle", k}});
}

// The trace's submission seqs and the application's waits by call, on queue 0.0's tracks and lanes.
struct TraceCounts {
  std::set<std::uint64_t> seqs;
  std::uint64_t slices = 0, gpu = 0;
  std::map<std::string, std::uint64_t> waits, loose;
};
TraceCounts trace_counts(const Json &t) {
  const auto tracks = trace_tracks(t);
  TraceCounts c;
  for (const TraceTrack *tr : tracks_named(tracks, "queue family 0 index 0"))
    for (const Json *e : tr->slices) {
      c.seqs.insert(num((*e)["args"]["seq"]));
      ++c.slices;
    }
  for (const TraceTrack *tr : tracks_named(tracks, "queue family 0 index 0 GPU")) c.gpu += tr->slices.size();
  for (const TraceTrack *tr : tracks_named(tracks, "queue family 0 index 0 waits"))
    for (const Json *e : tr->slices) ++c.waits[(*e)["name"].text];
  for (const TraceTrack *tr : tracks_named(tracks, "waits (no queue)"))
    for (const Json *e : tr->slices) ++c.loose[(*e)["name"].text];
  return c;
}

TEST_CASE("layer: the trace file holds the whole run, beyond the event limit the report keeps", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  env["NOVEM_QUEUE_DIAGNOSTICS_EVENTS"] = "8";
  // Long enough for the layer thread's appends during the run (every 100 ms), not only at the end.
  const std::uint64_t k = 50;
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(k), "--stall-ms", "300"}, env, {},
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const Json rep = read_json(report);
  const Json &q = rep["devices"][0]["queues"][0];
  const std::uint64_t submits = num(q["submits"]); // the iterations' 4 k and the stalled one
  CHECK(submits == 4 * k + 1);
  // The report: the latest 8 of each kind, the rest dropped.
  CHECK(q["submissions"].items.size() == 8);
  CHECK(num(q["submissions_dropped"]) == submits - 8);
  CHECK(q["waits"].items.size() == 8);
  // The trace: every one of them, closed at exit (whole JSON).
  std::ifstream in(trace);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.substr(text.size() - 3) == "\n]\n");
  const TraceCounts c = trace_counts(read_trace(trace));
  CHECK(c.slices == submits);
  CHECK(c.seqs.size() == submits);
  CHECK(*c.seqs.begin() == 1);
  CHECK(*c.seqs.rbegin() == submits);
  // Every GPU time the report counts: the submissions with command buffers, less any whose batches
  // found no free timestamp slot (a layer thread kept from the CPU for a long spell under load
  // returns them late; the report says how many in unmeasured_batches).
  if (q["timestamps"].boolean) {
    CHECK(c.gpu == num(q["gpu_time"]["count"]));
    CHECK(c.gpu + num(q["gpu_time"]["unmeasured_batches"]) >= 3 * k + 1);
  }
  CHECK(c.waits == std::map<std::string, std::uint64_t>{{"vkDeviceWaitIdle", k},
                                                        {"vkQueueWaitIdle", k + 1}, // + after the stall
                                                        {"vkWaitForFences", 2 * k},
                                                        {"vkWaitSemaphores", k}});
  CHECK(c.loose == std::map<std::string, std::uint64_t>{{"vkDeviceWaitIdle", k}, {"vkWaitSemaphores", 1}});
}

TEST_CASE("layer: a process killed mid-run leaves a trace chrome://tracing and Perfetto read", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  const std::uint64_t k = 5;
  // SIGKILL one second into a 5 s stall: no destructor, no closing bracket; the layer thread has
  // appended the iterations' events by then (every 100 ms).
  const std::string timeout = find_program("timeout");
  REQUIRE(!timeout.empty());
  const Run r = run({timeout, "-s", "KILL", "1", NOVEM_QD_WORKLOAD, "--iterations", std::to_string(k), "--stall-ms",
                     "5000"},
                    env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == -1); // killed: timeout sends SIGKILL to its process group, itself included
  CHECK(!fs::exists(report));
  std::ifstream in(trace);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(text.size() > 1);
  CHECK(text.front() == '[');
  CHECK(text.back() != ']');
  // What catapult's trace_event_importer does with a text that starts with '[': trailing newlines
  // and a trailing comma removed, ']' appended. Perfetto's tokenizer reads the events one by one.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == ','))
    text.pop_back();
  text += "]";
  Json t;
  std::string error;
  REQUIRE(JsonReader(text).parse(t, error));
  const TraceCounts c = trace_counts(t);
  CHECK(c.slices == 4 * k); // the stalled submission never completed
  CHECK(c.waits.at("vkQueueWaitIdle") == k);
}

// The layer thread sleeps (100 ms at a time) when nothing is in flight; a submission wakes it, with
// no lock on the submitting thread (a futex it wakes only when the thread sleeps idle). Without
// that wake-up the thread would see a submission up to 100 ms late (50 ms as a median).
// Reading a timeline value with vkGetSemaphoreCounterValue proves the submission that signals it
// complete, as finding its fence signalled does: at once, not when the layer thread next looks.
TEST_CASE("layer: a timeline value read proves the submission that signals it complete", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--extension", "on", "--poll-timeline"},
                    enabled_env(report), {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("workload: timeline polled: in flight 0\n") != std::string::npos);
  const Json j = read_json(report);
  const Json &q = j["devices"][0]["queues"][0];
  CHECK(q["submits"].number == 4 + 1);
  CHECK(q["latency"]["count"].number == 4 + 1);
}

TEST_CASE("layer: a submission after an idle spell wakes the layer thread at once", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--extension", "on", "--idle-submits", "7"},
                    enabled_env(report), {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::string key = "workload: idle submit seen complete after median ";
  const std::size_t at = r.output.find(key);
  REQUIRE(at != std::string::npos);
  const double median_ms = std::stod(r.output.substr(at + key.size()));
  CHECK(median_ms < 25.0);
  // Each of them counted and completed, as any other submission.
  const Json j = read_json(report);
  const Json &q = j["devices"][0]["queues"][0];
  CHECK(q["submits"].number == 4 + 7);
  CHECK(q["latency"]["count"].number == 4 + 7);
}

TEST_CASE("layer: VK_NOVEM_queue_diagnostics gives the counters only when enabled", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  SECTION("enabled") {
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations), "--extension", "on"},
                      enabled_env(report), {}, tmp.path / "log.txt");
    INFO(r.output);
    REQUIRE(r.status == 0); // validation below the layer never sees the extension: no message
    CHECK(r.output.find("workload: the layer lists VK_NOVEM_queue_diagnostics: yes") != std::string::npos);
    // pLayerName NULL: the loader adds implicit layers' device extensions from their manifests.
    CHECK(r.output.find("workload: the NULL list has VK_NOVEM_queue_diagnostics: yes") != std::string::npos);
    CHECK(r.output.find("workload: vkGetQueueDiagnosticsNOVEM: non-NULL") != std::string::npos);
    // The counters at that point: the iterations' (as in the report), VK_SUCCESS; without the sType
    // VK_ERROR_INITIALIZATION_FAILED (-3).
    const std::string k = std::to_string(kIterations);
    CHECK(r.output.find("workload: diagnostics: result 0 (without sType -3) family 0 index 0 submits " +
                        std::to_string(4 * kIterations) + " batches " + std::to_string(4 * kIterations) +
                        " command_buffers " + std::to_string(5 * kIterations) + " wait_semaphores_calls " + k +
                        " latency_count ") != std::string::npos);
    const Json j = read_json(report);
    CHECK(j["devices"][0]["extension_enabled"].boolean);
    check_workload_report(j, kIterations);
  }
  SECTION("not enabled") {
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--extension", "off"}, enabled_env(report), {},
                      tmp.path / "log.txt");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("workload: the layer lists VK_NOVEM_queue_diagnostics: yes") != std::string::npos);
    CHECK(r.output.find("workload: vkGetQueueDiagnosticsNOVEM: NULL") != std::string::npos);
    CHECK(r.output.find("workload: diagnostics:") == std::string::npos);
    CHECK_FALSE(read_json(report)["devices"][0]["extension_enabled"].boolean);
  }
  SECTION("layer disabled") {
    auto env = enabled_env(report);
    env["NOVEM_QUEUE_DIAGNOSTICS_DISABLE"] = "1";
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--extension", "on"}, env, {}, tmp.path / "log.txt");
    INFO(r.output);
    REQUIRE(r.status == 0);
    // (The loader answers the named query from the manifest whether the layer is enabled or not.)
    CHECK(r.output.find("workload: the NULL list has VK_NOVEM_queue_diagnostics: no") != std::string::npos);
    CHECK(r.output.find("workload: enabling") == std::string::npos);
    CHECK(r.output.find("workload: vkGetQueueDiagnosticsNOVEM: NULL") != std::string::npos);
  }
}

TEST_CASE("layer: a report on demand is written when the trigger file appears", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", trigger = tmp.path / "trigger", copy = tmp.path / "copy.json",
                 trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TRIGGER"] = trigger.string();
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations), "--trigger", trigger.string(),
                     "--trigger-copy", copy.string()},
                    env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("workload: report on demand written") != std::string::npos);
  CHECK_FALSE(fs::exists(trigger)); // taken by the layer
  REQUIRE(fs::exists(copy));
  const Json j = read_json(copy);
  CHECK(j["reason"].text == "trigger");
  REQUIRE(j["devices"].items.size() == 1);
  CHECK_FALSE(j["devices"][0]["destroyed"].boolean); // written while the application ran
  CHECK(num(j["devices"][0]["queues"][0]["submits"]) == 4 * kIterations);
  CHECK(num(j["devices"][0]["queues"][0]["latency"]["count"]) == 4 * kIterations);
  check_workload_report(read_json(report), kIterations); // the one at exit, complete
  CHECK(fs::exists(trace));
}

TEST_CASE("layer: vkcube under Xvfb: presents, present intervals and submissions on its queue", "[layer][vkcube]") {
  if (NOVEM_QD_SANITIZED) {
    WARN("the layer is built with sanitizers (NOVEM_SANITIZE) and vkcube is not: skipped");
    return;
  }
  const std::string xvfb_run = find_program("xvfb-run"), vkcube = find_program("vkcube");
  if (xvfb_run.empty() || vkcube.empty()) {
    WARN("xvfb-run (xvfb, xauth) or vkcube (vulkan-tools) not found: skipped");
    return;
  }
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  // vkcube --c N: N frames, then it exits; its default WSI on Linux is XCB, which Xvfb serves.
  // Validation stays stacked (the ctest environment), as for every program here.
  const std::uint64_t frames = 60;
  const Run r = run({xvfb_run, "-a", vkcube, "--c", std::to_string(frames)}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(report));
  const Json j = read_json(report);
  REQUIRE(j["devices"].items.size() == 1);
  const Json *presenting = nullptr;
  for (const Json &q : j["devices"][0]["queues"].items)
    if (num(q["presents"]) > 0) presenting = &q;
  REQUIRE(presenting);
  const Json &q = *presenting;
  CHECK(num(q["presents"]) == frames);
  CHECK(num(q["present_swapchains"]) == frames);
  CHECK(num(q["submits"]) >= frames); // one per frame, and its setup's
  CHECK(num(q["failed_submits"]) == 0);
  CHECK(num(q["latency"]["count"]) == num(q["submits"]));
  const Json &pi = q["present_intervals"];
  CHECK(num(pi["count"]) == frames - 1);
  CHECK(num(pi["min"]) > 0);
  CHECK(num(pi["min"]) <= num(pi["mean"]));
  CHECK(num(pi["mean"]) <= num(pi["max"]));
  CHECK(num(pi["p99"]) <= num(pi["max"]));
  CHECK(num(pi["min"]) <= num(pi["p99"]));
  REQUIRE(q["present_times"].items.size() == frames);
  for (std::size_t i = 1; i < frames; ++i)
    CHECK(num(q["present_times"][i]) > num(q["present_times"][i - 1]));
  CHECK(num(q["thread_overlaps"]["count"]) == 0);
  // The trace: the presents as instant events on the queue's track.
  const auto tracks = trace_tracks(read_trace(trace));
  const std::string track = "queue family " + std::to_string(num(q["family"])) + " index " + std::to_string(num(q["index"]));
  std::uint64_t instants = 0, slices = 0;
  for (const TraceTrack *t : tracks_named(tracks, track)) {
    instants += t->instants.size();
    slices += t->slices.size();
  }
  CHECK(instants == frames);
  CHECK(slices == num(q["submits"]));
}

TEST_CASE("layer: the intercept table is generated from intercepts.txt and vk.xml", "[layer][regen]") {
  TempDir tmp;
  const fs::path header = tmp.path / "i.h", source = tmp.path / "i.cpp";
  auto gen = [&](const fs::path &list) {
    return run({NOVEM_QD_REGISTRY_GEN, "vk-intercepts", "--registry", NOVEM_QD_VK_XML, "--version", "1.3",
                "--extension", "VK_KHR_swapchain,VK_KHR_synchronization2,VK_KHR_timeline_semaphore,VK_EXT_debug_utils,VK_EXT_device_fault", "--commands",
                list.string(), "--namespace", "novem_qd", "--out-header", header.string(), "--out-source",
                source.string()},
               {}, {}, tmp.path / "log.txt");
  };
  auto text = [](const fs::path &p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  SECTION("the layer's list") {
    const Run r = gen(NOVEM_QD_INTERCEPTS);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string h = text(header), c = text(source);
    // Prototypes from vk.xml (runs of spaces collapsed), in namespace novem_qd::hook.
    CHECK(h.find("namespace hook {") != std::string::npos);
    CHECK(h.find("VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo* "
                 "pSubmits, VkFence fence);") != std::string::npos);
    CHECK(h.find("VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, uint32_t submitCount, const "
                 "VkSubmitInfo2* pSubmits, VkFence fence);") != std::string::npos);
    CHECK(h.find("VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName);") !=
          std::string::npos);
    // Levels from vk.xml; every listed name once, sorted for the binary search.
    CHECK(c.find("{\"vkCreateInstance\", InterceptLevel::Global,") != std::string::npos);
    CHECK(c.find("{\"vkEnumerateDeviceExtensionProperties\", InterceptLevel::Instance,") != std::string::npos);
    CHECK(c.find("{\"vkWaitSemaphoresKHR\", InterceptLevel::Device,") != std::string::npos);
    CHECK(c.find("static_cast<PFN_vkQueuePresentKHR>(&hook::QueuePresentKHR)") != std::string::npos);
    std::vector<std::string> listed, generated;
    std::ifstream list(NOVEM_QD_INTERCEPTS);
    for (std::string line; std::getline(list, line);) {
      line = line.substr(0, line.find('#'));
      std::stringstream words(line);
      std::string w;
      if (words >> w) listed.push_back(w);
    }
    for (std::size_t at = c.find("{\"vk"); at != std::string::npos; at = c.find("{\"vk", at + 1))
      generated.push_back(c.substr(at + 2, c.find('"', at + 2) - at - 2));
    CHECK(std::is_sorted(generated.begin(), generated.end()));
    std::sort(listed.begin(), listed.end());
    CHECK(generated == listed);
    CHECK(h.find("kInterceptCount = " + std::to_string(listed.size()) + ";") != std::string::npos);
  }
  SECTION("a name vk.xml does not have for the selection") {
    std::ofstream(tmp.path / "bad.txt") << "vkQueueSubmit\nvkCmdDrawMeshTasksEXT # not selected\n";
    const Run r = gen(tmp.path / "bad.txt");
    CHECK(r.status == 1);
    CHECK(r.output.find("vkCmdDrawMeshTasksEXT (listed in bad.txt) is not a command of vulkan 1.3") != std::string::npos);
  }
  SECTION("a name listed twice") {
    std::ofstream(tmp.path / "twice.txt") << "vkQueueSubmit\n\n# again\nvkQueueSubmit\n";
    const Run r = gen(tmp.path / "twice.txt");
    CHECK(r.status == 1);
    CHECK(r.output.find("twice.txt:4: vkQueueSubmit is listed twice") != std::string::npos);
  }
}

TEST_CASE("layer: lavapipe's timestamps give ordered GPU times", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "10"}, enabled_env(report), {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const Json j = read_json(report);
  const Json &q = j["devices"][0]["queues"][0];
  if (j["devices"][0]["name"].text.find("llvmpipe") == std::string::npos) {
    WARN("not lavapipe: timestamps not required");
    return;
  }
  REQUIRE(q["timestamps"].boolean);
  const Json &gpu = q["gpu_time"];
  CHECK(num(gpu["count"]) == 30);
  CHECK(num(gpu["max"]) > 0);
  CHECK(num(gpu["max"]) <= num(gpu["total"]));
  // A batch's GPU time fits in its submission's submit -> complete latency (same clock on lavapipe,
  // a CPU device): the largest GPU time is no larger than the largest latency.
  CHECK(num(gpu["max"]) <= num(q["latency"]["max"]));
}

TEST_CASE("layer: the same VkQueue used from two threads at once is reported with both threads", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  const int race = 2000;
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--race", std::to_string(race)}, enabled_env(report), {},
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: thread-safety: VkQueue") != std::string::npos);
  const Json j = read_json(report);
  const Json &q = j["devices"][0]["queues"][0];
  CHECK(num(q["submits"]) == 4 + 2 * race);
  CHECK(num(q["latency"]["count"]) == 4 + 2 * race);
  CHECK(num(q["in_flight_at_report"]) == 0);
  const Json &ov = q["thread_overlaps"];
  REQUIRE(num(ov["count"]) >= 1);
  REQUIRE(!ov["list"].items.empty());
  CHECK(ov["list"].items.size() <= 16);
  CHECK(ov["list"].items.size() <= num(ov["count"]));
  for (const Json &o : ov["list"].items) {
    CHECK(num(o["thread"]) > 0);
    CHECK(num(o["other_thread"]) > 0);
    CHECK(num(o["thread"]) != num(o["other_thread"]));
    CHECK(o["call"].text == "vkQueueSubmit");
    CHECK((o["other_call"].text == "vkQueueSubmit" || o["other_call"].text == "?"));
  }
}

TEST_CASE("layer: the watchdog dumps a stalled submission and the periodic summary prints", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "50";
  env["NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS"] = "20";
  env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--stall-ms", "400"}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: watchdog: device 0") != std::string::npos);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: device 0 queue 0.0: submits ") != std::string::npos);
  REQUIRE(fs::exists(numbered_dump(dump, 1)));
  const Json d = read_json(numbered_dump(dump, 1));
  CHECK(d["schema"].text == "novem-queue-dump/2");
  CHECK(d["reason"].text == "watchdog");
  CHECK(num(d["watchdog_ms"]) == 50);
  CHECK(num(d["device"]["id"]) == 0);
  REQUIRE(d["in_flight"].items.size() == 1); // the stalled one: everything before it completed
  const Json &s = d["in_flight"][0];
  CHECK(num(s["family"]) == 0);
  CHECK(num(s["index"]) == 0);
  CHECK(num(s["seq"]) == 5); // after the iteration's 4
  CHECK(s["call"].text == "vkQueueSubmit");
  CHECK(s["age_ms"].number >= 50);
  CHECK(s["command_buffers"].items.size() == 1);
  CHECK(s["command_buffers"][0].text.rfind("0x", 0) == 0);
  REQUIRE(s["wait_semaphores"].items.size() == 1);
  CHECK(s["wait_semaphores"][0]["type"].text == "timeline");
  CHECK(num(s["wait_semaphores"][0]["value"]) == 102);
  CHECK(num(s["wait_semaphores"][0]["current_value"]) == 2); // the iteration's signal, not the host's yet
  CHECK(s["signal_semaphores"].items.empty());
  const Json j = read_json(report);
  CHECK(num(j["devices"][0]["watchdog_dumps"]) == 1);
  // vkWaitSemaphores on the value the host signalled: attributed to no queue.
  CHECK(num(j["devices"][0]["wait_semaphores_unattributed"]["calls"]) == 1);
  CHECK(num(j["devices"][0]["queues"][0]["wait_semaphores_blocked"]["calls"]) == 1);
  CHECK_FALSE(j["devices"][0]["device_lost"].boolean);
  const Json &q = j["devices"][0]["queues"][0];
  CHECK(num(q["latency"]["count"]) == 5);
  CHECK(num(q["latency"]["max"]) >= 400000000ull); // the stalled one
  CHECK(num(q["in_flight_at_report"]) == 0);
}

TEST_CASE("layer: a watchdog longer than any submission writes no dump", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "60000";
  env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations)}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_FALSE(fs::exists(numbered_dump(dump, 1)));
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: watchdog") == std::string::npos);
  check_workload_report(read_json(report), kIterations);
}

// ---- the layer on the test ICD (tests/icd): several queues, a hung device, a lost device ----
// The test ICD is not a conformant driver: validation is never stacked on it (VK_INSTANCE_LAYERS
// removed from the child's environment).
#ifdef NOVEM_QD_TEST_ICD_JSON
namespace {

// The in-flight submissions of a device-lost dump: those of queue 0.0 that novem-icd-workload's
// lose mode made (one command buffer, one binary signal semaphore each), seq below `lost_at`.
void check_lost_entries(const Json &dump, std::uint64_t lost_at) {
  std::uint64_t last_seq = 0;
  for (const Json &s : dump["in_flight"].items) {
    CHECK(num(s["family"]) == 0);
    CHECK(num(s["index"]) == 0);
    CHECK(num(s["seq"]) > last_seq); // in submit order
    last_seq = num(s["seq"]);
    CHECK(num(s["seq"]) < lost_at);
    CHECK(s["call"].text == "vkQueueSubmit");
    CHECK(s["age_ms"].kind == Json::Number);
    CHECK(s["age_ms"].number >= 0);
    REQUIRE(s["command_buffers"].items.size() == 1);
    CHECK(s["command_buffers"][0].text.rfind("0x", 0) == 0);
    CHECK(s["wait_semaphores"].items.empty());
    REQUIRE(s["signal_semaphores"].items.size() == 1);
    CHECK(s["signal_semaphores"][0]["type"].text == "binary");
    CHECK(s["signal_semaphores"][0]["handle"].text.rfind("0x", 0) == 0);
  }
}

} // namespace

TEST_CASE("layer: on the test ICD, every queue is listed and counted apart", "[layer][icd]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "normal"}, icd_env(report, dump), kIcdUnset, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r.output, "device 0: Novem test ICD"));
  CHECK(has_line(r.output, "timestamps: ordered")); // the layer's own timestamps leave the app's alone
  CHECK(has_line(r.output, "copied timestamps: match"));
  CHECK(has_line(r.output, "workload: done"));
  CHECK_FALSE(fs::exists(numbered_dump(dump, 1)));
  const Json j = read_json(report);
  REQUIRE(j["devices"].items.size() == 1);
  const Json &dev = j["devices"][0];
  CHECK(dev["name"].text == "Novem test ICD");
  CHECK(dev["destroyed"].boolean);
  CHECK_FALSE(dev["device_lost"].boolean);
  CHECK(num(dev["watchdog_dumps"]) == 0);
  CHECK(num(dev["device_wait_idle"]["calls"]) == 1);
  CHECK(num(dev["wait_for_fences_unattributed"]["calls"]) == 0);
  REQUIRE(dev["queues"].items.size() == 3); // 0.0, 0.1 (through vkGetDeviceQueue2), 1.0
  // novem-icd-workload's normal mode, on each of the three queues: vkQueueSubmit {cb; signal binary}
  // with a fence, vkWaitForFences, vkQueueSubmit2 {wait binary; cb; signal timeline}, vkQueueWaitIdle.
  const std::pair<std::uint64_t, std::uint64_t> ids[] = {{0, 0}, {0, 1}, {1, 0}};
  for (const auto &[family, index] : ids) {
    INFO("queue " << family << "." << index);
    const Json &q = find_queue(dev, family, index);
    if (family == 0)
      CHECK(texts(q["family_flags"]) == std::vector<std::string>{"graphics", "compute", "transfer", "sparse_binding"});
    else
      CHECK(texts(q["family_flags"]) == std::vector<std::string>{"transfer"});
    CHECK(num(q["submits"]) == 2);
    CHECK(num(q["submit_calls"]["vkQueueSubmit"]) == 1);
    CHECK(num(q["submit_calls"]["vkQueueSubmit2"]) == 1);
    CHECK(num(q["failed_submits"]) == 0);
    CHECK(num(q["batches"]) == 2);
    CHECK(num(q["command_buffers"]) == 2);
    CHECK(num(q["wait_semaphores"]["binary"]) == 1);
    CHECK(num(q["wait_semaphores"]["timeline"]) == 0);
    CHECK(num(q["signal_semaphores"]["binary"]) == 1);
    CHECK(num(q["signal_semaphores"]["timeline"]) == 1);
    CHECK(num(q["fences"]) == 1);
    CHECK(num(q["queue_wait_idle"]["calls"]) == 1);
    CHECK(num(q["wait_for_fences"]["calls"]) == 1);
    CHECK(num(q["device_wait_idle"]["calls"]) == 0); // each queue was idle by then
    CHECK(num(q["in_flight_at_report"]) == 0);
    CHECK(num(q["in_flight_max"]) >= 1);
    CHECK(num(q["latency"]["count"]) == 2);
    CHECK(num(q["latency"]["min"]) <= num(q["latency"]["max"]));
    CHECK(num(q["thread_overlaps"]["count"]) == 0);
    // Timestamps need graphics or compute (vkCmdResetQueryPool): family 0 only.
    CHECK(q["timestamps"].boolean == (family == 0));
    if (family == 0) {
      CHECK(num(q["gpu_time"]["count"]) == 2);
      CHECK(num(q["gpu_time"]["max"]) <= num(q["gpu_time"]["total"]));
      CHECK(num(q["gpu_time"]["unmeasured_batches"]) == 0);
    } else {
      CHECK(num(q["gpu_time"]["count"]) == 0);
    }
  }
}

TEST_CASE("layer: on the test ICD, a lost device dumps the submissions in flight", "[layer][icd]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = icd_env(report, dump);
  env["NOVEM_TEST_ICD_LOSE_DEVICE"] = "4"; // the 4th submit (the layer adds none: no application fence)
  const bool hang = GENERATE(true, false);
  // Hung: submissions #1-#3 never complete, so exactly they are in flight. Not hung: they complete
  // inside the ICD's submit call, and the layer thread may or may not have seen it yet.
  if (hang)
    env["NOVEM_TEST_ICD_HANG"] = "1";
  INFO("hang " << hang);
  auto unset = kIcdUnset;
  unset.erase(std::find(unset.begin(), unset.end(), "NOVEM_TEST_ICD_LOSE_DEVICE"));
  if (hang)
    unset.erase(std::find(unset.begin(), unset.end(), "NOVEM_TEST_ICD_HANG"));
  const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "lose", "--submits", "5"}, env, unset, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r.output, "vkQueueSubmit #3: VK_SUCCESS"));
  CHECK(has_line(r.output, "vkQueueSubmit #4: VK_ERROR_DEVICE_LOST"));
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: device_lost in ") != std::string::npos);
  REQUIRE(fs::exists(numbered_dump(dump, 1)));
  const Json d = read_json(numbered_dump(dump, 1));
  CHECK(d["schema"].text == "novem-queue-dump/2");
  CHECK(d["reason"].text == "device_lost");
  // Whichever saw it first: the application's submit, or the layer thread's fence calls.
  const std::string call = d["call"].text;
  CHECK((call == "vkQueueSubmit" || call == "vkWaitForFences (layer thread)" ||
         call == "vkGetFenceStatus (layer thread)"));
  CHECK(num(d["watchdog_ms"]) == 0);
  CHECK(num(d["device"]["id"]) == 0);
  CHECK(d["device"]["name"].text == "Novem test ICD");
  check_lost_entries(d, 4);
  if (hang) {
    REQUIRE(d["in_flight"].items.size() == 3);
    for (std::size_t i = 0; i < 3; ++i)
      CHECK(num(d["in_flight"][i]["seq"]) == i + 1);
  }
  const Json j = read_json(report);
  const Json &dev = j["devices"][0];
  CHECK(dev["device_lost"].boolean);
  CHECK(num(dev["watchdog_dumps"]) == 0);
  const Json &q00 = find_queue(dev, 0, 0), &q01 = find_queue(dev, 0, 1);
  CHECK(num(q00["submits"]) == 3);
  CHECK(num(q00["failed_submits"]) == 2);
  CHECK(num(q01["submits"]) == 0);
  CHECK(num(q01["failed_submits"]) == 1);
  if (hang) {
    CHECK(num(q00["in_flight_at_report"]) == 3);
    CHECK(num(q00["latency"]["count"]) == 0);
  }
}

TEST_CASE("layer: on the test ICD, an application's fence is waited on, with no submit of the layer's own",
          "[layer][icd]") {
  // novem-icd-workload's normal mode starts on queue 0.0 with vkQueueSubmit {cb} with a fence, waits
  // for it, resets it, then vkQueueSubmit2. The ICD loses the device at its second submit: that is
  // the application's vkQueueSubmit2 only if the layer added no submit of its own for a fence.
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = icd_env(report, dump);
  env["NOVEM_TEST_ICD_LOSE_DEVICE"] = "2";
  auto unset = kIcdUnset;
  unset.erase(std::find(unset.begin(), unset.end(), "NOVEM_TEST_ICD_LOSE_DEVICE"));
  const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "normal"}, env, unset, tmp.path / "log.txt");
  INFO(r.output);
  CHECK(has_line(r.output, "vkQueueSubmit 0.0: VK_SUCCESS"));
  CHECK(has_line(r.output, "vkWaitForFences 0.0: VK_SUCCESS"));
  CHECK(has_line(r.output, "vkQueueSubmit2 0.0: VK_ERROR_DEVICE_LOST"));
  CHECK(r.output.find("layer fence") == std::string::npos);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: device_lost in ") != std::string::npos);
}

TEST_CASE("layer: on the test ICD, a hung submission is dumped by the watchdog", "[layer][icd]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = icd_env(report, dump);
  env["NOVEM_TEST_ICD_HANG"] = "1";
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "100";
  auto unset = kIcdUnset;
  unset.erase(std::find(unset.begin(), unset.end(), "NOVEM_TEST_ICD_HANG"));
  unset.erase(std::find(unset.begin(), unset.end(), "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"));
  // One submission {wait timeline 100; cb0} on queue 0.0 that the hung ICD never completes, 300 ms
  // of sleep, then teardown without waiting.
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "0", "--stall-ms", "300", "--stall-no-wait"}, env, unset,
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: watchdog: device 0 (Novem test ICD)") != std::string::npos);
  REQUIRE(fs::exists(numbered_dump(dump, 1)));
  const Json d = read_json(numbered_dump(dump, 1));
  CHECK(d["schema"].text == "novem-queue-dump/2");
  CHECK(d["reason"].text == "watchdog");
  CHECK(d["call"].text.empty());
  CHECK(num(d["watchdog_ms"]) == 100);
  CHECK(d["device"]["name"].text == "Novem test ICD");
  REQUIRE(d["in_flight"].items.size() == 1);
  const Json &s = d["in_flight"][0];
  CHECK(num(s["family"]) == 0);
  CHECK(num(s["index"]) == 0);
  CHECK(num(s["seq"]) == 1);
  CHECK(s["call"].text == "vkQueueSubmit");
  CHECK(s["age_ms"].number >= 100);
  CHECK(s["age_ms"].number < 300 + 1000); // dumped while the workload slept, not at teardown
  REQUIRE(s["command_buffers"].items.size() == 1);
  CHECK(s["command_buffers"][0].text.rfind("0x", 0) == 0);
  REQUIRE(s["wait_semaphores"].items.size() == 1);
  CHECK(s["wait_semaphores"][0]["type"].text == "timeline");
  CHECK(num(s["wait_semaphores"][0]["value"]) == 100);
  CHECK(num(s["wait_semaphores"][0]["current_value"]) == 0); // the hung ICD signals nothing
  CHECK(s["signal_semaphores"].items.empty());
  const Json j = read_json(report);
  const Json &dev = j["devices"][0];
  CHECK(num(dev["watchdog_dumps"]) == 1); // once per submission
  CHECK_FALSE(dev["device_lost"].boolean);
  const Json &q = find_queue(dev, 0, 0);
  CHECK(num(q["submits"]) == 1);
  CHECK(num(q["in_flight_at_report"]) == 1);
  CHECK(num(q["latency"]["count"]) == 0);
}
#endif
