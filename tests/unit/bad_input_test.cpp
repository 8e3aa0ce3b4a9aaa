// SPDX-License-Identifier: Apache-2.0
// Every class of bad input raises an InputError that names the file, the byte offset and,
// inside a command stream, the command index.

#include <doctest/doctest.h>

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>

#include "sim/common/error.h"
#include "sim/io/decoded_network.h"
#include "sim/io/tflite_writer.h"
#include "support/fixtures.h"
#include "support/npu_model.h"
#include "tflite_subset_generated.h"
#include "support/hardware.h"
#include "support/u85_streams.h"

namespace npusim {
namespace {

using cmd::CommandStreamBuilder;
using cmd::Operation;

constexpr const char* kFile = "bad_model.tflite";

// A test model plus where its COP1 payload and command words sit in the file.
struct Model {
  std::vector<uint8_t> file;
  uint64_t payload = 0;   // file offset of the command-stream tensor data
  uint64_t commands = 0;  // file offset of the first command word
};

Model modelWithPayload(const std::vector<uint8_t>& payload, const test::ModelLayout& layout = {}) {
  Model m;
  m.file = test::buildNpuModel(payload, layout);
  m.payload = test::findBytes(m.file, payload);
  m.commands = m.payload + 32;
  return m;
}

Model modelWithStream(const std::vector<uint8_t>& stream, const test::ModelLayout& layout = {}) {
  return modelWithPayload(cmd::buildCop1Payload(test::u55(layout.macs), stream), layout);
}

// Position of the next command the builder will write.
struct Mark {
  uint32_t offset = 0;
  uint32_t index = 0;
};

Mark nextCommand(const CommandStreamBuilder& b) {
  Mark m;
  const auto& words = b.words();
  for (size_t i = 0; i < words.size(); i += arch::isCmd1(static_cast<uint16_t>(words[i])) ? 2 : 1) {
    ++m.index;
  }
  m.offset = static_cast<uint32_t>(words.size() * 4);
  return m;
}

std::optional<InputError> loadError(const std::vector<uint8_t>& bytes) {
  try {
    const io::CompiledNetwork net = io::loadNetworkFromBytes(bytes, kFile);
    io::decodeAll(net);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// Loads and decodes `bytes`, expecting an InputError at `offset` (and `command`) whose
// message contains `text`.
void checkRejected(const std::vector<uint8_t>& bytes, uint64_t offset, std::optional<uint32_t> command,
                   const std::string& text) {
  const std::optional<InputError> err = loadError(bytes);
  REQUIRE_MESSAGE(err.has_value(), "expected an InputError containing '" << text << "'");
  const std::string what = err->what();
  INFO("message: ", what);
  CHECK(err->where().file == kFile);
  CHECK(what.rfind(std::string(kFile) + ": byte " + std::to_string(offset) + " ", 0) == 0);
  REQUIRE(err->where().byteOffset.has_value());
  CHECK(*err->where().byteOffset == offset);
  if (command) {
    REQUIRE(err->where().commandIndex.has_value());
    CHECK(*err->where().commandIndex == *command);
    CHECK(what.find(", command " + std::to_string(*command) + ": ") != std::string::npos);
  } else {
    CHECK_FALSE(err->where().commandIndex.has_value());
  }
  CHECK(what.find(text) != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);
}

// A stream with one bad operation: `ok` operations, then `bad`; the error must name `bad`.
void checkBadOperation(const std::vector<Operation>& ok, const Operation& bad, const std::string& text,
                       const test::ModelLayout& layout = {}) {
  std::vector<Operation> ops = ok;
  ops.push_back(bad);
  const std::vector<uint8_t> stream = test::encodeOps(ops);
  // Regions unchecked, the largest SHRAM and two cores: decodes what the model's NPU refuses.
  const std::vector<Operation> decoded = test::decodeStream(stream, test::u65(512));
  REQUIRE(decoded.size() == ops.size() + 1);
  const Model m = modelWithStream(stream, layout);
  checkRejected(m.file, m.commands + decoded[ok.size()].byteOffset, decoded[ok.size()].commandIndex, text);
}

uint32_t loadWord(const std::vector<uint8_t>& b, uint64_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 | uint32_t{b[at + 3]} << 24;
}

void storeWord(std::vector<uint8_t>& b, uint64_t at, uint32_t w) {
  for (int i = 0; i < 4; ++i) {
    b[at + static_cast<uint64_t>(i)] = static_cast<uint8_t>(w >> (8 * i));
  }
}

// File offset of the first subgraph table.
uint64_t subgraphOffset(const std::vector<uint8_t>& bytes) {
  const tflite::Model* model = tflite::GetModel(bytes.data());
  return static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(model->subgraphs()->Get(0)) - bytes.data());
}

std::vector<uint8_t> validStream() { return test::encodeOps({test::sampleDma(), test::sampleConv()}); }

} // namespace

TEST_CASE("sanity: the valid test model loads and decodes") {
  const Model m = modelWithStream(validStream());
  const io::CompiledNetwork net = io::loadNetworkFromBytes(m.file, kFile);
  REQUIRE(net.operators.size() == 1);
  CHECK(net.operators[0].npu.commands.offset == m.commands);
  const auto decoded = io::decodeAll(net);
  REQUIRE(decoded.size() == 1);
  CHECK(decoded[0].operations.size() == 3);
  CHECK_FALSE(loadError(m.file).has_value());
}

TEST_CASE("bad input: truncated file") {
  const std::vector<uint8_t> good = modelWithStream(validStream()).file;
  checkRejected({good.begin(), good.begin() + 6}, 6, std::nullopt, "truncated");
  const std::vector<uint8_t> half(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
  checkRejected(half, 0, std::nullopt, "truncated");
  std::vector<uint8_t> rootPastEnd = good;
  storeWord(rootPastEnd, 0, static_cast<uint32_t>(good.size() + 8));
  checkRejected(rootPastEnd, 0, std::nullopt, "past the end of the file");
}

TEST_CASE("bad input: a path that cannot be read as a file") {
  const test::TempDir dir;
  for (const std::string& path : {(dir.path() / "missing.tflite").string(), dir.path().string()}) {
    INFO("path ", path);
    try {
      io::loadNetwork(path);
      FAIL("no InputError");
    } catch (const InputError& e) {
      CHECK(e.where().file == path);
      CHECK(std::string(e.what()).rfind(path + ": cannot ", 0) == 0);
    }
  }
}

TEST_CASE("bad input: bytes failing flatbuffer verification") {
  std::vector<uint8_t> bytes = modelWithStream(validStream()).file;
  const uint32_t root = loadWord(bytes, 0);
  storeWord(bytes, root, 0x7FFFFFF0); // vtable offset far outside the buffer
  checkRejected(bytes, 0, std::nullopt, "flatbuffer verification failed");

  std::vector<uint8_t> wrongId = modelWithStream(validStream()).file;
  wrongId[4] = 'X';
  checkRejected(wrongId, 4, std::nullopt, "TFL3");
}

TEST_CASE("bad input: a model without an ethos-u operator") {
  io::ModelSpec spec;
  spec.tensors = {{"in", {1, 4}, 9, {}, 0}, {"w", {4, 4}, 9, std::vector<uint8_t>(16, 1)}, {"out", {1, 4}, 9, {}, 16}};
  spec.operators = {{9, "", {0, 1}, {2}}}; // FULLY_CONNECTED on the CPU
  spec.inputs = {0};
  spec.outputs = {2};
  const std::vector<uint8_t> bytes = io::writeTflite(spec);
  checkRejected(bytes, subgraphOffset(bytes), std::nullopt, "no ethos-u operator");
}

TEST_CASE("bad input: names and versions that are not UTF-8") {
  io::ModelSpec spec;
  spec.tensors = {{"in", {4}, 9, {}, 0}, {"out\xC3\x28", {4}, 9, {}, 16}}; // bad continuation byte
  spec.operators = {{9, "", {0}, {1}}};
  spec.inputs = {0};
  spec.outputs = {1};
  const std::vector<uint8_t> badName = io::writeTflite(spec);
  checkRejected(badName, test::findBytes(badName, {'o', 'u', 't', 0xC3}), std::nullopt, "tensor 1 name is not valid UTF-8");

  spec.tensors[1].name = "out";
  for (const char* description : {"Vela \xFF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80"}) {
    INFO("description ", description); // invalid byte, overlong '/', surrogate, past U+10FFFF
    spec.description = description;
    const std::vector<uint8_t> bytes = io::writeTflite(spec);
    const std::string text(description);
    checkRejected(bytes, test::findBytes(bytes, {text.begin(), text.end()}), std::nullopt,
                  "model description is not valid UTF-8");
  }
  spec.description = "Vela \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"; // valid 2-, 3- and 4-byte forms
  const std::vector<uint8_t> valid = io::writeTflite(spec);
  checkRejected(valid, subgraphOffset(valid), std::nullopt, "no ethos-u operator"); // got past the strings
}

TEST_CASE("bad input: wrong COP1 tag") {
  const std::vector<uint8_t> stream = validStream();
  std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), stream);
  payload[3] = '2';
  const Model m = modelWithPayload(payload);
  checkRejected(m.file, m.payload, std::nullopt, "COP1");
}

TEST_CASE("bad input: unsupported CONFIG word") {
  const std::vector<uint8_t> stream = validStream();
  struct Case {
    uint32_t config;
    const char* text;
  };
  const Case cases[] = {
      {0x20001807, "has command-stream version 0, expected 1 for the Ethos-U85"},
      {0x30001807, "targets product 3"},   // no Ethos-U product
      {0x10001807, "128 MACs/cycle; the Ethos-U65 comes as ethos-u65-256, ethos-u65-512"},
      {0x00001809, "512 MACs/cycle; the Ethos-U55 comes as ethos-u55-32, ethos-u55-64"},
      {0x10001808, "24 KB of SHRAM; ethos-u65-256 has 48 KB"},
      {0x00001817, "command-stream version 1"},
      {0x08001807, "custom DMA"},
      {0x00003007, "48 KB of SHRAM"},      // U55-128 has 24 KB
      {0x00401807, "reserved bits 0x00400000"},
      // Ethos-U85 (ethos-u85.md 2.2): [9:8] log2 SRAM ports, [10] log2 EXT ports, [13:12] log2
      // weight decoders, no SHRAM field; each must be the configuration's its MAC count names.
      {0x2000011C, "4096 MACs/cycle; the Ethos-U85 comes as ethos-u85-128, ethos-u85-256"},
      {0x20000218, "4 AXI SRAM ports; ethos-u85-256 has 2"},
      {0x20000518, "2 AXI EXT ports; ethos-u85-256 has 1"},
      {0x20001118, "2 weight decoders; ethos-u85-256 has 1"},
      {0x2000251B, "2 AXI SRAM ports; ethos-u85-2048 has 4"},
      {0x20000918, "reserved bits 0x00000800"},
      {0x20008118, "reserved bits 0x00008000"},
      {0x20003118, "8 weight decoders; ethos-u85-256 has 1"},
  };
  for (const Case& c : cases) {
    INFO("CONFIG word ", c.config);
    std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), stream);
    storeWord(payload, 8, c.config);
    const Model m = modelWithPayload(payload);
    checkRejected(m.file, m.payload + 8, std::nullopt, c.text);
  }
}

