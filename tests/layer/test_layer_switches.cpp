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
