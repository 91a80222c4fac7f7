// A window's presentation: a VkSurfaceKHR (VK_KHR_xcb_surface, on the xcb connection of the
// window's Xlib Display) and a VkSwapchainKHR sized by the window, made again when the window's
// size changes or the swapchain is out of date. PRESENT blits the presented image into an
// acquired swapchain image between the acquire semaphore and a per-image "rendered" semaphore
// that vkQueuePresentKHR waits for.
#pragma once

#include <vector>

#include "novem/commands.h"
#include "vk_barrier.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class BatchQueue;
class Device;
class Instance;

class Swapchain {
public:
  // Throws (one line) when the window cannot be presented to.
  Swapchain(const Instance &instance, const Device &device, const nv_window &window, bool vsync);
  ~Swapchain(); // the caller has waited for the GPU
  Swapchain(const Swapchain &) = delete;
  Swapchain &operator=(const Swapchain &) = delete;

  struct Frame {
    uint32_t index = 0;
    VkImage image = VK_NULL_HANDLE;
    VkExtent2D extent{};
    ImageAccess *access = nullptr; // the image's layout, for the barrier tracker
    VkSemaphore acquired = VK_NULL_HANDLE; // wait for it before writing the image
    VkSemaphore rendered = VK_NULL_HANDLE; // signal it when the image is written
  };
  // The next image to present into, after making the swapchain again when the window's size
  // changed (waiting for the GPU first). False when the window has no area (nothing to present).
  // The batch that waits on frame.acquired must be recorded as `user` (mark_acquire_used).
  bool acquire(BatchQueue &batches, Frame &frame);
  void mark_acquire_used(BatchId id) { acquire_use_[acquire_slot_] = id; }
  // Queues the image for the window; an out-of-date or suboptimal answer remakes the swapchain
  // at the next acquire.
  void present(const Frame &frame);

private:
  void create(); // (re)makes the swapchain for the surface's current extent
  void destroy_swapchain();

  const Instance &instance_;
  const Device &device_;
  bool vsync_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkExtent2D extent_{};
  bool stale_ = false;
  std::vector<VkImage> images_;
  std::vector<ImageAccess> access_;
  std::vector<VkSemaphore> rendered_; // one per image
  std::vector<VkSemaphore> acquire_;  // images + 1, used in turn
  std::vector<BatchId> acquire_use_;  // the batch that waited on each
  uint32_t acquire_slot_ = 0;
};

} // namespace novem::vk
