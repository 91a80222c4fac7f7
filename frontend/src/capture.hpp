// NOVEM_CAPTURE: writes a device's commands, as its plugin receives them, into a capture file
// (novem/capture_file.hpp; docs/capture.md) that novem-replay replays on any plugin.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "novem/commands.h"

namespace novem {

class CaptureWriter {
public:
  // The writer NOVEM_CAPTURE asks for, for a device of `plugin` made with nv_device_flags
  // `device_flags` whose ring holds ring_capacity bytes: only the process's first device is
  // captured (one file, one stream). nullptr when NOVEM_CAPTURE is unset, for later devices, and
  // when the file cannot be made (one line).
  static std::unique_ptr<CaptureWriter> for_new_device(const char *plugin, uint32_t device_flags, size_t ring_capacity);
  ~CaptureWriter(); // closes the file, saying what it holds
  CaptureWriter(const CaptureWriter &) = delete;
  CaptureWriter &operator=(const CaptureWriter &) = delete;

  // Writes a record the frontend has just finished (its payload written), while frames up to
  // the last one asked for are still to come.
  void record(const nv_cmd_header *h) {
    if (file_) write(h);
  }

private:
  CaptureWriter(std::FILE *file, std::string path, uint64_t last_frame)
      : file_(file), path_(std::move(path)), last_frame_(last_frame) {}
  void write(const nv_cmd_header *h);
  void close();

  std::FILE *file_;
  std::string path_;
  uint64_t last_frame_; // 0: no end
  uint64_t frames_ = 0; // PRESENT records written
};

} // namespace novem
