// The layer's two synchronization primitives of its per-call paths, free of Vulkan so that they are
// tested on their own (tests/layer/test_layer_sync.cpp):
//  - Lock, a mutex whose uncontended lock and unlock are one atomic instruction each, inlined
//    (std::mutex calls pthread_mutex_lock / _unlock through the PLT, ~50 instructions a pair, and
//    an application's frame takes several);
//  - TaggedStack, a lock-free stack of nodes that are never freed while the stack is in use (the
//    recycled submission records: taken by any application thread, returned by the layer thread).
#pragma once

#include <atomic>
#include <cstdint>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace novem_qd {

// A mutex (BasicLockable: std::lock_guard, std::scoped_lock) after Drepper's "Futexes Are Tricky":
// 0 free, 1 held, 2 held with waiters (who sleep on the futex; only then does unlock make a system
// call). Not recursive, no fairness. Meant for critical sections of a few map operations; one that
// may wait long (a call down the chain that blocks) should use std::mutex.
class Lock {
public:
  void lock() {
    std::uint32_t expected = 0;
    if (!state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) contended();
  }
  void unlock() {
    if (state_.exchange(0, std::memory_order_release) == 2) wake();
  }
  Lock() = default;
  Lock(const Lock &) = delete;
  Lock &operator=(const Lock &) = delete;

private:
  void contended() {
    // Marks the lock "with waiters" before sleeping, so that the holder's unlock wakes one.
    while (state_.exchange(2, std::memory_order_acquire) != 0)
      syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&state_), FUTEX_WAIT_PRIVATE, 2u, nullptr, nullptr, 0);
  }
  void wake() { syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&state_), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0); }
  static_assert(sizeof(std::atomic<std::uint32_t>) == 4 && std::atomic<std::uint32_t>::is_always_lock_free);
  std::atomic<std::uint32_t> state_{0};
};

// A Treiber stack of T, whose `std::atomic<T *> stack_next` links it. A pop reads the top node's
// link before its compare-exchange, so a node must stay allocated while any thread may pop (here:
// as long as the device lives); the ABA problem (the top popped and pushed back between that read
// and the exchange, with another link) is caught by a 16-bit tag, bumped by every push and pop,
// kept in the head word's upper bits beside a 48-bit address. A node whose address does not fit
// (fits() false: Linux gives user space addresses above 2^47 only to an mmap that asks for them)
// must not be pushed.
template <class T> class TaggedStack {
public:
  static bool fits(const T *node) { return (reinterpret_cast<std::uintptr_t>(node) & ~kAddressMask) == 0; }
  void push(T *node) { push_chain(node, node); }
  // Pushes the nodes first .. last, already linked through stack_next (last's link is set here),
  // with one compare-exchange; `first` ends on top.
  void push_chain(T *first, T *last) {
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    do last->stack_next.store(top(head), std::memory_order_relaxed);
    while (!head_.compare_exchange_weak(head, pack(first, head), std::memory_order_release, std::memory_order_relaxed));
  }
  // The top node, or nullptr where the stack is empty.
  T *pop() {
    std::uint64_t head = head_.load(std::memory_order_acquire);
    while (T *node = top(head))
      if (head_.compare_exchange_weak(head, pack(node->stack_next.load(std::memory_order_relaxed), head),
                                      std::memory_order_acquire, std::memory_order_acquire))
        return node;
    return nullptr;
  }
  // Forgets every node (they are owned elsewhere); no other thread may use the stack meanwhile.
  void clear() { head_.store(0, std::memory_order_relaxed); }

private:
  static_assert(sizeof(void *) == 8, "a 48-bit address and a 16-bit tag in one 64-bit word");
  static constexpr std::uint64_t kAddressMask = (std::uint64_t{1} << 48) - 1;
  static T *top(std::uint64_t head) { return reinterpret_cast<T *>(static_cast<std::uintptr_t>(head & kAddressMask)); }
  // `node` on top, with the tag after `old`'s.
  static std::uint64_t pack(T *node, std::uint64_t old) {
    return ((old & ~kAddressMask) + (kAddressMask + 1)) | reinterpret_cast<std::uintptr_t>(node);
  }
  std::atomic<std::uint64_t> head_{0};
};

} // namespace novem_qd
