// The GL suballocator for vertex and index buffers: large buffer objects with persistent,
// coherent mapped storage (ARB_buffer_storage), split first-fit among many Novem buffers, so that
// creating a buffer allocates no GL storage and writing one is a memcpy.
//
// Reuse is guarded by fences: draws mark the ranges they read with the current serial; every
// FENCE and PRESENT ends the serial with a glFenceSync; a range is busy until its serial's sync
// has signalled. A busy range is never written by the CPU: an update renames (a fresh range; the
// old one is retired and freed once its serial completes). Coherent mapping makes CPU writes
// visible to later GL commands without glMemoryBarrier.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "novem/range_allocator.hpp"
#include "novem/retire_queue.hpp"
#include "novem_gl.h"

namespace novem_gl {

class BufferArena {
public:
  struct Range {
    GLuint buffer = 0;        // the GL buffer object holding the range
    uint8_t *map = nullptr;   // its host address
    uint64_t offset = 0, size = 0;
    uint64_t last_use = 0;    // the serial of the last draw that read it
    uint32_t block = 0;       // index into blocks_
  };

  // Each GL buffer object given storage counts in `allocations`, each wait for the GPU in `waits`.
  bool init(const NovemGL &gl, std::atomic<uint64_t> &allocations, std::atomic<uint64_t> &waits);
  void destroy(); // the context must be current

  static constexpr uint64_t kAlignment = 256; // of every range's offset and size

  // A new block when none has room; Range{} when GL has no memory for one (GL_OUT_OF_MEMORY:
  // nothing is left behind) or cannot map it. alignment: of the range's offset, a
  // multiple of kAlignment (0: kAlignment).
  Range allocate(uint64_t size, uint64_t alignment = kAlignment);
  void retire(const Range &range); // freed once its last use has completed
  bool busy(const Range &range) const { return range.last_use > completed_; }
  void use(Range &range) const { range.last_use = serial_; }

  void end_serial(); // a fence for everything issued so far (call at FENCE and PRESENT)
  void poll();       // completes finished serials, frees their retired ranges

private:
  struct Block {
    GLuint buffer = 0;
    uint8_t *map = nullptr;
    uint64_t size = 0;
    novem::RangeAllocator ranges; // of [0, size)
  };
  static constexpr uint64_t kBlockSize = 16ull << 20;
  static constexpr size_t kBlocksBeforeWaiting = 16; // grow freely up to 256 MiB, then wait for retired ranges

  bool take(uint32_t block, uint64_t size, uint64_t alignment, Range &out);
  void give_back(const Range &range);
  void wait_oldest(); // blocks for the oldest serial in flight

  const NovemGL *gl_ = nullptr;
  std::atomic<uint64_t> *allocations_ = nullptr;
  std::atomic<uint64_t> *waits_ = nullptr;
  std::vector<Block> blocks_;
  uint64_t serial_ = 1, completed_ = 0;
  std::deque<std::pair<uint64_t, GLsync>> fences_;   // serial -> its sync, oldest first
  novem::RetireQueue<Range> retired_;                // by last_use
};

} // namespace novem_gl
