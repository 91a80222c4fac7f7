// Images: offscreen color targets, depth/stencil buffers and sampled textures (optimal tiling,
// device memory), their views (level 0 for attachments, and for render-target textures one per
// level and face, made when first rendered into; every level, with the alpha-one swizzle where
// asked, for sampling), their format and the layout tracker's state (ImageAccess, one for the
// whole image).
#pragma once

#include <algorithm>
#include <vector>

#include "novem/command_checks.hpp"
#include "novem/commands.h"
#include "vk_barrier.hpp"
#include "vk_common.hpp"
#include "vk_format.hpp"
#include "vk_memory.hpp"

namespace novem::vk {

class Device;

class Image {
public:
  // Throws VkError (or std::runtime_error for a format that is no image format); past what the
  // device makes (ResourceLimits) with VK_ERROR_OUT_OF_DEVICE_MEMORY, before any Vulkan call.
  Image(const Device &device, MemoryAllocator &allocator, nv_format format, uint32_t width, uint32_t height,
        uint32_t usage, uint32_t levels = 1, nv_image_type type = NV_IMAGE_TYPE_2D, uint32_t depth = 1,
        uint32_t samples = 1);
  ~Image(); // the caller makes sure no batch still uses it
  Image(const Image &) = delete;
  Image &operator=(const Image &) = delete;

  VkImage handle() const { return image_; }
  // The attachment view of level 0 (VK_NULL_HANDLE unless created as a target or depth image).
  VkImageView view() const { return view_; }
  // The attachment view of a level of a layer (cube face), in the sRGB format when srgb and the
  // image has one (D3DRS_SRGBWRITEENABLE): view()/srgb_view() for level 0 of layer 0, else made on
  // first use (render-target textures); VK_NULL_HANDLE for a level or layer it lacks.
  VkImageView target_view(uint32_t layer, uint32_t level, bool srgb);
  uint32_t width(uint32_t level) const { return std::max(width_ >> level, 1u); }
  uint32_t height(uint32_t level) const { return std::max(height_ >> level, 1u); }
  // The view shaders sample (VK_NULL_HANDLE without NV_IMAGE_SAMPLED).
  VkImageView sampled_view() const { return sampled_view_; }
  // ABI 5: the sRGB views (format().srgb) of sampled and target images: reads decode, draws
  // encode. VK_NULL_HANDLE where the format has no sRGB twin.
  VkImageView srgb_sampled_view() const { return srgb_sampled_view_; }
  VkImageView srgb_view() const { return srgb_view_; }
  uint32_t levels() const { return levels_; }
  VkSampleCountFlagBits samples() const { return samples_; }
  const FormatInfo &format() const { return format_; }
  // The nv_format it was created with: the layout of its uploads.
  nv_format source_format() const { return source_format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t depth() const { return depth_; }
  nv_image_type type() const { return type_; }
  uint32_t layers() const { return type_ == NV_IMAGE_TYPE_CUBE ? 6 : 1; }
  uint32_t usage() const { return usage_; } // the nv_image_usage it was created with
  bool is_depth() const { return (format_.aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0; }
  // What the contract's checks of a command read of it (novem/command_checks.hpp).
  novem::checks::ImageShape shape() const {
    return {width_, height_, depth_, levels_, layers(), type_, source_format_,
            sampled_view_ != VK_NULL_HANDLE && !is_depth(), is_depth(), uint32_t(samples_),
            sampled_view_ != VK_NULL_HANDLE && is_depth()};
  }

  ImageAccess &access() { return access_; }
  // The batch of the last use recorded in a batch's command buffer (mark_used), and of the last
  // use of any kind, a batch's uploads included (mark_uploaded): the image lives until that
  // batch completes.
  void mark_used(BatchId id) { last_use_ = recorded_use_ = id; }
  void mark_uploaded(BatchId id) { last_use_ = id; }
  BatchId last_use() const { return last_use_; }
  BatchId recorded_use() const { return recorded_use_; }

private:
  const Device &device_;
  MemoryAllocator &allocator_;
  FormatInfo format_;
  nv_format source_format_;
  nv_image_type type_;
  uint32_t width_, height_, depth_;
  uint32_t levels_ = 1;
  uint32_t usage_;
  VkSampleCountFlagBits samples_ = VK_SAMPLE_COUNT_1_BIT;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkImageView sampled_view_ = VK_NULL_HANDLE;
  std::vector<VkImageView> target_views_; // [srgb][layer][level], made on first use
  VkImageView srgb_sampled_view_ = VK_NULL_HANDLE;
  VkImageView srgb_view_ = VK_NULL_HANDLE;
  Allocation memory_;
  ImageAccess access_;
  BatchId last_use_ = 0;
  BatchId recorded_use_ = 0;
};

} // namespace novem::vk
