// What the application told the driver about its objects through VK_EXT_debug_utils: object names
// (vkSetDebugUtilsObjectNameEXT) and labels (vkQueue*/vkCmd*DebugUtilsLabelEXT), kept per device so
// that a dump and the trace can say "the command buffer `shadow pass`, inside `frame 812`" instead
// of a bare handle. The hooks are in labels.cpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "novem_qd_dispatch.h"

namespace novem_qd {

// One label command recorded in a command buffer, in recording order.
struct LabelOp {
  enum Kind : std::uint8_t { Begin, End, Insert } kind = Begin;
  std::string name; // empty for End
};

struct DebugLabels {
  std::mutex mutex; // guards the maps; never held across a call down
  // Object handle (any type: on 64-bit hosts every handle is unique) -> its debug-utils name.
  std::unordered_map<std::uint64_t, std::string> names;
  // The label commands of a command buffer since its last vkBeginCommandBuffer. A pending command
  // buffer cannot be re-recorded, so at dump time this is what the in-flight one executes.
  std::unordered_map<VkCommandBuffer, std::vector<LabelOp>> command_buffers;
  // A queue's open labels (vkQueueBeginDebugUtilsLabelEXT not yet ended), outermost first.
  std::unordered_map<VkQueue, std::vector<std::string>> queues;
  // Set by the first name or label: until then the submit path and the tracker skip the lock.
  std::atomic<bool> used{false};

  // The name of `handle`, or "" (mutex held).
  const std::string &name_of(std::uint64_t handle) const;
  // `queue`'s open labels into `out` (reusing its capacity); empty without labels. Takes the
  // mutex: the submit path calls it only once `used` is set.
  void open_queue_labels(VkQueue queue, std::vector<std::string> &out);
};

// A command buffer as the dumps and the trace show it: {"handle", "name" (if named), "labels":
// [{"op": "begin" | "end" | "insert", "label"}]} (mutex held).
std::string command_buffer_json(const DebugLabels &labels, VkCommandBuffer cb);

// The names and labels of one submission as JSON members for the report's and the trace's events:
// `, "queue_name": ..., "queue_labels": [...], "command_buffer_details": [...]`, each only where
// there is something to say. Takes the mutex: the submit path calls it only once `used` is set.
std::string label_members(DebugLabels &labels, VkQueue queue, const std::vector<std::string> &queue_labels,
                          const std::vector<VkCommandBuffer> &command_buffers);

// The handle's bits as the names map keys them.
template <class T> std::uint64_t handle_key(T h) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(h));
  else
    return static_cast<std::uint64_t>(h);
}

} // namespace novem_qd
