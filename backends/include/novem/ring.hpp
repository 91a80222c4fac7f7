// The command ring: a fixed-size byte ring that carries commands from the application thread
// (the one producer) to a plugin's submission thread (the one consumer).
//
// Records are contiguous: an nv_cmd_header, its POD arguments and payload, padded to
// NV_CMD_ALIGN. A record that would cross the end of the buffer is preceded by an NV_OP_PAD
// record that fills the rest, and starts again at offset 0. Positions are 64-bit and only grow,
// so full and empty never look alike. The producer waits only when the ring is full; the consumer
// frees a record's bytes after executing it. Every wait and every wake-up is counted.
//
// Back-pressure with hysteresis: a side that sleeps is woken once, when a large share of the ring
// has changed hands, not after each record. A producer that finds the ring full sleeps until half
// of it is free (kProducerWakeShare); a consumer that finds it empty sleeps until a quarter of it
// is published (kConsumerWakeShare), or until flush(). Waking per record makes the two threads
// hand control back and forth once per command as soon as the ring fills (on two cores, some
// hundred thousand context switches a second); with the marks, a ring's worth of commands costs
// the producer at most two wake-ups and the consumer four, plus one per flush().
//
// The producer ends each record with stage() and shows the staged records to the consumer with
// publish(), so that it can hand them over in batches: each publish writes the shared head and
// may wake the consumer, and a consumer that is always caught up would otherwise pull that cache
// line (and often a futex wake-up) across cores for every command. commit() is stage() + publish().
// Each side also keeps its own copy of the other side's position and reads the shared one only
// when its copy says full (producer) or empty (consumer).
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "novem/command_table.hpp"
#include "novem/counter.hpp"
#include "novem/waiter.hpp"

namespace novem {

struct alignas(64) RingCounters {
  std::atomic<uint64_t> commands{0};       // records committed (pads excluded)
  std::atomic<uint64_t> bytes{0};          // bytes committed, pads included
  std::atomic<uint64_t> producer_waits{0}; // times the producer found the ring full and slept
  std::atomic<uint64_t> consumer_waits{0}; // times the consumer found it empty and slept
  std::atomic<uint64_t> room_waits{0};     // times wait_for_room() slept (the producer, at a frame's end)
  std::atomic<uint64_t> producer_wakes{0}; // futex wake-ups the consumer gave the producer
  std::atomic<uint64_t> consumer_wakes{0}; // futex wake-ups the producer gave the consumer
};

class CommandRing {
public:
  // capacity: a power of two, at least 4 KiB.
  explicit CommandRing(size_t capacity) : capacity_(capacity), mask_(capacity - 1) {
    assert(capacity >= 4096 && (capacity & (capacity - 1)) == 0);
    data_ = static_cast<uint8_t *>(std::aligned_alloc(64, capacity));
    if (!data_) throw std::bad_alloc();
    // Touch every page now, so that the first trip round the ring takes no page faults.
    std::memset(data_, 0, capacity);
  }
  ~CommandRing() { std::free(data_); }
  CommandRing(const CommandRing &) = delete;
  CommandRing &operator=(const CommandRing &) = delete;

  // The shares of the ring a sleeping side waits for (see the top of this file).
  static constexpr size_t kProducerWakeShare = 2; // free: capacity / 2
  static constexpr size_t kConsumerWakeShare = 4; // published: capacity / 4

  size_t capacity() const { return capacity_; }
  // The largest record begin() accepts; larger payloads must be split by the sender.
  size_t max_record_size() const { return capacity_ / 4; }
  static constexpr uint32_t record_size(size_t bytes) {
    return uint32_t((bytes + NV_CMD_ALIGN - 1) & ~size_t(NV_CMD_ALIGN - 1));
  }

  // ---- producer side ----

  // Reserves a record of at least `bytes` (header included) and returns it with the header
  // filled in (flags: nv_cmd_flags); the rest is for the caller to write before commit(). Waits
  // while the ring is full.
  nv_cmd_header *begin(uint16_t opcode, size_t bytes, uint16_t flags = 0) {
    uint32_t size = record_size(bytes);
    assert(size <= max_record_size());
    uint64_t pos = staged_;
    // Usually the record fits before the end and in the space last seen free.
    if (capacity_ - (pos & mask_) < size || capacity_ - (pos - tail_seen_) < size) [[unlikely]]
      pos = make_room(pos, size);
    pending_ = pos + size;
    auto *header = reinterpret_cast<nv_cmd_header *>(data_ + (pos & mask_));
    *header = nv_cmd_header{opcode, flags, size};
    return header;
  }

