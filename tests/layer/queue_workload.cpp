// novem-queue-workload: a Vulkan program of known shape, for the queue diagnostics layer's tests.
// It uses the Vulkan loader directly (no Novem code) and knows nothing of the layer: the tests
// enable the layer through its manifest and the environment only.
//
//   novem-queue-workload [--iterations K] [--threads T] [--provoke-validation-error]
//                        [--race N] [--burst N [--fork exit|vulkan]] [--poll-timeline] [--stall-ms M] [--stall-no-wait]
//
// With --threads T, T threads each create a device of their own (one instance) and run the
// iterations on it at the same time; the report then has T devices with the same counts.
// Each iteration, on queue (family 0, index 0) — the counts test_layer.cpp expects:
//   #1 vkQueueSubmit, 2 batches: {cb0, cb1; signal binary A} {wait A; cb2; signal timeline T=2i+1}, fence F0
//      vkWaitForFences(F0), vkResetFences(F0)
//   #2 vkQueueSubmit2, 1 batch: {wait timeline T=2i+1; cb3; signal binary B, timeline T=2i+2}, fence F1
//      vkWaitSemaphores(T = 2i+2): attributed to the queue (#2 signals that value)
//   #3 vkQueueSubmit, 1 batch: {wait binary B; cb0}, no fence
//      vkQueueWaitIdle, vkWaitForFences(F1), vkResetFences(F1)
//   #4 vkQueueSubmit, no batch, fence F0
//      vkDeviceWaitIdle (queue busy), vkDeviceWaitIdle (queue idle), vkResetFences(F0)
// Every command buffer holds one vkCmdFillBuffer. With VK_EXT_debug_utils available it installs a
// messenger and exits 3 if any validation warning or error was reported.
// After the iterations, on the same device:
//   --race N      two threads each call vkQueueSubmit(queue, 1 batch {cb0}) N times on the one queue
//                 WITHOUT a lock (deliberately invalid: the thread-safety report must list it); from
//                 then on validation messages are expected (threading errors, and in-use errors
//                 from validation's own tracking, which such a race confuses) and counted apart
//   --burst N     N vkQueueSubmit(queue, 1 batch {one command buffer, SIMULTANEOUS_USE}) without a
//                 fence, back to back, then vkQueueWaitIdle: small submissions faster than a frame's
//   --poll-timeline  with --extension on: one vkQueueSubmit {cb0; signal timeline T = 2K + 50} without a
//                 fence, vkGetSemaphoreCounterValue(T) polled until it reads that value, then at once
//                 vkGetQueueDiagnosticsNOVEM ("workload: timeline polled: in flight N"), vkQueueWaitIdle
//   --stall-ms M  one vkQueueSubmit {wait timeline T = a value not yet signalled; cb0}, no fence,
//                 then M ms of sleep, then vkSignalSemaphore(T) from the host and vkQueueWaitIdle:
//                 a submission that stays in flight M ms (for the watchdog and the periodic summary)
//   --stall-no-wait  with --stall-ms: after the sleep, neither signal nor wait (for a device that hangs,
//                 the test ICD's NOVEM_TEST_ICD_HANG=1): the submission is still in flight at teardown
//                 (without it: vkSignalSemaphore from the host, then vkWaitSemaphores on that value,
//                 which no submission signals: unattributed)
//   --labels      VK_EXT_debug_utils names (queue "workload queue", cb0 "fill 0", the timeline
//                 "stall timeline") and labels (every command buffer: begin "fill", insert "fill N",
//                 end; the queue: "stall" open around --stall-ms's submission)
//   --extension on|off  VK_NOVEM_queue_diagnostics: lists what vkEnumerateDeviceExtensionProperties gives
//                 for the layer's name and for NULL; with `on` enables it (when the NULL list has it);
//                 prints whether vkGetDeviceProcAddr gives vkGetQueueDiagnosticsNOVEM, and with it the
//                 queue's counters after the iterations ("workload: diagnostics: ...")
//   --idle-submits N  with --extension on: N times, 250 ms with nothing in flight (the layer thread
//                 sleeps idle), then one vkQueueSubmit {cb0} without a fence, and vkGetQueueDiagnosticsNOVEM
//                 polled until its latency count grows (the layer thread saw it complete: it was
//                 woken by the submit, or woke by itself, at most 100 ms later); prints the median
//                 time to that ("workload: idle submit seen complete after median X ms"); then
//                 vkQueueWaitIdle before the next
//   --fork exit|vulkan  with --burst: fork() halfway through the burst (the layer thread is busy);
//                 the child calls exit() at once (exit), or first creates an instance and a device of
//                 its own and submits to it (vulkan); the parent waits for it (20 s at most, else
//                 kills it and exits 4: "workload: forked child hung"), then goes on
//   --exit-without-teardown  after the iterations (and the options above), std::exit(0) with the
//                 device and the instance alive: the layer's outputs must still be written at exit
//   --exit-while-submitting  after the iterations, a thread that submits without end (fences and
//                 vkQueueWaitIdle among them, through vkGetDeviceProcAddr's pointers as engines call
//                 them), and once it has submitted 2000 times, std::exit(0) from the main thread
//                 while it goes on: the layer's outputs must be written, and nothing may crash
//   --instances N  creates, uses and destroys N instances one after another (the loader unloads the
//                 layer when each is destroyed and loads it again for the next)
//   --layer-setting KEY=VALUE  (repeatable) passed to the layer through VK_EXT_layer_settings (a
//                 string setting for VK_LAYER_NOVEM_queue_diagnostics in the instance's pNext chain)
//   --trigger PATH --trigger-copy COPY  after the iterations, creates PATH (the layer's
//                 NOVEM_QUEUE_DIAGNOSTICS_TRIGGER), waits (10 s at most) for the layer to take it and
//                 write the report (NOVEM_QUEUE_DIAGNOSTICS_REPORT) with reason "trigger", copies it to COPY
#include <vulkan/vulkan.h>
#include <vulkan/vk_ext_layer_settings.h>
#include <vulkan/vk_novem_queue_diagnostics.h>

