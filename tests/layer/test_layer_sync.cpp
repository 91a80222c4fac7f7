// The layer's own structures of its per-call paths, from its headers: the mutex and the lock-free
// stack of recycled submission records, one by one and in chains (sync.hpp), under several
// threads at once, the log of proofs of completion (proofs.hpp), and the cache in front of the
// application's fences (state.hpp's FenceMap). Run under the thread sanitizer too (build-tsan),
// which checks the memory orders.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "state.hpp" // FenceMap; includes sync.hpp and proofs.hpp

namespace {

constexpr int kThreads = 4;

struct Node {
  std::atomic<Node *> stack_next{nullptr};
  std::atomic<int> holders{0}; // threads that popped it and have not pushed it back
  std::uint64_t uses = 0;      // written only by the thread that holds the node
};

} // namespace

TEST_CASE("layer sync: the layer's mutex makes a plain counter exact under contention", "[layer]") {
  novem_qd::Lock lock;
  std::uint64_t counter = 0; // no atomics: only the lock orders the threads' updates
  constexpr int kEach = 200000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        std::lock_guard guard(lock);
        ++counter;
      }
    });
  for (auto &t : threads) t.join();
  CHECK(counter == std::uint64_t{kThreads} * kEach);
}

TEST_CASE("layer sync: the lock-free stack gives each node to one thread at a time and loses none", "[layer]") {
  novem_qd::TaggedStack<Node> stack;
  CHECK(stack.pop() == nullptr);
  // Fewer nodes than threads make them fight over the top, where an ABA would hand one node to two.
  constexpr int kNodes = 3, kRounds = 200000;
  std::vector<std::unique_ptr<Node>> nodes;
  for (int i = 0; i < kNodes; ++i) {
    nodes.push_back(std::make_unique<Node>());
    REQUIRE(novem_qd::TaggedStack<Node>::fits(nodes.back().get()));
    stack.push(nodes.back().get());
  }
  std::atomic<int> doubly_held{0};
  std::atomic<std::uint64_t> taken{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        Node *n = stack.pop();
        if (!n) continue; // every node is held by the other threads just now
        if (n->holders.fetch_add(1, std::memory_order_relaxed) != 0) doubly_held.fetch_add(1);
        ++n->uses; // a data race (the sanitizer's report) if two threads held it
        taken.fetch_add(1, std::memory_order_relaxed);
        n->holders.fetch_sub(1, std::memory_order_relaxed);
        stack.push(n);
      }
    });
  for (auto &t : threads) t.join();
  CHECK(doubly_held.load() == 0);
  // Every node is back, once: popping them all gives each exactly once, then nothing.
  std::vector<Node *> back;
  while (Node *n = stack.pop()) back.push_back(n);
  REQUIRE(back.size() == kNodes);
  std::uint64_t uses = 0;
  for (const auto &n : nodes) {
    CHECK(std::count(back.begin(), back.end(), n.get()) == 1);
    uses += n->uses;
  }
  CHECK(uses == taken.load());
  stack.push(nodes[0].get());
  stack.clear();
  CHECK(stack.pop() == nullptr);
}

TEST_CASE("layer sync: a chain pushed at once pops first to last, and none is lost under contention", "[layer]") {
  novem_qd::TaggedStack<Node> stack;
  std::vector<std::unique_ptr<Node>> nodes;
  for (int i = 0; i < 4; ++i) nodes.push_back(std::make_unique<Node>());
  Node *x = nodes[0].get(), *a = nodes[1].get(), *b = nodes[2].get(), *c = nodes[3].get();
  stack.push(x);
  a->stack_next.store(b);
  b->stack_next.store(c);
  stack.push_chain(a, c); // c's link is the stack's old top
  for (Node *want : {a, b, c, x}) CHECK(stack.pop() == want);
  CHECK(stack.pop() == nullptr);

  // Threads take up to three nodes each and give them back as one chain: a node in two chains,
  // or one lost, would show as a node held twice or missing at the end.
  constexpr int kNodes = 8, kRounds = 100000;
  nodes.clear();
  for (int i = 0; i < kNodes; ++i) {
    nodes.push_back(std::make_unique<Node>());
    stack.push(nodes.back().get());
  }
  std::atomic<int> doubly_held{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        Node *held[3] = {};
        int n = 0;
        for (; n < 3; ++n) {
          held[n] = stack.pop();
          if (!held[n]) break;
          if (held[n]->holders.fetch_add(1, std::memory_order_relaxed) != 0) doubly_held.fetch_add(1);
          ++held[n]->uses;
        }
        if (n == 0) continue;
        for (int k = 0; k < n; ++k) held[k]->holders.fetch_sub(1, std::memory_order_relaxed);
        for (int k = 0; k + 1 < n; ++k) held[k]->stack_next.store(held[k + 1], std::memory_order_relaxed);
        stack.push_chain(held[0], held[n - 1]);
      }
    });
  for (auto &t : threads) t.join();
  CHECK(doubly_held.load() == 0);
  std::vector<Node *> back;
  while (Node *n = stack.pop()) back.push_back(n);
  REQUIRE(back.size() == kNodes);
  for (const auto &n : nodes) CHECK(std::count(back.begin(), back.end(), n.get()) == 1);
}

