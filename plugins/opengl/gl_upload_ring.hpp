// A persistently mapped, coherent buffer (ARB_buffer_storage) that SET_CONSTANTS writes into
// without a GL call: each write takes the next aligned slice and is bound with
// glBindBufferRange. The ring is cut into segments; leaving a segment puts a fence behind the
// draws that read it, and entering a segment again waits for that fence (counted in waits).
// So no draw ever sees its constants overwritten and the CPU never stalls the GPU's queue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "novem_gl.h"

namespace novem_gl {

class UploadRing {
public:
  // size: bytes in all; segments: how many pieces; alignment: GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT;
  // tail: bytes past the last segment that a range bound from an allocation may cover (a
  // uniform block is bound whole while only what the shader reads is allocated and written).
  bool create(const NovemGL &gl, size_t size, size_t segments, size_t alignment, size_t tail);
  void destroy();

  // The offset of `bytes` (at most segment_size()) that the caller may write at data() + offset.
  size_t allocate(size_t bytes);
  uint8_t *data() const { return map_; }
  GLuint buffer() const { return buffer_; }
  size_t segment_size() const { return segment_size_; }

  uint64_t waits = 0; // times entering a segment had to wait for the GPU

private:
  const NovemGL *gl_ = nullptr;
  GLuint buffer_ = 0;
  uint8_t *map_ = nullptr;
  size_t segment_size_ = 0, alignment_ = 1, cursor_ = 0, segment_ = 0;
  std::vector<GLsync> fences_; // per segment: signalled when the draws that read it are done
};

} // namespace novem_gl
