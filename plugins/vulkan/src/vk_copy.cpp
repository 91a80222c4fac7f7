// BLIT_IMAGE and FILL_IMAGE: copies between colour images (vkCmdCopyImage2 when the rectangles
// have one size, vkCmdBlitImage2 when they scale, vkCmdResolveImage2 from a multisampled image),
// between depth-stencil images (vkCmdCopyImage2) and colour fills
// (vkCmdClearColorImage for a whole level, vkCmdClearAttachments in a render pass instance of
// its own for a rectangle of a target's level), outside the current render pass instance, with the
// layout tracker's barriers.
#include <cstring>

#include "vk_batch.hpp"
#include "vk_device.hpp"
#include "vk_executor.hpp"
#include "vk_image.hpp"

namespace novem::vk {

namespace {

ImageAccess blit_source() {
  return {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT,
          VK_ACCESS_2_TRANSFER_READ_BIT};
}

ImageAccess transfer_write(VkPipelineStageFlags2 stage) {
  return {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, stage, VK_ACCESS_2_TRANSFER_WRITE_BIT};
}


// vkCmdResolveImage2 and vkCmdCopyImage2 take alike one region of the rectangles' size (of the
// images' aspects), between the command's levels and faces, and the images in their transfer
// layouts.
template <class Record, class Info, class Region>
void same_size_region(Record record, VkCommandBuffer cmd, Info info, Region region, const Image &src, const Image &dst,
                      const nv_cmd_blit_image &a) {
  region.srcSubresource = {src.format().aspects, a.src_level, a.src_layer, 1};
  region.srcOffset = {a.src_rect.x, a.src_rect.y, 0};
  region.dstSubresource = {dst.format().aspects, a.dst_level, a.dst_layer, 1};
  region.dstOffset = {a.dst_rect.x, a.dst_rect.y, 0};
  region.extent = {uint32_t(a.src_rect.width), uint32_t(a.src_rect.height), 1};
  info.srcImage = src.handle();
  info.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  info.dstImage = dst.handle();
  info.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  info.regionCount = 1;
  info.pRegions = &region;
  record(cmd, &info);
}

} // namespace

void Executor::blit_image(const nv_cmd_blit_image &a, const nv_cmd_header *) {
  Image *src = images_.get(a.src, NV_OP_BLIT_IMAGE);
  Image *dst = images_.get(a.dst, NV_OP_BLIT_IMAGE);
  if (!src || !dst) return;
  if (const char *why = checks::blit_image(a, src->shape(), dst->shape())) return violations_.report(NV_OP_BLIT_IMAGE, why);
  if (src->is_depth()) return copy_depth_stencil(*src, *dst, a);
  const bool resolve = src->samples() != VK_SAMPLE_COUNT_1_BIT;
  const bool same_size = a.src_rect.width == a.dst_rect.width && a.src_rect.height == a.dst_rect.height;
  // Rectangles of one size are copied: a copy needs no format feature beyond the transfer ones
  // every image has (lavapipe cannot blit from A2R10G10B10, a back-buffer format).
  const bool copy = !resolve && same_size;

  end_rendering();
  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  barriers_.transition(src->handle(), src->format().aspects, src->access(),
                       copy ? ImageAccess::transfer_source() : blit_source());
  barriers_.transition(dst->handle(), dst->format().aspects, dst->access(),
                       copy ? ImageAccess::transfer_destination()
                            : transfer_write(VK_PIPELINE_STAGE_2_BLIT_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT));
  barriers_.flush(device_->vk(), cmd);
  src->mark_used(id);
  dst->mark_used(id);

  if (resolve || copy) {
    if (resolve)
      same_size_region(device_->vk().CmdResolveImage2, cmd, VkResolveImageInfo2{VK_STRUCTURE_TYPE_RESOLVE_IMAGE_INFO_2},
                       VkImageResolve2{VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2}, *src, *dst, a);
    else
      same_size_region(device_->vk().CmdCopyImage2, cmd, VkCopyImageInfo2{VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2},
                       VkImageCopy2{VK_STRUCTURE_TYPE_IMAGE_COPY_2}, *src, *dst, a);
    if (!options_.batching) submit();
    return;
  }
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2};
  region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, a.src_level, a.src_layer, 1};
  region.srcOffsets[0] = {a.src_rect.x, a.src_rect.y, 0};
  region.srcOffsets[1] = {a.src_rect.x + a.src_rect.width, a.src_rect.y + a.src_rect.height, 1};
  region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, a.dst_level, a.dst_layer, 1};
  region.dstOffsets[0] = {a.dst_rect.x, a.dst_rect.y, 0};
  region.dstOffsets[1] = {a.dst_rect.x + a.dst_rect.width, a.dst_rect.y + a.dst_rect.height, 1};
  VkBlitImageInfo2 bi{VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
  bi.srcImage = src->handle();
  bi.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  bi.dstImage = dst->handle();
  bi.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  bi.regionCount = 1;
  bi.pRegions = &region;
  bi.filter = a.filter == NV_FILTER_LINEAR ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  device_->vk().CmdBlitImage2(cmd, &bi);
  if (!options_.batching) submit();
}