TEST_CASE("bad input: unsupported architecture version") {
  std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), validStream());
  storeWord(payload, 12, 0x20000000);
  const Model m = modelWithPayload(payload);
  checkRejected(m.file, m.payload + 12, std::nullopt, "architecture 2.0.0");
}

TEST_CASE("bad input: COMMAND_STREAM length exceeding the tensor") {
  const std::vector<uint8_t> stream = validStream();
  std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), stream);
  const auto words = static_cast<uint32_t>(stream.size() / 4 + 1);
  storeWord(payload, 28, words << 16 | 0x02);
  const Model m = modelWithPayload(payload);
  checkRejected(m.file, m.payload + 28, std::nullopt, "exceeds");

  // A length with the extra bits [15:8] set (more than 65535 words).
  storeWord(payload, 28, 0x0100 | 0x02);
  const Model big = modelWithPayload(payload);
  checkRejected(big.file, big.payload + 28, std::nullopt, "65536 words");
}

TEST_CASE("bad input: driver payload not a whole number of words") {
  std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), validStream());
  payload.push_back(0);
  const Model m = modelWithPayload(payload);
  checkRejected(m.file, m.payload + payload.size() - 1, std::nullopt, "not a multiple of 4");
}

TEST_CASE("bad input: unknown opcode") {
  for (uint16_t key : std::initializer_list<uint16_t>{0x0004, 0x0014, 0x0106, 0x4007, 0x40FF}) {
    INFO("key ", key);
    CommandStreamBuilder b;
    b.emit(test::sampleConv());
    const Mark at = nextCommand(b);
    b.word(key);
    b.emit(test::stopOp());
    const Model m = modelWithStream(b.bytes());
    checkRejected(m.file, m.commands + at.offset, at.index, "unknown");
  }
}

