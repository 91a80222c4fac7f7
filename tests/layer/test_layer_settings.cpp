// The layer's settings and outputs as a user meets them: every output written however the program
// ends (exit without teardown, exit while another thread submits, the layer unloaded and loaded
// again, a forked child exiting), values that do not parse refused with one line, output paths
// checked at start-up, the effective settings printed on request, and the three sources
// (environment, vkconfig's settings file, VK_EXT_layer_settings) in their order.
#include "layer_fixture.hpp"

#include <algorithm>
#include <set>

using namespace qd_test;

namespace {

std::size_t occurrences(const std::string &text, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Runs the workload with `cwd` as its current directory (so that a file written under a wrong name
// lands where the test looks).
Run run_in(const fs::path &cwd, const std::vector<std::string> &argv, const std::map<std::string, std::string> &env) {
  const fs::path before = fs::current_path();
  fs::current_path(cwd);
  const Run r = run(argv, env, {}, cwd / "log.txt");
  fs::current_path(before);
  return r;
}

} // namespace

TEST_CASE("layer settings: every output is written under its own name however the program ends", "[layer]") {
  struct Case {
    const char *name;
    std::vector<std::string> args;
    std::size_t devices; // in the last report
    std::set<std::string> dumps; // one per device: each stalls a submission past the watchdog
  };
  // With two instances, the loader may unload the layer in between (a new report then starts); the
  // loader of Debian 12 keeps it, and the report holds both instances' devices.
  const Case cases[] = {
      {"exit() with the device and the instance alive", {"--exit-without-teardown"}, 1, {"dump-1.json"}},
      {"two instances one after another", {"--instances", "2"}, 2, {"dump-1.json", "dump-2.json"}},
  };
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json", dump = tmp.path / "dump.json",
                     trigger = tmp.path / "trigger", copy = tmp.path / "on-demand.json";
      auto env = enabled_env(report);
      env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
      env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
      env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "50";
      env["NOVEM_QUEUE_DIAGNOSTICS_TRIGGER"] = trigger.string();
      std::vector<std::string> argv = {NOVEM_QD_WORKLOAD, "--iterations", "2", "--stall-ms", "300",
                                       "--trigger", trigger.string(), "--trigger-copy", copy.string()};
      argv.insert(argv.end(), c.args.begin(), c.args.end());
      const Run r = run_in(tmp.path, argv, env);
      INFO(r.output);
      REQUIRE(r.status == 0);
      CHECK(r.output.find("cannot write") == std::string::npos);
      std::set<std::string> names;
      for (const auto &e : fs::directory_iterator(tmp.path)) names.insert(e.path().filename().string());
      std::set<std::string> expected = {"report.json", "trace.json", "on-demand.json", "log.txt"};
      expected.insert(c.dumps.begin(), c.dumps.end());
      CHECK(names == expected);
      const Json rep = read_json(report);
      CHECK(rep["reason"].text == "unload");
      REQUIRE(rep["devices"].items.size() == c.devices);
      CHECK(num(rep["devices"][0]["queues"][0]["submits"]) >= 9);
      CHECK(read_json(copy)["reason"].text == "trigger");
      for (std::size_t n = 1; n <= c.dumps.size(); ++n)
        CHECK(read_json(numbered_dump(dump, static_cast<int>(n)))["reason"].text == "watchdog");
      const Json t = read_trace(trace);
      CHECK(!t.items.empty());
    }
  }
}

// A program that returns from main() while its render thread still submits: the thread goes on
// through the layer's hooks while the process ends. The layer's state must outlive the library's
// destructor then. A layer that frees it there crashes about one run in three: ten runs. Without
// the validation layer, which crashes so on its own (nine runs in ten, without this layer).
TEST_CASE("layer settings: exit() while another thread still submits crashes nothing and writes every output", "[layer]") {
  for (int run_number = 0; run_number < 10; ++run_number) {
    TempDir tmp;
    const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json";
    auto env = enabled_env(report);
    env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
    const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--exit-while-submitting"}, env,
                      {"VK_INSTANCE_LAYERS"}, tmp.path / "log.txt");
    INFO("run " << run_number << ": " << r.output);
    REQUIRE(r.status == 0);
    REQUIRE(r.output.find("workload: exit while another thread submits") != std::string::npos);
    const Json rep = read_json(report);
    CHECK(rep["reason"].text == "unload");
    REQUIRE(rep["devices"].items.size() == 1);
    CHECK(num(rep["devices"][0]["queues"][0]["submits"]) >= 4 + 2000);
    CHECK(!read_trace(trace).items.empty());
  }
}

