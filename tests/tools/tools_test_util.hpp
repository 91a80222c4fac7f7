// Helpers shared by the tools tests: a temporary directory that removes itself, and running a
// tool's command line for its exit code and output.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

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

struct RunResult {
  int exit_code = -1; // -1: the command could not run or did not exit normally
  std::string output; // stdout and stderr together
};

// 'text' as one shell word.
inline std::string quote(const std::string &text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command line (its words already quoted) and collects what it prints.
inline RunResult run_command(const std::string &command) {
  RunResult r;
  FILE *p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int status = pclose(p);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

} // namespace novem_test
