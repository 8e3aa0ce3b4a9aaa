// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a test that cannot check anything reports "skipped" to CTest instead of "passed".
//
// A test case calls skip(reason) when something it needs is absent (a fixture tree, a Python
// module, every folder it would loop over). When the test case then ends having evaluated no
// assertion and without failing, it counts as skipped; if every test case the process ran was
// skipped, the process exits with NPUSIM_TEST_SKIP_EXIT_CODE, which tests/CMakeLists.txt sets
// as each CTest entry's SKIP_RETURN_CODE. A test case that evaluated any assertion is judged on
// those assertions as usual: the reason stays in its output as a partial skip.

#include <string>

namespace npusim::test {

// Records that the running test case cannot check `reason` and prints it (a doctest MESSAGE).
void skip(const std::string& reason);

// The process exit code for a doctest run that returned `doctestResult`: 1 when it ran no test
// case (unless it only answered a query such as --list-test-cases: `queryOnly`), the skip code
// when the run passed and every test case it ran was skipped, else `doctestResult`.
int exitCode(int doctestResult, bool queryOnly);

} // namespace npusim::test
