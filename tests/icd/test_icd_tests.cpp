// The test ICD (test_icd.cpp), selected with VK_DRIVER_FILES, under novem-icd-workload run in a
// child process. VK_LAYER_KHRONOS_validation is NOT stacked on these runs: the test ICD is not a
// conformant driver (VK_INSTANCE_LAYERS is removed from the child's environment only).
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

struct Run {
  int status = -1; // exit code, or -1 if it did not exit normally
  std::string output;
  bool has(const std::string &line) const { return ("\n" + output).find("\n" + line + "\n") != std::string::npos; }
};

// Runs argv with the environment changed for the child only: `set` overrides or adds, `unset` removes.
Run run(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set,
        const std::vector<std::string> &unset) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    const std::string entry = *e, name = entry.substr(0, entry.find('='));
    bool drop = set.count(name) != 0;
    for (const auto &u : unset)
      drop |= u == name;
    if (!drop)
      env.push_back(entry);
  }
  for (const auto &[k, v] : set)
    env.push_back(k + "=" + v);
  std::vector<char *> envp, args;
  for (auto &e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto &a : argv_copy)
    args.push_back(a.data());
  args.push_back(nullptr);

  Run r;
  int fds[2];
  if (pipe(fds) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    r.output = std::string("posix_spawn: ") + std::strerror(err);
    return r;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    r.output.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
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
  CHECK(r.has("devices: 1"));
  CHECK(r.has("device 0: Novem test ICD"));
  CHECK(r.has("timestamp_period: 1"));
  CHECK(r.has("family 0: flags 0x7 queues 2 timestamp_bits 64"));
  CHECK(r.has("family 1: flags 0x4 queues 1 timestamp_bits 64"));
  CHECK(r.has("features: timelineSemaphore 1 synchronization2 1 hostQueryReset 1"));
  CHECK(r.has("queue 0.0: ok"));
  CHECK(r.has("queue 0.1: ok"));
  CHECK(r.has("queue 1.0: ok"));
  CHECK(r.has("workload: done"));
}

TEST_CASE("icd: submissions complete: fences, binary and timeline semaphores, timestamps", "[icd]") {
  const Run r = run_workload({"--mode", "normal"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  for (const char *q : {"0.0", "0.1", "1.0"}) {
    INFO("queue " << q);
    const std::string at = std::string(" ") + q + ": VK_SUCCESS";
    CHECK(r.has("vkQueueSubmit" + at));
    CHECK(r.has("vkWaitForFences" + at));
    CHECK(r.has("vkGetFenceStatus" + at));
    CHECK(r.has("vkQueueSubmit2" + at));
    CHECK(r.has("vkWaitSemaphores" + at));
    CHECK(r.has("vkQueueWaitIdle" + at));
  }
  CHECK(r.has("vkGetSemaphoreCounterValue: VK_SUCCESS"));
  CHECK(r.has("timeline: 3 of 3"));
  CHECK(r.has("vkSignalSemaphore: VK_SUCCESS"));
  CHECK(r.has("vkWaitSemaphores host: VK_SUCCESS"));
  CHECK(r.has("vkGetQueryPoolResults: VK_SUCCESS"));
  CHECK(r.has("timestamps: ordered"));
  CHECK(r.has("copied timestamps: match")); // vkCmdCopyQueryPoolResults, as the layer's GPU timing uses
  CHECK(r.has("vkDeviceWaitIdle: VK_SUCCESS"));
}

TEST_CASE("icd: NOVEM_TEST_ICD_HANG=1: submissions never complete, bounded waits time out", "[icd]") {
  const Run r = run_workload({"--mode", "hang"}, {{"NOVEM_TEST_ICD_HANG", "1"}});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.has("vkQueueSubmit: VK_SUCCESS"));
  CHECK(r.has("vkWaitForFences 50ms: VK_TIMEOUT"));
  CHECK(r.has("vkGetFenceStatus: VK_NOT_READY"));
  CHECK(r.has("vkQueueSubmit2: VK_SUCCESS"));
  CHECK(r.has("vkWaitSemaphores 50ms: VK_TIMEOUT"));
  CHECK(r.has("vkGetQueryPoolResults: VK_NOT_READY"));
  CHECK(r.has("workload: done"));
}

TEST_CASE("icd: NOVEM_TEST_ICD_LOSE_DEVICE=N: the Nth submit and every later wait lose the device", "[icd]") {
  const Run r = run_workload({"--mode", "lose", "--submits", "4"}, {{"NOVEM_TEST_ICD_LOSE_DEVICE", "3"}});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.has("vkQueueSubmit #1: VK_SUCCESS"));
  CHECK(r.has("vkQueueSubmit #2: VK_SUCCESS"));
  CHECK(r.has("vkQueueSubmit #3: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkQueueSubmit #4: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkQueueSubmit2: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkWaitForFences: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkGetFenceStatus: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkWaitSemaphores: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkQueueWaitIdle: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("vkDeviceWaitIdle: VK_ERROR_DEVICE_LOST"));
  CHECK(r.has("workload: done"));
}

TEST_CASE("icd: without a lose or hang mode nothing is lost (lose mode's control run)", "[icd]") {
  const Run r = run_workload({"--mode", "lose", "--submits", "4"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.has("vkQueueSubmit #4: VK_SUCCESS"));
  CHECK(r.has("vkQueueSubmit2: VK_SUCCESS"));
  CHECK(r.has("vkWaitForFences: VK_TIMEOUT")); // the fence was never submitted
  CHECK(r.has("vkQueueWaitIdle: VK_SUCCESS"));
  CHECK(r.has("vkDeviceWaitIdle: VK_SUCCESS"));
}
