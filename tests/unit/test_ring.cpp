// The command ring: records, wrap-around, waits, the wake-up rule, and a two-thread stress test.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <random>
#include <thread>
#include <vector>

#include "novem/ring.hpp"

using novem::CommandRing;

namespace {

struct TestArgs {
  uint64_t sequence;
  uint32_t payload_bytes;
  uint32_t checksum;
};

uint32_t checksum(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// A record of TestArgs, which is no command: the ring carries any opcode and bytes.
TestArgs *begin_test(CommandRing &ring, size_t payload = 0) {
  nv_cmd_header *h = ring.begin(NV_OP_DRAW, sizeof(nv_cmd_header) + sizeof(TestArgs) + payload);
  return reinterpret_cast<TestArgs *>(h + 1);
}

void push_test(CommandRing &ring, uint64_t seq, size_t payload) {
  auto *args = begin_test(ring, payload);
  auto *bytes = static_cast<uint8_t *>(novem::command_payload(args));
  for (size_t i = 0; i < payload; ++i) bytes[i] = uint8_t(seq * 31 + i);
  *args = TestArgs{seq, uint32_t(payload), checksum(bytes, payload)};
  ring.commit();
}

} // namespace

TEST_CASE("unstaged() is the record begun last, past the pad of a wrap, with begin()'s flags", "[ring]") {
  CommandRing ring(4096);
  for (uint64_t seq = 0; seq < 40; ++seq) {
    // Records of 96..192 bytes: some of them do not fit before the end and follow a pad.
    const size_t payload = 64 + (seq % 4) * 32;
    nv_cmd_header *h = ring.begin(NV_OP_DRAW, sizeof(nv_cmd_header) + sizeof(TestArgs) + payload,
                                  seq % 2 ? uint16_t(NV_CMD_OVERLAY) : uint16_t(0));
    INFO("record " << seq);
    CHECK(ring.unstaged() == h);
    CHECK(h->flags == (seq % 2 ? NV_CMD_OVERLAY : 0));
    reinterpret_cast<TestArgs *>(h + 1)->sequence = seq;
    ring.commit();
    while (const nv_cmd_header *r = ring.peek()) ring.pop(r); // the consumer keeps up
  }
}

TEST_CASE("ring records keep opcode, arguments and payload", "[ring]") {
  CommandRing ring(4096);
  REQUIRE(ring.peek() == nullptr);
  push_test(ring, 7, 5);
  const nv_cmd_header *h = ring.peek();
  REQUIRE(h != nullptr);
  CHECK(h->opcode == NV_OP_DRAW);
  CHECK(h->size % NV_CMD_ALIGN == 0);
  const auto &args = novem::command_args<TestArgs>(h);
  CHECK(args.sequence == 7);
  CHECK(args.payload_bytes == 5);
  CHECK(checksum(static_cast<const uint8_t *>(novem::command_payload<TestArgs>(h)), 5) == args.checksum);
  ring.pop(h);
  CHECK(ring.peek() == nullptr);
  CHECK(ring.drained());
  CHECK(ring.counters.commands == 1);
}

TEST_CASE("ring wraps around with a pad record and stays in order", "[ring]") {
  CommandRing ring(4096);
  // Records of 400 bytes: 10 fit before the end, the 11th must wrap.
  for (uint64_t round = 0; round < 50; ++round) {
    for (uint64_t i = 0; i < 3; ++i) push_test(ring, round * 3 + i, 400 - sizeof(TestArgs) - sizeof(nv_cmd_header));
    for (uint64_t i = 0; i < 3; ++i) {
      const nv_cmd_header *h = ring.peek();
      REQUIRE(h != nullptr);
      REQUIRE(h->opcode == NV_OP_DRAW); // pads are never returned
      REQUIRE(novem::command_args<TestArgs>(h).sequence == round * 3 + i);
      ring.pop(h);
    }
  }
  CHECK(ring.counters.bytes > ring.capacity()); // it went round more than once
  CHECK(ring.counters.producer_waits == 0);     // and never had to wait
}

TEST_CASE("ring producer waits only when full, until half of it is free, and counts it", "[ring]") {
  CommandRing ring(4096);
  const size_t payload = 1000 - sizeof(TestArgs) - sizeof(nv_cmd_header); // 1008-byte records
  for (int i = 0; i < 4; ++i) push_test(ring, uint64_t(i), payload);   // 4032 of 4096 bytes used
  CHECK(ring.counters.producer_waits == 0);
  std::thread consumer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (int i = 0; i < 2; ++i) ring.pop(ring.peek()); // 2016 bytes free: about half
  });
  push_test(ring, 4, payload); // must wait for the consumer's pop
  consumer.join();
  CHECK(ring.counters.producer_waits == 1);
}

