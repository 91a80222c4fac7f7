// Every setting Novem reads, with the form of its value: one table, so that the config file's
// unknown keys and bad values are found in one place (Options::problems). A setting is read from
// the environment first, then from the config file (options.hpp).
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace novem {

enum class SettingKind {
  flag,   // 0/off/false/no or 1/on/true/yes
  number, // a whole number (decimal, or 0x hex) from `min` to `max`
  text,   // anything (paths, names)
  own,    // checked where it is read, which says what it does with a bad value
  frames, // a range of frames A-B, counted from 1 (frame_range below)
  choice, // one of the words of `choices`
  words,  // one or more of the words of `choices`, comma separated
};

struct KnownSetting {
  const char *name;
  SettingKind kind;
  unsigned long long min = 0, max = 0;
  const char *choices = nullptr; // choice and words: the words, '|' between them
};

inline constexpr KnownSetting kKnownSettings[] = {
    // The library.
    {"NOVEM_BACKEND", SettingKind::own},      // vulkan|opengl|null|a path (the plugin loader)
    {"NOVEM_PLUGIN_PATH", SettingKind::text},
    {"NOVEM_LOG", SettingKind::own},          // the logger (novem/log.hpp)
    {"NOVEM_LOG_FILE", SettingKind::text},
    {"NOVEM_RING_SIZE", SettingKind::own},    // the command stream clamps it to its bounds
    {"NOVEM_FRAME_RATE", SettingKind::number, 0, 1000},      // frames per second at most; 0: no limit
    {"NOVEM_PRESENT_INTERVAL", SettingKind::number, 0, 4},   // overrides PresentationInterval
    {"NOVEM_VENDOR_ID", SettingKind::number, 0, 0xffff},     // GetAdapterIdentifier's VendorId
    {"NOVEM_DEVICE_ID", SettingKind::number, 0, 0xffff},     // and DeviceId
    {"NOVEM_MAX_FRAME_LATENCY", SettingKind::number, 1, 16}, // frames in flight, whatever the program sets
    {"NOVEM_CACHE_DIR", SettingKind::text},
    {"NOVEM_CAPTURE", SettingKind::text},            // a capture file of the first device's commands (docs/capture.md)
    {"NOVEM_CAPTURE_FRAMES", SettingKind::frames},   // the frames it is for; unset: every frame
    // The HUD the frontend draws before each Present (frontend/src/hud.hpp).
    {"NOVEM_HUD", SettingKind::words, 0, 0, "fps|frametimes|draws|pipelines|memory|backend|version|full"},
    {"NOVEM_HUD_SCALE", SettingKind::number, 1, 8},           // pixels per font pixel
    {"NOVEM_HUD_POSITION", SettingKind::choice, 0, 0, "top-left|top-right|bottom-left|bottom-right"},
    // The Vulkan plugin's techniques and checks (plugins/vulkan/README.md).
    {"NOVEM_VK_VALIDATION", SettingKind::flag},
    {"NOVEM_VK_VALIDATION_NOABORT", SettingKind::text},
    {"NOVEM_VK_BATCHING", SettingKind::flag},
    {"NOVEM_VK_DIRTY", SettingKind::flag},
    {"NOVEM_VK_PIPELINE_CACHE", SettingKind::flag},
    {"NOVEM_VK_BARRIERS", SettingKind::flag},
    {"NOVEM_VK_SUBALLOC", SettingKind::flag},
    {"NOVEM_VK_DYNAMIC_BLEND", SettingKind::flag},
    {"NOVEM_VK_SLABS", SettingKind::flag},
    {"NOVEM_VK_MULTI_DRAW", SettingKind::flag},
    {"NOVEM_VK_DRIVER_HEAP", SettingKind::flag},          // its quirks (vk_quirks.hpp)
    {"NOVEM_VK_DEPTH_BIAS_UNITS", SettingKind::flag},
    {"NOVEM_VK_NARROW_TEXTURE_SETS", SettingKind::flag},
    {"NOVEM_VK_MAX_ALLOCATION", SettingKind::number, 1, ~0ull},
    // The OpenGL plugin's (plugins/opengl/README.md).
    {"NOVEM_GL_DEBUG", SettingKind::flag},
    {"NOVEM_GL_CHECK_ERRORS", SettingKind::flag},
    {"NOVEM_GL_DUMP_GLSL", SettingKind::flag},
    {"NOVEM_GL_BATCHING", SettingKind::flag},
    {"NOVEM_GL_STATE_CACHE", SettingKind::flag},
    {"NOVEM_GL_PIPELINE_CACHE", SettingKind::flag},
    {"NOVEM_GL_BARRIERS", SettingKind::flag},
    {"NOVEM_GL_SUBALLOC", SettingKind::flag},
    {"NOVEM_GL_MULTI_DRAW", SettingKind::flag},
    {"NOVEM_GL_DRIVER_HEAP", SettingKind::flag},          // its quirks (gl_quirks.hpp)
    {"NOVEM_GL_DEPTH_BIAS_UNITS", SettingKind::flag},
};

// The frames from `first` to `last` (both counted from 1): frame N ends with the Nth Present.
struct FrameRange {
  unsigned long long first = 1, last = 0; // last 0: no end
};

// Reads "A-B" (1 <= A <= B) or "A" (that frame alone) into r; false when text is neither.
inline bool frame_range(const char *text, FrameRange &r) {
  auto number = [](const char *&p, unsigned long long &n) {
    if (*p < '0' || *p > '9') return false;
    char *end = nullptr;
    errno = 0;
    n = std::strtoull(p, &end, 10);
    p = end;
    return errno != ERANGE;
  };
  const char *p = text;
  unsigned long long a = 0, b = 0;
  if (!number(p, a)) return false;
  if (*p == '-') {
    ++p;
    if (!number(p, b)) return false;
  } else {
    b = a;
  }
  if (*p || a < 1 || b < a) return false;
  r = {a, b};
  return true;
}

// Whether `word` (its first `length` characters) is one of the '|'-separated `choices`.
inline bool is_choice(const char *choices, const char *word, size_t length) {
  for (const char *c = choices; *c;) {
    const char *end = std::strchr(c, '|');
    const size_t n = end ? size_t(end - c) : std::strlen(c);
    if (n == length && std::strncmp(c, word, n) == 0) return true;
    c += n + (end ? 1 : 0);
  }
  return false;
}

// The '|'-separated `choices` as prose: "a, b or c".
inline std::string choices_text(const char *choices) {
  const std::string all(choices);
  const size_t last = all.rfind('|');
  std::string out;
  for (size_t i = 0; i < all.size(); ++i)
    out += all[i] != '|' ? std::string(1, all[i]) : i == last ? std::string(" or ") : std::string(", ");
  return out;
}

inline const KnownSetting *known_setting(const std::string &name) {
  for (const KnownSetting &s : kKnownSettings)
    if (name == s.name) return &s;
  return nullptr;
}

// Whether `value` has the setting's form; `expected` says what the form is when it has not.
inline bool valid_setting(const KnownSetting &s, const char *value, std::string &expected) {
  switch (s.kind) {
  case SettingKind::flag:
    for (const char *word : {"0", "off", "false", "no", "1", "on", "true", "yes"})
      if (std::strcmp(value, word) == 0) return true;
    expected = "0, off, false, no, 1, on, true or yes";
    return false;
  case SettingKind::number: {
    char *end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(value, &end, 0);
    if (*value && !std::strchr(value, '-') && end && !*end && errno != ERANGE && n >= s.min && n <= s.max) return true;
    expected = "a whole number from " + std::to_string(s.min) + " to " + std::to_string(s.max);
    return false;
  }
  case SettingKind::frames: {
    FrameRange r;
    if (frame_range(value, r)) return true;
    expected = "a range of frames A-B, from 1, with A no larger than B";
    return false;
  }
  case SettingKind::choice:
    if (is_choice(s.choices, value, std::strlen(value))) return true;
    expected = "one of " + choices_text(s.choices);
    return false;
  case SettingKind::words: {
    bool ok = *value != 0;
    for (const char *w = value; ok;) {
      const char *end = std::strchr(w, ',');
      const size_t n = end ? size_t(end - w) : std::strlen(w);
      ok = is_choice(s.choices, w, n);
      if (!end) break;
      w = end + 1;
    }
    if (ok) return true;
    expected = "a comma-separated list of " + choices_text(s.choices);
    return false;
  }
  case SettingKind::text:
  case SettingKind::own:
    return true;
  }
  return true;
}

} // namespace novem
