// Driver habits a plugin works around. Each plugin keeps one table of them (vk_quirks.cpp,
// gl_quirks.cpp): per row the driver that has the habit, what the plugin does about it, and the
// flag setting (on by default) that turns the workaround off, to measure it or to see the habit.
// Nothing outside a plugin's table decides by driver name: code asks `Quirks::has`.
#pragma once

#include <bitset>
#include <cstddef>
#include <string>

#include "novem/log.hpp"
#include "novem/options.hpp"

namespace novem {

// One row of a plugin's table; `Driver` is what the plugin knows of the driver running.
template <class Driver> struct QuirkRow {
  const char *name;                    // as the info log names it
  const char *setting;                 // a flag in known_settings.hpp; 0 turns the workaround off
  const char *driver;                  // the driver it is for, in words
  bool (*matches)(const Driver &);     // whether the running driver is that one
};

// The quirks of a table that apply: the running driver has the habit and the setting leaves the
// workaround on. `Id` is the plugin's enum of rows (the table's order).
template <class Id, std::size_t N> class Quirks {
public:
  // The rows whose setting leaves the workaround on: read once, with the plugin's other settings.
  using Switches = std::bitset<N>;
  template <class Driver> static Switches switches(const QuirkRow<Driver> (&table)[N], const Options &settings) {
    Switches on;
    for (std::size_t i = 0; i < N; ++i) on.set(i, settings.flag(table[i].setting, true));
    return on;
  }

  Quirks() = default;
  template <class Driver>
  Quirks(const QuirkRow<Driver> (&table)[N], const Driver &driver, Switches switched_on, const char *component) {
    std::string on;
    for (std::size_t i = 0; i < N; ++i) {
      if (!table[i].matches(driver) || !switched_on.test(i)) continue;
      on_.set(i);
      on += on.empty() ? "" : ", ";
      on += std::string(table[i].name) + " (" + table[i].driver + ")";
    }
    if (!on.empty()) process_logger().write(LogLevel::info, component, "driver quirks: %s", on.c_str());
  }
  bool has(Id id) const { return on_.test(static_cast<std::size_t>(id)); }

private:
  std::bitset<N> on_;
};

} // namespace novem
