// libvulkan.so.1, opened with dlopen() on the thread that uses Vulkan, and the global commands
// reached through its vkGetInstanceProcAddr. The plugin does not link against libvulkan, so a
// system without it still loads the plugin, and probe() says why Vulkan is unusable.
#pragma once

#include "vk_common.hpp"

namespace novem::vk {

class Library {
public:
  // Throws std::runtime_error("cannot load libvulkan.so.1: ...") when the loader is missing.
  Library();
  ~Library();
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;

  const NovemVkGlobal &vk() const { return vk_; }
  PFN_vkGetInstanceProcAddr get_instance_proc_addr() const { return vk_.GetInstanceProcAddr; }

  static constexpr const char *kName = "libvulkan.so.1";

private:
  void *handle_ = nullptr;
  NovemVkGlobal vk_{};
};

} // namespace novem::vk
