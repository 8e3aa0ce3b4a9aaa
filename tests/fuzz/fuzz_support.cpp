// SPDX-License-Identifier: Apache-2.0
// SystemC's shared library references sc_main, so every binary that links npusim_lib must
// define it. libFuzzer provides main() and never hands over to SystemC, so this one is never
// called; the targets use only plain C++ code (loader, decoder, config readers, cost models).

#include <cstdio>

// SystemC declares it extern "C" (sysc/kernel/sc_externs.h).
extern "C" int sc_main(int, char**) {
  std::fprintf(stderr, "sc_main is not used by the fuzz targets\n");
  return 1;
}
