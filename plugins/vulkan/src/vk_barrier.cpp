#include "vk_barrier.hpp"

#include "novem/counter.hpp"

namespace novem::vk {

namespace {

constexpr VkAccessFlags2 kWrites = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
                                   VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                   VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;

} // namespace

ImageAccess ImageAccess::color_attachment() {
  return {VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
          VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT};
}

ImageAccess ImageAccess::depth_attachment() {
  return {VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
          VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
          VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
}

ImageAccess ImageAccess::transfer_source() {
  return {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
}

ImageAccess ImageAccess::transfer_destination() {
  return {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
}

ImageAccess ImageAccess::shader_read() {
  return {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
          VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
          VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
}

ImageAccess ImageAccess::feedback() {
  return {VK_IMAGE_LAYOUT_GENERAL,
          VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
              VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
          VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
}

ImageAccess ImageAccess::depth_feedback() {
  return {VK_IMAGE_LAYOUT_GENERAL,
          VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
              VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
          VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
              VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
}

void BarrierBatch::transition(VkImage image, VkImageAspectFlags aspects, ImageAccess &state, const ImageAccess &next) {
  const bool same_layout = state.layout == next.layout;
  const bool hazard = ((state.access | next.access) & kWrites) != 0;
  if (tracking_ && same_layout && !hazard) {
    state.stages |= next.stages;
    state.access |= next.access;
    return;
  }
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = state.stages ? state.stages : VK_PIPELINE_STAGE_2_NONE;
  b.srcAccessMask = state.access & kWrites; // only writes need making available
  b.dstStageMask = next.stages;
  b.dstAccessMask = next.access;
  if (!tracking_) {
    b.srcStageMask = b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  }
  b.oldLayout = state.layout;
  b.newLayout = next.layout;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}; // the whole image, every level and layer
  images_.push_back(b);
  state = next;
}

void BarrierBatch::memory(VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stages;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stages;
  b.dstAccessMask = dst_access;
  memory_.push_back(b);
}

void BarrierBatch::flush(const NovemVkDevice &vk, VkCommandBuffer cmd) {
  if (!tracking_) { // a global barrier, then one call per barrier, nothing merged
    memory(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
           VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    for (const VkMemoryBarrier2 &m : memory_) {
      VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      dep.memoryBarrierCount = 1;
      dep.pMemoryBarriers = &m;
      vk.CmdPipelineBarrier2(cmd, &dep);
    }
    for (const VkImageMemoryBarrier2 &b : images_) {
      VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      dep.imageMemoryBarrierCount = 1;
      dep.pImageMemoryBarriers = &b;
      vk.CmdPipelineBarrier2(cmd, &dep);
    }
    novem::bump(emitted_, memory_.size() + images_.size());
    images_.clear();
    memory_.clear();
    return;
  }
  if (empty()) return;
  novem::bump(emitted_);
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = uint32_t(memory_.size());
  dep.pMemoryBarriers = memory_.data();
  dep.imageMemoryBarrierCount = uint32_t(images_.size());
  dep.pImageMemoryBarriers = images_.data();
  vk.CmdPipelineBarrier2(cmd, &dep);
  images_.clear();
  memory_.clear();
}

} // namespace novem::vk
