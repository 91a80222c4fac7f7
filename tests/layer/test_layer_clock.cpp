// The layer's submission stamps (clock.hpp), from its header: on this machine's clock (the TSC
// where the kernel keeps CLOCK_MONOTONIC on it, else CLOCK_MONOTONIC itself) a stamp converts to
// the CLOCK_MONOTONIC of its moment, and the kernel's clocksource decides which clock that is.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>

#include "clock.hpp"

using novem_qd::now_ns;
using novem_qd::StampClock;

namespace {

// Stamps taken between two CLOCK_MONOTONIC reads, over `span_ms`, each converted after a nap of
// up to 2 ms and a sync(), as the layer thread does: each must fall between its two reads, give or
// take `slack_ns`. A reference point is off by at most half of kPairNs (125 ns), and a stamp lies
// no further from the latest than that one from the first, so a conversion is off by a few of them.
void check_stamps(StampClock &clock, int span_ms, std::uint64_t slack_ns) {
  const std::uint64_t end = now_ns() + static_cast<std::uint64_t>(span_ms) * 1000000u;
  int checked = 0;
  while (now_ns() < end || checked < 20) {
    const std::uint64_t before = now_ns();
    const std::uint64_t stamp = clock.stamp();
    const std::uint64_t after = now_ns();
    // The layer thread syncs some time after a submission's stamp: here up to 2 ms.
    std::this_thread::sleep_for(std::chrono::microseconds(100 * (checked % 20)));
    clock.sync();
    const std::uint64_t ns = clock.to_ns(stamp);
    INFO("stamp " << checked << ": " << ns << " against [" << before << ", " << after << "]");
    CHECK(ns + slack_ns >= before);
    CHECK(ns <= after + slack_ns);
    ++checked;
  }
}

} // namespace

TEST_CASE("layer clock: a submission's stamp converts to the CLOCK_MONOTONIC of its moment", "[layer]") {
  StampClock clock;
  INFO("stamps are " << (clock.tsc() ? "TSC ticks" : "CLOCK_MONOTONIC"));
  // Right after the calibration, then once the ratio is refitted over a longer span.
  check_stamps(clock, 20, 2000);
  check_stamps(clock, 50, 2000);
}

TEST_CASE("layer clock: a stamp taken after the last sync converts too", "[layer]") {
  StampClock clock;
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  clock.sync();
  const std::uint64_t before = now_ns();
  const std::uint64_t stamp = clock.stamp();
  const std::uint64_t after = now_ns();
  const std::uint64_t ns = clock.to_ns(stamp);
  CHECK(ns + 2000 >= before);
  CHECK(ns <= after + 2000);
}

TEST_CASE("layer clock: without the TSC a stamp is CLOCK_MONOTONIC itself", "[layer]") {
  StampClock clock(false);
  const std::uint64_t before = now_ns();
  const std::uint64_t stamp = clock.stamp();
  CHECK(stamp >= before);
  CHECK(stamp <= now_ns());
  clock.sync();
  CHECK(clock.to_ns(stamp) == stamp);
}

TEST_CASE("layer clock: stamps are TSC ticks only where the kernel's clocksource is the TSC", "[layer]") {
  struct Case {
    const char *content; // nullptr: no such file
    bool tsc;
  };
#if defined(__x86_64__)
  const bool on_x86 = true;
#else
  const bool on_x86 = false;
#endif
  const Case cases[] = {
      {"tsc\n", on_x86}, {"kvm-clock\n", false}, {"hpet\n", false}, {"tsc-early\n", false}, {"", false}, {nullptr, false},
  };
  const std::string path = "/tmp/novem-clocksource-" + std::to_string(getpid());
  for (const Case &c : cases) {
    std::remove(path.c_str());
    if (c.content) {
      std::FILE *f = std::fopen(path.c_str(), "w");
      REQUIRE(f);
      std::fputs(c.content, f);
      std::fclose(f);
    }
    INFO("clocksource file: " << (c.content ? c.content : "(none)"));
    CHECK(novem_qd::tsc_clocksource(path.c_str()) == c.tsc);
  }
  std::remove(path.c_str());
}
