// novem-bench-layer: what VK_LAYER_NOVEM_queue_diagnostics adds to vkQueueSubmit. See README.md.
//
//   novem-bench-layer [--submits N] [--batch B] [--runs R] [--rounds K] [--layer-data-dir DIR]
//
// --layer-data-dir: the directory holding vulkan/implicit_layer.d/ with the layer's manifest
// (default: this build's <build>/share), e.g. a standalone layer build's <build>/share.
// It re-runs itself as a child process, alternately without the layer and with it (enabled only
// through the build-tree manifest: XDG_DATA_DIRS=<build>/share:..., NOVEM_QUEUE_DIAGNOSTICS=1), K
// rounds of each. A child times N vkQueueSubmit calls of one empty command buffer, no fence, on
// lavapipe's queue (family 0, index 0), in batches of B with a vkQueueWaitIdle between batches (not
// timed) so the queue stays bounded; it does that R times and prints each run's ns per submit.
// The parent prints the median (and the best) over every run of each side and the differences. A benchmark: it
// prints figures and judges nothing (exit 0 unless a child fails).
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

struct Options {
  std::uint32_t submits = 100000, batch = 64, runs = 5, rounds = 2;
  std::string data_dir = NOVEM_QD_DATA_DIR; // prepended to XDG_DATA_DIRS for the layer's manifest
};

