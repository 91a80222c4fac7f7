// What the driver-floor tool's two floors share: novem-bench's frame (its size, its 1000
// triangles on a 16x16 grid, frames in flight) and workloads, and the interface each API's floor
// implements (vk_floor.cpp, gl_floor.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace driver_floor {

constexpr uint32_t kSize = 256, kGrid = 16, kDraws = 1000, kInFlight = 2, kWarmupFrames = 3;
enum Workload { kDraw, kState, kTexture, kShader, kUp, kDynamic, kGame, kStream, kWorkloadCount };
inline const char *const kWorkloads[kWorkloadCount] = {"draw", "state", "texture", "shader", "up", "dynamic", "game", "stream"};
// stream: novem-bench's texture rewrites per frame (one every kDraws / kStreamUpdates draws).
constexpr uint32_t kStreamUpdates = 10;

// The texture that draw i of the stream frame samples: the last one written, or the one before
// it on odd draws (novem-bench alternates two textures and rewrites one at a time).
inline uint32_t stream_texture(uint32_t i) {
  const uint32_t written = i / (kDraws / kStreamUpdates);
  return (i & 1) && written > 0 ? written - 1 : written;
}

struct ColorVertex {
  float x, y, z;
  uint32_t color; // B, G, R, A in memory
};

// The corners of novem-bench's triangle i, in clip space (+y down: the same pixels either way).
inline void triangle(uint32_t i, float (&x)[3], float (&y)[3]) {
  const float px = float(i % kGrid) * 16.0f + 2.0f, py = float((i / kGrid) % kGrid) * 16.0f + 2.0f;
  const float cx[3] = {px, px + 10.0f, px}, cy[3] = {py, py, py + 10.0f};
  for (int v = 0; v < 3; ++v) x[v] = cx[v] / float(kSize) * 2.0f - 1.0f, y[v] = cy[v] / float(kSize) * 2.0f - 1.0f;
}

inline uint32_t triangle_color(uint32_t i) { return 0xff000000u | (i * 0x00371d53u & 0x00ffffffu); }

struct UvVertex {
  float x, y, z, u, v;
};

// novem-bench's kGrid x kGrid triangles, as position + colour and as position + texture
// coordinates.
inline void bench_triangles(std::vector<ColorVertex> &colored, std::vector<UvVertex> &uv) {
  for (uint32_t i = 0; i < kGrid * kGrid; ++i) {
    float x[3], y[3];
    triangle(i, x, y);
    const float u[3] = {0, 1, 0}, v[3] = {0, 0, 1};
    for (int k = 0; k < 3; ++k) {
      colored.push_back({x[k], y[k], 0.5f, triangle_color(i)});
      uv.push_back({x[k], y[k], 0.5f, u[k], v[k]});
    }
  }
}

// One API's floor: every object made at construction, then whole frames of a workload.
class Floor {
public:
  virtual ~Floor() = default;
  // Draws per second over `frames` frames of workload w (after kWarmupFrames unmeasured ones),
  // until the last has completed.
  virtual double run(int w, int frames) = 0;
};

// Both throw std::runtime_error with one readable line when the API or a feature is missing.
// driver_heap: raise glibc's thresholds on llvmpipe, as the plugins do.
std::unique_ptr<Floor> make_vulkan_floor(bool driver_heap);
std::unique_ptr<Floor> make_gl_floor(bool driver_heap);

} // namespace driver_floor
