// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fields of each generation's commands, as its register interface defines them and Vela
// 5.0's register listing names them (`vela --verbose-register-command-stream`): which bits of a
// command hold which field, and the names of enumerated values. The command sets (command_set)
// attach them to their commands; the listing formatter (harness/report/register_listing) prints
// them for any architecture. Plain C++.

#include <map>

#include "sim/arch/command_set.h"

namespace npusim::arch {

// Architecture 1.x (Ethos-U55, U65): Vela 5.0's ethos_u55_interface.
std::map<CommandId, FieldList> ethosU55CommandFields();
// Architecture 2.x (Ethos-U85): Vela 5.0's ethos_u85_interface (ethos-u85.md 3.2-3.4).
std::map<CommandId, FieldList> ethosU85CommandFields();

} // namespace npusim::arch
