// The layer's switches (timestamps, latency, thread_safety, events): each turns off exactly what it
// names, so that its price can be measured apart (novem-bench-layer), and the rest of the report stays.
#include "layer_fixture.hpp"

using namespace qd_test;

TEST_CASE("layer switches: each turns off what it names and nothing else", "[layer]") {
  struct Case {
    const char *name;
    std::map<std::string, std::string> settings; // NOVEM_QUEUE_DIAGNOSTICS_<KEY> = value
    int race;                                    // --race N: two threads on one queue without a lock
    bool timestamps;                             // the report's "timestamps" and GPU times
    bool latency;                                // latency counted for every submission
    bool events;                                 // the completed submissions listed
    bool overlaps;                               // the race reported
  };
  const Case cases[] = {
      {"everything on (the default)", {}, 2000, true, true, true, true},
      {"timestamps=0", {{"TIMESTAMPS", "0"}}, 0, false, true, true, false},
      {"latency=off (no completion tracking, so no timestamps either)", {{"LATENCY", "off"}}, 0, false, false, false,
       false},
      {"events=0", {{"EVENTS", "0"}}, 0, true, true, false, false},
      {"thread_safety=false", {{"THREAD_SAFETY", "false"}}, 2000, true, true, true, false},
      {"all four off", {{"TIMESTAMPS", "0"}, {"LATENCY", "0"}, {"EVENTS", "0"}, {"THREAD_SAFETY", "0"}}, 2000, false,
       false, false, false},
  };
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json";
      auto env = enabled_env(report);
      for (const auto &[k, v] : c.settings) env["NOVEM_QUEUE_DIAGNOSTICS_" + k] = v;
      std::vector<std::string> argv = {NOVEM_QD_WORKLOAD, "--iterations", "2"};
      if (c.race) argv.insert(argv.end(), {"--race", std::to_string(c.race)});
      const Run r = run(argv, env, {}, tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      CHECK(r.output.find("is not 0, 1") == std::string::npos);
      const Json j = read_json(report);
      const Json &q = j["devices"][0]["queues"][0];
      const std::uint64_t submits = 8 + 2 * static_cast<std::uint64_t>(c.race);
      CHECK(num(q["submits"]) == submits); // the counts never depend on a switch
      CHECK(num(q["command_buffers"]) == 2 * 5 + 2 * static_cast<std::uint64_t>(c.race));
      CHECK(num(q["wait_for_fences"]["calls"]) == 2 * 2);
      // The semaphores classified, and a timeline value a submission signals still attributed, on
      // every path (latency off: the submission is not recorded at all).
      CHECK(num(q["wait_semaphores"]["binary"]) + num(q["wait_semaphores"]["timeline"]) == 3 * 2);
      CHECK(num(q["signal_semaphores"]["binary"]) + num(q["signal_semaphores"]["timeline"]) == 4 * 2);
      CHECK(num(q["wait_semaphores_blocked"]["calls"]) == 2);
      CHECK(q["timestamps"].boolean == c.timestamps);
      CHECK((num(q["gpu_time"]["count"]) > 0) == c.timestamps);
      CHECK(num(q["latency"]["count"]) == (c.latency ? submits : 0));
      CHECK(q["submissions"].items.empty() != c.events);
      CHECK((num(q["thread_overlaps"]["count"]) > 0) == c.overlaps);
      CHECK((r.output.find("thread-safety: VkQueue") != std::string::npos) == c.overlaps);
    }
  }
}

// timestamp_every: one submission in N is timed; unset, N is 1 on a GPU and 64 on a CPU device,
// whose timestamp commands the CPU runs in the application's process. The workload's iteration is
// 4 submissions of which #1-#3 carry command buffers; a timed submission without any has nothing
// to time.
TEST_CASE("layer switches: timestamp_every times one submission in N", "[layer]") {
  struct Case {
    const char *name;
    const char *every; // NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY; nullptr: unset
    std::uint64_t cpu_device_every, gpu_every;
  };
  const Case cases[] = {{"unset: per device", nullptr, 64, 1}, {"4", "4", 4, 4}, {"1", "1", 1, 1}};
  constexpr std::uint64_t kIterations = 10, kSubmits = 4 * kIterations;
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json";
      auto env = enabled_env(report);
      env.erase("NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY");
      std::vector<std::string> unset;
      if (c.every) env["NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY"] = c.every;
      else unset.push_back("NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY");
      const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", std::to_string(kIterations)}, env, unset,
                        tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      const Json j = read_json(report);
      const Json &q = j["devices"][0]["queues"][0];
      if (!q["timestamps"].boolean) {
        WARN("no timestamps on this queue family: timestamp_every not checked");
        continue;
      }
      const bool cpu = j["devices"][0]["name"].text.find("llvmpipe") != std::string::npos;
      const std::uint64_t every = cpu ? c.cpu_device_every : c.gpu_every;
      const Json &gpu = q["gpu_time"];
      CHECK(num(gpu["timestamp_every"]) == every);
      std::uint64_t timed = 0; // the timed turns that land on a submission with command buffers
      for (std::uint64_t turn = 0; turn < kSubmits; turn += every) timed += turn % 4 < 3 ? 1 : 0;
      CHECK(num(gpu["count"]) == timed);
      // The batches left out are the submissions' not timed, and nothing else goes unmeasured.
      CHECK(num(gpu["skipped_batches"]) == num(gpu["unmeasured_batches"]));
      CHECK((num(gpu["skipped_batches"]) > 0) == (every > 1));
      CHECK(num(q["latency"]["count"]) == kSubmits); // everything else is still counted
    }
  }
}

