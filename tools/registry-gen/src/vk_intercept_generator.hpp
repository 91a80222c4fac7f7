// The "vk-intercepts" subcommand: a Vulkan layer's table of intercepted entry points, generated
// from a list of command names (the layer's declarative input) and vk.xml. For each name it
// declares the hook with the registry's prototype and lists (name, dispatch level, hook) in one
// table sorted by name, with a lookup; the layer only defines the hooks.
#pragma once

namespace regen {

int run_vk_intercepts(int argc, char **argv);

inline constexpr const char *vk_intercepts_usage =
    "vk-intercepts: a layer's intercepted entry points (hook declarations + lookup table) from vk.xml\n"
    "  --registry PATH       vk.xml\n"
    "  --api NAME            the registry api to select (default vulkan)\n"
    "  --version X.Y         highest core version the names may come from, e.g. 1.3\n"
    "  --extension NAME      an extension whose commands may be named (repeatable; A,B also works)\n"
    "  --commands PATH       the names to intercept: one vkName per line, '#' starts a comment\n"
    "  --namespace NAME      C++ namespace of the table (e.g. novem_qd); hooks go in NAME::hook\n"
    "  --out-header PATH     hook declarations, the Intercept type, the lookup's declaration\n"
    "  --out-source PATH     the table and the lookup (C++)\n"
    "  --dispatch-header N   the header the output includes for the Vulkan types (default\n"
    "                        <vulkan/vulkan.h> with VK_NO_PROTOTYPES)\n";

} // namespace regen
