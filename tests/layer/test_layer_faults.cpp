// The queue diagnostics layer's fault reports: debug-utils names and labels, timeline payloads, the
// failing call with its queue and thread, numbered dumps, one watchdog dump per hang — on the test
// ICD (hung and lost devices) and on lavapipe (a stalled submission, validation stacked).
#include "layer_fixture.hpp"

#include <algorithm>
#include <iterator>

using namespace qd_test;

namespace {

std::uint64_t count_of(const std::string &text, const std::string &what) {
  std::uint64_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A command buffer's labels as "op:label" words.
std::vector<std::string> label_ops(const Json &cb) {
  std::vector<std::string> out;
  for (const Json &l : cb["labels"].items) out.push_back(l["op"].text + ":" + l["label"].text);
  return out;
}

} // namespace

TEST_CASE("layer faults: on lavapipe, the watchdog dump names the stalled work and reads its timeline",
          "[layer][faults]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json", trace = tmp.path / "trace.json";
  auto env = enabled_env(report);
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "50";
  env["NOVEM_QUEUE_DIAGNOSTICS_DUMP"] = dump.string();
  env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
  // A dump of an earlier run is there: never overwritten, the new one takes the next number.
  std::ofstream(numbered_dump(dump, 1)) << "earlier";
  // Validation stays stacked (the ctest environment): the workload exits 3 on any message.
  const Run r = run({NOVEM_QD_WORKLOAD, "--iterations", "1", "--stall-ms", "400", "--labels"}, env, {},
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(count_of(r.output, "VK_LAYER_NOVEM_queue_diagnostics: watchdog") == 1);
  std::ifstream earlier(numbered_dump(dump, 1));
  CHECK(std::string(std::istreambuf_iterator<char>(earlier), {}) == "earlier");
  const Json d = read_json(numbered_dump(dump, 2));
  CHECK_FALSE(fs::exists(numbered_dump(dump, 3)));
  CHECK(d["schema"].text == "novem-queue-dump/2");
  CHECK(num(d["number"]) == 2);
  CHECK(d["thread"].kind == Json::Null); // no call failed
  CHECK(d["queue"].kind == Json::Null);
  REQUIRE(d["in_flight"].items.size() == 1);
  const Json &s = d["in_flight"][0];
  CHECK(s["queue_name"].text == "workload queue");
  CHECK(texts(s["queue_labels"]) == std::vector<std::string>{"stall"});
  REQUIRE(s["command_buffer_details"].items.size() == 1);
  const Json &cb = s["command_buffer_details"][0];
  CHECK(cb["handle"].text == s["command_buffers"][0].text);
  CHECK(cb["name"].text == "fill 0");
  CHECK(label_ops(cb) == std::vector<std::string>{"begin:fill", "insert:fill 0", "end:"});
  REQUIRE(s["wait_semaphores"].items.size() == 1);
  const Json &w = s["wait_semaphores"][0];
  CHECK(w["name"].text == "stall timeline");
  CHECK(num(w["value"]) == 102);
  CHECK(num(w["current_value"]) == 2); // the iteration's last signal: the wait is what holds it

  // The same names and labels on the report's events and the trace's slices, as at each submit.
  const Json j = read_json(report);
  const Json &q = j["devices"][0]["queues"][0];
  REQUIRE(q["submissions"].items.size() == 5);
  std::map<std::uint64_t, const Json *> slices; // seq -> the trace's slice args
  const Json t = read_trace(trace);
  for (const Json &e : t.items)
    if (e["ph"].text == "X" && e["cat"].text == "submission") slices[num(e["args"]["seq"])] = &e["args"];
  REQUIRE(slices.size() == 5);
  for (const Json &e : q["submissions"].items) {
    const std::uint64_t seq = num(e["seq"]);
    INFO("seq " << seq);
    for (const Json *ev : {&e, slices.at(seq)}) {
      CHECK((*ev)["queue_name"].text == "workload queue");
      CHECK(texts((*ev)["queue_labels"]) == (seq == 5 ? std::vector<std::string>{"stall"} : std::vector<std::string>{}));
      for (const Json &c : (*ev)["command_buffer_details"].items) {
        REQUIRE(c["labels"].items.size() == 3);
        CHECK(c["labels"][0]["label"].text == "fill");
      }
    }
  }
  CHECK(slices.at(5)->operator[]("command_buffer_details")[0]["name"].text == "fill 0");
}

#ifdef NOVEM_QD_TEST_ICD_JSON
TEST_CASE("layer faults: on the test ICD, a lost device's dump names the failing call, its queue and thread, "
          "the labelled work and the driver's fault report",
          "[layer][faults][icd]") {
  struct Case {
    const char *name;
    bool fault_offered; // the driver offers VK_EXT_device_fault (the application never enables it)
  };
  const Case cases[] = {{"with VK_EXT_device_fault", true}, {"without VK_EXT_device_fault", false}};
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
      auto env = icd_env(report, dump);
      env["NOVEM_TEST_ICD_LOSE_DEVICE"] = "4";
      env["NOVEM_TEST_ICD_NO_DEVICE_FAULT"] = c.fault_offered ? "0" : "1";
      env["NOVEM_TEST_ICD_HANG"] = "1"; // #1-#3 stay in flight
      auto unset = kIcdUnset;
      std::erase(unset, "NOVEM_TEST_ICD_LOSE_DEVICE");
      std::erase(unset, "NOVEM_TEST_ICD_HANG");
      const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "lose", "--submits", "5", "--labels"}, env, unset,
                        tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      const std::size_t at = r.output.find("thread: ");
      REQUIRE(at != std::string::npos);
      const std::uint64_t app_thread = std::stoull(r.output.substr(at + 8));
      CHECK(count_of(r.output, "VK_LAYER_NOVEM_queue_diagnostics: device_lost") == 1);
      const Json d = read_json(numbered_dump(dump, 1));
      CHECK_FALSE(fs::exists(numbered_dump(dump, 2))); // one event, one file
      CHECK(d["reason"].text == "device_lost");
      CHECK(d["device"]["debug_name"].text == "icd device");
      // Whoever saw it first: the application's 4th submit (its queue, its thread), or the layer thread.
      if (d["call"].text == "vkQueueSubmit") {
        CHECK(num(d["thread"]) == app_thread);
        CHECK(num(d["queue"]["family"]) == 0);
        CHECK(num(d["queue"]["index"]) == 0);
        CHECK(d["queue"]["name"].text == "main queue");
        CHECK(r.output.find("device_lost in vkQueueSubmit on queue 0.0, thread " + std::to_string(app_thread) +
                            ": device 0 (Novem test ICD): 3 submission(s) in flight") != std::string::npos);
      } else {
        CHECK(d["call"].text.find("(layer thread)") != std::string::npos);
        CHECK(num(d["thread"]) != app_thread);
        CHECK(d["queue"].kind == Json::Null);
      }
      REQUIRE(d["in_flight"].items.size() == 3);
      for (const Json &s : d["in_flight"].items) {
        CHECK(s["queue_name"].text == "main queue");
        CHECK(texts(s["queue_labels"]) == std::vector<std::string>{"frame 1"});
        REQUIRE(s["command_buffer_details"].items.size() == 1);
        CHECK(s["command_buffer_details"][0]["name"].text == "lose cb");
        CHECK(label_ops(s["command_buffer_details"][0]) ==
              std::vector<std::string>{"begin:pass A", "insert:draw 1", "end:"});
        REQUIRE(s["signal_semaphores"].items.size() == 1);
        CHECK(s["signal_semaphores"][0]["name"].text == "lose signal");
        CHECK_FALSE(s["signal_semaphores"][0].has("current_value")); // binary: no payload
      }
      // The driver's own account, through VK_EXT_device_fault, which the layer enabled.
      const Json &f = d["device_fault"];
      if (!c.fault_offered) {
        CHECK(d.has("device_fault"));
        CHECK(f.kind == Json::Null);
        continue;
      }
      CHECK(f["description"].text == "Novem test ICD: device lost after 4 submits");
      REQUIRE(f["address_infos"].items.size() == 1);
      CHECK(f["address_infos"][0]["type"].text == "write_invalid");
      CHECK(f["address_infos"][0]["address"].text == "0xdead0000");
      CHECK(num(f["address_infos"][0]["precision"]) == 4096);
      REQUIRE(f["vendor_infos"].items.size() == 1);
      CHECK(f["vendor_infos"][0]["description"].text == "test hang check");
      CHECK(num(f["vendor_infos"][0]["code"]) == 42);
      CHECK(num(f["vendor_infos"][0]["data"]) == 7);
      CHECK(num(f["vendor_binary_size"]) == 0);
    }
  }
}

