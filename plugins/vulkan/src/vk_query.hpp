// Queries (BEGIN_QUERY / END_QUERY): occlusion counts and timestamps, written into the channel's
// query_results when the batch that measured them has completed (before the fences after it).
//
// A Vulkan occlusion query must begin and end inside one render pass instance, and only one may
// be active at a time, while a D3D9 occlusion query spans any number of passes and several may
// overlap. So a slot's count is the sum of segments: one Vulkan query per render pass instance
// recorded while any slot counts, shared by every slot counting then. The executor ends the
// render pass instance when a slot begins or ends, so the set of counting slots is constant
// within a segment. Pool entries are reset on the command buffer before the pass begins.
#pragma once

#include <memory>
#include <vector>

#include "novem/channel.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class BatchQueue;
class Device;

class Queries {
public:
  Queries(const Device &device, nv_channel &channel);
  ~Queries(); // after every batch that used the pools has completed
  Queries(const Queries &) = delete;
  Queries &operator=(const Queries &) = delete;

  // Outside a render pass instance: `slot` starts counting (again).
  void begin_occlusion(uint32_t slot);
  // Outside a render pass instance: `slot` stops counting; its sum is stored once the recording
  // batch has completed (0 when it never counted).
  void end_occlusion(uint32_t slot, BatchQueue &batches);
  // Outside a render pass instance: writes the time into a new pool entry; stored in ns later.
  void timestamp(uint32_t slot, VkCommandBuffer cmd, BatchQueue &batches);

  // Around each render pass instance: before it begins (outside), once it has begun, before it ends.
  void before_rendering(VkCommandBuffer cmd);
  void rendering_begun(VkCommandBuffer cmd);
  void rendering_ending(VkCommandBuffer cmd);

private:
  struct Segment; // one occlusion pool entry, shared by the slots counting while it was recorded
  struct Counting {
    uint32_t slot;
    std::vector<std::shared_ptr<Segment>> segments;
  };

  std::shared_ptr<Segment> new_segment();
  uint32_t take(std::vector<uint32_t> &free, const char *what);

  const Device &device_;
  nv_channel &channel_;
  VkQueryPool occlusion_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;
  std::vector<uint32_t> free_occlusion_, free_timestamps_;
  std::vector<Counting> counting_;
  std::shared_ptr<Segment> pending_; // reset, to begin with the next render pass instance
  std::shared_ptr<Segment> open_;    // begun in the current render pass instance
};

} // namespace novem::vk
