// A plugin's switches and where its on-disk caches live, shared by every plugin.
//
// A switch is read from the environment first, then from the config file: the file named by
// NOVEM_CONFIG, else $XDG_CONFIG_HOME/novem/novem.conf, else ~/.config/novem/novem.conf. The file
// holds one `NAME=value` per line (spaces around either allowed); `#` starts a comment. Values
// "0", "off", "false" and "no" turn a switch off; anything else turns it on; unset keeps the
// default. The on-disk caches go to NOVEM_CACHE_DIR, else $XDG_CACHE_HOME/novem, else
// ~/.cache/novem; NOVEM_CACHE_DIR set to the empty string turns the disk caches off.
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

namespace novem {

class Options {
public:
  // Reads the config file once (a missing file is no error).
  Options() {
    std::ifstream f(config_path());
    std::string line;
    while (std::getline(f, line)) {
      line = line.substr(0, line.find('#'));
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string name = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
      if (!name.empty()) file_[name] = value;
    }
  }

  // The value of a setting: environment, then file; nullptr when neither has it.
  const char *value(const char *name) const {
    if (const char *v = std::getenv(name)) return v;
    auto it = file_.find(name);
    return it == file_.end() ? nullptr : it->second.c_str();
  }

  bool flag(const char *name, bool fallback) const {
    const char *v = value(name);
    if (!v || !*v) return fallback;
    return !(std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0 ||
             std::strcmp(v, "no") == 0);
  }

  // The folder for on-disk caches (not created here); empty: no disk cache.
  std::string cache_dir() const {
    if (const char *v = value("NOVEM_CACHE_DIR")) return v;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/novem";
    if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/novem";
    return {};
  }

  static std::string config_path() {
    if (const char *v = std::getenv("NOVEM_CONFIG")) return v;
    if (const char *x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/novem/novem.conf";
    if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/novem/novem.conf";
    return {};
  }

private:
  static std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }
  std::map<std::string, std::string> file_;
};

} // namespace novem
