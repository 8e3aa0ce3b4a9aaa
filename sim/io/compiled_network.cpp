// SPDX-License-Identifier: Apache-2.0
#include "sim/io/compiled_network.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/common/error.h"
#include "tflite_subset_generated.h"

namespace npusim::io {
namespace {

constexpr std::array<const char*, 162> kBuiltinNames{
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
    "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL",
    "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH",
    "SVDF", "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN",
    "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN",
    "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU",
    "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL",
    "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
    "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD",
    "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN",
    "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE",
    "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE",
    "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE",
    "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
    "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
    "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
    "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
    "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU",
    "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
};

constexpr uint32_t kCop1 = 0x31504F43; // "COP1"
constexpr int kCustomCode = 32;

std::string hex32(uint32_t v) {
  std::ostringstream os;
  os << "0x" << std::hex;
  os.width(8);
  os.fill('0');
  os << v;
  return os.str();
}

uint32_t loadWord(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// Resolves the file range of a buffer's data (inline vector or offset/size outside the
// flatbuffer); empty when the buffer has no data.
std::optional<FileRange> bufferRange(const tflite::Buffer* buffer, const uint8_t* base, size_t fileSize,
                                     const std::string& file) {
  if (buffer == nullptr) {
    return std::nullopt;
  }
  if (buffer->data() != nullptr && buffer->data()->size() > 0) {
    return FileRange{static_cast<uint64_t>(buffer->data()->Data() - base), buffer->data()->size()};
  }
  if (buffer->offset() > 1) {
    if (buffer->offset() > fileSize || buffer->size() > fileSize - buffer->offset()) {
      throwAtOffset(file, static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(buffer) - base),
                    "buffer data [" + std::to_string(buffer->offset()) + ", +" + std::to_string(buffer->size()) +
                        ") lies outside the file (" + std::to_string(fileSize) + " bytes)");
    }
    return FileRange{buffer->offset(), buffer->size()};
  }
  return std::nullopt;
}

uint64_t tableOffset(const void* table, const uint8_t* base) {
  return static_cast<uint64_t>(static_cast<const uint8_t*>(table) - base);
}

// True when [p, p + n) is well-formed UTF-8: no overlong forms, surrogates or code points past
// U+10FFFF.
bool isUtf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    const uint8_t lead = p[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // Sequence length from the lead byte; the smallest code point that needs that length.
    const size_t len = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) {
      return false;
    }
    if (n - i < len) {
      return false;
    }
    constexpr std::array<uint32_t, 5> kLeast{0, 0, 0x80, 0x800, 0x10000};
    uint32_t cp = lead & (0x7Fu >> len);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) {
        return false;
      }
      cp = cp << 6 | (p[i + k] & 0x3Fu);
    }
    if (cp < kLeast[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

// Text from the file, which must be UTF-8 (names and versions end up in JSON reports).
std::string utf8Text(const uint8_t* data, size_t size, const uint8_t* base, const std::string& file,
                     const std::string& what) {
  if (!isUtf8(data, size)) {
    throwAtOffset(file, static_cast<uint64_t>(data - base), what + " is not valid UTF-8");
  }
  return std::string(reinterpret_cast<const char*>(data), size);
}

std::string stringField(const flatbuffers::String* s, const uint8_t* base, const std::string& file,
                        const std::string& what) {
  return s == nullptr ? std::string() : utf8Text(s->Data(), s->size(), base, file, what);
}

// True when the tensor's elements, and its bytes, fit the 32-bit address space (corrupted
// shapes would otherwise overflow the 64-bit sizes that region limits and costs use).
bool fitsAddressSpace(const TensorInfo& t) {
  constexpr uint64_t kLimit = uint64_t{1} << 32;
  uint64_t n = std::max<uint64_t>(t.elementBytes, 1);
  for (int32_t d : t.shape) {
    n *= static_cast<uint64_t>(d > 0 ? d : 1);
    if (n > kLimit) {
      return false;
    }
  }
  return true;
}

} // namespace

std::string builtinOperatorName(int code) {
  if (code >= 0 && static_cast<size_t>(code) < kBuiltinNames.size()) {
    return kBuiltinNames[static_cast<size_t>(code)];
  }
  return "BUILTIN_" + std::to_string(code);
}

std::string tensorTypeName(int type) {
  static constexpr std::array<const char*, 19> kNames{
      "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
      "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4", "BFLOAT16"};
  if (type >= 0 && static_cast<size_t>(type) < kNames.size()) {
    return kNames[static_cast<size_t>(type)];
  }
  return "TYPE_" + std::to_string(type);
}

uint32_t tensorTypeBytes(int type) {
  static constexpr std::array<uint32_t, 19> kBytes{4, 2, 4, 1, 8, 0, 1, 2, 8, 1, 8, 16, 8, 0, 0, 4, 2, 1, 2};
  if (type >= 0 && static_cast<size_t>(type) < kBytes.size()) {
    return kBytes[static_cast<size_t>(type)];
  }
  return 0;
}

uint64_t TensorInfo::elements() const {
  uint64_t n = 1;
  for (int32_t d : shape) {
    n *= static_cast<uint64_t>(d > 0 ? d : 1);
  }
  return n;
}

const arch::NpuConfig* CompiledNetwork::hardware() const {
  for (const Operator& op : operators) {
    if (op.kind == OperatorKind::Npu) return op.npu.header.hardware;
  }
  return nullptr;
}

size_t CompiledNetwork::npuOperatorCount() const {
  size_t n = 0;
  for (const Operator& op : operators) {
    n += op.kind == OperatorKind::Npu ? 1 : 0;
  }
  return n;
}

CopHeader parseCopHeader(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset,
                         uint64_t* commandsOffset) {
  auto fail = [&](size_t at, const std::string& m) { throwAtOffset(file, fileOffset + at, m); };
  if (size < 4) {
    fail(0, "command-stream tensor has " + std::to_string(size) + " bytes, too short for a COP1 header");
  }
  if (size % 4 != 0) {
    fail(size - size % 4, "driver payload length " + std::to_string(size) + " is not a multiple of 4");
  }
  const uint32_t tag = loadWord(data);
  if (tag != kCop1) {
    fail(0, "driver payload starts with " + hex32(tag) + ", expected the COP1 tag " + hex32(kCop1));
  }
  CopHeader h;
  bool haveConfig = false, haveStream = false;
  size_t configPos = 0;
  size_t pos = 4;
  while (pos < size) {
    const uint32_t word = loadWord(data + pos);
    const uint32_t action = word & 0xFF;
    switch (action) {
    case 0x01: { // OPTIMIZER_CONFIG
      if (pos + 12 > size) {
        fail(pos, "truncated OPTIMIZER_CONFIG driver action");
      }
      h.configWord = loadWord(data + pos + 4);
      h.idWord = loadWord(data + pos + 8);
      configPos = pos + 4;
      haveConfig = true;
      pos += 12;
      break;
    }
    case 0x02: { // COMMAND_STREAM
      if (haveStream) {
        fail(pos, "second COMMAND_STREAM driver action");
      }
      const uint32_t words = ((word >> 8) & 0xFF) << 16 | (word >> 16);
      const uint64_t bytes = uint64_t{words} * 4;
      if (bytes > size - pos - 4) {
        fail(pos, "COMMAND_STREAM length " + std::to_string(words) + " words (" + std::to_string(bytes) +
                      " bytes) exceeds the " + std::to_string(size - pos - 4) + " bytes left in the tensor");
      }
      h.streamWords = words;
      *commandsOffset = fileOffset + pos + 4;
      haveStream = true;
      pos += 4 + bytes;
      break;
    }
    case 0x05: // NOP
      pos += 4;
      break;
    case 0x03:
    case 0x04:
      fail(pos, std::string("driver action ") + (action == 3 ? "READ_APB" : "DUMP_SHRAM") +
                    " is not supported (the Ethos-U driver rejects it)");
      break;
    default:
      fail(pos, "unknown driver action " + std::to_string(action) + " in word " + hex32(word));
    }
  }
  if (!haveConfig) {
    fail(4, "COP1 payload has no OPTIMIZER_CONFIG action (cannot tell the MAC configuration)");
  }
  if (!haveStream) {
    fail(4, "COP1 payload has no COMMAND_STREAM action");
  }
  // CONFIG word: [31:28] product names the architecture, whose layout says where the other
  // fields are (command-stream doc 8; ethos-u85.md 2.2).
  h.configOffset = configPos == 0 ? fileOffset : fileOffset + configPos;
  const auto failConfig = [&](const std::string& m) {
    throwAtOffset(file, h.configOffset, "CONFIG word " + hex32(h.configWord) + " " + m);
  };
  h.product = h.configWord >> 28;
  const arch::Architecture* architecture = arch::findArchitecture(h.product);
  if (architecture != nullptr && !architecture->loadable) {
    failConfig("is an " + std::string(architecture->name) + " model (product " + std::to_string(h.product) +
               "); npusim does not support the " + std::string(architecture->name) + " yet (it reads products " +
               arch::loadableProducts() + ")");
  }
  if (architecture == nullptr) {
    failConfig("targets product " + std::to_string(h.product) + "; npusim reads products " + arch::loadableProducts());
  }
  const arch::ConfigWordLayout& layout = architecture->configWord;
  const std::string variant(architecture->name);
  h.macs = 1u << layout.log2Macs.read(h.configWord);
  h.shramKb = layout.shramKb.read(h.configWord);
  if (layout.log2SramPorts.present()) h.sramPorts = 1u << layout.log2SramPorts.read(h.configWord);
  if (layout.log2ExtPorts.present()) h.extPorts = 1u << layout.log2ExtPorts.read(h.configWord);
  h.weightDecoders = layout.log2WeightDecoders.present() ? 1u << layout.log2WeightDecoders.read(h.configWord) : 0;
  h.hardware = arch::findNpuConfig(*architecture, h.macs);
  if (h.hardware == nullptr) {
    failConfig("has " + std::to_string(h.macs) + " MACs/cycle; the " + variant + " comes as " +
               arch::npuConfigNames(*architecture));
  }
  const uint32_t version = layout.streamVersion.read(h.configWord);
  if (version != architecture->commandStreamVersion) {
    failConfig("has command-stream version " + std::to_string(version) + ", expected " +
               std::to_string(architecture->commandStreamVersion) + " for the " + variant);
  }
  if (layout.customDma.read(h.configWord) != 0) {
    failConfig("requires custom DMA, which npusim's " + variant + " does not have");
  }
  // Bits outside the layout's fields are reserved.
  const uint32_t known = layout.log2Macs.place(~0u) | layout.streamVersion.place(~0u) | layout.shramKb.place(~0u) |
                         layout.log2SramPorts.place(~0u) | layout.log2ExtPorts.place(~0u) |
                         layout.log2WeightDecoders.place(~0u) | layout.customDma.place(~0u) | layout.product.place(~0u);
  if ((h.configWord & ~known) != 0) {
    failConfig("sets reserved bits " + hex32(h.configWord & ~known) + " of the " + variant + "'s CONFIG register");
  }
  // The fields beside the MAC count must be those of the configuration the MAC count names.
  const arch::NpuConfig& hw = *h.hardware;
  const auto sameAs = [&](const arch::ConfigField& field, uint32_t found, uint32_t expected, const char* what,
                          const char* unit) {
    if (field.present() && found != expected) {
      failConfig("has " + std::to_string(found) + " " + what + "; " + std::string(hw.name) + " has " +
                 std::to_string(expected) + unit + " (the COP1 header and the configuration its MAC count names disagree)");
    }
  };
  sameAs(layout.shramKb, h.shramKb, hw.shramKb, "KB of SHRAM", " KB");
  sameAs(layout.log2SramPorts, h.sramPorts, hw.sramPorts, "AXI SRAM ports", "");
  sameAs(layout.log2ExtPorts, h.extPorts, hw.extPorts, "AXI EXT ports", "");
  sameAs(layout.log2WeightDecoders, h.weightDecoders, hw.weightDecoders, "weight decoders", "");
  // The ID word's architecture must be the one the CONFIG word's product implements.
  h.archMajor = h.idWord >> 28;
  h.archMinor = (h.idWord >> 20) & 0xFF;
  h.archPatch = (h.idWord >> 16) & 0xF;
  if (h.archMajor != architecture->archMajor) {
    throwAtOffset(file, h.configOffset + 4,
                  "ID word " + hex32(h.idWord) + " names architecture " + std::to_string(h.archMajor) + "." +
                      std::to_string(h.archMinor) + "." + std::to_string(h.archPatch) + ", but the CONFIG word " +
                      hex32(h.configWord) + " names the " + variant + ", which implements architecture " +
                      std::to_string(architecture->archMajor) + ".x: the COP1 header disagrees with itself");
  }
  return h;
}

namespace {

std::vector<uint8_t> readModelFile(const std::string& path) {
  InputError::Location loc;
  loc.file = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(loc, "cannot open file");
  }
  // Opening a directory succeeds; reading it (or a file with I/O errors) fails.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(loc, "cannot read file (Is a directory)");
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0 || !in) {
    throw InputError(loc, "cannot read file");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) {
    throw InputError(loc, "cannot read file");
  }
  return bytes;
}

