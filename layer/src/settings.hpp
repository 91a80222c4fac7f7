// The layer's settings: where its outputs go and what it measures. Read once per process, at the
// first vkCreateInstance, from three sources in this order of precedence (the Khronos layers' order):
//   1. the environment (NOVEM_QUEUE_DIAGNOSTICS_<KEY>, the key in capitals);
//   2. the layer-settings file vkconfig writes (novem_queue_diagnostics.<key> = value);
//   3. VkLayerSettingsCreateInfoEXT in that vkCreateInstance's pNext chain (VK_EXT_layer_settings).
// A value that does not parse, or is out of range, is one line on stderr and the default is kept; an
// output path that cannot be written is one line with the system's reason, at start-up.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "novem_qd_dispatch.h" // vulkan.h, without prototypes, as the whole layer includes it

namespace novem_qd {

struct Settings {
  std::string report_path;       // report
  std::string dump_path;         // dump: watchdog and device-lost dumps
  std::string trace_path;        // trace; empty: no trace
  std::string trigger_path;      // trigger; empty: no report on demand
  std::uint64_t watchdog_ms = 0; // watchdog_ms; 0: off
  std::uint64_t interval_ms = 0; // interval_ms; 0: no periodic summary
  std::uint64_t max_events = 10000; // events: per queue and kind
  bool log_info = false;         // log = info: the effective settings are printed once
  // What the layer measures, each switchable so that its price can be taken apart (issue 24):
  bool timestamps = true;    // timestamps: the layer's timestamp command buffers around each batch
  // timestamp_every: one submission in N is timed; 0 (the default): 1 on a GPU, kCpuTimestampEvery
  // and kCpuTimestampGapNs apart on a CPU device (DeviceState::timestamp_every, timestamp_gap_ns).
  std::uint64_t timestamp_every = 0;
  bool latency = true;       // latency: completion tracked on the layer thread (latency, in flight,
                             // GPU time, watchdog); off: counts and waits only
  bool thread_safety = true; // thread_safety: the per-queue "in use by thread" mark
};

// The largest accepted times and event counts: a day, and ten million events per queue and kind
// (beyond either, a value is a mistake, and milliseconds past 2^64 / 10^6 would wrap).
inline constexpr std::uint64_t kMaxMilliseconds = 86400000;
inline constexpr std::uint64_t kMaxEvents = 10000000;

// On a CPU device (lavapipe, SwiftShader) the layer's timestamp commands run on the CPU, in the
// application's process: each timed submission costs flushes of the software rasterizer (a
// timestamp after the top of the pipe, lavapipe's vkCmdCopyQueryPoolResults with WAIT), some
// 100 us on this project's machine. There one submission in 64 is timed, and none within 10 ms of
// the queue's last timed one, unless timestamp_every says otherwise: at most 1 % of a CPU however
// many submissions a second (a burst of small ones would otherwise pay 1.5 us of flushes each),
// and still a sample of GPU times every second at 60; on a GPU they cost the CPU nothing.
inline constexpr std::uint64_t kCpuTimestampEvery = 64;
inline constexpr std::uint64_t kCpuTimestampGapNs = 10000000;
inline constexpr std::uint64_t kMaxTimestampEvery = 1000000;

// One setting as VK_EXT_layer_settings gives it (the layer's own name filtered already), in text.
struct ApiSetting {
  std::string name;
  std::vector<std::string> values;
};

// The settings VK_EXT_layer_settings gives this layer in `ci`'s pNext chain (none without `ci`).
std::vector<ApiSetting> api_settings(const VkInstanceCreateInfo *ci);

// While alive, the VK_EXT_layer_settings structures of `ci`'s chain that configure only this layer
// are unlinked from it (the chain is the application's; it is linked back as it was on destruction):
// layers and drivers below that predate the extension refuse a structure they do not know.
class OwnSettingsUnlinked {
public:
  explicit OwnSettingsUnlinked(const VkInstanceCreateInfo *ci);
  ~OwnSettingsUnlinked();
  OwnSettingsUnlinked(const OwnSettingsUnlinked &) = delete;
  OwnSettingsUnlinked &operator=(const OwnSettingsUnlinked &) = delete;

private:
  struct Link {
    VkBaseOutStructure *before; // whose pNext was changed
    VkBaseOutStructure *removed;
  };
  std::vector<Link> links_;
};

// Every source read and checked; warnings go to stderr.
Settings read_settings(const std::vector<ApiSetting> &api);
// With log = info, the effective settings in one line on stderr.
void log_settings(const Settings &s);

// The settings of this process (Registry::settings_for, state.hpp).
const Settings &settings();

} // namespace novem_qd
