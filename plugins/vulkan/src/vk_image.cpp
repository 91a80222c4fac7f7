#include "vk_image.hpp"

#include <algorithm>

#include "vk_device.hpp"

namespace novem::vk {

Image::Image(const Device &device, MemoryAllocator &allocator, nv_format format, uint32_t width, uint32_t height,
             uint32_t usage, uint32_t levels, nv_image_type type, uint32_t depth, uint32_t samples)
    : device_(device), allocator_(allocator), format_(resolve_format(device.instance_vk(), device.gpu(), format)),
      source_format_(format), type_(type), width_(width ? width : 1), height_(height ? height : 1),
      depth_(type == NV_IMAGE_TYPE_3D && depth ? depth : 1), usage_(usage) {
  if (format_.format == VK_FORMAT_UNDEFINED) throw std::runtime_error("not an image format");
  if (type > NV_IMAGE_TYPE_3D) throw std::runtime_error("no such image type");
  // Only 2D images are targets or depth images, and (ABI 5) cube render-target textures.
  const bool cube_target = type == NV_IMAGE_TYPE_CUBE && (usage & NV_IMAGE_SAMPLED) &&
                           !(usage & NV_IMAGE_DEPTH_STENCIL) && !is_depth();
  if (type != NV_IMAGE_TYPE_2D && !cube_target &&
      (is_depth() || (usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL))))
    throw std::runtime_error("only 2D images and cube render-target textures are targets");
  if (type == NV_IMAGE_TYPE_CUBE && width_ != height_) throw std::runtime_error("cube faces are square");
  uint32_t max_levels = 1;
  while ((std::max({width_, height_, depth_}) >> max_levels) != 0) ++max_levels;
  levels_ = std::clamp<uint32_t>(levels, 1, max_levels);
  // Render-target textures keep their chain (rendered into at level 0); other targets have one.
  if ((usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL)) && !(usage & NV_IMAGE_SAMPLED)) levels_ = 1;
  // A multisampled image is a 2D target only: one level, never sampled (ABI 4).
  if (samples > 1 && (samples & (samples - 1)) == 0 && samples <= 64) {
    samples_ = VkSampleCountFlagBits(samples);
    levels_ = 1;
    usage &= ~uint32_t(NV_IMAGE_SAMPLED);
  }

  VkImageUsageFlags vk_usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (is_depth()) vk_usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  else if (usage & NV_IMAGE_RENDER_TARGET) vk_usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  if (usage & NV_IMAGE_SAMPLED) vk_usage |= VK_IMAGE_USAGE_SAMPLED_BIT;

  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.flags = type == NV_IMAGE_TYPE_CUBE ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
  ci.imageType = type == NV_IMAGE_TYPE_3D ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
  ci.format = format_.format;
  ci.extent = {width_, height_, depth_};
  ci.mipLevels = levels_;
  ci.arrayLayers = layers();
  ci.samples = samples_;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = vk_usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  // Formats with an sRGB twin are mutable between the two (ABI 5): the sRGB views decode on read
  // (D3DSAMP_SRGBTEXTURE) and encode on write (D3DRS_SRGBWRITEENABLE).
  const VkFormat formats[2] = {format_.format, format_.srgb};
  VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
  list.viewFormatCount = 2;
  list.pViewFormats = formats;
  if (format_.srgb != VK_FORMAT_UNDEFINED) {
    ci.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    ci.pNext = &list;
  }
  VkDevice dev = device.handle();
  // Past the device's limits vkCreateImage would be invalid: refused as out of memory.
  VkDeviceSize bytes = 0;
  for (uint32_t level = 0; level < levels_; ++level) {
    const auto blocks = [&](uint32_t size) {
      return VkDeviceSize((std::max(size >> level, 1u) + format_.block - 1) / format_.block);
    };
    bytes += blocks(width_) * blocks(height_) * std::max(depth_ >> level, 1u) * format_.texel_bytes;
  }
  allocator.limits().check_image(ci, bytes * layers() * uint32_t(samples_));
  check(device_.vk().CreateImage(dev, &ci, nullptr, &image_), "vkCreateImage");
  try {
    memory_ = allocator.allocate_image(image_, MemoryUsage::DeviceLocal);
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image_;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format_.format;
    vi.subresourceRange = {format_.aspects, 0, 1, 0, 1};
    if (usage & (NV_IMAGE_RENDER_TARGET | NV_IMAGE_DEPTH_STENCIL))
      check(device_.vk().CreateImageView(dev, &vi, nullptr, &view_), "vkCreateImageView");
    // Each view is used for one thing, which its sRGB twin may not support otherwise.
    VkImageViewUsageCreateInfo view_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
    if (view_ && format_.srgb != VK_FORMAT_UNDEFINED && !is_depth()) {
      view_usage.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
      vi.pNext = &view_usage;
      vi.format = format_.srgb;
      check(device_.vk().CreateImageView(dev, &vi, nullptr, &srgb_view_), "vkCreateImageView");
      vi.pNext = nullptr;
      vi.format = format_.format;
    }
    if (usage & NV_IMAGE_SAMPLED) {
      // Depth images sample their depth aspect, read as (D, D, D, D) (INTZ; a comparison returns
      // one value anyway); colour images read through the format's mapping (D3D9's missing
      // channels), X8 formats with alpha 1.
      if (type == NV_IMAGE_TYPE_CUBE) vi.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
      if (type == NV_IMAGE_TYPE_3D) vi.viewType = VK_IMAGE_VIEW_TYPE_3D;
      vi.subresourceRange = {is_depth() ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : format_.aspects, 0, levels_, 0,
                             layers()};
      if (is_depth())
        vi.components = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R};
      else
        vi.components = format_.swizzle;
      if ((usage & NV_IMAGE_ALPHA_ONE) && !is_depth()) vi.components.a = VK_COMPONENT_SWIZZLE_ONE;
      check(device_.vk().CreateImageView(dev, &vi, nullptr, &sampled_view_), "vkCreateImageView");
      if (format_.srgb != VK_FORMAT_UNDEFINED && !is_depth()) {
        view_usage.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
        vi.pNext = &view_usage;
        vi.format = format_.srgb;
        check(device_.vk().CreateImageView(dev, &vi, nullptr, &srgb_sampled_view_), "vkCreateImageView");
      }
    }
  } catch (...) {
    for (VkImageView v : {view_, srgb_view_, sampled_view_, srgb_sampled_view_})
      if (v) device_.vk().DestroyImageView(dev, v, nullptr);
    allocator.free(memory_);
    device_.vk().DestroyImage(dev, image_, nullptr);
    throw;
  }
}

VkImageView Image::target_view(uint32_t layer, uint32_t level, bool srgb) {
  if (!view_ || layer >= layers() || level >= levels_) return VK_NULL_HANDLE;
  srgb = srgb && srgb_view_;
  if (layer == 0 && level == 0) return srgb ? srgb_view_ : view_;
  target_views_.resize(2 * size_t(layers()) * levels_, VK_NULL_HANDLE);
  VkImageView &v = target_views_[(size_t(srgb) * layers() + layer) * levels_ + level];
  if (!v) {
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image_;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = srgb ? format_.srgb : format_.format;
    vi.subresourceRange = {format_.aspects, level, 1, layer, 1};
    check(device_.vk().CreateImageView(device_.handle(), &vi, nullptr, &v), "vkCreateImageView");
  }
  return v;
}

Image::~Image() {
  for (VkImageView v : target_views_)
    if (v) device_.vk().DestroyImageView(device_.handle(), v, nullptr);
  for (VkImageView v : {view_, srgb_view_, sampled_view_, srgb_sampled_view_})
    if (v) device_.vk().DestroyImageView(device_.handle(), v, nullptr);
  device_.vk().DestroyImage(device_.handle(), image_, nullptr);
  allocator_.free(memory_);
}

} // namespace novem::vk
