// A log file of the test's own (NOVEM_LOG_FILE, or a Logger's file), removed before and after,
// and what it holds. Shared by the tests that check the lines the logger writes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace novem::test {

struct LogFile {
  std::string path = (std::filesystem::temp_directory_path() / ("novem-log-test-" + std::to_string(getpid()) + ".txt")).string();
  LogFile() { std::filesystem::remove(path); }
  ~LogFile() { std::filesystem::remove(path); }
  std::string text() const {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

} // namespace novem::test
