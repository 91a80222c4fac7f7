// Novem's settings, shared by the frontend and every plugin.
//
// A setting (known_settings.hpp lists them all) is read from the environment first, then from the
// config file: the file NOVEM_CONFIG names, else novem.conf beside the executable, else
// $XDG_CONFIG_HOME/novem/novem.conf, else ~/.config/novem/novem.conf. The file holds one
// `NAME = value` per line; `#` starts a comment. A line `[program]` opens the section of the
// executable so named (its file name, as dxvk.conf's sections): the lines after it apply only to
// that program, and over the lines outside any section. Flags: "0", "off", "false" and "no" turn a
// switch off, anything else on; unset keeps the default. The on-disk caches go to NOVEM_CACHE_DIR,
// else $XDG_CACHE_HOME/novem, else ~/.cache/novem; NOVEM_CACHE_DIR set to the empty string turns
// the disk caches off. problems() lists the file's unknown keys and the bad values of known ones
// (the frontend writes them once per process).
#pragma once

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "novem/known_settings.hpp"

namespace novem {

class Options {
public:
  // Reads the config file once (a missing file is no error) for this executable.
  Options() : Options(config_path(), program_name()) {}

  // The file `path` as the program `program` reads it.
  Options(const std::string &path, const std::string &program) : path_(path) {
    std::ifstream f(path);
    std::string line;
    bool in_section = false, ours = false;
    for (int number = 1; std::getline(f, line); ++number) {
      line = trim(line.substr(0, line.find('#')));
      if (line.empty()) continue;
      if (line.front() == '[' && line.back() == ']') {
        in_section = true;
        ours = trim(line.substr(1, line.size() - 2)) == program;
        continue;
      }
      const size_t eq = line.find('=');
      const std::string name = eq == std::string::npos ? std::string() : trim(line.substr(0, eq));
      if (name.empty()) {
        problems_.push_back(where(number) + "'" + line + "' is not NAME = value");
        continue;
      }
      if (!known_setting(name)) problems_.push_back(where(number) + "unknown setting " + name);
      if (in_section && !ours) continue;
      Entry &e = file_[name];
      if (in_section || !e.from_section) e = {trim(line.substr(eq + 1)), number, in_section};
    }
  }

  // The value of a setting: environment, then file; nullptr when neither has it.
  const char *value(const char *name) const {
    if (const char *v = std::getenv(name)) return v;
    auto it = file_.find(name);
    return it == file_.end() ? nullptr : it->second.value.c_str();
  }

  bool flag(const char *name, bool fallback) const {
    const char *v = value(name);
    if (!v || !*v) return fallback;
    return !(std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0 ||
             std::strcmp(v, "no") == 0);
  }

  // A whole number setting, checked as known_settings.hpp says; `fallback` when unset or bad.
  unsigned long long number(const char *name, unsigned long long fallback) const {
    const char *v = value(name);
    const KnownSetting *s = known_setting(name);
    std::string expected;
    if (!v || !*v || !s || !valid_setting(*s, v, expected)) return fallback;
    return std::strtoull(v, nullptr, 0);
  }

  // A setting's value when it has the form known_settings.hpp gives it; nullptr when unset, empty
  // or not of that form (problems() says so).
  const char *checked(const char *name) const {
    const char *v = value(name);
    const KnownSetting *s = known_setting(name);
    std::string expected;
    return v && *v && s && valid_setting(*s, v, expected) ? v : nullptr;
  }

  // The folder for on-disk caches (not created here); empty: no disk cache.
  std::string cache_dir() const {
    if (const char *v = value("NOVEM_CACHE_DIR")) return v;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/novem";
    if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/novem";
    return {};
  }

  // One line each: the file's lines that are not settings, its unknown keys, and every known
  // setting whose value (environment or file) does not have the form it takes.
  std::vector<std::string> problems() const {
    std::vector<std::string> out = problems_;
    for (const KnownSetting &s : kKnownSettings) {
      const char *v = value(s.name);
      std::string expected;
      if (v && *v && !valid_setting(s, v, expected)) {
        auto it = file_.find(s.name);
        const bool from_file = !std::getenv(s.name) && it != file_.end();
        out.push_back((from_file ? where(it->second.line) : std::string()) + s.name + "=" + v + " is not " + expected +
                      "; ignored");
      }
    }
    return out;
  }

  static std::string config_path() {
    if (const char *v = std::getenv("NOVEM_CONFIG")) return v;
    const std::string beside = executable_dir() + "/novem.conf";
    if (std::ifstream(beside)) return beside;
    if (const char *x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/novem/novem.conf";
    if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/novem/novem.conf";
    return {};
  }

  // The running executable's file name, which names its section.
  static std::string program_name() {
    const std::string path = executable_path();
    return path.substr(path.rfind('/') + 1);
  }

private:
  struct Entry {
    std::string value;
    int line = 0;
    bool from_section = false;
  };

  static std::string executable_path() {
    char buffer[4096];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    return n > 0 ? std::string(buffer, size_t(n)) : std::string();
  }
  static std::string executable_dir() {
    const std::string path = executable_path();
    return path.substr(0, path.rfind('/'));
  }
  std::string where(int line) const { return path_ + ":" + std::to_string(line) + ": "; }
  static std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }

  std::string path_;
  std::map<std::string, Entry> file_;
  std::vector<std::string> problems_;
};

// This module's settings: the config file read once, at the first use, and never destroyed (a
// setting may be read from any module's destructor); the environment is read at each call. The
// plugins make an Options per device instead, so that a config file changed between devices counts.
inline const Options &process_options() {
  static const Options *options = new Options;
  return *options;
}

} // namespace novem
