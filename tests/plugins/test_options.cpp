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