TEST_CASE("bad input: reserved control bits") {
  for (uint16_t key : std::initializer_list<uint16_t>{0x8002, 0xC002, 0x0402, 0x2102}) {
    INFO("key ", key);
    CommandStreamBuilder b;
    b.emit(test::sampleDma());
    const Mark at = nextCommand(b);
    b.word(key);
    b.emit(test::stopOp());
    const Model m = modelWithStream(b.bytes());
    checkRejected(m.file, m.commands + at.offset, at.index, "reserved control bits");
  }
}

TEST_CASE("bad input: command stream without NPU_OP_STOP") {
  CommandStreamBuilder b;
  b.emit(test::sampleConv());
  const Mark end = nextCommand(b);
  const Model m = modelWithStream(b.bytes());
  checkRejected(m.file, m.commands + end.offset, end.index, "without NPU_OP_STOP");

  const Model empty = modelWithStream({});
  checkRejected(empty.file, empty.commands, 0, "without NPU_OP_STOP");
}

TEST_CASE("bad input: bytes after NPU_OP_STOP") {
  CommandStreamBuilder b;
  b.emit(test::sampleConv());
  b.emit(test::stopOp());
  const Mark after = nextCommand(b);
  b.cmd0(arch::CommandId::IfmRegion, 1);
  const Model m = modelWithStream(b.bytes());
  checkRejected(m.file, m.commands + after.offset, after.index, "4 bytes follow NPU_OP_STOP");
}

