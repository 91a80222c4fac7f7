/* A device's counters, as a program sees them.
 *
 * The plugin counts into its nv_channel (channel.hpp); libnovem_d3d9.so copies them out through
 * the exported function NV_STATISTICS_ENTRY_NAME, which a benchmark or a test finds with
 * dlsym/GetProcAddress (a Direct3D 9 without it, such as Windows' or wined3d's, has no counters).
 * Plain C, no Windows types, so the same program builds against any d3d9.h.
 */
#ifndef NOVEM_STATISTICS_H
#define NOVEM_STATISTICS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nv_statistics {
  uint32_t struct_size;       /* sizeof(nv_statistics) of whoever filled it */
  uint32_t reserved;
  uint64_t pipelines_created; /* pipelines (Vulkan) or programs (GL) built from scratch */
  uint64_t pipelines_loaded;  /* taken from the on-disk pipeline cache instead */
  uint64_t pipeline_cache_rejected; /* on-disk cache files ignored: corrupt, truncated, foreign */
  uint64_t barriers;          /* barrier calls: vkCmdPipelineBarrier2, glMemoryBarrier */
  uint64_t device_allocations; /* vkAllocateMemory calls; GL buffer objects given storage */
  uint64_t submits;           /* batches handed to the API (vkQueueSubmit2, GL fence + flush) */
  uint64_t fence_waits;       /* times the application thread slept waiting for the plugin */
  uint64_t gpu_waits;         /* times the plugin's thread blocked on the GPU */
  uint64_t draws;             /* DRAW and DRAW_INDEXED commands of the application executed */
  uint64_t slab_allocations;  /* buffer slices served from a slab of small buffers (Vulkan) */
  uint64_t ring_allocations;  /* constant blocks pushed into the upload ring (Vulkan) */
  uint64_t api_draw_calls;    /* draw calls made to the API; a run of draws recorded as one multi-draw counts once */
  uint64_t creation_failures; /* images and buffers the plugin could not make (out of memory, past an API limit) */
  /* the command ring */
  uint64_t ring_bytes;        /* bytes of commands written into the ring */
  uint64_t ring_full_waits;   /* times the application thread found the ring full inside a call and slept */
  uint64_t ring_room_waits;   /* times Present slept until the ring had room for the next frame */
  uint64_t ring_empty_waits;  /* times the plugin's thread found the ring empty and slept */
  uint64_t ring_wakes;        /* futex wake-ups either side gave the other */
  /* the frontend's own drawing */
  uint64_t overlay_draws;     /* draws of the frontend's HUD (NOVEM_HUD), which `draws` does not count */
  uint64_t overlay_api_draw_calls; /* the API draw calls they made, which `api_draw_calls` does not count */
} nv_statistics;

/* int novem_get_statistics(IDirect3DDevice9 *device, nv_statistics *out): 0 and out filled for a
 * Novem device, -1 otherwise. */
#define NV_STATISTICS_ENTRY_NAME "novem_get_statistics"
typedef int (*nv_get_statistics_fn)(void *device, nv_statistics *out);

#ifdef __cplusplus
}
#endif

#endif
