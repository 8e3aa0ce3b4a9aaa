// SPDX-License-Identifier: Apache-2.0
#include "harness/process/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

extern char** environ;

namespace npusim::process {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kTickMilliseconds = 200;
constexpr size_t kReadChunk = 65536;

std::string systemError(const std::string& what) { return what + ": " + std::strerror(errno); }

// A started child: pipes still open (-1 once at end of file) and what arrived on them.
struct Running {
  size_t index = 0;
  pid_t pid = -1;
  int out = -1, err = -1, channel = -1;
  Clock::time_point start;
  ChildResult result;
  bool open() const { return out >= 0 || err >= 0 || channel >= 0; }
};

void closeFd(int& fd) {
  if (fd >= 0) {
    ::close(fd);
    fd = -1;
  }
}

// A pipe whose ends close on exec (the child gets copies through dup2).
void makePipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(systemError("pipe2"));
  }
}

// In a forked child: the same descriptors as spawn() gives an executed one, then
// options.inProcess(args); never returns. Buffered output is flushed, nothing else of the
// parent's (its atexit handlers, its open streams) runs.
[[noreturn]] void runForked(const std::vector<std::string>& args, const PoolOptions& options, const int outPipe[2],
                            const int errPipe[2], const int channelPipe[2]) {
  const int devNull = ::open("/dev/null", O_RDWR);
  bool ok = devNull >= 0 && ::dup2(devNull, STDIN_FILENO) >= 0 &&
            ::dup2(options.captureStdout ? outPipe[1] : devNull, STDOUT_FILENO) >= 0 &&
            ::dup2(errPipe[1], STDERR_FILENO) >= 0;
  if (ok && options.resultChannel) {
    ok = ::dup2(channelPipe[1], kResultChannelFd) >= 0;
  }
  if (!ok) {
    ::_exit(127);
  }
  for (const int* p : {outPipe, errPipe, channelPipe}) {
    for (int i = 0; i < 2; ++i) {
      if (p[i] > kResultChannelFd) ::close(p[i]);
    }
  }
  if (devNull > kResultChannelFd) ::close(devNull);
  int status = 1;
  try {
    status = options.inProcess(args);
  } catch (...) {
    status = 1;
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(status);
}

// The parent's side of a started (or failed) child: closes the pipes' write ends and keeps their
// read ends, or closes those too and sets `error` to "`what`: <reason>" when `failure` (an errno
// value) is not 0.
bool adopt(Running& child, int outPipe[2], int errPipe[2], int channelPipe[2], int failure, const std::string& what,
           std::string& error) {
  for (int* writeEnd : {&outPipe[1], &errPipe[1], &channelPipe[1]}) closeFd(*writeEnd);
  child.out = outPipe[0];
  child.err = errPipe[0];
  child.channel = channelPipe[0];
  child.start = Clock::now();
  if (failure != 0) {
    closeFd(child.out);
    closeFd(child.err);
    closeFd(child.channel);
    error = what + ": " + std::strerror(failure);
    return false;
  }
  return true;
}

// Starts `args` with stdin on /dev/null, stdout, stderr and the result channel on fresh pipes
// (stdout on /dev/null unless captured); false with `error` set when it cannot be started.
bool spawn(const std::vector<std::string>& args, const PoolOptions& options, Running& child, std::string& error) {
  int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, channelPipe[2] = {-1, -1};
  makePipe(errPipe);
  if (options.captureStdout) makePipe(outPipe);
  if (options.resultChannel) makePipe(channelPipe);

  if (options.inProcess) {
    std::cout.flush();
    std::fflush(nullptr);
    child.pid = ::fork();
    if (child.pid == 0) {
      runForked(args, options, outPipe, errPipe, channelPipe);
    }
    const int forkError = errno;
    return adopt(child, outPipe, errPipe, channelPipe, child.pid < 0 ? forkError : 0, "cannot fork for " + args.front(),
                 error);
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (options.captureStdout) {
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
  if (options.resultChannel) {
    posix_spawn_file_actions_adddup2(&actions, channelPipe[1], kResultChannelFd);
  }
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = ::posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return adopt(child, outPipe, errPipe, channelPipe, rc, "cannot start " + args.front(), error);
}

// Reads what is available; closes the descriptor at end of file (or on a read error).
void drain(int& fd, std::string& into) {
  char buf[kReadChunk];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n > 0) {
    into.append(buf, static_cast<size_t>(n));
  } else if (n == 0 || errno != EINTR) {
    closeFd(fd);
  }
}

void reap(Running& child) {
  int status = 0;
  rusage usage{};
  while (::wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  child.result.peakRssKiB = usage.ru_maxrss;
  child.result.wallSeconds = std::chrono::duration<double>(Clock::now() - child.start).count();
  if (WIFSIGNALED(status)) {
    child.result.signal = WTERMSIG(status);
    child.result.exitCode = 128 + child.result.signal;
  } else {
    child.result.exitCode = WEXITSTATUS(status);
  }
}

} // namespace

std::string selfExecutable() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) {
    throw std::runtime_error("cannot resolve /proc/self/exe");
  }
  return std::string(buf, static_cast<size_t>(n));
}

