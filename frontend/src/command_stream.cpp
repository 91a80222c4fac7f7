#include "command_stream.hpp"

#include "novem/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "log.hpp"

#include "novem/image_layout.hpp"

namespace novem {

namespace {

// NOVEM_RING_SIZE: bytes, rounded up to a power of two within [1 MiB, 1 GiB]; 4 MiB when unset.
// A record may take a quarter of the ring, so the smallest ring still carries every record of a
// fixed size and shaders of up to 256 KiB of SPIR-V (larger ones ask for a larger ring: see
// fits_record). A value that is not a size, or is out of range, is one line and the default or
// the bound.
size_t ring_capacity() {
  constexpr size_t kDefault = size_t(4) << 20, kMin = size_t(1) << 20, kMax = size_t(1) << 30;
  const Options &options = process_options();
  const char *env = options.value("NOVEM_RING_SIZE");
  if (!env || !*env) return kDefault;
  char *end = nullptr;
  errno = 0;
  const unsigned long long want = std::strtoull(env, &end, 0);
  if (std::strchr(env, '-') || end == env || *end || errno == ERANGE) {
    log_warn("NOVEM_RING_SIZE=%s is not a number of bytes: using %zu", env, kDefault);
    return kDefault;
  }
  const size_t bounded = size_t(std::clamp<unsigned long long>(want, kMin, kMax));
  if (bounded != want) log_warn("NOVEM_RING_SIZE=%s is outside [%zu, %zu]: using %zu", env, kMin, kMax, bounded);
  size_t capacity = kMin;
  while (capacity < bounded) capacity <<= 1;
  return capacity;
}

} // namespace

CommandStream::CommandStream(const LoadedPlugin &plugin, void *window, uint32_t flags)
    : plugin_(plugin.plugin), channel_(std::make_unique<nv_channel>(ring_capacity())) {
  nv_device_desc desc{sizeof(nv_device_desc), flags, window};
  char message[512] = "";
  device_ = plugin_->create_device(&desc, channel_.get(), message, sizeof message);
  if (!device_) error_ = std::string("backend '") + plugin_->name + "' could not create a device: " + message;
  else capture_ = CaptureWriter::for_new_device(plugin_->name, flags, channel_->ring.capacity());
}

CommandStream::~CommandStream() {
  flush();
  if (device_) plugin_->destroy_device(device_);
}

void CommandStream::update_buffer(uint32_t buffer, uint64_t offset, const void *data, size_t size,
                                  uint32_t flags) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  const size_t chunk = max_payload(sizeof(nv_cmd_update_buffer)) & ~size_t(15);
  do {
    size_t n = std::min(size, chunk);
    auto *args = begin<nv_cmd_update_buffer>(n);
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

void CommandStream::update_image(uint32_t image, uint32_t format, uint32_t level, uint32_t layer, int32_t x,
                                 int32_t y, uint32_t width, uint32_t height, const uint8_t *src, size_t src_pitch,
                                 uint32_t flags) {
  // Work in blocks (a texel for most formats, 4x4 texels for BC); pieces end on block edges, and
  // the last piece of a row or column keeps the rectangle's own edge.
  const ImageLayout layout = image_layout(format);
  const uint32_t block = layout.block, bytes = layout.block_bytes;
  const uint32_t across = (width + block - 1) / block, down = (height + block - 1) / block;
  const size_t room = max_payload(sizeof(nv_cmd_update_image)) & ~size_t(15);
  // Whole rows per record; a row longer than a record goes in pieces.
  const uint32_t columns = uint32_t(std::min<size_t>(across, std::max<size_t>(room / bytes, 1)));
  for (uint32_t cx = 0; cx < across; cx += columns) {
    const uint32_t w = std::min(columns, across - cx);
    const size_t row = size_t(w) * bytes;
    const uint32_t rows_per_record = uint32_t(std::max<size_t>(room / row, 1));
    for (uint32_t cy = 0; cy < down; cy += rows_per_record) {
      const uint32_t h = std::min(rows_per_record, down - cy);
      auto *args = begin<nv_cmd_update_image>(row * h);
      const nv_rect rect{x + int32_t(cx * block), y + int32_t(cy * block),
                         int32_t(std::min(w * block, width - cx * block)), int32_t(std::min(h * block, height - cy * block))};
      *args = nv_cmd_update_image{image, level, rect, 0, layer, flags};
      flags &= ~uint32_t(NV_UPDATE_DISCARD);
      auto *dst = static_cast<uint8_t *>(command_payload(args));
      for (uint32_t r = 0; r < h; ++r) std::memcpy(dst + r * row, src + (cy + r) * src_pitch + size_t(cx) * bytes, row);
      commit();
    }
  }
}

uint64_t CommandStream::fence() {
  push(nv_cmd_fence{++last_fence_});
  // Whoever pushes a fence waits for it or polls it.
  flush();
  return last_fence_;
}

} // namespace novem