TEST_CASE("layer faults: on the test ICD, a hang that grows gives one watchdog dump, and the loss after it "
          "a second file",
          "[layer][faults][icd]") {
  TempDir tmp;
  const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json";
  auto env = icd_env(report, dump);
  env["NOVEM_TEST_ICD_HANG"] = "1";
  env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "100";
  auto unset = kIcdUnset;
  std::erase(unset, "NOVEM_TEST_ICD_HANG");
  std::erase(unset, "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS");
  // Three submits 150 ms apart on the hung device: each passes the watchdog's 100 ms at another
  // time, none completes. Then vkQueueWaitIdle, which the ICD's hang check ends (1 s) with a loss.
  const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "lose", "--submits", "3", "--gap-ms", "150"}, env, unset,
                    tmp.path / "log.txt");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r.output, "vkQueueWaitIdle: VK_ERROR_DEVICE_LOST"));
  CHECK(count_of(r.output, "VK_LAYER_NOVEM_queue_diagnostics: watchdog") == 1);
  CHECK(count_of(r.output, "VK_LAYER_NOVEM_queue_diagnostics: device_lost") == 1);
  const Json first = read_json(numbered_dump(dump, 1)), second = read_json(numbered_dump(dump, 2));
  CHECK_FALSE(fs::exists(numbered_dump(dump, 3)));
  CHECK(first["reason"].text == "watchdog");
  CHECK_FALSE(first.has("device_fault")); // asked of a lost device only
  CHECK(num(first["number"]) == 1);
  REQUIRE_FALSE(first["in_flight"].items.empty());
  CHECK(num(first["in_flight"][0]["seq"]) == 1);
  CHECK(second["reason"].text == "device_lost");
  CHECK(second["device_fault"]["description"].text == "Novem test ICD: device lost after 4 submits");
  CHECK(num(second["number"]) == 2);
  CHECK(second["in_flight"].items.size() == 4); // the three on queue 0.0, the vkQueueSubmit2 on 0.1
  const Json j = read_json(report);
  CHECK(num(j["devices"][0]["watchdog_dumps"]) == 1);
  CHECK(j["devices"][0]["device_lost"].boolean);
}
TEST_CASE("layer faults: vkQueueBindSparse is tracked like a submission", "[layer][faults][icd]") {
  struct Case {
    const char *name;
    bool hang;
    bool latency;
  };
  const Case cases[] = {{"completing", false, true},
                        {"hung, then lost", true, true},
                        {"latency off: counted and attributed without a record", false, false}};
  for (const Case &c : cases) {
    SECTION(c.name) {
      TempDir tmp;
      const fs::path report = tmp.path / "report.json", dump = tmp.path / "dump.json", trace = tmp.path / "trace.json";
      auto env = icd_env(report, dump);
      env["NOVEM_QUEUE_DIAGNOSTICS_TRACE"] = trace.string();
      auto unset = kIcdUnset;
      if (c.hang) {
        env["NOVEM_TEST_ICD_HANG"] = "1";
        env["NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS"] = "100";
        std::erase(unset, "NOVEM_TEST_ICD_HANG");
        std::erase(unset, "NOVEM_QUEUE_DIAGNOSTICS_WATCHDOG_MS");
      }
      if (!c.latency) env["NOVEM_QUEUE_DIAGNOSTICS_LATENCY"] = "0";
      // Queue 0.0: bind {signal binary} with a fence, wait for it (200 ms at most), bind {wait
      // binary; signal timeline 1}, wait for the timeline (200 ms at most), vkQueueWaitIdle.
      const Run r = run({NOVEM_QD_ICD_WORKLOAD, "--mode", "sparse"}, env, unset, tmp.path / "log.txt");
      INFO(r.output);
      REQUIRE(r.status == 0);
      CHECK(has_line(r.output, std::string("vkWaitForFences 200ms: ") + (c.hang ? "VK_TIMEOUT" : "VK_SUCCESS")));
      const Json j = read_json(report);
      const Json &q = find_queue(j["devices"][0], 0, 0);
      CHECK(num(q["submits"]) == 2);
      CHECK(num(q["submit_calls"]["vkQueueBindSparse"]) == 2);
      CHECK(num(q["submit_calls"]["vkQueueSubmit"]) == 0);
      CHECK(num(q["failed_submits"]) == 0);
      CHECK(num(q["batches"]) == 2);
      CHECK(num(q["command_buffers"]) == 0);
      CHECK(num(q["wait_semaphores"]["binary"]) == 1);
      CHECK(num(q["signal_semaphores"]["binary"]) == 1);
      CHECK(num(q["signal_semaphores"]["timeline"]) == 1);
      CHECK(num(q["fences"]) == 1);
      CHECK(num(q["wait_for_fences"]["calls"]) == 1);         // the fence's wait, on this queue
      CHECK(num(q["wait_semaphores_blocked"]["calls"]) == 1); // the value the second bind signals
      CHECK(num(q["queue_wait_idle"]["calls"]) == 1);
      CHECK(num(q["gpu_time"]["count"]) == 0); // no command buffers: nothing to time
      if (!c.latency) {
        CHECK(num(q["latency"]["count"]) == 0);
        CHECK(q["submissions"].items.empty());
        continue;
      }
      if (!c.hang) {
        CHECK(num(q["latency"]["count"]) == 2);
        CHECK(num(q["in_flight_at_report"]) == 0);
        REQUIRE(q["submissions"].items.size() == 2);
        for (const Json &e : q["submissions"].items) CHECK(e["call"].text == "vkQueueBindSparse");
        std::uint64_t slices = 0;
        const Json t = read_trace(trace);
        for (const Json &e : t.items)
          slices += e["ph"].text == "X" && e["name"].text == "vkQueueBindSparse";
        CHECK(slices == 2);
        CHECK_FALSE(fs::exists(numbered_dump(dump, 1)));
        continue;
      }
      // Hung: the watchdog's dump holds the first bind; the loss vkQueueWaitIdle ends in, both.
      CHECK(num(q["latency"]["count"]) == 0);
      CHECK(num(q["in_flight_at_report"]) == 2);
      CHECK(count_of(r.output, "VK_LAYER_NOVEM_queue_diagnostics: watchdog") == 1);
      const Json first = read_json(numbered_dump(dump, 1)), lost = read_json(numbered_dump(dump, 2));
      CHECK(first["reason"].text == "watchdog");
      REQUIRE(first["in_flight"].items.size() == 1);
      CHECK(first["in_flight"][0]["call"].text == "vkQueueBindSparse");
      CHECK(first["in_flight"][0]["command_buffers"].items.empty());
      CHECK(lost["reason"].text == "device_lost");
      REQUIRE(lost["in_flight"].items.size() == 2);
      const Json &second = lost["in_flight"][1];
      CHECK(second["call"].text == "vkQueueBindSparse");
      CHECK(num(second["seq"]) == 2);
      REQUIRE(second["signal_semaphores"].items.size() == 1);
      CHECK(num(second["signal_semaphores"][0]["value"]) == 1);
      // Read after the loss: the driver answers VK_ERROR_DEVICE_LOST, and the dump says so.
      CHECK(second["signal_semaphores"][0]["current_value_error"].text == "VK_ERROR_DEVICE_LOST");
    }
  }
}
#endif
