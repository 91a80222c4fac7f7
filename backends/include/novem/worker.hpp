// The submission thread's loop, shared by every plugin.
//
// A plugin's executor owns the API context and supplies:
//   void name(const nv_cmd_name &, const nv_cmd_header *);   a handler per command it executes
//     (NOVEM_COMMAND_HANDLERS declares all of them); commands without one are only counted
//   template <nv_opcode Op> static void execute(Executor &, const nv_cmd_header *);   optional:
//     what the executor does around every handler (draw runs, checks), calling
//     Command<Op>::call(ex, h) for the handler itself
//   bool poll();     retires finished GPU work (signalling fences); true while some is pending
//   static constexpr unsigned kCommandsPerPoll;   how many commands run between two polls
//   void wait_gpu(); blocks a short while (about a millisecond) for pending GPU work
//   void idle();     called when the ring runs dry: submit what is recorded
// The loop executes commands as they arrive, retires GPU work every kCommandsPerPoll commands
// and whenever the ring runs dry, and sleeps only when there is neither a command nor pending
// GPU work. A frame of 1000 draws is about 3000 commands, and asking the API whether a fence has
// signalled is not free, so an executor may poll less often than after every command.
#pragma once

#include <array>

#include "novem/channel.hpp"

namespace novem {

template <class Executor> using CommandHandler = void (*)(Executor &, const nv_cmd_header *);
template <class Executor> using DispatchTable = std::array<CommandHandler<Executor>, NV_OP_COUNT>;

// An executor that wraps its handlers in an execute<Op> of its own.
template <class Executor> concept WrapsCommands = requires { &Executor::template execute<NV_OP_FENCE>; };

template <class Executor, nv_opcode Op> void execute_plain(Executor &ex, const nv_cmd_header *h) {
  Command<Op>::call(ex, h);
}

template <class Executor, nv_opcode Op> constexpr CommandHandler<Executor> dispatch_entry() {
  if constexpr (!Command<Op>::template kHandledBy<Executor>) return nullptr;
  else if constexpr (WrapsCommands<Executor>) return &Executor::template execute<Op>;
  else return &execute_plain<Executor, Op>;
}

// The executor's table, one entry per command of NV_COMMANDS: its handler, or none.
template <class Executor> constexpr DispatchTable<Executor> dispatch_table() {
  DispatchTable<Executor> t{};
#define NOVEM_DISPATCH_ENTRY(NAME, name, run) t[NV_OP_##NAME] = dispatch_entry<Executor, NV_OP_##NAME>();
  NV_COMMANDS(NOVEM_DISPATCH_ENTRY)
#undef NOVEM_DISPATCH_ENTRY
  return t;
}

template <class Executor> void run_worker(nv_channel &channel, Executor &ex) {
  static constexpr DispatchTable<Executor> table = dispatch_table<Executor>();
  CommandRing &ring = channel.ring;
  unsigned since_poll = 0;
  for (;;) {
    if (const nv_cmd_header *h = ring.peek()) {
      if (h->opcode < NV_OP_COUNT && table[h->opcode]) table[h->opcode](ex, h);
      const uint16_t counted = h->opcode < NV_OP_COUNT ? h->opcode : 0; // this thread is their one writer
      bump(h->flags & NV_CMD_OVERLAY ? channel.overlay_executed[counted] : channel.executed[counted]);
      ring.pop(h);
      if (++since_poll == Executor::kCommandsPerPoll) {
        since_poll = 0;
        ex.poll();
      }
      continue;
    }
    since_poll = 0;
    ex.idle();
    if (ex.poll()) {
      ex.wait_gpu();
      continue;
    }
    if (!ring.wait_for_work()) break;
  }
  while (ex.poll()) ex.wait_gpu();
}

} // namespace novem
