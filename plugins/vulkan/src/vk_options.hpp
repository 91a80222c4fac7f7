// The plugin's switches, read once from the environment (see README.md for the variables).
#pragma once

namespace novem::vk {

struct Options {
  bool validation = false;          // NOVEM_VK_VALIDATION=1: enable the Khronos layer + messenger
  bool validation_noabort = false;  // NOVEM_VK_VALIDATION_NOABORT set: count errors, do not abort
  bool pipeline_cache = true;       // NOVEM_VK_PIPELINE_CACHE=0: build a pipeline per SET_PIPELINE
  bool batching = true;             // NOVEM_VK_BATCHING=0: submit after every draw and clear
  bool suballocation = true;        // NOVEM_VK_SUBALLOC=0: one VkDeviceMemory per resource

  static Options from_environment();
};

} // namespace novem::vk
