// The VkInstance (Vulkan 1.3), with the validation layer and messenger when asked for, its
// dispatch table, and the choice of physical device: the first one that speaks Vulkan 1.3. It
// opens libvulkan.so.1 (Library) first and closes it last.
#pragma once

#include <memory>

#include "vk_common.hpp"
#include "vk_debug.hpp"
#include "vk_library.hpp"
#include "vk_options.hpp"

namespace novem::vk {

class Instance {
public:
  // Throws VkError or std::runtime_error (one line) when libvulkan.so.1 cannot be loaded or no
  // instance can be created.
  explicit Instance(const Options &options);
  ~Instance();
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  VkInstance handle() const { return instance_; }
  // The instance-level commands (physical devices, vkGetDeviceProcAddr, debug utils).
  const NovemVkInstance &vk() const { return vk_; }

  // VK_KHR_surface and VK_KHR_xcb_surface are enabled: X11 windows can be presented to.
  bool surfaces() const { return surfaces_; }

  // The first physical device with Vulkan 1.3; throws std::runtime_error when there is none.
  VkPhysicalDevice pick_physical_device() const;

private:
  Library library_;
  NovemVkInstance vk_{};
  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<DebugMessenger> messenger_;
  bool surfaces_ = false;
};

} // namespace novem::vk
