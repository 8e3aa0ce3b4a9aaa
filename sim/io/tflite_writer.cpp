// SPDX-License-Identifier: Apache-2.0
#include "sim/io/tflite_writer.h"

#include <algorithm>
#include <map>

#include "sim/common/error.h"
#include "sim/io/compiled_network.h"
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

namespace {

void storeLittleEndian(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  for (size_t i = 0; i < 4; ++i) bytes.at(at + i) = static_cast<uint8_t>(value >> (8 * i));
}

} // namespace

std::vector<uint8_t> replaceTensorData(const std::vector<uint8_t>& file, const std::string& displayName, int tensor,
                                       const std::vector<uint8_t>& data) {
  const uint8_t* base = file.data();
  const auto offsetOf = [base](const void* p) { return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - base); };
  const tflite::Model* model = tflite::GetModel(base);
  const tflite::SubGraph* sg = model->subgraphs()->Get(0);
  const tflite::Tensor* t = sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(tensor));
  const std::string what = "tensor " + std::to_string(tensor);
  const uint32_t index = t->buffer();
  const tflite::Buffer* buffer = model->buffers()->Get(index);
  if (buffer->data() == nullptr || buffer->data()->size() == 0) {
    throwAtOffset(displayName, offsetOf(t), what + " has no data vector in its buffer to replace");
  }
  for (const tflite::SubGraph* g : *model->subgraphs()) {
    for (const tflite::Tensor* other : *g->tensors()) {
      if (other != t && other->buffer() == index) {
        throwAtOffset(displayName, offsetOf(other), "another tensor shares buffer " + std::to_string(index) + " of " + what);
      }
    }
  }
  if (model->metadata() != nullptr) {
    for (const tflite::Metadata* md : *model->metadata()) {
      if (md->buffer() == index) {
        throwAtOffset(displayName, offsetOf(md), "a metadata entry shares buffer " + std::to_string(index) + " of " + what);
      }
    }
  }
  const uint32_t oldBytes = buffer->data()->size();
  if (t->shape() == nullptr || t->shape()->size() != 1 || tensorTypeBytes(t->type()) != 1 ||
      t->shape()->Get(0) != static_cast<int32_t>(oldBytes)) {
    throwAtOffset(displayName, offsetOf(t), what + " is not a one-dimensional byte tensor of its " +
                                                std::to_string(oldBytes) + " bytes");
  }
  // The new vector: its length word, then its bytes from a 16-byte boundary; the file ends on a
  // 4-byte boundary, as flatbuffers aligns its own.
  std::vector<uint8_t> out(file);
  size_t vector = out.size();
  while ((vector + sizeof(uint32_t)) % 16 != 0) ++vector;
  const uint64_t end = (uint64_t{vector} + sizeof(uint32_t) + data.size() + 3) / 4 * 4;
  if (end > FLATBUFFERS_MAX_BUFFER_SIZE) {
    throwAtOffset(displayName, offsetOf(t), what + " with " + std::to_string(data.size()) +
                                                " bytes would make the model larger than a flatbuffer can be (2 GiB)");
  }
  out.resize(end, 0);
  storeLittleEndian(out, vector, static_cast<uint32_t>(data.size()));
  std::copy(data.begin(), data.end(), out.begin() + static_cast<std::ptrdiff_t>(vector + sizeof(uint32_t)));
  // The buffer's data field (an offset forward from where it is stored) and the shape.
  const uint64_t field = offsetOf(reinterpret_cast<const flatbuffers::Table*>(buffer)->GetAddressOf(tflite::Buffer::VT_DATA));
  storeLittleEndian(out, field, static_cast<uint32_t>(vector - field));
  storeLittleEndian(out, offsetOf(t->shape()->Data()), static_cast<uint32_t>(data.size()));
  return out;
}

} // namespace npusim::io
