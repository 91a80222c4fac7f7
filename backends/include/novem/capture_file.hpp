// The capture file: a device's command stream as its plugin saw it (NOVEM_CAPTURE), replayed on
// any plugin by novem-replay. docs/capture.md says what is in it and why.
//
// A file is a FileHeader, then the ring's records one after another, each exactly as it was in
// the ring: an nv_cmd_header (opcode, size), the argument struct and its payload (bytes, rectangles,
// SPIR-V words), padded to NV_CMD_ALIGN. No record holds a pointer the replay must follow, and the
// handles are the frontend's own, so the records need no translation to be replayed. A PRESENT
// record ends a frame. The records start at the device's creation, whatever frames were asked for.
//
// read() checks everything a plugin would otherwise trust: the header (magic, format version,
// ABI version, ring size), and for each record its opcode, that it lies inside the file, that its
// size holds its arguments and the payload they announce (the image an UPDATE_IMAGE writes is
// known from its CREATE_IMAGE), and that it is no larger than the capturing ring allowed. It does
// not check what the arguments mean (a rectangle inside its image, a handle that exists): the
// frontend checked those before they were captured.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "novem/backend.h"
#include "novem/command_table.hpp"
#include "novem/image_layout.hpp"

namespace novem::capture {

inline constexpr char kMagic[8] = {'N', 'O', 'V', 'E', 'M', 'C', 'A', 'P'};
// Bumped whenever the header or the way records are stored changes. A change of the records
// themselves bumps NV_BACKEND_ABI_VERSION, which the header also holds.
inline constexpr uint32_t kFormatVersion = 2;

struct FileHeader {
  char magic[8];
  uint32_t format_version; // kFormatVersion of the writer
  uint32_t abi_version;    // NV_BACKEND_ABI_VERSION of the frontend that wrote the records
  uint64_t ring_capacity;  // the capturing ring's bytes: no record is larger than a quarter of it
  uint64_t first_frame;    // the frames asked for (NOVEM_CAPTURE_FRAMES), from 1
  uint64_t last_frame;     // 0: every frame until the device was destroyed
  char plugin[32];         // the plugin that executed them ("vulkan", "opengl", "null"), NUL-padded
  uint32_t device_flags;   // the device's nv_device_desc.flags, which the replay's device is made with
  uint32_t reserved;       // 0
};
static_assert(sizeof(FileHeader) == 80);

// The ring sizes a frontend can have (NOVEM_RING_SIZE's bounds).
inline constexpr uint64_t kMinRing = uint64_t(1) << 20, kMaxRing = uint64_t(1) << 30;

// Each opcode's argument struct size, made from the command list, and the largest.
#define NOVEM_ARGS_SIZE(NAME, name, run) sizeof(nv_cmd_##name),
inline constexpr size_t kArgsSizes[NV_OP_COUNT] = {0, NV_COMMANDS(NOVEM_ARGS_SIZE)};
#undef NOVEM_ARGS_SIZE
inline constexpr size_t kLargestArgs = *std::max_element(std::begin(kArgsSizes), std::end(kArgsSizes));
inline size_t args_size(uint16_t op) { return op < NV_OP_COUNT ? kArgsSizes[op] : 0; }

// The images the records made so far, as their CREATE_IMAGE described them.
class Images {
public:
  void apply(const nv_cmd_header *h) {
    if (h->opcode == NV_OP_CREATE_IMAGE) {
      const auto &a = command_args<nv_cmd_create_image>(h);
      images_[a.image] = a;
    } else if (h->opcode == NV_OP_DESTROY_IMAGE) {
      images_.erase(command_args<nv_cmd_destroy_image>(h).image);
    }
  }
  const nv_cmd_create_image *find(uint32_t image) const {
    auto it = images_.find(image);
    return it == images_.end() ? nullptr : &it->second;
  }

private:
  std::unordered_map<uint32_t, nv_cmd_create_image> images_;
};

// The payload bytes a record's arguments announce; false when they name nothing it can be sized by.
inline bool payload_bytes(const nv_cmd_header *h, const Images &images, uint64_t &bytes, std::string &why) {
  switch (h->opcode) {
  case NV_OP_UPDATE_BUFFER: bytes = command_args<nv_cmd_update_buffer>(h).size; return true;
  case NV_OP_CREATE_SHADER: bytes = uint64_t(command_args<nv_cmd_create_shader>(h).word_count) * 4; return true;
  case NV_OP_SET_CONSTANTS: bytes = command_args<nv_cmd_set_constants>(h).size; return true;
  case NV_OP_UPDATE_CONSTANTS: bytes = command_args<nv_cmd_update_constants>(h).size; return true;
  case NV_OP_CLEAR: bytes = uint64_t(command_args<nv_cmd_clear>(h).rect_count) * sizeof(nv_rect); return true;
  case NV_OP_UPDATE_IMAGE: {
    const auto &a = command_args<nv_cmd_update_image>(h);
    const nv_cmd_create_image *image = images.find(a.image);
    if (!image) {
      why = "writes image " + std::to_string(a.image) + ", which no CREATE_IMAGE made";
      return false;
    }
    if (a.rect.width < 0 || a.rect.height < 0 || !image_layout(image->format).block_bytes) {
      why = "has a negative rectangle or an image without a memory layout";
      return false;
    }
    const uint64_t rows = image_block_rows(image->format, uint32_t(a.rect.height));
    const uint64_t row = image_row_bytes(image->format, uint32_t(a.rect.width));
    bytes = rows ? (rows - 1) * (a.row_pitch ? a.row_pitch : row) + row : 0;
    return true;
  }
  default: bytes = 0; return true;
  }
}

// A capture read into memory: its header and where each record starts.
struct Capture {
  FileHeader header{};
  std::vector<size_t> records; // offsets into the file's bytes
  uint64_t frames = 0;         // PRESENT records
};

// Reads `size` bytes of a capture file; false with one line in `why` (no file name) when they
// are not a capture this build can replay.
inline bool read(const uint8_t *data, size_t size, Capture &out, std::string &why) {
  FileHeader &h = out.header;
  if (size < sizeof h) {
    why = "shorter than a capture header (" + std::to_string(size) + " bytes)";
    return false;
  }
  std::memcpy(&h, data, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    why = "not a Novem capture (no NOVEMCAP at its start)";
    return false;
  }
  if (h.format_version != kFormatVersion) {
    why = "capture format version " + std::to_string(h.format_version) + " is " +
          (h.format_version < kFormatVersion ? "older" : "newer") + " than this build's (" +
          std::to_string(kFormatVersion) + "): capture it again with this Novem";
    return false;
  }
  if (h.abi_version != NV_BACKEND_ABI_VERSION) {
    why = "recorded with plugin ABI version " + std::to_string(h.abi_version) + ", this build speaks " +
          std::to_string(NV_BACKEND_ABI_VERSION) + ": capture it again with this Novem";
    return false;
  }
  if (h.ring_capacity < kMinRing || h.ring_capacity > kMaxRing || (h.ring_capacity & (h.ring_capacity - 1))) {
    why = "its ring size " + std::to_string(h.ring_capacity) + " is not a power of two from 1 MiB to 1 GiB";
    return false;
  }
  Images images;
  size_t at = sizeof h;
  for (uint64_t n = 1; at < size; ++n) {
    const std::string record = "record " + std::to_string(n) + " at byte " + std::to_string(at);
    nv_cmd_header rh;
    if (size - at < sizeof rh) {
      why = "truncated: " + record + " has no whole header";
      return false;
    }
    std::memcpy(&rh, data + at, sizeof rh);
    if (rh.opcode == NV_OP_PAD || rh.opcode >= NV_OP_COUNT) {
      why = record + " has no command's opcode (" + std::to_string(rh.opcode) + ")";
      return false;
    }
    const std::string named = record + " (" + opcode_name(rh.opcode) + ")";
    const size_t fixed = sizeof rh + args_size(rh.opcode);
    if (rh.size % NV_CMD_ALIGN || rh.size < fixed || rh.size > h.ring_capacity / 4) {
      why = named + " has size " + std::to_string(rh.size) + ", not a record of that command";
      return false;
    }
    if (rh.size > size - at) {
      why = "truncated: " + named + " needs " + std::to_string(rh.size) + " bytes, " + std::to_string(size - at) +
            " are left";
      return false;
    }
    // The header and arguments are copied out: the file's bytes need not be aligned.
    alignas(16) uint8_t fixed_part[sizeof(nv_cmd_header) + kLargestArgs];
    std::memcpy(fixed_part, data + at, fixed);
    const auto *copy = reinterpret_cast<const nv_cmd_header *>(fixed_part);
    uint64_t payload = 0;
    std::string what;
    if (!payload_bytes(copy, images, payload, what)) {
      why = named + " " + what;
      return false;
    }
    if (payload > rh.size - fixed) {
      why = named + " announces " + std::to_string(payload) + " payload bytes and holds " +
            std::to_string(rh.size - fixed);
      return false;
    }
    images.apply(copy);
    out.frames += rh.opcode == NV_OP_PRESENT;
    out.records.push_back(at);
    at += rh.size;
  }
  return true;
}

} // namespace novem::capture