TEST_CASE("bad input: truncated cmd1") {
  CommandStreamBuilder b;
  b.emit(test::sampleConv());
  const Mark at = nextCommand(b);
  b.cmd0(arch::CommandId::IfmBase0, 0); // cmd1 key without its payload word, at the end
  const Model m = modelWithStream(b.bytes());
  checkRejected(m.file, m.commands + at.offset, at.index, "NPU_SET_IFM_BASE0 has no payload word");
}

TEST_CASE("bad input: IFM outside its region") {
  Operation conv = test::sampleConv();
  conv.ifm.base[0] = 16384 - 512; // 1 KB map in a 16 KB arena
  checkBadOperation({test::sampleDma()}, conv, "IFM bytes [0x3e00, 0x4200) lie outside region 1 (16384 bytes)");

  Operation tiled = test::sampleConv();
  tiled.ifm.height0 = tiled.ifm.height1 = 4;
  tiled.ifm.base[2] = 16000; // rows 4-7 in tile 2 overrun the arena
  checkBadOperation({}, tiled, "IFM bytes");
}

TEST_CASE("bad input: OFM outside its region") {
  Operation pool = test::samplePool();
  pool.ofm.region = 2;
  pool.ofm.base[0] = 16200;
  checkBadOperation({test::sampleConv()}, pool, "OFM bytes [0x3f48, 0x4048) lie outside region 2");
}

