// Sleeping on a 32-bit atomic with the Linux futex system call.
//
// Why not std::atomic::wait: libstdc++ keeps its table of waiting threads in an inline static,
// which every shared object built with hidden visibility gets its own copy of. A notify in a
// plugin would then never wake a wait in the frontend. A futex is keyed by the address alone.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>

namespace novem {

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "futex words are plain 32-bit integers");

// Sleeps while *word == expected (returns at once otherwise, or on a spurious wake-up).
inline void futex_wait(std::atomic<uint32_t> &word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

inline void futex_wake_one(std::atomic<uint32_t> &word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

inline void futex_wake_all(std::atomic<uint32_t> &word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

} // namespace novem
