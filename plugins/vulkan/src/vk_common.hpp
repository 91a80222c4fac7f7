// What every file of the Vulkan plugin shares: the Vulkan types and dispatch tables, the error
// type and check(). Every Vulkan call goes through a table: NovemVkGlobal (Library),
// NovemVkInstance (Instance::vk()) or NovemVkDevice (Device::vk()), generated at build time from
// vk.xml by novem-registry-gen; <vulkan/vulkan.h> is included with VK_NO_PROTOTYPES.
#pragma once

#include "novem_vk.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace novem::vk {

// A failed Vulkan call. The submission thread catches it per command and reports one line.
class VkError : public std::runtime_error {
public:
  VkError(VkResult result, const std::string &what)
      : std::runtime_error(what + ": " + result_name(result)), result_(result) {}
  VkResult result() const { return result_; }

  static const char *result_name(VkResult r);

private:
  VkResult result_;
};

inline void check(VkResult result, const char *what) {
  if (result < 0) throw VkError(result, what);
}

// Batch ids: every recorded command buffer gets one, in submission order. A resource remembers
// the id of the last batch that used it; it is idle once that id has completed.
using BatchId = uint64_t;

} // namespace novem::vk
