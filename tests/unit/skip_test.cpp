// SPDX-License-Identifier: Apache-2.0
// The skip mechanism of the test support (support/skip.h): this binary run on sample test
// cases (hidden from CTest by doctest's skip decorator, run with --no-skip) exits with the skip
// code only when every test case it ran checked nothing and passed.

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "support/skip.h"

namespace {

// Exit status of this test binary running the sample test cases matching `filter`.
int runSamples(const std::string& filter) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command = "'" + self + "' --no-skip '--test-case=" + filter + "' >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

} // namespace

TEST_CASE("skip sample: nothing checked" * doctest::skip()) { npusim::test::skip("sample: nothing to check"); }

TEST_CASE("skip sample: something else checked" * doctest::skip()) {
  npusim::test::skip("sample: part of the work not checked");
  CHECK(1 + 1 == 2);
}

TEST_CASE("skip sample: a failed check after the skip" * doctest::skip()) {
  npusim::test::skip("sample: part of the work not checked");
  CHECK(1 + 1 == 3);
}

TEST_CASE("skip sample: an exception after the skip" * doctest::skip()) {
  npusim::test::skip("sample: part of the work not checked");
  throw std::runtime_error("sample failure");
}

TEST_CASE("skip sample: no skip and nothing checked" * doctest::skip()) {}

TEST_CASE("skip: a test case that checks nothing after skip() exits with the skip code") {
  CHECK(runSamples("skip sample: nothing checked") == NPUSIM_TEST_SKIP_EXIT_CODE);
}

TEST_CASE("skip: a test case that checked something passes or fails on its checks") {
  CHECK(runSamples("skip sample: something else checked") == 0);
  CHECK(runSamples("skip sample: a failed check after the skip") == 1);
  CHECK(runSamples("skip sample: an exception after the skip") == 1);
}

TEST_CASE("skip: a run is skipped only when every test case it ran was") {
  CHECK(runSamples("skip sample: no skip and nothing checked") == 0);
  CHECK(runSamples("skip sample: nothing checked,skip sample: something else checked") == 0);
  CHECK(runSamples("skip sample: nothing checked,skip sample: a failed check after the skip") == 1);
}