  // The record from the last begin(), not staged yet: where begin() started, or past the pad it
  // wrote there when the record did not fit before the end of the buffer.
  const nv_cmd_header *unstaged() const {
    const auto *h = reinterpret_cast<const nv_cmd_header *>(data_ + (staged_ & mask_));
    if (h->opcode == NV_OP_PAD && staged_ + h->size < pending_)
      h = reinterpret_cast<const nv_cmd_header *>(data_ + ((staged_ + h->size) & mask_));
    return h;
  }

  // Ends the record from the last begin(); the consumer sees it at the next publish().
  void stage() {
    bump(counters.commands, 1);
    bump(counters.bytes, pending_ - staged_);
    staged_ = pending_;
  }

  // Shows every staged record to the consumer; wakes it if it sleeps and the published records
  // reach its mark (a quarter of the ring past where it ran dry).
  void publish() {
    if (staged_ == published_) return;
    published_ = staged_;
    head_.store(published_, std::memory_order_release);
    if (consumer_.wake_if([&] { return published_ >= consumer_wake_at_.load(std::memory_order_relaxed); }))
      bump(counters.consumer_wakes);
  }

  // Shows every staged record to the consumer and wakes it if it sleeps, mark or not: before the
  // producer waits for the consumer (a fence, the ring's space) or has nothing more to say for now.
  void flush() {
    if (staged_ != published_) {
      published_ = staged_;
      head_.store(published_, std::memory_order_release);
    }
    if (consumer_.wake()) bump(counters.consumer_wakes);
  }

  // Ends and publishes the record from the last begin().
  void commit() {
    stage();
    publish();
  }

  // Bytes staged but not yet published.
  uint64_t unpublished_bytes() const { return staged_ - published_; }

  // Bytes the consumer has not freed yet (staged ones included), as last seen by the producer.
  uint64_t used_bytes() {
    tail_seen_ = tail_.load(std::memory_order_acquire);
    return staged_ - tail_seen_;
  }

  // Whether room_for(bytes) bytes are free.
  bool has_room(size_t bytes) { return capacity_ - used_bytes() >= room_for(bytes); }

  // Flushes, then waits until room_for(bytes) bytes are free: where a producer that knows how
  // much it is about to write (a frame like the last one) prefers to wait, rather than inside its
  // next records. Returns whether it slept.
  bool wait_for_room(size_t bytes) {
    flush();
    if (!sleep_until_free(staged_, room_for(bytes))) return false;
    bump(counters.room_waits);
    return true;
  }

  // ---- consumer side ----

  // The next record, or nullptr when the ring is empty. Pads are skipped here.
  const nv_cmd_header *peek() {
    for (;;) {
      uint64_t tail = tail_.load(std::memory_order_relaxed);
      if (tail == head_seen_ && tail == (head_seen_ = head_.load(std::memory_order_acquire))) return nullptr;
      auto *header = reinterpret_cast<const nv_cmd_header *>(data_ + (tail & mask_));
      if (header->opcode != NV_OP_PAD) return header;
      release(tail + header->size);
    }
  }

  // Frees the record peek() returned, once it has been executed.
  void pop(const nv_cmd_header *header) {
    release(tail_.load(std::memory_order_relaxed) + header->size);
  }

  // Sleeps until a record is there or stop() was called. Returns false once stopped and empty.
  bool wait_for_work() {
    consumer_wake_at_.store(tail_.load(std::memory_order_relaxed) + capacity_ / kConsumerWakeShare,
                            std::memory_order_relaxed);
    bool slept = consumer_.wait_until([&] {
      return stopping_.load(std::memory_order_acquire) ||
             tail_.load(std::memory_order_relaxed) != head_.load(std::memory_order_acquire);
    });
    if (slept) bump(counters.consumer_waits, 1);
    return tail_.load(std::memory_order_relaxed) != head_.load(std::memory_order_acquire) ||
           !stopping_.load(std::memory_order_acquire);
  }

  // Asks the consumer to finish what is queued and return from wait_for_work with false.
  // Called on the producer's thread: what is staged is published first.
  void stop() {
    stopping_.store(true, std::memory_order_release);
    flush();
  }

