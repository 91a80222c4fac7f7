/* The contract between the Novem frontend and a backend plugin: the plugin's entry point.
 *
 * One struct (nv_plugin) is the whole interface, as Gallium's pipe_context is for a driver.
 * The frontend dlopen()s a plugin, looks up NV_PLUGIN_ENTRY_NAME, calls it and checks
 * abi_version before touching anything else. Everything that happens on a device afterwards
 * travels as commands (commands.h) through the device's channel (channel.hpp); the plugin
 * executes them on its own submission thread, the only thread that calls Vulkan or GL.
 */
#ifndef NOVEM_BACKEND_H
#define NOVEM_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "novem/commands.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any change to this header, commands.h or channel.hpp's layout; what each version
 * changed is in backends/CHANGELOG.md. */
#define NV_BACKEND_ABI_VERSION 14u
#define NV_PLUGIN_ENTRY_NAME "novem_plugin_entry"

/* What a format can be used for on this device (nv_adapter_info.format_support). */
enum nv_format_support {
  NV_SUPPORT_RENDER_TARGET = 1u << 0,
  NV_SUPPORT_DEPTH_STENCIL = 1u << 1,
  NV_SUPPORT_SAMPLED = 1u << 2,
  NV_SUPPORT_VERTEX = 1u << 3,
  NV_SUPPORT_BLEND = 1u << 4,
  NV_SUPPORT_FILTER = 1u << 5, /* a sampled image can be read with linear filtering */
  NV_SUPPORT_GENERATE_MIPS = 1u << 6, /* GENERATE_MIPS works on its images */
  /* A depth format that is also a texture (NV_IMAGE_DEPTH_STENCIL | NV_IMAGE_SAMPLED),
   * sampled with a depth comparison (filtered as the sampler says) and without (nearest). */
  NV_SUPPORT_DEPTH_SAMPLED = 1u << 7,
  NV_SUPPORT_SRGB_READ = 1u << 8,  /* sampled with NV_TEXTURE_SRGB (sRGB-decoded) */
  NV_SUPPORT_SRGB_WRITE = 1u << 9, /* a render target written sRGB-encoded (srgb_write) */
  /* Images of the format are scaled and converted from: BLIT_IMAGE between rectangles of
   * different sizes, and PRESENT into a window. */
  NV_SUPPORT_BLIT = 1u << 10,
};

/* Filled by nv_plugin.probe: what the frontend needs for GetAdapterIdentifier, GetDeviceCaps
 * and CheckDeviceFormat without creating a device. */
typedef struct nv_adapter_info {
  char device_name[128]; /* the API's name of the device, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
  char driver_name[128]; /* API and driver version, e.g. "Vulkan 1.3.230, Mesa 22.3.6" */
  uint32_t vendor_id;
  uint32_t device_id;
  uint64_t video_memory_bytes;
  uint32_t max_texture_size;
  uint32_t max_viewport_size;
  float max_point_size;
  uint32_t format_support[NV_FORMAT_COUNT]; /* nv_format_support bits, indexed by nv_format */
  /* The sample counts N for which multisampled colour and depth-stencil targets of every
   * supported format work: bit value N set (1 is always set; 4 is bit 2), as VkSampleCountFlags. */
  uint32_t sample_counts;
  /* The largest nv_pipeline_desc.instance_divisors value the device draws (1: only
   * per-instance data that advances every instance). */
  uint32_t max_instance_divisor;
  /* The largest nv_sampler_desc.max_anisotropy the device filters with (1: no anisotropic
   * filtering; at most 16, D3D9's largest). */
  uint32_t max_anisotropy;
} nv_adapter_info;

typedef enum nv_device_flags {
  /* D3D9's software (or mixed) vertex processing: the vertex stage's constant block is larger, with
   * a storage buffer after the uniform block (commands.h, NV_VERTEX_STORAGE_BINDING). A plugin
   * that cannot read a storage buffer in vertex shaders fails create_device. */
  NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS = 1u << 0,
} nv_device_flags;

typedef struct nv_device_desc {
  uint32_t struct_size; /* sizeof(nv_device_desc), for growth within one ABI version */
  uint32_t flags;       /* nv_device_flags */
  /* NULL: headless (offscreen targets only); else a const nv_window * (commands.h), the
   * device window: the GL plugin makes its context on that window's display so that windows of
   * that display can be presented. Presenting itself goes through CREATE_SWAPCHAIN. */
  void *window;
} nv_device_desc;

typedef struct nv_channel nv_channel; /* defined in channel.hpp: the ring and completion state */
typedef struct nv_device nv_device;   /* the plugin's own */

typedef struct nv_plugin {
  uint32_t abi_version; /* NV_BACKEND_ABI_VERSION of the headers the plugin was built with */
  const char *name;     /* "vulkan", "opengl", "null" */

  /* Checks that the API can start on this machine and describes the device. Runs the API on a
   * thread of the plugin's own, never the caller's. Returns 0, or non-zero with one line in
   * error. */
  int (*probe)(nv_adapter_info *info, char *error, size_t error_size);

  /* Starts a device: its submission thread creates the API context and then executes the
   * commands of channel until destroy_device. Returns NULL with one line in error when the API
   * cannot start. The channel outlives the device. */
  nv_device *(*create_device)(const nv_device_desc *desc, nv_channel *channel, char *error,
                              size_t error_size);

  /* Executes every command already in the channel, waits for the API to go idle, stops the
   * thread and frees everything the device created. */
  void (*destroy_device)(nv_device *device);
} nv_plugin;

typedef const nv_plugin *(*nv_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
