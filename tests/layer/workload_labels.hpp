// The workloads' --labels option: names objects and records labels through VK_EXT_debug_utils
// (enabled on the instance by the workload), so that the queue diagnostics layer's dumps and trace
// can be checked for them. Each function does nothing where the loader gives no entry point.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace qd_workload {

struct Labels {
  PFN_vkSetDebugUtilsObjectNameEXT set_name = nullptr;
  PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin = nullptr;
  PFN_vkQueueEndDebugUtilsLabelEXT queue_end = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT cmd_end = nullptr;
  PFN_vkCmdInsertDebugUtilsLabelEXT cmd_insert = nullptr;
  VkDevice device = VK_NULL_HANDLE;

  Labels(VkInstance instance, VkDevice d) : device(d) {
    auto get = [&](const char *name) { return vkGetInstanceProcAddr(instance, name); };
    set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(get("vkSetDebugUtilsObjectNameEXT"));
    queue_begin = reinterpret_cast<PFN_vkQueueBeginDebugUtilsLabelEXT>(get("vkQueueBeginDebugUtilsLabelEXT"));
    queue_end = reinterpret_cast<PFN_vkQueueEndDebugUtilsLabelEXT>(get("vkQueueEndDebugUtilsLabelEXT"));
    cmd_begin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(get("vkCmdBeginDebugUtilsLabelEXT"));
    cmd_end = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(get("vkCmdEndDebugUtilsLabelEXT"));
    cmd_insert = reinterpret_cast<PFN_vkCmdInsertDebugUtilsLabelEXT>(get("vkCmdInsertDebugUtilsLabelEXT"));
  }
  template <class T> void name(VkObjectType type, T handle, const char *text) const {
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = reinterpret_cast<std::uint64_t>(handle);
    info.pObjectName = text;
    if (set_name) set_name(device, &info);
  }
  static VkDebugUtilsLabelEXT label(const char *text) {
    VkDebugUtilsLabelEXT l{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    l.pLabelName = text;
    return l;
  }
  // In a command buffer being recorded: begin `region`, insert `point`, end.
  void region(VkCommandBuffer cb, const char *region, const char *point) const {
    const VkDebugUtilsLabelEXT r = label(region), p = label(point);
    if (cmd_begin) cmd_begin(cb, &r);
    if (cmd_insert) cmd_insert(cb, &p);
    if (cmd_end) cmd_end(cb);
  }
  void begin_queue(VkQueue q, const char *text) const {
    const VkDebugUtilsLabelEXT l = label(text);
    if (queue_begin) queue_begin(q, &l);
  }
  void end_queue(VkQueue q) const {
    if (queue_end) queue_end(q);
  }
};

} // namespace qd_workload
