// An Xvfb server of the test's own, on a free display number (-displayfd), so that window tests
// need no desktop and never touch one. DISPLAY points at it while it runs.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

class XServer {
public:
  // False (with the reason) when Xvfb cannot be started.
  bool start(std::string &why) {
    int fds[2];
    if (pipe(fds) != 0) return why = "pipe failed", false;
    pid_ = fork();
    if (pid_ < 0) return why = "fork failed", false;
    if (pid_ == 0) {
      close(fds[0]);
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 2), dup2(null, 1);
      const std::string fd = std::to_string(fds[1]);
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset",
             static_cast<char *>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string number;
    char c;
    while (read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    close(fds[0]);
    if (number.empty()) {
      why = "Xvfb (package xvfb) did not start";
      stop();
      return false;
    }
    display_ = ":" + number;
    setenv("DISPLAY", display_.c_str(), 1);
    return true;
  }
  ~XServer() { stop(); }
  const std::string &display() const { return display_; }

private:
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }
  pid_t pid_ = -1;
  std::string display_;
};
