// Finds, loads and checks a backend plugin.
//
// NOVEM_BACKEND chooses: "vulkan", "opengl", "null", or a path to a plugin file. Unset means
// Vulkan, falling back to OpenGL when Vulkan cannot start. A name is looked for as
// libnovem_<name>.so in NOVEM_PLUGIN_PATH (colon-separated), then beside libnovem_d3d9.so, then
// in the installed plugin directory, <directory of libnovem_d3d9.so>/novem/plugins. Every failure is one line naming what was searched.
#pragma once

#include <string>
#include <vector>

#include "novem/backend.h"

namespace novem {

struct LoadedPlugin {
  const nv_plugin *plugin = nullptr;
  nv_adapter_info adapter{};
  std::string path;
};

// The directories a plugin name is searched in, in order.
std::vector<std::string> plugin_search_dirs();

// Loads the plugin NOVEM_BACKEND names (or the default chain: Vulkan, else OpenGL) and probes it.
// On failure returns false and sets `error` to one line; when the default chain fell back to
// OpenGL, returns true and sets `error` to the line that says why Vulkan could not start.
// Plugins stay loaded for the life of the process.
bool load_backend(LoadedPlugin &out, std::string &error);

// Loads one plugin: `spec` is a name or a path. Also used by the tests.
bool load_plugin(const std::string &spec, LoadedPlugin &out, std::string &error);

} // namespace novem
