// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/point_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace npusim::sweep {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kJsonFd = 3;                // the child writes its result here
constexpr int kTickMilliseconds = 200;
constexpr size_t kReadChunk = 65536;

std::string systemError(const std::string& what) { return what + ": " + std::strerror(errno); }

// One running `npusim run` process and what it has written so far.
struct Child {
  size_t point = 0;
  pid_t pid = -1;
  int jsonFd = -1, errFd = -1;
  std::string json, err;
  Clock::time_point start;
  bool timedOut = false;
};

void closeFd(int& fd) {
  if (fd >= 0) {
    ::close(fd);
    fd = -1;
  }
}

// Reads what is available; closes the descriptor at end of file.
void drain(int& fd, std::string& into) {
  char buf[kReadChunk];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n > 0) {
    into.append(buf, static_cast<size_t>(n));
  } else if (n == 0 || errno != EINTR) {
    closeFd(fd);
  }
}

std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) {
    return "";
  }
  const size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

// Starts the child with stdin and stdout on /dev/null, stderr and fd 3 on fresh pipes.
bool spawn(const std::string& exe, const Point& point, Child& child, std::string& error) {
  int jsonPipe[2], errPipe[2];
  if (::pipe2(jsonPipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(systemError("pipe2"));
  }
  if (::pipe2(errPipe, O_CLOEXEC) != 0) {
    ::close(jsonPipe[0]);
    ::close(jsonPipe[1]);
    throw std::runtime_error(systemError("pipe2"));
  }
  std::vector<std::string> args{exe};
  for (std::string& a : runArguments(point, "/dev/fd/" + std::to_string(kJsonFd))) {
    args.push_back(std::move(a));
  }
  std::vector<char*> argv;
  for (std::string& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  posix_spawn_file_actions_adddup2(&actions, jsonPipe[1], kJsonFd);
  const int rc = ::posix_spawn(&child.pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(jsonPipe[1]);
  ::close(errPipe[1]);
  child.jsonFd = jsonPipe[0];
  child.errFd = errPipe[0];
  child.start = Clock::now();
  if (rc != 0) {
    closeFd(child.jsonFd);
    closeFd(child.errFd);
    error = "cannot start " + exe + ": " + std::strerror(rc);
    return false;
  }
  return true;
}

// The members of an `npusim run --json` document that sweep results use.
bool isRunResult(const nlohmann::ordered_json& j) {
  if (!j.is_object() || !j.contains("config") || !j["config"].contains("accelerator")) {
    return false;
  }
  for (const char* key : {"total_cycles", "npu_active_cycles", "pmu", "ports"}) {
    if (!j.contains(key)) {
      return false;
    }
  }
  return std::all_of(j["ports"].begin(), j["ports"].end(), [](const nlohmann::ordered_json& p) {
    return p.contains("port") && p.contains("memory") && p.contains("read_bytes") && p.contains("write_bytes");
  });
}

PointOutcome outcomeOf(const Child& child, int status, double timeoutSeconds) {
  PointOutcome out;
  out.wallSeconds = std::chrono::duration<double>(Clock::now() - child.start).count();
  if (WIFEXITED(status)) {
    out.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    out.exitCode = 128 + WTERMSIG(status);
  }
  const std::string errLine = lastLine(child.err);
  if (child.timedOut) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", timeoutSeconds);
    out.error = std::string("timed out after ") + limit + " s";
  } else if (WIFSIGNALED(status)) {
    out.error = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                ::strsignal(WTERMSIG(status)) + ")" + (errLine.empty() ? "" : ": " + errLine);
  } else if (out.exitCode != 0) {
    out.error = errLine.empty() ? "exit status " + std::to_string(out.exitCode) : errLine;
  } else {
    try {
      out.result = nlohmann::ordered_json::parse(child.json);
      out.ok = isRunResult(out.result);
    } catch (const nlohmann::json::parse_error&) {
      out.ok = false;
    }
    if (!out.ok) {
      out.error = "npusim run wrote no readable JSON result";
    }
  }
  return out;
}

} // namespace

std::vector<std::string> runArguments(const Point& point, const std::string& jsonPath) {
  std::vector<std::string> args{"run"};
  if (!point.model.path.empty()) {
    args.push_back(point.model.path);
  }
  args.insert(args.end(), {"--system-config", point.model.systemConfig, "--memory-mode", point.model.memoryMode});
  if (!point.model.velaIni.empty()) {
    args.insert(args.end(), {"--vela-ini", point.model.velaIni});
  }
  for (const Param& p : point.params) {
    args.insert(args.end(), {"--set", p.key + "=" + p.text});
  }
  args.insert(args.end(), {"--json", jsonPath});
  return args;
}

void runPoints(const std::vector<Point>& points, const RunnerOptions& options, RunObserver& observer) {
  const unsigned jobs = options.jobs == 0 ? 1 : options.jobs;
  std::vector<Child> running;
  size_t next = 0;
  while (next < points.size() || !running.empty()) {
    // 1. Keep `jobs` children running.
    while (running.size() < jobs && next < points.size()) {
      Child child;
      child.point = next++;
      std::string error;
      if (spawn(options.executable, points[child.point], child, error)) {
        running.push_back(std::move(child));
      } else {
        PointOutcome failed;
        failed.exitCode = 127;
        failed.error = error;
        observer.finished(points[child.point], failed);
      }
    }
    if (running.empty()) {
      continue;
    }
    // 2. Wait for output (or a tick), then read what arrived.
    std::vector<pollfd> fds;
    for (const Child& c : running) {
      for (const int fd : {c.jsonFd, c.errFd}) {
        if (fd >= 0) {
          fds.push_back(pollfd{fd, POLLIN, 0});
        }
      }
    }
    if (::poll(fds.data(), fds.size(), kTickMilliseconds) < 0 && errno != EINTR) {
      throw std::runtime_error(systemError("poll"));
    }
    for (Child& c : running) {
      for (const pollfd& p : fds) {
        if (p.revents == 0) continue;
        if (p.fd == c.jsonFd) drain(c.jsonFd, c.json);
        else if (p.fd == c.errFd) drain(c.errFd, c.err);
      }
    }
    // 3. Kill children past the timeout; reap those whose pipes are closed.
    for (size_t i = 0; i < running.size();) {
      Child& c = running[i];
      if (options.timeoutSeconds > 0 && !c.timedOut &&
          std::chrono::duration<double>(Clock::now() - c.start).count() > options.timeoutSeconds) {
        ::kill(c.pid, SIGKILL);
        c.timedOut = true;
      }
      if (c.jsonFd >= 0 || c.errFd >= 0) {
        ++i;
        continue;
      }
      int status = 0;
      while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
      }
      const PointOutcome outcome = outcomeOf(c, status, options.timeoutSeconds);
      const size_t point = c.point;
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      observer.finished(points[point], outcome);
    }
    observer.tick();
  }
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

} // namespace npusim::sweep
