// novem-icd-workload: a small Vulkan program for the test ICD (test_icd.cpp). It links the Vulkan
// loader like any application; test_icd_tests.cpp runs it with VK_DRIVER_FILES pointing at the
// test ICD's manifest and checks the lines it prints:
//   devices: N / device I: NAME / family F: flags 0xX queues Q timestamp_bits B / queue F.I: ok|missing
//   <call>: <VkResult name>           for every call that matters to the mode
//   timestamps: ordered|unordered     (normal mode)
//   workload: done
//
//   novem-icd-workload [--mode normal|hang|lose|sparse] [--submits N] [--gap-ms G] [--labels]
// normal: on every queue (0.0, 0.1, 1.0) a vkQueueSubmit with a fence and a vkQueueSubmit2 signalling
//         a timeline semaphore, the waits for them, host signal/wait of the timeline, timestamps.
// hang:   one submit with a fence, then bounded waits (50 ms) that must time out.
// lose:   N submits (the ICD is told which one loses the device), then the waits.
// sparse: on queue 0.0, vkQueueBindSparse {signal binary} with a fence, vkWaitForFences (200 ms),
//         vkQueueBindSparse {wait binary; signal timeline 1} without, vkWaitSemaphores(1, 200 ms),
//         vkQueueWaitIdle (no sparse resource: the binds carry only their semaphores and fences).
// --gap-ms G: G ms of sleep after each of the lose mode's submits (a hang that grows over time).
// --labels: VK_EXT_debug_utils names (device "icd device", queue 0.0 "main queue", the family 0
//   command buffer "lose cb", the binary semaphore "lose signal") and labels (the command buffers:
//   begin "pass A", insert "draw 1", end; queue 0.0: "frame 1" open around the lose mode's submits).
//   Prints "thread: <gettid>" first, the thread that makes every call.
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

#include "workload_labels.hpp"

namespace {

const char *name(VkResult r) {
  switch (r) {
  case VK_SUCCESS: return "VK_SUCCESS";
  case VK_NOT_READY: return "VK_NOT_READY";
  case VK_TIMEOUT: return "VK_TIMEOUT";
  case VK_INCOMPLETE: return "VK_INCOMPLETE";
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  default: return "VK_(other)";
  }
}

VkResult report(const char *call, VkResult r) {
  std::printf("%s: %s\n", call, name(r));
  return r;
}

[[noreturn]] void die(const char *what, VkResult r) {
  std::printf("workload: %s failed: %s (%d)\n", what, name(r), static_cast<int>(r));
  std::fflush(stdout);
  std::exit(2);
}
#define MUST(call)                                                                                               \
  do {                                                                                                           \
    const VkResult r_ = (call);                                                                                  \
    if (r_ != VK_SUCCESS) die(#call, r_);                                                                        \
  } while (0)

struct Ctx {
  VkDevice device;
  VkCommandPool pool[2];
  VkCommandBuffer cb[2]; // one per family: two timestamps around a fill
  VkQueryPool queries;
  VkBuffer buffer;
};

} // namespace

int main(int argc, char **argv) {
  std::string mode = "normal";
  int submits = 3;
  int gap_ms = 0;
  bool labels = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
      mode = argv[++i];
    else if (std::strcmp(argv[i], "--submits") == 0 && i + 1 < argc)
      submits = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--gap-ms") == 0 && i + 1 < argc)
      gap_ms = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--labels") == 0)
      labels = true;
    else {
      std::fprintf(stderr, "usage: %s [--mode normal|hang|lose|sparse] [--submits N] [--gap-ms G] [--labels]\n", argv[0]);
      return 1;
    }
  }
  if (mode != "normal" && mode != "hang" && mode != "lose" && mode != "sparse") {
    std::fprintf(stderr, "novem-icd-workload: unknown mode '%s'\n", mode.c_str());
    return 1;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (labels)
    std::printf("thread: %ld\n", static_cast<long>(syscall(SYS_gettid)));

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "novem-icd-workload";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  const char *debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME; // the loader implements it
  if (labels) {
    ici.enabledExtensionCount = 1;
    ici.ppEnabledExtensionNames = &debug_utils;
  }
  VkInstance instance;
  MUST(vkCreateInstance(&ici, nullptr, &instance));

  std::uint32_t count = 0;
  MUST(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> gpus(count);
  MUST(vkEnumeratePhysicalDevices(instance, &count, gpus.data()));
  std::printf("devices: %u\n", count);
  for (std::uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(gpus[i], &p);
    std::printf("device %u: %s\n", i, p.deviceName);
  }
  if (count == 0)
    die("finding a device", VK_ERROR_INITIALIZATION_FAILED);
  VkPhysicalDevice gpu = gpus[0];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu, &props);
  std::printf("timestamp_period: %g\n", static_cast<double>(props.limits.timestampPeriod));

  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &count, families.data());
  for (std::uint32_t f = 0; f < count; ++f)
    std::printf("family %u: flags 0x%x queues %u timestamp_bits %u\n", f, families[f].queueFlags,
                families[f].queueCount, families[f].timestampValidBits);
  if (count < 2 || families[0].queueCount < 2)
    die("finding two families, the first with two queues", VK_ERROR_INITIALIZATION_FAILED);

  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f12.pNext = &f13;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f12;
  vkGetPhysicalDeviceFeatures2(gpu, &features);
  std::printf("features: timelineSemaphore %u synchronization2 %u hostQueryReset %u\n", f12.timelineSemaphore,
              f13.synchronization2, f12.hostQueryReset);