// Programs fork (crash reporters, helpers spawned the old way): the child has the layer's state but
// not its threads, and a lock one of them held at the fork stays held. The fork comes halfway
// through a burst, while the layer thread is busy.
TEST_CASE("layer settings: a child made by fork() ends without hanging and writes none of the parent's files", "[layer]") {
  struct Case {
    const char *mode;       // the workload's --fork
    const char *child_line; // what the child prints, if anything
  };
  const Case cases[] = {
      {"exit", nullptr},
      {"vulkan", "workload: child used a device of its own"},
  };
  constexpr int kBurst = 400;
  for (const Case &c : cases) {
    // A child that allocates can wait for good on the sanitizer allocator's lock, held by a thread
    // of the parent at the fork (the allocator of GCC 12's ASan takes no lock around fork()).
    if (NOVEM_QD_SANITIZED && c.child_line) continue;
    SECTION(std::string("the child ") + (c.child_line ? "uses a device of its own" : "exits at once")) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json", trace = tmp.path / "trace.json", dump = tmp.path / "dump.json";
      auto env = enabled_env(report);
      env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
      env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
      const Run r =
          run_in(tmp.path, {NOVEM_QD_WORKLOAD, "--iterations", "1", "--burst", std::to_string(kBurst), "--fork", c.mode}, env);
      INFO(r.output);
      REQUIRE(r.status == 0);
      CHECK(r.output.find("workload: forked child exited with status 0") != std::string::npos);
      if (c.child_line) CHECK(r.output.find(c.child_line) != std::string::npos);
      std::set<std::string> names;
      for (const auto &e : fs::directory_iterator(tmp.path)) names.insert(e.path().filename().string());
      CHECK(names == std::set<std::string>{"report.json", "trace.json", "log.txt"});
      // The parent's files, whole: its one device with every submission of its own.
      const Json rep = read_json(report);
      CHECK(rep["reason"].text == "unload");
      REQUIRE(rep["devices"].items.size() == 1);
      CHECK(num(rep["devices"][0]["queues"][0]["submits"]) == 4 + kBurst);
      const Json t = read_trace(trace);
      std::size_t devices = 0, submissions = 0;
      for (const Json &e : t.items) {
        devices += e["ph"].text == "M" && e["name"].text == "process_name";
        submissions += e["ph"].text == "X" && e["cat"].text == "submission";
      }
      CHECK(devices == 1);
      CHECK(submissions == 4 + kBurst);
    }
  }
}

TEST_CASE("layer settings: a value that is not a number in range or a switch is one line, and the default stays", "[layer]") {
  struct Case {
    const char *variable;
    const char *value;
    const char *line;
  };
  const Case cases[] = {
      {"NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS", "-1",
       "NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS=-1 is not a whole number of milliseconds from 0 to 86400000; using 0"},
      {"NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS", "18446744073709551616",
       "NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS=18446744073709551616 is not a whole number"},
      {"NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS", "86400001", "NOVEM_QUEUE_DIAGNOSTICS_INTERVAL_MS=86400001 is not"},
      {"NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS", "1e3", "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS=1e3 is not"},
      {"NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS", " 5", "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS= 5 is not"},
      {"NOVEM_QUEUE_DIAGNOSTICS_EVENTS", "abc",
       "NOVEM_QUEUE_DIAGNOSTICS_EVENTS=abc is not a whole number of events from 0 to 10000000; using 10000"},
      {"NOVEM_QUEUE_DIAGNOSTICS_EVENTS", "+3", "NOVEM_QUEUE_DIAGNOSTICS_EVENTS=+3 is not"},
      {"NOVEM_QUEUE_DIAGNOSTICS_LOG", "verbose", "log=verbose is not error, warn or info; using warn"},
      {"NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMPS", "2",
       "NOVEM_QUEUE_DIAGNOSTICS_TIMESTAMPS=2 is not 0, 1, true, false, on or off; using 1"},
      {"NOVEM_QUEUE_DIAGNOSTICS_LATENCY", "no",
       "NOVEM_QUEUE_DIAGNOSTICS_LATENCY=no is not 0, 1, true, false, on or off; using 1"},
      {"NOVEM_QUEUE_DIAGNOSTICS_THREAD_SAFETY", " on", "NOVEM_QUEUE_DIAGNOSTICS_THREAD_SAFETY= on is not"},
  };
  for (const Case &c : cases) {
    SECTION(std::string(c.variable) + "=" + c.value) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json";
      auto env = enabled_env(report);
      env[c.variable] = c.value;
      const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "2"}, env, {}, tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      CHECK(occurrences(r.output, "VK_LAYER_NOVEM_queue_diagnostics: " + std::string(c.line)) == 1);
      // The defaults: no periodic summary, no watchdog dump, the events kept, GPU timestamps and
      // latency measured.
      CHECK(r.output.find("queue 0.0: submits ") == std::string::npos);
      CHECK(r.output.find("watchdog") == std::string::npos);
      const Json rep = read_json(report);
      const Json &q = rep["devices"][0]["queues"][0];
      CHECK(q["submissions"].items.size() == 8);
      CHECK(q["timestamps"].boolean);
      CHECK(num(q["latency"]["count"]) == 8);
    }
  }
}

