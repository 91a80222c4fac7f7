// Opcode names for the plugins' error lines: one table, checked against nv_opcode's count.
#pragma once

#include <cstdint>
#include <iterator>

#include "novem/commands.h"

namespace novem {

inline const char *opcode_name(uint16_t op) {
  static constexpr const char *names[] = {
      "PAD",           "CREATE_BUFFER",    "DESTROY_BUFFER",    "UPDATE_BUFFER",     "CREATE_IMAGE",
      "DESTROY_IMAGE", "CREATE_SHADER",    "DESTROY_SHADER",    "SET_RENDER_TARGETS", "SET_VIEWPORT",
      "SET_SCISSOR",   "SET_PIPELINE",     "SET_VERTEX_BUFFER", "SET_CONSTANTS",     "CLEAR",
      "DRAW",          "READ_IMAGE",       "PRESENT",           "FENCE",             "SET_INDEX_BUFFER",
      "DRAW_INDEXED",  "UPDATE_IMAGE",     "SET_TEXTURE",       "SET_DYNAMIC_STATE", "BEGIN_QUERY",
      "END_QUERY",     "BLIT_IMAGE",       "FILL_IMAGE",        "GENERATE_MIPS",     "UPDATE_CONSTANTS",
      "CREATE_SWAPCHAIN", "DESTROY_SWAPCHAIN", "SET_RENDER_STATES"};
  static_assert(std::size(names) == NV_OP_COUNT, "a name for every opcode");
  return op < NV_OP_COUNT ? names[op] : "unknown";
}

} // namespace novem
