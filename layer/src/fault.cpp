// VK_EXT_device_fault (fault.hpp): enabled by the layer where the driver offers it, read into the
// device-lost dump.
#include "fault.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "state.hpp"

namespace novem_qd {

namespace {

bool offers_fault_extension(const InstanceState &inst, VkPhysicalDevice gpu) {
  std::uint32_t n = 0;
  if (inst.table.EnumerateDeviceExtensionProperties(gpu, nullptr, &n, nullptr) != VK_SUCCESS || n == 0) return false;
  std::vector<VkExtensionProperties> props(n);
  if (inst.table.EnumerateDeviceExtensionProperties(gpu, nullptr, &n, props.data()) < 0) return false;
  for (std::uint32_t i = 0; i < n; ++i)
    if (std::strcmp(props[i].extensionName, VK_EXT_DEVICE_FAULT_EXTENSION_NAME) == 0) return true;
  return false;
}

const char *address_type(VkDeviceFaultAddressTypeEXT t) {
  switch (t) {
  case VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_EXT: return "none";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT: return "read_invalid";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT: return "write_invalid";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_EXT: return "execute_invalid";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_EXT: return "instruction_pointer_unknown";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_EXT: return "instruction_pointer_invalid";
  case VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT: return "instruction_pointer_fault";
  default: return "unknown";
  }
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"0x%" PRIx64 "\"", v);
  return buf;
}

// A fixed-size description of the driver's, which need not be terminated.
std::string text(const char *chars, std::size_t size) { return std::string(chars, strnlen(chars, size)); }

} // namespace

FaultEnabler::FaultEnabler(const InstanceState &inst, VkPhysicalDevice gpu, VkDeviceCreateInfo &down,
                           std::vector<const char *> &extensions) {
  // The application's own choice stands: its feature structure, if any, decides.
  const VkPhysicalDeviceFaultFeaturesEXT *theirs = nullptr;
  for (auto *s = static_cast<const VkBaseInStructure *>(down.pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT)
      theirs = reinterpret_cast<const VkPhysicalDeviceFaultFeaturesEXT *>(s);
  bool listed = false;
  for (const char *e : extensions) listed = listed || std::strcmp(e, VK_EXT_DEVICE_FAULT_EXTENSION_NAME) == 0;
  if (theirs) {
    enabled_ = listed && theirs->deviceFault;
    return;
  }
  if (!inst.table.GetPhysicalDeviceFeatures2 || !offers_fault_extension(inst, gpu)) return;
  VkPhysicalDeviceFaultFeaturesEXT supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported, {}};
  inst.table.GetPhysicalDeviceFeatures2(gpu, &query);
  if (!supported.deviceFault) return;
  if (!listed) extensions.push_back(VK_EXT_DEVICE_FAULT_EXTENSION_NAME);
  down.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  down.ppEnabledExtensionNames = extensions.data();
  features_.deviceFault = VK_TRUE;
  features_.pNext = const_cast<void *>(down.pNext);
  down.pNext = &features_;
  enabled_ = true;
}

std::string device_fault_json(DeviceState &dev) {
  if (!dev.fault_enabled || !dev.table.GetDeviceFaultInfoEXT) return "null";
  VkDeviceFaultCountsEXT counts{VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT};
  if (dev.table.GetDeviceFaultInfoEXT(dev.device, &counts, nullptr) != VK_SUCCESS) return "null";
  std::vector<VkDeviceFaultAddressInfoEXT> addresses(counts.addressInfoCount);
  std::vector<VkDeviceFaultVendorInfoEXT> vendors(counts.vendorInfoCount);
  VkDeviceFaultInfoEXT info{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT};
  info.pAddressInfos = addresses.empty() ? nullptr : addresses.data();
  info.pVendorInfos = vendors.empty() ? nullptr : vendors.data();
  const VkDeviceSize binary_size = counts.vendorBinarySize; // the vendor's binary dump: its size only
  VkDeviceFaultCountsEXT got = counts;
  got.vendorBinarySize = 0;
  const VkResult r = dev.table.GetDeviceFaultInfoEXT(dev.device, &got, &info);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) return "null";
  std::string o = "{\"description\": " + json_quoted(text(info.description, sizeof info.description)) +
                  ", \"address_infos\": [";
  for (std::uint32_t i = 0; i < got.addressInfoCount && i < addresses.size(); ++i)
    o += std::string(i ? ", " : "") + "{\"type\": \"" + address_type(addresses[i].addressType) +
         "\", \"address\": " + hex(addresses[i].reportedAddress) +
         ", \"precision\": " + std::to_string(addresses[i].addressPrecision) + "}";
  o += "], \"vendor_infos\": [";
  for (std::uint32_t i = 0; i < got.vendorInfoCount && i < vendors.size(); ++i)
    o += std::string(i ? ", " : "") + "{\"description\": " +
         json_quoted(text(vendors[i].description, sizeof vendors[i].description)) +
         ", \"code\": " + std::to_string(vendors[i].vendorFaultCode) +
         ", \"data\": " + std::to_string(vendors[i].vendorFaultData) + "}";
  return o + "], \"vendor_binary_size\": " + std::to_string(binary_size) + "}";
}

} // namespace novem_qd