TEST_CASE("layer settings: an output that cannot be written is one line at start-up, with the system's reason",
          "[layer]") {
  TempDir tmp;
  struct Case {
    const char *name; // the section's: fixed, as Catch2 tells sections apart by name
    const char *variable;
    std::string path;
    std::string line;
  };
  const Case cases[] = {
      {"trace: no folder", "NOVEM_QUEUE_DIAGNOSTICS_TRACE", "/nonexistent-novem-dir/t.json",
       "cannot write the trace to /nonexistent-novem-dir/t.json: No such file or directory"},
      {"trace: a folder", "NOVEM_QUEUE_DIAGNOSTICS_TRACE", tmp.path.string(),
       "cannot write the trace to " + tmp.path.string() + ": Is a directory"},
      {"dump: no folder", "NOVEM_QUEUE_DIAGNOSTICS_DUMP", "/nonexistent-novem-dir/d.json",
       "cannot write the dump to /nonexistent-novem-dir/d.json: No such file or directory"},
      {"report: a folder", "NOVEM_QUEUE_DIAGNOSTICS_REPORT", tmp.path.string(),
       "cannot write the report to " + tmp.path.string() + ": Is a directory"},
  };
  for (const Case &c : cases) {
    SECTION(c.name) {
      auto env = enabled_env(tmp.path / "report.json");
      env[c.variable] = c.path;
      const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, env, {}, tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      const std::size_t line = r.output.find("VK_LAYER_NOVEM_queue_diagnostics: " + c.line);
      REQUIRE(line != std::string::npos);
      CHECK(line < r.output.find("workload: debug messenger")); // at vkCreateInstance, not at exit
    }
  }
}

TEST_CASE("layer settings: log=info prints the effective settings once per process", "[layer]") {
  TempDir tmp;
  auto env = enabled_env(tmp.path / "report.json");
  env["NOVEM_QUEUE_DIAGNOSTICS_LOG"] = "info";
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "2000";
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1"}, env, {}, tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(occurrences(r.output, "VK_LAYER_NOVEM_queue_diagnostics: report " + (tmp.path / "report.json").string() +
                                  ", dump novem-queue-dump-") == 1);
  CHECK(occurrences(r.output, ", trace off, trigger off, watchdog_ms 2000, interval_ms 0, events 10000") == 1);
}

TEST_CASE("layer settings: the environment, then vkconfig's settings file, then VK_EXT_layer_settings", "[layer]") {
  struct Case {
    const char *name;
    bool env, file, api;
    const char *written; // which of the three trace paths is written
  };
  const Case cases[] = {
      {"the settings file alone", false, true, false, "file.json"},
      {"VK_EXT_layer_settings alone", false, false, true, "api.json"},
      {"the file over VK_EXT_layer_settings", false, true, true, "file.json"},
      {"the environment over both", true, true, true, "env.json"},
  };
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      auto env = enabled_env(tmp.path / "report.json");
      const fs::path settings = tmp.path / "vk_layer_settings.txt";
      std::ofstream(settings) << "# vkconfig's format\n"
                              << "khronos_validation.report_flags = error\n"
                              << (c.file ? "novem_queue_diagnostics.trace = " + (tmp.path / "file.json").string() : "")
                              << "\n";
      env["VK_LAYER_SETTINGS_PATH"] = settings.string();
      if (c.env) env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = (tmp.path / "env.json").string();
      std::vector<std::string> argv = {NOVEM_QD_WORKLOAD, "--iterations", "1"};
      if (c.api) argv.insert(argv.end(), {"--layer-setting", "trace=" + (tmp.path / "api.json").string()});
      const Run r = run(argv, env, {}, tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0); // validation (stacked) sees no unknown structure
      for (const char *name : {"file.json", "api.json", "env.json"})
        CHECK(fs::exists(tmp.path / name) == (std::string(name) == c.written));
      CHECK(!read_trace(tmp.path / c.written).items.empty());
    }
  }
}
