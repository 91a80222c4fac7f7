// VK_EXT_device_fault for the device-lost dumps: the layer enables it on every device whose driver
// offers it (the application need not), and asks the driver what went wrong once a device is lost.
#pragma once

#include <string>
#include <vector>

#include "novem_qd_dispatch.h"

namespace novem_qd {

struct InstanceState;
struct DeviceState;

// Before vkCreateDevice's call down: where the physical device offers VK_EXT_device_fault with its
// deviceFault feature, adds the extension to `extensions` (the list `down` passes down) and the
// feature structure to `down`'s chain, unless the application did either already. Lives across the
// call down (its feature structure is in the chain).
class FaultEnabler {
public:
  FaultEnabler(const InstanceState &inst, VkPhysicalDevice gpu, VkDeviceCreateInfo &down,
               std::vector<const char *> &extensions);
  FaultEnabler(const FaultEnabler &) = delete;
  FaultEnabler &operator=(const FaultEnabler &) = delete;
  // Whether the device is created with the extension and the feature (vkGetDeviceFaultInfoEXT usable).
  bool enabled() const { return enabled_; }

private:
  VkPhysicalDeviceFaultFeaturesEXT features_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
  bool enabled_ = false;
};

// The dump's "device_fault" value for a lost device: the driver's vkGetDeviceFaultInfoEXT as JSON,
// or "null" where the device has no VK_EXT_device_fault or the call fails.
std::string device_fault_json(DeviceState &dev);

} // namespace novem_qd