// On a CPU device the default also keeps the timed submissions 10 ms apart on a queue: a burst of
// small submissions would otherwise pay a rasterizer flush on every 64th (the layer's bound on
// its timestamps' cost there). An explicit timestamp_every is taken as it is. The workload's
// burst: 640 small submissions back to back, then vkQueueWaitIdle, which proves them all complete.
TEST_CASE("layer switches: on a CPU device timed submissions are 10 ms apart unless timestamp_every says", "[layer]") {
  struct Case {
    const char *name;
    const char *every; // NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY; nullptr: unset
    bool gap;          // timed submissions at least 10 ms apart
  };
  const Case cases[] = {{"unset: 64 and 10 ms apart", nullptr, true}, {"64: every 64th", "64", false}};
  constexpr std::uint64_t kBurst = 640, kGapNs = 10000000;
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json";
      auto env = enabled_env(report);
      env.erase("NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY");
      std::vector<std::string> unset;
      if (c.every) env["NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY"] = c.every;
      else unset.push_back("NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY");
      const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--burst", std::to_string(kBurst)}, env, unset,
                        tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      const Json j = read_json(report);
      const Json &q = j["devices"][0]["queues"][0];
      if (!q["timestamps"].boolean || j["devices"][0]["name"].text.find("llvmpipe") == std::string::npos) {
        WARN("not a CPU device with timestamps: the gap not checked");
        continue;
      }
      const Json &subs = q["submissions"];
      REQUIRE(subs.items.size() == 4 + kBurst);
      std::vector<std::uint64_t> timed; // the timed submissions' submit times
      for (const Json &sub : subs.items)
        if (sub.has("gpu_ns")) timed.push_back(num(sub["submit_ns"]));
      const std::uint64_t span = num(subs[subs.items.size() - 1]["submit_ns"]) - num(subs[0]["submit_ns"]);
      INFO("timed " << timed.size() << " in " << span << " ns");
      if (c.gap) {
        CHECK(timed.size() >= 1); // the first
        for (std::size_t i = 1; i < timed.size(); ++i) CHECK(timed[i] - timed[i - 1] >= kGapNs);
        CHECK(timed.size() <= 1 + span / kGapNs);
      } else {
        CHECK(timed.size() == 1 + kBurst / 64); // turn 0 (the iteration's first), then the burst's 64, ... 640
      }
      // Every burst submission is complete no later than the vkQueueWaitIdle that proved it,
      // however the layer thread saw it (its wait, its poll, or the proof).
      std::uint64_t idle_end = 0;
      for (const Json &w : q["waits"].items)
        if (w["call"].text == "vkQueueWaitIdle") idle_end = num(w["end_ns"]);
      for (std::size_t i = 4; i < subs.items.size(); ++i) CHECK(num(subs[i]["complete_ns"]) <= idle_end);
    }
  }
}

TEST_CASE("layer switches: timestamp_every that is no number is one line and the default", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY"] = "-2";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMP_EVERY=-2 is not a whole number of submissions") !=
        std::string::npos);
}

TEST_CASE("layer switches: the watchdog keeps latency tracking on, and says so", "[layer]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_LATENCY"] = "0";
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "50";
  env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--stall-ms", "300"}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("VK_LAYER_NOVEM_queue_diagnostics: watchdog_ms needs latency tracking; latency stays on") !=
        std::string::npos);
  CHECK(fs::exists(numbered_dump(dump, 1))); // the dump path's first numbered file
  CHECK(num(read_json(report)["devices"][0]["queues"][0]["latency"]["count"]) == 5);
}
