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

#include <cstddef>
#include <cstdint>

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

// The run a plugin holds: what its draws share, and the draws in the plugin's own form (`Draws`:
// a list with size() and clear(), to which the plugin adds a draw its own way).
template <class Draws> struct HeldDraws {
  Draws draws;
  bool indexed = false;
  uint32_t instances = 1;
  // SET_VERTEX_BUFFER changed a binding after the run's last draw: the next draw joins the run
  // only if the new bindings are a vertex shift of the bound ones (vertex_shift.hpp).
  bool vertex_moved = false;
  // The run is the frontend's own drawing (NV_CMD_OVERLAY), counted apart. Its draws follow
  // their own SET_PIPELINE and come before a PRESENT, so no run mixes them with the program's.
  bool overlay = false;

  bool empty() const { return draws.size() == 0; }
  // Whether a draw joins the run: it holds draws of the same kind and instance count, fewer than `most`.
  bool joins(bool is_indexed, uint32_t instance_count, size_t most) const {
    return !empty() && indexed == is_indexed && instances == instance_count && draws.size() < most;
  }
  // A SET_VERTEX_BUFFER changed a binding.
  void vertex_buffer_set() {
    if (!empty()) vertex_moved = true;
  }
  // The run was recorded.
  void clear() {
    draws.clear();
    vertex_moved = false;
  }
};

} // namespace novem
