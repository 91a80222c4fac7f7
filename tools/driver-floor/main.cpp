// novem-driver-floor: how many draws per second the driver itself sustains on novem-bench's
// workloads, with no D3D9 layer in between: in Vulkan (vk_floor.cpp, lavapipe here) or in
// OpenGL (gl_floor.cpp, llvmpipe through EGL here). A benchmark, not a test.
//
// The same frames as novem-bench (256x256, 1000 small triangles on its 16x16 grid, a clear, two
// frames in flight), recorded in the cheapest way the API allows: every pipeline or program,
// descriptor set and texture made before the clock starts, draws with nothing between them as
// one multi-draw, and per draw only what the workload changes (README.md has the list). What it
// prints is an upper bound for any translation layer on this driver: what is left once the layer
// costs nothing.
//
//   novem-driver-floor [--api vulkan|opengl] [--frames N] [--repeat N] [--workload NAME|all]
//                      [--no-driver-heap]
//
// --repeat N measures each workload N times, in turn, and prints the median.
// Like the plugins on a CPU rasterizer (llvmpipe), it raises glibc's trim and mmap thresholds
// (novem/driver_heap.hpp); --no-driver-heap leaves them alone.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "floor.hpp"

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "novem-driver-floor: %s\nusage: novem-driver-floor [--api vulkan|opengl] [--frames N] [--repeat N] "
               "[--workload draw|state|texture|shader|up|dynamic|game|all] [--no-driver-heap]\n",
               why);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  using namespace driver_floor;
  int frames = 200, repeat = 1;
  std::string workload = "all", api = "vulkan";
  bool driver_heap = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--frames" && i + 1 < argc) {
      if ((frames = std::atoi(argv[++i])) <= 0) return usage("--frames needs a positive number");
    } else if (arg == "--repeat" && i + 1 < argc) {
      if ((repeat = std::atoi(argv[++i])) <= 0) return usage("--repeat needs a positive number");
    } else if (arg == "--workload" && i + 1 < argc) {
      workload = argv[++i];
      if (workload != "all" && std::find(std::begin(kWorkloads), std::end(kWorkloads), workload) == std::end(kWorkloads))
        return usage(("unknown workload " + workload).c_str());
    } else if (arg == "--api" && i + 1 < argc) {
      api = argv[++i];
      if (api != "vulkan" && api != "opengl") return usage(("unknown API " + api).c_str());
    } else if (arg == "--no-driver-heap") {
      driver_heap = false;
    } else {
      return usage(("unknown argument " + arg).c_str());
    }
  }
  try {
    std::unique_ptr<Floor> floor = api == "vulkan" ? make_vulkan_floor(driver_heap) : make_gl_floor(driver_heap);
    std::vector<double> runs[kWorkloadCount];
    for (int r = 0; r < repeat; ++r) // the workloads in turn, so the machine's drift falls on all
      for (int w = 0; w < kWorkloadCount; ++w)
        if (workload == "all" || workload == kWorkloads[w]) runs[w].push_back(floor->run(w, frames));
    std::printf("| workload | draws/s (%s driver alone%s) |\n| --- | ---: |\n", api.c_str(), repeat > 1 ? ", median" : "");
    for (int w = 0; w < kWorkloadCount; ++w) {
      if (runs[w].empty()) continue;
      std::sort(runs[w].begin(), runs[w].end());
      std::printf("| %s | %.0f |\n", kWorkloads[w], runs[w][(runs[w].size() - 1) / 2]);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "novem-driver-floor: %s\n", e.what());
    return 1;
  }
  return 0;
}