TEST_CASE("bad input: IFM2 outside its region") {
  Operation add = test::sampleElementwise();
  add.ifm2.base[0] = 16384 - 64;
  checkBadOperation({}, add, "IFM2 bytes");
}

TEST_CASE("bad input: weight and scale streams outside their region") {
  Operation conv = test::sampleConv();
  conv.weights[0].base = 4000; // flash is 4096 bytes
  checkBadOperation({}, conv, "weight stream bytes [0xfa0, 0x17a0) lie outside region 0 (4096 bytes)");

  Operation dw = test::sampleDepthwise();
  dw.scales[0].base = 16380;
  checkBadOperation({test::sampleDma()}, dw, "scale stream bytes");
}

TEST_CASE("bad input: DMA outside its regions") {
  Operation src = test::sampleDma();
  src.dma.src = 4000;
  checkBadOperation({test::sampleConv()}, src, "DMA source bytes [0xfa0, 0x1100) lie outside region 0");

  Operation dst = test::sampleDma();
  dst.dma.dst = 16300;
  checkBadOperation({}, dst, "DMA destination bytes");
}

TEST_CASE("bad input: DMA to SHRAM beyond the SHRAM size") {
  Operation lut = test::sampleLutDma();
  lut.dma.dst = 0x5800 + 256; // U55-128: 24 KB SHRAM, the 2 KB LUT area ends at 24 KB
  checkBadOperation({}, lut, "lies outside SHRAM (24576 bytes)");

  // The same LUT load that fits an ethos-u55-128 overruns the 16 KB SHRAM of an ethos-u55-64.
  test::ModelLayout u55x64;
  u55x64.macs = 64;
  checkBadOperation({}, test::sampleLutDma(), "lies outside SHRAM (16384 bytes)", u55x64);
}

TEST_CASE("bad input: unknown pooling and elementwise modes") {
  for (uint16_t mode : std::initializer_list<uint16_t>{3, 7}) {
    CommandStreamBuilder b;
    b.emit(test::samplePool());
    const Mark at = nextCommand(b);
    b.cmd0(arch::CommandId::OpPool, mode);
    b.emit(test::stopOp());
    const Model m = modelWithStream(b.bytes());
    checkRejected(m.file, m.commands + at.offset, at.index, "NPU_OP_POOL: unknown pooling mode " + std::to_string(mode));
  }
  for (uint16_t mode : std::initializer_list<uint16_t>{10, 63}) {
    CommandStreamBuilder b;
    b.emit(test::sampleElementwise());
    const Mark at = nextCommand(b);
    b.cmd0(arch::CommandId::OpElementwise, mode);
    b.emit(test::stopOp());
    const Model m = modelWithStream(b.bytes());
    checkRejected(m.file, m.commands + at.offset, at.index,
                  "NPU_OP_ELEMENTWISE: unknown elementwise mode " + std::to_string(mode));
  }
}

TEST_CASE("bad input: reserved precision and upscale encodings") {
  struct Case {
    arch::CommandId reg;
    uint16_t value;
    const char* text;
  };
  const Case cases[] = {
      {arch::CommandId::IfmPrecision, 0x0C, "reserved IFM_PRECISION"},
      {arch::CommandId::OfmPrecision, 0x80, "reserved OFM_PRECISION"},
      {arch::CommandId::IfmUpscale, 3, "reserved IFM_UPSCALE"},
  };
  for (const Case& c : cases) {
    CommandStreamBuilder b;
    b.emit(test::sampleConv());
    b.cmd0(c.reg, c.value);
    const Mark at = nextCommand(b);
    b.cmd0(arch::CommandId::OpConv, 0);
    b.emit(test::stopOp());
    const Model m = modelWithStream(b.bytes());
    checkRejected(m.file, m.commands + at.offset, at.index, c.text);
  }
}

} // namespace npusim

