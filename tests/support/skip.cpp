// SPDX-License-Identifier: Apache-2.0
#include "support/skip.h"

#include <iostream>

#include <doctest/doctest.h>

namespace npusim::test {
namespace {

// What the run has seen so far; one test case runs at a time (doctest is single-threaded).
struct SkipState {
  bool skipRequested = false;   // skip() called in the running test case
  int casesRun = 0;
  int casesSkipped = 0;
};

SkipState& state() {
  static SkipState s;
  return s;
}

// Doctest listener that decides at the end of each test case whether it was skipped: it asked
// to be, checked no assertion and did not fail (an exception or crash is a failure).
class SkipListener : public doctest::IReporter {
public:
  explicit SkipListener(const doctest::ContextOptions&) {}

  void test_case_start(const doctest::TestCaseData&) override { state().skipRequested = false; }

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    SkipState& s = state();
    ++s.casesRun;
    if (s.skipRequested && stats.numAssertsCurrentTest == 0 && stats.testCaseSuccess) {
      ++s.casesSkipped;
    }
    s.skipRequested = false;
  }

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("npusim-skip", 1, SkipListener);

} // namespace

void skip(const std::string& reason) {
  state().skipRequested = true;
  MESSAGE("skipped: " << reason);
}

int exitCode(int doctestResult, bool queryOnly) {
  const SkipState& s = state();
  // A run of no test case is a filter that matches none (CTest cuts a test name at a ';'): it
  // must not pass as if it had checked something. Queries (--list-test-cases) run none.
  if (!queryOnly && s.casesRun == 0) {
    std::cout << "[npusim] no test case matches the filters: nothing was checked\n";
    return 1;
  }
  if (s.casesSkipped > 0) {
    std::cout << "[npusim] " << s.casesSkipped << " of " << s.casesRun << " test cases checked nothing: skipped\n";
  }
  if (doctestResult == 0 && s.casesRun > 0 && s.casesSkipped == s.casesRun) {
    return NPUSIM_TEST_SKIP_EXIT_CODE;
  }
  return doctestResult;
}

} // namespace npusim::test
