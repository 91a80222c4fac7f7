// The measuring side of novem-bench-layer (child.hpp): lavapipe's first queue, and either a tight
// loop of empty submits or a frame loop doing real work behind a fence per frame, as vkcube and
// novem-demo do.
#include "child.hpp"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace bench_layer {

namespace {

[[noreturn]] void die(const char *what, VkResult r) {
  std::fprintf(stderr, "novem-bench-layer: %s failed (VkResult %d)\n", what, static_cast<int>(r));
  std::exit(1);
}
#define MUST(call)                                                                                                     \
  do {                                                                                                                 \
    const VkResult r_ = (call);                                                                                        \
    if (r_ != VK_SUCCESS) die(#call, r_);                                                                              \
  } while (0)

std::uint64_t process_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

// CPU time of this process's threads named novem-qd (the layer's, one per device), from the
// scheduler's statistics (the first field of /proc/self/task/T/schedstat, in ns).
std::uint64_t layer_thread_cpu_ns() {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto &task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::string comm;
    std::getline(std::ifstream(task.path() / "comm"), comm);
    if (comm != "novem-qd") continue;
    std::uint64_t ns = 0;
    std::ifstream(task.path() / "schedstat") >> ns;
    total += ns;
  }
  return total;
}

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
};

Context open_device() {
  Context c;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "novem-bench-layer";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  MUST(vkCreateInstance(&ici, nullptr, &c.instance));
  std::uint32_t count = 0;
  MUST(vkEnumeratePhysicalDevices(c.instance, &count, nullptr));
  std::vector<VkPhysicalDevice> gpus(count);
  MUST(vkEnumeratePhysicalDevices(c.instance, &count, gpus.data()));
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props{};
  for (VkPhysicalDevice g : gpus) { // lavapipe; else the first device
    vkGetPhysicalDeviceProperties(g, &props);
    if (std::strstr(props.deviceName, "llvmpipe")) {
      gpu = g;
      break;
    }
  }
  if (!gpu && !gpus.empty()) {
    gpu = gpus[0];
    vkGetPhysicalDeviceProperties(gpu, &props);
  }
  if (!gpu) die("finding a Vulkan device", VK_ERROR_INITIALIZATION_FAILED);
  std::printf("device %s\n", props.deviceName);
  vkGetPhysicalDeviceMemoryProperties(gpu, &c.memory);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.timelineSemaphore = VK_TRUE; // the timeline workload's (Vulkan 1.2 core: every 1.2 device has it)
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &v12;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  MUST(vkCreateDevice(gpu, &dci, nullptr, &c.device));
  vkGetDeviceQueue(c.device, 0, 0, &c.queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.queueFamilyIndex = 0;
  MUST(vkCreateCommandPool(c.device, &pci, nullptr, &c.pool));
  return c;
}

std::vector<VkCommandBuffer> command_buffers(const Context &c, std::uint32_t n) {
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cai.commandPool = c.pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = n;
  std::vector<VkCommandBuffer> cbs(n);
  MUST(vkAllocateCommandBuffers(c.device, &cai, cbs.data()));
  return cbs;
}

// What one run measured, in ns for the whole run.
struct Sample {
  std::uint64_t wall = 0, cpu = 0, layer = 0;
};

template <class F> Sample timed(F body) {
  const std::uint64_t cpu0 = process_cpu_ns(), layer0 = layer_thread_cpu_ns();
  Sample s;
  s.wall = body(); // the body times its own part (Submit leaves its vkQueueWaitIdle calls out)
  s.cpu = process_cpu_ns() - cpu0;
  s.layer = layer_thread_cpu_ns() - layer0;
  return s;
}

void print(const Sample &s, std::uint32_t n) {
  const double d = static_cast<double>(n);
  std::printf("run %.1f %.1f %.1f\n", static_cast<double>(s.wall) / d, static_cast<double>(s.cpu) / d,
              static_cast<double>(s.layer) / d);
  std::fflush(stdout);
}

std::uint64_t elapsed(std::chrono::steady_clock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

// N vkQueueSubmit calls of one empty command buffer, no fence, in groups of `batch` with an untimed
// vkQueueWaitIdle between them so that the queue stays bounded.
void submits(const Context &c, const ChildOptions &o) {
  const VkCommandBuffer cb = command_buffers(c, 1)[0];
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT; // submitted again while pending
  MUST(vkBeginCommandBuffer(cb, &begin));
  MUST(vkEndCommandBuffer(cb));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  auto measure = [&](std::uint32_t n) {
    return timed([&] {
      std::uint64_t total = 0;
      for (std::uint32_t done = 0; done < n;) {
        const std::uint32_t k = std::min(o.batch, n - done);
        const auto t0 = std::chrono::steady_clock::now();
        for (std::uint32_t i = 0; i < k; ++i) MUST(vkQueueSubmit(c.queue, 1, &si, VK_NULL_HANDLE));
        total += elapsed(t0);
        MUST(vkQueueWaitIdle(c.queue));
        done += k;
      }
      return total;
    });
  };
  measure(std::min<std::uint32_t>(o.count, 5000)); // warm-up
  for (std::uint32_t r = 0; r < o.runs; ++r) print(measure(o.count), o.count);
}

// Frames as vkcube and novem-demo make them: two frames in flight, each waits for its fence (the
// one submitted two frames before), resets it, and submits its command buffer with it. The work:
// a clear of a 1024x1024 RGBA8 image (4 MiB written by lavapipe), after a barrier. With
// `timeline`, as DXVK and vkd3d-proton make them instead: no fence; frame n's submission signals
// value n + 1 of one timeline semaphore, and frame n first waits (vkWaitSemaphores) for value
// n - 1, the frame two before.
void frames(const Context &c, const ChildOptions &o, bool timeline) {
  constexpr std::uint32_t kInFlight = 2, kSize = 1024;
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = VK_FORMAT_R8G8B8A8_UNORM;
  ii.extent = {kSize, kSize, 1};
  ii.mipLevels = ii.arrayLayers = 1;
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.tiling = VK_IMAGE_TILING_OPTIMAL;
  ii.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage image;
  MUST(vkCreateImage(c.device, &ii, nullptr, &image));
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(c.device, image, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  while (!(req.memoryTypeBits & (1u << mai.memoryTypeIndex))) ++mai.memoryTypeIndex;
  VkDeviceMemory memory;
  MUST(vkAllocateMemory(c.device, &mai, nullptr, &memory));
  MUST(vkBindImageMemory(c.device, image, memory, 0));

  const std::vector<VkCommandBuffer> cbs = command_buffers(c, kInFlight);
  const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  for (VkCommandBuffer cb : cbs) {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    MUST(vkBeginCommandBuffer(cb, &begin));
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT; // after the previous frame's clear
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = all;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &b);
    const VkClearColorValue colour{{0.25f, 0.5f, 0.75f, 1.0f}};
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &all);
    MUST(vkEndCommandBuffer(cb));
  }
  std::vector<VkFence> fences(kInFlight);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
  for (VkFence &f : fences) MUST(vkCreateFence(c.device, &fci, nullptr, &f));
  VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  const VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &tci};
  VkSemaphore done = VK_NULL_HANDLE; // value n + 1: frame n complete
  MUST(vkCreateSemaphore(c.device, &sci, nullptr, &done));
  auto wait_for = [&](std::uint64_t value) {
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &done;
    wi.pValues = &value;
    MUST(vkWaitSemaphores(c.device, &wi, UINT64_MAX));
  };

  std::uint64_t frame = 0;
  auto measure = [&](std::uint32_t n) {
    return timed([&] {
      const auto t0 = std::chrono::steady_clock::now();
      for (std::uint32_t i = 0; i < n; ++i, ++frame) {
        const std::uint32_t f = static_cast<std::uint32_t>(frame % kInFlight);
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cbs[f];
        if (timeline) {
          if (frame >= kInFlight) wait_for(frame + 1 - kInFlight);
          const std::uint64_t value = frame + 1;
          VkTimelineSemaphoreSubmitInfo tsi{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
          tsi.signalSemaphoreValueCount = 1;
          tsi.pSignalSemaphoreValues = &value;
          si.pNext = &tsi;
          si.signalSemaphoreCount = 1;
          si.pSignalSemaphores = &done;
          MUST(vkQueueSubmit(c.queue, 1, &si, VK_NULL_HANDLE));
        } else {
          MUST(vkWaitForFences(c.device, 1, &fences[f], VK_TRUE, UINT64_MAX));
          MUST(vkResetFences(c.device, 1, &fences[f]));
          MUST(vkQueueSubmit(c.queue, 1, &si, fences[f]));
        }
      }
      if (timeline) wait_for(frame);
      else MUST(vkWaitForFences(c.device, kInFlight, fences.data(), VK_TRUE, UINT64_MAX));
      return elapsed(t0);
    });
  };
  measure(std::min<std::uint32_t>(o.count, 200)); // warm-up
  for (std::uint32_t r = 0; r < o.runs; ++r) print(measure(o.count), o.count);

  MUST(vkDeviceWaitIdle(c.device));
  for (VkFence f : fences) vkDestroyFence(c.device, f, nullptr);
  vkDestroySemaphore(c.device, done, nullptr);
  vkDestroyImage(c.device, image, nullptr);
  vkFreeMemory(c.device, memory, nullptr);
}

} // namespace

int run_child(const ChildOptions &o) {
  const Context c = open_device();
  if (o.workload == Workload::Submit)
    submits(c, o);
  else
    frames(c, o, o.workload == Workload::Timeline);
  vkDestroyCommandPool(c.device, c.pool, nullptr);
  vkDestroyDevice(c.device, nullptr);
  vkDestroyInstance(c.instance, nullptr);
  return 0;
}

} // namespace bench_layer
