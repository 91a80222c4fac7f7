// Runs of draws a plugin may record as one multi-draw; shared by the plugins.
//
// A draw that follows a draw with no other command between them needs nothing prepared: no state
// can have changed. A plugin may therefore hold such a run and record it as one multi-draw
// (vkCmdDrawMulti*EXT, glMultiDraw*), which llvmpipe runs as one draw, as Gallium's threaded
// context merges consecutive draws. Any other command ends the run, except an UPDATE_BUFFER
// with NV_UPDATE_NO_OVERWRITE: it never moves the buffer, and by D3D9's contract
// (D3DLOCK_NOOVERWRITE) writes no byte a queued draw reads, so DrawPrimitiveUP and dynamic
// buffers appended with NOOVERWRITE keep their runs. Nor does SET_VERTEX_BUFFER end it here:
// the plugin decides at the next draw, which joins the run when the new binding is a vertex
// shift of the bound one (novem/vertex_shift.hpp) and records the run first otherwise.
#pragma once

#include "novem/ring.hpp"

namespace novem {

// Whether command h must see the draws held so far recorded first.
inline bool ends_draw_run(const nv_cmd_header *h) {
  if (h->opcode == NV_OP_DRAW || h->opcode == NV_OP_DRAW_INDEXED || h->opcode == NV_OP_SET_VERTEX_BUFFER) return false;
  return h->opcode != NV_OP_UPDATE_BUFFER || !(command_args<nv_cmd_update_buffer>(h).flags & NV_UPDATE_NO_OVERWRITE);
}

} // namespace novem
