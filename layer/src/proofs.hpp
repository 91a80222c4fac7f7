// When the application's own waits proved a queue's submissions complete: the tracker thread
// completes a submission under the application's fence when it next looks (within its poll period,
// tracker.cpp), and takes its completion time from here, so that no wait of the application's has
// to wake the tracker (a wake-up, an inter-processor interrupt, cost more per frame than all the
// rest of the layer). Free of Vulkan, tested on its own (tests/layer/test_layer_sync.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "sync.hpp"

namespace novem_qd {

class ProofLog {
public:
  // The proofs kept: at most one tracker poll period's worth is needed (the tracker reads them
  // each pass); beyond that, a submission's time is the oldest kept proof that covers it, later
  // than its own, so its latency reads long, never short.
  static constexpr std::size_t kSize = 64;

  // A wait that returned at `ns` proved the queue's submissions up to `seq` complete. A proof of
  // no more than one already logged adds nothing (another thread's wait that ended later).
  void add(std::uint64_t seq, std::uint64_t ns) {
    std::lock_guard guard(lock_);
    if (count_ != 0 && seq <= entries_[(count_ - 1) % kSize].seq) return;
    entries_[count_ % kSize] = Entry{seq, ns};
    ++count_;
  }

  // The earliest time a kept proof covers submission `seq` (0: none does).
  std::uint64_t time_of(std::uint64_t seq) {
    std::lock_guard guard(lock_);
    std::uint64_t best = 0;
    const std::size_t kept = count_ < kSize ? count_ : kSize;
    // Newest first: the sequence numbers fall, so the covering proofs are the newest ones.
    for (std::size_t i = 1; i <= kept; ++i) {
      const Entry &e = entries_[(count_ - i) % kSize];
      if (e.seq < seq) break;
      if (best == 0 || e.ns < best) best = e.ns;
    }
    return best;
  }

private:
  struct Entry {
    std::uint64_t seq = 0, ns = 0;
  };
  Lock lock_;
  std::array<Entry, kSize> entries_{};
  std::size_t count_ = 0; // proofs logged, ever: the next goes to count_ % kSize
};

} // namespace novem_qd
