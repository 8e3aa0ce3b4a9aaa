// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Vela-compiled network: operators in execution order, NPU command streams, tensors.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/npu_config.h"

namespace npusim::io {

// Byte range inside the loaded file.
struct FileRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct TensorInfo {
  int index = 0;
  std::string name;
  std::vector<int32_t> shape;
  std::string type;                    // TFLite type name, e.g. "INT8"
  uint32_t elementBytes = 1;           // 0 for types without a fixed size
  std::vector<float> scale;
  std::vector<int64_t> zeroPoint;
  std::optional<int64_t> arenaOffset;  // from OfflineMemoryAllocation (-1 = not in arena)
  std::optional<FileRange> data;       // constant data inside the file
  bool isVariable = false;             // state kept across inferences (e.g. an SVDF's activation state)
  uint64_t elements() const;
  uint64_t bytes() const { return elements() * elementBytes; }
};

// The 32-byte "COP1" driver header in front of an Ethos-U command stream.
struct CopHeader {
  uint32_t configWord = 0;   // CONFIG register value the stream was compiled for
  uint32_t idWord = 0;       // ID register value (architecture version)
  uint64_t configOffset = 0; // file offset of the CONFIG word
  uint32_t product = 0;      // 0 = Ethos-U55, 1 = Ethos-U65, 2 = Ethos-U85
  uint32_t macs = 0;         // MACs per cycle, all cores
  uint32_t shramKb = 0;      // the CONFIG fields the architecture's layout has (0 otherwise)
  uint32_t sramPorts = 0, extPorts = 0, weightDecoders = 0;
  const arch::NpuConfig* hardware = nullptr; // the configuration product and MAC count name
  uint32_t archMajor = 0, archMinor = 0, archPatch = 0;
  uint32_t streamWords = 0;  // command-stream length in 32-bit words
};

// One `ethos-u` custom operator.
struct NpuOp {
  CopHeader header;
  FileRange commandStreamTensor; // the whole driver payload
  FileRange commands;            // the command words only
  // Inputs 0-3: Vela 3.10 names them <sg>_cs, <sg>_flash, <sg>_scratch, <sg>_scratch_fast, Vela 5.0
  // ethos_u_command_stream, read_only, scratch, scratch_fast; read by position. Without a fast
  // scratch area (the staging area is the arena: Vela 5.0's U85 Shared_Sram, Sram_Only) input 3
  // repeats input 2 and region 2 is the arena's tensor.
  int commandStreamTensorIndex = -1, flashTensorIndex = -1, scratchTensorIndex = -1, scratchFastTensorIndex = -1;
  FileRange flash;               // region 0 contents
  uint64_t flashSize = 0, scratchSize = 0, scratchFastSize = 0;
};

enum class OperatorKind : uint8_t { Npu, Cpu };

struct Operator {
  size_t index = 0;              // position in the subgraph (= execution order)
  OperatorKind kind = OperatorKind::Cpu;
  std::string opName;            // builtin name, or the custom code ("ethos-u")
  int builtinCode = 0;
  std::vector<int> inputs, outputs; // tensor indices (-1 = optional input absent)
  NpuOp npu;                     // valid when kind == Npu
};

struct CompiledNetwork {
  std::string path;
  std::vector<uint8_t> bytes;    // the whole file
  std::string description;
  std::string velaVersion;       // metadata "vela_version", if any
  size_t subgraphCount = 0;
  std::vector<TensorInfo> tensors;
  std::vector<Operator> operators;
  std::vector<int> inputs, outputs;
  std::vector<int32_t> offlineAllocation; // raw OfflineMemoryAllocation words (empty if absent)

  const uint8_t* at(const FileRange& r) const { return bytes.data() + r.offset; }
  size_t npuOperatorCount() const;
  // The configuration the first ethos-u operator was compiled for; null without one.
  const arch::NpuConfig* hardware() const;
};

// Loads and verifies a Vela-compiled .tflite. Throws InputError naming the file and byte
// offset for a truncated or corrupt file, a model without an `ethos-u` operator, or a bad
// COP1 header (tag, config word, architecture version, stream length).
CompiledNetwork loadNetwork(const std::string& path);
CompiledNetwork loadNetworkFromBytes(std::vector<uint8_t> bytes, const std::string& displayName);
// Loads a TFLite model as above but also without an `ethos-u` operator (the source model Vela
// compiled from, read for its operator and tensor names).
CompiledNetwork loadSourceModel(const std::string& path);

// Parses a COP1 driver payload; `fileOffset` locates it in `file` for error messages.
CopHeader parseCopHeader(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset,
                         uint64_t* commandsOffset);

// TFLite builtin operator name for a code ("BUILTIN_<n>" for codes past the known table).
std::string builtinOperatorName(int code);
// TFLite tensor type name and element size.
std::string tensorTypeName(int type);
uint32_t tensorTypeBytes(int type);

} // namespace npusim::io
