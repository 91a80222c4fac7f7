// VK_EXT_debug_utils names and labels, kept for the dumps and the trace (labels.hpp). Every hook
// records, then passes the call down when the chain below has the command: a driver without the
// extension (the loader answers the instance extension itself) still gets its labels reported.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "novem_qd_intercepts.h"
#include "state.hpp"

namespace novem_qd {

const std::string &DebugLabels::name_of(std::uint64_t handle) const {
  static const std::string none;
  auto it = names.find(handle);
  return it == names.end() ? none : it->second;
}

void DebugLabels::open_queue_labels(VkQueue queue, std::vector<std::string> &out) {
  out.clear();
  std::lock_guard lock(mutex);
  auto it = queues.find(queue);
  if (it != queues.end()) out.assign(it->second.begin(), it->second.end());
}

std::string command_buffer_json(const DebugLabels &labels, VkCommandBuffer cb) {
  char handle[32];
  std::snprintf(handle, sizeof handle, "\"0x%" PRIx64 "\"", handle_key(cb));
  std::string o = std::string("{\"handle\": ") + handle;
  const std::string &name = labels.name_of(handle_key(cb));
  if (!name.empty()) o += ", \"name\": " + json_quoted(name);
  o += ", \"labels\": [";
  auto it = labels.command_buffers.find(cb);
  if (it != labels.command_buffers.end()) {
    bool first = true;
    for (const LabelOp &op : it->second) {
      o += first ? "" : ", ";
      o += op.kind == LabelOp::Begin ? "{\"op\": \"begin\"" : op.kind == LabelOp::End ? "{\"op\": \"end\"" : "{\"op\": \"insert\"";
      if (op.kind != LabelOp::End) o += ", \"label\": " + json_quoted(op.name);
      o += "}";
      first = false;
    }
  }
  return o + "]}";
}

std::string label_members(DebugLabels &labels, VkQueue queue, const std::vector<std::string> &queue_labels,
                          const std::vector<VkCommandBuffer> &command_buffers) {
  std::string o;
  std::lock_guard lock(labels.mutex);
  const std::string &queue_name = labels.name_of(handle_key(queue));
  if (!queue_name.empty()) o += ", \"queue_name\": " + json_quoted(queue_name);
  if (!queue_labels.empty()) {
    o += ", \"queue_labels\": [";
    for (std::size_t i = 0; i < queue_labels.size(); ++i) o += (i ? ", " : "") + json_quoted(queue_labels[i]);
    o += "]";
  }
  bool any = false;
  for (VkCommandBuffer cb : command_buffers)
    any = any || labels.command_buffers.count(cb) || labels.names.count(handle_key(cb));
  if (any) {
    o += ", \"command_buffer_details\": [";
    for (std::size_t i = 0; i < command_buffers.size(); ++i)
      o += (i ? ", " : "") + command_buffer_json(labels, command_buffers[i]);
    o += "]";
  }
  return o;
}

namespace {

std::string label_text(const VkDebugUtilsLabelEXT *label) {
  return label && label->pLabelName ? label->pLabelName : "";
}

void record(DeviceState &dev, VkCommandBuffer cb, LabelOp::Kind kind, std::string name) {
  std::lock_guard lock(dev.labels.mutex);
  dev.labels.command_buffers[cb].push_back(LabelOp{kind, std::move(name)});
  dev.labels.used.store(true, std::memory_order_release);
}

} // namespace

VKAPI_ATTR VkResult VKAPI_CALL hook::SetDebugUtilsObjectNameEXT(VkDevice device,
                                                                const VkDebugUtilsObjectNameInfoEXT *pNameInfo) {
  DeviceState *dev = device_of(per_thread(), key(device));
  {
    std::lock_guard lock(dev->labels.mutex);
    if (pNameInfo->pObjectName && *pNameInfo->pObjectName)
      dev->labels.names[pNameInfo->objectHandle] = pNameInfo->pObjectName;
    else // a NULL or empty name removes it
      dev->labels.names.erase(pNameInfo->objectHandle);
    dev->labels.used.store(true, std::memory_order_release);
  }
  return dev->table.SetDebugUtilsObjectNameEXT ? dev->table.SetDebugUtilsObjectNameEXT(device, pNameInfo) : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL hook::QueueBeginDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo) {
  DeviceState *dev = device_of(per_thread(), key(queue));
  {
    std::lock_guard lock(dev->labels.mutex);
    dev->labels.queues[queue].push_back(label_text(pLabelInfo));
    dev->labels.used.store(true, std::memory_order_release);
  }
  if (dev->table.QueueBeginDebugUtilsLabelEXT) dev->table.QueueBeginDebugUtilsLabelEXT(queue, pLabelInfo);
}

VKAPI_ATTR void VKAPI_CALL hook::QueueEndDebugUtilsLabelEXT(VkQueue queue) {
  DeviceState *dev = device_of(per_thread(), key(queue));
  {
    std::lock_guard lock(dev->labels.mutex);
    auto it = dev->labels.queues.find(queue);
    if (it != dev->labels.queues.end() && !it->second.empty()) it->second.pop_back();
  }
  if (dev->table.QueueEndDebugUtilsLabelEXT) dev->table.QueueEndDebugUtilsLabelEXT(queue);
}

// An inserted queue label is a point, not a region: it is not open at any later submission, so the
// dumps do not show it (the validation layers treat it the same way).
VKAPI_ATTR void VKAPI_CALL hook::QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo) {
  DeviceState *dev = device_of(per_thread(), key(queue));
  if (dev->table.QueueInsertDebugUtilsLabelEXT) dev->table.QueueInsertDebugUtilsLabelEXT(queue, pLabelInfo);
}