// ABI 5: the whole of one depth-stencil image into another of the same format and size, depth and
// stencil (vkCmdCopyImage2: no scaling, so no blit and no format feature needed). checks::blit_image
// has seen that both are whole images alike.
void Executor::copy_depth_stencil(Image &src, Image &dst, const nv_cmd_blit_image &a) {
  end_rendering();
  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  barriers_.transition(src.handle(), src.format().aspects, src.access(), ImageAccess::transfer_source());
  barriers_.transition(dst.handle(), dst.format().aspects, dst.access(), ImageAccess::transfer_destination());
  barriers_.flush(device_->vk(), cmd);
  src.mark_used(id);
  dst.mark_used(id);
  same_size_region(device_->vk().CmdCopyImage2, cmd, VkCopyImageInfo2{VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2},
                   VkImageCopy2{VK_STRUCTURE_TYPE_IMAGE_COPY_2}, src, dst, a); // whole images: level 0, rect `whole`
  if (!options_.batching) submit();
}

void Executor::fill_image(const nv_cmd_fill_image &a, const nv_cmd_header *) {
  Image *img = images_.get(a.image, NV_OP_FILL_IMAGE);
  if (!img) return;
  if (const char *why = checks::fill_image(a, img->shape())) return violations_.report(NV_OP_FILL_IMAGE, why);
  const uint32_t w = std::max(img->width() >> a.level, 1u), h = std::max(img->height() >> a.level, 1u);
  const bool whole = a.rect.x == 0 && a.rect.y == 0 && uint32_t(a.rect.width) == w && uint32_t(a.rect.height) == h;
  const VkImageView view = whole ? VK_NULL_HANDLE : img->target_view(a.layer, a.level, false);
  if (!whole && !view) throw std::runtime_error("a rectangle is filled on a render target's level only");

  end_rendering();
  VkCommandBuffer cmd = command_buffer();
  img->mark_used(batches_->recording_id());
  VkClearColorValue color;
  std::memcpy(color.float32, a.color, sizeof a.color);
  const NovemVkDevice &vk = device_->vk();
  if (whole) {
    barriers_.transition(img->handle(), img->format().aspects, img->access(), transfer_write(VK_PIPELINE_STAGE_2_CLEAR_BIT));
    barriers_.flush(vk, cmd);
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, a.level, 1, a.layer, 1};
    vk.CmdClearColorImage(cmd, img->handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
  } else {
    // A render pass instance of its own over the level's attachment view; not counted by queries.
    barriers_.transition(img->handle(), img->format().aspects, img->access(), ImageAccess::color_attachment());
    barriers_.flush(vk, cmd);
    VkRenderingAttachmentInfo att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    att.imageView = view;
    att.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    att.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{a.rect.x, a.rect.y}, {uint32_t(a.rect.width), uint32_t(a.rect.height)}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &att;
    vk.CmdBeginRendering(cmd, &ri);
    VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
    clear.clearValue.color = color;
    const VkClearRect rect{ri.renderArea, 0, 1};
    vk.CmdClearAttachments(cmd, 1, &clear, 1, &rect);
    vk.CmdEndRendering(cmd);
  }
  if (!options_.batching) submit();
}

} // namespace novem::vk
