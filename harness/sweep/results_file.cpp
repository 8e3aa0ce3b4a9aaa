// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/results_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>

#include "harness/report/run_json.h"
#include "sim/common/atomic_file.h"
#include "sim/common/error.h"
#include "sim/config/text_file.h"

namespace npusim::sweep {
namespace {

using nlohmann::ordered_json;
namespace run_json = report::run_json;
namespace rj = results_json;


[[noreturn]] void fileError(const std::string& path, const std::string& message) {
  InputError::Location loc;
  loc.file = path;
  throw InputError(loc, message + ": " + std::strerror(errno));
}

ResultRecord parseRecord(std::string line, const std::string& path, uint64_t offset) {
  ResultRecord r;
  try {
    r.json = ordered_json::parse(line);
  } catch (const nlohmann::json::parse_error&) {
    throwAtOffset(path, offset, "not a JSON line");
  }
  const auto& j = r.json;
  if (!j.is_object() || !j.contains(rj::kId) || !j[rj::kId].is_string() || !j.contains(rj::kIndex) ||
      !j[rj::kIndex].is_number_unsigned() || !j.contains(rj::kSweepPoints) ||
      !j[rj::kSweepPoints].is_number_unsigned() || !j.contains(rj::kStatus) || !j[rj::kStatus].is_string()) {
    throwAtOffset(path, offset, "not a sweep result record (needs id, index, sweep_points and status)");
  }
  r.id = j[rj::kId].get<std::string>();
  r.index = j[rj::kIndex].get<size_t>();
  r.sweepPoints = j[rj::kSweepPoints].get<size_t>();
  r.ok = j[rj::kStatus] == rj::kStatusOk;
  r.line = std::move(line);
  return r;
}

ResultsFile parseResults(const std::string& text, const std::string& path) {
  ResultsFile file;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) {
      file.truncatedTail = true;
      break;
    }
    // Blank lines (whitespace only) hold no record.
    if (const size_t first = text.find_first_not_of(" \t\r", pos); first < end) {
      file.records.push_back(parseRecord(text.substr(pos, end - pos), path, pos));
    }
    pos = end + 1;
    file.completeBytes = pos;
  }
  return file;
}

double roundedMilliseconds(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

} // namespace

std::string resultLine(const Point& point, size_t sweepPoints, const PointOutcome& outcome) {
  ordered_json j;
  j[rj::kId] = point.id;
  j[rj::kIndex] = point.index;
  j[rj::kSweepPoints] = sweepPoints;
  j[rj::kModel] = point.model.label;
  j[rj::kSystemConfig] = point.model.systemConfig;
  j[rj::kMemoryMode] = point.model.memoryMode;
  if (!point.model.velaIni.empty()) {
    j[rj::kVelaIni] = point.model.velaIni;
  }
  ordered_json params = ordered_json::object();
  for (const Param& p : point.params) {
    params[p.key] = p.value;
  }
  j[rj::kParams] = params;
  j[rj::kEffective] = point.effective;
  j[rj::kBaseline] = point.baseline;
  j[rj::kStatus] = outcome.ok ? rj::kStatusOk : rj::kStatusFailed;
  j[rj::kExitCode] = outcome.exitCode;
  const ordered_json& r = outcome.result;
  j[rj::kAccelerator] = outcome.ok ? r.at(run_json::kConfig).at(run_json::kAccelerator) : ordered_json();
  j[rj::kTotalCycles] = outcome.ok ? r.at(run_json::kTotalCycles) : ordered_json();
  j[rj::kTimeSeconds] = outcome.ok ? r.at(run_json::kTimeSeconds) : ordered_json();
  j[rj::kNpuActiveCycles] = outcome.ok ? r.at(run_json::kNpuActiveCycles) : ordered_json();
  j[rj::kPmu] = outcome.ok ? r.at(run_json::kPmu) : ordered_json::object();
  ordered_json ports = ordered_json::array();
  if (outcome.ok) {
    for (const auto& p : r.at(run_json::kPorts)) {
      ports.push_back({{rj::kName, p.at(run_json::kName)}, {rj::kMemory, p.at(run_json::kMemory)},
                       {rj::kReadBytes, p.at(run_json::kReadBytes)}, {rj::kWriteBytes, p.at(run_json::kWriteBytes)}});
    }
  }
  j[rj::kPorts] = ports;
  j[rj::kError] = outcome.ok ? ordered_json() : ordered_json(outcome.error);
  return j.dump();
}

