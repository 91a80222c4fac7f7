// PRESENT, CREATE_SWAPCHAIN and DESTROY_SWAPCHAIN: headless presents end the batch; a window's
// present blits the image into an acquired swapchain image (the rest of the window cleared to
// black) and queues it, the batch waiting on the acquire semaphore and signalling the one
// vkQueuePresentKHR waits on.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "vk_batch.hpp"
#include "vk_device.hpp"
#include "vk_executor.hpp"
#include "vk_image.hpp"
#include "vk_instance.hpp"
#include "vk_swapchain.hpp"

namespace novem::vk {

void Executor::create_swapchain(const nv_cmd_create_swapchain &a, const nv_cmd_header *) {
  if (!a.swapchain) return;
  swapchains_.erase(a.swapchain);
  try {
    swapchains_[a.swapchain] = std::make_unique<Swapchain>(*instance_, *device_, a.window, a.vsync != 0);
  } catch (const std::exception &e) {
    swapchains_[a.swapchain] = nullptr; // its presents show nothing (the contract)
    throw;
  }
}

void Executor::destroy_swapchain(const nv_cmd_destroy_swapchain &a, const nv_cmd_header *) {
  auto it = swapchains_.find(a.swapchain);
  if (it == swapchains_.end()) return;
  if (it->second) batches_->drain(); // its images and semaphores may be in use
  swapchains_.erase(it);
}

void Executor::present(const nv_cmd_present &a, const nv_cmd_header *) {
  auto it = a.swapchain ? swapchains_.find(a.swapchain) : swapchains_.end();
  // An image that could not be made shows nothing, quietly (novem/failed_creations.hpp).
  const bool shown = it != swapchains_.end() && it->second && !failed_.image(a.image);
  Image *src = shown ? images_.get(a.image, NV_OP_PRESENT) : nullptr;
  if (!src) {
    submit(); // headless: a frame boundary
    return;
  }
  if (const char *why = checks::present(a, src->shape())) {
    violations_.report(NV_OP_PRESENT, why);
    submit(); // still a frame boundary
    return;
  }
  const nv_rect s = a.src_rect.width ? a.src_rect : nv_rect{0, 0, int32_t(src->width()), int32_t(src->height())};

  end_rendering();
  Swapchain &chain = *it->second;
  Swapchain::Frame frame;
  if (!chain.acquire(*batches_, frame)) { // a window without area shows nothing
    submit();
    return;
  }
  const int32_t W = int32_t(frame.extent.width), H = int32_t(frame.extent.height);
  const nv_rect d = a.dst_rect.width ? a.dst_rect : nv_rect{0, 0, W, H};
  // The destination clipped to the window, the source cut in proportion.
  const int32_t x0 = std::max(d.x, 0), y0 = std::max(d.y, 0);
  const int32_t x1 = std::min(d.x + d.width, W), y1 = std::min(d.y + d.height, H);
  const double sx = double(s.width) / d.width, sy = double(s.height) / d.height;
  const int32_t sx0 = s.x + int32_t(std::lround((x0 - d.x) * sx)), sx1 = s.x + int32_t(std::lround((x1 - d.x) * sx));
  const int32_t sy0 = s.y + int32_t(std::lround((y0 - d.y) * sy)), sy1 = s.y + int32_t(std::lround((y1 - d.y) * sy));
  const bool blit = x0 < x1 && y0 < y1 && sx0 < sx1 && sy0 < sy1;
  const bool covers = blit && x0 == 0 && y0 == 0 && x1 == W && y1 == H;

  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  const NovemVkDevice &vk = device_->vk();
  const ImageAccess write{VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
  barriers_.transition(frame.image, VK_IMAGE_ASPECT_COLOR_BIT, *frame.access, write);
  if (blit)
    barriers_.transition(src->handle(), src->format().aspects, src->access(),
                         ImageAccess{VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                     VK_ACCESS_2_TRANSFER_READ_BIT});
  barriers_.flush(vk, cmd);
  if (!covers) {
    const VkClearColorValue black{{0.0f, 0.0f, 0.0f, 1.0f}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vk.CmdClearColorImage(cmd, frame.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &range);
    barriers_.transition(frame.image, VK_IMAGE_ASPECT_COLOR_BIT, *frame.access, write); // clear, then blit
    barriers_.flush(vk, cmd);
  }
  if (blit) {
    VkFormatProperties props{};
    device_->instance_vk().GetPhysicalDeviceFormatProperties(device_->gpu(), src->format().format, &props);
    const bool scaled = sx1 - sx0 != x1 - x0 || sy1 - sy0 != y1 - y0;
    VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
    region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffsets[0] = {sx0, sy0, 0};
    region.srcOffsets[1] = {sx1, sy1, 1};
    region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.dstOffsets[0] = {x0, y0, 0};
    region.dstOffsets[1] = {x1, y1, 1};
    VkBlitImageInfo2 bi{VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
    bi.srcImage = src->handle();
    bi.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    bi.dstImage = frame.image;
    bi.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    bi.regionCount = 1;
    bi.pRegions = &region;
    bi.filter = scaled && (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
                    ? VK_FILTER_LINEAR
                    : VK_FILTER_NEAREST;
    vk.CmdBlitImage2(cmd, &bi);
    src->mark_used(id);
  }
  barriers_.transition(frame.image, VK_IMAGE_ASPECT_COLOR_BIT, *frame.access,
                       ImageAccess{VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE});
  barriers_.flush(vk, cmd);
  chain.mark_acquire_used(id);
  batches_->submit(frame.acquired, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, frame.rendered);
  chain.present(frame);
}

} // namespace novem::vk
