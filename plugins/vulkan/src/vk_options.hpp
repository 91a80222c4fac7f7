// The plugin's switches, read once per device from the environment or the config file
// (novem/options.hpp; see README.md for the variables).
#pragma once

#include <cstdint>
#include <string>

#include "vk_quirks.hpp"

namespace novem::vk {

struct Options {
  bool validation = false;          // NOVEM_VK_VALIDATION=1: enable the Khronos layer + messenger
  bool validation_noabort = false;  // NOVEM_VK_VALIDATION_NOABORT set: count errors, do not abort
  // The five techniques of issue 6, each switchable to measure it:
  bool batching = true;             // NOVEM_VK_BATCHING=0: submit and wait after every draw and clear
  bool dirty_state = true;          // NOVEM_VK_DIRTY=0: re-bind pipeline, dynamic state, buffers, set 0 per draw
  bool pipeline_cache = true;       // NOVEM_VK_PIPELINE_CACHE=0: build a pipeline per SET_PIPELINE, no disk cache
  bool barrier_tracking = true;     // NOVEM_VK_BARRIERS=0: a full barrier per transition and per render pass
  bool suballocation = true;        // NOVEM_VK_SUBALLOC=0: one VkDeviceMemory per resource
  // Beyond the five (issue 6, plugin depth):
  bool dynamic_blend = true;        // NOVEM_VK_DYNAMIC_BLEND=0: blend state in the pipeline, not VK_EXT_extended_dynamic_state3
  bool slabs = true;                // NOVEM_VK_SLABS=0 (or SUBALLOC=0): every buffer slice a VkBuffer of its own
  bool multi_draw = true;           // NOVEM_VK_MULTI_DRAW=0 (or BATCHING=0, DIRTY=0): every draw its own vkCmdDraw*
  // NOVEM_VK_MAX_ALLOCATION=bytes: no single allocation larger, as on a driver whose
  // maxMemoryAllocationSize is that (0: the device's own limits; at least 32 MiB).
  uint64_t max_allocation = 0;
  std::string cache_dir;            // NOVEM_CACHE_DIR: where the VkPipelineCache file lives ("" = none)
  DriverQuirks::Switches quirks = DriverQuirks::Switches().set(); // the workarounds vk_quirks.cpp's settings leave on

  static Options from_environment();
};

} // namespace novem::vk
