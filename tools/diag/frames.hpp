// Frame times from a queue's presents, as MangoHud users read them: percentiles of the frame time
// and the "1 % / 0.1 % low" frame rates, and a per-frame CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace novem::diag {

struct FrameStats {
  std::size_t frames = 0;                  // frame times: presents - 1
  double p50_ms = 0, p90_ms = 0, p99_ms = 0; // frame-time percentiles (nearest rank)
  double fps = 0;                          // frames / their total time
  double low1_fps = 0, low01_fps = 0;      // 1000 / the 99th and 99.9th percentile frame time (ms)
};

// From successive present times (ns, ascending). A frame time is the interval between two presents.
// Percentile p of n frame times: the value of rank ceil(p n) in ascending order (at least 1); the lows
// use MangoHud's rule, the frame time at index (1 - p) n - 1 of the times sorted slowest first.
FrameStats frame_stats(const std::vector<std::uint64_t> &presents);

// One queue's presents, for the CSV.
struct FrameSeries {
  std::uint64_t device = 0, family = 0, index = 0;
  std::vector<std::uint64_t> presents;
};

// Writes "device,family,index,frame,present_ns,frame_time_ms" with one line per present (the first
// of each queue has an empty frame time). Returns false with `error` set where the file cannot be
// written.
bool write_frames_csv(const std::string &path, const std::vector<FrameSeries> &series, std::string &error);

} // namespace novem::diag