TEST_CASE("ring stress: two threads, every command intact and in order", "[ring][stress]") {
  CommandRing ring(64 * 1024);
  constexpr uint64_t kCommands = 200000;
  std::atomic<bool> failed{false};
  std::thread consumer([&] {
    uint64_t expected = 0;
    while (expected < kCommands) {
      const nv_cmd_header *h = ring.peek();
      if (!h) {
        ring.wait_for_work();
        continue;
      }
      const auto &args = novem::command_args<TestArgs>(h);
      const auto *bytes = static_cast<const uint8_t *>(novem::command_payload<TestArgs>(h));
      if (h->opcode != NV_OP_DRAW || args.sequence != expected || checksum(bytes, args.payload_bytes) != args.checksum)
        failed = true;
      ring.pop(h);
      ++expected;
    }
  });
  std::mt19937 rng(1234);
  std::uniform_int_distribution<size_t> size(0, 3000);
  for (uint64_t i = 0; i < kCommands; ++i) push_test(ring, i, size(rng));
  ring.flush(); // the consumer may sleep below its mark
  consumer.join();
  CHECK_FALSE(failed);
  CHECK(ring.counters.commands == kCommands);
  CHECK(ring.drained());
  INFO("producer waits " << ring.counters.producer_waits << ", consumer waits " << ring.counters.consumer_waits);
  CHECK(ring.counters.bytes > 10 * ring.capacity());
}

