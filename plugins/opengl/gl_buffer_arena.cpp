#include "gl_buffer_arena.hpp"

#include <algorithm>
#include <cstdint>

#include "novem/counter.hpp"
#include "gl_allocation.hpp"
#include "gl_log.hpp"

namespace novem_gl {

bool BufferArena::init(const NovemGL &gl, std::atomic<uint64_t> &allocations, std::atomic<uint64_t> &waits) {
  gl_ = &gl;
  allocations_ = &allocations;
  waits_ = &waits;
  return true;
}

void BufferArena::destroy() {
  if (!gl_) return;
  for (auto &[serial, sync] : fences_) gl_->DeleteSync(sync);
  fences_.clear();
  for (Block &b : blocks_) {
    if (!b.buffer) continue;
    gl_->UnmapNamedBuffer(b.buffer);
    gl_->DeleteBuffers(1, &b.buffer);
  }
  blocks_.clear();
  retired_.clear();
  gl_ = nullptr;
}

bool BufferArena::take(uint32_t index, uint64_t size, uint64_t alignment, Range &out) {
  Block &b = blocks_[index];
  const uint64_t offset = b.ranges.take(size, alignment);
  if (offset == novem::RangeAllocator::kNone) return false;
  out = Range{b.buffer, b.map + offset, offset, size, 0, index};
  return true;
}

BufferArena::Range BufferArena::allocate(uint64_t size, uint64_t alignment) {
  alignment = std::max(alignment, kAlignment);
  size = std::max<uint64_t>((size + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
  Range r;
  for (int attempt = 0; attempt < 2; ++attempt) {
    for (uint32_t i = 0; i < blocks_.size(); ++i)
      if (blocks_[i].buffer && take(i, size, alignment, r)) return r;
    // Full: wait for retired ranges to come back before growing, when there are any.
    if (retired_.empty() || blocks_.size() < kBlocksBeforeWaiting) break;
    end_serial();
    wait_oldest();
    poll();
  }
  Block b;
  b.size = std::max(size, kBlockSize);
  if (b.size > uint64_t(PTRDIFF_MAX)) return Range{}; // past what a GLsizeiptr holds
  // DYNAMIC_STORAGE too: a rename that keeps old bytes orders its write after a GPU copy.
  const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT | GL_DYNAMIC_STORAGE_BIT;
  clear_errors(*gl_, "a buffer block");
  gl_->CreateBuffers(1, &b.buffer);
  gl_->NamedBufferStorage(b.buffer, GLsizeiptr(b.size), nullptr, flags);
  novem::bump(*allocations_);
  // No storage (GL_OUT_OF_MEMORY): mapping it would be invalid. The caller says what failed.
  if (storage_failed(*gl_, "a buffer block")) {
    gl_->DeleteBuffers(1, &b.buffer);
    return Range{};
  }
  b.map = static_cast<uint8_t *>(gl_->MapNamedBufferRange(b.buffer, 0, GLsizeiptr(b.size),
                                                           GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT));
  if (!b.map) {
    log("buffer arena: cannot map %llu bytes", static_cast<unsigned long long>(b.size));
    gl_->DeleteBuffers(1, &b.buffer);
    return Range{};
  }
  b.ranges = novem::RangeAllocator(b.size);
  uint32_t index = uint32_t(blocks_.size());
  for (uint32_t i = 0; i < blocks_.size(); ++i)
    if (!blocks_[i].buffer) index = i; // reuse a released slot
  if (index == blocks_.size()) blocks_.push_back(std::move(b));
  else blocks_[index] = std::move(b);
  take(index, size, alignment, r);
  return r;
}

void BufferArena::give_back(const Range &range) {
  Block &b = blocks_[range.block];
  b.ranges.give_back(range.offset, range.size);
  // A block bigger than the standard size held one large buffer: give its memory back.
  if (b.size > kBlockSize && b.ranges.used() == 0) {
    gl_->UnmapNamedBuffer(b.buffer);
    gl_->DeleteBuffers(1, &b.buffer);
    b = Block{};
  }
}

void BufferArena::retire(const Range &range) {
  if (!range.buffer) return;
  if (!busy(range)) give_back(range);
  else retired_.push(range.last_use, range);
}

void BufferArena::end_serial() {
  fences_.emplace_back(serial_, gl_->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
  ++serial_;
}

void BufferArena::wait_oldest() {
  if (fences_.empty()) return;
  novem::bump(*waits_);
  GLenum r;
  do r = gl_->ClientWaitSync(fences_.front().second, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
  while (r == GL_TIMEOUT_EXPIRED);
}

void BufferArena::poll() {
  while (!fences_.empty()) {
    GLenum r = gl_->ClientWaitSync(fences_.front().second, 0, 0);
    if (r == GL_TIMEOUT_EXPIRED) break;
    // GL_WAIT_FAILED: the context is gone; treat the serial as done so nothing waits forever.
    completed_ = fences_.front().first;
    gl_->DeleteSync(fences_.front().second);
    fences_.pop_front();
  }
  retired_.release(completed_, [this](const Range &range) { give_back(range); });
}

} // namespace novem_gl
