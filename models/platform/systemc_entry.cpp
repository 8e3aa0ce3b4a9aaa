// SPDX-License-Identifier: Apache-2.0
#include "models/platform/systemc_entry.h"

#include <cstdlib>

#include <systemc>

namespace npusim::platform {

int runUnderSystemC(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

} // namespace npusim::platform