namespace npusim {
namespace {

// An Ethos-U85 model (region 0 4096 bytes, regions 1 and 2 16384) whose stream `write` makes;
// `write` returns where the command the decoder must refuse starts.
struct U85Stream {
  Model model;
  Mark bad;
};
U85Stream u85Model(const std::function<Mark(CommandStreamBuilder&)>& write, uint32_t macs = 256) {
  CommandStreamBuilder b = test::u85Builder();
  const Mark bad = write(b);
  test::u85Stop(b);
  test::ModelLayout layout;
  layout.macs = macs;
  return {modelWithPayload(cmd::buildCop1Payload(test::u85(macs), b.bytes()), layout), bad};
}

void checkU85Rejected(const std::string& text, const std::function<Mark(CommandStreamBuilder&)>& write,
                      uint32_t macs = 256) {
  INFO("expecting: ", text);
  const U85Stream s = u85Model(write, macs);
  checkRejected(s.model.file, s.model.commands + s.bad.offset, s.bad.index, text);
}

// `registers` then NPU_OP_ELEMENTWISE ADD after the sample ADD's registers: the ADD is refused.
void checkBadAdd(const std::string& text, const std::function<void(CommandStreamBuilder&)>& registers,
                 uint16_t mode = 1) {
  checkU85Rejected(text, [&](CommandStreamBuilder& b) {
    test::u85AddRegisters(b);
    registers(b);
    const Mark m = nextCommand(b);
    b.cmd0(arch::CommandId::OpElementwise, mode);
    return m;
  });
}

} // namespace

TEST_CASE("sanity: the valid Ethos-U85 test model loads and decodes") {
  const U85Stream s = u85Model([](CommandStreamBuilder& b) {
    test::u85AddRegisters(b);
    b.cmd0(arch::CommandId::OpElementwise, 1);
    return Mark{};
  });
  const io::CompiledNetwork net = io::loadNetworkFromBytes(s.model.file, kFile);
  CHECK(net.hardware() == &test::u85(256));
  CHECK(io::decodeAll(net).at(0).operations.size() == 2);
}

TEST_CASE("bad input: a COP1 header whose ID word and CONFIG word name different architectures") {
  for (const auto& [config, id] : {std::pair<uint32_t, uint32_t>{0x20000118, 0x10060000},
                                   std::pair<uint32_t, uint32_t>{0x00001807, 0x20007000}}) {
    INFO("CONFIG ", config, " ID ", id);
    std::vector<uint8_t> payload = cmd::buildCop1Payload(test::u55(128), validStream());
    storeWord(payload, 8, config);
    storeWord(payload, 12, id);
    const Model m = modelWithPayload(payload);
    checkRejected(m.file, m.payload + 12, std::nullopt, "the COP1 header disagrees with itself");
  }
}

TEST_CASE("bad input: an opcode the Ethos-U85 does not define (the U55's IFM_IB_END, PARALLEL_MODE)") {
  for (uint32_t word : {0x0000010Du, 0x00000123u, 0x00004040u}) {
    checkU85Rejected("unknown cmd", [word](CommandStreamBuilder& b) {
      b.cmd0(arch::CommandId::OpKernelWait, 0);
      const Mark m = nextCommand(b);
      b.word(word);
      return m;
    });
  }
}

TEST_CASE("bad input: a U85 branch outside the stream or into a command") {
  checkU85Rejected("target byte 0x1000 lies outside the 20-byte stream", [](CommandStreamBuilder& b) {
    b.cmd1(arch::CommandId::OpScalar, 1);
    const Mark m = nextCommand(b);
    b.cmd1(arch::CommandId::OpBranch, 0x1000);
    return m;
  });
  checkU85Rejected("target byte 0x4 is not a command boundary (it lies inside NPU_SET_OP_SCALAR at byte 0x0)",
                   [](CommandStreamBuilder& b) {
                     b.cmd1(arch::CommandId::OpScalar, 1);
                     const Mark m = nextCommand(b);
                     b.cmd1(arch::CommandId::OpBranch, 4, 1);
                     return m;
                   });
}

TEST_CASE("bad input: a U85 chain that reads a chaining buffer no earlier operation of its group wrote") {
  using Id = arch::CommandId;
  const std::string text = "reads chaining buffer 1 (NPU_SET_IFM_REGION), which no earlier operation of its chained group wrote";
  checkBadAdd(text, [](CommandStreamBuilder& b) {
    b.cmd0(Id::IfmPrecision, 0x8001);
    b.cmd0(Id::IfmRegion, 1);
  });
  // A group ends with the member whose OFM leaves the chaining buffers: the next one cannot read them.
  checkU85Rejected(text, [](CommandStreamBuilder& b) {
    test::u85AddRegisters(b);
    b.cmd0(Id::OfmPrecision, 0x8001);
    b.cmd0(Id::OfmRegion, 1);
    b.cmd0(Id::OpElementwise, 0);          // writes chaining buffer 1
    b.cmd0(Id::IfmPrecision, 0x8001);
    b.cmd0(Id::IfmRegion, 1);
    b.cmd0(Id::OfmPrecision, 0x0001);
    b.cmd0(Id::OfmRegion, 1);
    b.cmd0(Id::OpElementwise, 1);          // reads it, writes memory: the group ends
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpElementwise, 2);          // reads it again
    return m;
  });
}

