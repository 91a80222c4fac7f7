// Counters with one writer: the ring's sides and the plugin's submission thread each count into
// their own atomics, which other threads only read (statistics, tests).
#pragma once

#include <atomic>
#include <cstdint>

namespace novem {

// Adds n with a plain load and store: one writer needs no locked read-modify-write, which would
// cost a bus lock per draw on the hot path.
inline void bump(std::atomic<uint64_t> &counter, uint64_t n = 1) {
  counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

} // namespace novem
