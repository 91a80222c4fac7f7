// What the counting plugin (counting_plugin.cpp) records of the data commands it executes, and
// the functions a test finds in it with dlsym: every UPDATE_BUFFER and UPDATE_IMAGE, with the
// draws executed before it and the first bytes of its payload. Tests read from it which bytes
// and rectangles a lock, an unlock or UpdateTexture sent, and whether they came before a draw.
#pragma once

#include <cstdint>

#include <novem/commands.h>

struct CountingUpdate {
  uint32_t opcode = 0; // NV_OP_UPDATE_BUFFER or NV_OP_UPDATE_IMAGE
  uint32_t target = 0; // the buffer or image handle
  uint32_t flags = 0;  // nv_update_flags
  uint64_t offset = 0, size = 0; // UPDATE_BUFFER: where and how many bytes
  nv_rect rect{};                // UPDATE_IMAGE: the texels written
  uint32_t level = 0, layer = 0; // UPDATE_IMAGE
  uint64_t draws_before = 0;     // DRAW and DRAW_INDEXED commands executed before this one
  static constexpr uint32_t kBytesKept = 64;
  uint8_t bytes[kBytesKept] = {}; // the payload's first bytes
};

// Exported by the counting plugin (extern "C"): the records so far, and forgetting them.
using CountingUpdatesFn = uint64_t (*)(CountingUpdate *out, uint64_t capacity);
using CountingForgetFn = void (*)();
