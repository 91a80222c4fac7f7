// Frame-time statistics and the per-frame CSV (frames.hpp).
#include "frames.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace novem::diag {

FrameStats frame_stats(const std::vector<std::uint64_t> &presents) {
  FrameStats s;
  std::vector<double> ms;
  for (std::size_t i = 1; i < presents.size(); ++i)
    if (presents[i] >= presents[i - 1]) ms.push_back(static_cast<double>(presents[i] - presents[i - 1]) / 1e6);
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  auto rank = [&](double p) {
    const auto r = static_cast<std::size_t>(std::ceil(p * static_cast<double>(n)));
    return ms[std::clamp<std::size_t>(r, 1, n) - 1];
  };
  auto low = [&](double fraction) { // slowest first: index fraction * n - 1
    const double idx = std::floor(fraction * static_cast<double>(n)) - 1;
    const std::size_t i = idx < 0 ? 0 : static_cast<std::size_t>(idx);
    return ms[n - 1 - std::min(i, n - 1)];
  };
  s.frames = n;
  s.p50_ms = rank(0.50);
  s.p90_ms = rank(0.90);
  s.p99_ms = rank(0.99);
  double total = 0;
  for (double v : ms) total += v;
  s.fps = total > 0 ? 1000.0 * static_cast<double>(n) / total : 0;
  s.low1_fps = low(0.01) > 0 ? 1000.0 / low(0.01) : 0;
  s.low01_fps = low(0.001) > 0 ? 1000.0 / low(0.001) : 0;
  return s;
}

bool write_frames_csv(const std::string &path, const std::vector<FrameSeries> &series, std::string &error) {
  std::ofstream out(path);
  if (!out) {
    error = std::strerror(errno);
    return false;
  }
  out << "device,family,index,frame,present_ns,frame_time_ms\n";
  for (const FrameSeries &s : series)
    for (std::size_t i = 0; i < s.presents.size(); ++i) {
      out << s.device << ',' << s.family << ',' << s.index << ',' << i << ',' << s.presents[i] << ',';
      if (i > 0 && s.presents[i] >= s.presents[i - 1]) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(s.presents[i] - s.presents[i - 1]) / 1e6);
        out << buf;
      }
      out << '\n';
    }
  out.flush();
  if (!out) {
    error = "write failed";
    return false;
  }
  return true;
}

} // namespace novem::diag
