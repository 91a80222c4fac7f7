// novem/quirks.hpp: a plugin's quirks apply where the running driver is the row's, and the row's
// setting turns one off; the plugins' own tables are checked through their scenes.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "novem/quirks.hpp"

namespace {

enum class TestQuirk { first, second, count };

bool is_one(const int &driver) { return driver == 1; }
bool is_any(const int &) { return true; }

const novem::QuirkRow<int> kTable[] = {
    {"first", "NOVEM_VK_DEPTH_BIAS_UNITS", "driver 1", is_one},
    {"second", "NOVEM_VK_NARROW_TEXTURE_SETS", "every driver", is_any},
};
using TestQuirks = novem::Quirks<TestQuirk, 2>;

} // namespace

TEST_CASE("quirks: a row applies to its driver unless its setting turns it off", "[quirks]") {
  struct Case {
    int driver;
    const char *first_setting, *second_setting; // nullptr: unset
    bool first, second;
  };
  const Case cases[] = {
      {1, nullptr, nullptr, true, true},
      {2, nullptr, nullptr, false, true},
      {1, "0", nullptr, false, true},
      {1, "off", "no", false, false},
      {2, "1", "1", false, true}, // a setting cannot turn a quirk on for another driver
  };
  for (const Case &c : cases) {
    CAPTURE(c.driver, c.first_setting ? c.first_setting : "unset", c.second_setting ? c.second_setting : "unset");
    auto set = [](const char *name, const char *value) {
      if (value) ::setenv(name, value, 1);
      else ::unsetenv(name);
    };
    set("NOVEM_VK_DEPTH_BIAS_UNITS", c.first_setting);
    set("NOVEM_VK_NARROW_TEXTURE_SETS", c.second_setting);
    const TestQuirks quirks(kTable, c.driver, TestQuirks::switches(kTable, novem::Options("/nonexistent", "test")), "test");
    CHECK(quirks.has(TestQuirk::first) == c.first);
    CHECK(quirks.has(TestQuirk::second) == c.second);
  }
  ::unsetenv("NOVEM_VK_DEPTH_BIAS_UNITS");
  ::unsetenv("NOVEM_VK_NARROW_TEXTURE_SETS");
}
