// Whether the plugin made the image or buffer a creation call just sent (ABI 9), and what the call
// answers when it did not.
//
// The frontend's own accounting (Device::take_video_memory) refuses what the adapter's memory
// cannot hold before anything is sent. What it cannot see is a single allocation the driver
// refuses: a per-resource limit (Vulkan's maxMemoryAllocationSize, maxBufferSize, a format's
// largest image; llvmpipe's GL textures past 2 GiB and buffers past 4 GiB) or a device whose
// memory others have taken. The plugin reports such a creation in the channel
// (nv_channel::failed_image, failed_buffer); learning it costs a round trip — a FENCE after the
// creation, and a wait until the plugin's thread has executed everything before it and the GPU
// has finished that work. So only creations of kAnsweredBytes and up wait:
//  - every per-resource limit a conforming driver may have is far above it (Vulkan guarantees
//    maxMemoryAllocationSize and maxBufferSize of at least 1 GiB);
//  - the thousands of small textures and buffers a program makes while loading, and its
//    per-frame dynamic buffers, cost no round trip: a 2048x2048 A8R8G8B8 texture with its mips
//    (21 MiB) does not wait, a 4096x4096 one (85 MiB) does;
//  - from this size on each plugin gives the resource memory of its own (Vulkan: resources past a
//    quarter of its 32 MiB blocks; GL: every texture, and buffers past the arena's 16 MiB blocks),
//    so a failure at creation is this resource's own; a smaller one lands in a block the plugin
//    most likely has already, and fails only when the device as a whole is out of memory.
// A smaller creation the plugin cannot make is logged by the plugin and the resource draws
// nothing (novem/failed_creations.hpp); the call has already answered D3D_OK. Such a failure
// means the device's memory is spent (no per-resource limit is that low), so once one is seen —
// the plugin has counted more failures than creations answered — every later creation of the
// device waits for its answer, whatever its size: a program that runs out of memory gets its
// D3DERR_OUTOFVIDEOMEMORY from the next creation on, and one that frees memory and tries again
// gets D3D_OK, at the price of a round trip per creation for the rest of the device's life.
#pragma once

#include <cstdint>

#include <d3d9.h>

namespace novem {

class Device;

enum class PluginResource { Image, Buffer };

constexpr uint64_t kAnsweredBytes = 32ull << 20;

// D3D_OK when the plugin made `handle` (0: nothing was sent, as for a SYSTEMMEM texture), or when
// the creation took fewer than kAnsweredBytes of video memory and does not wait (while the
// device's memory is not known to be spent). Else what the
// creation answers, as Windows does when the driver cannot allocate: D3DERR_OUTOFVIDEOMEMORY for
// D3DPOOL_DEFAULT, E_OUTOFMEMORY for the other pools and on D3D9Ex devices (Wine's
// test_vidmem_accounting: "No D3DERR_OUTOFVIDEOMEMORY in d3d9ex"). The caller then destroys what
// it made, which gives the video memory back.
HRESULT plugin_answer(Device &device, PluginResource kind, uint32_t handle, uint64_t bytes, D3DPOOL pool);

} // namespace novem
