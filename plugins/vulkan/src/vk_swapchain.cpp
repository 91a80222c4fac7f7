#include "vk_swapchain.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>

#include "vk_batch.hpp"
#include "vk_device.hpp"
#include "vk_instance.hpp"

namespace novem::vk {

namespace {

// libX11-xcb's XGetXCBConnection: the xcb connection under an Xlib Display. Looked up at run time
// so that the plugin links nothing of X11.
xcb_connection_t *xcb_connection_of(void *display) {
  using Fn = xcb_connection_t *(*)(void *);
  static Fn fn = [] {
    void *lib = dlopen("libX11-xcb.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib ? reinterpret_cast<Fn>(dlsym(lib, "XGetXCBConnection")) : nullptr;
  }();
  if (!fn) throw std::runtime_error("libX11-xcb.so.1 (XGetXCBConnection) is not available");
  return fn(display);
}

} // namespace

Swapchain::Swapchain(const Instance &instance, const Device &device, const nv_window &window, bool vsync)
    : instance_(instance), device_(device), vsync_(vsync) {
  if (window.system != NV_WINDOW_X11 || !window.display || !window.window)
    throw std::runtime_error("not an X11 window");
  if (!instance.surfaces() || !device.swapchain())
    throw std::runtime_error("the Vulkan driver lacks VK_KHR_xcb_surface or VK_KHR_swapchain");
  VkXcbSurfaceCreateInfoKHR ci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
  ci.connection = xcb_connection_of(reinterpret_cast<void *>(uintptr_t(window.display)));
  ci.window = xcb_window_t(window.window);
  check(instance.vk().CreateXcbSurfaceKHR(instance.handle(), &ci, nullptr, &surface_), "vkCreateXcbSurfaceKHR");
  VkBool32 supported = VK_FALSE;
  instance.vk().GetPhysicalDeviceSurfaceSupportKHR(device.gpu(), device.queue_family(), surface_, &supported);
  if (!supported) {
    instance.vk().DestroySurfaceKHR(instance.handle(), surface_, nullptr);
    throw std::runtime_error("the graphics queue cannot present to this window");
  }
  try {
    create();
  } catch (...) {
    destroy_swapchain();
    instance.vk().DestroySurfaceKHR(instance.handle(), surface_, nullptr);
    throw;
  }
}

Swapchain::~Swapchain() {
  destroy_swapchain();
  instance_.vk().DestroySurfaceKHR(instance_.handle(), surface_, nullptr);
}

void Swapchain::destroy_swapchain() {
  const NovemVkDevice &vk = device_.vk();
  // A present's wait on a rendered_ semaphore has no fence of its own: the queue going idle is
  // the only sign it is over (VUID-vkDestroySemaphore-semaphore-05149). Rare: resize, a window's end.
  if (swapchain_) vk.QueueWaitIdle(device_.queue());
  for (VkSemaphore s : rendered_) vk.DestroySemaphore(device_.handle(), s, nullptr);
  for (VkSemaphore s : acquire_) vk.DestroySemaphore(device_.handle(), s, nullptr);
  rendered_.clear();
  acquire_.clear();
  acquire_use_.clear();
  images_.clear();
  access_.clear();
  if (swapchain_) vk.DestroySwapchainKHR(device_.handle(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
  extent_ = {};
}

void Swapchain::create() {
  const NovemVkInstance &ivk = instance_.vk();
  const NovemVkDevice &vk = device_.vk();
  VkSurfaceCapabilitiesKHR caps{};
  check(ivk.GetPhysicalDeviceSurfaceCapabilitiesKHR(device_.gpu(), surface_, &caps),
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  destroy_swapchain();
  stale_ = false;
  if (caps.currentExtent.width == 0 || caps.currentExtent.height == 0) return; // no area: nothing to show
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
    throw std::runtime_error("the window's swapchain images cannot be blitted into");

  uint32_t count = 0;
  ivk.GetPhysicalDeviceSurfaceFormatsKHR(device_.gpu(), surface_, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  ivk.GetPhysicalDeviceSurfaceFormatsKHR(device_.gpu(), surface_, &count, formats.data());
  if (formats.empty()) throw std::runtime_error("the window has no surface formats");
  // D3D9's back buffers hold display values as they are (no sRGB encoding on present): a UNORM
  // format, B8G8R8A8 first (the layout of X8R8G8B8).
  VkSurfaceFormatKHR chosen = formats[0];
  for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    auto it = std::find_if(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR &f) { return f.format == want; });
    if (it != formats.end()) {
      chosen = *it;
      break;
    }
  }
  VkFormatProperties props{};
  ivk.GetPhysicalDeviceFormatProperties(device_.gpu(), chosen.format, &props);
  if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT))
    throw std::runtime_error("the window's format cannot be blitted into");

  count = 0;
  ivk.GetPhysicalDeviceSurfacePresentModesKHR(device_.gpu(), surface_, &count, nullptr);
  std::vector<VkPresentModeKHR> modes(count);
  ivk.GetPhysicalDeviceSurfacePresentModesKHR(device_.gpu(), surface_, &count, modes.data());
  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR; // always there; waits for the vertical blank
  if (!vsync_)
    for (VkPresentModeKHR m : {VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_MAILBOX_KHR})
      if (std::find(modes.begin(), modes.end(), m) != modes.end()) {
        mode = m;
        break;
      }

  uint32_t images = std::max(caps.minImageCount + 1, 2u);
  if (caps.maxImageCount) images = std::min(images, caps.maxImageCount);
  VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR; // D3D9 windows are opaque
  if (!(caps.supportedCompositeAlpha & alpha))
    alpha = VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);

  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.surface = surface_;
  ci.minImageCount = images;
  ci.imageFormat = chosen.format;
  ci.imageColorSpace = chosen.colorSpace;
  ci.imageExtent = caps.currentExtent;
  ci.imageArrayLayers = 1;
  ci.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR) ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                                                                                      : caps.currentTransform;
  ci.compositeAlpha = alpha;
  ci.presentMode = mode;
  ci.clipped = VK_TRUE;
  check(vk.CreateSwapchainKHR(device_.handle(), &ci, nullptr, &swapchain_), "vkCreateSwapchainKHR");
  format_ = chosen.format;
  extent_ = caps.currentExtent;
  count = 0;
  vk.GetSwapchainImagesKHR(device_.handle(), swapchain_, &count, nullptr);
  images_.resize(count);
  vk.GetSwapchainImagesKHR(device_.handle(), swapchain_, &count, images_.data());
  access_.assign(count, ImageAccess{});
  VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  rendered_.assign(count, VK_NULL_HANDLE);
  acquire_.assign(count + 1, VK_NULL_HANDLE);
  acquire_use_.assign(count + 1, 0);
  for (VkSemaphore &s : rendered_) check(vk.CreateSemaphore(device_.handle(), &si, nullptr, &s), "vkCreateSemaphore");
  for (VkSemaphore &s : acquire_) check(vk.CreateSemaphore(device_.handle(), &si, nullptr, &s), "vkCreateSemaphore");
}

