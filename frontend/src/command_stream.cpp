#include "command_stream.hpp"

#include <algorithm>
#include <cstdlib>

namespace novem {

namespace {

// NOVEM_RING_SIZE (bytes, rounded up to a power of two) or 4 MiB.
size_t ring_capacity() {
  size_t want = size_t(4) << 20;
  if (const char *env = std::getenv("NOVEM_RING_SIZE")) want = std::max<size_t>(std::strtoull(env, nullptr, 0), 4096);
  size_t capacity = 4096;
  while (capacity < want) capacity <<= 1;
  return capacity;
}

} // namespace

CommandStream::CommandStream(const LoadedPlugin &plugin, void *window)
    : plugin_(plugin.plugin), channel_(std::make_unique<nv_channel>(ring_capacity())) {
  nv_device_desc desc{sizeof(nv_device_desc), 0, window};
  char message[512] = "";
  device_ = plugin_->create_device(&desc, channel_.get(), message, sizeof message);
  if (!device_) error_ = std::string("backend '") + plugin_->name + "' could not create a device: " + message;
}

CommandStream::~CommandStream() {
  if (device_) plugin_->destroy_device(device_);
}

void CommandStream::update_buffer(uint32_t buffer, uint64_t offset, const void *data, size_t size,
                                  uint32_t flags) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  const size_t chunk = max_payload(sizeof(nv_cmd_update_buffer)) & ~size_t(15);
  do {
    size_t n = std::min(size, chunk);
    auto *args = begin<nv_cmd_update_buffer>(NV_OP_UPDATE_BUFFER, n);
    *args = nv_cmd_update_buffer{buffer, flags, offset, n};
    std::memcpy(command_payload(args), bytes, n);
    commit();
    // Only the first chunk may discard: the rest add to what it wrote.
    flags &= ~uint32_t(NV_UPDATE_DISCARD);
    bytes += n;
    offset += n;
    size -= n;
  } while (size > 0);
}

uint64_t CommandStream::fence() {
  push(NV_OP_FENCE, nv_cmd_fence{++last_fence_});
  return last_fence_;
}

} // namespace novem
