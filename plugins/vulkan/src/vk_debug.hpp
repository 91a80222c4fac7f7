// The validation messenger (NOVEM_VK_VALIDATION=1): a VK_EXT_debug_utils callback that prints each
// validation error (and InputNotProduced warning: an input nothing writes) as one line on stderr
// ("novem-vulkan: validation: ..."), counts it, and aborts the process on the first one unless
// NOVEM_VK_VALIDATION_NOABORT is set — so a test that trips validation fails by crashing.
#pragma once

#include <cstdint>

#include "vk_common.hpp"

namespace novem::vk {

class DebugMessenger {
public:
  // The create-info to chain into VkInstanceCreateInfo (covers instance creation) and to create
  // the messenger itself with.
  static VkDebugUtilsMessengerCreateInfoEXT create_info(bool abort_on_error);

  DebugMessenger() = default;
  // vk: the instance's table (with VK_EXT_debug_utils); it must outlive the messenger.
  DebugMessenger(const NovemVkInstance &vk, VkInstance instance, bool abort_on_error);
  ~DebugMessenger();
  DebugMessenger(const DebugMessenger &) = delete;
  DebugMessenger &operator=(const DebugMessenger &) = delete;

  // Validation errors seen by every messenger of this process.
  static uint64_t error_count();

private:
  const NovemVkInstance *vk_ = nullptr;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

} // namespace novem::vk
