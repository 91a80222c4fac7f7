// The command ring: records, wrap-around, waits, and a two-thread stress test.
#include <catch2/catch.hpp>

#include <cstring>
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

TEST_CASE("ring producer waits only when full, and counts it", "[ring]") {
  CommandRing ring(4096);
  const size_t payload = 1000 - sizeof(TestArgs) - sizeof(nv_cmd_header); // 1008-byte records
  for (int i = 0; i < 4; ++i) push_test(ring, uint64_t(i), payload);   // 4032 of 4096 bytes used
  CHECK(ring.counters.producer_waits == 0);
  std::thread consumer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const nv_cmd_header *h = ring.peek();
    ring.pop(h);
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
  ring.publish();
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
