// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the libFuzzer targets: the only accepted failure mode is InputError, and its
// message must keep the one-line contract of sim/common/error.h. Anything else (another
// exception, a crash, a sanitizer report, a multi-line message) is a finding.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/common/error.h"

namespace npusim::fuzz {

// The configurations fuzz_cmdstream decodes for, chosen by bits 1-2 of its first input byte
// (make_seeds writes each seed stream with its model's): both command sets and both ways to
// read weight streams (one per core, one per U85 weight decoder).
constexpr const char* kCmdstreamConfigs[] = {"ethos-u55-128", "ethos-u55-256", "ethos-u85-256", "ethos-u85-1024"};

// Runs `body`; an InputError is fine as long as its message is one line of printable text
// that starts with `file`. Other exceptions escape to libFuzzer, which reports them.
template <typename Body>
void acceptOnlyInputError(const std::string& file, Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    const std::string what = e.what();
    const bool printable = what.find_first_of("\n\r") == std::string::npos;
    if (!printable || what.rfind(file, 0) != 0) {
      std::fprintf(stderr, "InputError breaks the message contract: %s\n", what.c_str());
      std::abort();
    }
  }
}

} // namespace npusim::fuzz
