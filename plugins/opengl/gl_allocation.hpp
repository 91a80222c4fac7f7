// What GL answers when the plugin asks it for storage (glTextureStorage*, glNamedRenderbufferStorage*,
// glNamedBufferStorage). Past the context's limits such a call is invalid (GL_INVALID_VALUE), so an
// image past them is refused before any call; within them the driver may still run out
// (GL_OUT_OF_MEMORY: llvmpipe refuses textures past 2 GiB and buffers past 4 GiB), and then the
// object has no storage and is deleted. Either way the plugin makes nothing: a failed creation
// (novem/failed_creations.hpp, ABI 9), never a resource that silently lacks storage.
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "novem_gl.h"

namespace novem_gl {

struct StorageLimits {
  GLint texture_2d = 0, texture_cube = 0, texture_3d = 0, renderbuffer = 0;
  GLint samples = 0; // the smallest of GL_MAX_SAMPLES, _COLOR_TEXTURE_SAMPLES, _DEPTH_TEXTURE_SAMPLES

  static StorageLimits query(const NovemGL &gl);
  // Why an image of a's dimensions (3D: `depth` slices) cannot be made (nullptr: it can be asked
  // for). as_renderbuffer: it would be a renderbuffer (a depth image that is never sampled).
  const char *refuses(const nv_cmd_create_image &a, uint32_t depth, bool as_renderbuffer) const;
};

// Before a storage call: GL's error flags cleared, so that storage_failed() sees that call's
// errors alone. Errors found here belong to earlier calls (a held run of draws issued just
// before): they are logged as GL errors, as the executor's own check would have.
void clear_errors(const NovemGL &gl, const char *before);
// After a storage call: true when it made nothing. GL_OUT_OF_MEMORY is the driver's answer and
// is not logged here (the creation's one line says it); any other error is logged as a GL error.
bool storage_failed(const NovemGL &gl, const char *call);

} // namespace novem_gl
