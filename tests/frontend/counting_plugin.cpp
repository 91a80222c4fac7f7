// A test plugin: the null plugin's behaviour (executes nothing, completes fences) that also lets
// the test read the channel's per-opcode counts of its device, through an exported function the
// test finds with dlopen(RTLD_NOLOAD) + dlsym on the same file. It tells which commands a draw
// sent, so tests can check that only what changed is sent. It also keeps a log of the buffer and
// image updates it executed (counting_log.hpp), for tests of which bytes a lock sent and when.
// And it can hold its thread at PRESENT, for tests of how far the application may run ahead, and
// play a device whose memory is spent: every CREATE_IMAGE and CREATE_BUFFER then makes nothing
// and is reported in the channel, as a plugin reports what it cannot allocate.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "counting_log.hpp"
#include "novem/backend.h"
#include "novem/worker.hpp"

namespace {

// The log is the plugin's thread's to append and the test's to read, so a mutex guards it.
std::mutex log_mutex;
std::vector<CountingUpdate> update_log;

// While true, the plugin's thread stops at each PRESENT until it is set false.
std::mutex hold_mutex;
std::condition_variable hold_changed;
bool hold_presents = false;

// While true, creations fail (the plugin's thread reads it, the test sets it).
std::atomic<bool> memory_spent{false};

struct CountingExecutor {
  nv_channel &channel;

  void fence(const nv_cmd_fence &a, const nv_cmd_header *) { channel.complete_fence(a.value); }
  void create_image(const nv_cmd_create_image &a, const nv_cmd_header *) {
    if (memory_spent) channel.report_failed_image(a.image);
  }
  void create_buffer(const nv_cmd_create_buffer &a, const nv_cmd_header *) {
    if (memory_spent) channel.report_failed_buffer(a.buffer);
  }
  void present(const nv_cmd_present &, const nv_cmd_header *) {
    std::unique_lock<std::mutex> lock(hold_mutex);
    hold_changed.wait(lock, [] { return !hold_presents; });
  }
  void read_image(const nv_cmd_read_image &a, const nv_cmd_header *) {
    size_t bytes = size_t(a.rect.width) * size_t(a.rect.height) * 4;
    if (bytes <= channel.readback_size) std::memset(channel.readback, 0, bytes);
  }
  void record(CountingUpdate u, const void *payload, uint64_t payload_bytes) {
    u.draws_before = channel.executed[NV_OP_DRAW].load() + channel.executed[NV_OP_DRAW_INDEXED].load();
    std::memcpy(u.bytes, payload, size_t(std::min<uint64_t>(payload_bytes, CountingUpdate::kBytesKept)));
    std::lock_guard<std::mutex> lock(log_mutex);
    update_log.push_back(u);
  }
  void update_buffer(const nv_cmd_update_buffer &a, const nv_cmd_header *h) {
    CountingUpdate u;
    u.opcode = NV_OP_UPDATE_BUFFER, u.target = a.buffer, u.flags = a.flags, u.offset = a.offset, u.size = a.size;
    record(u, novem::command_payload<nv_cmd_update_buffer>(h), a.size);
  }
  void update_image(const nv_cmd_update_image &a, const nv_cmd_header *h) {
    CountingUpdate u;
    u.opcode = NV_OP_UPDATE_IMAGE, u.target = a.image, u.flags = a.flags, u.rect = a.rect, u.level = a.level;
    u.layer = a.layer;
    // The record's size bounds its payload (rows of the rect, in the image's format).
    record(u, novem::command_payload<nv_cmd_update_image>(h), h->size - sizeof *h - sizeof a);
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

// The updates logged since the last forget: copies up to `capacity` into out, returns how many
// there are.
extern "C" __attribute__((visibility("default"))) uint64_t novem_counting_plugin_updates(CountingUpdate *out,
                                                                                        uint64_t capacity) {
  std::lock_guard<std::mutex> lock(log_mutex);
  std::copy_n(update_log.begin(), std::min<uint64_t>(capacity, update_log.size()), out);
  return update_log.size();
}

extern "C" __attribute__((visibility("default"))) void novem_counting_plugin_forget_updates() {
  std::lock_guard<std::mutex> lock(log_mutex);
  update_log.clear();
}

// hold != 0: the plugin's thread stops at the next PRESENT (and each after it) until called with 0.
extern "C" __attribute__((visibility("default"))) void novem_counting_plugin_hold_presents(int hold) {
  {
    std::lock_guard<std::mutex> lock(hold_mutex);
    hold_presents = hold != 0;
  }
  hold_changed.notify_all();
}

// spent != 0: from the next command on, every image and buffer creation fails, until called with 0.
extern "C" __attribute__((visibility("default"))) void novem_counting_plugin_memory_spent(int spent) {
  memory_spent = spent != 0;
}
