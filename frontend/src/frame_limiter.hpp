// NOVEM_FRAME_RATE: Present waits so that frames come no faster than the rate. Each frame has a
// deadline one period after the last; a frame later than its deadline moves the next deadline
// from now (no burst to catch up), as frame limiters of games and DXVK's do.
#pragma once

#include <chrono>

namespace novem {

class FrameLimiter {
public:
  using Clock = std::chrono::steady_clock;

  explicit FrameLimiter(unsigned frames_per_second)
      : period_(frames_per_second ? std::chrono::nanoseconds(1000000000ull / frames_per_second) : Clock::duration::zero()) {}

  // How long the frame presented at `now` waits; then the next deadline is set.
  Clock::duration wait(Clock::time_point now) {
    if (period_ == Clock::duration::zero()) return {};
    const Clock::duration wait = next_ > now ? next_ - now : Clock::duration::zero();
    next_ = (next_ > now ? next_ : now) + period_;
    return wait;
  }

private:
  Clock::duration period_;
  Clock::time_point next_{};
};

} // namespace novem
