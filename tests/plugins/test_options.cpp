// novem/options.hpp (switches from the environment or a config file) and novem/cache_file.hpp
// (the on-disk cache format every plugin uses): parsing, precedence, and every way a cache file
// is refused.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "novem/cache_file.hpp"
#include "novem/options.hpp"

namespace {

namespace fs = std::filesystem;

// A fresh folder, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("novem-options-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(std::rand()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Sets (or unsets, with nullptr) an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  std::string old;
  bool had;
  ScopedEnv(const char *n, const char *value) : name(n) {
    const char *o = std::getenv(n);
    had = o != nullptr;
    if (had) old = o;
    if (value) setenv(n, value, 1);
    else unsetenv(n);
  }
  ~ScopedEnv() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

} // namespace

TEST_CASE("options: a config file sets switches, the environment overrides it") {
  TempDir dir;
  const fs::path conf = dir.path / "novem.conf";
  std::ofstream(conf) << "# Novem settings\n"
                         "NOVEM_TEST_A = 0   # off\n"
                         "NOVEM_TEST_B=off\n"
                         "  NOVEM_TEST_C =1\n"
                         "not a setting\n"
                         "NOVEM_CACHE_DIR = /somewhere/else\n";
  ScopedEnv config("NOVEM_CONFIG", conf.c_str());
  ScopedEnv a("NOVEM_TEST_A", nullptr), b("NOVEM_TEST_B", "yes"), c("NOVEM_TEST_C", nullptr);
  ScopedEnv cache("NOVEM_CACHE_DIR", nullptr);
  novem::Options o;
  CHECK_FALSE(o.flag("NOVEM_TEST_A", true)); // from the file
  CHECK(o.flag("NOVEM_TEST_B", false));      // the environment wins over the file's "off"
  CHECK(o.flag("NOVEM_TEST_C", false));
  CHECK(o.flag("NOVEM_TEST_UNSET", true));   // neither: the default
  CHECK_FALSE(o.flag("NOVEM_TEST_UNSET", false));
  CHECK(o.cache_dir() == "/somewhere/else");
}

TEST_CASE("options: a program's section applies to it alone, over the lines outside any section") {
  TempDir dir;
  const fs::path conf = dir.path / "novem.conf";
  std::ofstream(conf) << "NOVEM_VK_BATCHING = 0\n"
                         "NOVEM_GL_BATCHING = 0\n"
                         "[my-game]\n"
                         "NOVEM_VK_BATCHING = 1\n"
                         "[other-game]\n"
                         "NOVEM_GL_BATCHING = 1\n"
                         "NOVEM_VK_SLABS = 0\n";
  ScopedEnv vk("NOVEM_VK_BATCHING", nullptr), gl("NOVEM_GL_BATCHING", nullptr), slabs("NOVEM_VK_SLABS", nullptr);
  const novem::Options mine(conf.string(), "my-game"), other(conf.string(), "other-game"), neither(conf.string(), "x");
  CHECK(mine.flag("NOVEM_VK_BATCHING", false));       // its section, over the line before any section
  CHECK_FALSE(mine.flag("NOVEM_GL_BATCHING", true));  // another program's section is not its own
  CHECK(mine.flag("NOVEM_VK_SLABS", true));
  CHECK_FALSE(other.flag("NOVEM_VK_BATCHING", true));
  CHECK(other.flag("NOVEM_GL_BATCHING", false));
  CHECK_FALSE(other.flag("NOVEM_VK_SLABS", true));
  CHECK_FALSE(neither.flag("NOVEM_VK_BATCHING", true));
  CHECK(mine.problems().empty());
}

