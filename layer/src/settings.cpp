// Reading the layer's settings (settings.hpp): the environment, vkconfig's layer-settings file and
// VK_EXT_layer_settings, each value checked once.
#include "settings.hpp"

#include <vulkan/vk_ext_layer_settings.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

namespace novem_qd {

namespace {

constexpr const char *kPrefix = "VK_LAYER_NOVEM_queue_diagnostics";
constexpr const char *kLayerName = "VK_LAYER_NOVEM_queue_diagnostics";
constexpr const char *kFilePrefix = "novem_queue_diagnostics."; // vk_layer_settings.txt keys
constexpr const char *kEnvPrefix = "NOVEM_QUEUE_DIAGNOSTICS_";

std::string value_text(const VkLayerSettingEXT &s, std::uint32_t i) {
  switch (s.type) {
  case VK_LAYER_SETTING_TYPE_BOOL32_EXT: return static_cast<const VkBool32 *>(s.pValues)[i] ? "1" : "0";
  case VK_LAYER_SETTING_TYPE_INT32_EXT: return std::to_string(static_cast<const std::int32_t *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_INT64_EXT: return std::to_string(static_cast<const std::int64_t *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_UINT32_EXT: return std::to_string(static_cast<const std::uint32_t *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_UINT64_EXT: return std::to_string(static_cast<const std::uint64_t *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_FLOAT32_EXT: return std::to_string(static_cast<const float *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_FLOAT64_EXT: return std::to_string(static_cast<const double *>(s.pValues)[i]);
  case VK_LAYER_SETTING_TYPE_STRING_EXT: {
    const char *t = static_cast<const char *const *>(s.pValues)[i];
    return t ? t : "";
  }
  default: return {}; // refused before (api_settings)
  }
}

std::string trim(const std::string &s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The layer-settings file the Khronos layers read: VK_LAYER_SETTINGS_PATH (the file, or a directory
// holding vk_layer_settings.txt), else vk_layer_settings.txt in the current directory, else the one
// vkconfig writes ($XDG_DATA_HOME, or ~/.local/share, /vulkan/settings.d/).
std::filesystem::path settings_file() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char *p = std::getenv("VK_LAYER_SETTINGS_PATH"); p && *p) {
    const fs::path path(p);
    return fs::is_directory(path, ec) ? path / "vk_layer_settings.txt" : path;
  }
  if (fs::exists("vk_layer_settings.txt", ec)) return "vk_layer_settings.txt";
  if (const char *x = std::getenv("XDG_DATA_HOME"); x && *x) return fs::path(x) / "vulkan/settings.d/vk_layer_settings.txt";
  if (const char *h = std::getenv("HOME"); h && *h) return fs::path(h) / ".local/share/vulkan/settings.d/vk_layer_settings.txt";
  return {};
}

// This layer's entries of the settings file, by key (lower case, as written).
std::map<std::string, std::string> file_settings() {
  std::map<std::string, std::string> out;
  const std::filesystem::path path = settings_file();
  if (path.empty()) return out;
  std::ifstream in(path);
  std::string line;
  const std::size_t n = std::strlen(kFilePrefix);
  while (std::getline(in, line)) {
    line = trim(line.substr(0, line.find('#')));
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(line.substr(0, eq));
    if (key.compare(0, n, kFilePrefix) == 0) out[key.substr(n)] = trim(line.substr(eq + 1));
  }
  return out;
}

// Looks each key up in the three sources; remembers where a value came from, for the messages.
class Sources {
public:
  explicit Sources(const std::vector<ApiSetting> &api) : file_(file_settings()) {
    for (const ApiSetting &s : api)
      if (!s.values.empty() && !api_.count(s.name)) api_[s.name] = s.values.front(); // the first one wins
  }
  // The value of `key` (lower case) and a name for its source, or nothing.
  std::optional<std::pair<std::string, std::string>> find(const std::string &key) const {
    std::string env = kEnvPrefix;
    for (char c : key) env += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    if (const char *v = std::getenv(env.c_str())) return std::pair{std::string(v), env};
    if (auto it = file_.find(key); it != file_.end()) return std::pair{it->second, kFilePrefix + key};
    if (auto it = api_.find(key); it != api_.end()) return std::pair{it->second, "VK_EXT_layer_settings " + key};
    return std::nullopt;
  }

private:
  std::map<std::string, std::string> file_, api_;
};

// A whole decimal number from 0 to `max` (no sign, no spaces, no suffix), or `fallback` with one line.
std::uint64_t number(const Sources &src, const char *key, std::uint64_t fallback, std::uint64_t max,
                     const char *unit) {
  const auto v = src.find(key);
  if (!v || v->first.empty()) return fallback;
  const std::string &text = v->first;
  bool digits = text.size() <= 20;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  errno = 0;
  const unsigned long long x = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || x > max) {
    std::fprintf(stderr, "%s: %s=%s is not a whole number of %s from 0 to %llu; using %llu\n", kPrefix,
                 v->second.c_str(), text.c_str(), unit, static_cast<unsigned long long>(max),
                 static_cast<unsigned long long>(fallback));
    return fallback;
  }
  return x;
}

// A switch: 1, true or on; 0, false or off (any case). Anything else is one line, and `fallback` stays.
bool flag(const Sources &src, const char *key, bool fallback) {
  const auto v = src.find(key);
  if (!v || v->first.empty()) return fallback;
  std::string t = v->first;
  for (char &c : t) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (t == "1" || t == "true" || t == "on") return true;
  if (t == "0" || t == "false" || t == "off") return false;
  std::fprintf(stderr, "%s: %s=%s is not 0, 1, true, false, on or off; using %s\n", kPrefix, v->second.c_str(),
               v->first.c_str(), fallback ? "1" : "0");
  return fallback;
}

std::string text(const Sources &src, const char *key, std::string fallback) {
  const auto v = src.find(key);
  return v && !v->first.empty() ? v->first : fallback;
}

// An output the layer will write: its directory must exist and be writable, and the path must not be
// a directory. Checked at start-up so that a mistake is seen before the run, not at its end.
void check_output(const char *what, const std::string &path) {
  namespace fs = std::filesystem;
  if (path.empty()) return;
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const char *reason = nullptr;
  if (fs::is_directory(p, ec)) reason = std::strerror(EISDIR);
  else if (access(dir.c_str(), W_OK | X_OK) != 0) reason = std::strerror(errno);
  if (reason) std::fprintf(stderr, "%s: cannot write the %s to %s: %s\n", kPrefix, what, path.c_str(), reason);
}

} // namespace

std::vector<ApiSetting> api_settings(const VkInstanceCreateInfo *ci) {
  std::vector<ApiSetting> out;
  for (auto *s = ci ? static_cast<const VkBaseInStructure *>(ci->pNext) : nullptr; s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT) continue;
    const auto *info = reinterpret_cast<const VkLayerSettingsCreateInfoEXT *>(s);
    for (std::uint32_t i = 0; info->pSettings && i < info->settingCount; ++i) {
      const VkLayerSettingEXT &setting = info->pSettings[i];
      if (!setting.pLayerName || !setting.pSettingName || std::strcmp(setting.pLayerName, kLayerName) != 0) continue;
      if (setting.type > VK_LAYER_SETTING_TYPE_STRING_EXT || (setting.valueCount && !setting.pValues)) {
        std::fprintf(stderr, "%s: VK_EXT_layer_settings %s: unknown type %u; ignored\n", kPrefix,
                     setting.pSettingName, static_cast<unsigned>(setting.type));
        continue;
      }
      ApiSetting a{setting.pSettingName, {}};
      for (std::uint32_t v = 0; v < setting.valueCount; ++v) a.values.push_back(value_text(setting, v));
      out.push_back(std::move(a));
    }
  }
  return out;
}

OwnSettingsUnlinked::OwnSettingsUnlinked(const VkInstanceCreateInfo *ci) {
  auto *before = reinterpret_cast<VkBaseOutStructure *>(const_cast<VkInstanceCreateInfo *>(ci));
  while (before && before->pNext) {
    VkBaseOutStructure *s = before->pNext;
    bool own = s->sType == VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT;
    const auto *info = reinterpret_cast<const VkLayerSettingsCreateInfoEXT *>(s);
    for (std::uint32_t i = 0; own && i < info->settingCount; ++i)
      own = info->pSettings && info->pSettings[i].pLayerName &&
            std::strcmp(info->pSettings[i].pLayerName, kLayerName) == 0;
    if (own) {
      links_.push_back({before, s});
      before->pNext = s->pNext;
    } else {
      before = s;
    }
  }
}

OwnSettingsUnlinked::~OwnSettingsUnlinked() {
  for (auto it = links_.rbegin(); it != links_.rend(); ++it) it->before->pNext = it->removed;
}

Settings read_settings(const std::vector<ApiSetting> &api) {
  const Sources src(api);
  const std::string pid = std::to_string(static_cast<long>(getpid()));
  Settings s;
  s.report_path = text(src, "report", "novem-queue-diagnostics-" + pid + ".json");
  s.dump_path = text(src, "dump", "novem-queue-dump-" + pid + ".json");
  s.trace_path = text(src, "trace", "");
  s.trigger_path = text(src, "trigger", "");
  s.watchdog_ms = number(src, "watchdog_ms", 0, kMaxMilliseconds, "milliseconds");
  s.interval_ms = number(src, "interval_ms", 0, kMaxMilliseconds, "milliseconds");
  s.max_events = number(src, "events", s.max_events, kMaxEvents, "events");
  s.timestamps = flag(src, "timestamps", s.timestamps);
  s.timestamp_every = number(src, "timestamp_every", s.timestamp_every, kMaxTimestampEvery, "submissions");
  s.latency = flag(src, "latency", s.latency);
  s.thread_safety = flag(src, "thread_safety", s.thread_safety);
  // The watchdog is completion tracking; the timestamps are read when a submission completes.
  if (!s.latency && s.watchdog_ms) {
    std::fprintf(stderr, "%s: watchdog_ms needs latency tracking; latency stays on\n", kPrefix);
    s.latency = true;
  }
  if (!s.latency) s.timestamps = false;
  const std::string log = text(src, "log", "warn");
  if (log == "info") s.log_info = true;
  else if (log != "warn" && log != "error")
    std::fprintf(stderr, "%s: log=%s is not error, warn or info; using warn\n", kPrefix, log.c_str());

  check_output("report", s.report_path);
  check_output("dump", s.dump_path); // the trace is checked by opening it (open_trace)
  if (!s.trigger_path.empty()) check_output("trigger", s.trigger_path);
  return s;
}

void log_settings(const Settings &s) {
  if (s.log_info)
    std::fprintf(stderr,
                 "%s: report %s, dump %s, trace %s, trigger %s, watchdog_ms %llu, interval_ms %llu, events %llu, "
                 "timestamps %d, timestamp_every %s, latency %d, thread_safety %d\n",
                 kPrefix, s.report_path.c_str(), s.dump_path.c_str(), s.trace_path.empty() ? "off" : s.trace_path.c_str(),
                 s.trigger_path.empty() ? "off" : s.trigger_path.c_str(), static_cast<unsigned long long>(s.watchdog_ms),
                 static_cast<unsigned long long>(s.interval_ms), static_cast<unsigned long long>(s.max_events),
                 s.timestamps ? 1 : 0,
                 s.timestamp_every ? std::to_string(s.timestamp_every).c_str() : "auto (1, on a CPU device 64 and 10 ms apart)",
                 s.latency ? 1 : 0, s.thread_safety ? 1 : 0);
}

} // namespace novem_qd
