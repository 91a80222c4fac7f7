// A sleeping side of a single-producer/single-consumer handshake.
//
// One thread waits until a condition it can read holds; the other makes it hold and calls
// wake(), or wake_if() with a condition of its own: the mark the sleeper chose to be woken at,
// which the sleeper stores before wait_until() (the sleeping flag's store publishes it). The
// waker pays one fence and one load when nobody sleeps, so it can be called after every command.
// Correctness relies on sequential consistency between the condition's store (release + the
// fence in wake) and the sleeping flag (Dekker's handshake); a wake_if() that declines must be
// followed by one that accepts before the sleeper's condition can hold. It sleeps on a futex
// (futex.hpp), which works across the frontend and the plugin's shared objects.
#pragma once

#include <atomic>
#include <cstdint>

#include "novem/futex.hpp"

namespace novem {

class Waiter {
public:
  // Blocks until ready() is true. Returns whether it had to sleep at least once.
  template <class Ready> bool wait_until(Ready ready) {
    if (ready()) return false;
    for (;;) {
      sleeping_.store(1, std::memory_order_seq_cst);
      if (ready()) {
        sleeping_.store(0, std::memory_order_relaxed);
        return true;
      }
      futex_wait(sleeping_, 1);
      if (ready()) return true;
    }
  }

  // Call after making progress: wakes the waiter if it sleeps and due() holds (due() reads what
  // the waiter stored before it slept). Returns whether it woke it.
  template <class Due> bool wake_if(Due due) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (sleeping_.load(std::memory_order_acquire) == 0 || !due()) return false;
    sleeping_.store(0, std::memory_order_seq_cst);
    futex_wake_one(sleeping_);
    return true;
  }

  // Call after making the waiter's condition true.
  bool wake() {
    return wake_if([] { return true; });
  }

private:
  std::atomic<uint32_t> sleeping_{0};
};

} // namespace novem