CompiledNetwork parseModel(std::vector<uint8_t> bytes, const std::string& displayName, bool requireNpu) {
  CompiledNetwork net;
  net.path = displayName;
  net.bytes = std::move(bytes);
  const std::string& file = net.path;
  const uint8_t* base = net.bytes.data();
  const size_t size = net.bytes.size();

  // 1. Structural checks, then full flatbuffer verification before any access.
  if (size < 8) {
    throwAtOffset(file, size, "truncated: " + std::to_string(size) + " bytes is too short for a TFLite model");
  }
  if (!flatbuffers::BufferHasIdentifier(base, tflite::ModelIdentifier())) {
    throwAtOffset(file, 4, "not a TFLite model (file identifier is not \"TFL3\")");
  }
  if (loadWord(base) >= size) {
    throwAtOffset(file, 0, "root table offset " + std::to_string(loadWord(base)) + " lies past the end of the file (" +
                               std::to_string(size) + " bytes); truncated?");
  }
  flatbuffers::Verifier verifier(base, size, 64, 1000000);
  if (!tflite::VerifyModelBuffer(verifier)) {
    throwAtOffset(file, 0, "flatbuffer verification failed: corrupt or truncated TFLite model");
  }
  const tflite::Model* model = tflite::GetModel(base);
  if (model->subgraphs() == nullptr || model->subgraphs()->size() == 0) {
    throwAtOffset(file, tableOffset(model, base), "model has no subgraph");
  }
  net.subgraphCount = model->subgraphs()->size();
  net.description = stringField(model->description(), base, file, "model description");
  const auto* buffers = model->buffers();
  const size_t bufferCount = buffers ? buffers->size() : 0;
  auto bufferAt = [&](uint32_t index, const void* owner) -> const tflite::Buffer* {
    if (index >= bufferCount) {
      throwAtOffset(file, tableOffset(owner, base),
                    "buffer index " + std::to_string(index) + " out of range (" + std::to_string(bufferCount) +
                        " buffers)");
    }
    return buffers->Get(index);
  };

  // 2. Metadata: vela_version and the OfflineMemoryAllocation plan.
  if (model->metadata() != nullptr) {
    for (const tflite::Metadata* md : *model->metadata()) {
      if (md->name() == nullptr) {
        continue;
      }
      const auto range = bufferRange(bufferAt(md->buffer(), md), base, size, file);
      if (!range) {
        continue;
      }
      if (md->name()->str() == "vela_version") {
        uint64_t length = range->size;
        while (length > 0 && base[range->offset + length - 1] == '\0') {
          --length;
        }
        net.velaVersion = utf8Text(base + range->offset, length, base, file, "vela_version metadata");
      } else if (md->name()->str() == "OfflineMemoryAllocation") {
        if (range->size % 4 != 0 || range->size < 12) {
          throwAtOffset(file, range->offset, "OfflineMemoryAllocation metadata has " + std::to_string(range->size) +
                                                 " bytes; expected a whole number of int32 words, at least 3");
        }
        for (uint64_t i = 0; i < range->size; i += 4) {
          net.offlineAllocation.push_back(static_cast<int32_t>(loadWord(base + range->offset + i)));
        }
      }
    }
  }

  // 3. Tensors of the main subgraph.
  const tflite::SubGraph* sg = model->subgraphs()->Get(0);
  const size_t tensorCount = sg->tensors() ? sg->tensors()->size() : 0;
  for (size_t i = 0; i < tensorCount; ++i) {
    const tflite::Tensor* t = sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(i));
    TensorInfo info;
    info.index = static_cast<int>(i);
    info.name = stringField(t->name(), base, file, "tensor " + std::to_string(i) + " name");
    if (t->shape()) {
      info.shape.assign(t->shape()->begin(), t->shape()->end());
    }
    info.type = tensorTypeName(t->type());
    info.elementBytes = tensorTypeBytes(t->type());
    if (!fitsAddressSpace(info)) {
      std::string dims;
      for (int32_t d : info.shape) {
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      }
      throwAtOffset(file, tableOffset(t, base),
                    "tensor " + std::to_string(i) + " '" + info.name + "' of shape [" + dims + "] (" + info.type +
                        ") is larger than the 4 GiB address space of the host CPU and the Ethos-U NPU");
    }
    if (const auto* q = t->quantization()) {
      if (q->scale()) info.scale.assign(q->scale()->begin(), q->scale()->end());
      if (const auto* zp = q->zero_point()) {
        // flatbuffers 2.0's verifier checks only the 4-byte alignment of a vector's length;
        // reading 8-byte elements from a misaligned vector is undefined behaviour (found by
        // fuzz_tflite_loader). Buffers are 16-byte aligned, so the file offset decides.
        static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ % alignof(int64_t) == 0);
        if (tableOffset(zp->Data(), base) % alignof(int64_t) != 0) {
          throwAtOffset(file, tableOffset(zp->Data(), base),
                        "zero points of tensor " + std::to_string(i) + " are not 8-byte aligned (corrupt flatbuffer)");
        }
        info.zeroPoint.assign(zp->begin(), zp->end());
      }
    }
    info.data = bufferRange(bufferAt(t->buffer(), t), base, size, file);
    info.isVariable = t->is_variable();
    net.tensors.push_back(std::move(info));
  }
  if (!net.offlineAllocation.empty()) {
    const auto& a = net.offlineAllocation;
    if (a[0] != 0 || a[2] < 0 || a.size() != 3 + static_cast<size_t>(a[2]) ||
        static_cast<size_t>(a[2]) < tensorCount) {
      throwAtOffset(file, 0, "OfflineMemoryAllocation metadata is inconsistent (version " + std::to_string(a[0]) +
                                 ", " + std::to_string(a[2]) + " tensors, " + std::to_string(a.size() - 3) +
                                 " offsets; subgraph 0 has " + std::to_string(tensorCount) + " tensors)");
    }
    for (size_t i = 0; i < tensorCount; ++i) {
      net.tensors[i].arenaOffset = a[3 + i];
    }
  }
  auto checkTensorList = [&](const flatbuffers::Vector<int32_t>* list, const void* owner, bool allowAbsent) {
    std::vector<int> out;
    if (list == nullptr) {
      return out;
    }
    for (int32_t idx : *list) {
      if ((idx < 0 && !(allowAbsent && idx == -1)) || (idx >= 0 && static_cast<size_t>(idx) >= tensorCount)) {
        throwAtOffset(file, tableOffset(owner, base),
                      "tensor index " + std::to_string(idx) + " out of range (" + std::to_string(tensorCount) +
                          " tensors)");
      }
      out.push_back(idx);
    }
    return out;
  };
  net.inputs = checkTensorList(sg->inputs(), sg, false);
  net.outputs = checkTensorList(sg->outputs(), sg, false);

  // 4. Operators in execution order.
  const size_t codeCount = model->operator_codes() ? model->operator_codes()->size() : 0;
  const size_t opCount = sg->operators() ? sg->operators()->size() : 0;
  for (size_t i = 0; i < opCount; ++i) {
    const tflite::Operator* top = sg->operators()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const uint64_t opOffset = tableOffset(top, base);
    if (top->opcode_index() >= codeCount) {
      throwAtOffset(file, opOffset, "operator " + std::to_string(i) + " uses opcode index " +
                                        std::to_string(top->opcode_index()) + " of " + std::to_string(codeCount));
    }
    const tflite::OperatorCode* code = model->operator_codes()->Get(top->opcode_index());
    Operator op;
    op.index = i;
    op.builtinCode = std::max<int>(code->deprecated_builtin_code(), code->builtin_code());
    op.inputs = checkTensorList(top->inputs(), top, true);
    op.outputs = checkTensorList(top->outputs(), top, false);
    const std::string custom = stringField(code->custom_code(), base, file, "custom operator code");
    op.opName = op.builtinCode == kCustomCode && !custom.empty() ? custom : builtinOperatorName(op.builtinCode);
    if (op.builtinCode == kCustomCode && custom == "ethos-u") {
      op.kind = OperatorKind::Npu;
      if (op.inputs.size() < 4 || op.inputs[0] < 0 || op.inputs[1] < 0 || op.inputs[2] < 0 || op.inputs[3] < 0) {
        throwAtOffset(file, opOffset, "ethos-u operator " + std::to_string(i) + " has " +
                                          std::to_string(op.inputs.size()) +
                                          " inputs; expected command stream, flash, scratch, scratch_fast, ...");
      }
      NpuOp& npu = op.npu;
      npu.commandStreamTensorIndex = op.inputs[0];
      npu.flashTensorIndex = op.inputs[1];
      npu.scratchTensorIndex = op.inputs[2];
      npu.scratchFastTensorIndex = op.inputs[3];
      const TensorInfo& cs = net.tensors[static_cast<size_t>(npu.commandStreamTensorIndex)];
      if (!cs.data) {
        throwAtOffset(file, opOffset, "ethos-u operator " + std::to_string(i) + ": command-stream tensor '" + cs.name +
                                          "' has no data");
      }
      npu.commandStreamTensor = *cs.data;
      uint64_t commandsOffset = 0;
      npu.header = parseCopHeader(net.bytes.data() + cs.data->offset, cs.data->size, file, cs.data->offset, &commandsOffset);
      npu.commands = FileRange{commandsOffset, uint64_t{npu.header.streamWords} * 4};
      const TensorInfo& flash = net.tensors[static_cast<size_t>(npu.flashTensorIndex)];
      npu.flash = flash.data.value_or(FileRange{});
      npu.flashSize = flash.data ? flash.data->size : flash.bytes();
      npu.scratchSize = net.tensors[static_cast<size_t>(npu.scratchTensorIndex)].bytes();
      npu.scratchFastSize = net.tensors[static_cast<size_t>(npu.scratchFastTensorIndex)].bytes();
    }
    net.operators.push_back(std::move(op));
  }
  if (requireNpu && net.npuOperatorCount() == 0) {
    throwAtOffset(file, tableOffset(sg, base), "model has no ethos-u operator: compile it with Vela first");
  }
  return net;
}

} // namespace

CompiledNetwork loadNetwork(const std::string& path) { return parseModel(readModelFile(path), path, true); }

CompiledNetwork loadNetworkFromBytes(std::vector<uint8_t> bytes, const std::string& displayName) {
  return parseModel(std::move(bytes), displayName, true);
}

CompiledNetwork loadSourceModel(const std::string& path) { return parseModel(readModelFile(path), path, false); }

} // namespace npusim::io