VKAPI_ATTR void VKAPI_CALL hook::CmdBeginDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                            const VkDebugUtilsLabelEXT *pLabelInfo) {
  DeviceState *dev = device_of(per_thread(), key(commandBuffer));
  record(*dev, commandBuffer, LabelOp::Begin, label_text(pLabelInfo));
  if (dev->table.CmdBeginDebugUtilsLabelEXT) dev->table.CmdBeginDebugUtilsLabelEXT(commandBuffer, pLabelInfo);
}

VKAPI_ATTR void VKAPI_CALL hook::CmdEndDebugUtilsLabelEXT(VkCommandBuffer commandBuffer) {
  DeviceState *dev = device_of(per_thread(), key(commandBuffer));
  record(*dev, commandBuffer, LabelOp::End, "");
  if (dev->table.CmdEndDebugUtilsLabelEXT) dev->table.CmdEndDebugUtilsLabelEXT(commandBuffer);
}

VKAPI_ATTR void VKAPI_CALL hook::CmdInsertDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                             const VkDebugUtilsLabelEXT *pLabelInfo) {
  DeviceState *dev = device_of(per_thread(), key(commandBuffer));
  record(*dev, commandBuffer, LabelOp::Insert, label_text(pLabelInfo));
  if (dev->table.CmdInsertDebugUtilsLabelEXT) dev->table.CmdInsertDebugUtilsLabelEXT(commandBuffer, pLabelInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL hook::BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                       const VkCommandBufferBeginInfo *pBeginInfo) {
  DeviceState *dev = device_of(per_thread(), key(commandBuffer));
  if (dev->labels.used.load(std::memory_order_acquire)) {
    std::lock_guard lock(dev->labels.mutex);
    dev->labels.command_buffers.erase(commandBuffer); // a new recording: the old labels are gone
  }
  return dev->table.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR void VKAPI_CALL hook::FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                                   uint32_t commandBufferCount, const VkCommandBuffer *pCommandBuffers) {
  DeviceState *dev = device_of(per_thread(), key(device));
  if (dev->labels.used.load(std::memory_order_acquire)) {
    std::lock_guard lock(dev->labels.mutex); // forget them first: the handles may be reused at once
    for (std::uint32_t i = 0; i < commandBufferCount; ++i) {
      dev->labels.command_buffers.erase(pCommandBuffers[i]);
      dev->labels.names.erase(handle_key(pCommandBuffers[i]));
    }
  }
  dev->table.FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

} // namespace novem_qd
