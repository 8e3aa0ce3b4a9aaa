// SPDX-License-Identifier: Apache-2.0
// Test entry point. SystemC's library references sc_main, so main() hands over to SystemC,
// which calls sc_main, which runs doctest.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include <systemc>

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
