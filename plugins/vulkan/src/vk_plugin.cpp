// The plugin's entry point: probe (on a thread of its own), create_device (starts the submission
// thread, which creates the Vulkan instance and device and runs novem::run_worker) and
// destroy_device. No Vulkan call happens on the caller's thread.
#include <cstddef>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "novem/backend.h"
#include "novem/device_thread.hpp"
#include "vk_adapter.hpp"
#include "vk_device.hpp"
#include "vk_executor.hpp"
#include "vk_instance.hpp"
#include "vk_options.hpp"

namespace {

using namespace novem::vk;

void write_error(char *error, size_t error_size, const std::string &what) {
  if (error && error_size) std::snprintf(error, error_size, "vulkan: %s", what.c_str());
}

int probe(nv_adapter_info *info, char *error, size_t error_size) {
  std::string failure;
  nv_adapter_info result{};
  std::thread([&] {
    try {
      Instance instance(Options::from_environment());
      VkPhysicalDevice gpu = instance.pick_physical_device();
      Device::require_support(instance.vk(), gpu);
      describe_adapter(instance.vk(), gpu, result);
    } catch (const std::exception &e) {
      failure = e.what();
      if (failure.empty()) failure = "unknown error";
    }
  }).join();
  if (!failure.empty()) {
    write_error(error, error_size, failure);
    return 1;
  }
  if (info) *info = result;
  return 0;
}

nv_device *create_device(const nv_device_desc *desc, nv_channel *channel, char *error, size_t error_size) {
  if (!channel) {
    write_error(error, error_size, "no channel");
    return nullptr;
  }
  // A device window needs nothing at device creation: windows are presented to through
  // CREATE_SWAPCHAIN (vk_present.cpp).
  const bool software_vertex = desc && desc->struct_size >= offsetof(nv_device_desc, flags) + sizeof desc->flags &&
                               (desc->flags & NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS);
  std::string failure;
  nv_device *device = novem::start_device_thread(
      *channel,
      [channel, software_vertex](const novem::StartedFn &started) {
        // Made, used and destroyed on this thread: every Vulkan object dies here. A failure to
        // make it throws, which start_device_thread answers.
        auto executor = std::make_unique<Executor>(*channel, Options::from_environment(), software_vertex);
        started({});
        novem::run_worker(*channel, *executor);
      },
      failure);
  if (!device) {
    write_error(error, error_size, failure);
    return nullptr;
  }
  return device;
}

void destroy_device(nv_device *device) { novem::destroy_device_thread(device); }

constexpr nv_plugin plugin = {NV_BACKEND_ABI_VERSION, "vulkan", probe, create_device, destroy_device};

} // namespace

extern "C" __attribute__((visibility("default"))) const nv_plugin *novem_plugin_entry(void) { return &plugin; }
