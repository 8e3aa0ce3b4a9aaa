// SPDX-License-Identifier: Apache-2.0
// Test entry point. SystemC's library references sc_main, so main() hands over to SystemC,
// which calls sc_main, which runs doctest; a run whose test cases were all skipped exits with
// the skip code (support/skip.h).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include <systemc>

#include "support/skip.h"

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  return npusim::test::exitCode(result, context.shouldExit());
}
