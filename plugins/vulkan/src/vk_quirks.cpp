#include "vk_quirks.hpp"

namespace novem::vk {

namespace {

bool lavapipe(const VkDriverId &driver) { return driver == VK_DRIVER_ID_MESA_LLVMPIPE; }

// In the order of Quirk.
constexpr QuirkRow<VkDriverId> kQuirks[] = {
    {"driver_heap", "NOVEM_VK_DRIVER_HEAP", "lavapipe", lavapipe},
    {"depth_bias_units", "NOVEM_VK_DEPTH_BIAS_UNITS", "lavapipe", lavapipe},
    {"narrow_texture_sets", "NOVEM_VK_NARROW_TEXTURE_SETS", "lavapipe", lavapipe},
};
static_assert(std::size(kQuirks) == std::size_t(Quirk::count));

} // namespace

DriverQuirks::Switches quirk_switches(const novem::Options &settings) { return DriverQuirks::switches(kQuirks, settings); }

DriverQuirks driver_quirks(VkDriverId driver, DriverQuirks::Switches on) {
  return DriverQuirks(kQuirks, driver, on, "novem-vulkan");
}

} // namespace novem::vk
