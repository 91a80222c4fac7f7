// The measuring side of novem-bench-layer: one Vulkan program, run as a child process with or
// without the layer, that prints its figures as lines the parent reads (bench_layer.cpp).
#pragma once

#include <cstdint>

namespace bench_layer {

enum class Workload {
  Submit, // vkQueueSubmit of one empty command buffer, no fence: the cost of the call itself
  Frame,  // per frame: wait for the frame's fence, reset it, submit real work with it (2 in flight)
  Timeline, // Frame with one timeline semaphore instead of fences: signalled per submit, waited on
};

struct ChildOptions {
  Workload workload = Workload::Submit;
  std::uint32_t count = 100000; // submits (Submit) or frames (Frame, Timeline) per run
  std::uint32_t batch = 64;     // Submit: submits between untimed vkQueueWaitIdle calls
  std::uint32_t runs = 5;
};

// Prints "device NAME", then per run "run WALL CPU LAYER": nanoseconds per submit or frame of wall
// clock on the submitting thread, of the whole process's CPU time, and of the layer's own thread's
// CPU time (the threads named novem-qd; 0 without the layer). Returns the exit status.
int run_child(const ChildOptions &o);

} // namespace bench_layer
