// SPDX-License-Identifier: Apache-2.0
#pragma once
// The built-in demo network: a small synthetic CNN compiled by hand into a Vela-style model.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/io/compiled_network.h"

namespace npusim::io {

// A .tflite holding one ethos-u operator for ethos-u55-<macs>: 32x32x3 int8 input ->
// conv 3x3/2 (weights streamed from flash) -> depthwise 3x3 -> conv 1x1 -> max-pool 2x2/2 ->
// conv 1x1 -> 8x8x64 output, with weight DMAs into double buffers overlapping compute.
// Weight and scale bytes are deterministic pseudo-random data of realistic length; their
// values are not meaningful.
std::vector<uint8_t> buildDemoNetworkTflite(uint32_t macs = 128);

// The model at `path`, or the demo network (named "<demo>") when `path` is empty.
CompiledNetwork loadModelOrDemo(const std::string& path);

} // namespace npusim::io
