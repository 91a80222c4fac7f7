#include "capture.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

#include "log.hpp"
#include "novem/capture_file.hpp"
#include "novem/options.hpp"

namespace novem {

std::unique_ptr<CaptureWriter> CaptureWriter::for_new_device(const char *plugin, uint32_t device_flags,
                                                             size_t ring_capacity) {
  const Options &options = process_options();
  const char *path = options.value("NOVEM_CAPTURE");
  if (!path || !*path) return nullptr;
  static std::atomic<bool> taken{false};
  if (taken.exchange(true)) {
    log_info("NOVEM_CAPTURE: only the process's first device is captured");
    return nullptr;
  }
  // A bad range is reported with the other settings (known_settings.hpp) and ignored.
  FrameRange frames;
  if (const char *range = options.value("NOVEM_CAPTURE_FRAMES"); range && *range) frame_range(range, frames);
  std::FILE *file = std::fopen(path, "wb");
  if (!file) {
    log_error("NOVEM_CAPTURE=%s cannot be written: %s; nothing is captured", path, std::strerror(errno));
    return nullptr;
  }
  capture::FileHeader h{};
  std::memcpy(h.magic, capture::kMagic, sizeof h.magic);
  h.format_version = capture::kFormatVersion;
  h.abi_version = NV_BACKEND_ABI_VERSION;
  h.ring_capacity = ring_capacity;
  h.first_frame = frames.first;
  h.last_frame = frames.last;
  std::strncpy(h.plugin, plugin, sizeof h.plugin - 1);
  h.device_flags = device_flags;
  std::unique_ptr<CaptureWriter> writer(new CaptureWriter(file, path, frames.last));
  if (std::fwrite(&h, sizeof h, 1, file) != 1) {
    log_error("NOVEM_CAPTURE=%s cannot be written: %s; nothing is captured", path, std::strerror(errno));
    writer->close();
    return nullptr;
  }
  if (frames.last)
    log_info("NOVEM_CAPTURE: recording the commands of frames %llu-%llu (and those before, which make their "
             "resources) into %s", frames.first, frames.last, path);
  else
    log_info("NOVEM_CAPTURE: recording every command into %s", path);
  return writer;
}

CaptureWriter::~CaptureWriter() { close(); }

void CaptureWriter::write(const nv_cmd_header *h) {
  if (std::fwrite(h, h->size, 1, file_) != 1) {
    log_error("NOVEM_CAPTURE=%s: writing failed (%s); the capture ends at frame %llu", path_.c_str(),
              std::strerror(errno), static_cast<unsigned long long>(frames_));
    close();
    return;
  }
  if (h->opcode != NV_OP_PRESENT) return;
  ++frames_;
  // Each frame reaches the disk whole, so that a program that crashes later leaves a capture
  // of every frame before.
  if (frames_ == last_frame_) close();
  else std::fflush(file_);
}

void CaptureWriter::close() {
  if (!file_) return;
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (ok)
    log_info("NOVEM_CAPTURE: %s holds %llu frames", path_.c_str(), static_cast<unsigned long long>(frames_));
  else
    log_error("NOVEM_CAPTURE=%s: closing failed (%s)", path_.c_str(), std::strerror(errno));
}

} // namespace novem
