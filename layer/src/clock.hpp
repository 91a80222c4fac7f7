// The layer's clocks: CLOCK_MONOTONIC (now_ns), which every time the layer reports is in, and the
// stamp a submission call takes (StampClock). Free of Vulkan, so that they are tested on their own
// (tests/layer/test_layer_clock.cpp).
//
// Every tracked submission is stamped, so that read is on vkQueueSubmit's hot path. There
// clock_gettime costs about twice a bare TSC read, and more in place: its vDSO orders the TSC read
// after every earlier load (lfence), so the cache misses of the call before it are paid there
// (docs/performance.md, "The submission's stamp: the TSC"). Where the kernel keeps CLOCK_MONOTONIC on the
// TSC itself, a stamp is the TSC, and the layer thread turns stamps into CLOCK_MONOTONIC when it
// takes the submissions over (drain_incoming), a poll period later at most.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace novem_qd {

// CLOCK_MONOTONIC (std::chrono::steady_clock's clock on Linux), read without libstdc++'s call in between.
inline std::uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

// Whether the kernel's clocksource, as `path` names it, is the TSC. Linux picks the TSC only where
// it runs at a constant rate, in every power state, and in step on every CPU (else it falls back
// to hpet, kvm-clock, ...): then a TSC read on any thread is a time on one scale, at a fixed ratio
// to CLOCK_MONOTONIC.
inline bool tsc_clocksource(const char *path = "/sys/devices/system/clocksource/clocksource0/current_clocksource") {
#if defined(__x86_64__)
  std::FILE *f = std::fopen(path, "re");
  if (!f) return false;
  char name[32] = {};
  const bool read = std::fgets(name, sizeof name, f) != nullptr;
  std::fclose(f);
  return read && std::strcmp(name, "tsc\n") == 0;
#else
  (void)path;
  return false;
#endif
}

// A submission's stamp, read on any thread (stamp()), and turned into CLOCK_MONOTONIC by one owner
// (sync(), then to_ns(), under DeviceState::track_mutex). With the TSC, the ratio of nanoseconds to
// ticks is measured at construction over kCalibrationNs, then refitted at each sync() from the
// first point to the latest; a stamp converts relative to the latest, which is at most a poll
// period away, so the ratio's error costs nanoseconds. Without it, a stamp is CLOCK_MONOTONIC.
class StampClock {
public:
  explicit StampClock(bool tsc = process_uses_tsc()) : tsc_(tsc) {
    if (!tsc_) return;
    pair(tick0_, ns0_);
    do pair(tick_, ns_);
    while (ns_ - ns0_ < kCalibrationNs);
    fit();
  }
  std::uint64_t stamp() const {
#if defined(__x86_64__)
    if (tsc_) return __rdtsc();
#endif
    return now_ns();
  }
  // A new reference point: stamps taken before it convert exactly as far as the ratio holds.
  void sync() {
    if (!tsc_) return;
    pair(tick_, ns_);
    fit();
  }
  // CLOCK_MONOTONIC of a stamp taken on this machine (before the last sync(), or shortly after).
  std::uint64_t to_ns(std::uint64_t stamp) const {
    if (!tsc_) return stamp;
    const double offset = static_cast<double>(static_cast<std::int64_t>(stamp - tick_)) * ns_per_tick_;
    const double ns = static_cast<double>(ns_) + offset;
    return ns <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(ns));
  }
  bool tsc() const { return tsc_; }

private:
  static constexpr std::uint64_t kCalibrationNs = 200000; // spent at construction (once per device)
  static bool process_uses_tsc() {
    static const bool tsc = tsc_clocksource();
    return tsc;
  }
  // A TSC read with the CLOCK_MONOTONIC of its moment: the middle of two reads around it that lie
  // close together (a thread preempted between them takes the next try; after kPairAttempts, the
  // closest of them). Its error is at most half their distance.
  static void pair(std::uint64_t &tick, std::uint64_t &ns) {
#if defined(__x86_64__)
    std::uint64_t closest = UINT64_MAX;
    for (int attempt = 0; attempt < kPairAttempts && closest > kPairNs; ++attempt) {
      const std::uint64_t before = now_ns();
      const std::uint64_t t = __rdtsc();
      const std::uint64_t after = now_ns();
      if (after - before < closest) {
        closest = after - before;
        tick = t;
        ns = before + (after - before) / 2;
      }
    }
#else
    tick = ns = now_ns();
#endif
  }
  void fit() {
    if (tick_ > tick0_ && ns_ > ns0_)
      ns_per_tick_ = static_cast<double>(ns_ - ns0_) / static_cast<double>(tick_ - tick0_);
  }
  // Two reads lie some 30 ns apart here; one in 40 000 pairs more than 500 ns (preempted).
  static constexpr std::uint64_t kPairNs = 250;
  static constexpr int kPairAttempts = 100;

  bool tsc_;
  std::uint64_t tick0_ = 0, ns0_ = 0; // the first reference point
  std::uint64_t tick_ = 0, ns_ = 0;   // the latest
  double ns_per_tick_ = 1.0;
};

} // namespace novem_qd
