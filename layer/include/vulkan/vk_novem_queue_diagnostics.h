/* VK_NOVEM_queue_diagnostics: the device extension of VK_LAYER_NOVEM_queue_diagnostics.
 *
 * An application that wants the layer's counters for a queue while it runs:
 *   1. checks that vkEnumerateDeviceExtensionProperties(gpu, NULL, ...) lists
 *      VK_NOVEM_QUEUE_DIAGNOSTICS_EXTENSION_NAME: the NULL list has the extensions of the implicit
 *      layers that are enabled, so it has this one exactly when the layer is active. (Asked with
 *      pLayerName "VK_LAYER_NOVEM_queue_diagnostics", the loader answers from the layer's manifest
 *      even when the layer is disabled.)
 *   2. enables it in VkDeviceCreateInfo::ppEnabledExtensionNames (the layer removes it from the
 *      list it passes down, so drivers and the layers below never see it),
 *   3. fetches vkGetQueueDiagnosticsNOVEM with vkGetDeviceProcAddr (NULL unless step 2 was done),
 *   4. calls it with a VkQueueDiagnosticsNOVEM whose sType is VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM.
 * The struct's members are the JSON report's per-queue members (layer/README.md). This extension
 * is not registered with Khronos: its structure type is a value outside every registered range.
 * C and C++; needs <vulkan/vulkan.h> (included here). Installed with the layer. */
#ifndef VK_NOVEM_QUEUE_DIAGNOSTICS_H_
#define VK_NOVEM_QUEUE_DIAGNOSTICS_H_ 1

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VK_NOVEM_queue_diagnostics 1
#define VK_NOVEM_QUEUE_DIAGNOSTICS_SPEC_VERSION 1
#define VK_NOVEM_QUEUE_DIAGNOSTICS_EXTENSION_NAME "VK_NOVEM_queue_diagnostics"
#define VK_NOVEM_QUEUE_DIAGNOSTICS_LAYER_NAME "VK_LAYER_NOVEM_queue_diagnostics"

/* 1000999000: far above the registered extensions' range (1000000000 + 1000 x extension number). */
#define VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM ((VkStructureType)1000999000)

/* Calls of one kind of wait attributed to the queue, and the CPU time they blocked (ns). */
typedef struct VkQueueDiagnosticsWaitNOVEM {
    uint64_t calls;
    uint64_t blockedNs;
} VkQueueDiagnosticsWaitNOVEM;

/* A distribution of nanosecond values (latency, present intervals); all 0 when count is 0.
 * p50 / p99 are within 1.6 % (a histogram bucket's upper bound, clamped to [min, max]). */
typedef struct VkQueueDiagnosticsStatsNOVEM {
    uint64_t count;
    uint64_t minNs;
    uint64_t meanNs;
    uint64_t maxNs;
    uint64_t p50Ns;
    uint64_t p99Ns;
} VkQueueDiagnosticsStatsNOVEM;

typedef struct VkQueueDiagnosticsNOVEM {
    VkStructureType sType; /* VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM */
    void *pNext;           /* NULL: no extending structure is defined */
    uint32_t queueFamilyIndex;
    uint32_t queueIndex;
    uint64_t submits;        /* successful vkQueueSubmit + vkQueueSubmit2(KHR) + vkQueueBindSparse calls */
    uint64_t failedSubmits;
    uint64_t batches;
    uint64_t commandBuffers;
    uint64_t waitSemaphoresBinary;
    uint64_t waitSemaphoresTimeline;
    uint64_t signalSemaphoresBinary;
    uint64_t signalSemaphoresTimeline;
    uint64_t fences;         /* submissions that carried a fence */
    uint64_t presents;       /* successful vkQueuePresentKHR calls */
    VkQueueDiagnosticsWaitNOVEM queueWaitIdle;
    VkQueueDiagnosticsWaitNOVEM deviceWaitIdle;
    VkQueueDiagnosticsWaitNOVEM waitForFences;
    VkQueueDiagnosticsWaitNOVEM waitSemaphores; /* vkWaitSemaphores(KHR) */
    uint64_t blockedNs;      /* the sum of the four waits' blockedNs */
    uint64_t inFlight;       /* submissions not known complete now */
    uint64_t inFlightMax;
    VkQueueDiagnosticsStatsNOVEM latency;          /* submit -> complete, per submission */
    uint64_t gpuTimeCount;   /* submissions with a GPU time */
    uint64_t gpuTimeTotalNs;
    uint64_t gpuTimeMaxNs;
    VkQueueDiagnosticsStatsNOVEM presentIntervals; /* between successive presents on the queue */
    uint64_t threadOverlaps; /* calls that found the queue in use by another thread */
} VkQueueDiagnosticsNOVEM;

/* VK_SUCCESS; VK_ERROR_INITIALIZATION_FAILED when pDiagnostics->sType is not
 * VK_STRUCTURE_TYPE_QUEUE_DIAGNOSTICS_NOVEM or the queue is not one the layer knows
 * (its members are then left as they were). Thread-safe; it never waits for the GPU. */
typedef VkResult(VKAPI_PTR *PFN_vkGetQueueDiagnosticsNOVEM)(VkQueue queue, VkQueueDiagnosticsNOVEM *pDiagnostics);

#ifdef __cplusplus
}
#endif

#endif