unsigned availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    return static_cast<unsigned>(CPU_COUNT(&set));
  }
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1U;
}

void runEach(const std::vector<std::vector<std::string>>& commands, const PoolOptions& options,
             const std::function<void(size_t, ChildResult&&)>& done) {
  const unsigned jobs = std::max(options.jobs, 1u);
  std::vector<Running> running;
  size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    // 1. Keep `jobs` children running.
    while (running.size() < jobs && next < commands.size()) {
      Running child;
      child.index = next++;
      std::string error;
      if (spawn(commands[child.index], options, child, error)) {
        running.push_back(std::move(child));
      } else {
        child.result.exitCode = 127;
        child.result.err = error;
        done(child.index, std::move(child.result));
      }
    }
    if (running.empty()) {
      continue;
    }
    // 2. Wait for output (or a tick), then read what arrived.
    std::vector<pollfd> fds;
    for (const Running& c : running) {
      for (const int fd : {c.out, c.err, c.channel}) {
        if (fd >= 0) fds.push_back(pollfd{fd, POLLIN, 0});
      }
    }
    if (::poll(fds.data(), fds.size(), kTickMilliseconds) < 0 && errno != EINTR) {
      throw std::runtime_error(systemError("poll"));
    }
    for (const pollfd& p : fds) {
      if (p.revents == 0) continue;
      for (Running& c : running) {
        if (p.fd == c.out) drain(c.out, c.result.out);
        else if (p.fd == c.err) drain(c.err, c.result.err);
        else if (p.fd == c.channel) drain(c.channel, c.result.channel);
      }
    }
    // 3. Kill children past the timeout; reap those whose pipes are all closed.
    for (size_t i = 0; i < running.size();) {
      Running& c = running[i];
      if (options.timeoutSeconds > 0 && !c.result.timedOut &&
          std::chrono::duration<double>(Clock::now() - c.start).count() > options.timeoutSeconds) {
        ::kill(c.pid, SIGKILL);
        c.result.timedOut = true;
      }
      if (c.open()) {
        ++i;
        continue;
      }
      reap(c);
      Running finished = std::move(c);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      done(finished.index, std::move(finished.result));
    }
    if (options.tick) options.tick();
  }
}

std::vector<ChildResult> runAll(const std::vector<std::vector<std::string>>& commands, unsigned jobs) {
  std::vector<ChildResult> results(commands.size());
  PoolOptions options;
  options.jobs = jobs;
  runEach(commands, options, [&](size_t i, ChildResult&& r) { results[i] = std::move(r); });
  return results;
}

} // namespace npusim::process
