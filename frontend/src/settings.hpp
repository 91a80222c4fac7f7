// The library's own settings (novem/options.hpp: environment, then the config file), read once per
// process. The first read also writes, once, every problem of the config file and of the known
// settings' values (one line each).
#pragma once

#include <cstdint>
#include <optional>

namespace novem {

struct LibrarySettings {
  unsigned frame_rate = 0;                   // NOVEM_FRAME_RATE: Present waits so as not to exceed it; 0: no limit
  std::optional<unsigned> present_interval;  // NOVEM_PRESENT_INTERVAL: 0 presents at once, 1-4 at the vertical blank
  std::optional<uint16_t> vendor_id, device_id; // NOVEM_VENDOR_ID, NOVEM_DEVICE_ID: what GetAdapterIdentifier says
  std::optional<unsigned> max_frame_latency;    // NOVEM_MAX_FRAME_LATENCY: frames in flight, over the program's choice
};

const LibrarySettings &library_settings();

} // namespace novem