#include <fstream>
#include <sstream>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "workload_labels.hpp"

namespace {

std::atomic<int> g_validation_messages{0};
std::atomic<int> g_threading_messages{0};
std::atomic<bool> g_racing{false}; // from the deliberate race on: validation's state is not trusted

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT *data, void *) {
  if ((type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
      severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    if (g_racing) { // provoked on purpose by --race (threading errors, and what they confuse after)
      ++g_threading_messages;
      return VK_FALSE;
    }
    ++g_validation_messages;
    std::fprintf(stderr, "workload: validation: %s\n", data && data->pMessage ? data->pMessage : "?");
  }
  return VK_FALSE;
}

[[noreturn]] void die(const char *what, VkResult r) {
  std::fprintf(stderr, "workload: %s failed (VkResult %d)\n", what, static_cast<int>(r));
  std::exit(2);
}
#define CHECK(call)                                                                                              \
  do {                                                                                                           \
    VkResult r_ = (call);                                                                                        \
    if (r_ != VK_SUCCESS) die(#call, r_);                                                                        \
  } while (0)

// One device, its queue (family 0, index 0) and the iterations described above.
struct Extras {
  int race = 0;     // --race N
  int burst = 0;    // --burst N
  bool poll_timeline = false; // --poll-timeline
  int stall_ms = 0; // --stall-ms M
  int idle_submits = 0; // --idle-submits N
  bool stall_no_wait = false; // --stall-no-wait
  std::string extension;      // --extension on|off
  std::string trigger, trigger_copy;
  bool exit_without_teardown = false; // --exit-without-teardown
  std::string fork;                   // --fork exit|vulkan
  bool exit_while_submitting = false; // --exit-while-submitting
  bool labels = false;                // --labels
  VkInstance instance = VK_NULL_HANDLE; // for the debug-utils entry points
};


// In a forked child: an instance and a device of its own, three fenced empty submissions, teardown.
void own_device() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, nullptr, &instance));
  std::uint32_t count = 1;
  VkPhysicalDevice gpu;
  const VkResult listed = vkEnumeratePhysicalDevices(instance, &count, &gpu);
  if (count == 0 || (listed != VK_SUCCESS && listed != VK_INCOMPLETE)) die("vkEnumeratePhysicalDevices", listed);
  const float priority = 1;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device;
  CHECK(vkCreateDevice(gpu, &dci, nullptr, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  for (int i = 0; i < 3; ++i) {
    CHECK(vkQueueSubmit(queue, 0, nullptr, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(device, 1, &fence));
  }
  vkDestroyFence(device, fence, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  std::printf("workload: child used a device of its own\n");
}

// --fork: the child exits (after own_device() with `vulkan`); the parent waits for it.
void fork_child(const std::string &mode) {
  std::fflush(stdout); // else the child's exit writes the parent's buffered lines again
  const pid_t child = fork();
  if (child < 0) die("fork", VK_ERROR_UNKNOWN);
  if (child == 0) {
    if (mode == "vulkan") own_device();
    std::exit(0);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      std::printf("workload: forked child hung\n");
      std::fflush(stdout);
      std::exit(4);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::printf("workload: forked child exited with status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

// --exit-while-submitting: starts a thread that submits until the process ends; returns once it
// has submitted kSubmits times. Its results are not checked: the process ends under it.
void start_submitting(VkDevice device, VkQueue queue) {
  constexpr int kSubmits = 2000;
  auto get = [&](const char *name) { return vkGetDeviceProcAddr(device, name); };
  const auto create_fence = reinterpret_cast<PFN_vkCreateFence>(get("vkCreateFence"));
  const auto submit = reinterpret_cast<PFN_vkQueueSubmit>(get("vkQueueSubmit"));
  const auto wait = reinterpret_cast<PFN_vkWaitForFences>(get("vkWaitForFences"));
  const auto reset = reinterpret_cast<PFN_vkResetFences>(get("vkResetFences"));
  const auto wait_idle = reinterpret_cast<PFN_vkQueueWaitIdle>(get("vkQueueWaitIdle"));
  static std::atomic<int> submitted{0};
  std::thread([=] {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (create_fence(device, &fci, nullptr, &fence) != VK_SUCCESS) return;
    for (unsigned i = 0;; ++i) {
      const bool fenced = i % 8 == 0;
      submit(queue, 0, nullptr, fenced ? fence : VK_NULL_HANDLE);
      if (fenced) {
        wait(device, 1, &fence, VK_TRUE, UINT64_MAX);
        reset(device, 1, &fence);
      }
      if (i % 64 == 0) wait_idle(queue);
      submitted.fetch_add(1);
    }
  }).detach();
  while (submitted.load() < kSubmits) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

bool has_extension(VkPhysicalDevice gpu, const char *layer, const char *name) {
  std::uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(gpu, layer, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> props(n);
  if (vkEnumerateDeviceExtensionProperties(gpu, layer, &n, props.data()) != VK_SUCCESS) return false;
  for (const auto &p : props)
    if (std::strcmp(p.extensionName, name) == 0) return true;
  return false;
}

std::string read_text(const char *path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// --trigger: asks the layer for a report on demand and keeps a copy of it.
void request_report(const Extras &extras) {
  const char *report = std::getenv("NOVEM_QUEUE_DIAGNOSTICS_REPORT");
  if (!report) die("--trigger without NOVEM_QUEUE_DIAGNOSTICS_REPORT", VK_ERROR_INITIALIZATION_FAILED);
  std::ofstream(extras.trigger) << "report\n";
  for (int i = 0; i < 1000; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (access(extras.trigger.c_str(), F_OK) == 0) continue;
    const std::string text = read_text(report);
    if (text.find("\"reason\": \"trigger\"") == std::string::npos) continue;
    std::ofstream(extras.trigger_copy) << text;
    std::printf("workload: report on demand written\n");
    return;
  }
  std::printf("workload: no report on demand within 10 s\n");
}

void run_device(VkPhysicalDevice gpu, const VkPhysicalDeviceMemoryProperties &memory_props, int iterations,
                bool provoke, Extras extras) {
  // ---- device: one queue of family 0 (graphics on lavapipe), timeline semaphores, sync2 ----
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.pNext = &f13;
  f12.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &f12;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  const char *own_extension = VK_NOVEM_QUEUE_DIAGNOSTICS_EXTENSION_NAME;
  if (!extras.extension.empty()) {
    const bool by_layer = has_extension(gpu, VK_NOVEM_QUEUE_DIAGNOSTICS_LAYER_NAME, own_extension);
    std::printf("workload: the layer lists %s: %s\n", own_extension, by_layer ? "yes" : "no");
    std::printf("workload: the NULL list has %s: %s\n", own_extension,
                has_extension(gpu, nullptr, own_extension) ? "yes" : "no");
    // Enabled only where the NULL list has it: the implicitly enabled layers' extensions. (The
    // loader answers a named layer's query from its manifest even when the layer is disabled.)
    const bool available = has_extension(gpu, nullptr, own_extension);
    if (extras.extension == "on" && by_layer && available) {
      dci.enabledExtensionCount = 1;
      dci.ppEnabledExtensionNames = &own_extension;
      std::printf("workload: enabling %s\n", own_extension);
    }
  }
  VkDevice device;
  CHECK(vkCreateDevice(gpu, &dci, nullptr, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  auto get_diagnostics =
      reinterpret_cast<PFN_vkGetQueueDiagnosticsNOVEM>(vkGetDeviceProcAddr(device, "vkGetQueueDiagnosticsNOVEM"));
  if (!extras.extension.empty())
    std::printf("workload: vkGetQueueDiagnosticsNOVEM: %s\n", get_diagnostics ? "non-NULL" : "NULL");

  if (provoke) { // a buffer of size 0: VUID-VkBufferCreateInfo-size-00912
    VkBufferCreateInfo bad{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bad.size = 0;
    bad.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer b = VK_NULL_HANDLE;
    if (vkCreateBuffer(device, &bad, nullptr, &b) == VK_SUCCESS && b) vkDestroyBuffer(device, b, nullptr);
  }

  // ---- a buffer for the fills ----
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 4096;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, nullptr, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = UINT32_MAX;
  for (std::uint32_t i = 0; i < memory_props.memoryTypeCount; ++i)
    if (req.memoryTypeBits & (1u << i)) {
      mai.memoryTypeIndex = i;
      break;
    }
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &mai, nullptr, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));

  // ---- four command buffers, one fill each ----
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.queueFamilyIndex = 0;
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(device, &pci, nullptr, &pool));
  VkCommandBuffer cb[4];
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cai.commandPool = pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 4;
  CHECK(vkAllocateCommandBuffers(device, &cai, cb));
  const qd_workload::Labels names(extras.instance, device);
  const char *const points[4] = {"fill 0", "fill 1", "fill 2", "fill 3"};
  for (std::uint32_t i = 0; i < 4; ++i) {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cb[i], &begin));
    vkCmdFillBuffer(cb[i], buffer, 256 * i, 256, 0x01010101u * (i + 1));
    if (extras.labels) names.region(cb[i], "fill", points[i]);
    CHECK(vkEndCommandBuffer(cb[i]));
  }

  // ---- synchronization objects ----
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem_a, sem_b, sem_t;
  CHECK(vkCreateSemaphore(device, &sci, nullptr, &sem_a));
  CHECK(vkCreateSemaphore(device, &sci, nullptr, &sem_b));
  VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  tci.initialValue = 0;
  VkSemaphoreCreateInfo tsci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  tsci.pNext = &tci;
  CHECK(vkCreateSemaphore(device, &tsci, nullptr, &sem_t));
  if (extras.labels) {
    names.name(VK_OBJECT_TYPE_QUEUE, queue, "workload queue");
    names.name(VK_OBJECT_TYPE_COMMAND_BUFFER, cb[0], "fill 0");
    names.name(VK_OBJECT_TYPE_SEMAPHORE, sem_t, "stall timeline");
  }
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence0, fence1;
  CHECK(vkCreateFence(device, &fci, nullptr, &fence0));
  CHECK(vkCreateFence(device, &fci, nullptr, &fence1));

  const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
  for (int it = 0; it < iterations; ++it) {
    const std::uint64_t t1 = 2 * static_cast<std::uint64_t>(it) + 1, t2 = t1 + 1;

    // #1: two batches, three command buffers, binary A signalled then waited, timeline T signalled.
    VkCommandBuffer first[2] = {cb[0], cb[1]};
    VkSubmitInfo s1[2] = {{VK_STRUCTURE_TYPE_SUBMIT_INFO}, {VK_STRUCTURE_TYPE_SUBMIT_INFO}};
    s1[0].commandBufferCount = 2;
    s1[0].pCommandBuffers = first;
    s1[0].signalSemaphoreCount = 1;
    s1[0].pSignalSemaphores = &sem_a;
    const std::uint64_t ignored = 0;
    VkTimelineSemaphoreSubmitInfo tl{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    tl.waitSemaphoreValueCount = 1;
    tl.pWaitSemaphoreValues = &ignored;
    tl.signalSemaphoreValueCount = 1;
    tl.pSignalSemaphoreValues = &t1;
    s1[1].pNext = &tl;
    s1[1].waitSemaphoreCount = 1;
    s1[1].pWaitSemaphores = &sem_a;
    s1[1].pWaitDstStageMask = &transfer;
    s1[1].commandBufferCount = 1;
    s1[1].pCommandBuffers = &cb[2];
    s1[1].signalSemaphoreCount = 1;
    s1[1].pSignalSemaphores = &sem_t;
    CHECK(vkQueueSubmit(queue, 2, s1, fence0));
    CHECK(vkWaitForFences(device, 1, &fence0, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(device, 1, &fence0));

    // #2 (synchronization2): wait T, one command buffer, signal binary B and T.
    VkSemaphoreSubmitInfo wait2{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait2.semaphore = sem_t;
    wait2.value = t1;
    wait2.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSemaphoreSubmitInfo signal2[2] = {{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO},
                                        {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}};
    signal2[0].semaphore = sem_b;
    signal2[0].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    signal2[1].semaphore = sem_t;
    signal2[1].value = t2;
    signal2[1].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = cb[3];
    VkSubmitInfo2 s2{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    s2.waitSemaphoreInfoCount = 1;
    s2.pWaitSemaphoreInfos = &wait2;
    s2.commandBufferInfoCount = 1;
    s2.pCommandBufferInfos = &cbi;
    s2.signalSemaphoreInfoCount = 2;
    s2.pSignalSemaphoreInfos = signal2;
    CHECK(vkQueueSubmit2(queue, 1, &s2, fence1));
    VkSemaphoreWaitInfo swi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    swi.semaphoreCount = 1;
    swi.pSemaphores = &sem_t;
    swi.pValues = &t2;
    CHECK(vkWaitSemaphores(device, &swi, UINT64_MAX));

    // #3: wait B, one command buffer, no fence; then wait for the queue, then for F1.
    VkSubmitInfo s3{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    s3.waitSemaphoreCount = 1;
    s3.pWaitSemaphores = &sem_b;
    s3.pWaitDstStageMask = &transfer;
    s3.commandBufferCount = 1;
    s3.pCommandBuffers = &cb[0];
    CHECK(vkQueueSubmit(queue, 1, &s3, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
    CHECK(vkWaitForFences(device, 1, &fence1, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(device, 1, &fence1));

    // #4: a fence alone; the device waited for twice (busy, then idle).
    CHECK(vkQueueSubmit(queue, 0, nullptr, fence0));
    CHECK(vkDeviceWaitIdle(device));
    CHECK(vkDeviceWaitIdle(device));
    CHECK(vkResetFences(device, 1, &fence0));
  }

  if (extras.race > 0) {
    // Two threads, one queue, no lock: each submission holds one command buffer of its own thread.
    auto racer = [&](VkCommandBuffer c) {
      VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.commandBufferCount = 1;
      si.pCommandBuffers = &c;
      for (int i = 0; i < extras.race; ++i) {
        const VkResult r = vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE);
        if (r != VK_SUCCESS) die("vkQueueSubmit (race)", r);
      }
    };
    // A command buffer may be pending more than once only with SIMULTANEOUS_USE: two of their own.
    VkCommandBuffer race_cb[2];
    VkCommandBufferAllocateInfo rai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    rai.commandPool = pool;
    rai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    rai.commandBufferCount = 2;
    CHECK(vkAllocateCommandBuffers(device, &rai, race_cb));
    for (VkCommandBuffer c : race_cb) {
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
      CHECK(vkBeginCommandBuffer(c, &begin));
      vkCmdFillBuffer(c, buffer, 0, 256, 0);
      CHECK(vkEndCommandBuffer(c));
    }
    g_racing = true;
    std::thread a(racer, race_cb[0]), b(racer, race_cb[1]);
    a.join();
    b.join();
    CHECK(vkQueueWaitIdle(queue));
    std::printf("workload: raced %d submits on each of 2 threads, %d validation messages from the race\n",
                extras.race, g_threading_messages.load());
  }

  if (extras.burst > 0) {
    VkCommandBuffer burst_cb = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo bai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    bai.commandPool = pool;
    bai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    bai.commandBufferCount = 1;
    CHECK(vkAllocateCommandBuffers(device, &bai, &burst_cb));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT; // pending many times at once
    CHECK(vkBeginCommandBuffer(burst_cb, &begin));
    vkCmdFillBuffer(burst_cb, buffer, 0, 256, 0);
    CHECK(vkEndCommandBuffer(burst_cb));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &burst_cb;
    for (int i = 0; i < extras.burst; ++i) {
      CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
      if (i == extras.burst / 2 && !extras.fork.empty()) fork_child(extras.fork);
    }
    CHECK(vkQueueWaitIdle(queue));
    std::printf("workload: burst of %d submits\n", extras.burst);
  }

  if (get_diagnostics && extras.poll_timeline) {
    const std::uint64_t value = 2 * static_cast<std::uint64_t>(iterations) + 50;
    VkTimelineSemaphoreSubmitInfo tl{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    tl.signalSemaphoreValueCount = 1;
    tl.pSignalSemaphoreValues = &value;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &tl;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb[0];
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &sem_t;
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    for (std::uint64_t seen = 0; seen < value;) CHECK(vkGetSemaphoreCounterValue(device, sem_t, &seen));
    VkQueueDiagnosticsNOVEM d{VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM};
    CHECK(get_diagnostics(queue, &d));
    std::printf("workload: timeline polled: in flight %llu\n", static_cast<unsigned long long>(d.inFlight));
    CHECK(vkQueueWaitIdle(queue));
  }

  if (extras.stall_ms > 0) {
    const std::uint64_t value = 2 * static_cast<std::uint64_t>(iterations) + 100; // not signalled yet
    const VkPipelineStageFlags all = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkTimelineSemaphoreSubmitInfo tl{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    tl.waitSemaphoreValueCount = 1;
    tl.pWaitSemaphoreValues = &value;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &tl;
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &sem_t;
    si.pWaitDstStageMask = &all;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb[0];
    if (extras.labels) names.begin_queue(queue, "stall");
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    if (extras.labels) names.end_queue(queue);
    std::this_thread::sleep_for(std::chrono::milliseconds(extras.stall_ms));
  }
  if (extras.stall_ms > 0 && extras.stall_no_wait) {
    std::printf("workload: left one submission in flight after %d ms\n", extras.stall_ms);
  } else if (extras.stall_ms > 0) {
    const std::uint64_t value = 2 * static_cast<std::uint64_t>(iterations) + 100;
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    signal.semaphore = sem_t;
    signal.value = value;
    CHECK(vkSignalSemaphore(device, &signal));
    VkSemaphoreWaitInfo swi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    swi.semaphoreCount = 1;
    swi.pSemaphores = &sem_t;
    swi.pValues = &value;
    CHECK(vkWaitSemaphores(device, &swi, UINT64_MAX)); // signalled by the host: no queue's
    CHECK(vkQueueWaitIdle(queue));
    std::printf("workload: stalled one submission %d ms on timeline value %llu\n", extras.stall_ms,
                static_cast<unsigned long long>(value));
  }

  if (get_diagnostics && extras.idle_submits > 0) {
    auto latency_count = [&] {
      VkQueueDiagnosticsNOVEM d{VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM};
      CHECK(get_diagnostics(queue, &d));
      return d.latency.count;
    };
    std::vector<double> ms;
    for (int i = 0; i < extras.idle_submits; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      const std::uint64_t before = latency_count();
      VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.commandBufferCount = 1;
      si.pCommandBuffers = &cb[0];
      const auto t0 = std::chrono::steady_clock::now();
      CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
      while (latency_count() == before && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2))
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      CHECK(vkQueueWaitIdle(queue));
    }
    std::sort(ms.begin(), ms.end());
    std::printf("workload: idle submit seen complete after median %.1f ms\n", ms[ms.size() / 2]);
  }
  if (get_diagnostics) {
    VkQueueDiagnosticsNOVEM d{};
    const VkResult bad = get_diagnostics(queue, &d); // sType not set
    d.sType = VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM;
    const VkResult r = get_diagnostics(queue, &d);
    std::printf("workload: diagnostics: result %d (without sType %d) family %u index %u submits %llu batches %llu "
                "command_buffers %llu wait_semaphores_calls %llu latency_count %llu blocked_ns %llu presents %llu\n",
                static_cast<int>(r), static_cast<int>(bad), d.queueFamilyIndex, d.queueIndex,
                static_cast<unsigned long long>(d.submits), static_cast<unsigned long long>(d.batches),
                static_cast<unsigned long long>(d.commandBuffers), static_cast<unsigned long long>(d.waitSemaphores.calls),
                static_cast<unsigned long long>(d.latency.count), static_cast<unsigned long long>(d.blockedNs),
                static_cast<unsigned long long>(d.presents));
  }
  if (!extras.trigger.empty()) request_report(extras);
  if (extras.exit_while_submitting) {
    start_submitting(device, queue);
    std::printf("workload: exit while another thread submits\n");
    std::fflush(stdout);
    std::exit(0);
  }
  if (extras.exit_without_teardown) {
    std::printf("workload: exit without teardown\n");
    std::fflush(stdout);
    std::exit(0);
  }

  vkDestroyFence(device, fence0, nullptr);
  vkDestroyFence(device, fence1, nullptr);
  vkDestroySemaphore(device, sem_a, nullptr);
  vkDestroySemaphore(device, sem_b, nullptr);
  vkDestroySemaphore(device, sem_t, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, memory, nullptr);
  vkDestroyDevice(device, nullptr);
}

} // namespace

int main(int argc, char **argv) {
  int iterations = 3, threads = 1, instances = 1;
  bool provoke = false;
  std::vector<std::string> setting_names, setting_values;
  Extras extras;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
      iterations = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--provoke-validation-error") == 0) {
      provoke = true;
    } else if (std::strcmp(argv[i], "--race") == 0 && i + 1 < argc) {
      extras.race = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--burst") == 0 && i + 1 < argc) {
      extras.burst = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--poll-timeline") == 0) {
      extras.poll_timeline = true;
    } else if (std::strcmp(argv[i], "--stall-ms") == 0 && i + 1 < argc) {
      extras.stall_ms = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--labels") == 0) {
      extras.labels = true;
    } else if (std::strcmp(argv[i], "--stall-no-wait") == 0) {
      extras.stall_no_wait = true;
    } else if (std::strcmp(argv[i], "--idle-submits") == 0 && i + 1 < argc) {
      extras.idle_submits = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--extension") == 0 && i + 1 < argc) {
      extras.extension = argv[++i];
    } else if (std::strcmp(argv[i], "--trigger") == 0 && i + 1 < argc) {
      extras.trigger = argv[++i];
    } else if (std::strcmp(argv[i], "--trigger-copy") == 0 && i + 1 < argc) {
      extras.trigger_copy = argv[++i];
    } else if (std::strcmp(argv[i], "--exit-without-teardown") == 0) {
      extras.exit_without_teardown = true;
    } else if (std::strcmp(argv[i], "--fork") == 0 && i + 1 < argc) {
      extras.fork = argv[++i];
    } else if (std::strcmp(argv[i], "--exit-while-submitting") == 0) {
      extras.exit_while_submitting = true;
    } else if (std::strcmp(argv[i], "--instances") == 0 && i + 1 < argc) {
      instances = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--layer-setting") == 0 && i + 1 < argc && std::strchr(argv[i + 1], '=')) {
      const std::string kv = argv[++i];
      setting_names.push_back(kv.substr(0, kv.find('=')));
      setting_values.push_back(kv.substr(kv.find('=') + 1));
    } else {
      std::fprintf(stderr, "usage: %s [--iterations K] [--threads T] [--provoke-validation-error] [--race N] [--burst N] [--poll-timeline] [--stall-ms M] [--stall-no-wait] [--labels] [--extension on|off] [--idle-submits N] [--trigger PATH --trigger-copy COPY] [--fork exit|vulkan] [--exit-without-teardown] [--exit-while-submitting] [--instances N] [--layer-setting KEY=VALUE]...\n", argv[0]);
      return 1;
    }
  }

  for (int instance_number = 0; instance_number < instances; ++instance_number) {
  // ---- instance, with a debug messenger where VK_EXT_debug_utils exists ----
  std::uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data());
  bool debug_utils = false;
  for (const auto &e : exts) debug_utils |= std::strcmp(e.extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto &l : layers) std::printf("workload: instance layer %s\n", l.layerName);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "novem-queue-workload";
  app.apiVersion = VK_API_VERSION_1_3;
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mci.pfnUserCallback = on_message;
  std::vector<const char *> ext_names;
  if (debug_utils) ext_names.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  std::vector<VkLayerSettingEXT> settings;
  std::vector<const char *> setting_texts;
  for (const std::string &v : setting_values) setting_texts.push_back(v.c_str());
  for (std::size_t k = 0; k < setting_names.size(); ++k)
    settings.push_back({"VK_LAYER_NOVEM_queue_diagnostics", setting_names[k].c_str(), VK_LAYER_SETTING_TYPE_STRING_EXT, 1,
                        &setting_texts[k]});
  VkLayerSettingsCreateInfoEXT lsci{VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT, debug_utils ? &mci : nullptr,
                               static_cast<std::uint32_t>(settings.size()), settings.data()};
  // The structure is chained without enabling VK_EXT_layer_settings: Debian 12's loader (1.3.239)
  // refuses an instance extension that only an implicit layer offers (so the layer offers none), and
  // layers read the structure whatever the enabled extensions.
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pNext = !settings.empty() ? static_cast<const void *>(&lsci) : debug_utils ? &mci : nullptr;
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = static_cast<std::uint32_t>(ext_names.size());
  ici.ppEnabledExtensionNames = ext_names.data();
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, nullptr, &instance));
  extras.instance = instance;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (debug_utils && create_messenger) CHECK(create_messenger(instance, &mci, nullptr, &messenger));
  std::printf("workload: debug messenger %s\n", messenger ? "on" : "off");

  // ---- lavapipe (a CPU device) if there is one, else the first ----
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (count == 0) die("vkEnumeratePhysicalDevices (no device)", VK_ERROR_INITIALIZATION_FAILED);
  std::vector<VkPhysicalDevice> gpus(count);
  CHECK(vkEnumeratePhysicalDevices(instance, &count, gpus.data()));
  VkPhysicalDevice gpu = gpus[0];
  for (VkPhysicalDevice g : gpus) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(g, &p);
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      gpu = g;
      break;
    }
  }
  VkPhysicalDeviceMemoryProperties memory_props;
  vkGetPhysicalDeviceMemoryProperties(gpu, &memory_props);

  if (threads <= 1) {
    run_device(gpu, memory_props, iterations, provoke, extras);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(run_device, gpu, memory_props, iterations, provoke, extras);
    for (auto &t : pool) t.join();
  }
  if (messenger) destroy_messenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
  }

  std::printf("workload: %d iterations x %d threads, %d validation messages\n", iterations, threads,
              g_validation_messages.load());
  return g_validation_messages ? 3 : 0;
}
