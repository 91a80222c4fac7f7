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
// Each command's rule is its DrawRun in commands.h's NV_COMMANDS list.
#pragma once

#include "novem/command_table.hpp"

namespace novem {

// Whether command h (of opcode Op) must see the draws held so far recorded first.
template <nv_opcode Op> bool ends_draw_run([[maybe_unused]] const nv_cmd_header *h) {
  constexpr DrawRun rule = Command<Op>::kDrawRun;
  if constexpr (rule == DrawRun::ends) return true;
  else if constexpr (rule == DrawRun::unless_no_overwrite)
    return !(command_args<typename Command<Op>::Args>(h).flags & NV_UPDATE_NO_OVERWRITE);
  else return false;
}

} // namespace novem
