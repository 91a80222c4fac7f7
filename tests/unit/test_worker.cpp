// The shared submission-thread loop: dispatch by table, counting, fences, draining on stop; and
// the plugins' shared start-up of that thread.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "novem/device_thread.hpp"
#include "novem/worker.hpp"

namespace {

struct RecordingExecutor {
  nv_channel &channel;
  std::vector<uint32_t> draws;
  int pending_gpu = 0;

  void draw(const nv_cmd_draw &a, const nv_cmd_header *) { draws.push_back(a.first_vertex); }
  void fence(const nv_cmd_fence &a, const nv_cmd_header *) {
    // Pretend the GPU needs two polls to finish.
    pending_gpu = 2;
    last_fence = a.value;
  }
  static constexpr unsigned kCommandsPerPoll = 4;
  bool poll() {
    draws_at_poll.push_back(draws.size());
    if (pending_gpu > 0 && --pending_gpu == 0) channel.complete_fence(last_fence);
    return pending_gpu > 0;
  }
  void wait_gpu() {}
  void idle() {}
  uint64_t last_fence = 0;
  std::vector<size_t> draws_at_poll; // how many draws had run at each poll
};

} // namespace

TEST_CASE("worker executes commands in order through its table and completes fences", "[worker]") {
  nv_channel channel(1 << 16);
  RecordingExecutor ex{channel};
  std::thread thread([&] { novem::run_worker(channel, ex); });
  for (uint32_t i = 0; i < 1000; ++i) novem::ring_push(channel.ring, nv_cmd_draw{i, 3});
  novem::ring_push(channel.ring, nv_cmd_present{1}); // no handler: counted only
  novem::ring_push(channel.ring, nv_cmd_fence{1});
  channel.wait_fence(1);
  CHECK(channel.completed_fence == 1);
  channel.ring.stop();
  thread.join();
  REQUIRE(ex.draws.size() == 1000);
  for (uint32_t i = 0; i < 1000; ++i) REQUIRE(ex.draws[i] == i);
  CHECK(channel.executed[NV_OP_DRAW] == 1000);
  CHECK(channel.executed[NV_OP_PRESENT] == 1);
  CHECK(channel.executed[NV_OP_FENCE] == 1);
}

TEST_CASE("worker polls every kCommandsPerPoll commands, and whenever the ring runs dry", "[worker]") {
  nv_channel channel(1 << 16);
  RecordingExecutor ex{channel};
  // Everything is in the ring before the thread starts, so it runs dry only after the fence.
  for (uint32_t i = 0; i < 1001; ++i) novem::ring_push(channel.ring, nv_cmd_draw{i, 3});
  novem::ring_push(channel.ring, nv_cmd_fence{1});
  std::thread thread([&] { novem::run_worker(channel, ex); });
  channel.wait_fence(1);
  channel.ring.stop();
  thread.join();
  REQUIRE(ex.draws_at_poll.size() >= 250 + 2); // 1000 draws / 4, then the fence's two polls
  for (size_t i = 0; i < 250; ++i) CHECK(ex.draws_at_poll[i] == 4 * (i + 1));
  for (size_t i = 250; i < ex.draws_at_poll.size(); ++i) CHECK(ex.draws_at_poll[i] == 1001);
}

TEST_CASE("start_device_thread answers what the thread's start gave, never waiting forever", "[worker][start]") {
  struct Case {
    const char *name;
    int body; // 0: starts and runs the loop; 1: answers a failure; 2: throws; 3: returns without an answer
    const char *failure;
  };
  const Case cases[] = {
      {"started", 0, ""},
      {"a failure answered", 1, "no context"},
      {"a throw before the answer", 2, "no driver"},
      {"a return without an answer", 3, "the device's thread ended before it started"},
  };
  for (const Case &c : cases) {
    INFO(c.name);
    nv_channel channel(1 << 16);
    bool thread_ran_loop = false;
    std::string failure = "unset";
    nv_device *device = novem::start_device_thread(
        channel,
        [&, body = c.body](const novem::StartedFn &started) {
          if (body == 1) return started("no context");
          if (body == 2) throw std::runtime_error("no driver");
          if (body == 3) return;
          RecordingExecutor ex{channel};
          started({});
          novem::run_worker(channel, ex);
          thread_ran_loop = true;
        },
        failure);
    CHECK(failure == c.failure);
    CHECK((device != nullptr) == (c.body == 0));
    novem::destroy_device_thread(device); // stops and joins the loop; null is nothing
    CHECK(thread_ran_loop == (c.body == 0));
  }
}
