#include "vk_debug.hpp"

#include "novem/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace novem::vk {

namespace {

std::atomic<uint64_t> g_errors{0};

// pUserData is non-null when the process must abort on the first error.
VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data,
                                          void *abort_on_error) {
  // Only the validation layer's errors count: the loader reports through the same messenger
  // (GENERAL type), e.g. a missing driver, which is a reason to fall back, not a bug of ours.
  // One warning counts too: a shader input that no earlier stage or vertex attribute writes
  // (InputNotProduced, a performance warning) reads an undefined value, where D3D9 defines one.
  const bool input_not_produced =
      data && data->pMessageIdName && std::strstr(data->pMessageIdName, "InputNotProduced") != nullptr;
  if (!input_not_produced) {
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) return VK_FALSE;
    if (!(type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)) return VK_FALSE;
  }
  g_errors.fetch_add(1, std::memory_order_relaxed); // the messenger may call from any thread
  const char *text = data && data->pMessage ? data->pMessage : "(no message)";
  novem::Logger &logger = novem::process_logger();
  logger.write(novem::LogLevel::error, "novem-vulkan", "validation: %s", text);
  if (abort_on_error) {
    logger.write(novem::LogLevel::error, "novem-vulkan",
                 "validation error: aborting (set NOVEM_VK_VALIDATION_NOABORT to continue)");
    std::fflush(nullptr);
    std::abort();
  }
  return VK_FALSE;
}

} // namespace

VkDebugUtilsMessengerCreateInfoEXT DebugMessenger::create_info(bool abort_on_error) {
  VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  ci.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  ci.pfnUserCallback = on_message;
  // Any non-null pointer means "abort"; the callback never dereferences it.
  ci.pUserData = abort_on_error ? reinterpret_cast<void *>(&g_errors) : nullptr;
  return ci;
}

DebugMessenger::DebugMessenger(const NovemVkInstance &vk, VkInstance instance, bool abort_on_error)
    : vk_(&vk), instance_(instance) {
  if (!vk.CreateDebugUtilsMessengerEXT || !vk.DestroyDebugUtilsMessengerEXT)
    throw VkError(VK_ERROR_EXTENSION_NOT_PRESENT, "vkCreateDebugUtilsMessengerEXT");
  VkDebugUtilsMessengerCreateInfoEXT ci = create_info(abort_on_error);
  check(vk.CreateDebugUtilsMessengerEXT(instance, &ci, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
}

DebugMessenger::~DebugMessenger() {
  if (messenger_) vk_->DestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
}

uint64_t DebugMessenger::error_count() { return g_errors.load(std::memory_order_relaxed); }

} // namespace novem::vk
