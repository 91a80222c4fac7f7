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
  // The proofs kept: at least one tracker poll period's worth is needed (the tracker reads them
  // each pass: up to 8 ms, some 40 frames of a fast frame loop); beyond that, a submission's time
  // is the oldest kept proof that covers it, later than its own, so its latency reads long, never
  // short.
  static constexpr std::size_t kSize = 256;

  // A wait that returned at `ns` proved the queue's submissions up to `seq` complete. A proof of
  // no more than one already logged adds nothing (another thread's wait that ended later), so the
  // sequence numbers kept rise.
  void add(std::uint64_t seq, std::uint64_t ns) {
    std::lock_guard guard(lock_);
    if (count_ != 0 && seq <= at(count_ - 1).seq) return;
    entries_[count_ % kSize] = Entry{seq, ns};
    ++count_;
  }

  // The earliest time a kept proof covers submission `seq` (0: none does): the first covering
  // proof, or one of the few logged after it whose wait (on another thread) returned earlier.
  std::uint64_t time_of(std::uint64_t seq) {
    std::lock_guard guard(lock_);
    std::size_t lo = count_ < kSize ? 0 : count_ - kSize, hi = count_; // proofs lo..hi-1, rising seq
    while (lo < hi) { // the first with seq >= `seq`
      const std::size_t mid = lo + (hi - lo) / 2;
      if (at(mid).seq < seq) lo = mid + 1;
      else hi = mid;
    }
    std::uint64_t best = 0;
    for (std::size_t i = lo; i < count_ && i < lo + kRaced; ++i)
      if (best == 0 || at(i).ns < best) best = at(i).ns;
    return best;
  }

private:
  struct Entry {
    std::uint64_t seq = 0, ns = 0;
  };
  // Proofs looked at after the first covering one: waits of racing threads end out of order.
  static constexpr std::size_t kRaced = 4;
  const Entry &at(std::size_t proof) const { return entries_[proof % kSize]; }
  Lock lock_;
  std::array<Entry, kSize> entries_{};
  std::size_t count_ = 0; // proofs logged, ever: the next goes to count_ % kSize
};

} // namespace novem_qd
