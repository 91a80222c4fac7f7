// The plugin loader: search order, and one clear line for every way loading can fail.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "plugin_loader.hpp"

namespace {

struct Env {
  Env(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~Env() {
    if (had_) setenv(name_, old_.c_str(), 1);
    else unsetenv(name_);
  }
  const char *name_;
  std::string old_;
  bool had_ = false;
};

const std::string kLibDir = NOVEM_BUILD_DIR "/lib";
const std::string kBrokenDir = NOVEM_BROKEN_PLUGIN_DIR;

} // namespace

TEST_CASE("NOVEM_PLUGIN_PATH comes first in the search order", "[loader]") {
  Env path("NOVEM_PLUGIN_PATH", "/first:/second");
  auto dirs = novem::plugin_search_dirs();
  REQUIRE(dirs.size() >= 3);
  CHECK(dirs[0] == "/first");
  CHECK(dirs[1] == "/second");
  CHECK(dirs.back() == dirs[dirs.size() - 2] + "/novem/plugins"); // beside, then the installed layout
}

TEST_CASE("a plugin is found by name and probed", "[loader]") {
  Env path("NOVEM_PLUGIN_PATH", kLibDir.c_str());
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE(novem::load_plugin("null", plugin, error));
  CHECK(error.empty());
  CHECK(std::string(plugin.plugin->name) == "null");
  CHECK(plugin.path == kLibDir + "/libnovem_null.so");
  CHECK(std::string(plugin.adapter.device_name) == "Novem null device");
}

TEST_CASE("a plugin is found by path", "[loader]") {
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE(novem::load_plugin(kLibDir + "/libnovem_null.so", plugin, error));
  CHECK(std::string(plugin.plugin->name) == "null");
}

TEST_CASE("an unknown name is one line naming every directory searched", "[loader]") {
  Env path("NOVEM_PLUGIN_PATH", "/nowhere/a");
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE_FALSE(novem::load_plugin("nonsense", plugin, error));
  CHECK(plugin.plugin == nullptr);
  CHECK(error.find('\n') == std::string::npos);
  CHECK(error.find("'nonsense'") != std::string::npos);
  CHECK(error.find("not one of vulkan, opengl, null") != std::string::npos);
  CHECK(error.find("libnovem_nonsense.so") != std::string::npos);
  CHECK(error.find("/nowhere/a") != std::string::npos);
  CHECK(error.find("/novem/plugins") != std::string::npos);
}

TEST_CASE("a known name whose file is missing says where it looked", "[loader]") {
  Env path("NOVEM_PLUGIN_PATH", "/nowhere/b");
  novem::LoadedPlugin plugin;
  std::string error;
  // Beside this test executable there are no plugins.
  REQUIRE_FALSE(novem::load_plugin("vulkan", plugin, error));
  CHECK(error.rfind("backend 'vulkan': no libnovem_vulkan.so in /nowhere/b, ", 0) == 0);
  CHECK(error.find("not one of") == std::string::npos);
}

TEST_CASE("a missing file given by path", "[loader]") {
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE_FALSE(novem::load_plugin("/no/such/plugin.so", plugin, error));
  CHECK(error == "backend '/no/such/plugin.so': no such file");
}

TEST_CASE("a library without the entry point is refused", "[loader]") {
  novem::LoadedPlugin plugin;
  std::string error;
  std::string path = kBrokenDir + "/libnovem_test_no_entry.so";
  REQUIRE_FALSE(novem::load_plugin(path, plugin, error));
  CHECK(error == "backend '" + path + "': " + path + " is not a Novem plugin (no novem_plugin_entry)");
}

TEST_CASE("a plugin built for another ABI version is refused", "[loader]") {
  novem::LoadedPlugin plugin;
  std::string error;
  std::string path = kBrokenDir + "/libnovem_test_wrong_abi.so";
  REQUIRE_FALSE(novem::load_plugin(path, plugin, error));
  CHECK(error == "backend '" + path + "': " + path + " has plugin ABI version " +
                     std::to_string(NV_BACKEND_ABI_VERSION + 998) + ", this frontend needs " +
                     std::to_string(NV_BACKEND_ABI_VERSION));
}

// [drivers]: it starts the real OpenGL driver, which the sanitizer job runs without leak checks
// (Mesa's swrast_dri.so keeps allocations in its statics and drops them when it is unloaded).
TEST_CASE("the default falls back to OpenGL and says why in one line", "[loader][drivers]") {
  // Another search path than the other cases: the loader caches what it found per path.
  const std::string dirs = kLibDir + ":" + kBrokenDir + "/no-such-dir";
  Env path("NOVEM_PLUGIN_PATH", dirs.c_str());
  Env backend("NOVEM_BACKEND", nullptr);
  Env no_vulkan_driver("VK_ICD_FILENAMES", "/nonexistent/no_icd.json");
  Env no_vulkan_driver_files("VK_DRIVER_FILES", "/nonexistent/no_icd.json");
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE(novem::load_backend(plugin, error));
  CHECK(std::string(plugin.plugin->name) == "opengl");
  CHECK(error.rfind("using OpenGL: ", 0) == 0);
  CHECK(error.find("vulkan") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("NOVEM_BACKEND chooses the plugin", "[loader]") {
  Env path("NOVEM_PLUGIN_PATH", kLibDir.c_str());
  Env backend("NOVEM_BACKEND", "null");
  novem::LoadedPlugin plugin;
  std::string error;
  REQUIRE(novem::load_backend(plugin, error));
  CHECK(std::string(plugin.plugin->name) == "null");
}