TEST_CASE("layer sync: the fence cache never answers for a fence the map no longer holds", "[layer]") {
  // Handles as a driver hands them out: addresses, reused once destroyed. 64 fences share the 8
  // cache slots, so every slot is overwritten many times.
  auto fence = [](std::uintptr_t i) { return reinterpret_cast<VkFence>(0x7f0000001000u + 0x40u * i); };
  novem_qd::FenceMap map;
  CHECK(map.find(fence(0)) == nullptr);
  CHECK(map.find(VK_NULL_HANDLE) == nullptr);
  for (std::uintptr_t i = 0; i < 64; ++i) map[fence(i)].use.seq = i + 1;
  for (int pass = 0; pass < 2; ++pass) // the second pass from the cache where the first filled it
    for (std::uintptr_t i = 0; i < 64; ++i) {
      novem_qd::FenceEntry *e = map.find(fence(i));
      REQUIRE(e != nullptr);
      CHECK(e->use.seq == i + 1);
      CHECK(&map[fence(i)] == e); // the same entry either way
    }
  // vkDestroyFence: the entry goes, from the cache too, though the cache held it just now.
  for (std::uintptr_t i = 0; i < 64; i += 2) {
    REQUIRE(map.find(fence(i)) != nullptr);
    map.erase(fence(i));
    CHECK(map.find(fence(i)) == nullptr);
  }
  for (std::uintptr_t i = 1; i < 64; i += 2) CHECK(map.find(fence(i))->use.seq == i + 1);
  // The handle reused by a new fence: a new entry, not the old one's attribution.
  CHECK(map[fence(4)].use.seq == 0);
  map.clear();
  for (std::uintptr_t i = 0; i < 64; ++i) CHECK(map.find(fence(i)) == nullptr);
}

TEST_CASE("layer sync: a submission's completion time is the earliest proof that covers it", "[layer]") {
  novem_qd::ProofLog log;
  CHECK(log.time_of(1) == 0); // nothing proven
  log.add(3, 1000);           // a wait proved submissions 1..3 at t=1000
  log.add(2, 1100);           // another thread's wait, on an older fence, ended later: nothing new
  log.add(5, 1200);
  CHECK(log.time_of(1) == 1000);
  CHECK(log.time_of(3) == 1000);
  CHECK(log.time_of(4) == 1200);
  CHECK(log.time_of(5) == 1200);
  CHECK(log.time_of(6) == 0);
  // Waits of two threads that prove more and more but return out of order: the earlier time counts.
  log.add(7, 1500);
  log.add(8, 1400);
  CHECK(log.time_of(6) == 1400);
  // More proofs than the log keeps: the oldest go; a submission only they covered reads the oldest
  // kept proof that covers it (later: its latency reads long, never short).
  for (std::uint64_t i = 0; i < novem_qd::ProofLog::kSize; ++i) log.add(10 + i, 2000 + i);
  CHECK(log.time_of(1) == 2000);
  CHECK(log.time_of(10 + novem_qd::ProofLog::kSize - 1) == 2000 + novem_qd::ProofLog::kSize - 1);
  CHECK(log.time_of(10 + novem_qd::ProofLog::kSize) == 0);
}

TEST_CASE("layer sync: proofs logged by several threads while another reads them", "[layer]") {
  novem_qd::ProofLog log;
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> next{1};
  std::vector<std::thread> waiters;
  for (int t = 0; t < kThreads; ++t)
    waiters.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        const std::uint64_t seq = next.fetch_add(1);
        log.add(seq, 1000 + seq); // a later proof, a later time
      }
    });
  std::uint64_t bad = 0;
  std::thread tracker([&] {
    while (!done.load())
      for (std::uint64_t seq = next.load(); seq > 1 && seq + 64 > next.load(); --seq)
        if (const std::uint64_t t = log.time_of(seq); t != 0 && t < 1000 + seq) ++bad; // earlier than its proof
  });
  for (auto &t : waiters) t.join();
  done.store(true);
  tracker.join();
  CHECK(bad == 0);
  const std::uint64_t last = next.load() - 1;
  CHECK(log.time_of(last) == 1000 + last);
}
