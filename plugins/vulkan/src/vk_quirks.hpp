// The Vulkan drivers' habits the plugin works around, one table (vk_quirks.cpp; the frame is
// novem/quirks.hpp): each row names its driver and the flag that turns the workaround off.
#pragma once

#include <vulkan/vulkan.h>

#include "novem/quirks.hpp"

namespace novem::vk {

enum class Quirk {
  // lavapipe: llvmpipe's scene memory is given back to the kernel at every frame; the plugin
  // keeps it (glibc's thresholds, novem/driver_heap.hpp). NOVEM_VK_DRIVER_HEAP.
  driver_heap,
  // lavapipe counts vkCmdSetDepthBias' constant in twice the minimum resolvable difference of
  // UNORM depth formats (Mesa's lp_state_setup.c: offset_units * mrd * 2), which the spec allows
  // (r is "implementation-dependent"); D3D9 needs one 2^-n step per unit, so the constant is
  // halved there. Float depth is counted as the spec defines. NOVEM_VK_DEPTH_BIAS_UNITS.
  depth_bias_units,
  // lavapipe stages every binding of a set at each vkCmdBindDescriptorSets and llvmpipe flushes
  // every bound view at each draw: the pixel texture set comes in widths of 1 to 16 slots, the
  // narrowest that holds what the pixel shader declares (PipelineLayout). Elsewhere one width
  // of 16. NOVEM_VK_NARROW_TEXTURE_SETS.
  narrow_texture_sets,
  count
};

using DriverQuirks = novem::Quirks<Quirk, std::size_t(Quirk::count)>;

// Which workarounds the settings leave on (Options::from_environment reads them).
DriverQuirks::Switches quirk_switches(const novem::Options &settings);
// The quirks of the driver `driver` (VkPhysicalDeviceVulkan12Properties::driverID) that apply.
DriverQuirks driver_quirks(VkDriverId driver, DriverQuirks::Switches on);

} // namespace novem::vk
