// SPDX-License-Identifier: Apache-2.0
#include "harness/process/process_pool.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace npusim::process {
namespace {

// A started child with pipes for stdout and stderr.
struct Running {
  pid_t pid = -1;
  int out = -1, err = -1;
  ChildResult result;
};

Running start(const std::vector<std::string>& args) {
  int outPipe[2], errPipe[2];
  if (pipe(outPipe) != 0 || pipe(errPipe) != 0) {
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, outPipe[0]);
  posix_spawn_file_actions_addclose(&actions, errPipe[0]);
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  Running r;
  const int rc = posix_spawn(&r.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(outPipe[1]);
  close(errPipe[1]);
  if (rc != 0) {
    close(outPipe[0]);
    close(errPipe[0]);
    throw std::runtime_error("cannot start " + args.front() + ": " + std::strerror(rc));
  }
  r.out = outPipe[0];
  r.err = errPipe[0];
  return r;
}

// Reads what is available on `fd` into `sink`; closes it and returns false at end of file.
bool drain(int& fd, std::string& sink) {
  char buf[65536];
  const ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    sink.append(buf, static_cast<size_t>(n));
    return true;
  }
  if (n < 0 && errno == EINTR) {
    return true;
  }
  close(fd);
  fd = -1;
  return false;
}

void reap(Running& r) {
  int status = 0;
  while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

std::string selfExecutable() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) {
    throw std::runtime_error("cannot resolve /proc/self/exe");
  }
  return std::string(buf, static_cast<size_t>(n));
}

ChildResult run(const std::vector<std::string>& args) { return runAll({args}, 1).front(); }

std::vector<ChildResult> runAll(const std::vector<std::vector<std::string>>& commands, unsigned jobs,
                                const std::function<void(size_t, const ChildResult&)>& done) {
  std::vector<ChildResult> results(commands.size());
  std::map<size_t, Running> running;
  size_t next = 0;
  jobs = std::max(jobs, 1u);
  while (next < commands.size() || !running.empty()) {
    // 1. Keep `jobs` children running.
    while (next < commands.size() && running.size() < jobs) {
      running.emplace(next, start(commands[next]));
      ++next;
    }
    // 2. Wait for output from any of them.
    std::vector<pollfd> fds;
    std::vector<std::pair<size_t, bool>> owner; // (command index, is stdout)
    for (auto& [i, r] : running) {
      if (r.out >= 0) { fds.push_back({r.out, POLLIN, 0}); owner.emplace_back(i, true); }
      if (r.err >= 0) { fds.push_back({r.err, POLLIN, 0}); owner.emplace_back(i, false); }
    }
    if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      Running& r = running.at(owner[k].first);
      if (owner[k].second) drain(r.out, r.result.out);
      else drain(r.err, r.result.err);
    }
    // 3. Reap children whose pipes are both closed.
    for (auto it = running.begin(); it != running.end();) {
      if (it->second.out < 0 && it->second.err < 0) {
        reap(it->second);
        results[it->first] = std::move(it->second.result);
        if (done) done(it->first, results[it->first]);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
  }
  return results;
}

} // namespace npusim::process
