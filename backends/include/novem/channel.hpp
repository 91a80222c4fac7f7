// A device's channel: everything the frontend and a plugin's submission thread share.
//
// The frontend creates it (and owns its memory) before create_device and destroys it after
// destroy_device. The plugin reads commands from the ring, advances the completed fence, writes
// readback bytes and counts what it executed. Nothing in here belongs to the application.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "novem/backend.h"
#include "novem/futex.hpp"
#include "novem/ring.hpp"
#include "novem/statistics.h"

struct nv_channel {
  explicit nv_channel(size_t ring_capacity) : ring(ring_capacity) {}
  ~nv_channel() { std::free(readback); }

  novem::CommandRing ring;

  // ---- completion: written by the plugin, waited on by the frontend ----
  std::atomic<uint64_t> completed_fence{0};
  std::atomic<bool> device_lost{false}; // set by the plugin when the API reports a lost device

  // Bumped after each completion; waiters sleep on it (a futex word: see futex.hpp).
  std::atomic<uint32_t> fence_epoch{0};

  void complete_fence(uint64_t value) {
    completed_fence.store(value, std::memory_order_seq_cst);
    fence_epoch.fetch_add(1, std::memory_order_seq_cst);
    novem::futex_wake_all(fence_epoch);
  }
  // Blocks until fence `value` has completed; counts the wait if it had to sleep. Called on the
  // producer's thread: the ring is flushed first, since a consumer asleep below its mark would
  // otherwise never see the fence (ring.hpp).
  void wait_fence(uint64_t value) {
    if (completed_fence.load(std::memory_order_acquire) >= value) return;
    ring.flush();
    fence_waits.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      uint32_t epoch = fence_epoch.load(std::memory_order_seq_cst);
      if (completed_fence.load(std::memory_order_seq_cst) >= value) return;
      novem::futex_wait(fence_epoch, epoch);
    }
  }

  // ---- readback: READ_IMAGE writes here. The frontend resizes it only while no READ_IMAGE is
  // pending (after waiting for the fence that follows the last one); the ring's release/acquire
  // publishes the new pointer to the plugin. ----
  uint8_t *readback = nullptr;
  size_t readback_size = 0;
  void reserve_readback(size_t bytes) {
    if (bytes <= readback_size) return;
    std::free(readback);
    readback = static_cast<uint8_t *>(std::malloc(bytes));
    readback_size = readback ? bytes : 0;
  }

  // ---- creations the plugin could not make: a CREATE_IMAGE or CREATE_BUFFER that made
  // nothing (out of device or host memory, past an API limit such as maxMemoryAllocationSize)
  // stores its handle here before the FENCE that follows it completes. Handles are not reused, so
  // a frontend that needs the answer pushes a FENCE after the creation, waits for it and compares:
  // its own handle means the resource does not exist. Only the last failure of each kind is kept. ----
  std::atomic<uint32_t> failed_image{0};
  std::atomic<uint32_t> failed_buffer{0};
  void report_failed_image(uint32_t image) {
    failed_image.store(image, std::memory_order_release);
    creation_failures.fetch_add(1, std::memory_order_relaxed);
  }
  void report_failed_buffer(uint32_t buffer) {
    failed_buffer.store(buffer, std::memory_order_release);
    creation_failures.fetch_add(1, std::memory_order_relaxed);
  }

  // ---- query results: END_QUERY stores a slot's value here before the FENCE that
  // follows it completes; the frontend reads it once that fence has completed. ----
  std::atomic<uint64_t> query_results[NV_MAX_QUERIES] = {};

  // ---- counters ----
  std::atomic<uint64_t> fence_waits{0};                // frontend waits on the plugin
  std::atomic<uint64_t> executed[NV_OP_COUNT] = {};    // commands executed, per opcode
  std::atomic<uint64_t> overlay_executed[NV_OP_COUNT] = {}; // NV_CMD_OVERLAY commands, not in executed
  std::atomic<uint64_t> pipelines_created{0};          // API pipelines/programs built
  std::atomic<uint64_t> submits{0};                    // batches handed to the API
  // What the plugins' techniques save, read by the frontend (statistics.h).
  std::atomic<uint64_t> pipelines_loaded{0};  // pipelines/programs taken from the on-disk cache
  std::atomic<uint64_t> pipeline_cache_rejected{0}; // cache files ignored (corrupt, foreign)
  std::atomic<uint64_t> barriers{0};          // vkCmdPipelineBarrier2 / glMemoryBarrier calls
  std::atomic<uint64_t> device_allocations{0}; // vkAllocateMemory / GL buffer storage creations
  std::atomic<uint64_t> gpu_waits{0};         // the plugin's own blocking waits on the GPU
  std::atomic<uint64_t> slab_allocations{0};  // buffer slices served from a slab (Vulkan)
  std::atomic<uint64_t> ring_allocations{0};  // ranges taken from the upload ring (Vulkan)
  std::atomic<uint64_t> api_draw_calls{0};    // vkCmdDraw*/glDraw* calls; a multi-draw is one
  std::atomic<uint64_t> overlay_api_draw_calls{0}; // those of NV_CMD_OVERLAY draws, not in api_draw_calls
  std::atomic<uint64_t> creation_failures{0}; // CREATE_IMAGE / CREATE_BUFFER that made nothing

  // Fills s from the counters above.
  void statistics(nv_statistics &s) const {
    s.struct_size = sizeof s;
    s.pipelines_created = pipelines_created.load(std::memory_order_relaxed);
    s.pipelines_loaded = pipelines_loaded.load(std::memory_order_relaxed);
    s.pipeline_cache_rejected = pipeline_cache_rejected.load(std::memory_order_relaxed);
    s.barriers = barriers.load(std::memory_order_relaxed);
    s.device_allocations = device_allocations.load(std::memory_order_relaxed);
    s.submits = submits.load(std::memory_order_relaxed);
    s.fence_waits = fence_waits.load(std::memory_order_relaxed);
    s.gpu_waits = gpu_waits.load(std::memory_order_relaxed);
    s.draws = executed[NV_OP_DRAW].load(std::memory_order_relaxed) +
              executed[NV_OP_DRAW_INDEXED].load(std::memory_order_relaxed);
    s.overlay_draws = overlay_executed[NV_OP_DRAW].load(std::memory_order_relaxed) +
                      overlay_executed[NV_OP_DRAW_INDEXED].load(std::memory_order_relaxed);
    s.slab_allocations = slab_allocations.load(std::memory_order_relaxed);
    s.ring_allocations = ring_allocations.load(std::memory_order_relaxed);
    s.api_draw_calls = api_draw_calls.load(std::memory_order_relaxed);
    s.overlay_api_draw_calls = overlay_api_draw_calls.load(std::memory_order_relaxed);
    s.creation_failures = creation_failures.load(std::memory_order_relaxed);
    const novem::RingCounters &r = ring.counters;
    s.ring_bytes = r.bytes.load(std::memory_order_relaxed);
    s.ring_full_waits = r.producer_waits.load(std::memory_order_relaxed);
    s.ring_room_waits = r.room_waits.load(std::memory_order_relaxed);
    s.ring_empty_waits = r.consumer_waits.load(std::memory_order_relaxed);
    s.ring_wakes = r.producer_wakes.load(std::memory_order_relaxed) + r.consumer_wakes.load(std::memory_order_relaxed);
  }
};
