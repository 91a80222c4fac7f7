// Helpers shared by the tools tests: a temporary directory that removes itself.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

#include <unistd.h>

namespace novem_test {

class TempDir {
public:
  explicit TempDir(const std::string &tag) {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("novem-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::filesystem::path &path() const { return path_; }
  std::filesystem::path operator/(const std::string &name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

} // namespace novem_test
