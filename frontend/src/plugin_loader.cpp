#include "plugin_loader.hpp"

#include "novem/options.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>

namespace novem {

namespace {

constexpr const char *known_backends[] = {"vulkan", "opengl", "null"};

bool file_exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string directory_of_this_library() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&plugin_search_dirs), &info) || !info.dli_fname) return {};
  char resolved[PATH_MAX];
  std::string path = realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string join(const std::vector<std::string> &items, const char *sep) {
  std::string out;
  for (const auto &item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

bool is_known(const std::string &name) {
  for (const char *k : known_backends)
    if (name == k) return true;
  return false;
}

// dlopen + entry point + ABI check + probe, for a file known to exist.
bool open_plugin(const std::string &label, const std::string &path, LoadedPlugin &out,
                 std::string &error) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = "backend '" + label + "': cannot load " + path + ": " + dlerror();
    return false;
  }
  auto entry = reinterpret_cast<nv_plugin_entry_fn>(dlsym(handle, NV_PLUGIN_ENTRY_NAME));
  if (!entry) {
    dlclose(handle);
    error = "backend '" + label + "': " + path + " is not a Novem plugin (no " NV_PLUGIN_ENTRY_NAME ")";
    return false;
  }
  const nv_plugin *plugin = entry();
  if (!plugin || plugin->abi_version != NV_BACKEND_ABI_VERSION) {
    error = "backend '" + label + "': " + path + " has plugin ABI version " +
            (plugin ? std::to_string(plugin->abi_version) : std::string("(none)")) +
            ", this frontend needs " + std::to_string(NV_BACKEND_ABI_VERSION);
    dlclose(handle);
    return false;
  }
  char message[512] = "";
  if (plugin->probe(&out.adapter, message, sizeof message) != 0) {
    error = "backend '" + label + "' (" + path + ") cannot start: " + message;
    return false; // stays loaded: a plugin's threads or API state may still reference it
  }
  out.plugin = plugin;
  out.path = path;
  return true;
}

bool load_uncached(const std::string &spec, LoadedPlugin &out, std::string &error) {
  if (spec.find('/') != std::string::npos) {
    if (!file_exists(spec)) {
      error = "backend '" + spec + "': no such file";
      return false;
    }
    return open_plugin(spec, spec, out, error);
  }
  std::vector<std::string> dirs = plugin_search_dirs();
  std::string file = "libnovem_" + spec + ".so";
  for (const auto &dir : dirs) {
    std::string path = dir + "/" + file;
    if (file_exists(path)) return open_plugin(spec, path, out, error);
  }
  error = "backend '" + spec + "': " + (is_known(spec) ? "" : "not one of vulkan, opengl, null, and ") +
          "no " + file + " in " + join(dirs, ", ") + " (searched NOVEM_PLUGIN_PATH, beside the " +
          "frontend, the installed plugin directory)";
  return false;
}

} // namespace

std::vector<std::string> plugin_search_dirs() {
  std::vector<std::string> dirs;
  const Options &options = process_options();
  if (const char *env = options.value("NOVEM_PLUGIN_PATH")) {
    std::string list = env;
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      if (end > start) dirs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  // The installed plugin directory is <libdir>/novem/plugins, found relative to the frontend
  // library itself so that an installed tree can be moved.
  std::string beside = directory_of_this_library();
  if (beside.empty()) beside = ".";
  dirs.push_back(beside);
  dirs.push_back(beside + "/" NOVEM_PLUGIN_SUBDIR);
  return dirs;
}

bool load_plugin(const std::string &spec, LoadedPlugin &out, std::string &error) {
  // Probing starts an API, so each spec is resolved once per process (per search path).
  static std::mutex mutex;
  static std::map<std::string, std::pair<LoadedPlugin, std::string>> cache;
  std::string key = spec + '\n' + join(plugin_search_dirs(), ":");
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) {
    LoadedPlugin loaded;
    std::string message;
    load_uncached(spec, loaded, message);
    it = cache.emplace(key, std::make_pair(loaded, message)).first;
  }
  out = it->second.first;
  error = it->second.second;
  return out.plugin != nullptr;
}

bool load_backend(LoadedPlugin &out, std::string &error) {
  const Options &options = process_options();
  const char *env = options.value("NOVEM_BACKEND");
  if (env && *env) return load_plugin(env, out, error);
  std::string vulkan_error, opengl_error;
  if (load_plugin("vulkan", out, vulkan_error)) return true;
  if (load_plugin("opengl", out, opengl_error)) {
    error = "using OpenGL: " + vulkan_error;
    return true;
  }
  error = "no backend could start: " + vulkan_error + "; " + opengl_error;
  return false;
}

} // namespace novem
