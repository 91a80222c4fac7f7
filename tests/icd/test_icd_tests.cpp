// The test ICD (test_icd.cpp), selected with VK_DRIVER_FILES, under novem-icd-workload run in a
// child process. VK_LAYER_KHRONOS_validation is NOT stacked on these runs: the test ICD is not a
// conformant driver (VK_INSTANCE_LAYERS is removed from the child's environment only).
#include <catch2/catch.hpp>

#include "run_child.hpp"

#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>


namespace {

using Run = novem::test::ChildRun;

// Whether the output has this exact line.
bool has_line(const Run &r, const std::string &line) {
  return ("\n" + r.output).find("\n" + line + "\n") != std::string::npos;
}

Run run(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set,
        const std::vector<std::string> &unset) {
  return novem::test::run_child(argv, set, unset);
}

// The child sees the test ICD only, no explicit layers, and none of the ICD's modes unless asked.
Run run_workload(const std::vector<std::string> &args, std::map<std::string, std::string> extra = {}) {
  std::map<std::string, std::string> set = {{"VK_DRIVER_FILES", NOVEM_TEST_ICD_JSON},
                                            {"VK_ICD_FILENAMES", NOVEM_TEST_ICD_JSON},
                                            {"NOVEM_TEST_ICD_HANGCHECK_MS", "1000"}};
  for (auto &[k, v] : extra)
    set[k] = v;
  std::vector<std::string> unset = {"VK_INSTANCE_LAYERS", "VK_ADD_DRIVER_FILES", "NOVEM_QUEUE_DIAGNOSTICS",
                                    "NOVEM_TEST_ICD_HANG", "NOVEM_TEST_ICD_LOSE_DEVICE"};
  for (auto &[k, v] : extra)
    std::erase(unset, k);
  std::vector<std::string> argv = {NOVEM_ICD_WORKLOAD};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, set, unset);
}

} // namespace

TEST_CASE("icd: the test ICD is the only device, with its two families and three queues", "[icd]") {
  const Run r = run_workload({"--mode", "normal"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r, "devices: 1"));
  CHECK(has_line(r, "device 0: Novem test ICD"));
  CHECK(has_line(r, "timestamp_period: 1"));
  CHECK(has_line(r, "family 0: flags 0xf queues 2 timestamp_bits 64"));
  CHECK(has_line(r, "family 1: flags 0x4 queues 1 timestamp_bits 64"));
  CHECK(has_line(r, "features: timelineSemaphore 1 synchronization2 1 hostQueryReset 1"));
  CHECK(has_line(r, "queue 0.0: ok"));
  CHECK(has_line(r, "queue 0.1: ok"));
  CHECK(has_line(r, "queue 1.0: ok"));
  CHECK(has_line(r, "workload: done"));
}

TEST_CASE("icd: submissions complete: fences, binary and timeline semaphores, timestamps", "[icd]") {
  const Run r = run_workload({"--mode", "normal"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  for (const char *q : {"0.0", "0.1", "1.0"}) {
    INFO("queue " << q);
    const std::string at = std::string(" ") + q + ": VK_SUCCESS";
    CHECK(has_line(r, "vkQueueSubmit" + at));
    CHECK(has_line(r, "vkWaitForFences" + at));
    CHECK(has_line(r, "vkGetFenceStatus" + at));
    CHECK(has_line(r, "vkQueueSubmit2" + at));
    CHECK(has_line(r, "vkWaitSemaphores" + at));
    CHECK(has_line(r, "vkQueueWaitIdle" + at));
  }
  CHECK(has_line(r, "vkGetSemaphoreCounterValue: VK_SUCCESS"));
  CHECK(has_line(r, "timeline: 3 of 3"));
  CHECK(has_line(r, "vkSignalSemaphore: VK_SUCCESS"));
  CHECK(has_line(r, "vkWaitSemaphores host: VK_SUCCESS"));
  CHECK(has_line(r, "vkGetQueryPoolResults: VK_SUCCESS"));
  CHECK(has_line(r, "timestamps: ordered"));
  CHECK(has_line(r, "copied timestamps: match")); // vkCmdCopyQueryPoolResults, as the layer's GPU timing uses
  CHECK(has_line(r, "vkDeviceWaitIdle: VK_SUCCESS"));
}

TEST_CASE("icd: NOVEM_TEST_ICD_HANG=1: submissions never complete, bounded waits time out", "[icd]") {
  const Run r = run_workload({"--mode", "hang"}, {{"NOVEM_TEST_ICD_HANG", "1"}});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r, "vkQueueSubmit: VK_SUCCESS"));
  CHECK(has_line(r, "vkWaitForFences 50ms: VK_TIMEOUT"));
  CHECK(has_line(r, "vkGetFenceStatus: VK_NOT_READY"));
  CHECK(has_line(r, "vkQueueSubmit2: VK_SUCCESS"));
  CHECK(has_line(r, "vkWaitSemaphores 50ms: VK_TIMEOUT"));
  CHECK(has_line(r, "vkGetQueryPoolResults: VK_NOT_READY"));
  CHECK(has_line(r, "workload: done"));
}

TEST_CASE("icd: NOVEM_TEST_ICD_LOSE_DEVICE=N: the Nth submit and every later wait lose the device", "[icd]") {
  const Run r = run_workload({"--mode", "lose", "--submits", "4"}, {{"NOVEM_TEST_ICD_LOSE_DEVICE", "3"}});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r, "vkQueueSubmit #1: VK_SUCCESS"));
  CHECK(has_line(r, "vkQueueSubmit #2: VK_SUCCESS"));
  CHECK(has_line(r, "vkQueueSubmit #3: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkQueueSubmit #4: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkQueueSubmit2: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkWaitForFences: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkGetFenceStatus: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkWaitSemaphores: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkQueueWaitIdle: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "vkDeviceWaitIdle: VK_ERROR_DEVICE_LOST"));
  CHECK(has_line(r, "workload: done"));
}

TEST_CASE("icd: without a lose or hang mode nothing is lost (lose mode's control run)", "[icd]") {
  const Run r = run_workload({"--mode", "lose", "--submits", "4"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has_line(r, "vkQueueSubmit #4: VK_SUCCESS"));
  CHECK(has_line(r, "vkQueueSubmit2: VK_SUCCESS"));
  CHECK(has_line(r, "vkWaitForFences: VK_TIMEOUT")); // the fence was never submitted
  CHECK(has_line(r, "vkQueueWaitIdle: VK_SUCCESS"));
  CHECK(has_line(r, "vkDeviceWaitIdle: VK_SUCCESS"));
}
