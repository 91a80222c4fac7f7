// The producer side of a device's channel: owns the channel and the plugin's device, allocates
// handles and pushes commands. Every method runs on the application thread.
#pragma once

#include <cstring>
#include <memory>
#include <string>

#include "capture.hpp"
#include "novem/channel.hpp"
#include "plugin_loader.hpp"

namespace novem {

class CommandStream {
public:
  // Starts the plugin's device (flags: nv_device_flags). On failure, ok() is false and error()
  // says why in one line.
  CommandStream(const LoadedPlugin &plugin, void *window, uint32_t flags);
  ~CommandStream(); // executes everything queued, stops the plugin's thread
  CommandStream(const CommandStream &) = delete;
  CommandStream &operator=(const CommandStream &) = delete;

  bool ok() const { return device_ != nullptr; }
  const std::string &error() const { return error_; }
  nv_channel &channel() { return *channel_; }

  uint32_t new_handle() { return ++last_handle_; }

  // A command, named by its argument struct (novem/command_table.hpp).
  template <CommandArgs Args> void push(const Args &args) {
    *begin<Args>(0) = args;
    commit();
  }
  // A command whose payload the caller writes into the returned struct's tail before commit().
  template <CommandArgs Args> Args *begin(size_t payload_bytes) {
    return ring_begin<Args>(channel_->ring, payload_bytes, header_flags_);
  }
  // While on, the commands pushed are the frontend's own drawing (the HUD), which the plugin
  // counts apart from the application's (NV_CMD_OVERLAY).
  void set_overlay(bool on) { header_flags_ = on ? NV_CMD_OVERLAY : 0; }
  // Ends the command; the plugin's thread sees commands in batches of kBatchBytes (ring.hpp says
  // why), and at every fence, wait and flush.
  void commit() {
    CommandRing &ring = channel_->ring;
    if (capture_) [[unlikely]]
      capture_->record(ring.unstaged());
    ring.stage();
    if (ring.unpublished_bytes() >= kBatchBytes) [[unlikely]]
      publish_batch();
  }
  // Hands every command pushed so far to the plugin's thread, and wakes it.
  void flush() { channel_->ring.flush(); }

  // Largest payload one record can carry after an argument struct of `args_size` bytes.
  size_t max_payload(size_t args_size) const {
    return channel_->ring.max_record_size() - sizeof(nv_cmd_header) - args_size;
  }

  // Sends bytes into a buffer, split into as many UPDATE_BUFFER records as the ring needs.
  void update_buffer(uint32_t buffer, uint64_t offset, const void *data, size_t size, uint32_t flags);

  // Sends a rectangle of texels of an image of nv_format `format` (rows of texels, or of 4x4
  // blocks, src_pitch bytes apart, top first; x and y block-aligned) into a level of it, split into
  // as many tightly packed UPDATE_IMAGE records as the ring needs.
  // layer: the face of a cube image, the z slice of a 3D one. flags: nv_update_flags;
  // NV_UPDATE_DISCARD goes with the first record only (the others must keep its texels).
  void update_image(uint32_t image, uint32_t format, uint32_t level, uint32_t layer, int32_t x, int32_t y,
                    uint32_t width, uint32_t height, const uint8_t *src, size_t src_pitch, uint32_t flags = 0);

  // Pushes a FENCE (and flushes) and returns its value; wait() blocks until the plugin has
  // completed it.
  uint64_t fence();
  void wait(uint64_t value) {
    flush();
    channel_->wait_fence(value);
  }
  void finish() { wait(fence()); }
  // The value the next fence() will push: work pushed now completes with it.
  uint64_t next_fence() const { return last_fence_ + 1; }
  bool completed(uint64_t value) const { return channel_->completed_fence.load(std::memory_order_acquire) >= value; }

private:
  // About 2000 plain draws, or 220 draws that each change a render state (SET_PIPELINE is 256
  // bytes). A batch costs one release store and, when the plugin's thread sleeps, a futex
  // wake-up: microseconds on the application thread. On the null plugin, whose thread sleeps
  // after each batch, 4 KiB batches measured 5-8x slower per draw than 16 KiB, and 64 KiB took
  // the render-state workload from 90-177 to 59-139 ns per draw against 16 KiB (alternating
  // runs); the real plugins, whose threads are behind and seldom sleep, did not move. A batch
  // delays only an idle plugin thread, by some tens of microseconds at most.
  static constexpr uint64_t kBatchBytes = 65536;

  // Out of line, so that commit() stays small enough to be inlined into every command's push: a
  // batch is published once per kBatchBytes of commands.
  [[gnu::noinline]] void publish_batch() { channel_->ring.publish(); }

  const nv_plugin *plugin_;
  uint16_t header_flags_ = 0; // nv_cmd_flags of every command begun (set_overlay)
  std::unique_ptr<nv_channel> channel_;
  nv_device *device_ = nullptr;
  std::string error_;
  std::unique_ptr<CaptureWriter> capture_; // NOVEM_CAPTURE
  uint32_t last_handle_ = 0;
  uint64_t last_fence_ = 0;
};

} // namespace novem
