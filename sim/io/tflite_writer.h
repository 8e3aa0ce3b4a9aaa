// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writes Vela-style .tflite files (the demo network and test models), and rewrites the data of
// one tensor of an existing model.

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

// A copy of the model file `file` (named `displayName` in errors) in which tensor `tensor` of the
// main subgraph holds `data`, a vector of bytes (such as an ethos-u operator's command stream,
// grown): `data` goes at the end of the file as a new vector, its first byte 16-byte aligned as
// TFLite's Buffer.data requires, the tensor's buffer points at it instead of its old data, and
// the tensor's shape, which must be one dimension counting its bytes, counts the new ones.
// Every field of the model stays where it was, those npusim's TFLite subset does not read
// included (a CPU operator's builtin options); the old data stays in place, unreferenced. The
// caller passes a verified model (loadNetwork). Throws InputError naming the file and the
// tensor's byte offset when its data is not a vector in its buffer (an offset/size buffer), when
// another tensor or metadata entry shares its buffer, or when its shape is not [bytes].
std::vector<uint8_t> replaceTensorData(const std::vector<uint8_t>& file, const std::string& displayName, int tensor,
                                       const std::vector<uint8_t>& data);

} // namespace npusim::io