TEST_CASE("bad input: U85 encodings the interface reserves") {
  using Id = arch::CommandId;
  checkBadAdd("OFM transpose 4 (NPU_SET_OFM_PRECISION) is reserved",
              [](CommandStreamBuilder& b) { b.cmd0(Id::OfmPrecision, 0x2001); });
  checkBadAdd("OFM storage TILE3X1", [](CommandStreamBuilder& b) { b.cmd0(Id::OfmPrecision, 0x4001); });
  checkBadAdd("IFM storage TILE3X1 (NPU_SET_IFM_PRECISION) is not supported",
              [](CommandStreamBuilder& b) { b.cmd0(Id::IfmPrecision, 0x4001); });
  checkBadAdd("IFM2 format 2 (NPU_SET_IFM2_PRECISION) is reserved",
              [](CommandStreamBuilder& b) { b.cmd0(Id::Ifm2Precision, 0x0081); });
  checkBadAdd("accumulator format 2 (NPU_SET_ACC_FORMAT) is reserved",
              [](CommandStreamBuilder& b) { b.cmd0(Id::AccFormat, 0x0102); });
  checkBadAdd("micro-block 6 (NPU_SET_ACC_FORMAT) is reserved", [](CommandStreamBuilder& b) { b.cmd0(Id::AccFormat, 0x0600); });
  checkBadAdd("micro-block 4x4 (NPU_SET_ACC_FORMAT) is not one of ethos-u85-256's (1x2x16, 1x4x8, 2x2x8)",
              [](CommandStreamBuilder& b) { b.cmd0(Id::AccFormat, 0x0500); });
  checkBadAdd("activation function 2 (NPU_SET_ACTIVATION) is reserved",
              [](CommandStreamBuilder& b) { b.cmd0(Id::Activation, 2); });
  checkBadAdd("table 1 of 2048 bytes (NPU_SET_ACTIVATION) lies outside the 2048-byte LUT RAM",
              [](CommandStreamBuilder& b) { b.cmd0(Id::Activation, 8 | 1u << 5); });
  checkBadAdd("IFM2 broadcast 9 (NPU_SET_IFM2_BROADCAST) is reserved",
              [](CommandStreamBuilder& b) { b.cmd0(Id::Ifm2Broadcast, 9); });
  checkBadAdd("IFM2 is a SCALAR broadcast but its storage is not NONE",
              [](CommandStreamBuilder& b) { b.cmd0(Id::Ifm2Broadcast, 8); });
  checkBadAdd("OFM rounding 6 (NPU_SET_OFM_SCALE) is reserved",
              [](CommandStreamBuilder& b) { b.cmd1(Id::OfmScale, 1, 6u << 13); });
  checkBadAdd("elementwise mode 12 is reserved", [](CommandStreamBuilder&) {}, 12);
  checkU85Rejected("reserved parameter bits 0x0004 set", [](CommandStreamBuilder& b) {
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaWait, 4);
    return m;
  });
  checkU85Rejected("resize mode 3 is reserved", [](CommandStreamBuilder& b) {
    test::u85Common(b);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpResize, 3);
    return m;
  });
  checkU85Rejected("x offset 1 lies outside [-1, 1) for scale numerator 1", [](CommandStreamBuilder& b) {
    test::u85Common(b);
    b.cmd0(Id::ResizeXOffset, 1);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpResize, 0);
    return m;
  });
  checkU85Rejected("DMA stride mode 3 (NPU_SET_DMA0_SRC_REGION) is reserved", [](CommandStreamBuilder& b) {
    b.cmd0(Id::Dma0SrcRegion, 3u << 9);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaStart, 0);
    return m;
  });
  checkU85Rejected("both the source and the destination are indexed", [](CommandStreamBuilder& b) {
    b.cmd0(Id::Dma0SrcRegion, 1u << 11);
    b.cmd0(Id::Dma0DstRegion, 1 | 1u << 11);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaStart, 0);
    return m;
  });
}