  // True when the consumer has freed everything the producer published.
  bool drained() const {
    return tail_.load(std::memory_order_acquire) == head_.load(std::memory_order_relaxed);
  }

  RingCounters counters;

private:
  // `bytes`, or for more than the ring holds half of it: such a producer waits inside its records
  // anyway, and waiting for the whole ring to drain would leave the consumer idle while it refills.
  size_t room_for(size_t bytes) const { return bytes <= capacity_ ? bytes : capacity_ / kProducerWakeShare; }

  // The slow path of begin(): pads to the end of the buffer when the record does not fit there,
  // and waits for the space. Returns where the record starts.
  [[gnu::noinline]] uint64_t make_room(uint64_t pos, uint32_t size) {
    size_t offset = pos & mask_;
    size_t to_end = capacity_ - offset;
    size_t need = size + (to_end < size ? to_end : 0);
    wait_for_space(pos, need);
    if (to_end < size) {
      auto *pad = reinterpret_cast<nv_cmd_header *>(data_ + offset);
      *pad = nv_cmd_header{NV_OP_PAD, 0, uint32_t(to_end)};
      pos += to_end;
    }
    return pos;
  }

  // Waits until `need` bytes are free past `head`; once it must sleep, until half the ring is.
  void wait_for_space(uint64_t head, size_t need) {
    if (capacity_ - (head - (tail_seen_ = tail_.load(std::memory_order_acquire))) >= need) return;
    flush(); // the consumer can only free what it has been shown
    const size_t half = capacity_ / kProducerWakeShare;
    if (sleep_until_free(head, need > half ? need : half)) bump(counters.producer_waits, 1);
  }

  // Sleeps until `bytes` are free past `head` (everything up to head published), the consumer
  // waking the producer once, at that mark. Returns whether it slept.
  bool sleep_until_free(uint64_t head, size_t bytes) {
    auto free_enough = [&] {
      tail_seen_ = tail_.load(std::memory_order_acquire);
      return capacity_ - (head - tail_seen_) >= bytes;
    };
    if (free_enough()) return false; // otherwise head + bytes > capacity: the mark does not wrap
    producer_wake_at_.store(head + bytes - capacity_, std::memory_order_relaxed);
    return producer_.wait_until(free_enough);
  }

  void release(uint64_t new_tail) {
    tail_.store(new_tail, std::memory_order_release);
    if (producer_.wake_if([&] { return new_tail >= producer_wake_at_.load(std::memory_order_relaxed); }))
      bump(counters.producer_wakes);
  }

  // Each line below is written by one side only, so that neither pulls the other's writes.
  alignas(64) const size_t capacity_; // never written after construction
  const size_t mask_;
  uint8_t *data_ = nullptr;
  // Producer-only: the end of the reserved record, of the staged records and of the published
  // ones, and the tail as last read.
  alignas(64) uint64_t pending_ = 0;
  uint64_t staged_ = 0, published_ = 0, tail_seen_ = 0;
  alignas(64) uint64_t head_seen_ = 0; // consumer-only: the head as last read
  alignas(64) std::atomic<uint64_t> head_{0}; // written by the producer
  alignas(64) std::atomic<uint64_t> tail_{0}; // written by the consumer
  alignas(64) std::atomic<bool> stopping_{false};
  Waiter consumer_; // the consumer sleeps here when empty
  std::atomic<uint64_t> consumer_wake_at_{0}; // written by the consumer: the head to be woken at
  alignas(64) Waiter producer_; // the producer sleeps here when full
  std::atomic<uint64_t> producer_wake_at_{0}; // written by the producer: the tail to be woken at
};

// Typed helpers: push a command by its argument struct (which names its opcode, command_table.hpp)
// with an optional payload that follows it.
template <CommandArgs Args> inline Args *ring_begin(CommandRing &ring, size_t payload_bytes = 0, uint16_t flags = 0) {
  nv_cmd_header *h =
      ring.begin(uint16_t(opcode_of<Args>), sizeof(nv_cmd_header) + sizeof(Args) + payload_bytes, flags);
  return reinterpret_cast<Args *>(h + 1);
}

template <CommandArgs Args> inline void ring_push(CommandRing &ring, const Args &args) {
  *ring_begin<Args>(ring) = args;
  ring.commit();
}

} // namespace novem
