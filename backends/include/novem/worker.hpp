// The submission thread's loop, shared by every plugin.
//
// A plugin's executor owns the API context and supplies:
//   static constexpr DispatchTable<Executor> table();   one small function per opcode
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

// Adapts `void Executor::fn(const Args&, const nv_cmd_header*)` to a table entry.
template <class Executor, class Args, void (Executor::*Fn)(const Args &, const nv_cmd_header *)>
void handler(Executor &ex, const nv_cmd_header *h) {
  (ex.*Fn)(command_args<Args>(h), h);
}

template <class Executor> void run_worker(nv_channel &channel, Executor &ex) {
  static constexpr DispatchTable<Executor> table = Executor::table();
  CommandRing &ring = channel.ring;
  unsigned since_poll = 0;
  for (;;) {
    if (const nv_cmd_header *h = ring.peek()) {
      if (h->opcode < NV_OP_COUNT && table[h->opcode]) table[h->opcode](ex, h);
      bump(channel.executed[h->opcode < NV_OP_COUNT ? h->opcode : 0]); // this thread is its one writer
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