bool Swapchain::acquire(BatchQueue &batches, Frame &frame) {
  VkSurfaceCapabilitiesKHR caps{};
  check(instance_.vk().GetPhysicalDeviceSurfaceCapabilitiesKHR(device_.gpu(), surface_, &caps),
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  const bool resized = caps.currentExtent.width != extent_.width || caps.currentExtent.height != extent_.height;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (stale_ || resized || !swapchain_) {
      batches.drain(); // nothing may still use the old images or semaphores
      create();
    }
    if (!swapchain_) return false;
    // The acquire semaphore is free again once the batch that waited on it has completed.
    acquire_slot_ = (acquire_slot_ + 1) % uint32_t(acquire_.size());
    while (batches.in_use(acquire_use_[acquire_slot_]) && batches.poll()) batches.wait(1000000000ull);
    uint32_t index = 0;
    VkResult r = device_.vk().AcquireNextImageKHR(device_.handle(), swapchain_, UINT64_MAX, acquire_[acquire_slot_],
                                                  VK_NULL_HANDLE, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
      stale_ = true;
      continue;
    }
    if (r == VK_SUBOPTIMAL_KHR) stale_ = true; // still usable: remade at the next present
    else check(r, "vkAcquireNextImageKHR");
    // A new acquire: whatever the image held is not needed (the whole window is written).
    access_[index] = ImageAccess{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_NONE};
    frame = Frame{index, images_[index], extent_, &access_[index], acquire_[acquire_slot_], rendered_[index]};
    return true;
  }
  return false;
}

void Swapchain::present(const Frame &frame) {
  VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  pi.waitSemaphoreCount = 1;
  pi.pWaitSemaphores = &frame.rendered;
  pi.swapchainCount = 1;
  pi.pSwapchains = &swapchain_;
  pi.pImageIndices = &frame.index;
  VkResult r = device_.vk().QueuePresentKHR(device_.queue(), &pi);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) stale_ = true;
  else check(r, "vkQueuePresentKHR");
}

} // namespace novem::vk
