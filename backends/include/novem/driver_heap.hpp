// Keeping a CPU rasterizer's scene memory between frames; shared by the plugins.
//
// llvmpipe (under lavapipe and under Mesa's GL) stores the whole fragment state in its scene at
// every state change: about 30 KiB in Mesa 22 (lp_jit_context carries all 128 sampler-view slots),
// in 64 KiB malloc'd blocks freed when the scene ends. glibc gives the top of a heap back to the
// kernel once more than M_TRIM_THRESHOLD (128 KiB by default) lies free there, so a frame with a
// state change per draw faults its ~30 MiB back in page by page, every frame: perf showed 60% of
// the CPU time of novem-bench's Vulkan `game` workload in the kernel's page-fault and madvise
// paths. Raising the threshold to 64 MiB, the ceiling glibc's own dynamic tuning reaches, keeps
// those pages (novem-bench: 2-3x the draws per second with a state change per draw).
//
// A thread other than the main one (lavapipe's queue thread) allocates from an arena of 64 MiB
// heaps, and glibc unmaps such a heap whenever everything in it is free, whatever the trim
// threshold: a scene of ~30 MiB that spills into a second heap mapped and faulted that heap in
// again at every frame (novem-bench `texture` with ten DISCARD texture updates a frame: 9 ms a
// frame in most runs against 2.3 ms). A top pad of 64 MiB (M_TOP_PAD) keeps it: glibc deletes a
// heap only when more than the pad lies free below it.
//
// It is process-wide, so it changes the application's allocator too: the plugins do it only on a
// CPU rasterizer, never when the user set one of these through the environment, and a switch
// turns it off (NOVEM_VK_DRIVER_HEAP=0, NOVEM_GL_DRIVER_HEAP=0). The pad reserves address space
// at each heap growth; pages are only touched when used.
#pragma once

#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace novem {

inline constexpr int kDriverHeapTrimThreshold = 64 << 20;
inline constexpr int kDriverHeapMmapThreshold = 32 << 20;
inline constexpr int kDriverHeapTopPad = 64 << 20;

// Raises glibc's trim threshold and top pad; false where it did not (not glibc, or the user's
// setting stands).
inline bool keep_driver_heap() {
#if defined(__GLIBC__)
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") || std::getenv("MALLOC_MMAP_THRESHOLD_") || std::getenv("MALLOC_TOP_PAD_"))
    return false;
  // Setting either threshold ends glibc's dynamic tuning of both, so both are set: blocks up to
  // 32 MiB then come from the heap, not from mmap and munmap at every allocation.
  return mallopt(M_MMAP_THRESHOLD, kDriverHeapMmapThreshold) == 1 &&
         mallopt(M_TRIM_THRESHOLD, kDriverHeapTrimThreshold) == 1 && mallopt(M_TOP_PAD, kDriverHeapTopPad) == 1;
#else
  return false;
#endif
}

} // namespace novem
