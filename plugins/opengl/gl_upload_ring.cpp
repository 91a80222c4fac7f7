#include "gl_upload_ring.hpp"

#include "gl_log.hpp"

namespace novem_gl {

bool UploadRing::create(const NovemGL &gl, size_t size, size_t segments, size_t alignment, size_t tail) {
  gl_ = &gl;
  alignment_ = alignment ? alignment : 1;
  segment_size_ = size / segments / alignment_ * alignment_;
  fences_.assign(segments, nullptr);
  const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  gl.CreateBuffers(1, &buffer_);
  const size_t bytes = segment_size_ * segments + tail;
  gl.NamedBufferStorage(buffer_, GLsizeiptr(bytes), nullptr, flags);
  map_ = static_cast<uint8_t *>(gl.MapNamedBufferRange(buffer_, 0, GLsizeiptr(bytes), flags));
  cursor_ = segment_ = 0;
  return map_ != nullptr;
}

void UploadRing::destroy() {
  if (!gl_) return;
  for (GLsync &f : fences_)
    if (f) gl_->DeleteSync(f);
  fences_.clear();
  if (buffer_) {
    if (map_) gl_->UnmapNamedBuffer(buffer_);
    gl_->DeleteBuffers(1, &buffer_);
  }
  buffer_ = 0;
  map_ = nullptr;
  gl_ = nullptr;
}

size_t UploadRing::allocate(size_t bytes) {
  size_t offset = (cursor_ + alignment_ - 1) / alignment_ * alignment_;
  if (offset + bytes > (segment_ + 1) * segment_size_) {
    fences_[segment_] = gl_->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    segment_ = (segment_ + 1) % fences_.size();
    if (GLsync f = fences_[segment_]) {
      GLenum r = gl_->ClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
      if (r == GL_TIMEOUT_EXPIRED) {
        ++waits;
        do r = gl_->ClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
        while (r == GL_TIMEOUT_EXPIRED);
      }
      if (r == GL_WAIT_FAILED) log("constant ring: waiting for the GPU failed");
      gl_->DeleteSync(f);
      fences_[segment_] = nullptr;
    }
    offset = segment_ * segment_size_;
  }
  cursor_ = offset + bytes;
  return offset;
}

} // namespace novem_gl
