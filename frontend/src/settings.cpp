#include "settings.hpp"

#include "log.hpp"
#include "novem/options.hpp"

namespace novem {

const LibrarySettings &library_settings() {
  static const LibrarySettings settings = [] {
    const Options &options = process_options();
    for (const std::string &problem : options.problems()) log_warn("%s", problem.c_str());
    LibrarySettings s;
    s.frame_rate = static_cast<unsigned>(options.number("NOVEM_FRAME_RATE", 0));
    constexpr unsigned long long kUnset = ~0ull;
    if (auto v = options.number("NOVEM_PRESENT_INTERVAL", kUnset); v != kUnset) s.present_interval = static_cast<unsigned>(v);
    if (auto v = options.number("NOVEM_VENDOR_ID", kUnset); v != kUnset) s.vendor_id = static_cast<uint16_t>(v);
    if (auto v = options.number("NOVEM_DEVICE_ID", kUnset); v != kUnset) s.device_id = static_cast<uint16_t>(v);
    if (auto v = options.number("NOVEM_MAX_FRAME_LATENCY", kUnset); v != kUnset) s.max_frame_latency = static_cast<unsigned>(v);
    return s;
  }();
  return settings;
}

} // namespace novem