TEST_CASE("options: unknown keys, lines that are not settings and bad values are one line each") {
  TempDir dir;
  const fs::path conf = dir.path / "novem.conf";
  std::ofstream(conf) << "NOVEM_VK_BATCHNG = 0\n"     // 1: misspelt
                         "just words\n"              // 2
                         "NOVEM_VK_SLABS = maybe\n"   // 3: not a flag
                         "NOVEM_FRAME_RATE = -5\n"    // 4: not a number in range
                         "[my-game]\n"
                         "NOVEM_PRESENT_INTERVAL = 9\n" // 6: out of range, in the program's section
                         "[other-game]\n"
                         "NOVEM_DEVICE_ID = x\n"      // 8: another program's: not checked for this one
                         "NOVEM_FOO = 1\n";           // 9: unknown in any section
  ScopedEnv a("NOVEM_VK_SLABS", nullptr), b("NOVEM_FRAME_RATE", nullptr), c("NOVEM_PRESENT_INTERVAL", nullptr),
      d("NOVEM_DEVICE_ID", nullptr), e("NOVEM_VENDOR_ID", "0x10000"), // the environment's values are checked too
      f("NOVEM_CAPTURE_FRAMES", "5-2");
  const novem::Options o(conf.string(), "my-game");
  const std::string at = conf.string() + ":";
  const std::vector<std::string> expected = {
      at + "1: unknown setting NOVEM_VK_BATCHNG",
      at + "2: 'just words' is not NAME = value",
      at + "9: unknown setting NOVEM_FOO",
      at + "4: NOVEM_FRAME_RATE=-5 is not a whole number from 0 to 1000; ignored",
      at + "6: NOVEM_PRESENT_INTERVAL=9 is not a whole number from 0 to 4; ignored",
      "NOVEM_VENDOR_ID=0x10000 is not a whole number from 0 to 65535; ignored",
      "NOVEM_CAPTURE_FRAMES=5-2 is not a range of frames A-B, from 1, with A no larger than B; ignored",
      at + "3: NOVEM_VK_SLABS=maybe is not 0, off, false, no, 1, on, true or yes; ignored",
  };
  CHECK(o.problems() == expected);
  CHECK(o.number("NOVEM_FRAME_RATE", 7) == 7); // a bad value keeps the default
  CHECK(o.number("NOVEM_VENDOR_ID", 3) == 3);
}

TEST_CASE("options: a range of frames is A-B or A, from 1, with A no larger than B") {
  struct Case {
    const char *text;
    bool ok;
    unsigned long long first, last;
  };
  const Case cases[] = {
      {"2-5", true, 2, 5}, {"7", true, 7, 7}, {"1-1", true, 1, 1}, {"5-2", false, 0, 0}, {"0-3", false, 0, 0},
      {"0", false, 0, 0},  {"", false, 0, 0}, {"x", false, 0, 0},  {"3-", false, 0, 0},  {"-3", false, 0, 0},
      {"1-2x", false, 0, 0}, {"1 - 2", false, 0, 0}, {"+1-2", false, 0, 0}, {"1-99999999999999999999", false, 0, 0},
  };
  for (const Case &c : cases) {
    INFO("'" << c.text << "'");
    novem::FrameRange r{9, 9};
    CHECK(novem::frame_range(c.text, r) == c.ok);
    if (c.ok) CHECK((r.first == c.first && r.last == c.last));
    else CHECK((r.first == 9 && r.last == 9)); // left as it was
  }
}

TEST_CASE("options: off values, cache folder defaults") {
  ScopedEnv config("NOVEM_CONFIG", "/nonexistent/novem.conf"); // a missing file is no error
  novem::Options o;
  for (const char *off : {"0", "off", "false", "no"}) {
    ScopedEnv v("NOVEM_TEST_FLAG", off);
    CHECK_FALSE(o.flag("NOVEM_TEST_FLAG", true));
  }
  {
    ScopedEnv v("NOVEM_TEST_FLAG", "1");
    CHECK(o.flag("NOVEM_TEST_FLAG", false));
  }
  {
    ScopedEnv cache("NOVEM_CACHE_DIR", nullptr), xdg("XDG_CACHE_HOME", "/xdg/cache");
    CHECK(o.cache_dir() == "/xdg/cache/novem");
  }
  {
    ScopedEnv cache("NOVEM_CACHE_DIR", ""); // the empty string turns the disk caches off
    CHECK(o.cache_dir().empty());
  }
}

