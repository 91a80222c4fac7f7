// Runs a program in a child process with its environment changed for the child only, and
// collects what it printed. Shared by the tests that drive whole programs (layer, ICD, diag).
#pragma once

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern char **environ;

namespace novem::test {

struct ChildRun {
  int status = -1;    // exit code, or -1 if the child did not exit normally
  std::string output; // stdout and stderr, interleaved as written
};

// argv[0] is a path. `set` overrides or adds variables, `unset` removes them (and wins over set).
inline ChildRun run_child(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set = {},
                          const std::vector<std::string> &unset = {}) {
  auto removed = [&](const std::string &name) { return std::find(unset.begin(), unset.end(), name) != unset.end(); };
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    const std::string entry = *e, name = entry.substr(0, entry.find('='));
    if (!set.count(name) && !removed(name)) env.push_back(entry);
  }
  for (const auto &[name, value] : set)
    if (!removed(name)) env.push_back(name + "=" + value);
  std::vector<char *> envp, args;
  for (auto &e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto &a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  ChildRun run;
  int fds[2];
  if (pipe(fds) != 0) {
    run.output = std::string("pipe: ") + std::strerror(errno);
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  pid_t pid = -1;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    run.output = std::string("posix_spawn: ") + std::strerror(err);
    return run;
  }
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    run.output.append(buffer, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

} // namespace novem::test
