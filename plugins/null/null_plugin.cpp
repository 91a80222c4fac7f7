// The null plugin: a submission thread that consumes every command and executes none.
// The shared worker loop counts commands per opcode in the channel; fences complete at once
// and reads return zeros, so a frontend never waits on it for long.
#include <cstdio>
#include <cstring>
#include <thread>

#include "novem/backend.h"
#include "novem/worker.hpp"

namespace {

struct NullExecutor {
  nv_channel &channel;

  void fence(const nv_cmd_fence &a, const nv_cmd_header *) { channel.complete_fence(a.value); }
  void read_image(const nv_cmd_read_image &a, const nv_cmd_header *) {
    size_t bytes = size_t(a.rect.width) * size_t(a.rect.height) * 4;
    if (bytes <= channel.readback_size) std::memset(channel.readback, 0, bytes);
  }

  // Nothing is drawn: every count is 0, and time stands still.
  void end_query(const nv_cmd_end_query &a, const nv_cmd_header *) {
    if (a.slot < NV_MAX_QUERIES) channel.query_results[a.slot].store(0, std::memory_order_relaxed);
  }

  static constexpr unsigned kCommandsPerPoll = 1; // nothing is ever pending
  bool poll() { return false; }
  void wait_gpu() {}
  void idle() {}
};

} // namespace

struct nv_device {
  explicit nv_device(nv_channel &c) : executor{c}, thread([this] { novem::run_worker(executor.channel, executor); }) {}
  NullExecutor executor;
  std::thread thread;
};

namespace {

int probe(nv_adapter_info *info, char *, size_t) {
  *info = nv_adapter_info{};
  std::snprintf(info->device_name, sizeof info->device_name, "Novem null device");
  std::snprintf(info->driver_name, sizeof info->driver_name, "executes nothing");
  info->video_memory_bytes = 256ull << 20;
  info->max_texture_size = 16384;
  info->max_viewport_size = 16384;
  info->max_point_size = 256.0f;
  // Every use of every format, except sRGB (ABI 5), which exists for the formats with an sRGB
  // twin in Vulkan and GL alone (B8G8R8A8, BC1-3): the frontend's answers stay D3D9's.
  for (uint32_t f = 1; f < NV_FORMAT_COUNT; ++f) {
    info->format_support[f] = ~0u;
    if (f != NV_FORMAT_B8G8R8A8_UNORM && f != NV_FORMAT_BC1_UNORM && f != NV_FORMAT_BC2_UNORM && f != NV_FORMAT_BC3_UNORM)
      info->format_support[f] &= ~uint32_t(NV_SUPPORT_SRGB_READ | NV_SUPPORT_SRGB_WRITE);
  }
  info->sample_counts = 1u | 2u | 4u | 8u | 16u;
  info->max_instance_divisor = UINT32_MAX;
  info->max_anisotropy = 16;
  return 0;
}

nv_device *create_device(const nv_device_desc *, nv_channel *channel, char *, size_t) {
  return new nv_device(*channel);
}

void destroy_device(nv_device *device) {
  device->executor.channel.ring.stop();
  device->thread.join();
  delete device;
}

constexpr nv_plugin plugin = {NV_BACKEND_ABI_VERSION, "null", probe, create_device, destroy_device};

} // namespace

extern "C" __attribute__((visibility("default"))) const nv_plugin *novem_plugin_entry(void) { return &plugin; }
