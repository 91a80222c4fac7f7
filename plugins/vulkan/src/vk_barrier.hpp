// The barrier tracker: each image carries its current layout and last access (ImageAccess);
// BarrierBatch turns the transitions the next commands need into barriers and issues them
// together in one vkCmdPipelineBarrier2. Without tracking (NOVEM_VK_BARRIERS=0, to measure what
// it saves) every transition is a full ALL_COMMANDS barrier of its own, emitted even when nothing
// conflicts, and every flush adds a global ALL_COMMANDS memory barrier — what a layer that does
// not know the previous accesses must do.
#pragma once

#include <atomic>
#include <vector>

#include "vk_common.hpp"

namespace novem::vk {

// How an image was last used (or is about to be).
struct ImageAccess {
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 access = VK_ACCESS_2_NONE;

  static ImageAccess color_attachment();
  static ImageAccess depth_attachment();
  static ImageAccess transfer_source();
  static ImageAccess transfer_destination();
  static ImageAccess shader_read(); // sampled by vertex and fragment shaders
  // GENERAL: a colour target that the draws also sample (another level or face of it, as D3D9
  // allows: a downsample chain, a cube map drawn face by face while bound)
  static ImageAccess feedback();
  // GENERAL: a depth-stencil target that the draws also sample (an INTZ texture read while it
  // depth-tests with writes off: soft particles)
  static ImageAccess depth_feedback();
};

class BarrierBatch {
public:
  // Each vkCmdPipelineBarrier2 counts in `emitted` (the channel's barriers).
  BarrierBatch(bool tracking, std::atomic<uint64_t> &emitted) : tracking_(tracking), emitted_(emitted) {}

  // Adds what it takes to go from `state` to `next` (layout change or hazard), then stores `next`
  // into `state`. Read-after-read in one layout needs nothing.
  void transition(VkImage image, VkImageAspectFlags aspects, ImageAccess &state, const ImageAccess &next);
  // A global memory dependency, e.g. transfer writes → host reads.
  void memory(VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stages,
              VkAccessFlags2 dst_access);

  bool empty() const { return images_.empty() && memory_.empty(); }
  void flush(const NovemVkDevice &vk, VkCommandBuffer cmd);

private:
  const bool tracking_;
  std::atomic<uint64_t> &emitted_;
  std::vector<VkImageMemoryBarrier2> images_;
  std::vector<VkMemoryBarrier2> memory_;
};

} // namespace novem::vk