  const float priorities[2] = {1.0f, 0.5f};
  VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                    {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  qci[0].queueFamilyIndex = 0;
  qci[0].queueCount = 2;
  qci[0].pQueuePriorities = priorities;
  qci[1].queueFamilyIndex = 1;
  qci[1].queueCount = 1;
  qci[1].pQueuePriorities = priorities;
  VkPhysicalDeviceVulkan13Features e13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  e13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  e12.pNext = &e13;
  e12.timelineSemaphore = VK_TRUE;
  e12.hostQueryReset = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &e12;
  dci.queueCreateInfoCount = 2;
  dci.pQueueCreateInfos = qci;
  Ctx c{};
  MUST(vkCreateDevice(gpu, &dci, nullptr, &c.device));

  struct Q {
    std::uint32_t family, index;
    VkQueue queue;
  } queues[3] = {{0, 0, VK_NULL_HANDLE}, {0, 1, VK_NULL_HANDLE}, {1, 0, VK_NULL_HANDLE}};
  for (auto &q : queues) {
    if (q.family == 0 && q.index == 1) { // one through vkGetDeviceQueue2
      VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2};
      info.queueFamilyIndex = q.family;
      info.queueIndex = q.index;
      vkGetDeviceQueue2(c.device, &info, &q.queue);
    } else {
      vkGetDeviceQueue(c.device, q.family, q.index, &q.queue);
    }
    std::printf("queue %u.%u: %s\n", q.family, q.index, q.queue ? "ok" : "missing");
    if (!q.queue)
      die("vkGetDeviceQueue", VK_ERROR_INITIALIZATION_FAILED);
  }

  const qd_workload::Labels names(instance, c.device);
  if (labels) {
    names.name(VK_OBJECT_TYPE_DEVICE, c.device, "icd device");
    names.name(VK_OBJECT_TYPE_QUEUE, queues[0].queue, "main queue");
  }

