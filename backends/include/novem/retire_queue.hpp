// Deferred frees: items that the GPU may still use, each held until the serial of its last use
// (a Vulkan batch id, a GL fence serial) has completed, then handed back to the plugin in serial
// order. Bookkeeping only, with no notion of fences: the plugin says which serial has completed.
//
// Items mostly arrive in serial order (the recording batch's id only grows), so a push is an
// append; an item whose last use is older than the newest queued (a resource idle for some
// batches) is inserted in place, searched from the back, where it nearly always belongs.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>
#include <type_traits>
#include <utility>

namespace novem {

template <class T> class RetireQueue {
public:
  // Holds item until `serial` has completed. Items of one serial come back in the order pushed.
  void push(uint64_t serial, T item) {
    auto at = items_.end();
    while (at != items_.begin() && std::prev(at)->serial > serial) --at;
    items_.insert(at, Entry{serial, std::move(item)});
  }

  // Hands every item whose serial is at most `completed` to release(T &), oldest first. Each
  // leaves the queue before release sees it, so release may push (an item of a completed serial
  // pushed then is handed back in this same call).
  template <class Release> void release(uint64_t completed, Release &&release) {
    while (!items_.empty() && items_.front().serial <= completed) {
      T item = std::move(items_.front().item);
      items_.pop_front();
      release(item);
    }
  }
  // Callables are their own release: each is called.
  void release(uint64_t completed)
    requires std::is_invocable_v<T &>
  {
    release(completed, [](T &fn) { fn(); });
  }

  // Takes the oldest item when its serial is at most `completed` (a pool reusing what it retired).
  bool take(uint64_t completed, T &out) {
    if (items_.empty() || items_.front().serial > completed) return false;
    out = std::move(items_.front().item);
    items_.pop_front();
    return true;
  }

  // The serial after which nothing is held (0 when nothing is).
  uint64_t newest() const { return items_.empty() ? 0 : items_.back().serial; }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  void clear() { items_.clear(); }

private:
  struct Entry {
    uint64_t serial;
    T item;
  };
  std::deque<Entry> items_; // by serial, then by push
};

} // namespace novem
