// The two framebuffer objects BLIT_IMAGE reads and draws through (glBlitNamedFramebuffer
// between any levels of two colour textures); FILL_IMAGE needs none (glClearTexSubImage).
#pragma once

#include "novem_gl.h"

namespace novem_gl {

struct CopyFramebuffers {
  GLuint read = 0, draw = 0;
  void create(const NovemGL &gl) { gl.CreateFramebuffers(1, &read), gl.CreateFramebuffers(1, &draw); }
  void destroy(const NovemGL &gl) {
    if (read) gl.DeleteFramebuffers(1, &read);
    if (draw) gl.DeleteFramebuffers(1, &draw);
    read = draw = 0;
  }
};

} // namespace novem_gl
