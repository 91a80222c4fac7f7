// The C++ side of the command vocabulary (commands.h's NV_COMMANDS list): each opcode's argument
// struct and draw-run rule, the trait that gives each struct its opcode (so that a command is
// pushed by its struct alone), the opcodes' names, and the handlers of an executor that executes
// every command. Nothing here is written per command: a new NV_COMMANDS line is all it needs.
#pragma once

#include <cstdint>

#include "novem/commands.h"

namespace novem {

// The argument struct that follows a record's header, and the payload after it.
template <class Args> inline const Args &command_args(const nv_cmd_header *h) {
  return *reinterpret_cast<const Args *>(h + 1);
}
template <class Args> inline const void *command_payload(const nv_cmd_header *h) {
  return reinterpret_cast<const uint8_t *>(h + 1) + sizeof(Args);
}
template <class Args> inline void *command_payload(Args *args) { return args + 1; }
// The bytes a record holds after its arguments (the worker has seen that it holds those).
template <class Args> inline uint64_t payload_bytes(const nv_cmd_header *h) {
  return h->size - sizeof(nv_cmd_header) - sizeof(Args);
}

// How a command treats the run of draws a plugin holds (novem/draw_run.hpp).
enum class DrawRun : uint8_t { ends, draw, kept, unless_no_overwrite };

// Command<NV_OP_X>: Args (nv_cmd_x), kDrawRun, whether an executor has a handler for it
// (kHandledBy), and the call of that handler on a record.
template <nv_opcode Op> struct Command;
// CommandOf<nv_cmd_x>::kOpcode is NV_OP_X; other types have none.
template <class Args> struct CommandOf;

#define NOVEM_COMMAND_TRAITS(NAME, name, run)                                                        \
  template <> struct Command<NV_OP_##NAME> {                                                         \
    using Args = nv_cmd_##name;                                                                      \
    static constexpr DrawRun kDrawRun = DrawRun::run;                                                \
    template <class Executor>                                                                        \
    static constexpr bool kHandledBy = requires(Executor &ex, const Args &a, const nv_cmd_header *h) { \
      ex.name(a, h);                                                                                 \
    };                                                                                               \
    template <class Executor> static void call(Executor &ex, const nv_cmd_header *h) {               \
      ex.name(command_args<Args>(h), h);                                                             \
    }                                                                                                \
  };                                                                                                 \
  template <> struct CommandOf<nv_cmd_##name> {                                                      \
    static constexpr nv_opcode kOpcode = NV_OP_##NAME;                                               \
  };
NV_COMMANDS(NOVEM_COMMAND_TRAITS)
#undef NOVEM_COMMAND_TRAITS

// A command's argument struct: the only types a ring record can be made of.
template <class Args> concept CommandArgs = requires { CommandOf<Args>::kOpcode; };
template <CommandArgs Args> inline constexpr nv_opcode opcode_of = CommandOf<Args>::kOpcode;

// Every opcode's name, for the plugins' error lines.
inline const char *opcode_name(uint16_t op) {
#define NOVEM_COMMAND_NAME(NAME, name, run) #NAME,
  static constexpr const char *names[NV_OP_COUNT] = {"PAD", NV_COMMANDS(NOVEM_COMMAND_NAME)};
#undef NOVEM_COMMAND_NAME
  return op < NV_OP_COUNT ? names[op] : "unknown";
}

// Whether an executor has a handler for every command: a full plugin's must.
#define NOVEM_COMMAND_HANDLED(NAME, name, run) &&Command<NV_OP_##NAME>::template kHandledBy<Executor>
template <class Executor> inline constexpr bool kHandlesEveryCommand = true NV_COMMANDS(NOVEM_COMMAND_HANDLED);
#undef NOVEM_COMMAND_HANDLED

} // namespace novem

// Inside an executor's class (public): `void name(const nv_cmd_name &, const nv_cmd_header *);`
// for every command, each defined by the plugin.
#define NOVEM_DECLARE_COMMAND_HANDLER(NAME, name, run) void name(const nv_cmd_##name &a, const nv_cmd_header *h);
#define NOVEM_COMMAND_HANDLERS NV_COMMANDS(NOVEM_DECLARE_COMMAND_HANDLER)