TEST_CASE("cache file: written and read back, and corrupt, truncated, foreign or alien files refused") {
  TempDir dir;
  const std::string path = (dir.path / "sub" / "cache.bin").string(); // the folder is created
  const std::vector<uint8_t> payload = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<uint8_t> got;
  std::string why;
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Missing);
  REQUIRE(novem::CacheFile::write(path, 42, payload.data(), payload.size()));
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Ok);
  CHECK(got == payload);

  // Written for another identity (driver, device, version).
  CHECK(novem::CacheFile::read(path, 43, got, why) == novem::CacheFile::Read::Rejected);
  CHECK(why.find("another") != std::string::npos);
  CHECK(got.empty());

  std::vector<char> bytes;
  {
    std::ifstream f(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  auto rewrite = [&](const std::vector<char> &b) { std::ofstream(path, std::ios::binary).write(b.data(), std::streamsize(b.size())); };

  std::vector<char> flipped = bytes;
  flipped.back() ^= 0x40; // a payload byte
  rewrite(flipped);
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Rejected);
  CHECK(why.find("corrupt") != std::string::npos);

  rewrite(std::vector<char>(bytes.begin(), bytes.end() - 3));
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Rejected);
  CHECK(why.find("truncated") != std::string::npos);

  std::vector<char> longer = bytes;
  longer.push_back(0);
  rewrite(longer);
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Rejected);

  rewrite(std::vector<char>(bytes.begin(), bytes.begin() + 10));
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Rejected);
  CHECK(why.find("header") != std::string::npos);

  std::vector<char> alien = bytes;
  alien[0] = 'X';
  rewrite(alien);
  CHECK(novem::CacheFile::read(path, 42, got, why) == novem::CacheFile::Read::Rejected);
  CHECK(why.find("not a Novem") != std::string::npos);
}

TEST_CASE("options: the HUD's settings take their words, and a bad value is one line that names them") {
  struct Case {
    const char *name, *value;
    const char *problem; // nullptr: accepted
  };
  const char *items = "a comma-separated list of fps, frametimes, draws, pipelines, memory, backend, version or full";
  const char *corners = "one of top-left, top-right, bottom-left or bottom-right";
  const Case cases[] = {
      {"NOVEM_HUD", "full", nullptr},
      {"NOVEM_HUD", "fps", nullptr},
      {"NOVEM_HUD", "fps,frametimes,draws,pipelines,memory,backend,version", nullptr},
      {"NOVEM_HUD", "fps,", items},        // an empty word
      {"NOVEM_HUD", ",fps", items},
      {"NOVEM_HUD", "fps,fpss", items},    // a misspelt word
      {"NOVEM_HUD", "FPS", items},         // words are lower case
      {"NOVEM_HUD", "fps draws", items},   // commas, not spaces
      {"NOVEM_HUD_SCALE", "1", nullptr},
      {"NOVEM_HUD_SCALE", "8", nullptr},
      {"NOVEM_HUD_SCALE", "0", "a whole number from 1 to 8"},
      {"NOVEM_HUD_SCALE", "9", "a whole number from 1 to 8"},
      {"NOVEM_HUD_POSITION", "top-left", nullptr},
      {"NOVEM_HUD_POSITION", "bottom-right", nullptr},
      {"NOVEM_HUD_POSITION", "top", corners},
      {"NOVEM_HUD_POSITION", "top-left,top-right", corners},
  };
  for (const Case &c : cases) {
    TempDir dir;
    const fs::path conf = dir.path / "novem.conf";
    std::ofstream(conf) << c.name << " = " << c.value << "\n";
    ScopedEnv hud("NOVEM_HUD", nullptr), scale("NOVEM_HUD_SCALE", nullptr), position("NOVEM_HUD_POSITION", nullptr);
    const novem::Options o(conf.string(), "my-game");
    INFO(c.name << " = " << c.value);
    std::vector<std::string> expected;
    if (c.problem) expected.push_back(conf.string() + ":1: " + c.name + "=" + c.value + " is not " + c.problem + "; ignored");
    CHECK(o.problems() == expected);
    CHECK((o.checked(c.name) != nullptr) == (c.problem == nullptr)); // a bad value reads as unset
  }
}