TEST_CASE("ring stop wakes a sleeping consumer after the queue drains", "[ring]") {
  CommandRing ring(4096);
  push_test(ring, 0, 8);
  std::atomic<int> executed{0};
  std::thread consumer([&] {
    for (;;) {
      if (const nv_cmd_header *h = ring.peek()) {
        ring.pop(h);
        ++executed;
        continue;
      }
      if (!ring.wait_for_work()) break;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  push_test(ring, 1, 8);
  ring.stop();
  consumer.join();
  CHECK(executed == 2);
}

TEST_CASE("ring staged records stay hidden until published, in order", "[ring]") {
  CommandRing ring(4096);
  for (uint64_t i = 0; i < 3; ++i) {
    begin_test(ring)->sequence = i;
    ring.stage();
  }
  CHECK(ring.peek() == nullptr);
  CHECK(ring.unpublished_bytes() == 3 * CommandRing::record_size(sizeof(nv_cmd_header) + sizeof(TestArgs)));
  CHECK(ring.counters.commands == 3);
  ring.publish();
  CHECK(ring.unpublished_bytes() == 0);
  for (uint64_t i = 0; i < 3; ++i) {
    const nv_cmd_header *h = ring.peek();
    REQUIRE(h != nullptr);
    CHECK(novem::command_args<TestArgs>(h).sequence == i);
    ring.pop(h);
  }
  CHECK(ring.peek() == nullptr);
}

TEST_CASE("ring producer publishes what it staged before waiting for space", "[ring]") {
  CommandRing ring(4096);
  const size_t payload = 1000 - sizeof(TestArgs) - sizeof(nv_cmd_header); // 1008-byte records
  std::atomic<int> executed{0};
  std::thread consumer([&] {
    // Only published records can be freed; if the full producer slept on staged ones, this
    // loop would never see them and the producer would never wake.
    while (executed < 5) {
      if (const nv_cmd_header *h = ring.peek()) {
        ring.pop(h);
        ++executed;
      } else {
        ring.wait_for_work();
      }
    }
  });
  for (int i = 0; i < 5; ++i) {
    auto *args = begin_test(ring, payload);
    args->sequence = uint64_t(i);
    ring.stage(); // never published by hand
  }
  ring.flush();
  consumer.join();
  CHECK(executed == 5);
  CHECK(ring.drained());
}

TEST_CASE("ring stop publishes what is staged before the consumer drains", "[ring]") {
  CommandRing ring(4096);
  begin_test(ring);
  ring.stage();
  int executed = 0;
  std::thread consumer([&] {
    for (;;) {
      if (const nv_cmd_header *h = ring.peek()) {
        ring.pop(h);
        ++executed;
        continue;
      }
      if (!ring.wait_for_work()) break;
    }
  });
  ring.stop();
  consumer.join();
  CHECK(executed == 1);
}

namespace {

// The calling thread's kernel id, for wait_until_asleep.
pid_t thread_id() { return pid_t(syscall(SYS_gettid)); }

// Returns once thread `tid` of this process sleeps (state S in /proc): the thread has reached
// its futex wait. Each side's only sleep in these tests is the ring's.
void wait_until_asleep(pid_t tid) {
  for (;;) {
    std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'S') return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// A consumer thread that executes records as they come; `pace` records may run, the rest wait
// until the test raises it (so that the test decides when each record is freed).
struct PacedConsumer {
  explicit PacedConsumer(CommandRing &r) : ring(r), thread([this] {
    tid = thread_id();
    run();
  }) {}
  ~PacedConsumer() {
    pace = UINT64_MAX;
    ring.stop();
    thread.join();
  }
  void run() {
    for (;;) {
      if (executed.load() == pace.load()) {
        std::this_thread::yield();
        continue;
      }
      if (const nv_cmd_header *h = ring.peek()) {
        ring.pop(h);
        ++executed;
        continue;
      }
      if (!ring.wait_for_work()) break;
    }
  }
  void wait_executed(uint64_t n) {
    while (executed.load() < n) std::this_thread::yield();
  }
  CommandRing &ring;
  std::atomic<uint64_t> pace{0}, executed{0};
  std::atomic<pid_t> tid{0};
  std::thread thread;
};

constexpr size_t kQuarterRecord = 256 - sizeof(TestArgs) - sizeof(nv_cmd_header); // 256-byte records

} // namespace

// The wake-up rule, counted: a full producer sleeps until half the ring is free and is woken once,
// at that mark, however the consumer's frees are spread. The tests wait until the other thread
// sleeps in the ring (wait_until_asleep); the checks are on counts.
TEST_CASE("ring wake-up rule: a full producer is woken once, when half the ring is free", "[ring][wake]") {
  CommandRing ring(4096); // 16 records of 256 bytes
  PacedConsumer consumer(ring);
  for (uint64_t i = 0; i < 16; ++i) push_test(ring, i, kQuarterRecord);
  std::atomic<bool> pushed{false};
  std::atomic<pid_t> producer_tid{0};
  std::thread producer([&] {
    producer_tid = thread_id();
    push_test(ring, 16, kQuarterRecord); // the ring is full: sleeps
    pushed = true;
  });
  while (!producer_tid) std::this_thread::yield();
  wait_until_asleep(producer_tid);
  for (uint64_t freed = 1; freed < 8; ++freed) { // up to 7 of 16 records freed: not yet
    consumer.pace = freed;
    consumer.wait_executed(freed);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(ring.counters.producer_wakes == 0);
    CHECK_FALSE(pushed);
  }
  consumer.pace = 8; // half the ring free: woken, once
  producer.join();
  CHECK(ring.counters.producer_waits == 1);
  consumer.pace = 17;
  consumer.wait_executed(17); // the consumer counts the wake-up after giving it
  CHECK(ring.counters.producer_wakes == 1);
}

TEST_CASE("ring wake-up rule: an idle consumer is woken once a quarter of the ring is published, or by flush",
          "[ring][wake]") {
  CommandRing ring(4096);
  PacedConsumer consumer(ring);
  consumer.pace = UINT64_MAX;
  while (!consumer.tid) std::this_thread::yield();
  wait_until_asleep(consumer.tid); // it ran dry and sleeps
  for (uint64_t i = 0; i < 3; ++i) push_test(ring, i, kQuarterRecord); // 768 of 1024 bytes
  CHECK(ring.counters.consumer_wakes == 0);
  push_test(ring, 3, kQuarterRecord); // the mark: woken, once
  CHECK(ring.counters.consumer_wakes == 1);
  consumer.wait_executed(4);
  wait_until_asleep(consumer.tid);
  push_test(ring, 4, kQuarterRecord);
  CHECK(ring.counters.consumer_wakes == 1);
  ring.flush();
  CHECK(ring.counters.consumer_wakes == 2);
  consumer.wait_executed(5);
}

// The producer far ahead of a slower consumer, 32 rings' worth of records: a handful of wake-ups
// per ring's worth (two for the producer, four for the consumer), not one per record.
TEST_CASE("ring wake-up rule: a handful of wake-ups per ring's worth of commands", "[ring][wake]") {
  CommandRing ring(64 * 1024);
  constexpr uint64_t kRecords = 32 * 64 * 1024 / 256;
  std::atomic<uint64_t> executed{0};
  std::thread consumer([&] {
    for (;;) {
      if (const nv_cmd_header *h = ring.peek()) {
        // Slower than the producer whatever the build (a busy loop is not, under TSan): the
        // producer must fill the ring and wait for room.
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        ring.pop(h);
        ++executed;
        continue;
      }
      if (!ring.wait_for_work()) break;
    }
  });
  for (uint64_t i = 0; i < kRecords; ++i) push_test(ring, i, kQuarterRecord);
  ring.stop();
  consumer.join();
  CHECK(executed == kRecords);
  const uint64_t rings = ring.counters.bytes / ring.capacity();
  INFO("rings " << rings << ", producer waits " << ring.counters.producer_waits << " / wakes "
                << ring.counters.producer_wakes << ", consumer waits " << ring.counters.consumer_waits << " / wakes "
                << ring.counters.consumer_wakes);
  CHECK(ring.counters.producer_waits >= 1); // the consumer was the slower one
  CHECK(ring.counters.producer_wakes <= 2 * rings + 1);
  CHECK(ring.counters.consumer_wakes <= 4 * rings + ring.counters.producer_waits + 2);
}

// At a frame's end the producer asks for room for the next frame: it sleeps until that much is
// free, woken once.
TEST_CASE("ring wait_for_room sleeps until the asked bytes are free, woken once", "[ring][wake]") {
  CommandRing ring(4096);
  PacedConsumer consumer(ring);
  for (uint64_t i = 0; i < 12; ++i) push_test(ring, i, kQuarterRecord); // 3 KiB of 4 used
  CHECK_FALSE(ring.wait_for_room(1024));                                // 1 KiB free: at once
  std::atomic<bool> done{false}, slept{false};
  std::atomic<pid_t> producer_tid{0};
  std::thread producer([&] {
    producer_tid = thread_id();
    slept = ring.wait_for_room(3072);
    done = true;
  });
  while (!producer_tid) std::this_thread::yield();
  wait_until_asleep(producer_tid);
  consumer.pace = 7; // 7 freed: 2816 bytes free
  consumer.wait_executed(7);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK_FALSE(done);
  CHECK(ring.counters.producer_wakes == 0);
  consumer.pace = 8;
  producer.join();
  CHECK(slept);
  CHECK(ring.counters.room_waits == 1);
  CHECK(ring.used_bytes() <= 4 * 256);
  consumer.pace = 12;
  consumer.wait_executed(12); // the consumer counts the wake-up after giving it
  CHECK(ring.counters.producer_wakes == 1);
}
