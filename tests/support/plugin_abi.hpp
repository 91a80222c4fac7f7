// What the tests that drive a plugin through its ABI share (tests/plugins, the creation-failure
// contract test): loading a built plugin and probing it, the contract shaders' SPIR-V, and
// environment variables set for one scope (the plugins read their switches at create_device).
// A test including it defines NOVEM_BUILD_DIR and CONTRACT_SHADER_DIR.
#pragma once

#include <dlfcn.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "novem/backend.h"

namespace novem::test {

// The plugin `name` ("vulkan", "opengl") of the build, probed; nullptr with `skip` saying why when
// it is not built or cannot start here. `info`, when given, receives what the probe described.
inline const nv_plugin *load_plugin(const std::string &name, std::string &skip, nv_adapter_info *info = nullptr) {
  const char *dir = std::getenv("NOVEM_BUILD_DIR");
  const std::string path = std::string(dir && *dir ? dir : NOVEM_BUILD_DIR) + "/lib/libnovem_" + name + ".so";
  if (!std::ifstream(path).good()) {
    skip = path + " is not built";
    return nullptr;
  }
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(lib != nullptr);
  auto entry = reinterpret_cast<nv_plugin_entry_fn>(dlsym(lib, NV_PLUGIN_ENTRY_NAME));
  REQUIRE(entry != nullptr);
  const nv_plugin *api = entry();
  REQUIRE(api->abi_version == NV_BACKEND_ABI_VERSION);
  nv_adapter_info probed{};
  char error[256] = {};
  if (api->probe(&probed, error, sizeof error) != 0) {
    skip = name + " probe failed: " + error;
    return nullptr;
  }
  if (info) *info = probed;
  return api;
}

// The SPIR-V words of a contract shader (CONTRACT_SHADER_DIR/<name>.spv).
inline std::vector<uint32_t> load_spirv(const std::string &name) {
  std::ifstream f(std::string(CONTRACT_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  REQUIRE(f.good());
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Sets (or unsets, with nullptr) environment variables until the end of its scope.
struct ScopedEnv {
  std::vector<std::pair<std::string, std::pair<bool, std::string>>> saved;
  void set(const char *name, const char *value) {
    const char *old = std::getenv(name);
    saved.push_back({name, {old != nullptr, old ? old : ""}});
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->second.first) setenv(it->first.c_str(), it->second.second.c_str(), 1);
      else unsetenv(it->first.c_str());
    }
  }
};

} // namespace novem::test
