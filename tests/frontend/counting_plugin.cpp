// A test plugin: the null plugin's behaviour (executes nothing, completes fences) that also lets
// the test read the channel's per-opcode counts of its device, through an exported function the
// test finds with dlopen(RTLD_NOLOAD) + dlsym on the same file. It tells which commands a draw
// sent, so tests can check that only what changed is sent.
#include <cstring>
#include <thread>

#include "novem/backend.h"
#include "novem/worker.hpp"

namespace {

struct CountingExecutor {
  nv_channel &channel;

  void fence(const nv_cmd_fence &a, const nv_cmd_header *) { channel.complete_fence(a.value); }
  void read_image(const nv_cmd_read_image &a, const nv_cmd_header *) {
    size_t bytes = size_t(a.rect.width) * size_t(a.rect.height) * 4;
    if (bytes <= channel.readback_size) std::memset(channel.readback, 0, bytes);
  }

  static constexpr novem::DispatchTable<CountingExecutor> table() {
    novem::DispatchTable<CountingExecutor> t{};
    t[NV_OP_FENCE] = novem::handler<CountingExecutor, nv_cmd_fence, &CountingExecutor::fence>;
    t[NV_OP_READ_IMAGE] = novem::handler<CountingExecutor, nv_cmd_read_image, &CountingExecutor::read_image>;
    return t;
  }
  static constexpr unsigned kCommandsPerPoll = 1; // nothing is ever pending
  bool poll() { return false; }
  void wait_gpu() {}
  void idle() {}
};

nv_channel *last_channel = nullptr; // the channel of the device created last

} // namespace

struct nv_device {
  explicit nv_device(nv_channel &c) : executor{c}, thread([this] { novem::run_worker(executor.channel, executor); }) {}
  CountingExecutor executor;
  std::thread thread;
};

namespace {

int probe(nv_adapter_info *info, char *, size_t) {
  *info = nv_adapter_info{};
  info->video_memory_bytes = 256ull << 20;
  info->max_texture_size = 16384;
  info->max_viewport_size = 16384;
  info->max_point_size = 256.0f;
  for (uint32_t f = 1; f < NV_FORMAT_COUNT; ++f) info->format_support[f] = ~0u;
  return 0;
}

nv_device *create_device(const nv_device_desc *, nv_channel *channel, char *, size_t) {
  last_channel = channel;
  return new nv_device(*channel);
}

void destroy_device(nv_device *device) {
  device->executor.channel.ring.stop();
  device->thread.join();
  if (last_channel == &device->executor.channel) last_channel = nullptr;
  delete device;
}

constexpr nv_plugin plugin = {NV_BACKEND_ABI_VERSION, "counting", probe, create_device, destroy_device};

} // namespace

extern "C" __attribute__((visibility("default"))) const nv_plugin *novem_plugin_entry(void) { return &plugin; }

// How many commands of `opcode` the last device's thread has executed (0 without a device).
extern "C" __attribute__((visibility("default"))) uint64_t novem_counting_plugin_executed(uint32_t opcode) {
  return last_channel && opcode < NV_OP_COUNT ? last_channel->executed[opcode].load() : 0;
}