TEST_CASE("bad input: a U85 weight format the interface does not define") {
  checkU85Rejected("weight format 0x0002 (NPU_SET_WEIGHT_FORMAT) sets reserved bits 0x0002", [](CommandStreamBuilder& b) {
    test::u85ConvRegisters(b, 1, 1);
    b.cmd0(arch::CommandId::WeightFormat, 0x0002);
    const Mark m = nextCommand(b);
    b.cmd0(arch::CommandId::OpConv, 0);
    return m;
  });
}

TEST_CASE("bad input: U85 addresses outside their region or the LUT RAM") {
  using Id = arch::CommandId;
  checkBadAdd("IFM bytes [0x4000, 0x4100) lie outside region 1 (16384 bytes)",
              [](CommandStreamBuilder& b) { b.cmd1(Id::IfmBase0, 0x4000); });
  checkU85Rejected("fourth weight decoder's weight stream bytes [0xff0, 0x1030) lie outside region 0 (4096 bytes)",
                   [](CommandStreamBuilder& b) {
                     test::u85ConvRegisters(b, 4, 3);   // ethos-u85-1024: four weight decoders, 2x2x32
                     b.cmd1(Id::Weight3Base, 0xFF0);
                     const Mark m = nextCommand(b);
                     b.cmd0(Id::OpConv, 0);
                     return m;
                   },
                   1024);
  checkU85Rejected("DMA destination bytes [0x10, 0x7ff8) lie outside region 1 (16384 bytes)", [](CommandStreamBuilder& b) {
    b.cmd0(Id::Dma0SrcRegion, 1u << 9);   // 2-D: 1024 rows of 8 bytes, 32 apart
    b.cmd0(Id::Dma0DstRegion, 1);
    b.cmd1(Id::Dma0Dst, 16);
    b.cmd1(Id::Dma0Len, 8);
    b.cmd0(Id::Dma0Size0, 1024);
    b.cmd1(Id::Dma0DstStride0, 32);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaStart, 0);
    return m;
  });
  checkU85Rejected("DMA destination [0x600, 0xa00) lies outside the 2048-byte LUT RAM", [](CommandStreamBuilder& b) {
    b.cmd0(Id::Dma0DstRegion, 3 | 0x100);
    b.cmd1(Id::Dma0Dst, 0x600);
    b.cmd1(Id::Dma0Len, 1024);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaStart, 0);
    return m;
  });
  checkU85Rejected("a DMA from internal memory is not supported", [](CommandStreamBuilder& b) {
    b.cmd0(Id::Dma0SrcRegion, 0x100);
    const Mark m = nextCommand(b);
    b.cmd0(Id::OpDmaStart, 0);
    return m;
  });
}

} // namespace npusim