std::string timingLine(const Point& point, const PointOutcome& outcome) {
  ordered_json j;
  j[rj::kId] = point.id;
  j[rj::kIndex] = point.index;
  j[rj::kWallSeconds] = roundedMilliseconds(outcome.wallSeconds);
  return j.dump();
}

std::string timingPath(const std::string& resultsPath) { return resultsPath + ".timing"; }

ResultsFile readResults(const std::string& path) {
  return parseResults(config::readTextFile(path, "sweep results file"), path);
}

namespace {

// `path` opened for appending (created when absent) and locked against a second sweep.
int openLocked(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    fileError(path, "cannot open results file");
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    InputError::Location loc;
    loc.file = path;
    throw InputError(loc, "another sweep is writing this results file");
  }
  return fd;
}

} // namespace

ResultsAppender::ResultsAppender(const std::string& path, bool resume) : path_(path) {
  // 1. Open without truncating, and lock: only then is it safe to cut the file.
  fd_ = openLocked(path);
  // 2. Keep the complete lines (resume) or nothing.
  if (resume) {
    try {
      existing_ = readResults(path);
    } catch (const InputError&) {
      ::close(fd_);
      throw;
    }
  }
  if (::ftruncate(fd_, static_cast<off_t>(existing_.completeBytes)) != 0) {
    const int saved = errno;
    ::close(fd_);
    errno = saved;
    fileError(path, "cannot truncate results file");
  }
}

ResultsAppender::~ResultsAppender() { ::close(fd_); }

size_t ResultsAppender::dropRecords(const std::function<bool(const ResultRecord&)>& drop) {
  std::vector<ResultRecord> kept;
  std::string text;
  for (ResultRecord& r : existing_.records) {
    if (drop(r)) continue;
    text += r.line + '\n';
    kept.push_back(std::move(r));
  }
  const size_t dropped = existing_.records.size() - kept.size();
  existing_.records = std::move(kept);
  if (dropped == 0) {
    return 0;
  }
  // The kept lines replace the file in one rename (a crash leaves the old file or the new one);
  // the lock held on the old file is taken on the new one.
  writeFileAtomically(path_, text);
  ::close(fd_);
  fd_ = openLocked(path_);
  existing_.completeBytes = text.size();
  return dropped;
}

void ResultsAppender::append(const std::string& line) {
  const std::string data = line + '\n';
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      fileError(path_, "cannot write results file");
    }
    done += static_cast<size_t>(n);
  }
}

std::string stableText(const std::string& line) {
  const size_t pos = line.rfind(",\"" + std::string(rj::kWallSeconds) + "\":");
  return pos == std::string::npos ? line : line.substr(0, pos) + "}";
}

MergedResults mergeResults(const std::vector<std::string>& files) {
  MergedResults merged;
  std::map<std::string, ResultRecord> byId;
  for (const std::string& path : files) {
    ResultsFile file = readResults(path);
    if (file.truncatedTail) {
      merged.truncatedFiles.push_back(path);
    }
    for (ResultRecord& r : file.records) {
      if (merged.sweepPoints != 0 && r.sweepPoints != merged.sweepPoints) {
        InputError::Location loc;
        loc.file = path;
        throw InputError(loc, "point " + r.id + " comes from a sweep of " + std::to_string(r.sweepPoints) +
                                  " points, the files before it from one of " + std::to_string(merged.sweepPoints));
      }
      merged.sweepPoints = r.sweepPoints;
      const auto [it, inserted] = byId.emplace(r.id, r);
      if (!inserted) {
        auto& list = stableText(it->second.line) == stableText(r.line) ? merged.duplicates : merged.conflicts;
        if (std::find(list.begin(), list.end(), r.id) == list.end()) {
          list.push_back(r.id);
        }
      }
    }
  }
  std::vector<bool> present(merged.sweepPoints, false);
  for (auto& [id, r] : byId) {
    if (r.index < present.size()) {
      present[r.index] = true;
    }
    merged.records.push_back(std::move(r));
  }
  for (size_t i = 0; i < present.size(); ++i) {
    if (!present[i]) {
      merged.missing.push_back(i);
    }
  }
  std::sort(merged.records.begin(), merged.records.end(), [](const ResultRecord& a, const ResultRecord& b) {
    return a.index != b.index ? a.index < b.index : a.id < b.id;
  });
  std::sort(merged.duplicates.begin(), merged.duplicates.end());
  std::sort(merged.conflicts.begin(), merged.conflicts.end());
  return merged;
}

} // namespace npusim::sweep
