// The images and buffers a plugin could not make, and what later commands naming them do:
// one policy for every plugin, so that a program meets the same outcome on each.
//
// A CREATE_IMAGE or CREATE_BUFFER that makes nothing (the driver is out of memory, or the
// resource is past a limit the API sets) is reported in the channel (nv_channel::failed_image,
// failed_buffer) and remembered here until its DESTROY or a new CREATE of the handle. The plugin
// logs the one line that says why; every later command naming the handle is quiet and makes no
// API call with it:
//  - UPDATE_BUFFER, UPDATE_IMAGE, GENERATE_MIPS, FILL_IMAGE, READ_IMAGE (the readback area keeps
//    what it held) and BLIT_IMAGE (from or into it) do nothing (skips());
//  - while SET_RENDER_TARGETS names it, CLEAR and the draws draw nothing (names_target());
//  - a draw whose pipeline reads a vertex-buffer slot bound to it, or an indexed draw whose index
//    buffer it is, draws nothing (reads_buffer());
//  - SET_TEXTURE of it samples what a slot with no image samples, (0, 0, 0, 1);
//  - PRESENT of it shows nothing (a frame boundary all the same).
// The frontend never names such a handle once it has the answer; these rules are for the
// creations it does not wait for, and for programs driving the ABI directly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "novem/channel.hpp"
#include "novem/commands.h"

namespace novem {

class FailedCreations {
public:
  // Nothing failed (the common case: every check below starts here).
  bool none() const { return images_.empty() && buffers_.empty(); }

  void fail_image(nv_channel &channel, uint32_t image) {
    images_.insert(image);
    channel.report_failed_image(image);
  }
  void fail_buffer(nv_channel &channel, uint32_t buffer) {
    buffers_.insert(buffer);
    channel.report_failed_buffer(buffer);
  }
  // At a DESTROY, and at a CREATE of the handle (which may succeed this time).
  void forget_image(uint32_t image) {
    if (!images_.empty()) images_.erase(image);
  }
  void forget_buffer(uint32_t buffer) {
    if (!buffers_.empty()) buffers_.erase(buffer);
  }

  bool image(uint32_t handle) const { return handle && images_.count(handle) != 0; }
  bool buffer(uint32_t handle) const { return handle && buffers_.count(handle) != 0; }

  // The command acts on a failed image or buffer and does nothing (see above).
  bool skips(const nv_cmd_header *h) const {
    if (none()) return false;
    switch (h->opcode) {
    case NV_OP_UPDATE_BUFFER: return buffer(command_args<nv_cmd_update_buffer>(h).buffer);
    case NV_OP_UPDATE_IMAGE: return image(command_args<nv_cmd_update_image>(h).image);
    case NV_OP_GENERATE_MIPS: return image(command_args<nv_cmd_generate_mips>(h).image);
    case NV_OP_FILL_IMAGE: return image(command_args<nv_cmd_fill_image>(h).image);
    case NV_OP_READ_IMAGE: return image(command_args<nv_cmd_read_image>(h).image);
    case NV_OP_BLIT_IMAGE: {
      const nv_cmd_blit_image &a = command_args<nv_cmd_blit_image>(h);
      return image(a.src) || image(a.dst);
    }
    default: return false;
    }
  }

  // SET_RENDER_TARGETS names a failed image: clears and draws draw nothing until the next one.
  bool names_target(const nv_cmd_set_render_targets &t) const {
    if (images_.empty()) return false;
    if (image(t.color) || image(t.depth_stencil)) return true;
    for (uint32_t c : t.more_colors)
      if (image(c)) return true;
    return false;
  }

  // A draw with pipeline `desc` reads a vertex-buffer slot whose buffer (slot_buffer(slot))
  // failed, or (indexed) its index buffer failed: it draws nothing.
  template <class SlotBuffer>
  bool reads_buffer(const nv_pipeline_desc &desc, SlotBuffer slot_buffer, uint32_t index_buffer = 0) const {
    if (buffers_.empty()) return false;
    if (buffer(index_buffer)) return true;
    const uint32_t count = std::min<uint32_t>(desc.attribute_count, NV_MAX_VERTEX_ATTRIBUTES);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t slot = desc.attributes[i].binding;
      if (slot < NV_MAX_VERTEX_BUFFERS && buffer(slot_buffer(slot))) return true;
    }
    return false;
  }

private:
  std::unordered_set<uint32_t> images_, buffers_;
};

} // namespace novem
