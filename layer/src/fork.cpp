// What a child made by fork() inherits of the layer. Only the forking thread lives on in the child:
// the layer threads of the devices created before the fork are gone, and any lock one of them
// held at that moment stays held for good. So, in the child:
// - those devices are marked inherited: they are never ended (no thread to join, no lock to take)
//   nor reported; the application has no use for them there (no driver promises that its
//   objects survive a fork), but a process that merely calls exit() must not hang on them;
// - the files (report, trace, dumps) are the parent's, named for it and partly written by it: the
//   child writes none of them, so neither clobbers a report nor appends to the parent's trace;
// - the registry's lock is taken around the fork and made anew in the child, so a child that
//   creates an instance and a device of its own goes on with a consistent registry (its devices
//   get layer threads of their own and are tracked, unreported).
// A child that calls exec() loads the layer afresh: it is a process like any other.
#include <memory>

#include <pthread.h>

#include "state.hpp"

namespace novem_qd {
namespace {

Registry *g_forking = nullptr; // the registry locked by before_fork, for the handlers after it

void before_fork() {
  g_forking = Registry::existing();
  if (g_forking) g_forking->mutex.lock();
}

void after_fork_in_parent() {
  if (g_forking) g_forking->mutex.unlock();
}

void after_fork_in_child() {
  if (!g_forking) return;
  g_forking->forked = true;
  for (const auto &d : g_forking->all_devices) d->inherited = true;
  // Made anew rather than unlocked: the lock records its writer, a thread id the child does not have.
  std::construct_at(&g_forking->mutex);
}

__attribute__((constructor)) void watch_forks() {
  // Unregistered by the C library when the loader unloads the layer (dlclose).
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

} // namespace
} // namespace novem_qd
