// SPDX-License-Identifier: Apache-2.0
#pragma once
// The hand-over from main() to SystemC, so that executables need no SystemC header: SystemC's
// library runs the elaboration and calls the program's sc_main.

// Defined by each executable: its real entry point (SystemC's own declaration, repeated).
extern "C" int sc_main(int argc, char* argv[]);

namespace npusim::platform {

// Hands the process over to SystemC without its copyright banner; SystemC calls
// sc_main(argc, argv) and this returns its result. Call it from main().
int runUnderSystemC(int argc, char** argv);

} // namespace npusim::platform
