// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writes Vela-style .tflite files (the demo network and test models).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npusim::io {

struct TensorSpec {
  std::string name;
  std::vector<int32_t> shape;
  int type = 9;                         // TFLite TensorType (9 = INT8, 3 = UINT8)
  std::vector<uint8_t> data;            // constant data (empty = none)
  int64_t arenaOffset = -1;             // OfflineMemoryAllocation entry
  float scale = 0.0f;                   // 0 = no quantisation parameters
  int64_t zeroPoint = 0;
};

struct OperatorSpec {
  int builtinCode = 32;                 // 32 = CUSTOM
  std::string customCode;               // "ethos-u" for NPU operators
  std::vector<int32_t> inputs, outputs;
};

struct ModelSpec {
  std::string description = "Vela 3.10.0 Optimised";
  std::vector<TensorSpec> tensors;
  std::vector<OperatorSpec> operators;
  std::vector<int32_t> inputs, outputs;
  bool offlineAllocation = true;
};

std::vector<uint8_t> writeTflite(const ModelSpec& spec);

} // namespace npusim::io