  // Host-visible buffer, command buffers (timestamp, fill, barrier, timestamp), a query pool.
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 1024;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  MUST(vkCreateBuffer(c.device, &bci, nullptr, &c.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(c.device, c.buffer, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = 0;
  VkDeviceMemory memory;
  MUST(vkAllocateMemory(c.device, &mai, nullptr, &memory));
  MUST(vkBindBufferMemory(c.device, c.buffer, memory, 0));
  void *mapped = nullptr;
  MUST(vkMapMemory(c.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
  std::memset(mapped, 0, 16);
  vkUnmapMemory(c.device, memory);

  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpci.queryCount = 4;
  MUST(vkCreateQueryPool(c.device, &qpci, nullptr, &c.queries));
  vkResetQueryPool(c.device, c.queries, 0, 4);
  for (std::uint32_t f = 0; f < 2; ++f) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = f;
    MUST(vkCreateCommandPool(c.device, &pci, nullptr, &c.pool[f]));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = c.pool[f];
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    MUST(vkAllocateCommandBuffers(c.device, &cai, &c.cb[f]));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    MUST(vkBeginCommandBuffer(c.cb[f], &begin));
    vkCmdWriteTimestamp(c.cb[f], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c.queries, 2 * f);
    vkCmdFillBuffer(c.cb[f], c.buffer, 0, 256, 0x01020304u);
    VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(c.cb[f], &dep);
    vkCmdPipelineBarrier(c.cb[f], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 0, nullptr);
    vkCmdWriteTimestamp2(c.cb[f], VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, c.queries, 2 * f + 1);
    // Both timestamps and their availability, into the buffer at 256 + 32 f (checked in normal mode).
    vkCmdCopyQueryPoolResults(c.cb[f], c.queries, 2 * f, 2, c.buffer, 256 + 32 * f, 16,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (labels)
      names.region(c.cb[f], "pass A", "draw 1");
    MUST(vkEndCommandBuffer(c.cb[f]));
  }

  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  MUST(vkCreateFence(c.device, &fci, nullptr, &fence));
  VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo tsci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  tsci.pNext = &tci;
  VkSemaphore timeline, binary;
  MUST(vkCreateSemaphore(c.device, &tsci, nullptr, &timeline));
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  MUST(vkCreateSemaphore(c.device, &sci, nullptr, &binary));
  if (labels) {
    names.name(VK_OBJECT_TYPE_COMMAND_BUFFER, c.cb[0], "lose cb");
    names.name(VK_OBJECT_TYPE_SEMAPHORE, binary, "lose signal");
  }

  auto submit = [&](VkQueue queue, VkCommandBuffer cb, VkFence f) {
    VkSubmitInfo s{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    s.commandBufferCount = 1;
    s.pCommandBuffers = &cb;
    s.signalSemaphoreCount = 1;
    s.pSignalSemaphores = &binary;
    return vkQueueSubmit(queue, 1, &s, f);
  };
  std::uint64_t value = 0;
  auto submit2 = [&](VkQueue queue, VkCommandBuffer cb) {
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = cb;
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = binary;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = timeline;
    signal.value = ++value;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 s{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    s.waitSemaphoreInfoCount = 1;
    s.pWaitSemaphoreInfos = &wait;
    s.commandBufferInfoCount = 1;
    s.pCommandBufferInfos = &cbi;
    s.signalSemaphoreInfoCount = 1;
    s.pSignalSemaphoreInfos = &signal;
    return vkQueueSubmit2(queue, 1, &s, VK_NULL_HANDLE);
  };
  auto wait_timeline = [&](std::uint64_t v, std::uint64_t timeout) {
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline;
    wi.pValues = &v;
    return vkWaitSemaphores(c.device, &wi, timeout);
  };
  const std::uint64_t k50ms = 50'000'000;

  if (mode == "normal") {
    for (const auto &q : queues) {
      const std::string at = " " + std::to_string(q.family) + "." + std::to_string(q.index);
      report(("vkQueueSubmit" + at).c_str(), submit(q.queue, c.cb[q.family], fence));
      report(("vkWaitForFences" + at).c_str(), vkWaitForFences(c.device, 1, &fence, VK_TRUE, UINT64_MAX));
      report(("vkGetFenceStatus" + at).c_str(), vkGetFenceStatus(c.device, fence));
      MUST(vkResetFences(c.device, 1, &fence));
      report(("vkQueueSubmit2" + at).c_str(), submit2(q.queue, c.cb[q.family]));
      report(("vkWaitSemaphores" + at).c_str(), wait_timeline(value, UINT64_MAX));
      report(("vkQueueWaitIdle" + at).c_str(), vkQueueWaitIdle(q.queue));
    }
    std::uint64_t counter = 0;
    report("vkGetSemaphoreCounterValue", vkGetSemaphoreCounterValue(c.device, timeline, &counter));
    std::printf("timeline: %llu of %llu\n", static_cast<unsigned long long>(counter),
                static_cast<unsigned long long>(value));
    VkSemaphoreSignalInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    si.semaphore = timeline;
    si.value = ++value;
    report("vkSignalSemaphore", vkSignalSemaphore(c.device, &si));
    report("vkWaitSemaphores host", wait_timeline(value, 0));
    std::uint64_t stamps[4] = {};
    report("vkGetQueryPoolResults",
           vkGetQueryPoolResults(c.device, c.queries, 0, 4, sizeof stamps, stamps, sizeof stamps[0],
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const bool ordered = stamps[0] > 0 && stamps[0] <= stamps[1] && stamps[2] > 0 && stamps[2] <= stamps[3];
    std::printf("timestamps: %s\n", ordered ? "ordered" : "unordered");
    MUST(vkMapMemory(c.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    std::uint64_t copied[8];
    std::memcpy(copied, static_cast<const unsigned char *>(mapped) + 256, sizeof copied);
    vkUnmapMemory(c.device, memory);
    bool same = true;
    for (int q = 0; q < 4; ++q)
      same = same && copied[2 * q] == stamps[q] && copied[2 * q + 1] == 1;
    std::printf("copied timestamps: %s\n", same ? "match" : "differ");
    report("vkDeviceWaitIdle", vkDeviceWaitIdle(c.device));
  } else if (mode == "hang") {
    report("vkQueueSubmit", submit(queues[0].queue, c.cb[0], fence));
    report("vkWaitForFences 50ms", vkWaitForFences(c.device, 1, &fence, VK_TRUE, k50ms));
    report("vkGetFenceStatus", vkGetFenceStatus(c.device, fence));
    report("vkQueueSubmit2", submit2(queues[2].queue, c.cb[1]));
    report("vkWaitSemaphores 50ms", wait_timeline(value, k50ms));
    std::uint64_t stamps[2] = {};
    report("vkGetQueryPoolResults", vkGetQueryPoolResults(c.device, c.queries, 0, 2, sizeof stamps, stamps,
                                                          sizeof stamps[0], VK_QUERY_RESULT_64_BIT));
  } else if (mode == "sparse") {
    VkBindSparseInfo first{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
    first.signalSemaphoreCount = 1;
    first.pSignalSemaphores = &binary;
    report("vkQueueBindSparse fence", vkQueueBindSparse(queues[0].queue, 1, &first, fence));
    report("vkWaitForFences 200ms", vkWaitForFences(c.device, 1, &fence, VK_TRUE, 4 * k50ms));
    const std::uint64_t one = 1;
    VkTimelineSemaphoreSubmitInfo tl{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    tl.signalSemaphoreValueCount = 1;
    tl.pSignalSemaphoreValues = &one;
    VkBindSparseInfo second{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
    second.pNext = &tl;
    second.waitSemaphoreCount = 1;
    second.pWaitSemaphores = &binary;
    second.signalSemaphoreCount = 1;
    second.pSignalSemaphores = &timeline;
    report("vkQueueBindSparse", vkQueueBindSparse(queues[0].queue, 1, &second, VK_NULL_HANDLE));
    report("vkWaitSemaphores 200ms", wait_timeline(1, 4 * k50ms));
    report("vkQueueWaitIdle", vkQueueWaitIdle(queues[0].queue));
  } else { // lose
    if (labels)
      names.begin_queue(queues[0].queue, "frame 1");
    for (int i = 1; i <= submits; ++i) {
      report(("vkQueueSubmit #" + std::to_string(i)).c_str(), submit(queues[0].queue, c.cb[0], VK_NULL_HANDLE));
      std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    }
    if (labels)
      names.end_queue(queues[0].queue);
    report("vkQueueSubmit2", submit2(queues[1].queue, c.cb[0]));
    report("vkWaitForFences", vkWaitForFences(c.device, 1, &fence, VK_TRUE, k50ms));
    report("vkGetFenceStatus", vkGetFenceStatus(c.device, fence));
    report("vkWaitSemaphores", wait_timeline(1, k50ms));
    report("vkQueueWaitIdle", vkQueueWaitIdle(queues[0].queue));
    report("vkDeviceWaitIdle", vkDeviceWaitIdle(c.device));
  }

  vkDestroySemaphore(c.device, timeline, nullptr);
  vkDestroySemaphore(c.device, binary, nullptr);
  vkDestroyFence(c.device, fence, nullptr);
  for (auto pool : c.pool)
    vkDestroyCommandPool(c.device, pool, nullptr);
  vkDestroyQueryPool(c.device, c.queries, nullptr);
  vkDestroyBuffer(c.device, c.buffer, nullptr);
  vkFreeMemory(c.device, memory, nullptr);
  vkDestroyDevice(c.device, nullptr);
  vkDestroyInstance(instance, nullptr);
  std::printf("workload: done\n");
  return 0;
}
