// SPDX-License-Identifier: Apache-2.0
#include "sim/io/tflite_writer.h"

#include <map>

#include "tflite_subset_generated.h"

namespace npusim::io {

std::vector<uint8_t> writeTflite(const ModelSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb(1024);
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers;
  buffers.push_back(tflite::CreateBuffer(fbb)); // buffer 0: always empty

  auto dataBuffer = [&](const std::vector<uint8_t>& data) {
    fbb.ForceVectorAlignment(data.size(), sizeof(uint8_t), 16);
    auto vec = fbb.CreateVector(data);
    buffers.push_back(tflite::CreateBuffer(fbb, vec));
    return static_cast<uint32_t>(buffers.size() - 1);
  };

  // 1. Tensors (constant data goes to its own buffer).
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  for (const TensorSpec& t : spec.tensors) {
    const uint32_t buffer = t.data.empty() ? 0 : dataBuffer(t.data);
    flatbuffers::Offset<tflite::QuantizationParameters> quant;
    if (t.scale != 0.0f) {
      const std::vector<float> scale{t.scale};
      const std::vector<int64_t> zeroPoint{t.zeroPoint};
      quant = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scale, &zeroPoint);
    }
    tensors.push_back(tflite::CreateTensorDirect(fbb, &t.shape, static_cast<int8_t>(t.type), buffer, t.name.c_str(), quant));
  }

  // 2. Operator codes and operators.
  std::map<std::pair<int, std::string>, uint32_t> codeIndex;
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes;
  std::vector<flatbuffers::Offset<tflite::Operator>> operators;
  for (const OperatorSpec& op : spec.operators) {
    const auto key = std::make_pair(op.builtinCode, op.customCode);
    auto it = codeIndex.find(key);
    if (it == codeIndex.end()) {
      const auto deprecated = static_cast<int8_t>(op.builtinCode < 127 ? op.builtinCode : 127);
      codes.push_back(tflite::CreateOperatorCodeDirect(fbb, deprecated, op.customCode.empty() ? nullptr : op.customCode.c_str(),
                                                       1, op.builtinCode));
      it = codeIndex.emplace(key, static_cast<uint32_t>(codes.size() - 1)).first;
    }
    std::vector<uint8_t> options;
    if (op.customCode == "ethos-u") {
      options = {0x01, 0x04, 0x01}; // flexbuffer holding the integer 1 (CO_TYPE_ETHOSU)
    }
    operators.push_back(tflite::CreateOperatorDirect(fbb, it->second, &op.inputs, &op.outputs,
                                                     options.empty() ? nullptr : &options, 0));
  }
  auto subgraph = tflite::CreateSubGraphDirect(fbb, &tensors, &spec.inputs, &spec.outputs, &operators, "main");
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{subgraph};

  // 3. Metadata: OfflineMemoryAllocation [version 0, subgraphs, tensors, offsets...].
  std::vector<flatbuffers::Offset<tflite::Metadata>> metadata;
  if (spec.offlineAllocation) {
    std::vector<uint8_t> words;
    auto push = [&](int64_t v) {
      const auto u = static_cast<uint32_t>(static_cast<int32_t>(v));
      for (int i = 0; i < 4; ++i) words.push_back(static_cast<uint8_t>(u >> (8 * i)));
    };
    push(0);
    push(1);
    push(static_cast<int64_t>(spec.tensors.size()));
    for (const TensorSpec& t : spec.tensors) push(t.arenaOffset);
    const uint32_t buffer = dataBuffer(words);
    metadata.push_back(tflite::CreateMetadataDirect(fbb, "OfflineMemoryAllocation", buffer));
  }
  auto model = tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, spec.description.c_str(), &buffers, nullptr,
                                         &metadata);
  tflite::FinishModelBuffer(fbb, model);
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace npusim::io
