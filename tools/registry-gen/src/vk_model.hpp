// The Vulkan command model read from vk.xml: the commands of one core version plus extensions,
// aliases resolved, each classified by dispatch level. The `vk` subcommand writes loader tables
// from it; a layer's interception tables can be written from the same model.
#pragma once

#include <string>
#include <vector>

#include <pugixml.hpp>

namespace regen {

// How a command is reached: vkGetInstanceProcAddr(NULL, ...), vkGetInstanceProcAddr(instance, ...)
// or vkGetDeviceProcAddr(device, ...).
enum class VkLevel { Global, Instance, Device };

const char *level_name(VkLevel level); // "global", "instance", "device"

struct VkCommand {
  std::string name;         // as selected: vkCmdPipelineBarrier2, or an alias like ...2KHR
  pugi::xml_node prototype; // the <command> with <proto> and <param>s (an alias's target)
  VkLevel level = VkLevel::Device;
  std::string group;   // the feature or extension that selected it first
  std::string protect; // the platform macro it needs (VK_USE_PLATFORM_...), or empty
  // Other selected names of the same command (alias <-> target), in selection order: where the
  // driver answers NULL for `name`, one of these may still give the entry point.
  std::vector<std::string> aliases;

  std::string member() const; // the name without its "vk" prefix: CmdDraw
};

struct VkRequest {
  std::string api = "vulkan";
  int major = 1, minor = 0;            // features VK_VERSION_1_0 .. major_minor
  std::vector<std::string> extensions; // each must be supported by the api
};

struct VkModel {
  std::string header_version; // VK_HEADER_VERSION of the registry
  std::vector<std::string> groups;  // the features, then the extensions, applied in order
  std::vector<VkCommand> commands;  // in selection order, each name once

  size_t count(VkLevel level) const;
};

// Reads the selection out of the <registry>. Fails with one line in `error`.
bool build_vk_model(pugi::xml_node registry, const VkRequest &request, VkModel &model, std::string &error);

} // namespace regen
