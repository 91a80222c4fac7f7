// The "vk" subcommand: Vulkan dispatch tables for one core version (plus extensions), read from
// vk.xml. Writes a header (three structs of PFN_vk* pointers: global, instance, device) and a
// source file (their loaders). The types come from <vulkan/vulkan.h>, included with
// VK_NO_PROTOTYPES, so nothing links against libvulkan.
#pragma once

namespace regen {

int run_vk(int argc, char **argv);

inline constexpr const char *vk_usage =
    "vk: Vulkan dispatch tables (global, instance, device) from vk.xml\n"
    "  --registry PATH       vk.xml (e.g. /usr/share/vulkan/registry/vk.xml)\n"
    "  --api NAME            the registry api to select (default vulkan)\n"
    "  --version X.Y         highest core version included, e.g. 1.3\n"
    "  --extension NAME      an extension whose commands are added (repeatable; A,B also works)\n"
    "  --out-header PATH     the header to write\n"
    "  --out-source PATH     the loaders' source (C++) to write\n"
    "  --struct-prefix NAME  the tables are NAMEGlobal, NAMEInstance, NAMEDevice (default NovemVk)\n"
    "  --loader-prefix NAME  the loaders are NAME_global, NAME_instance, NAME_device\n"
    "                        (default novem_vk_load)\n";

} // namespace regen