[[noreturn]] void die(const char *what, VkResult r) {
  std::fprintf(stderr, "novem-bench-layer: %s failed (VkResult %d)\n", what, static_cast<int>(r));
  std::exit(1);
}
#define MUST(call)                                                                                               \
  do {                                                                                                           \
    const VkResult r_ = (call);                                                                                  \
    if (r_ != VK_SUCCESS) die(#call, r_);                                                                        \
  } while (0)

// ---- the child: the measurement ----
int child(const Options &o) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "novem-bench-layer";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  MUST(vkCreateInstance(&ici, nullptr, &instance));
  std::uint32_t count = 0;
  MUST(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> gpus(count);
  MUST(vkEnumeratePhysicalDevices(instance, &count, gpus.data()));
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
  if (!gpu)
    die("finding a Vulkan device", VK_ERROR_INITIALIZATION_FAILED);
  std::printf("device %s\n", props.deviceName);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device;
  MUST(vkCreateDevice(gpu, &dci, nullptr, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.queueFamilyIndex = 0;
  VkCommandPool pool;
  MUST(vkCreateCommandPool(device, &pci, nullptr, &pool));
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cai.commandPool = pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  VkCommandBuffer cb;
  MUST(vkAllocateCommandBuffers(device, &cai, &cb));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT; // submitted again while pending
  MUST(vkBeginCommandBuffer(cb, &begin));
  MUST(vkEndCommandBuffer(cb));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;

  using clock = std::chrono::steady_clock;
  auto measure = [&](std::uint32_t submits) {
    std::chrono::nanoseconds total{0};
    for (std::uint32_t done = 0; done < submits;) {
      const std::uint32_t n = std::min(o.batch, submits - done);
      const auto t0 = clock::now();
      for (std::uint32_t i = 0; i < n; ++i)
        MUST(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
      total += clock::now() - t0;
      MUST(vkQueueWaitIdle(queue));
      done += n;
    }
    return static_cast<double>(total.count()) / submits;
  };
  measure(std::min<std::uint32_t>(o.submits, 5000)); // warm-up
  for (std::uint32_t r = 0; r < o.runs; ++r) {
    std::printf("run %.1f\n", measure(o.submits));
    std::fflush(stdout);
  }

  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return 0;
}

// ---- the parent: children with and without the layer ----
struct ChildResult {
  int status = -1;
  std::string output;
};

ChildResult spawn(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set,
                  const std::vector<std::string> &unset) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    const std::string entry = *e, name = entry.substr(0, entry.find('='));
    if (set.count(name) == 0 && std::find(unset.begin(), unset.end(), name) == unset.end())
      env.push_back(entry);
  }
  for (const auto &[k, v] : set)
    env.push_back(k + "=" + v);
  std::vector<char *> envp, args;
  for (auto &e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto &a : argv_copy)
    args.push_back(a.data());
  args.push_back(nullptr);
  ChildResult r;
  int fds[2];
  if (pipe(fds) != 0)
    return r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    std::fprintf(stderr, "novem-bench-layer: cannot run %s: %s\n", args[0], std::strerror(err));
    return r;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    r.output.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool parse_u32(const char *s, std::uint32_t &out) {
  char *end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (!*s || *end || v == 0 || v > 100000000ul)
    return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  bool is_child = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::uint32_t *target = a == "--submits" ? &o.submits
                            : a == "--batch" ? &o.batch
                            : a == "--runs"  ? &o.runs
                            : a == "--rounds" ? &o.rounds
                                              : nullptr;
    if (a == "--child") {
      is_child = true;
    } else if (a == "--layer-data-dir" && i + 1 < argc) {
      o.data_dir = argv[++i];
    } else if (target && i + 1 < argc && parse_u32(argv[i + 1], *target)) {
      ++i;
    } else {
      std::fprintf(stderr, "usage: novem-bench-layer [--submits N] [--batch B] [--runs R] [--rounds K] "
                           "[--layer-data-dir DIR]\n");
      return 2;
    }
  }
  if (is_child)
    return child(o);

  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::vector<std::string> child_argv = {self,           "--child",  "--submits", std::to_string(o.submits),
                                               "--batch",      std::to_string(o.batch), "--runs",
                                               std::to_string(o.runs)};
  const char *old_xdg = std::getenv("XDG_DATA_DIRS");
  const std::string xdg =
      o.data_dir + ":" + (old_xdg && *old_xdg ? old_xdg : "/usr/local/share:/usr/share");
  const std::filesystem::path report =
      std::filesystem::temp_directory_path() / ("novem-bench-layer-" + std::to_string(getpid()) + ".json");
  // Validation or any other explicit layer would swamp the figure: no VK_INSTANCE_LAYERS in either.
  const std::vector<std::string> common_unset = {"VK_INSTANCE_LAYERS", "NOVEM_QUEUE_DIAGNOSTICS",
                                                 "NOVEM_QUEUE_DIAGNOSTICS_DISABLE", "NOVEM_QUEUE_DIAGNOSTICS_REPORT"};

  std::printf("novem-bench-layer: vkQueueSubmit of 1 empty command buffer, no fence; %u submits per run in "
              "batches of %u (vkQueueWaitIdle between, not timed), %u runs per child, %u rounds\n",
              o.submits, o.batch, o.runs, o.rounds);
  std::vector<double> results[2];
  std::string device;
  for (std::uint32_t round = 0; round < o.rounds; ++round) {
    for (int with = 0; with < 2; ++with) {
      std::map<std::string, std::string> set;
      if (with)
        set = {{"XDG_DATA_DIRS", xdg},
               {"NOVEM_QUEUE_DIAGNOSTICS", "1"},
               {"NOVEM_QUEUE_DIAGNOSTICS_REPORT", report.string()}};
      std::error_code ec;
      std::filesystem::remove(report, ec);
      const ChildResult r = spawn(child_argv, set, common_unset);
      if (r.status != 0) {
        std::fprintf(stderr, "novem-bench-layer: the child %s the layer failed (exit %d)\n%s",
                     with ? "with" : "without", r.status, r.output.c_str());
        return 1;
      }
      const bool report_written = std::filesystem::exists(report, ec);
      std::filesystem::remove(report, ec);
      if (with && !report_written) {
        std::fprintf(stderr, "novem-bench-layer: the layer wrote no report: it was not loaded (is %s/vulkan/"
                             "implicit_layer.d there?)\n", o.data_dir.c_str());
        return 1;
      }
      std::stringstream lines(r.output);
      std::string line;
      std::vector<double> runs;
      while (std::getline(lines, line)) {
        if (line.rfind("device ", 0) == 0)
          device = line.substr(7);
        else if (line.rfind("run ", 0) == 0)
          runs.push_back(std::strtod(line.c_str() + 4, nullptr));
      }
      std::printf("round %u, %-14s", round + 1, with ? "with layer:" : "without layer:");
      for (double v : runs)
        std::printf(" %8.1f", v);
      std::printf("  ns/submit\n");
      std::fflush(stdout);
      results[with].insert(results[with].end(), runs.begin(), runs.end());
    }
  }
  const double off = median(results[0]), on = median(results[1]);
  const double off_min = results[0].empty() ? 0 : *std::min_element(results[0].begin(), results[0].end());
  const double on_min = results[1].empty() ? 0 : *std::min_element(results[1].begin(), results[1].end());
  std::printf("device: %s\n", device.c_str());
  std::printf("without layer: %9.1f ns per vkQueueSubmit (median of %zu runs; best %.1f)\n", off, results[0].size(),
              off_min);
  std::printf("with layer:    %9.1f ns per vkQueueSubmit (median of %zu runs; best %.1f)\n", on, results[1].size(),
              on_min);
  std::printf("difference:    %+9.1f ns per vkQueueSubmit (%+.1f%%); best to best %+.1f ns\n", on - off,
              off > 0 ? (on - off) / off * 100 : 0.0, on_min - off_min);
  return 0;
}
